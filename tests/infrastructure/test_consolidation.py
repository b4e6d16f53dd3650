from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aws_cdk import App, Stack
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_sqs as sqs
from aws_cdk.assertions import Template

from stacks.consolidation import DEFINITION, STEP_FUNCTIONS, Consolidation, placeholders
from stacks.memory_stack import MemoryStack
from tests.infrastructure.helpers import Resources, actions, logical_id, references, statements_of


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


def test_run_finished_events_start_the_state_machine_with_their_detail_alone(
    stack: MemoryStack, resources: Resources
):
    """PutEvents admits an entry of up to 256 KB counting Source, DetailType and Detail
    (https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-putevent-size.html); the
    envelope EventBridge adds around the detail could push it past Step Functions' 256 KiB
    execution input (https://docs.aws.amazon.com/step-functions/latest/dg/limits-overview.html).
    """
    rule = resources[logical_id(stack.consolidation.rule)]["Properties"]
    assert rule["EventPattern"] == {"detail-type": ["RunFinished"]}
    assert rule["EventBusName"] == {"Ref": logical_id(stack.consolidation.bus)}
    [target] = rule["Targets"]
    assert target["Arn"] == {"Ref": logical_id(stack.consolidation.state_machine)}
    assert target["InputPath"] == "$.detail"
    assert not {"Input", "InputTransformer"} & target.keys()
    assert target["DeadLetterConfig"] == {
        "Arn": {"Fn::GetAtt": [logical_id(stack.storage.undelivered_events), "Arn"]}
    }
    assert target["RetryPolicy"]["MaximumRetryAttempts"] > 0


def test_the_failure_path_never_carries_the_runs_input():
    """A state larger than 256 KiB fails with States.DataLimitExceeded, which no Catch
    catches (https://docs.aws.amazon.com/step-functions/latest/dg/concepts-error-handling.html):
    the failure path must stay small whatever the run's size.
    """
    # Given the ASL
    states = json.loads(DEFINITION.read_text())["States"]
    # Then no state reads the execution's input back, and every Catch to RecordFailedRun
    # keeps the error alone (not the failed state's input beside it)
    assert "$$.Execution.Input" not in DEFINITION.read_text()
    catches = [c for s in states.values() for c in s.get("Catch", [])]
    to_record = [c for c in catches if c["Next"] == "RecordFailedRun"]
    assert len(to_record) == len(STEP_FUNCTIONS) - 1
    assert all(c["ResultPath"] == "$" for c in to_record)


def test_record_failure_reads_executions_of_this_state_machine_only(
    stack: MemoryStack, resources: Resources
):
    # Given the record_failure role's statements on Step Functions
    role = logical_id(stack.functions["record_failure"].role)
    machine = logical_id(stack.consolidation.state_machine)
    granted = [
        s
        for s in statements_of(resources, role)
        if any(a.startswith("states:") for a in actions(s))
    ]
    # Then it may describe executions, of this state machine only
    [statement] = granted
    assert actions(statement) == ["states:DescribeExecution"]
    assert references(statement["Resource"]) - {
        "AWS::Partition",
        "AWS::Region",
        "AWS::AccountId",
    } == {machine}
    assert ":execution:" in json.dumps(statement["Resource"])
    assert json.dumps(statement["Resource"]).endswith(':*"]]}')


def test_the_bus_is_named_and_archived_for_replay(stack: MemoryStack, template: Template):
    template.has_resource_properties("AWS::Events::EventBus", {"Name": "AgentMemory-events"})
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
    asl["States"]["Extract"]["Resource"] = "${UnknownFunctionArn}"
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


def _empty_strings(value: Any, path: str) -> Iterator[str]:
    """Paths of every "" in a template fragment, except Fn::Join's delimiter (a separator)."""
    if value == "":
        yield path
    elif isinstance(value, dict):
        for key, item in value.items():
            if key == "Fn::Join":
                yield from _empty_strings(item[1], f"{path}/Fn::Join[1]")
            else:
                yield from _empty_strings(item, f"{path}/{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _empty_strings(item, f"{path}[{index}]")


def test_the_archive_names_no_kms_key_unless_one_is_given(resources: Resources):
    """CDK writes ``KmsKeyIdentifier: ""`` on an archive without a key, which CloudFormation
    rejects in some Regions (aws/aws-cdk#37847); absent, EventBridge uses an AWS owned key
    (https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-events-archive.html).
    """
    # Given the synthesized stack's archives
    archives = [r for r in resources.values() if r["Type"] == "AWS::Events::Archive"]
    # Then there is one, and it carries no KmsKeyIdentifier at all
    assert len(archives) == 1
    assert all("KmsKeyIdentifier" not in a["Properties"] for a in archives)


# Empty values that were looked at and are valid: a Lambda environment variable may be empty
# (CHAT_MODEL_ID "" means no chat model; test_functions.py asserts it).
_EMPTY_ALLOWED = re.compile(r"^Functions\w+/Environment/Variables/CHAT_MODEL_ID$")


def test_no_resource_property_is_an_empty_string(resources: Resources):
    # Given every property of every resource of the template
    found = [
        path
        for logical, resource in resources.items()
        for path in _empty_strings(resource.get("Properties", {}), logical)
    ]
    # Then none is "", but for the ones looked at and allowed
    assert [p for p in found if not _EMPTY_ALLOWED.match(p)] == []


# Name properties that name no account- and Region-wide resource: an inline policy's name is
# its role's, a data source's its knowledge base's; the rest are labels or references.
_SCOPED_NAMES = {
    ("AWS::IAM::Policy", "PolicyName"),
    ("AWS::Bedrock::DataSource", "Name"),
    ("AWS::SNS::Topic", "DisplayName"),
    ("AWS::CloudWatch::Alarm", "MetricName"),
    ("AWS::Events::Rule", "EventBusName"),
}


def _resolved_name(value: Any, stack_name: str) -> str | None:
    """A name's value once deployed as ``stack_name``; None if it refers to another resource
    (whose own name is then checked in its place)."""
    if isinstance(value, str):
        return value
    if value == {"Ref": "AWS::StackName"}:
        return stack_name
    if isinstance(value, dict) and "Fn::Join" in value:
        delimiter, parts = value["Fn::Join"]
        resolved = [_resolved_name(part, stack_name) for part in parts]
        return None if None in resolved else delimiter.join(str(r) for r in resolved)
    return None


def _physical_names(stack_name: str, context: dict[str, Any], outdir: Path) -> set[tuple]:
    app = App(context=context, outdir=str(outdir))
    template = Template.from_stack(MemoryStack(app, stack_name)).to_json()
    names = set()
    for resource in template["Resources"].values():
        for key, value in resource.get("Properties", {}).items():
            if key.endswith("Name") and (resource["Type"], key) not in _SCOPED_NAMES:
                name = _resolved_name(value, stack_name)
                if name is not None:
                    names.add((resource["Type"], key, name))
    return names


def test_two_stacks_deploy_side_by_side_without_a_name_collision(
    context: dict[str, Any], tmp_path: Path
):
    # Given two stacks synthesized for the same account and Region
    first = _physical_names("MemoryBlue", context, tmp_path / "blue")
    second = _physical_names("MemoryGreen", context, tmp_path / "green")
    # Then each names resources (the check is not vacuous), and no physical name is in both
    assert ("AWS::Events::EventBus", "Name", "MemoryBlue-events") in first
    assert first & second == set()
