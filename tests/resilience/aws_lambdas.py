"""The Lambda handlers in-process on moto, for resilience tests of the AWS path.

DynamoDB and S3 are moto's; Bedrock's knowledge-base APIs, which moto lacks, are the shared
fake of ``tests/support/fake_bedrock_kb.py``, instant (a job ingests the bucket at once). Models
are whatever the test passes (a PII detector, the hashing embedder).
"""

from __future__ import annotations

import io
import json
import logging
import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from typing import Any
from unittest import mock

import boto3
from moto import mock_aws

from agent_memory.core.ports import PiiDetector
from agent_memory.wiring import aws as wiring
from agent_memory.wiring.aws_settings import AwsSettings
from tests.integration.aws.moto_dynamodb import (
    FAKE_CREDENTIALS,
    REGION,
    create_tables,
    tenant_access,
)
from tests.support.embedder import HashingEmbedder
from tests.support.fake_bedrock_kb import FakeBedrockKnowledgeBase
from tests.support.lambda_context import LambdaContext
from tests.support.memory import HASHING_CALIBRATION

BUCKET = "agent-memory-kb-docs"
KB_ID, DS_ID = "KB12345678", "DS12345678"
STEPS = ("extract", "scrub", "write_episode", "confirm_facts", "stage_kb_docs", "propose_procedure")


class FakeBedrockRuntime(wiring.AwsRuntime):
    """The Lambda runtime with Bedrock's knowledge-base clients faked."""

    bedrock: FakeBedrockKnowledgeBase

    def client(self, service: str, tenant_id: str | None = None) -> Any:
        client = super().client(service, tenant_id)
        # A real client the fake answers on, so the session's IAM check sees the calls.
        if not getattr(client, "_kb_answered", False):
            self.bedrock.serve_on(client)
            client._kb_answered = True
        return client


def eventbridge_event(detail: Any, detail_type: str = "RunFinished") -> dict[str, Any]:
    """``detail`` as the EventBridge rule hands it to the state machine."""
    return {
        "version": "0",
        "id": str(uuid.uuid4()),
        "detail-type": detail_type,
        "source": "acme.contract-reviewer",
        "account": "123456789012",
        "time": "2026-09-20T10:00:00Z",
        "region": REGION,
        "resources": [],
        "detail": detail,
    }


@dataclass
class AwsMemory:
    """The deployed functions' view of a moto account, and what tests inspect."""

    runtime: FakeBedrockRuntime
    dynamodb: Any
    s3: Any
    tables: list[str]

    def invoke(self, function: str, event: Any) -> Any:
        """Call ``functions/<function>/handler.py`` as Lambda would (JSON in, JSON out)."""
        module = __import__(f"functions.{function}.handler", fromlist=["handler"])
        result = module.handler(json.loads(json.dumps(event)), LambdaContext(function))
        return json.loads(json.dumps(result))

    def consolidate(self, detail: dict[str, Any]) -> dict[str, Any]:
        """The six consolidation steps in the ASL's order, on one EventBridge event."""
        state = eventbridge_event(detail)
        for step in STEPS:
            state = self.invoke(step, state)
        return state

    def items(self) -> list[dict[str, Any]]:
        """Every item of every table, as DynamoDB holds it."""
        found: list[dict[str, Any]] = []
        for table in self.tables:
            for page in self.dynamodb.get_paginator("scan").paginate(TableName=table):
                found.extend(page["Items"])
        return found

    def objects(self) -> dict[str, bytes]:
        """Every object of the knowledge-base bucket, by key."""
        listing = self.s3.list_objects_v2(Bucket=BUCKET).get("Contents", [])
        return {
            o["Key"]: self.s3.get_object(Bucket=BUCKET, Key=o["Key"])["Body"].read()
            for o in listing
        }


@contextmanager
def aws_memory(pii: PiiDetector) -> Iterator[AwsMemory]:
    """A fresh moto account with the stack's tables and bucket, and the handlers wired to it."""
    env = {
        **FAKE_CREDENTIALS,
        "POWERTOOLS_TRACE_DISABLED": "true",
        "POWERTOOLS_SERVICE_NAME": "agent-memory",
        "POWERTOOLS_METRICS_NAMESPACE": "AgentMemory",
    }
    with mock.patch.dict(os.environ, env), mock_aws():
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
        runtime = FakeBedrockRuntime(
            settings,
            session=boto3.Session(region_name=REGION),
            embedder=HashingEmbedder(),
            pii=pii,
            calibrations={"test-hashing": HASHING_CALIBRATION},
        )
        # Instant: a job ingests the bucket at once (the tests here are about what is stored).
        runtime.bedrock = FakeBedrockKnowledgeBase(
            s3,
            bucket=BUCKET,
            knowledge_base_id=KB_ID,
            data_source_id=DS_ID,
            embedder=HashingEmbedder(),
            instant=True,
        )
        with mock.patch.object(wiring, "_current", runtime):
            yield AwsMemory(runtime, dynamodb, s3, list(tables.values()))


@dataclass
class Captured:
    """Everything written to logs, stdout and stderr while capturing."""

    records: list[str] = field(default_factory=list)
    streams: io.StringIO = field(default_factory=io.StringIO)

    def text(self) -> str:
        return "\n".join([*self.records, self.streams.getvalue()])


class _Collect(logging.Handler):
    def __init__(self, into: list[str]) -> None:
        super().__init__(logging.DEBUG)
        self._into = into

    def emit(self, record: logging.LogRecord) -> None:
        # The formatted message and every extra field: a leak may ride in either.
        extra = {k: v for k, v in vars(record).items() if k not in _STANDARD}
        self._into.append(f"{record.getMessage()} {extra!r}" if extra else record.getMessage())


_STANDARD = {*vars(logging.LogRecord("", 0, "", 0, "", (), None)), "message", "asctime"}


@contextmanager
def capture_everything() -> Iterator[Captured]:
    """Every log record of every logger at DEBUG, Powertools' JSON lines, stdout and stderr."""
    from agent_memory.serverless.observability import logger as powertools

    captured = Captured()
    root = logging.getLogger()
    handler = _Collect(captured.records)
    saved = root.level, powertools.log_level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    powertools.setLevel(logging.DEBUG)
    stream = powertools.registered_handler.setStream(captured.streams)  # type: ignore[attr-defined]
    try:
        with redirect_stdout(captured.streams), redirect_stderr(captured.streams):
            yield captured
    finally:
        powertools.registered_handler.setStream(stream)  # type: ignore[attr-defined]
        powertools.setLevel(saved[1])
        root.setLevel(saved[0])
        root.removeHandler(handler)
