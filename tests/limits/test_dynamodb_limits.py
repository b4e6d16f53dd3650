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
from agent_memory.adapters.aws.dynamodb_episodes import DynamoDbEpisodeStore, roster_sort_key
from agent_memory.adapters.aws.dynamodb_facts import DynamoDbFactStore
from agent_memory.adapters.aws.dynamodb_ledger import DynamoDbLedger
from agent_memory.adapters.aws.dynamodb_procedures import DynamoDbProcedureStore
from agent_memory.adapters.aws.dynamodb_schema import EPISODES, FACTS, LEDGER, PROCEDURES
from agent_memory.adapters.ledger_records import run_key
from agent_memory.core.api.contracts import MAX_ITEM_CHARS, MAX_LIST_ITEMS, MAX_TASK_CHARS
from agent_memory.core.model import receipts
from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.model.models import (
    AGENTS_KEPT,
    RUN_IDS_KEPT,
    SOURCE_RUN_IDS_KEPT,
    Episode,
    EpisodeUnit,
    FactStatus,
    StoredVector,
)
from agent_memory.core.model.policies import EpisodicPolicy
from agent_memory.core.ports import FeedbackCount
from agent_memory.core.tiers import procedural
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
    # And its deletion leaves only the agent's version item and the tenant's roster
    assert store.delete(LONGEST_ID, LONGEST_ID, LONGEST_ID) is True
    left = sorted(i["run_id"]["S"] for i in raw_items(tables, tables.name(EPISODES)))
    assert left == sorted([roster_sort_key(LONGEST_ID), "#version"])


def _long_run(number: int) -> str:
    """A run id of the longest length ``ID_PATTERN`` allows (128 characters)."""
    return f"{number:05d}".ljust(128, "r")


def test_a_fact_seen_by_ever_more_runs_stops_growing_under_400_kb_and_counts_each_once(
    tables: Tables,
) -> None:
    """Past RUN_IDS_KEPT runs the fact's item no longer grows, so no number of runs can take
    it over the 400 KB of an item ("Constraints in Amazon DynamoDB",
    https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Constraints.html)."""
    # Given a fact of the longest content, with both vectors, in the longest tenant and domain
    store = DynamoDbFactStore(tables.client, tables.name(FACTS))
    sighting = observation(
        tenant_id=LONGEST_ID,
        domain=LONGEST_ID,
        content=wide(MAX_ITEM_CHARS),
        embedding=titan_vector(1),
    )
    past = 100  # runs past the log in each round: the counts keep their number of digits

    def see(runs: range) -> int:
        for number in runs:
            store.observe(replace(sighting, run_id=_long_run(number), seen_at=NOW + number))
            if number % 50 == 0:  # a redelivery, right away and after later runs
                store.observe(replace(sighting, run_id=_long_run(number), seen_at=NOW + number))
                store.observe(replace(sighting, run_id=_long_run(number // 2), seen_at=NOW))
        (item,) = [i for i in raw_items(tables, tables.name(FACTS)) if "status" in i]
        return item_size(item)

    # When RUN_IDS_KEPT + 100 distinct runs of 128-character ids see it, then 100 more, some
    # of them delivered more than once
    first = see(range(RUN_IDS_KEPT + past))
    second = see(range(RUN_IDS_KEPT + past, RUN_IDS_KEPT + 2 * past))
    # Then its item stopped growing at the log's bound, far under 400 KB by DynamoDB's rules
    # (the log names its runs twice at most: all of them, and those that were no confirmation,
    # one agent's burst here, so forgetting a run takes back exactly what it added)
    assert second == first < 48 * 1024 < ITEM_LIMIT_BYTES
    # And it counts every distinct run once and names the first RUN_IDS_KEPT
    fact = store.get(LONGEST_ID, LONGEST_ID, "h-1")
    assert fact is not None
    assert fact.sightings == RUN_IDS_KEPT + 2 * past
    assert fact.run_ids == frozenset(_long_run(i) for i in range(RUN_IDS_KEPT))
    # And each run past the log left one small marker
    markers = [i for i in raw_items(tables, tables.name(FACTS)) if "status" not in i]
    assert len(markers) == 2 * past
    assert max(item_size(i) for i in markers) < 1024


def test_a_fact_at_its_maxima_confirmed_by_ever_more_agents_stops_growing_under_400_kb(
    tables: Tables,
) -> None:
    """A fact remembers the last counted confirmation of the AGENTS_KEPT agents that counted
    last, and names its first RUN_IDS_KEPT runs, so no number of agents can take its item over
    the 400 KB of an item ("Constraints in Amazon DynamoDB",
    https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Constraints.html)."""
    # Given a fact of the longest content in the longest tenant and domain, contested with the
    # longest reason, then confirmed by a reviewer, staged, ingested, and given a spare vector
    client = RecordingClient(tables.client)
    store = DynamoDbFactStore(client, tables.name(FACTS))
    key = (LONGEST_ID, LONGEST_ID, "f" * 32)
    sighting = observation(
        tenant_id=LONGEST_ID,
        domain=LONGEST_ID,
        fact_hash=key[2],
        content=wide(MAX_ITEM_CHARS),
        embedding=titan_vector(1),
    )
    first = store.observe(replace(sighting, run_id=_long_run(0), agent_id=_long_agent(0)))
    figures = f"{'1' * MAX_ITEM_CHARS} vs {'2' * MAX_ITEM_CHARS}"
    reason = f"contradicts confirmed fact {'e' * 32}: different figures ({figures})"
    assert store.contest(*key, now=NOW, reason=reason)
    assert store.confirm(*key, now=NOW, from_status=FactStatus.CONTESTED)
    store.mark_staged(*key, now=NOW)
    store.mark_ingested(*key, now=NOW)
    assert store.set_vectors(replace(first, spare_embedding=titan_vector(2, NEXT_MODEL)))

    def see(numbers: range) -> int:
        # Each run another agent's, an hour after the last, at a time of 17 significant digits
        for number in numbers:
            run, agent = _long_run(number), _long_agent(number)
            at = NOW + number * 3_600 + 1 / 3
            store.observe(replace(sighting, run_id=run, agent_id=agent, seen_at=at))
        (item,) = [i for i in raw_items(tables, tables.name(FACTS)) if "status" in i]
        return item_size(item)

    # When more agents than it remembers confirm it in more runs than its log names, then more
    past = 50  # runs in each round past both bounds: the counts keep their number of digits
    bound = max(RUN_IDS_KEPT, AGENTS_KEPT)
    first_round = see(range(1, bound + past))
    second_round = see(range(bound + past, bound + 2 * past))
    # Then the item stopped growing at its bounds, under 400 KB by DynamoDB's rules
    assert second_round == first_round <= ITEM_LIMIT_BYTES
    # And it counted every agent's confirmation and remembers the AGENTS_KEPT latest
    fact = store.get(*key)
    assert fact is not None
    assert (fact.sightings, fact.confirmations) == (bound + 2 * past, bound + 2 * past)
    assert [agent for agent, _ in fact.counted_by] == [
        _long_agent(n) for n in range(bound + 2 * past - AGENTS_KEPT, bound + 2 * past)
    ]
    # And each run past the log was counted with its marker in a transaction within limits
    assert len(client.transactions) == bound + 2 * past - RUN_IDS_KEPT
    assert_transactions_within_limits(client)


def _long_agent(number: int) -> str:
    """An agent id of the longest length ``ID_PATTERN`` allows (128 characters)."""
    return f"{number:05d}".ljust(128, "g")


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


# Key values: "the maximum length of a partition key value is 2048 bytes", "of a sort key value
# is 1024 bytes" (the Constraints page above, "Partition key length and values").
PARTITION_KEY_BYTES, SORT_KEY_BYTES = 2048, 1024


def test_feedback_at_its_maxima_keeps_its_markers_and_transaction_within_limits(
    tables: Tables,
) -> None:
    # Given a procedure of the longest tenant and id, a report from the longest counted run
    # marker (agent/run, 128 characters each) with a receipt bootstrap issued for those ids
    client = RecordingClient(tables.client)
    store = DynamoDbProcedureStore(client, tables.name(PROCEDURES))
    assert store.propose(procedure(tenant_id=LONGEST_ID, procedure_id=LONGEST_ID), "r") is True
    token = receipts.issue(
        receipts.derive_key(b"k" * 32),
        tenant_id=LONGEST_ID,
        agent_id=LONGEST_ID,
        procedure_id=LONGEST_ID,
        now=NOW,
    )
    nonce = receipts.verify(
        token,
        receipts.derive_key(b"k" * 32),
        tenant_id=LONGEST_ID,
        agent_id=LONGEST_ID,
        procedure_id=LONGEST_ID,
        now=NOW,
        valid_for=DAY,
    ).nonce
    # When the report is counted
    counted = store.record_feedback(
        LONGEST_ID,
        tenant_id=LONGEST_ID,
        run_id=f"{LONGEST_ID}/{LONGEST_ID}",
        receipt_id=nonce,
        succeeded=True,
        now=NOW,
    )
    # Then it counted in one transaction of three actions within DynamoDB's limits, and its
    # run and receipt markers are small items whose keys are within the key-length limits
    assert counted is FeedbackCount.COUNTED
    assert [len(actions) for actions in client.transactions] == [3]
    assert_transactions_within_limits(client)
    markers = [i for i in raw_items(tables, tables.name(PROCEDURES)) if "recorded_at" in i]
    assert len(markers) == 2
    for marker in markers:
        assert item_size(marker) < 1024
        assert len(marker["pk"]["S"].encode()) <= PARTITION_KEY_BYTES
        assert len(marker["sk"]["S"].encode()) <= SORT_KEY_BYTES


def test_the_largest_procedure_rejected_with_the_longest_reason_is_under_400_kb(
    tables: Tables,
) -> None:
    # Given the largest procedure, its log of source runs full of 128-character run ids
    store = DynamoDbProcedureStore(tables.client, tables.name(PROCEDURES))
    largest = procedure(
        tenant_id=LONGEST_ID,
        task_type=LONGEST_ID,
        procedure_id=LONGEST_ID,
        title=wide(200),
        steps=tuple(wide(MAX_ITEM_CHARS) for _ in range(MAX_LIST_ITEMS)),
    )
    for number in range(SOURCE_RUN_IDS_KEPT):
        store.propose(largest, _long_run(number))
    (item,) = [i for i in raw_items(tables, tables.name(PROCEDURES)) if "status" in i]
    # When the longest reviewer rejects it with the longest reason the review accepts, the item
    # gains these attributes (sized by DynamoDB's rules: moto refuses items past 405,000
    # bytes, short of DynamoDB's 400 KB, so the update itself is not replayed here)
    reviewed = {
        **item,
        "status": {"S": "REJECTED"},
        "reviewer": {"S": wide(128)},
        "review_note": {"S": wide(procedural.MAX_REVIEW_NOTE)},
        "reviewed_at": {"N": str(NOW)},
    }
    # Then the item stays under 400 KB, and a longer reason is refused before any write
    assert item_size(reviewed) <= ITEM_LIMIT_BYTES
    with pytest.raises(InvalidInput, match="reason"):
        procedural.review(
            store,
            LONGEST_ID,
            approve=False,
            reviewer="ana",
            note=wide(procedural.MAX_REVIEW_NOTE + 1),
            now=NOW,
            tenant_id=LONGEST_ID,
        )


def test_a_procedure_proposed_by_ever_more_runs_stops_growing_under_400_kb(
    tables: Tables,
) -> None:
    """Past SOURCE_RUN_IDS_KEPT proposing runs the procedure's item no longer grows: 3,200 run
    ids of 128 characters would pass the 400 KB of an item ("Constraints in Amazon DynamoDB",
    https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Constraints.html) and
    every later proposal would fail."""
    # Given the largest procedure, for the longest tenant and task type
    store = DynamoDbProcedureStore(tables.client, tables.name(PROCEDURES))
    proposal = procedure(
        tenant_id=LONGEST_ID,
        task_type=LONGEST_ID,
        procedure_id=LONGEST_ID,
        title=wide(200),
        steps=tuple(wide(MAX_ITEM_CHARS) for _ in range(MAX_LIST_ITEMS)),
    )
    past = 30  # runs past the log in each round: the count keeps its number of digits

    def propose(runs: range) -> int:
        for number in runs:
            store.propose(proposal, _long_run(number))
            if number % 10 == 0:  # a redelivery, right away and after later runs
                store.propose(proposal, _long_run(number))
                store.propose(proposal, _long_run(number // 2))
        (item,) = [i for i in raw_items(tables, tables.name(PROCEDURES)) if "status" in i]
        return item_size(item)

    # When SOURCE_RUN_IDS_KEPT + 30 distinct runs of 128-character ids propose it, then 30 more,
    # some of them delivered more than once
    first = propose(range(SOURCE_RUN_IDS_KEPT + past))
    second = propose(range(SOURCE_RUN_IDS_KEPT + past, SOURCE_RUN_IDS_KEPT + 2 * past))
    # Then its item stopped growing at the log's bound, under 400 KB by DynamoDB's rules
    assert second == first <= ITEM_LIMIT_BYTES
    # And it counts every distinct run once and names the first SOURCE_RUN_IDS_KEPT
    stored = store.get(LONGEST_ID, tenant_id=LONGEST_ID)
    assert stored is not None
    assert stored.proposed_by == SOURCE_RUN_IDS_KEPT + 2 * past
    assert stored.source_run_ids == frozenset(_long_run(i) for i in range(SOURCE_RUN_IDS_KEPT))
    # And each run past the log left one small marker, which forgetting the tenant removes
    markers = [i for i in raw_items(tables, tables.name(PROCEDURES)) if "status" not in i]
    assert len(markers) == 2 * past
    assert max(item_size(i) for i in markers) < 1024
    assert store.forget(LONGEST_ID) == 1
    assert raw_items(tables, tables.name(PROCEDURES)) == []


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
    ledger.put(run_key(LONGEST_ID, LONGEST_ID, LONGEST_ID), value, now=NOW, expires_at=NOW + DAY)
    # Then its item is under 400 KB by DynamoDB's rules, and it reads back as written
    (item,) = raw_items(tables, tables.name(LEDGER))
    assert item_size(item) <= ITEM_LIMIT_BYTES
    assert ledger.get(run_key(LONGEST_ID, LONGEST_ID, LONGEST_ID), now=NOW) == value


def test_a_tenant_with_more_agents_than_one_item_can_name_keeps_every_roster_item_under_400_kb(
    tables: Tables,
) -> None:
    # Given more agents of 128-character ids than one 400 KB item could list (some 3,100)
    store = DynamoDbEpisodeStore(tables.client, tables.name(EPISODES))
    agents = [f"{i:06d}".ljust(128, "a") for i in range(3_300)]
    small = replace(largest_episode(spare=False), units=(), embedding=None, key_findings=())
    small = replace(small, task="t", task_summary="s", approach_used="", tools_used=())
    small = replace(small, reusable_patterns=(), tenant_id="acme", run_id="run-1")
    # When each of them writes an episode
    for agent in agents:
        assert store.add(replace(small, agent_id=agent)) is True
    # Then every item is under 400 KB by DynamoDB's own rules, and the roster names them all
    assert max(item_size(i) for i in raw_items(tables, tables.name(EPISODES))) <= ITEM_LIMIT_BYTES
    assert store.agents("acme") == sorted(agents)
