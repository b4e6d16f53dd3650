"""``agent-memory --aws-stack NAME mcp``: the same tools over a deployed stack (on moto).

The stack's outputs name a moto event bus and the bootstrap and review functions, whose
invocations run the in-process handlers of ``functions/`` against moto's tables. The server is
built as the CLI builds it (its parser, its choice of ``MemoryClient.aws_from_stack``) and
reached by the MCP SDK's client in-process: moto answers inside this process only.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from unittest import mock

import anyio
import boto3
import pytest
from mcp.client import Client

from agent_memory.cli.commands_mcp import _identity, _memory
from agent_memory.cli.main import _parser
from agent_memory.core.workflows import consolidation
from agent_memory.integrations.mcp import build_server
from agent_memory.wiring import aws as wiring
from agent_memory.wiring.aws_settings import AwsSettings
from tests.integration.aws.moto_dynamodb import (
    REGION,
    create_tables,
    tenant_access,
)
from tests.mcp.servers import text_of
from tests.support.embedder import HashingEmbedder
from tests.support.fake_bedrock_kb import FakeBedrockKnowledgeBase
from tests.support.fakes import FakePiiDetector
from tests.support.guarded_runtime import GuardedRuntime
from tests.support.memory import HASHING_CALIBRATION, run_event
from tests.support.moto_workflow import _placeholder_zip, moto_with_handlers

STACK = "agent-memory-mcp"
BUS = "agent-memory-bus"
BUCKET = "agent-memory-kb-docs"
KB_ID, DS_ID = "KB12345678", "DS12345678"
FINDING = run_event("run-1")["artifacts"]["key_findings"][0]


@dataclass
class Stack:
    """The deployed-on-moto stack: where the bus's events land, and the runtime's ports."""

    sqs: Any
    queue_url: str
    runtime: GuardedRuntime

    def events(self) -> list[dict[str, Any]]:
        received = self.sqs.receive_message(QueueUrl=self.queue_url, MaxNumberOfMessages=10)
        return [json.loads(m["Body"]) for m in received.get("Messages", [])]


@pytest.fixture
def stack() -> Iterator[Stack]:
    with moto_with_handlers():
        dynamodb = boto3.client("dynamodb", region_name=REGION)
        tables = create_tables(dynamodb)
        s3 = boto3.client("s3", region_name=REGION)
        s3.create_bucket(Bucket=BUCKET)
        settings = AwsSettings(
            episodes_table=tables["episodes"],
            facts_table=tables["facts"],
            procedures_table=tables["procedures"],
            ledger_table=tables["ledger"],
            kb_bucket=BUCKET,
            knowledge_base_id=KB_ID,
            kb_data_source_id=DS_ID,
            **tenant_access(tables.values()),
        )
        kb = FakeBedrockKnowledgeBase(
            s3,
            bucket=BUCKET,
            knowledge_base_id=KB_ID,
            data_source_id=DS_ID,
            embedder=HashingEmbedder(),
        )
        runtime = GuardedRuntime(
            settings,
            session=boto3.Session(region_name=REGION),
            embedder=HashingEmbedder(),
            pii=FakePiiDetector(),
            calibrations={"test-hashing": HASHING_CALIBRATION},
            prepare_client=kb.serve_on,
        )
        sqs = boto3.client("sqs", region_name=REGION)
        queue_url = sqs.create_queue(QueueName="bus-events")["QueueUrl"]
        _deploy(sqs, queue_url)
        with mock.patch.object(wiring, "_current", runtime):
            yield Stack(sqs, queue_url, runtime)


def _deploy(sqs: Any, queue_url: str) -> None:
    """The bus (its events copied to a queue), the two functions, and the stack's outputs."""
    events = boto3.client("events", region_name=REGION)
    events.create_event_bus(Name=BUS)
    every_event = json.dumps({"source": [{"prefix": ""}]})
    events.put_rule(Name="all", EventBusName=BUS, EventPattern=every_event)
    queue_arn = sqs.get_queue_attributes(QueueUrl=queue_url, AttributeNames=["QueueArn"])[
        "Attributes"
    ]["QueueArn"]
    events.put_targets(Rule="all", EventBusName=BUS, Targets=[{"Id": "q", "Arn": queue_arn}])
    role = boto3.client("iam", region_name=REGION).create_role(
        RoleName="functions", AssumeRolePolicyDocument="{}"
    )["Role"]["Arn"]
    awslambda = boto3.client("lambda", region_name=REGION)
    names = {}
    for output, function in (
        ("BootstrapFunctionName", "bootstrap"),
        ("ProcedureReviewFunctionName", "procedure_review"),
    ):
        names[output] = awslambda.create_function(
            FunctionName=f"stack-{function}",
            Runtime="python3.12",
            Role=role,
            Handler="handler.handler",
            Code={"ZipFile": _placeholder_zip()},
        )["FunctionName"]
    outputs = {"EventBusName": BUS, **names}
    template = {
        "Resources": {"Marker": {"Type": "AWS::SQS::Queue"}},
        "Outputs": {key: {"Value": value} for key, value in outputs.items()},
    }
    boto3.client("cloudformation", region_name=REGION).create_stack(
        StackName=STACK, TemplateBody=json.dumps(template)
    )


def test_the_server_on_a_stack_serves_its_memory_and_puts_runs_on_its_bus(
    stack: Stack,
) -> None:
    # Given a run of acme's reviewer consolidated on the stack
    consolidation.consolidate(run_event("run-1"), stack.runtime.ports("acme"))
    # And the server the CLI builds for `--aws-stack NAME mcp --tenant acme --agent reviewer`
    args = _parser().parse_args(
        ["--aws-stack", STACK, "--region", REGION, "mcp", "--tenant", "acme", "--agent", "reviewer"]
    )
    memory = _memory(args)
    assert memory.mode == "aws"
    server = build_server(memory, _identity(args))

    # When a host asks for a similar task's context and records its run
    async def scenario() -> tuple[Any, Any]:
        async with Client(server) as client:
            context = await client.call_tool(
                "memory_context", {"task": "Review the Contoso MSA liability cap"}
            )
            recorded = await client.call_tool(
                "record_run", {"task": "Review the Contoso MSA", "run_id": "run-2"}
            )
            return context, recorded

    context, recorded = anyio.run(scenario)
    memory.close()
    # Then the context comes from the stack's bootstrap function
    assert not context.is_error, text_of(context)
    assert FINDING in text_of(context)
    assert context.structured_content["episodes"][0]["run_id"] == "run-1"
    # And the run is on the stack's bus as a RunFinished event of acme's reviewer
    assert recorded.structured_content == {"run_id": "run-2", "status": "SUBMITTED"}
    (event,) = stack.events()
    assert event["detail-type"] == "RunFinished"
    assert (event["detail"]["tenant_id"], event["detail"]["agent_id"]) == ("acme", "reviewer")
