"""Adapters under the storage contract: every contract test runs once per factory in ADAPTERS.

To put a new adapter under the contract, add one factory (a context manager building its four
stores on fresh, empty storage) to ``ADAPTERS``. An adapter without a ``Ledger`` (the in-memory
one, for now) has the ledger's contract skipped, saying so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from agent_memory.adapters.aws.dynamodb_episodes import DynamoDbEpisodeStore
from agent_memory.adapters.aws.dynamodb_facts import DynamoDbFactStore
from agent_memory.adapters.aws.dynamodb_ledger import DynamoDbLedger
from agent_memory.adapters.aws.dynamodb_procedures import DynamoDbProcedureStore
from agent_memory.adapters.aws.dynamodb_schema import EPISODES, FACTS, LEDGER, PROCEDURES
from agent_memory.adapters.local.sqlite_db import SqliteDatabase
from agent_memory.adapters.local.sqlite_episodes import SqliteEpisodeStore
from agent_memory.adapters.local.sqlite_facts import SqliteFactStore
from agent_memory.adapters.local.sqlite_ledger import SqliteLedger
from agent_memory.adapters.local.sqlite_procedures import SqliteProcedureStore
from agent_memory.adapters.memory import (
    MemoryDatabase,
    MemoryEpisodeStore,
    MemoryFactStore,
    MemoryProcedureStore,
)
from agent_memory.core.ports import EpisodeStore, FactStore, Ledger, ProcedureStore
from tests.integration.aws.moto_dynamodb import mocked_tables


@dataclass(frozen=True)
class Stores:
    """The four storage ports of one adapter, over one fresh store.

    ``purges_expired`` is False for a store whose TTL is native (DynamoDB): its
    ``purge_expired`` may return 0 and leave expired records for the TTL sweeper. ``ledger`` is
    None for an adapter that has none.
    """

    episodes: EpisodeStore
    facts: FactStore
    procedures: ProcedureStore
    ledger: Ledger | None
    purges_expired: bool


StoreFactory = Callable[[Path], AbstractContextManager[Stores]]


@contextmanager
def sqlite_stores(tmp_path: Path) -> Iterator[Stores]:
    db = SqliteDatabase(tmp_path / "memory.db")
    try:
        yield Stores(
            episodes=SqliteEpisodeStore(db),
            facts=SqliteFactStore(db),
            procedures=SqliteProcedureStore(db),
            ledger=SqliteLedger(db),
            purges_expired=True,
        )
    finally:
        db.close()


@contextmanager
def dynamodb_stores(tmp_path: Path) -> Iterator[Stores]:
    # moto's TTL never deletes, and the adapters leave purging to TTL.
    del tmp_path
    with mocked_tables() as tables:
        yield Stores(
            episodes=DynamoDbEpisodeStore(tables.client, tables.name(EPISODES)),
            facts=DynamoDbFactStore(tables.client, tables.name(FACTS)),
            procedures=DynamoDbProcedureStore(tables.client, tables.name(PROCEDURES)),
            ledger=DynamoDbLedger(tables.client, tables.name(LEDGER)),
            purges_expired=False,
        )


@contextmanager
def memory_stores(tmp_path: Path) -> Iterator[Stores]:
    # No in-memory Ledger yet: that port is being split (issue 18).
    del tmp_path
    db = MemoryDatabase()
    yield Stores(
        episodes=MemoryEpisodeStore(db),
        facts=MemoryFactStore(db),
        procedures=MemoryProcedureStore(db),
        ledger=None,
        purges_expired=True,
    )


ADAPTERS: dict[str, StoreFactory] = {
    "sqlite": sqlite_stores,
    "dynamodb": dynamodb_stores,
    "memory": memory_stores,
}


@pytest.fixture(params=sorted(ADAPTERS))
def stores(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Stores]:
    with ADAPTERS[request.param](tmp_path) as built:
        if built.ledger is None and request.node.path.name == "test_ledger.py":
            pytest.skip(f"the {request.param} adapter has no Ledger yet")
        yield built


@pytest.fixture
def episodes(stores: Stores) -> EpisodeStore:
    return stores.episodes


@pytest.fixture
def facts(stores: Stores) -> FactStore:
    return stores.facts


@pytest.fixture
def procedures(stores: Stores) -> ProcedureStore:
    return stores.procedures


@pytest.fixture
def ledger(stores: Stores) -> Ledger:
    assert stores.ledger is not None  # the stores fixture skips the ledger's contract
    return stores.ledger
