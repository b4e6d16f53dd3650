"""``forget`` on the AWS adapters (DynamoDB, the versioned KB bucket, Bedrock ingestion) in moto:
its receipt says what went from each store and what stays until when, and the bucket shows it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agent_memory.adapters.aws.retention import AWS_RETENTION, NONCURRENT_VERSION_DAYS
from agent_memory.core.workflows.consolidation import consolidate
from agent_memory.core.workflows.ingestion import run_ingestion
from agent_memory.core.workflows.tenants import DAY, ForgetReceipt, forget_tenant
from tests.resilience.helpers_aws import AwsHarness, aws_harness
from tests.support.memory import run_event

AGENTS = ("reviewer", "drafter", "auditor")


@pytest.fixture(scope="module")
def forgotten() -> Iterator[tuple[AwsHarness, ForgetReceipt, list[str]]]:
    # Given two tenants whose fact is confirmed by three agents and ingested, in a bucket
    # versioned as the stack's is
    with aws_harness() as harness:
        bucket = harness.runtime.settings.kb_bucket
        harness.s3.put_bucket_versioning(
            Bucket=bucket, VersioningConfiguration={"Status": "Enabled"}
        )
        for tenant in ("acme", "globex"):
            for number, agent in enumerate(AGENTS):
                event = run_event(f"run-{number}", tenant_id=tenant, agent_id=agent)
                consolidate(event, harness.ports(tenant))
        jobs = harness.ports(None)
        run_ingestion(jobs.facts, jobs.knowledge_base, jobs.checkpoints, now=jobs.clock())
        documents = jobs.knowledge_base.document_keys("acme")
        assert documents
        # When the operator forgets acme, with the stack's retention
        receipt = forget_tenant(jobs, "acme", retained=AWS_RETENTION)
        yield harness, receipt, documents


def objects(harness: AwsHarness, prefix: str) -> tuple[list[str], list[str], list[str]]:
    """Current keys, noncurrent version keys and delete-marker keys under ``prefix``."""
    bucket = harness.runtime.settings.kb_bucket
    listed = harness.s3.list_object_versions(Bucket=bucket, Prefix=prefix)
    versions = listed.get("Versions", [])
    current = sorted(v["Key"] for v in versions if v["IsLatest"])
    old = sorted(v["Key"] for v in versions if not v["IsLatest"])
    markers = sorted(m["Key"] for m in listed.get("DeleteMarkers", []))
    return current, old, markers


def test_the_receipt_counts_what_went_from_each_store(
    forgotten: tuple[AwsHarness, ForgetReceipt, list[str]],
) -> None:
    _, receipt, documents = forgotten
    # Then it names the tenant and counts each store's deletions
    assert receipt.tenant_id == "acme"
    assert (receipt.episodes, receipt.kb_documents) == (3, len(documents))
    assert receipt.facts >= 1 and receipt.procedures == 1 and receipt.ledger_records >= 3
    # And the ingestion it started to drop the documents from the index, which completed
    assert receipt.kb_index == "ingestion complete" and receipt.ingestion_job


def test_the_bucket_keeps_exactly_the_old_versions_the_receipt_names(
    forgotten: tuple[AwsHarness, ForgetReceipt, list[str]],
) -> None:
    harness, receipt, documents = forgotten
    # Then no current object of acme is left, but each document and sidecar has an old version
    # and a delete marker (versioning), which the receipt says stay until the lifecycle rule
    # removes them
    files = sorted([f"{k}" for k in documents] + [f"{k}.metadata.json" for k in documents])
    current, old, markers = objects(harness, "tenants/acme/")
    assert current == []
    assert old == markers == files
    bucket = next(r for r in receipt.remains if r.where.startswith("KB documents bucket"))
    assert bucket.until == receipt.at + (NONCURRENT_VERSION_DAYS + 1) * DAY
    # And globex's documents are current and whole
    assert objects(harness, "tenants/globex/")[0]


def test_the_receipt_names_every_copy_the_stack_keeps_with_its_expiry(
    forgotten: tuple[AwsHarness, ForgetReceipt, list[str]],
) -> None:
    _, receipt, _ = forgotten
    assert [(r.where, r.until) for r in receipt.remains] == [
        (r.where, receipt.at + r.days * DAY) for r in AWS_RETENTION
    ]
