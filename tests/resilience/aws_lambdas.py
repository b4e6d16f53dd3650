"""The Lambda handlers in-process on moto, for resilience tests of the AWS path.

DynamoDB and S3 are moto's; Bedrock's knowledge-base APIs, which moto lacks, are a small fake
that ingests the bucket's documents and serves them filtered by tenant, as Bedrock does. Models
are whatever the test passes (a PII detector, the hashing embedder).
"""

from __future__ import annotations

import io
import json
import logging
import os
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from datetime import UTC, datetime
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
from tests.support.aws_calls import answer_on_client
from tests.support.embedder import HashingEmbedder
from tests.support.lambda_context import LambdaContext
from tests.support.memory import HASHING_CALIBRATION

BUCKET = "agent-memory-kb-docs"
IDEMPOTENCY_TABLE = "agent-memory-idempotency"
KB_ID, DS_ID = "KB12345678", "DS12345678"
STEPS = ("extract", "scrub", "write_episode", "confirm_facts", "stage_kb_docs", "propose_procedure")


class FakeBedrockKnowledgeBase:
    """bedrock-agent + bedrock-agent-runtime: a job ingests the bucket at once; retrieve
    serves the ingested documents that pass the request's tenant (and domain) filter.
    """

    def __init__(self, s3: Any) -> None:
        self._s3 = s3
        self._index: list[tuple[str, dict[str, Any]]] = []

    def start_ingestion_job(self, **_: Any) -> dict[str, Any]:
        self._index = []
        listing = self._s3.list_objects_v2(Bucket=BUCKET).get("Contents", [])
        for key in (o["Key"] for o in listing if o["Key"].endswith(".txt")):
            text = self._s3.get_object(Bucket=BUCKET, Key=key)["Body"].read().decode()
            sidecar = self._s3.get_object(Bucket=BUCKET, Key=f"{key}.metadata.json")
            self._index.append((text, json.loads(sidecar["Body"].read())["metadataAttributes"]))
        return self._job()

    def get_ingestion_job(self, **_: Any) -> dict[str, Any]:
        return self._job()

    def retrieve(self, **request: Any) -> dict[str, Any]:
        search = request["retrievalConfiguration"]["vectorSearchConfiguration"]
        condition = search["filter"]
        wanted = [c["equals"] for c in condition.get("andAll", [condition])]
        hits = [
            {"content": {"text": text}, "score": 0.9, "metadata": metadata}
            for text, metadata in self._index
            if all(metadata.get(w["key"]) == w["value"] for w in wanted)
        ]
        return {"retrievalResults": hits[: search["numberOfResults"]]}

    def _job(self) -> dict[str, Any]:
        now = datetime.now(UTC)
        return {
            "ingestionJob": {
                "knowledgeBaseId": KB_ID,
                "dataSourceId": DS_ID,
                "ingestionJobId": "JOB1234567",
                "status": "COMPLETE",
                "startedAt": now,
                "updatedAt": now,
            }
        }


class FakeBedrockRuntime(wiring.AwsRuntime):
    """The Lambda runtime with Bedrock's knowledge-base clients faked."""

    bedrock: FakeBedrockKnowledgeBase

    def client(self, service: str, tenant_id: str | None = None) -> Any:
        client = super().client(service, tenant_id)
        # A real client the fake answers on, so the session's IAM check sees the calls.
        kb = service in {"bedrock-agent", "bedrock-agent-runtime"}
        if kb and not getattr(client, "_kb_answered", False):
            names = ("StartIngestionJob", "GetIngestionJob", "Retrieve")
            answer_on_client(client, {n: _method(self.bedrock, n) for n in names})
            client._kb_answered = True
        return client


def _method(fake: FakeBedrockKnowledgeBase, operation: str) -> Any:
    """``fake``'s method for API ``operation`` (``StartIngestionJob`` -> start_ingestion_job)."""
    method = getattr(fake, "".join(f"_{c.lower()}" if c.isupper() else c for c in operation)[1:])
    return lambda params: method(**params)


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
        """Every item of every table, the idempotency table included, as DynamoDB holds it."""
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
        dynamodb.create_table(
            TableName=IDEMPOTENCY_TABLE,
            KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
            BillingMode="PAY_PER_REQUEST",
        )
        s3 = boto3.client("s3", region_name=REGION)
        s3.create_bucket(Bucket=BUCKET)
        settings = AwsSettings(
            episodes_table=tables["episodes"],
            facts_table=tables["facts"],
            procedures_table=tables["procedures"],
            ledger_table=tables["ledger"],
            idempotency_table=IDEMPOTENCY_TABLE,
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
        runtime.bedrock = FakeBedrockKnowledgeBase(s3)
        # Step handlers bind their idempotency table at import: import them afresh, and forget
        # them after, so no other test gets handlers bound to this account.
        _forget_handlers()
        try:
            with mock.patch.object(wiring, "_current", runtime):
                yield AwsMemory(runtime, dynamodb, s3, [*tables.values(), IDEMPOTENCY_TABLE])
        finally:
            _forget_handlers()


def _forget_handlers() -> None:
    for name in [n for n in sys.modules if n.startswith("functions.") and n.endswith(".handler")]:
        del sys.modules[name]


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
