"""The records behind the in-memory stores, and the one lock every read and write holds.

The counterpart of ``SqliteDatabase``: stores built on one :class:`MemoryDatabase` share its
records (a store read in another model's space sees what the first one wrote), and each
operation of a store is one critical section, so it is atomic as a SQLite transaction or a
DynamoDB conditional write is. Records are the core's frozen dataclasses, kept as given.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from agent_memory.core.model.models import Episode, Fact, Procedure


@dataclass(slots=True)
class EpisodeRow:
    """A stored episode and the store generation that added it."""

    episode: Episode
    added: int


@dataclass(slots=True)
class AgentVersion:
    """An agent's last change (a store generation), and its last change that was more than an
    addition (a deletion or rewrite, which a cache cannot take in from ``changes_since``).
    """

    generation: int = 0
    rewritten: int = 0


@dataclass(slots=True)
class EpisodeTable:
    """Episodes by ``tenant#agent`` then run_id, with each agent's version.

    ``generation`` counts every change of the store and ``forgets`` every tenant forgotten:
    a version token is both, so no token is ever handed out twice.
    """

    rows: dict[str, dict[str, EpisodeRow]] = field(default_factory=dict)
    versions: dict[str, AgentVersion] = field(default_factory=dict)
    generation: int = 0
    forgets: int = 0


@dataclass(slots=True)
class FactRow:
    """A stored fact and its confirmation log.

    ``fact`` holds every field but those the log makes (``run_ids``, ``sightings``,
    ``counted_by``): ``runs`` is every distinct run in the order it was recorded (with whether
    its sighting counted as a confirmation), and ``counted_by`` each agent's last counted
    confirmation.
    """

    fact: Fact
    runs: dict[str, bool]
    counted_by: dict[str, float]


@dataclass(slots=True)
class ProcedureRow:
    """A stored procedure and every distinct run that proposed it, in the order recorded."""

    pk: str
    procedure: Procedure
    sources: dict[str, None]


@dataclass(slots=True)
class ProcedureTable:
    """Procedures by procedure_id (unique across tenants), with the feedback dedup records:
    (procedure_id, run_id) of each counted run, (procedure_id, receipt_id) of each used receipt.
    """

    rows: dict[str, ProcedureRow] = field(default_factory=dict)
    # (procedure_id, run_id) -> whether the run succeeded.
    feedback: dict[tuple[str, str], bool] = field(default_factory=dict)
    # (procedure_id, receipt_id) -> the run that used the receipt.
    receipts: dict[tuple[str, str], str] = field(default_factory=dict)


class MemoryDatabase:
    """Every record of the in-memory stores of one process, and the lock that guards them."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.episodes = EpisodeTable()
        # Facts by (tenant#domain, fact_hash).
        self.facts: dict[tuple[str, str], FactRow] = {}
        self.procedures = ProcedureTable()
        # Ledger records by key: (JSON value, expires_at).
        self.ledger: dict[str, tuple[dict[str, Any], float | None]] = {}
