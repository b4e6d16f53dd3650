from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from aws_cdk import App, Stack
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_sqs as sqs
from aws_cdk.assertions import Template

from stacks.consolidation import DEFINITION, STEP_FUNCTIONS, Consolidation, placeholders
from stacks.functions import SPECS
from stacks.memory_stack import MemoryStack
from tests.infrastructure.helpers import Resources, actions, logical_id, references, statements_of
from tests.resilience.helpers_delivery import Retrier


def _state_machine(stack: MemoryStack, resources: Resources) -> dict:
    return resources[logical_id(stack.consolidation.state_machine)]["Properties"]


def test_every_placeholder_of_the_asl_is_substituted(stack: MemoryStack, resources: Resources):
    props = _state_machine(stack, resources)
    definition = props["DefinitionString"]
    assert isinstance(definition, str), "the ASL must stay inline, not an S3 asset"
    substitutions = props["DefinitionSubstitutions"]
    assert placeholders(definition) == set(substitutions) == placeholders(DEFINITION.read_text())
    for name in substitutions:
        definition = definition.replace(f"${{{name}}}", "arn")
    assert "${" not in definition


def test_each_step_invokes_its_own_function_and_the_dlq_is_the_failed_runs_queue(
    stack: MemoryStack, resources: Resources
):
    substitutions = _state_machine(stack, resources)["DefinitionSubstitutions"]
    for name in STEP_FUNCTIONS:
        key = "".join(p.title() for p in name.split("_")) + "FunctionArn"
        assert substitutions[key] == {"Fn::GetAtt": [logical_id(stack.functions[name]), "Arn"]}
    assert substitutions["DeadLetterQueueUrl"] == {"Ref": logical_id(stack.storage.failed_runs)}


def test_every_task_retries(stack: MemoryStack, resources: Resources):
    states = json.loads(_state_machine(stack, resources)["DefinitionString"])["States"]
    tasks = {name: s for name, s in states.items() if s["Type"] == "Task"}
    assert len(tasks) == len(STEP_FUNCTIONS) + 1  # + SendToDeadLetterQueue
    for name, task in tasks.items():
        assert task.get("Retry"), name


def test_a_delivery_meeting_its_twin_in_progress_outwaits_the_steps_timeout(
    stack: MemoryStack, resources: Resources
):
    # Given the steps that hold a Powertools in-progress record while they run, which lapses
    # at the latest when the function times out
    idempotent = {s.name: s.timeout_seconds for s in SPECS if s.idempotent}
    states = json.loads(_state_machine(stack, resources)["DefinitionString"])["States"]
    by_step = {
        state["Comment"].removeprefix("core step: "): state
        for state in states.values()
        if "Comment" in state
    }
    assert set(idempotent) <= set(by_step)
    for step, timeout in idempotent.items():
        # Then StepInProgress has its own retrier: no jitter (so its wait is guaranteed, not
        # drawn), and longer in all than the timeout, so the last attempt finds the twin done,
        # failed (record deleted) or timed out (record lapsed), never still holding the step
        [entry] = [r for r in by_step[step]["Retry"] if "StepInProgress" in r["ErrorEquals"]]
        assert entry["ErrorEquals"] == ["StepInProgress"], step
        assert entry["JitterStrategy"] == "NONE", step
        retrier = Retrier.from_asl(entry)
        waits = [retrier.delay(n, random.Random()) for n in range(retrier.max_attempts)]
        assert sum(waits) > timeout, step


def test_executions_are_logged_and_traced_without_their_data(
    stack: MemoryStack, resources: Resources
):
    props = _state_machine(stack, resources)
    assert props["LoggingConfiguration"]["Level"] == "ALL"
    assert props["LoggingConfiguration"]["IncludeExecutionData"] is False
    assert props["TracingConfiguration"] == {"Enabled": True}


def test_state_machine_invokes_exactly_the_steps_and_sends_only_to_the_dlq(
    stack: MemoryStack, resources: Resources
):
    role = stack.consolidation.state_machine.role
    statements = statements_of(resources, logical_id(role))
    invoke = [s for s in statements if "lambda:InvokeFunction" in actions(s)]
    assert [references(s["Resource"]) for s in invoke] == [
        {logical_id(stack.functions[n]) for n in STEP_FUNCTIONS}
    ]
    assert all(":*" not in json.dumps(s["Resource"]) for s in invoke)
    send = [s for s in statements if any(a.startswith("sqs:") for a in actions(s))]
    assert [(actions(s), references(s["Resource"])) for s in send] == [
        (["sqs:SendMessage"], {logical_id(stack.storage.failed_runs)})
    ]


def test_run_finished_events_start_the_state_machine_with_the_whole_event(
    stack: MemoryStack, resources: Resources
):
    rule = resources[logical_id(stack.consolidation.rule)]["Properties"]
    assert rule["EventPattern"] == {"detail-type": ["RunFinished"]}
    assert rule["EventBusName"] == {"Ref": logical_id(stack.consolidation.bus)}
    [target] = rule["Targets"]
    assert target["Arn"] == {"Ref": logical_id(stack.consolidation.state_machine)}
    assert not {"Input", "InputPath", "InputTransformer"} & target.keys()
    assert target["DeadLetterConfig"] == {
        "Arn": {"Fn::GetAtt": [logical_id(stack.storage.undelivered_events), "Arn"]}
    }
    assert target["RetryPolicy"]["MaximumRetryAttempts"] > 0


def test_the_bus_is_named_and_archived_for_replay(stack: MemoryStack, template: Template):
    template.has_resource_properties("AWS::Events::EventBus", {"Name": "agent-memory"})
    template.has_resource_properties(
        "AWS::Events::Archive",
        {
            "SourceArn": {"Fn::GetAtt": [logical_id(stack.consolidation.bus), "Arn"]},
            "EventPattern": {"detail-type": ["RunFinished"]},
            "RetentionDays": 14,
        },
    )


def test_a_placeholder_without_a_value_fails_synthesis(tmp_path: Path):
    asl = json.loads(DEFINITION.read_text())
    asl["States"]["Extract"]["Parameters"]["FunctionName"] = "${UnknownFunctionArn}"
    definition = tmp_path / "broken.asl.json"
    definition.write_text(json.dumps(asl))
    stack = Stack(App(), "Broken")
    code = lambda_.Code.from_inline("def handler(event, context): return event")
    functions = {
        name: lambda_.Function(
            stack, name, code=code, handler="index.handler", runtime=lambda_.Runtime.PYTHON_3_14
        )
        for name in STEP_FUNCTIONS
    }
    queue = sqs.Queue(stack, "Queue")
    with pytest.raises(ValueError, match="UnknownFunctionArn"):
        Consolidation(
            stack,
            "Consolidation",
            functions=functions,
            failed_runs=queue,
            undelivered_events=queue,
            definition=definition,
        )
