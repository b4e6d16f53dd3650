"""Every AWS call the operator commands docs/aws.md prints make (``agent-memory --aws-stack``
export, forget a tenant, an agent or a run, history, failed list and replay) is granted by the
operator policy the stack outputs (``OperatorPolicyArn``): the commands run as typed against the
moto-backed stack of ``tests/integration/aws/test_cli_on_stack.py``, each call they make is
turned into the IAM requests AWS authorizes, and each is evaluated against that policy.

IAM's evaluation logic:
https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic.html.
"""

from __future__ import annotations

from typing import Any
from unittest import mock

from botocore.client import BaseClient

from agent_memory.app.messages import FlagMemory
from stacks.memory_stack import MemoryStack
from tests.infrastructure.helpers import Resources, logical_id
from tests.integration.aws import test_cli_on_stack
from tests.integration.aws.moto_dynamodb import REGION
from tests.integration.aws.test_cli_on_stack import Cli, _fail_a_run
from tests.support.aws_calls import template_of
from tests.support.iam_check import ACCOUNT, Deployment, Policy, Request, Tables, requests_for

# The moto-backed stack and its CLI (a fixture of the CLI's own tests).
cli = test_cli_on_stack.cli

# The flag an agent of acme raised, which the operator dismisses (see the test below).
FLAG = "reviewer:episode:reviewer/run-1"
COMMANDS = (
    ("export", "--tenant", "acme"),
    ("failed", "list"),
    ("failed", "list", "--incomplete-after", "0"),
    ("failed", "replay"),
    ("flags", "list", "--tenant", "acme"),
    ("flags", "dismiss", FLAG, "--tenant", "acme", "--reviewer", "ops", "--reason", "Right"),
    ("history", "--tenant", "acme"),
    ("redact", "--tenant", "acme", "--text", "vendor MSA", "--reviewer", "ops", "--yes"),
    ("forget", "--tenant", "acme", "--agent", "reviewer", "--run", "run-1", "--yes"),
    ("forget", "--tenant", "acme", "--agent", "reviewer", "--yes"),
    ("forget", "--tenant", "acme", "--yes"),
)


def operator_policy(stack: MemoryStack, resources: Resources, cli: Cli) -> Policy:
    """The stack's operator policy, resolved for the moto stack's physical names."""
    settings = cli.runtime.settings
    queue = cli.outputs["DeadLetterQueueUrl"].rstrip("/").split("/")[-1]
    machine = cli.outputs["StateMachineArn"]
    bindings = {
        logical_id(stack.storage.failed_runs): {
            "Arn": f"arn:aws:sqs:{REGION}:{ACCOUNT}:{queue}",
            "QueueName": queue,
        },
        logical_id(stack.consolidation.state_machine): {
            "Ref": machine,
            "Name": machine.rsplit(":", 1)[-1],
        },
    }
    deployment = Deployment(settings, REGION)
    return template_of(stack, resources).managed_policy(
        logical_id(stack.operator_access.policy), deployment, bindings
    )


def operator_requests(cli: Cli) -> tuple[list[Request], list[tuple[tuple[str, ...], int]]]:
    """The IAM requests of every documented operator command, and each command's exit code."""
    calls: list[tuple[str, str, dict[str, Any]]] = []
    original = BaseClient._make_api_call

    def recording(client: Any, operation: str, params: dict[str, Any]) -> Any:
        calls.append((client.meta.service_model.service_name, operation, params))
        return original(client, operation, params)

    codes = []
    with mock.patch.object(BaseClient, "_make_api_call", recording):
        for command in COMMANDS:
            codes.append((command, cli(*command)[0]))
    tables = Tables.of(cli.runtime.settings)
    requests = [
        request
        for service, operation, params in calls
        for request in requests_for(service, operation, params, region=REGION, tables=tables)
    ]
    return requests, codes


def test_every_call_of_the_operator_commands_is_granted_by_the_operator_policy(
    stack: MemoryStack, resources: Resources, cli: Cli
) -> None:
    # Given a failed run waiting for replay beside the tenants' records, and an agent's flag
    _fail_a_run(cli, "run-failed-1")
    flagged = cli.runtime.application("acme").handle(
        FlagMemory("acme", "reviewer", "episode", "run-1", "Out of date")
    )
    assert flagged["flag_id"] == FLAG
    # When the operator runs each documented command on the stack
    requests, codes = operator_requests(cli)
    # Then each succeeded, made the calls the docs name, and the operator policy grants all
    assert all(code == 0 for _, code in codes), codes
    actions = {r.action for r in requests}
    assert {
        "cloudformation:DescribeStacks",
        "dynamodb:Query",
        "dynamodb:Scan",
        "states:StartExecution",
        "sqs:ReceiveMessage",
        "sqs:DeleteMessage",
        "s3:ListBucket",
    } <= actions
    policy = operator_policy(stack, resources, cli)
    refused = sorted({(r.action, r.resource) for r in requests if not policy.decide(r, {})[0]})
    assert refused == [], refused


def test_the_operator_policy_reaches_no_other_stack_or_bucket(
    stack: MemoryStack, resources: Resources, cli: Cli
) -> None:
    policy = operator_policy(stack, resources, cli)
    outside = [
        Request.of(
            "cloudformation:DescribeStacks",
            f"arn:aws:cloudformation:{REGION}:{ACCOUNT}:stack/Other/0000",
        ),
        Request.of("s3:DeleteObject", "arn:aws:s3:::another-bucket/tenants/acme/x.json"),
        Request.of("dynamodb:DeleteTable", "arn:aws:dynamodb:us-east-1:123456789012:table/x"),
    ]
    assert [r for r in outside if policy.decide(r, {})[0]] == []
