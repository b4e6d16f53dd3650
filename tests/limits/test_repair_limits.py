"""The records a person's repairs add, at their maxima on DynamoDB (moto), stay under an item's
400 KB ("Constraints in Amazon DynamoDB",
https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Constraints.html): a fact
whose log also names the runs that were no confirmation (kept so forgetting a run takes back
exactly what it added), a procedure rejected, then edited by the longest editor, and a
decision of the history at every bound, read back in pages however long the history grows.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from agent_memory.adapters.aws.dynamodb_codec import ITEM_LIMIT_BYTES, item_size
from agent_memory.adapters.aws.dynamodb_facts import DynamoDbFactStore
from agent_memory.adapters.aws.dynamodb_ledger import DynamoDbLedger
from agent_memory.adapters.aws.dynamodb_procedures import DynamoDbProcedureStore
from agent_memory.adapters.aws.dynamodb_schema import FACTS, LEDGER, PROCEDURES
from agent_memory.adapters.ledger_records import ledger_ports
from agent_memory.core.api.contracts import MAX_ITEM_CHARS, MAX_LIST_ITEMS
from agent_memory.core.model.decisions import (
    MAX_ACTOR,
    MAX_REASON,
    MAX_RECORD_ID,
    Action,
    Decision,
    RecordKind,
)
from agent_memory.core.model.errors import Conflict
from agent_memory.core.model.models import AGENTS_KEPT, RUN_IDS_KEPT, SOURCE_RUN_IDS_KEPT
from agent_memory.core.model.policies import Independence
from agent_memory.core.tiers import procedural, procedure_repair
from tests.contract.builders import NOW, observation, procedure
from tests.integration.aws.moto_dynamodb import Tables
from tests.limits.test_dynamodb_limits import (
    LONGEST_ID,
    _long_agent,
    _long_run,
    raw_items,
    tables,
    titan_vector,
    wide,
)

__all__ = ["tables"]  # the fixture, shared with the other DynamoDB limits


def test_a_fact_whose_log_holds_uncounted_runs_and_every_agent_stays_under_400_kb(
    tables: Tables,
) -> None:
    # Given a fact of the longest content whose whole log is one agent's burst of runs (each
    # no confirmation but the first), then counted by more agents than it remembers
    store = DynamoDbFactStore(tables.client, tables.name(FACTS))
    sighting = observation(
        tenant_id=LONGEST_ID,
        domain=LONGEST_ID,
        fact_hash="f" * 32,
        content=wide(MAX_ITEM_CHARS),
        embedding=titan_vector(1),
    )
    burst = Independence()
    for number in range(RUN_IDS_KEPT):
        run = replace(sighting, run_id=_long_run(number), agent_id=_long_agent(0))
        store.observe(replace(run, seen_at=NOW + number), burst)
    for number in range(RUN_IDS_KEPT, RUN_IDS_KEPT + AGENTS_KEPT + 5):
        run = replace(sighting, run_id=_long_run(number), agent_id=_long_agent(number))
        store.observe(replace(run, seen_at=NOW + number * 3_600), burst)

    # Then its item, naming every run of its log and which were no confirmation, is under 400 KB
    (item,) = [i for i in raw_items(tables, tables.name(FACTS)) if "status" in i]
    assert len(item["uncounted_runs"]["SS"]) == RUN_IDS_KEPT - 1
    assert len(item["counted_by"]["M"]) == AGENTS_KEPT
    assert item_size(item) <= ITEM_LIMIT_BYTES
    # And forgetting a run of the burst takes back no confirmation, one of the others one
    before = store.get(LONGEST_ID, LONGEST_ID, "f" * 32)
    assert before is not None
    burst_run = store.unsee(LONGEST_ID, LONGEST_ID, "f" * 32, _long_run(1))
    assert burst_run is not None and burst_run.confirmations == before.confirmations
    counted = store.unsee(LONGEST_ID, LONGEST_ID, "f" * 32, _long_run(RUN_IDS_KEPT + 1))
    assert counted is not None and counted.confirmations == before.confirmations - 1


def test_the_largest_procedure_rejected_then_edited_is_under_400_kb(tables: Tables) -> None:
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
    # When the longest reviewer rejects it with the longest reason, then the longest editor
    # edits it (the attributes each adds, sized by DynamoDB's rules: moto refuses items past
    # 405,000 bytes, short of DynamoDB's 400 KB, so the updates are not replayed here)
    repaired = {
        **item,
        "status": {"S": "REJECTED"},
        "reviewer": {"S": wide(procedural.MAX_REVIEWER)},
        "review_note": {"S": wide(procedural.MAX_REVIEW_NOTE)},
        "reviewed_at": {"N": str(NOW)},
        "edited_by": {"S": wide(procedural.MAX_REVIEWER)},
        "edited_at": {"N": str(NOW)},
        "revision": {"N": str(procedure_repair.MAX_REVISION)},
    }
    # Then the item stays under 400 KB, however many edits it may take
    assert item_size(repaired) <= ITEM_LIMIT_BYTES
    # And one more edit than that is refused before anything is written
    at_most = replace(store.get(LONGEST_ID) or largest, revision=procedure_repair.MAX_REVISION)
    with pytest.raises(Conflict, match="the most one takes"):
        procedure_repair.check_editable(at_most, None)


def test_a_decision_at_every_bound_is_kept_whole_and_a_long_history_pages_back(
    tables: Tables,
) -> None:
    # Given a history of decisions at every bound (actor, record id, reason)
    log = ledger_ports(DynamoDbLedger(tables.client, tables.name(LEDGER))).decisions
    written = [
        Decision(
            LONGEST_ID,
            Action.FORGET,
            RecordKind.RUN,
            f"{n:04d}".ljust(MAX_RECORD_ID, "r"),
            wide(MAX_ACTOR),
            NOW + n,
            wide(MAX_REASON),
            "d" * 64,
        )
        for n in range(120)
    ]
    for decision in written:
        log.record(decision)
    # When the history is read back, 100 at a time
    pages = [log.history(LONGEST_ID, limit=100)]
    while pages[-1].cursor is not None:
        pages.append(log.history(LONGEST_ID, limit=100, cursor=pages[-1].cursor))
    # Then every decision comes back whole, newest first, and each item is small
    read = [d for page in pages for d in page.items]
    assert read == list(reversed(written))
    decisions = [i for i in raw_items(tables, tables.name(LEDGER)) if "#decision#" in str(i)]
    assert len(decisions) == 120
    assert max(item_size(i) for i in decisions) < 16 * 1024 < ITEM_LIMIT_BYTES
