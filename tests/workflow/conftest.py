"""The real consolidation ASL executed by moto's Step Functions engine.

Lambda tasks are routed to the in-process handlers of ``functions/``; DynamoDB, S3 and SQS are
moto's; models are fakes (the model boundary). Tenant clients are wrapped so they behave like a
session narrowed by ``dynamodb:LeadingKeys``.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any
from unittest import mock

import boto3
import pytest
from moto import mock_aws
from moto.awslambda_simple.models import LambdaSimpleBackend

from agent_memory.wiring import aws as wiring
from agent_memory.wiring.aws_settings import AwsSettings
from tests.integration.aws.moto_dynamodb import (
    FAKE_CREDENTIALS,
    REGION,
    create_tables,
    tenant_access,
)
from tests.support.aws_calls import answer_on_client
from tests.support.embedder import HashingEmbedder
from tests.support.fakes import FakePiiDetector
from tests.support.lambda_context import LambdaContext
from tests.support.leading_keys import LeadingKeysGuard
from tests.support.memory import HASHING_CALIBRATION
from tests.support.moto_workflow import deploy_consolidation, handler_reply, wait_for_execution

BUCKET = "agent-memory-kb-docs"


class EmptyKnowledgeBaseRuntime:
    """bedrock-agent-runtime, which moto lacks: retrieve finds nothing (nothing is ingested)."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []

    def retrieve(self, **request: Any) -> dict[str, Any]:
        self.requests.append(request)
        return {"retrievalResults": []}


class GuardedRuntime(wiring.AwsRuntime):
    """The Lambda runtime with every tenant's DynamoDB client under LeadingKeys."""

    kb_runtime = EmptyKnowledgeBaseRuntime()

    def client(self, service: str, tenant_id: str | None = None) -> Any:
        client = super().client(service, tenant_id)
        if service == "bedrock-agent-runtime":
            # A real client the fake answers on, so the session's IAM check sees Retrieve.
            if not getattr(client, "_kb_answered", False):
                answer_on_client(client, {"Retrieve": lambda p: self.kb_runtime.retrieve(**p)})
                client._kb_answered = True
            return client
        if service == "dynamodb" and tenant_id is not None:
            return LeadingKeysGuard(client, tenant_id)
        return client


@dataclass
class Workflow:
    """The deployed-in-moto consolidation workflow and what tests inspect."""

    sfn: Any
    sqs: Any
    s3: Any
    dynamodb: Any
    state_machine_arn: str
    queue_url: str
    runtime: GuardedRuntime
    pii: FakePiiDetector
    invocations: list[str]

    def start(self, event: dict[str, Any]) -> str:
        """Start an execution; its ARN."""
        arn: str = self.sfn.start_execution(
            stateMachineArn=self.state_machine_arn,
            name=f"run-{uuid.uuid4().hex[:12]}",
            input=json.dumps(event),
        )["executionArn"]
        return arn

    def wait(self, arn: str, *, timeout: float = 60.0) -> dict[str, Any]:
        """Wait for the execution to end; its description."""
        return wait_for_execution(self.sfn, arn, timeout=timeout, poll=0.05)

    def run(self, event: dict[str, Any], *, timeout: float = 60.0) -> dict[str, Any]:
        """Start an execution and wait for it to end; its description."""
        return self.wait(self.start(event), timeout=timeout)

    def history(self, execution_arn: str) -> list[dict[str, Any]]:
        return list(self.sfn.get_execution_history(executionArn=execution_arn)["events"])

    def dead_letters(self) -> list[dict[str, Any]]:
        received = self.sqs.receive_message(
            QueueUrl=self.queue_url, MaxNumberOfMessages=10, WaitTimeSeconds=0
        )
        return [json.loads(m["Body"]) for m in received.get("Messages", [])]


def _route_to_handlers(invocations: list[str]) -> Callable[..., bytes]:
    def invoke(
        self: LambdaSimpleBackend,
        function_name: str,
        qualifier: str | None,
        body: Any,
        headers: Any,
        response_headers: Any,
    ) -> bytes:
        name = function_name.rsplit(":", 1)[-1]
        invocations.append(name)
        return handler_reply(name, body, response_headers, LambdaContext(name))

    return invoke


@pytest.fixture(scope="module")
def workflow() -> Iterator[Workflow]:
    env = {
        **FAKE_CREDENTIALS,
        "POWERTOOLS_TRACE_DISABLED": "true",
        "POWERTOOLS_METRICS_NAMESPACE": "AgentMemory",
        "POWERTOOLS_SERVICE_NAME": "agent-memory",
    }
    config = {"stepfunctions": {"execute_state_machine": True}, "lambda": {"use_docker": False}}
    invocations: list[str] = []
    with (
        mock.patch.dict(os.environ, env),
        mock_aws(config=config),  # type: ignore[arg-type]
        mock.patch.object(LambdaSimpleBackend, "invoke", _route_to_handlers(invocations)),
    ):
        dynamodb = boto3.client("dynamodb", region_name=REGION)
        tables = create_tables(dynamodb)
        dynamodb.create_table(
            TableName="agent-memory-idempotency",
            KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
            BillingMode="PAY_PER_REQUEST",
        )
        s3 = boto3.client("s3", region_name=REGION)
        s3.create_bucket(Bucket=BUCKET)
        sqs = boto3.client("sqs", region_name=REGION)
        queue_url = sqs.create_queue(QueueName="agent-memory-consolidation-dlq")["QueueUrl"]
        sfn, machine = deploy_consolidation(queue_url)

        settings = AwsSettings(
            episodes_table=tables["episodes"],
            facts_table=tables["facts"],
            procedures_table=tables["procedures"],
            ledger_table=tables["ledger"],
            idempotency_table="agent-memory-idempotency",
            kb_bucket=BUCKET,
            knowledge_base_id="KB12345678",
            kb_data_source_id="DS12345678",
            **tenant_access(tables.values()),
        )
        pii = FakePiiDetector()
        runtime = GuardedRuntime(
            settings,
            session=boto3.Session(region_name=REGION),
            embedder=HashingEmbedder(),
            pii=pii,
            calibrations={"test-hashing": HASHING_CALIBRATION},
        )
        with mock.patch.object(wiring, "_current", runtime):
            yield Workflow(sfn, sqs, s3, dynamodb, machine, queue_url, runtime, pii, invocations)
        _wait_for_running(sfn, machine)


def _wait_for_running(sfn: Any, machine: str) -> None:
    for _ in range(200):
        running = sfn.list_executions(stateMachineArn=machine, statusFilter="RUNNING")
        if not running["executions"]:
            return
        time.sleep(0.05)


def eventbridge_event(detail: dict[str, Any]) -> dict[str, Any]:
    """A RunFinished event as the rule hands it to the state machine."""
    return {
        "version": "0",
        "id": str(uuid.uuid4()),
        "detail-type": "RunFinished",
        "source": "acme.contract-reviewer",
        "account": "123456789012",
        "time": "2026-11-30T10:00:00Z",
        "region": REGION,
        "resources": [],
        "detail": detail,
    }
