"""Flags at their maxima on DynamoDB (moto): an agent holding the most open flags, each with the
longest reason (2,000 four-byte characters) on the longest record id (another agent's episode,
both ids 128 characters), is read whole in one query page, as each bootstrap reads it; one more
flag is refused, and nothing past a bound is kept.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from agent_memory.adapters.aws.dynamodb_ledger import DynamoDbLedger
from agent_memory.adapters.aws.dynamodb_schema import LEDGER
from agent_memory.adapters.ledger_records import ledger_ports
from agent_memory.app import Application
from agent_memory.app.messages import FlagMemory, ListFlags
from agent_memory.core.model.decisions import MAX_REASON
from agent_memory.core.model.errors import Conflict, InvalidInput
from agent_memory.core.model.flags import MAX_OPEN_FLAGS_PER_AGENT
from agent_memory.core.workflows.flags import flagged_by
from tests.integration.aws.moto_dynamodb import mocked_tables
from tests.support.memory import Memory, make_memory

LONGEST_REASON = "🔑" * MAX_REASON
AGENT = "a" * 128


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[tuple[Memory, list[str]]]:
    # Given a memory whose flags are kept in DynamoDB's ledger table, its Query calls counted
    with mocked_tables() as tables:
        queries: list[str] = []

        def counted(params: dict[str, Any], **_: Any) -> None:
            queries.append(str(params.get("IndexName")))

        tables.client.meta.events.register("provide-client-params.dynamodb.Query", counted)
        ledgers = ledger_ports(DynamoDbLedger(tables.client, tables.name(LEDGER)))
        memory = make_memory(tmp_path, stores="memory")
        memory.ports = replace(memory.ports, flags=ledgers.flags, decisions=ledgers.decisions)
        yield memory, queries


def flag(memory: Memory, record: str, reason: str = LONGEST_REASON) -> Any:
    return Application(memory.ports).handle(FlagMemory("acme", AGENT, "episode", record, reason))


def test_an_agent_at_the_cap_at_the_bounds_is_read_in_one_query(
    memory: tuple[Memory, list[str]],
) -> None:
    ports, queries = memory
    # Given the agent holding the most open flags, each at every bound
    for n in range(MAX_OPEN_FLAGS_PER_AGENT):
        flagged = flag(ports, f"{'w' * 128}/{n:03d}{'r' * 125}")
        assert len(flagged["record_id"]) == 257 and len(flagged["reason"]) == MAX_REASON
    # When its flags are read as a bootstrap reads them
    queries.clear()
    found = flagged_by(ports.ports, "acme", AGENT)
    # Then every flagged episode is there, from one query of the ledger's prefix index
    assert len(found.episodes) == MAX_OPEN_FLAGS_PER_AGENT
    assert queries == ["prefix-index"]
    # When it flags one more item, then it is refused, and nothing more is kept
    with pytest.raises(Conflict, match=f"{MAX_OPEN_FLAGS_PER_AGENT} open flags"):
        flag(ports, "one-more")
    listed = Application(ports.ports).handle(ListFlags("acme", limit=100))
    assert len(listed["flags"]) == MAX_OPEN_FLAGS_PER_AGENT


@pytest.mark.parametrize(
    ("record", "reason", "field"),
    [
        ("r" * 129, "why", "record_id"),
        (f"{'w' * 129}/run", "why", "record_id"),
        ("run", LONGEST_REASON + "x", "reason"),
    ],
)
def test_a_flag_one_past_a_bound_is_refused(
    memory: tuple[Memory, list[str]], record: str, reason: str, field: str
) -> None:
    ports, _ = memory
    with pytest.raises(InvalidInput) as refused:
        flag(ports, record, reason)
    assert refused.value.field == field
    assert Application(ports.ports).handle(ListFlags("acme"))["flags"] == []
