"""The ``reembed`` Lambda on moto: a resumable re-embedding of the DynamoDB tiers.

DynamoDB is moto's; models are two deterministic test embedders of different ids and
dimensions; the Bedrock knowledge base is never called by the job (its model is fixed).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from unittest import mock

import boto3
import pytest
from moto import mock_aws

from agent_memory.adapters.ledger_records import ACTIVE_MODEL_KEY as ACTIVE_KEY
from agent_memory.adapters.ledger_records import CHECKPOINT_KEYS
from agent_memory.core.model.calibration import Calibration
from agent_memory.core.model.errors import Conflict, InvalidInput
from agent_memory.core.ports import Checkpoint
from agent_memory.core.workflows import consolidation
from agent_memory.serverless import reembed_job as job
from agent_memory.wiring import aws as wiring
from agent_memory.wiring.aws_settings import AwsSettings
from tests.integration.aws.moto_dynamodb import (
    FAKE_CREDENTIALS,
    REGION,
    create_tables,
    settings_for,
)
from tests.support.embedder import HashingEmbedder
from tests.support.fakes import FakePiiDetector
from tests.support.memory import HASHING_CALIBRATION, run_event

MIGRATION_KEY = CHECKPOINT_KEYS[Checkpoint.REEMBEDDING]

OLD, NEW = "test-hashing-256", "test-words-64"
WORDS_CALIBRATION = Calibration("test-words", 0.2, 0.2, "tests: word-overlap vectors")
PLENTY = 900_000


@dataclass
class Context:
    """A Lambda context whose remaining time is scripted, one value per question."""

    remaining: list[int] = field(default_factory=lambda: [PLENTY])
    function_name: str = "reembed"
    memory_limit_in_mb: int = 1024
    invoked_function_arn: str = f"arn:aws:lambda:{REGION}:123456789012:function:reembed"
    aws_request_id: str = field(default_factory=lambda: str(uuid.uuid4()))

    def get_remaining_time_in_millis(self) -> int:
        return self.remaining.pop(0) if len(self.remaining) > 1 else self.remaining[0]


@dataclass
class Aws:
    settings: AwsSettings
    dynamodb: Any
    tables: dict[str, str]

    def deploy(self, embedder: HashingEmbedder, *, calibrated: bool = True) -> wiring.AwsRuntime:
        """The functions' runtime after a deploy that embeds with ``embedder``."""
        calibrations = {"test-hashing": HASHING_CALIBRATION}
        if calibrated:
            calibrations["test-words"] = WORDS_CALIBRATION
        runtime = wiring.AwsRuntime(
            self.settings,
            session=boto3.Session(region_name=REGION),
            embedder=embedder,
            pii=FakePiiDetector(),
            calibrations=calibrations,
            embedders={NEW: HashingEmbedder(64, NEW), OLD: HashingEmbedder(256, OLD)},
        )
        wiring._current = runtime
        return runtime

    def item(self, table: str, key: dict[str, Any]) -> dict[str, Any]:
        found: dict[str, Any] = self.dynamodb.get_item(TableName=self.tables[table], Key=key)
        item: dict[str, Any] = found["Item"]
        return item

    def ledger(self, key: str) -> dict[str, Any] | None:
        found = self.dynamodb.get_item(TableName=self.tables["ledger"], Key={"key": {"S": key}})
        item: dict[str, Any] | None = found.get("Item")
        return item


@pytest.fixture
def aws() -> Iterator[Aws]:
    env = {**FAKE_CREDENTIALS, "POWERTOOLS_TRACE_DISABLED": "true"}
    with mock.patch.dict(os.environ, env), mock_aws(), mock.patch.object(wiring, "_current"):
        dynamodb = boto3.client("dynamodb", region_name=REGION)
        tables = create_tables(dynamodb)
        settings = settings_for(tables)
        yield Aws(settings, dynamodb, tables)


def invoke(event: dict[str, Any], context: Context | None = None) -> dict[str, Any]:
    from functions.reembed.handler import handler

    reply: dict[str, Any] = handler(event, context or Context())
    return reply


def served_runs(aws: Aws) -> None:
    """Three episodes and one (pending) fact, written by the functions on the old model."""
    ports = aws.deploy(HashingEmbedder(256, OLD)).ports("acme")
    for run_id, outcome in (("r1", "COMPLETED"), ("r2", "COMPLETED"), ("r3", "PARTIAL")):
        consolidation.consolidate(run_event(run_id, outcome=outcome), ports)


def episode_key(run_id: str) -> dict[str, Any]:
    return {"pk": {"S": "acme#reviewer"}, "run_id": {"S": run_id}}


def test_the_job_reembeds_page_by_page_across_invocations_and_switches(aws: Aws) -> None:
    # Given episodes and a fact served with the old model
    served_runs(aws)
    # When the job starts and its invocation nears its timeout after one page
    near_timeout = Context([PLENTY, job.STOP_MARGIN_MS - 1])
    first = invoke({"action": "start", "to": NEW, "page_size": 1}, near_timeout)
    # Then it stopped with its place saved in the ledger
    assert (first["stage"], first["done"]) == ("embedding", False)
    assert first["counts"]["episodes"]["embedded"] == 1
    assert aws.ledger(MIGRATION_KEY) is not None
    # When it is invoked again (an operator, a schedule), it finishes the pass
    second = invoke({"action": "run", "page_size": 1})
    assert (second["stage"], second["done"]) == ("embedding", True)
    assert {k: v["embedded"] for k, v in second["counts"].items()} == {"episodes": 3, "facts": 1}
    assert second["knowledge_base"].startswith("not re-indexed")
    # Then each item holds the new model's vectors beside the old ones, as binary
    item = aws.item("episodes", episode_key("r1"))
    assert (item["embedding_model"]["S"], item["spare_embedding_model"]["S"]) == (OLD, NEW)
    assert item["unit_spare_model"]["S"] == NEW and "B" in item["unit_spare_vectors"]
    # And the functions still read the old model's vectors as the ones to compare
    episode = wiring.runtime().ports("acme").episodes.get("acme", "reviewer", "r1", now=0)
    assert episode is not None and episode.embedding and episode.embedding.model_id == OLD
    # When the switch is asked for, it catches up and records the new active model
    status = invoke({"action": "status", "coverage": True})
    assert status["coverage"]["episodes"] == {"records": 3, "active": 3, "target": 3, "skipped": 0}
    switched = invoke({"action": "switch"})
    assert (switched["stage"], switched["active_model_id"]) == ("switched", NEW)
    active = aws.ledger(ACTIVE_KEY)
    assert active is not None and f'"model_id": "{NEW}"' in active["value"]["S"]


def test_finish_waits_for_the_deploy_then_drops_the_old_vectors(aws: Aws) -> None:
    # Given a switched store whose functions still run the old model
    served_runs(aws)
    invoke({"action": "start", "to": NEW})
    invoke({"action": "switch"})
    # When finish is asked before the deploy, then it is refused: the old vectors still serve
    with pytest.raises(Conflict, match="active embedding model"):
        invoke({"action": "finish"})
    # When the functions are deployed with the new model, finish drops the old vectors
    runtime = aws.deploy(HashingEmbedder(64, NEW))
    finished = invoke({"action": "finish"})
    assert finished["stage"] == "finished" and aws.ledger(MIGRATION_KEY) is None
    item = aws.item("episodes", episode_key("r2"))
    assert item["embedding_model"]["S"] == NEW and item["unit_model"]["S"] == NEW
    assert not {"spare_embedding", "unit_spare_vectors"} & item.keys()
    [fact] = runtime.ports("acme").facts.export("acme")
    assert fact.embedding is not None and fact.embedding.model_id == NEW
    assert fact.spare_embedding is None


def test_switching_to_an_uncalibrated_model_is_refused(aws: Aws) -> None:
    served_runs(aws)
    aws.deploy(HashingEmbedder(256, OLD), calibrated=False)
    invoke({"action": "start", "to": NEW})

    with pytest.raises(Conflict, match="no similarity calibration"):
        invoke({"action": "switch"})
    assert invoke({"action": "status"})["active"]["model_id"] == OLD


def test_a_start_without_a_target_is_refused_naming_the_field(aws: Aws) -> None:
    aws.deploy(HashingEmbedder(256, OLD))
    with pytest.raises(InvalidInput, match=r"^to: name the embedding model"):
        invoke({"action": "start"})
