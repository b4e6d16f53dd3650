"""What the storage contract cannot see: the items the DynamoDB adapters write, and how they read.

Item shapes (Binary embeddings, N numbers, string sets, tenant-first keys, sparse index
attributes), item size, the indexes the queries use, and the mapping of DynamoDB errors.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import boto3
import numpy as np
import pytest
from botocore.exceptions import ClientError
from botocore.stub import Stubber

from agent_memory.adapters.aws.dynamodb_codec import ConditionFailed, translated
from agent_memory.adapters.aws.dynamodb_episodes import DynamoDbEpisodeStore, roster_sort_key
from agent_memory.adapters.aws.dynamodb_facts import DynamoDbFactStore
from agent_memory.adapters.aws.dynamodb_ledger import DynamoDbLedger
from agent_memory.adapters.aws.dynamodb_procedures import DynamoDbProcedureStore
from agent_memory.adapters.aws.dynamodb_schema import (
    EPISODES,
    FACTS,
    LEDGER,
    PROCEDURES,
    TABLES,
    TableDesign,
)
from agent_memory.adapters.ledger_records import KeyedRunLedger
from agent_memory.core.model.errors import InvalidInput, TransientError
from agent_memory.core.model.models import EpisodeUnit, ProcedureStatus
from agent_memory.core.ports import FeedbackCount
from agent_memory.core.retrieval import vectors
from tests.contract.builders import AWKWARD_CONFIDENCE, DAY, NOW, VECTOR, episode, observation
from tests.contract.builders import procedure as procedure_record
from tests.integration.aws.moto_dynamodb import REGION, Tables, mocked_tables

ITEM_LIMIT_BYTES = 400 * 1024


class RecordingClient:
    """Passes every call through and remembers (operation, request)."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._client, name)
        if not callable(attribute):
            return attribute

        def call(**kwargs: Any) -> Any:
            self.calls.append((name, kwargs))
            return attribute(**kwargs)

        return call

    def operations(self) -> set[str]:
        return {name for name, _ in self.calls}


@dataclass
class Aws:
    tables: Tables
    client: RecordingClient
    episodes: DynamoDbEpisodeStore
    facts: DynamoDbFactStore
    procedures: DynamoDbProcedureStore
    ledger: DynamoDbLedger
    run_ledger: KeyedRunLedger

    def items(self, design: TableDesign) -> list[dict[str, Any]]:
        """Every item of a table, raw."""
        pages = self.tables.client.get_paginator("scan").paginate(
            TableName=self.tables.name(design)
        )
        return [item for page in pages for item in page["Items"]]

    def item(self, design: TableDesign, **key: str) -> dict[str, Any]:
        response = self.tables.client.get_item(
            TableName=self.tables.name(design), Key={k: {"S": v} for k, v in key.items()}
        )
        found: dict[str, Any] = response["Item"]
        return found


@pytest.fixture
def aws() -> Iterator[Aws]:
    with mocked_tables() as tables:
        client = RecordingClient(tables.client)
        ledger = DynamoDbLedger(client, tables.name(LEDGER))
        yield Aws(
            tables=tables,
            client=client,
            episodes=DynamoDbEpisodeStore(client, tables.name(EPISODES)),
            facts=DynamoDbFactStore(client, tables.name(FACTS)),
            procedures=DynamoDbProcedureStore(client, tables.name(PROCEDURES)),
            ledger=ledger,
            run_ledger=KeyedRunLedger(ledger),
        )


def _write_one_of_everything(aws: Aws, tenant: str = "acme") -> None:
    aws.episodes.add(episode(tenant_id=tenant, outcome="FAILED", embedding=VECTOR))
    aws.facts.observe(observation(tenant_id=tenant, embedding=VECTOR))
    aws.facts.confirm(tenant, "billing", "h-1", now=NOW)
    aws.facts.mark_staged(tenant, "billing", "h-1", now=NOW)
    aws.procedures.propose(procedure_record(tenant_id=tenant, procedure_id=f"p-{tenant}"), "run-1")
    aws.procedures.record_feedback(
        f"p-{tenant}",
        tenant_id=tenant,
        run_id="run-2",
        receipt_id="receipt-2",
        succeeded=True,
        now=NOW,
    )
    aws.run_ledger.start_run(tenant, "agent-1", "run-1", {"state": {}}, now=NOW, expires_at=NOW)
    aws.run_ledger.put_failure(tenant, "agent-1", "run-2", {"event": {}}, now=NOW, expires_at=None)


def _item_size(item: dict[str, Any]) -> int:
    """DynamoDB's item size: attribute names plus values, as its documentation counts them."""
    return sum(len(name.encode()) + _value_size(value) for name, value in item.items())


def _value_size(value: dict[str, Any]) -> int:
    ((kind, data),) = value.items()
    if kind == "S":
        return len(data.encode())
    if kind == "N":
        return (len(Decimal(data).as_tuple().digits) + 1) // 2 + 1
    if kind == "B":
        return len(data)
    if kind == "SS":
        return sum(len(v.encode()) for v in data)
    if kind == "L":
        return 3 + sum(1 + _value_size(v) for v in data)
    if kind == "M":
        return 3 + sum(1 + len(k.encode()) + _value_size(v) for k, v in data.items())
    return 1


# --- item shapes ------------------------------------------------------------------------------


def test_an_embedding_is_stored_as_binary_beside_its_model_and_dimension(aws: Aws) -> None:
    aws.episodes.add(episode(embedding=VECTOR))
    aws.facts.observe(observation(embedding=VECTOR))

    for item in (
        aws.item(EPISODES, pk="acme#agent-1", run_id="run-1"),
        aws.item(FACTS, pk="acme#billing", fact_hash="h-1"),
    ):
        assert item["embedding"] == {"B": VECTOR.data}
        assert item["embedding_model"] == {"S": VECTOR.model_id}
        assert item["embedding_dimension"] == {"N": str(VECTOR.dimension)}


def test_numbers_are_stored_as_n_with_their_exact_decimal_form(aws: Aws) -> None:
    aws.episodes.add(episode(created_at=NOW + 0.125))
    aws.facts.observe(observation(confidence=AWKWARD_CONFIDENCE))
    aws.procedures.propose(procedure_record(times_applied=7), "run-1")

    stored_episode = aws.item(EPISODES, pk="acme#agent-1", run_id="run-1")
    stored_fact = aws.item(FACTS, pk="acme#billing", fact_hash="h-1")
    stored_procedure = aws.item(PROCEDURES, pk="acme#report", sk="proc-1")

    assert Decimal(stored_episode["created_at"]["N"]) == Decimal(repr(NOW + 0.125))
    assert stored_episode["expires_at"].keys() == {"N"}
    assert stored_fact["confidence"] == {"N": "0.30000000000000004"}
    assert stored_procedure["times_applied"] == {"N": "7"}


def test_run_ids_are_string_sets(aws: Aws) -> None:
    aws.facts.observe(observation(run_id="run-1"))
    aws.facts.observe(observation(run_id="run-2"))
    aws.procedures.propose(procedure_record(), "run-1")
    aws.procedures.propose(procedure_record(), "run-2")

    assert sorted(aws.item(FACTS, pk="acme#billing", fact_hash="h-1")["run_ids"]["SS"]) == [
        "run-1",
        "run-2",
    ]
    assert sorted(aws.item(PROCEDURES, pk="acme#report", sk="proc-1")["source_run_ids"]["SS"]) == [
        "run-1",
        "run-2",
    ]


def test_every_tenant_owned_key_starts_with_the_tenant(aws: Aws) -> None:
    # Given one record of every kind for two tenants, one a prefix of the other
    _write_one_of_everything(aws, "acme")
    _write_one_of_everything(aws, "acme2")

    # Then every partition key, and every tenant-scoped index key, starts "{tenant}#"
    tenant_scoped = ("pk", "key", "tenant_key", "fast_path_key", "key_head")
    for design in TABLES:
        for item in aws.items(design):
            tenant = item["tenant_id"]["S"] if "tenant_id" in item else None
            tenant = tenant or _tenant_of_marker_or_record(item)
            for name in tenant_scoped:
                if name in item:
                    assert item[name]["S"].startswith(f"{tenant}#"), (design.logical_name, item)


def _tenant_of_marker_or_record(item: dict[str, Any]) -> str:
    # Feedback markers and ledger records carry no tenant_id: their owner is known by the test.
    key = item.get("pk", item.get("key"))
    assert key is not None
    match = re.match(r"(acme2?)#", key["S"])
    assert match, item
    return match.group(1)


def test_an_episode_with_a_1024_dim_int8_embedding_is_far_below_the_item_limit(
    aws: Aws,
) -> None:
    # Given an episode with long texts and a Titan-sized embedding, stored as int8
    vector = np.random.default_rng(7).standard_normal(1024).astype(np.float32)
    embedding = vectors.encode(vector / np.linalg.norm(vector), "amazon.titan-embed-text-v2:0")
    stored = episode(
        task="t" * 4_000,
        task_summary="s" * 2_000,
        key_findings=tuple("f" * 300 for _ in range(10)),
        approach_used="a" * 1_000,
        tools_used=("search", "crm_lookup", "calculator"),
        reusable_patterns=tuple("p" * 300 for _ in range(5)),
        embedding=embedding,
    )

    aws.episodes.add(stored)
    size = _item_size(aws.item(EPISODES, pk="acme#agent-1", run_id="run-1"))

    assert len(embedding.data) == 1_029
    assert size < 16 * 1024 < ITEM_LIMIT_BYTES
    assert aws.episodes.get("acme", "agent-1", "run-1", now=NOW) == stored


def test_an_item_over_the_400_kb_limit_is_refused_as_invalid_input(aws: Aws) -> None:
    with pytest.raises(InvalidInput):
        aws.ledger.put("acme#run#big", {"text": "x" * ITEM_LIMIT_BYTES}, now=NOW, expires_at=None)


def test_sparse_index_attributes_exist_only_while_an_item_qualifies(aws: Aws) -> None:
    aws.episodes.add(episode(run_id="failed", outcome="FAILED"))
    aws.episodes.add(episode(run_id="completed", outcome="COMPLETED"))
    aws.facts.observe(observation())

    assert "failed_shard" in aws.item(EPISODES, pk="acme#agent-1", run_id="failed")
    assert "failed_shard" not in aws.item(EPISODES, pk="acme#agent-1", run_id="completed")
    pending = aws.item(FACTS, pk="acme#billing", fact_hash="h-1")
    assert "pending_shard" in pending
    assert {"awaiting_shard", "fast_path_key"}.isdisjoint(pending)

    aws.facts.confirm("acme", "billing", "h-1", now=NOW)
    aws.facts.mark_staged("acme", "billing", "h-1", now=NOW)
    staged = aws.item(FACTS, pk="acme#billing", fact_hash="h-1")
    assert "pending_shard" not in staged
    assert {"awaiting_shard", "fast_path_key"} <= staged.keys()

    aws.facts.mark_ingested("acme", "billing", "h-1", now=NOW)
    ingested = aws.item(FACTS, pk="acme#billing", fact_hash="h-1")
    assert {"pending_shard", "awaiting_shard", "fast_path_key"}.isdisjoint(ingested)


def test_feedback_markers_stay_out_of_the_procedure_partition_and_the_id_index(
    aws: Aws,
) -> None:
    aws.procedures.propose(procedure_record(), "run-1")
    aws.procedures.record_feedback(
        "proc-1", tenant_id="acme", run_id="r", receipt_id="n1", succeeded=True, now=NOW
    )

    run_marker = aws.item(PROCEDURES, pk="acme#report#feedback#proc-1", sk="r")
    receipt_marker = aws.item(PROCEDURES, pk="acme#report#receipts#proc-1", sk="n1")

    assert "procedure_id" not in run_marker and "procedure_id" not in receipt_marker
    assert run_marker["tenant_key"] == {"S": "acme#feedback"}
    assert receipt_marker["tenant_key"] == {"S": "acme#receipts"}
    assert receipt_marker["run_id"] == {"S": "r"}
    assert [p.procedure_id for p in aws.procedures.for_task_type("acme", "report")] == ["proc-1"]


# --- reads ------------------------------------------------------------------------------------


def test_recent_fills_a_page_past_expired_episodes(aws: Aws) -> None:
    # Given live episodes interleaved with expired ones: Limit counts items read, not returned
    for i in range(12):
        expired = i % 4 != 0
        aws.episodes.add(
            episode(
                run_id=f"run-{i:02d}", created_at=NOW - i, expires_at=NOW if expired else NOW + DAY
            )
        )

    first = aws.episodes.recent("acme", "agent-1", now=NOW, limit=2)
    second = aws.episodes.recent("acme", "agent-1", now=NOW, limit=2, cursor=first.cursor)

    assert [e.run_id for e in first.items] == ["run-00", "run-04"]
    assert [e.run_id for e in second.items] == ["run-08"]
    assert second.cursor is None


def test_a_cursor_of_another_agent_is_refused(aws: Aws) -> None:
    for i in range(3):
        aws.episodes.add(episode(run_id=f"run-{i}"))
    cursor = aws.episodes.recent("acme", "agent-1", now=NOW, limit=1).cursor

    with pytest.raises(InvalidInput):
        aws.episodes.recent("acme", "agent-2", now=NOW, limit=1, cursor=cursor)


def test_a_cursor_of_another_procedure_filter_is_refused(aws: Aws) -> None:
    for i in range(3):
        aws.procedures.propose(procedure_record(procedure_id=f"proc-{i}"), "r")
    cursor = aws.procedures.list(status=ProcedureStatus.PENDING, limit=1).cursor

    with pytest.raises(InvalidInput):
        aws.procedures.list(limit=1, cursor=cursor)


def test_tenant_operations_query_indexes_and_never_scan(aws: Aws) -> None:
    _write_one_of_everything(aws)
    aws.client.calls.clear()

    list(aws.episodes.export("acme"))
    list(aws.facts.export("acme"))
    list(aws.procedures.export("acme"))
    list(aws.run_ledger.entries("acme"))
    list(aws.run_ledger.failures("acme"))
    aws.facts.fast_path("acme", None)
    aws.episodes.forget("acme")
    aws.facts.forget("acme")
    aws.procedures.forget("acme")

    assert "scan" not in aws.client.operations()


def test_every_index_is_used_and_filters_only_read_projected_attributes(aws: Aws) -> None:
    # Given every listing of every store, exercised once
    _write_one_of_everything(aws)
    aws.client.calls.clear()
    aws.episodes.recent("acme", "agent-1", now=NOW, limit=5)
    aws.episodes.failed_before(NOW, now=NOW, limit=5)
    list(aws.episodes.export("acme"))
    aws.facts.awaiting_ingestion(limit=5)
    aws.facts.fast_path("acme", "billing")
    aws.facts.pending_seen_before(NOW + 1, limit=5)
    list(aws.facts.export("acme"))
    aws.procedures.get("p-acme")
    aws.procedures.list(limit=5)
    aws.procedures.list(tenant_id="acme", status=ProcedureStatus.PENDING, limit=5)
    list(aws.run_ledger.failures("acme"))

    # Then every index of the schema serves some listing, and filtered ones project ALL
    queried = {
        (request["TableName"], request["IndexName"])
        for operation, request in aws.client.calls
        if operation == "query" and "IndexName" in request
    }
    declared = {(aws.tables.name(d), i.name) for d in TABLES for i in d.indexes}
    assert queried == declared
    for operation, request in aws.client.calls:
        if operation == "query" and "IndexName" in request and "FilterExpression" in request:
            design = next(d for d in TABLES if aws.tables.name(d) == request["TableName"])
            assert design.index(request["IndexName"]).projection == "ALL", request


def test_the_created_tables_match_the_schema(aws: Aws) -> None:
    client = aws.tables.client
    for design in TABLES:
        name = aws.tables.name(design)
        table = client.describe_table(TableName=name)["Table"]
        indexes = {i["IndexName"]: i for i in table.get("GlobalSecondaryIndexes", [])}
        ttl = client.describe_time_to_live(TableName=name)["TimeToLiveDescription"]

        assert table["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
        assert [k["AttributeName"] for k in table["KeySchema"]] == list(design.key_names)
        assert indexes.keys() == {i.name for i in design.indexes}
        for index in design.indexes:
            described = indexes[index.name]
            assert [k["AttributeName"] for k in described["KeySchema"]] == list(index.key_names)
            assert described["Projection"]["ProjectionType"] == index.projection
        assert ttl.get("AttributeName") == design.ttl_attribute


# --- errors -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "code",
    [
        "ProvisionedThroughputExceededException",
        "ThrottlingException",
        "RequestLimitExceeded",
        "InternalServerError",
        "TransactionConflictException",
    ],
)
def test_throttling_and_server_errors_are_transient(code: str) -> None:
    with pytest.raises(TransientError), translated():
        raise ClientError({"Error": {"Code": code, "Message": "slow down"}}, "PutItem")


def test_a_failed_condition_is_a_condition_failure_not_an_error() -> None:
    error = {"Error": {"Code": "ConditionalCheckFailedException", "Message": "no"}}

    with pytest.raises(ConditionFailed), translated():
        raise ClientError(error, "PutItem")


def test_other_client_errors_propagate_unchanged() -> None:
    error = ClientError({"Error": {"Code": "ResourceNotFoundException", "Message": "?"}}, "Query")

    with pytest.raises(ClientError), translated():
        raise error


@contextmanager
def _feedback_transaction_cancelled(*reasons: str) -> Iterator[DynamoDbProcedureStore]:
    """A procedure store whose lookup succeeds and whose feedback transaction DynamoDB cancels,
    one cancellation reason per transaction item."""
    client = boto3.client(
        "dynamodb",
        region_name=REGION,
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )
    with Stubber(client) as stub:
        stub.add_response("query", {"Items": [{"pk": {"S": "acme#report"}}]})
        stub.add_client_error(
            "transact_write_items",
            service_error_code="TransactionCanceledException",
            modeled_fields={"CancellationReasons": [{"Code": code} for code in reasons]},
        )
        yield DynamoDbProcedureStore(client, "procedures")


def _report(store: DynamoDbProcedureStore) -> FeedbackCount:
    return store.record_feedback(
        "proc-1", tenant_id="acme", run_id="r", receipt_id="n1", succeeded=True, now=NOW
    )


def test_a_transaction_cancelled_by_a_conflict_is_transient_and_counts_nothing() -> None:
    # Given a procedure lookup that succeeds, then a transaction another writer conflicts with
    with (
        _feedback_transaction_cancelled("None", "None", "TransactionConflict") as store,
        pytest.raises(TransientError),
    ):
        _report(store)


@pytest.mark.parametrize(
    ("reasons", "answer"),
    [
        (("ConditionalCheckFailed", "None", "None"), FeedbackCount.RUN_COUNTED),
        (("ConditionalCheckFailed", "ConditionalCheckFailed", "None"), FeedbackCount.RUN_COUNTED),
        (("None", "ConditionalCheckFailed", "None"), FeedbackCount.RECEIPT_USED),
        (("None", "None", "ConditionalCheckFailed"), FeedbackCount.NO_PROCEDURE),
    ],
    ids=["run marked", "both marked", "receipt marked", "procedure gone"],
)
def test_a_cancelled_feedback_transaction_answers_which_condition_failed(
    reasons: tuple[str, ...], answer: FeedbackCount
) -> None:
    with _feedback_transaction_cancelled(*reasons) as store:
        assert _report(store) is answer


# --- episodes over 400 KB ---------------------------------------------------------------------


def _oversized_episode(**overrides: Any) -> Any:
    # 280 units of 357 characters with 1,024-dim int8 vectors: ~410 KB in one item.
    rng = np.random.default_rng(3)
    units = tuple(
        EpisodeUnit(
            "message",
            i,
            (f"unit {i:04d} " + "x" * 357)[:357],
            "user",
            vectors.encode(rng.standard_normal(1_024).astype(np.float32), "titan"),
        )
        for i in range(280)
    )
    return episode(units=units, embedding=VECTOR, **overrides)


def test_an_oversized_episode_keeps_its_index_attributes_and_moves_the_rest_to_parts(
    aws: Aws,
) -> None:
    # Given an episode whose single item would pass 400 KB
    stored = _oversized_episode(outcome="FAILED")
    # When it is written
    aws.episodes.add(stored)
    items = {i["run_id"]["S"]: i for i in aws.items(EPISODES)}
    main = items.pop("run-1")
    parts = {k: v for k, v in items.items() if k.startswith("run-1#part#")}
    # Then the item keeps every key, index, summary and embedding attribute, and the unit
    # vectors live in parts under the same partition, each under 400 KB by DynamoDB's rules
    assert {"tenant_key", "failed_shard", "created_at", "task_summary", "embedding"} <= main.keys()
    assert "unit_vectors" not in main and parts
    assert all(p["pk"] == main["pk"] for p in parts.values())
    assert max(map(_item_size, [main, *parts.values()])) <= ITEM_LIMIT_BYTES
    # And parts expire with it and carry nothing an index or a listing selects on
    for part in parts.values():
        assert part["expires_at"] == main["expires_at"]
        assert {"tenant_key", "failed_shard", "created_at", "tenant_id", "outcome"}.isdisjoint(part)
    # And it is written in one transaction with its parts
    (transaction,) = [r for op, r in aws.client.calls if op == "transact_write_items"]
    assert len(transaction["TransactItems"]) == 1 + len(parts)
    # And counts, decay listings and scans see one episode
    assert aws.episodes.count_by_outcome(now=NOW) == {"FAILED": 1}
    assert aws.episodes.count_by_outcome(now=NOW, tenant_id="acme") == {"FAILED": 1}
    assert [e.run_id for e in aws.episodes.list_all(now=NOW, limit=10).items] == ["run-1"]


@pytest.mark.parametrize("removal", ["delete", "forget"])
def test_removing_an_oversized_episode_leaves_none_of_its_parts(aws: Aws, removal: str) -> None:
    # Given an oversized episode beside a small one of another agent
    aws.episodes.add(_oversized_episode())
    aws.episodes.add(episode(agent_id="agent-2"))
    # When it is deleted, or its tenant forgotten
    if removal == "delete":
        assert aws.episodes.delete("acme", "agent-1", "run-1") is True
    else:
        assert aws.episodes.forget("acme") == 2
    # Then no part of it is left (only version items and the tenant's roster, and the other
    # agent's episode if kept)
    left = {(i["pk"]["S"], i["run_id"]["S"]) for i in aws.items(EPISODES)}
    assert not any("#part#" in run_id for _, run_id in left)
    expected = {("acme#agent-1", "#version"), ("acme#", roster_sort_key("agent-1"))}
    if removal == "delete":
        expected |= {("acme#agent-2", "run-1"), ("acme#agent-2", "#version")}
        expected |= {("acme#", roster_sort_key("agent-2"))}
    else:
        expected = set()
    assert left == expected
