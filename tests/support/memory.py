"""A real embedded memory for tests: SQLite (or the in-memory stores) and the local KB, with
fakes only for models.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from agent_memory.adapters.ledger_records import ledger_ports
from agent_memory.core.model.calibration import Calibration
from agent_memory.core.model.policies import Policies
from agent_memory.core.model.store_items import STORE_ITEM_MARK
from agent_memory.core.ports import ChatModel, MemoryPorts
from agent_memory.core.workflows.run_state import RunState
from agent_memory.wiring.local import local_ports
from agent_memory.wiring.local_settings import LocalSettings
from tests.support.embedder import HashingEmbedder
from tests.support.fakes import FakePiiDetector
from tests.support.in_memory import (
    MemoryDatabase,
    MemoryEpisodeStore,
    MemoryFactStore,
    MemoryLedgerTable,
    MemoryProcedureStore,
)

T0 = 1_790_000_000.0  # 2026-09-21, a fixed "now" for deterministic tests
DAY = 86_400.0

HASHING_CALIBRATION = Calibration(
    model_family="test-hashing",
    episode_min_similarity=0.2,
    fact_min_score=0.2,
    source="tests: word-overlap vectors",
)


@dataclass
class Clock:
    """A clock tests move by hand."""

    now: float = T0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@dataclass
class Memory:
    """Ports plus the fakes behind them, for assertions."""

    ports: MemoryPorts
    clock: Clock
    pii: FakePiiDetector
    embedder: HashingEmbedder
    root: Path
    extra: dict[str, Any] = field(default_factory=dict)


Stores = Literal["sqlite", "memory"]


def make_memory(
    root: Path,
    *,
    chat: ChatModel | None = None,
    policies: Policies | None = None,
    stores: Stores = "sqlite",
) -> Memory:
    """The embedded memory in ``root``, as ``local_ports`` wires it, with fake models.

    ``stores="memory"`` keeps its episodes, facts and procedures in memory instead of SQLite
    (:func:`in_memory_stores`): for tests about the core, not about a store on disk, which no
    other process (no second ``local_ports`` over ``root``) reads.
    """
    clock = Clock()
    pii = FakePiiDetector()
    embedder = HashingEmbedder()
    ports = local_ports(
        LocalSettings(store=root), embedder=embedder, pii=pii, chat=chat, policies=policies
    )
    ports = replace(
        ports,
        clock=clock,
        calibrations={**ports.calibrations, "test-hashing": HASHING_CALIBRATION},
    )
    if stores == "memory":
        ports = in_memory_stores(ports)
    return Memory(ports, clock, pii, embedder, root)


def in_memory_stores(ports: MemoryPorts) -> MemoryPorts:
    """``ports`` with fresh, empty in-memory stores (episodes, facts, procedures, and the run
    ledger, checkpoints and model registry), read in its embedder's space as ``local_ports``
    reads SQLite's. The KB stays on disk.
    """
    db = MemoryDatabase()
    model = ports.embedder.model_id
    ledgers = ledger_ports(MemoryLedgerTable(db))
    return replace(
        ports,
        episodes=MemoryEpisodeStore(db, active_model=model),
        facts=MemoryFactStore(db, active_model=model),
        procedures=MemoryProcedureStore(db),
        run_ledger=ledgers.run_ledger,
        checkpoints=ledgers.checkpoints,
        model_registry=ledgers.model_registry,
        decisions=ledgers.decisions,
        flags=ledgers.flags,
    )


def run_event(run_id: str, **overrides: Any) -> dict[str, Any]:
    """A RunFinished detail for the contract-review agent of tenant acme."""
    event: dict[str, Any] = {
        "tenant_id": "acme",
        "agent_id": "reviewer",
        "run_id": run_id,
        "task": "Review the vendor MSA liability cap",
        "task_type": "contract_review",
        "domain": "contracts",
        "outcome": "COMPLETED",
        "artifacts": {
            "task_summary": "Reviewed the vendor MSA liability cap",
            "key_findings": ["Clause 7.3 caps liability at 0.5x fees"],
            "facts": [
                {"content": "Liability caps below 1x fees are a red flag", "confidence": 0.9}
            ],
            "procedure": {"title": "MSA review", "steps": ["Read clause 7.3", "Compare the cap"]},
        },
    }
    event.update(overrides)
    return event


def store_item_event(
    run_id: str, text: str = "Prefers dark mode", **overrides: Any
) -> dict[str, Any]:
    """A RunFinished detail whose episode is an item a LangGraph store keeps (its task the
    item's record), which its agent may forget and write again.
    """
    record = {STORE_ITEM_MARK: 1, "key": run_id, "value": {"text": text}}
    task = json.dumps(record, separators=(",", ":"))
    return run_event(run_id, task=task, **overrides)


def proposed_procedure(state: RunState) -> str:
    """The id of the procedure a consolidated run proposed (or supported)."""
    assert state.procedure is not None and state.procedure.proposed is not None
    return state.procedure.proposed
