"""Executions that end without their Catch (timed out, aborted) are recorded as failed runs,
and the state machine's timeout is the bound after which a run counts as incomplete.
"""

from __future__ import annotations

import json
from typing import Any

from agent_memory.core.workflows.consolidation import INCOMPLETE_AFTER_SECONDS
from stacks.memory_stack import MemoryStack
from tests.infrastructure.helpers import Resources, logical_id

STATUS_CHANGE = "Step Functions Execution Status Change"


def unfinished_rule(resources: Resources) -> dict[str, Any]:
    rules: list[dict[str, Any]] = [
        r["Properties"]
        for r in resources.values()
        if r["Type"] == "AWS::Events::Rule"
        and r["Properties"]["EventPattern"].get("detail-type") == [STATUS_CHANGE]
    ]
    [rule] = rules
    return rule


def test_the_state_machine_times_out_when_its_run_becomes_incomplete(
    stack: MemoryStack, resources: Resources
) -> None:
    # The bound is in the definition itself: CDK drops a construct timeout for a string one.
    machine = resources[logical_id(stack.consolidation.state_machine)]["Properties"]
    assert json.loads(machine["DefinitionString"])["TimeoutSeconds"] == INCOMPLETE_AFTER_SECONDS


def test_timed_out_aborted_and_failed_executions_of_this_machine_are_matched(
    stack: MemoryStack, resources: Resources
) -> None:
    pattern = unfinished_rule(resources)["EventPattern"]
    assert pattern["source"] == ["aws.states"]
    # Step Functions sends these to the default bus: the rule names no other.
    assert "EventBusName" not in unfinished_rule(resources)
    assert sorted(pattern["detail"]["status"]) == ["ABORTED", "FAILED", "TIMED_OUT"]
    machine = logical_id(stack.consolidation.state_machine)
    assert pattern["detail"]["stateMachineArn"] == [{"Ref": machine}]


def test_the_failure_recorder_gets_the_execution_and_its_status(
    stack: MemoryStack, resources: Resources
) -> None:
    [target] = unfinished_rule(resources)["Targets"]
    recorder = logical_id(stack.functions["record_failure"])
    assert target["Arn"] == {"Fn::GetAtt": [recorder, "Arn"]}
    transformer = target["InputTransformer"]
    paths = transformer["InputPathsMap"]
    assert sorted(paths.values()) == ["$.detail.executionArn", "$.detail.status"]
    # The recorder reads the run's event back from the execution (no event in the input).
    rendered = transformer["InputTemplate"]
    for name, path in paths.items():
        value = "arn:aws:states:us-east-1:1:execution:m:x" if "executionArn" in path else "ABORTED"
        rendered = rendered.replace(f"<{name}>", json.dumps(value))
    payload = json.loads(rendered)
    assert payload["execution"] == "arn:aws:states:us-east-1:1:execution:m:x"
    assert payload["error"]["Error"] == "ABORTED" and "event" not in payload


def test_eventbridge_may_invoke_the_recorder_from_this_rule_only(
    stack: MemoryStack, resources: Resources
) -> None:
    recorder = logical_id(stack.functions["record_failure"])
    [rule_id] = [
        lid
        for lid, r in resources.items()
        if r["Type"] == "AWS::Events::Rule"
        and r["Properties"]["EventPattern"].get("detail-type") == [STATUS_CHANGE]
    ]
    permissions = [
        r["Properties"]
        for r in resources.values()
        if r["Type"] == "AWS::Lambda::Permission"
        and r["Properties"]["FunctionName"] == {"Fn::GetAtt": [recorder, "Arn"]}
    ]
    assert permissions == [
        {
            "Action": "lambda:InvokeFunction",
            "FunctionName": {"Fn::GetAtt": [recorder, "Arn"]},
            "Principal": "events.amazonaws.com",
            "SourceArn": {"Fn::GetAtt": [rule_id, "Arn"]},
        }
    ]


def test_an_undeliverable_status_change_is_kept_in_the_undelivered_events_queue(
    stack: MemoryStack, resources: Resources
) -> None:
    [target] = unfinished_rule(resources)["Targets"]
    queue = logical_id(stack.storage.undelivered_events)
    assert target["DeadLetterConfig"]["Arn"] == {"Fn::GetAtt": [queue, "Arn"]}
