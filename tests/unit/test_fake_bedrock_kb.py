"""The resilience switches of the Bedrock KB fake (``tests/support/fake_bedrock_kb.py``):
an instant knowledge base, one that ignores its filter, and what it counts.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import boto3
import pytest
from moto import mock_aws

from tests.support.botocore_answers import REGION, offline_client
from tests.support.embedder import HashingEmbedder
from tests.support.fake_bedrock_kb import FakeBedrockKnowledgeBase

BUCKET, KB_ID, DS_ID = "kb-docs", "KBUNIT0001", "DSUNIT0001"


@pytest.fixture
def s3() -> Iterator[Any]:
    with mock_aws():
        client = boto3.client("s3", region_name=REGION)
        client.create_bucket(Bucket=BUCKET)
        for tenant in ("acme", "globex"):
            key = f"tenants/{tenant}/domains/legal/f1.txt"
            client.put_object(Bucket=BUCKET, Key=key, Body=f"{tenant} pays invoices in 30 days")
            sidecar = {"metadataAttributes": {"tenant_id": tenant, "domain": "legal"}}
            client.put_object(Bucket=BUCKET, Key=f"{key}.metadata.json", Body=json.dumps(sidecar))
        yield client


def _served(s3: Any, *, instant: bool) -> tuple[FakeBedrockKnowledgeBase, Any, Any]:
    kb = FakeBedrockKnowledgeBase(
        s3,
        bucket=BUCKET,
        knowledge_base_id=KB_ID,
        data_source_id=DS_ID,
        embedder=HashingEmbedder(),
        instant=instant,
    )
    agent, runtime = offline_client("bedrock-agent"), offline_client("bedrock-agent-runtime")
    kb.serve(agent, runtime)
    return kb, agent, runtime


def _texts(runtime: Any, tenant: str) -> list[str]:
    reply = runtime.retrieve(
        knowledgeBaseId=KB_ID,
        retrievalQuery={"text": "invoices"},
        retrievalConfiguration={
            "vectorSearchConfiguration": {
                "numberOfResults": 5,
                "filter": {"equals": {"key": "tenant_id", "value": tenant}},
            }
        },
    )
    return [r["content"]["text"] for r in reply["retrievalResults"]]


def test_an_instant_kb_serves_the_bucket_and_finishes_a_job_as_it_starts(s3: Any) -> None:
    # Given an instant KB over a bucket holding a document of acme, never ingested
    _, agent, runtime = _served(s3, instant=True)
    # When acme retrieves, then starts a job
    texts = _texts(runtime, "acme")
    job = agent.start_ingestion_job(knowledgeBaseId=KB_ID, dataSourceId=DS_ID)["ingestionJob"]
    # Then the document is served already, and the job is complete, stamped after now (so the
    # adapter's skew margin still counts everything staged before it)
    assert texts == ["acme pays invoices in 30 days"]
    assert job["status"] == "COMPLETE"
    assert job["startedAt"] > datetime.now(UTC)


def test_a_polled_kb_serves_nothing_before_a_job_has_finished(s3: Any) -> None:
    # Given the default KB over the same bucket
    _, agent, runtime = _served(s3, instant=False)
    # When acme retrieves before any job, and a job is started
    texts = _texts(runtime, "acme")
    job = agent.start_ingestion_job(knowledgeBaseId=KB_ID, dataSourceId=DS_ID)["ingestionJob"]
    # Then nothing is served, and the job has only started
    assert texts == []
    assert job["status"] == "STARTING"


@pytest.mark.parametrize(("honour", "foreign"), [(True, 0), (False, 1)])
def test_a_kb_ignoring_its_filter_offers_and_counts_another_tenants_documents(
    s3: Any, honour: bool, foreign: int
) -> None:
    # Given an instant KB that honours its filter, or not
    kb, _, runtime = _served(s3, instant=True)
    kb.honour_filter = honour
    # When acme retrieves
    texts = _texts(runtime, "acme")
    # Then globex's document is offered only by the KB ignoring the filter, and counted
    assert ("globex pays invoices in 30 days" in texts) is not honour
    assert kb.offered_foreign == foreign
    # And the request is on record
    assert [r["retrievalQuery"]["text"] for r in kb.retrievals] == ["invoices"]
