"""Forgetting one run or one agent on a deployed stack, as an operator: ``agent-memory
--aws-stack NAME forget --agent [--run]`` and ``MemoryClient.aws_from_stack(operator=True)``,
on the moto-backed stack of ``test_cli_on_stack``; afterwards no byte of the tables or the
bucket holds what the run alone said.

DynamoDB's Scan reads every item of a table
(https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Scan.html); S3's
ListObjectVersions every version of every object
(https://docs.aws.amazon.com/AmazonS3/latest/API/API_ListObjectVersions.html).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

import boto3
import pytest

from agent_memory.app.messages import Bootstrap
from agent_memory.core.model.requests import BootstrapRequest
from agent_memory.core.tiers.semantic import fact_hash
from agent_memory.core.workflows import consolidation
from agent_memory.sdk import MemoryClient
from tests.integration.aws.moto_dynamodb import REGION
from tests.integration.aws.test_cli_on_stack import BUCKET, Cli, _deploy, moto_stack
from tests.support.embedder import HashingEmbedder
from tests.support.fake_bedrock_kb import FakeBedrockKnowledgeBase
from tests.support.memory import run_event

FACT = "Liability caps below 1x fees are a red flag"
HASH = fact_hash(FACT)
SECRET = "Zanzibar-77 side letter"


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Iterator[Cli]:
    """The stack, where the reviewer's, the drafter's and the auditor's runs confirmed the
    fact (staged in the bucket), the auditor's alone naming a secret.
    """
    with moto_stack(capsys) as stack, bedrock_kb_on_moto():
        ports = stack.runtime.ports("acme")
        consolidation.consolidate(run_event("run-d", agent_id="drafter"), ports)
        secret = run_event("run-a", agent_id="auditor", task=f"Audit the {SECRET} cap")
        consolidation.consolidate(secret, ports)
        yield stack


@contextmanager
def bedrock_kb_on_moto() -> Iterator[FakeBedrockKnowledgeBase]:
    """Bedrock's knowledge base over moto's bucket, answering every Bedrock client made
    meanwhile (the CLI and the operator client build their own).
    """
    kb = FakeBedrockKnowledgeBase(
        boto3.client("s3", region_name=REGION),
        bucket=BUCKET,
        knowledge_base_id="KB12345678",
        data_source_id="DS12345678",
        embedder=HashingEmbedder(),
        instant=True,
    )
    made = boto3.Session.client

    def served(session: boto3.Session, *args: Any, **kwargs: Any) -> Any:
        client = made(session, *args, **kwargs)
        kb.serve_on(client)
        return client

    with mock.patch.object(boto3.Session, "client", served):
        yield kb


def full_stack(cli: Cli) -> str:
    """The stack's outputs with its bus and functions named, as a deployed stack has them."""
    outputs = {**cli.outputs, "EventBusName": "bus", "BootstrapFunctionName": "bootstrap"}
    _deploy(outputs, REGION, "AgentMemoryFull")
    return "AgentMemoryFull"


def stored_bytes(cli: Cli) -> str:
    """Every item of every table and every version of every object of the bucket."""
    dynamodb = boto3.client("dynamodb", region_name=REGION)
    texts = []
    for table in dynamodb.list_tables()["TableNames"]:
        for page in dynamodb.get_paginator("scan").paginate(TableName=table):
            # Binary attributes (vectors, compressed parts) as their raw bytes.
            texts.append(json.dumps(page["Items"], default=lambda b: b.decode("latin-1")))
    s3 = boto3.client("s3", region_name=REGION)
    for version in s3.list_object_versions(Bucket=BUCKET).get("Versions", []):
        body = s3.get_object(Bucket=BUCKET, Key=version["Key"], VersionId=version["VersionId"])
        texts.append(body["Body"].read().decode("utf-8", "replace"))
    return "\n".join(texts)


def served(cli: Cli) -> list[str]:
    request = BootstrapRequest("acme", "reviewer", "liability cap", domain="contracts")
    reply = cli.runtime.application("acme").handle(Bootstrap(request))
    return [f["content"] for f in reply["facts"]]


def documents(cli: Cli) -> list[str]:
    listed = boto3.client("s3", region_name=REGION).list_objects_v2(Bucket=BUCKET)
    return [o["Key"] for o in listed.get("Contents", []) if o["Key"].endswith(".txt")]


def test_the_cli_forgets_a_run_on_the_stack_to_the_last_byte(cli: Cli) -> None:
    # Given the confirmed fact served and staged, and the secret stored
    assert served(cli) == [FACT]
    assert any(HASH in key for key in documents(cli))
    assert SECRET in stored_bytes(cli)

    # When an operator forgets the auditor's run on the stack
    code, out, err = cli(
        "forget", "--tenant", "acme", "--agent", "auditor", "--run", "run-a",
        "--yes", "--reviewer", "dpo", "--reason", "poisoned",
    )  # fmt: skip

    # Then the receipt names what was taken back, the fact is withdrawn and its document gone
    assert code == 0, err
    receipt = json.loads(out)
    assert receipt["runs"] == ["auditor/run-a"]
    assert receipt["facts_withdrawn"] == [f"contracts/{HASH}"]
    assert receipt["kb_documents"] == 1
    assert served(cli) == []
    assert not any(HASH in key for key in documents(cli))
    # And no byte of the tables or the bucket holds the secret
    assert SECRET not in stored_bytes(cli)
    # And the history on the stack names the decision
    code, out, _ = cli("history", "--tenant", "acme", "--json")
    [decision] = json.loads(out)["decisions"]
    assert (decision["action"], decision["record_id"], decision["actor"]) == (
        "forget",
        "auditor/run-a",
        "dpo",
    )


def test_an_operator_client_forgets_an_agent_and_reads_the_history(cli: Cli) -> None:
    # Given an operator's client of the stack (whose outputs name its bus and functions too)
    client = MemoryClient.aws_from_stack(full_stack(cli), region=REGION, operator=True)

    # When it forgets every run of the reviewer
    receipt = client.forget_runs("acme", "reviewer", reviewer="dpo", reason="agent retired")

    # Then both runs are gone, and the fact the reviewer helped confirm is no longer served
    assert receipt.runs == ("reviewer/run-1", "reviewer/run-2")
    assert receipt.episodes == 2 and receipt.facts_withdrawn == (f"contracts/{HASH}",)
    assert served(cli) == []
    assert [d["record_id"] for d in client.history("acme")["decisions"]] == ["reviewer"]
    # And globex's runs of the same agent id are untouched
    globex = cli.runtime.ports("globex").episodes
    assert globex.get("globex", "reviewer", "run-1", now=0.0) is not None


def test_an_agent_client_cannot_forget_runs(cli: Cli) -> None:
    # Given the client an agent builds (no operator credentials asked for)
    client = MemoryClient.aws_from_stack(full_stack(cli), region=REGION)

    # Then forgetting runs is refused before anything is called
    with pytest.raises(Exception, match="operator=True"):
        client.forget_runs("acme", "auditor", "run-a", reviewer="me")
