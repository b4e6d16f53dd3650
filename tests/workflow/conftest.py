"""The real consolidation ASL executed by moto's Step Functions engine.

Lambda tasks are routed to the in-process handlers of ``functions/`` (``moto_with_handlers``,
shared with the resilience harness); DynamoDB, S3 and SQS are moto's; models are fakes (the
model boundary), and so is Bedrock's knowledge base (``tests/support/fake_bedrock_kb.py``).
Tenant clients are wrapped so they behave like a session narrowed by ``dynamodb:LeadingKeys``.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from unittest import mock

import boto3
import pytest

from agent_memory.wiring import aws as wiring
from agent_memory.wiring.aws_settings import AwsSettings
from tests.integration.aws.moto_dynamodb import (
    REGION,
    create_tables,
    tenant_access,
)
from tests.support.embedder import HashingEmbedder
from tests.support.fake_bedrock_kb import FakeBedrockKnowledgeBase
from tests.support.fakes import FakePiiDetector
from tests.support.guarded_runtime import GuardedRuntime
from tests.support.memory import HASHING_CALIBRATION
from tests.support.moto_workflow import (
    deploy_consolidation,
    moto_with_handlers,
    start_execution,
    wait_for_execution,
    wait_until_none_running,
)

BUCKET = "agent-memory-kb-docs"
KB_ID, DS_ID = "KB12345678", "DS12345678"


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
        return start_execution(self.sfn, self.state_machine_arn, event)

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


@pytest.fixture(scope="module")
def workflow() -> Iterator[Workflow]:
    invocations: list[str] = []
    with moto_with_handlers(invocations):
        dynamodb = boto3.client("dynamodb", region_name=REGION)
        tables = create_tables(dynamodb)
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
            kb_bucket=BUCKET,
            knowledge_base_id=KB_ID,
            kb_data_source_id=DS_ID,
            **tenant_access(tables.values()),
        )
        # moto lacks Bedrock's KB: the fake answers on the runtime's real clients (so the
        # session's IAM check sees Retrieve); nothing is ingested, so it finds nothing.
        kb = FakeBedrockKnowledgeBase(
            s3,
            bucket=BUCKET,
            knowledge_base_id=KB_ID,
            data_source_id=DS_ID,
            embedder=HashingEmbedder(),
        )
        pii = FakePiiDetector()
        runtime = GuardedRuntime(
            settings,
            session=boto3.Session(region_name=REGION),
            embedder=HashingEmbedder(),
            pii=pii,
            calibrations={"test-hashing": HASHING_CALIBRATION},
            prepare_client=kb.serve_on,
            dynamodb_lock=threading.Lock(),
        )
        with mock.patch.object(wiring, "_current", runtime):
            yield Workflow(sfn, sqs, s3, dynamodb, machine, queue_url, runtime, pii, invocations)
        wait_until_none_running(sfn, machine, poll=0.05)


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
