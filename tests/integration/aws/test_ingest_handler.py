"""The ingest handler when a COMPLETE Bedrock job failed some documents (moto + Stubber).

GetIngestionJob counts failed documents without naming them:
https://docs.aws.amazon.com/bedrock/latest/APIReference/API_agent_IngestionJobStatistics.html
GetKnowledgeBaseDocuments tells each document's status:
https://docs.aws.amazon.com/bedrock/latest/APIReference/API_agent_GetKnowledgeBaseDocuments.html
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import boto3
import pytest

from agent_memory.core.model.keys import document_key
from tests.integration.aws.test_handlers import (
    BUCKET,
    DS_ID,
    KB_ID,
    REGION,
    Aws,
    Context,
    aws,
    consolidate_runs,
    handler,
    job,
)

__all__ = ["aws"]  # the fixture, shared with the other handler tests

JOB = {"knowledgeBaseId": KB_ID, "dataSourceId": DS_ID}


def emitted(out: str) -> dict[str, float]:
    """Each EMF metric the handler printed, by name."""
    values: dict[str, float] = {}
    for line in out.splitlines():
        if '"_aws"' not in line:
            continue
        record = json.loads(line)
        for directive in record["_aws"]["CloudWatchMetrics"]:
            for metric in directive["Metrics"]:
                value = record[metric["Name"]]
                values[metric["Name"]] = sum(value) if isinstance(value, list) else value
    return values


def test_a_document_bedrock_failed_keeps_its_fact_waiting_and_is_written_again(
    aws: Aws, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a staged fact, and a job that COMPLETEs with its one document failed
    consolidate_runs(aws, "r1", "r2", "r3")
    [fact] = aws.ports(None).facts.awaiting_ingestion(limit=10).items
    key = document_key(fact.tenant_id, fact.domain, fact.fact_hash)
    s3 = boto3.client("s3", region_name=REGION)
    written = s3.head_object(Bucket=BUCKET, Key=key)["LastModified"]
    started = datetime.fromtimestamp((fact.staged_at or 0) + 60, tz=UTC)
    response: dict[str, Any] = job("COMPLETE", started)
    response["ingestionJob"]["statistics"] = {
        "numberOfDocumentsScanned": 1,
        "numberOfNewDocumentsIndexed": 0,
        "numberOfDocumentsFailed": 1,
    }
    response["ingestionJob"]["failureReasons"] = ["1 document failed"]
    aws.agent.add_response("start_ingestion_job", response, JOB)
    uri = f"s3://{BUCKET}/{key}"
    aws.agent.add_response(
        "get_knowledge_base_documents",
        {
            "documentDetails": [
                {
                    **JOB,
                    "status": "FAILED",
                    "statusReason": "embedding failed",
                    "identifier": {"dataSourceType": "S3", "s3": {"uri": uri}},
                }
            ]
        },
        {**JOB, "documentIdentifiers": [{"dataSourceType": "S3", "s3": {"uri": uri}}]},
    )
    capsys.readouterr()
    # When the ingestion window runs
    report = handler("ingest")({}, Context())
    # Then the fact still waits (on the fast path), its document was written again, and the
    # window's metrics say a document failed and one was retried
    counts = (report["facts_ingested"], report["facts_waiting"], report["facts_retried"])
    assert counts == (0, 1, 1)
    assert aws.ports(None).facts.fast_path("acme", "contracts") != []
    assert s3.head_object(Bucket=BUCKET, Key=key)["LastModified"] >= written
    metrics = emitted(capsys.readouterr().out)
    assert metrics["KbDocumentsFailed"] == 1 and metrics["KbDocumentsRetried"] == 1
    assert metrics["FactsAwaitingIngestion"] == 1 and metrics["FactsIngestionStuck"] == 0


def test_a_window_with_nothing_to_ingest_publishes_no_metric(
    aws: Aws, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given memory with nothing staged, waiting or running
    capsys.readouterr()
    # When the ingestion window runs (every 5 minutes, idle or not)
    report = handler("ingest")({}, Context())
    # Then it says so and publishes no metric (CloudWatch bills a custom metric for every hour
    # it is published in: https://aws.amazon.com/cloudwatch/pricing/), the cold start's aside
    assert report["status"] == "idle" and report["facts_waiting"] == 0
    assert set(emitted(capsys.readouterr().out)) <= {"ColdStart"}


def test_a_window_with_a_fact_waiting_publishes_its_gauges(
    aws: Aws, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a staged fact and a job the KB leaves running
    consolidate_runs(aws, "r1", "r2", "r3")
    started = datetime.now(UTC)
    aws.agent.add_response("start_ingestion_job", job("IN_PROGRESS", started), JOB)
    capsys.readouterr()
    # When the ingestion window runs
    handler("ingest")({}, Context())
    # Then its gauges are published, the backlog among them
    metrics = emitted(capsys.readouterr().out)
    assert metrics["FactsAwaitingIngestion"] == 1 and metrics["IngestionJobsStarted"] == 1
