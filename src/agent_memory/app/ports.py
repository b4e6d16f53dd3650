"""What each handler needs of the ports: narrow views of ``MemoryPorts``.

A handler declares the smallest of these that covers its work, so what it may touch is read
from its signature; ``MemoryPorts`` satisfies every one (the handler table in
:mod:`agent_memory.app.application` is type-checked against it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from agent_memory.core.model.policies import Policies
from agent_memory.core.ports import (
    EpisodeIndexes,
    EpisodeStore,
    FactStore,
    JobCheckpoints,
    KnowledgeBase,
    ProcedureStore,
    RunLedger,
)


class Clocked(Protocol):
    """A clock."""

    @property
    def clock(self) -> Callable[[], float]:
        """The time, in seconds since the epoch."""
        ...


class IngestionPorts(Clocked, Protocol):
    """The facts, the knowledge base and the job records ingestion keeps."""

    @property
    def facts(self) -> FactStore:
        """The facts."""
        ...

    @property
    def knowledge_base(self) -> KnowledgeBase:
        """The knowledge base."""
        ...

    @property
    def checkpoints(self) -> JobCheckpoints:
        """The records jobs keep between runs."""
        ...


class StorePorts(IngestionPorts, Protocol):
    """Every store, the run ledger and the configuration (what decay and review read)."""

    @property
    def episodes(self) -> EpisodeStore:
        """The episodes."""
        ...

    @property
    def procedures(self) -> ProcedureStore:
        """The procedures."""
        ...

    @property
    def run_ledger(self) -> RunLedger:
        """The run ledger."""
        ...

    @property
    def policies(self) -> Policies:
        """The policies applied."""
        ...


class EpisodePorts(Clocked, Protocol):
    """The episodes, the ledger that names their runs, and the reply budget."""

    @property
    def episodes(self) -> EpisodeStore:
        """The episodes."""
        ...

    @property
    def run_ledger(self) -> RunLedger:
        """The run ledger."""
        ...

    @property
    def policies(self) -> Policies:
        """The policies applied."""
        ...

    @property
    def episode_indexes(self) -> EpisodeIndexes:
        """The kept search indexes."""
        ...
