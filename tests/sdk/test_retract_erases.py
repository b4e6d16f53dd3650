"""A retracted fact leaves no byte of its text behind: not in the local store (the database, its
WAL, the knowledge base's documents and index), not in the moto-backed stack's tables or its
bucket's object versions; the hash it keeps is what stops later sightings from promoting it.
"""

from __future__ import annotations

import json

import boto3
import pytest

from agent_memory.core.tiers.semantic import fact_hash
from tests.e2e.test_cli_options import cli
from tests.integration.aws.moto_dynamodb import REGION
from tests.integration.aws.test_cli_on_stack import BUCKET, Cli, moto_stack
from tests.integration.aws.test_forget_runs_on_stack import (
    bedrock_kb_on_moto,
    documents,
    served,
    stored_bytes,
)
from tests.sdk.conftest import LocalMemory
from tests.sdk.test_forget_runs import stored_bytes as local_bytes
from tests.support.memory import run_event

FACT = "Liability caps below 1x fees are a red flag"
HASH = fact_hash(FACT)
# A word of the fact no other record of the tenant holds.
WORD = b"red flag"


def test_a_retracted_fact_leaves_no_byte_of_its_text_in_the_local_store(
    local: LocalMemory,
) -> None:
    # Given the fact confirmed by three agents (their episodes hold no word of it), ingested
    for agent in ("reviewer", "drafter", "auditor"):
        event = run_event(f"run-{agent}", agent_id=agent)
        event["artifacts"]["key_findings"] = ["Clause 7.3 caps liability"]
        local.client.finish_run(event).wait(timeout=30)
    local.client.close()
    home = local.store.parent
    assert cli(home, "--store", str(local.store), "ingest").returncode == 0
    assert WORD in local_bytes(local.store)

    # When a person retracts it, and the next ingestion window runs
    retracted = cli(
        home, "--store", str(local.store), "facts", "retract", HASH,
        "--tenant", "acme", "--domain", "contracts", "--reason", "wrong", "--yes",
    )  # fmt: skip
    assert retracted.returncode == 0, retracted.stderr
    assert cli(home, "--store", str(local.store), "ingest").returncode == 0

    # Then no file of the store holds a byte of its text, and the fact stays retracted
    assert WORD not in local_bytes(local.store)
    shown = cli(
        home, "--store", str(local.store), "facts", "show", HASH,
        "--tenant", "acme", "--domain", "contracts", "--json",
    )  # fmt: skip
    assert json.loads(shown.stdout)["status"] == "RETRACTED"


@pytest.fixture
def stack(capsys: pytest.CaptureFixture[str]):  # type: ignore[no-untyped-def]
    """The moto stack where three agents confirmed the fact, staged in the bucket."""
    from agent_memory.core.workflows import consolidation

    with moto_stack(capsys) as on_stack, bedrock_kb_on_moto():
        ports = on_stack.runtime.ports("acme")
        for agent in ("drafter", "auditor"):
            consolidation.consolidate(run_event(f"run-{agent}", agent_id=agent), ports)
        yield on_stack


def test_a_retracted_fact_leaves_no_byte_of_its_text_on_the_stack(stack: Cli) -> None:
    # Given the fact served and its document in the bucket
    assert served(stack) == [FACT]
    assert FACT in acme_bytes()

    # When an operator retracts it on the stack
    code, _, err = stack(
        "facts", "retract", HASH, "--tenant", "acme", "--domain", "contracts",
        "--reason", "wrong", "--yes",
    )  # fmt: skip

    # Then it is served no more, its document is gone, and no table item or object version
    # holds its text
    assert code == 0, err
    assert served(stack) == []
    assert not any(HASH in key for key in documents(stack))
    assert FACT not in acme_bytes()
    # And globex, which learned the same fact, keeps it
    assert FACT in stored_bytes(stack)


def acme_bytes() -> str:
    """Every item of every table and object version of the bucket that is acme's."""
    dynamodb = boto3.client("dynamodb", region_name=REGION)
    texts = []
    for table in dynamodb.list_tables()["TableNames"]:
        for page in dynamodb.get_paginator("scan").paginate(TableName=table):
            for item in page["Items"]:
                text = json.dumps(item, default=lambda b: b.decode("latin-1"))
                if "globex" not in text:
                    texts.append(text)
    s3 = boto3.client("s3", region_name=REGION)
    for version in s3.list_object_versions(Bucket=BUCKET).get("Versions", []):
        if version["Key"].startswith("tenants/acme/"):
            body = s3.get_object(Bucket=BUCKET, Key=version["Key"], VersionId=version["VersionId"])
            texts.append(body["Body"].read().decode("utf-8", "replace"))
    return "\n".join(texts)
