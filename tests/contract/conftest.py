"""Adapters under the storage contract: every contract test runs once per factory in ADAPTERS.

To put a new adapter under the contract, add one factory (a context manager building its
stores on fresh, empty storage) to ``ADAPTERS``.
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
from agent_memory.adapters.ledger_records import LedgerTable, ledger_ports
from agent_memory.adapters.local.sqlite_db import SqliteDatabase
from agent_memory.adapters.local.sqlite_episodes import SqliteEpisodeStore
from agent_memory.adapters.local.sqlite_facts import SqliteFactStore
from agent_memory.adapters.local.sqlite_ledger import SqliteLedger
from agent_memory.adapters.local.sqlite_procedures import SqliteProcedureStore
from agent_memory.core.ports import (
    DecisionLog,
    EpisodeStore,
    FactStore,
    FlagStore,
    JobCheckpoints,
    ModelRegistry,
    ProcedureStore,
    RunLedger,
)
from tests.integration.aws.moto_dynamodb import mocked_tables
from tests.support.in_memory import (
    MemoryDatabase,
    MemoryEpisodeStore,
    MemoryFactStore,
    MemoryLedgerTable,
    MemoryProcedureStore,
)


@dataclass(frozen=True)
class Stores:
    """The storage ports of one adapter, over one fresh store.

    The run ledger, the checkpoints and the model registry share ``ledger_table``, written
    directly only to stand for records a store kept before. ``purges_expired`` is False for a
    store whose TTL is native (DynamoDB): its ``purge_expired`` may return 0 and leave expired
    records for the TTL sweeper.
    """

    episodes: EpisodeStore
    facts: FactStore
    procedures: ProcedureStore
    ledger_table: LedgerTable
    run_ledger: RunLedger
    checkpoints: JobCheckpoints
    model_registry: ModelRegistry
    decisions: DecisionLog
    flags: FlagStore
    purges_expired: bool


StoreFactory = Callable[[Path], AbstractContextManager[Stores]]


@contextmanager
def sqlite_stores(tmp_path: Path) -> Iterator[Stores]:
    db = SqliteDatabase(tmp_path / "memory.db")
    table = SqliteLedger(db)
    ledgers = ledger_ports(table)
    try:
        yield Stores(
            episodes=SqliteEpisodeStore(db),
            facts=SqliteFactStore(db),
            procedures=SqliteProcedureStore(db),
            ledger_table=table,
            run_ledger=ledgers.run_ledger,
            checkpoints=ledgers.checkpoints,
            model_registry=ledgers.model_registry,
            decisions=ledgers.decisions,
            flags=ledgers.flags,
            purges_expired=True,
        )
    finally:
        db.close()


@contextmanager
def dynamodb_stores(tmp_path: Path) -> Iterator[Stores]:
    # moto's TTL never deletes, and the adapters leave purging to TTL.
    del tmp_path
    with mocked_tables() as tables:
        table = DynamoDbLedger(tables.client, tables.name(LEDGER))
        ledgers = ledger_ports(table)
        yield Stores(
            episodes=DynamoDbEpisodeStore(tables.client, tables.name(EPISODES)),
            facts=DynamoDbFactStore(tables.client, tables.name(FACTS)),
            procedures=DynamoDbProcedureStore(tables.client, tables.name(PROCEDURES)),
            ledger_table=table,
            run_ledger=ledgers.run_ledger,
            checkpoints=ledgers.checkpoints,
            model_registry=ledgers.model_registry,
            decisions=ledgers.decisions,
            flags=ledgers.flags,
            purges_expired=False,
        )


@contextmanager
def memory_stores(tmp_path: Path) -> Iterator[Stores]:
    del tmp_path
    db = MemoryDatabase()
    table = MemoryLedgerTable(db)
    ledgers = ledger_ports(table)
    yield Stores(
        episodes=MemoryEpisodeStore(db),
        facts=MemoryFactStore(db),
        procedures=MemoryProcedureStore(db),
        ledger_table=table,
        run_ledger=ledgers.run_ledger,
        checkpoints=ledgers.checkpoints,
        model_registry=ledgers.model_registry,
        decisions=ledgers.decisions,
        flags=ledgers.flags,
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
def run_ledger(stores: Stores) -> RunLedger:
    return stores.run_ledger


@pytest.fixture
def checkpoints(stores: Stores) -> JobCheckpoints:
    return stores.checkpoints


@pytest.fixture
def model_registry(stores: Stores) -> ModelRegistry:
    return stores.model_registry


@pytest.fixture
def decisions(stores: Stores) -> DecisionLog:
    return stores.decisions


@pytest.fixture
def flags(stores: Stores) -> FlagStore:
    return stores.flags
