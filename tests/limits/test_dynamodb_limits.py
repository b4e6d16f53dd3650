"""DynamoDB's item and transaction limits, held at the product's own maxima.

An item may hold at most 400 KB (1 KB = 1,024 bytes), attribute names and values together
("Constraints in Amazon DynamoDB",
https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Constraints.html); sizes count
as "DynamoDB item sizes and formats" says
(https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html).
One TransactWriteItems groups at most 100 actions whose items total at most 4 MB
(https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html).
moto refuses an item over 400 KB too, but by its own arithmetic: every item here is also sized
with DynamoDB's documented rules (:func:`~agent_memory.adapters.aws.dynamodb_codec.item_size`).

The maxima: identifiers of 128 characters (``ID_PATTERN``), text of 4-byte UTF-8 characters,
Titan Text Embeddings v2 vectors (1,024 dimensions), a second model's spare vectors (a
re-embedding), and the policy's and the RunFinished contract's longest lists.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from agent_memory.adapters.aws.dynamodb_codec import (
    ITEM_LIMIT_BYTES,
    TRANSACTION_ACTIONS,
    TRANSACTION_LIMIT_BYTES,
    item_size,
)
from agent_memory.adapters.aws.dynamodb_episodes import DynamoDbEpisodeStore
from agent_memory.adapters.aws.dynamodb_facts import DynamoDbFactStore
from agent_memory.adapters.aws.dynamodb_ledger import DynamoDbLedger
from agent_memory.adapters.aws.dynamodb_procedures import DynamoDbProcedureStore
from agent_memory.adapters.aws.dynamodb_schema import EPISODES, FACTS, LEDGER, PROCEDURES
from agent_memory.core.contracts import MAX_ITEM_CHARS, MAX_LIST_ITEMS, MAX_TASK_CHARS
from agent_memory.core.models import RUN_IDS_KEPT, Episode, EpisodeUnit, StoredVector
from agent_memory.core.policies import EpisodicPolicy
from tests.contract.builders import DAY, NOW, observation, procedure
from tests.integration.aws.moto_dynamodb import Tables, mocked_tables

# A 4-byte UTF-8 character: the most bytes a character of the product's text can take.
WIDE = "📨"
LONGEST_ID = "a" * 128
TITAN = "amazon.titan-embed-text-v2:0"
NEXT_MODEL = "cohere.embed-multilingual-v3"
POLICY = EpisodicPolicy()


def wide(chars: int) -> str:
    return WIDE * chars


def titan_vector(seed: int, model_id: str = TITAN) -> StoredVector:
    """A stored int8 vector of 1,024 dimensions: tag, float32 scale, a byte per dimension."""
    body = bytes((seed * 31 + i * 7) % 251 for i in range(1_024))
    return StoredVector(model_id, 1_024, bytes([1]) + bytes([0, 0, 128, 60]) + body)


class RecordingClient:
    """Passes every call through and remembers each TransactWriteItems request."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self.transactions: list[list[dict[str, Any]]] = []

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._client, name)
        if name != "transact_write_items":
            return attribute

        def call(**kwargs: Any) -> Any:
            self.transactions.append(kwargs["TransactItems"])
            return attribute(**kwargs)

        return call


@pytest.fixture
def tables() -> Iterator[Tables]:
    with mocked_tables() as mocked:
        yield mocked


def raw_items(tables: Tables, name: str) -> list[dict[str, Any]]:
    pages = tables.client.get_paginator("scan").paginate(TableName=name)
    return [item for page in pages for item in page["Items"]]


def largest_episode(*, spare: bool) -> Episode:
    """The largest episode a run can leave: the policy's most message units with the most
    characters in all, every finding of the contract as a unit too, the longest lists and
    texts, 128-character ids, and (``spare``) every vector twice."""
    per_message = POLICY.max_unit_total_chars // POLICY.max_units
    messages = [
        EpisodeUnit("message", i, wide(per_message), wide(256)) for i in range(POLICY.max_units)
    ]
    findings = tuple(wide(MAX_ITEM_CHARS) for _ in range(MAX_LIST_ITEMS))
    units = tuple(
        replace(
            unit,
            embedding=titan_vector(i),
            spare_embedding=titan_vector(i, NEXT_MODEL) if spare else None,
        )
        for i, unit in enumerate(
            [*messages, *(EpisodeUnit("finding", i, f) for i, f in enumerate(findings))]
        )
    )
    return Episode(
        tenant_id=LONGEST_ID,
        agent_id=LONGEST_ID,
        run_id=LONGEST_ID,
        task=wide(MAX_TASK_CHARS),
        task_summary=wide(MAX_ITEM_CHARS),
        outcome="FAILED",
        created_at=NOW - DAY,
        expires_at=NOW + 90 * DAY,
        task_type=LONGEST_ID,
        domain=LONGEST_ID,
        key_findings=findings,
        approach_used=wide(MAX_TASK_CHARS),
        tools_used=tuple(wide(MAX_ITEM_CHARS) for _ in range(MAX_LIST_ITEMS)),
        reusable_patterns=tuple(wide(MAX_ITEM_CHARS) for _ in range(MAX_LIST_ITEMS)),
        embedding=titan_vector(0),
        spare_embedding=titan_vector(0, NEXT_MODEL) if spare else None,
        units=units,
    )


def assert_transactions_within_limits(client: RecordingClient) -> None:
    for actions in client.transactions:
        items = [a.get("Put", {}).get("Item") or a[next(iter(a))].get("Key") for a in actions]
        assert len(actions) <= TRANSACTION_ACTIONS
        assert sum(item_size(i) for i in items) <= TRANSACTION_LIMIT_BYTES


@pytest.mark.parametrize("spare", [False, True], ids=["one-model", "re-embedding"])
def test_the_largest_episode_is_stored_whole_in_items_under_400_kb(
    tables: Tables, spare: bool
) -> None:
    # Given the largest episode the product accepts
    client = RecordingClient(tables.client)
    store = DynamoDbEpisodeStore(client, tables.name(EPISODES))
    stored = largest_episode(spare=spare)
    # When it is written, read back, decayed (it FAILED) and its vectors rewritten
    assert store.add(stored) is True
    assert store.get(LONGEST_ID, LONGEST_ID, LONGEST_ID, now=NOW) == stored
    assert store.failed_before(NOW, now=NOW, limit=1).items == (stored,)
    # Then every item it occupies is under 400 KB by DynamoDB's own rules, and each write
    # transaction within 100 actions and 4 MB
    sizes = [item_size(i) for i in raw_items(tables, tables.name(EPISODES))]
    assert max(sizes) <= ITEM_LIMIT_BYTES
    assert sum(sizes) > ITEM_LIMIT_BYTES  # it did need more than one item
    assert client.transactions
    assert_transactions_within_limits(client)
    # And a re-embedding's rewrite (grown or shrunk) keeps to the same limits
    other = replace(
        stored,
        units=tuple(
            replace(u, spare_embedding=None if spare else u.embedding) for u in stored.units
        ),
    )
    assert store.set_vectors(other) is True
    assert store.get(LONGEST_ID, LONGEST_ID, LONGEST_ID, now=NOW) == other
    assert max(item_size(i) for i in raw_items(tables, tables.name(EPISODES))) <= ITEM_LIMIT_BYTES
    assert_transactions_within_limits(client)
    # And its deletion leaves only the agent's version item
    assert store.delete(LONGEST_ID, LONGEST_ID, LONGEST_ID) is True
    assert [i["run_id"]["S"] for i in raw_items(tables, tables.name(EPISODES))] == ["#version"]


def test_a_fact_seen_by_ten_thousand_runs_stays_under_400_kb_and_counts_each_once(
    tables: Tables,
) -> None:
    # Given a fact of the longest content, with both vectors, in the longest tenant and domain
    store = DynamoDbFactStore(tables.client, tables.name(FACTS))
    sighting = observation(
        tenant_id=LONGEST_ID,
        domain=LONGEST_ID,
        content=wide(MAX_ITEM_CHARS),
        embedding=titan_vector(1),
    )
    # When 10,050 distinct runs of 128-character ids see it, some delivered twice
    runs = [f"{i:05d}".ljust(128, "r") for i in range(10_050)]
    for number, run_id in enumerate(runs):
        store.observe(replace(sighting, run_id=run_id, seen_at=NOW + number))
        if number % 1_000 == 0:
            store.observe(replace(sighting, run_id=run_id, seen_at=NOW + number))
    fact = store.get(LONGEST_ID, LONGEST_ID, "h-1")
    # Then it counts every run once and names the first RUN_IDS_KEPT
    assert fact is not None
    assert fact.confirmations == len(runs)
    assert fact.run_ids == frozenset(runs[:RUN_IDS_KEPT])
    # And its item is far under 400 KB by DynamoDB's rules, as is every marker
    items = raw_items(tables, tables.name(FACTS))
    (fact_item,) = [i for i in items if "status" in i]
    assert item_size(fact_item) < 32 * 1024 < ITEM_LIMIT_BYTES
    assert max(item_size(i) for i in items) < ITEM_LIMIT_BYTES


def test_the_largest_procedure_is_under_400_kb(tables: Tables) -> None:
    # Given the longest proposal the contract accepts: a 200-character title and 50 steps of
    # 2,000 four-byte characters, for the longest tenant and task type
    store = DynamoDbProcedureStore(tables.client, tables.name(PROCEDURES))
    largest = procedure(
        tenant_id=LONGEST_ID,
        task_type=LONGEST_ID,
        procedure_id=LONGEST_ID,
        title=wide(200),
        steps=tuple(wide(MAX_ITEM_CHARS) for _ in range(MAX_LIST_ITEMS)),
    )
    # When it is proposed and read back
    assert store.propose(largest, LONGEST_ID) is True
    assert store.get(LONGEST_ID, tenant_id=LONGEST_ID) is not None
    # Then its item is under 400 KB by DynamoDB's rules
    (item,) = raw_items(tables, tables.name(PROCEDURES))
    assert item_size(item) <= ITEM_LIMIT_BYTES


@pytest.mark.xfail(
    strict=True,
    reason="open: a procedure's source_run_ids grows by one 128-character id per proposing run "
    "(dynamodb_procedures.propose ADDs each), so some 3,000 runs pass 400 KB",
)
def test_a_procedure_proposed_by_many_runs_stays_under_400_kb(tables: Tables) -> None:
    # Given a procedure proposed again by 3,200 runs of 128-character ids
    store = DynamoDbProcedureStore(tables.client, tables.name(PROCEDURES))
    proposal = procedure(tenant_id=LONGEST_ID, task_type=LONGEST_ID, procedure_id=LONGEST_ID)
    for number in range(3_200):
        store.propose(proposal, f"{number:05d}".ljust(128, "r"))
    # Then its item is still under 400 KB
    (item,) = raw_items(tables, tables.name(PROCEDURES))
    assert item_size(item) <= ITEM_LIMIT_BYTES


def _largest_run_state() -> dict[str, Any]:
    """A scrubbed run's state as the ledger records it (``scrub``): within Step Functions'
    256 KiB as UTF-8 (tests/limits/test_workflow_limits.py), all of it 4-byte characters."""
    units = [
        {"kind": "message", "seq": i, "speaker": "user", "text": wide(140)} for i in range(300)
    ]
    return {
        "state": {
            "run": {"tenant_id": LONGEST_ID, "agent_id": LONGEST_ID, "run_id": LONGEST_ID},
            "artifacts": {"task_summary": wide(2_000), "key_findings": [wide(1_000)] * 5},
            "units": units,
            "pii_entities": {},
        }
    }


@pytest.mark.parametrize("record", ["run", "failed-run"])
def test_ledger_records_of_a_256_kib_run_are_under_400_kb(tables: Tables, record: str) -> None:
    # Given the largest run record (a scrubbed state) or failed-run record (the event kept
    # for replay) the workflow can carry: 256 KiB of UTF-8 at most, of 4-byte characters
    ledger = DynamoDbLedger(tables.client, tables.name(LEDGER))
    value = _largest_run_state()
    if record == "failed-run":
        value = {"event": value["state"], "error": {"Error": "States.TaskFailed"}}
    assert len(json.dumps(value, ensure_ascii=False).encode()) <= 256 * 1024
    # When it is recorded
    ledger.put(f"{LONGEST_ID}#run#{LONGEST_ID}", value, now=NOW, expires_at=NOW + DAY)
    # Then its item is under 400 KB by DynamoDB's rules, and it reads back as written
    (item,) = raw_items(tables, tables.name(LEDGER))
    assert item_size(item) <= ITEM_LIMIT_BYTES
    assert ledger.get(f"{LONGEST_ID}#run#{LONGEST_ID}", now=NOW) == value
