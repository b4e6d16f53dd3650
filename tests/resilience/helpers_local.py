"""The embedded memory under stress: SQLite write locks held by another connection or process.

:class:`LockingDatabase` is the real :class:`SqliteDatabase`; before a share of its write
transactions, another connection takes the database's write lock and holds it until that write
has waited its ``busy_timeout`` out, so the write fails exactly as it would next to a busy
neighbour (``TransientError``). :func:`lock_from_another_process` holds the lock from a child
process instead, for as long as the test wants.
"""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from agent_memory.adapters.ledger_records import ledger_ports
from agent_memory.adapters.local.sqlite_db import SqliteDatabase
from agent_memory.adapters.local.sqlite_episodes import SqliteEpisodeStore
from agent_memory.adapters.local.sqlite_facts import SqliteFactStore
from agent_memory.adapters.local.sqlite_ledger import SqliteLedger
from agent_memory.adapters.local.sqlite_procedures import SqliteProcedureStore
from agent_memory.core.workflows import consolidation
from agent_memory.core.workflows.run_state import state_from_json, state_to_json
from agent_memory.wiring.local import DATABASE_FILE
from tests.resilience.helpers_delivery import Event, Outcome, StateMachineModel
from tests.support.memory import Memory, make_memory


class LockingDatabase(SqliteDatabase):
    """A :class:`SqliteDatabase` where ``rate`` of the write attempts meet another writer's lock.

    Contention comes in busy spells (a neighbour's long transaction): a spell holds one write
    attempt of the thread, and each further one with probability 1/2 (two on average), so a
    step's retries can now and then run out. Spells start at ``rate / (2 - rate)`` of the
    free attempts, which makes ``rate`` the long-run share of contended attempts.
    """

    def __init__(self, path: str | Path, *, rate: float, seed: int, busy_timeout: float) -> None:
        self.rate = 0.0  # the schema is created without contention
        self.locked = 0
        self.attempts = 0
        self._rng = random.Random(seed)
        self._rng_lock = threading.Lock()
        self._spell = threading.local()
        super().__init__(path, busy_timeout=busy_timeout)
        self.rate = rate

    def _contended(self) -> bool:
        spell: int = getattr(self._spell, "left", 0)
        with self._rng_lock:
            self.attempts += 1
            if spell == 0 and self._rng.random() < self.rate / (2 - self.rate):
                spell = 1
                while self._rng.random() < 0.5:
                    spell += 1
            self.locked += spell > 0
        self._spell.left = max(0, spell - 1)
        return spell > 0

    @contextmanager
    def write(self, *, erases: bool = False) -> Iterator[sqlite3.Connection]:
        contended = self.rate > 0 and self._contended()
        if not contended:
            with super().write(erases=erases) as conn:
                yield conn
            return
        with held_write_lock(self.path), super().write(erases=erases) as conn:
            yield conn  # not reached: the write waits busy_timeout, then raises


@contextmanager
def held_write_lock(path: str) -> Iterator[None]:
    """Another connection holding the write lock (``BEGIN IMMEDIATE``) inside the block."""
    other = sqlite3.connect(path, isolation_level=None, timeout=30.0)
    try:
        other.execute("BEGIN IMMEDIATE")
        yield
    finally:
        if other.in_transaction:
            other.execute("ROLLBACK")
        other.close()


_HOLDER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)
conn.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
sys.stdin.read()
conn.execute("ROLLBACK")
"""


@contextmanager
def lock_from_another_process(path: str) -> Iterator[None]:
    """A child process holds the database's write lock until the block ends."""
    child = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, path],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "locked"
        yield
    finally:
        assert child.stdin is not None
        child.stdin.close()
        child.wait(timeout=30)


@dataclass
class LockedMemory:
    """A real embedded memory whose SQLite writes are contended, and its lock counter."""

    memory: Memory
    database: LockingDatabase


def locked_memory(
    root: Path, *, rate: float, seed: int, busy_timeout: float = 0.02
) -> LockedMemory:
    """:func:`tests.support.memory.make_memory` with every store on a :class:`LockingDatabase`."""
    memory = make_memory(root)
    database = LockingDatabase(
        root / DATABASE_FILE, rate=rate, seed=seed, busy_timeout=busy_timeout
    )
    ledgers = ledger_ports(SqliteLedger(database))
    memory.ports = replace(
        memory.ports,
        episodes=SqliteEpisodeStore(database),
        facts=SqliteFactStore(database),
        procedures=SqliteProcedureStore(database),
        run_ledger=ledgers.run_ledger,
        checkpoints=ledgers.checkpoints,
        model_registry=ledgers.model_registry,
        decisions=ledgers.decisions,
        flags=ledgers.flags,
    )
    return LockedMemory(memory, database)


def local_state_machine(memory: Memory) -> StateMachineModel:
    """The ASL's retries around the core steps, on the local ports."""
    ports = memory.ports

    def call_step(step: str, state: Event) -> Event:
        # Each task's input and output are JSON, as the state machine carries them.
        if step == "extract":
            return state_to_json(consolidation.extract(state, ports))
        return state_to_json(consolidation.STEPS[step](state_from_json(state), ports))

    def record(payload: Event) -> Event:
        kept = consolidation.record_failure(payload, ports)
        return {**kept.record.json(), **({"repeated": True} if kept.repeated else {})}

    return StateMachineModel(call_step=call_step, record=record)


def redeliver_unrecorded(machine: StateMachineModel, outcomes: list[Outcome]) -> int:
    """Deliver again the runs whose failure could not even be recorded (the ledger was locked
    too): the caller was told (``agent-memory consolidate`` exits 1 naming the error) and
    still holds the event. How many were redelivered.
    """
    done = {(o.tenant_id, o.run_id) for o in outcomes if o.consolidated}
    lost = {
        (o.tenant_id, o.run_id): o.event
        for o in outcomes
        if not o.consolidated and not o.recorded and o.event is not None
    }
    for key, event in lost.items():
        if key not in done:
            assert machine.run(event).consolidated
    return len(set(lost) - done)


def replay_failed(memory: Memory, *, rounds: int = 20) -> tuple[int, int]:
    """``agent-memory failed replay`` until no failed run is left (or ``rounds`` passes):
    (replays attempted, failed runs still left).
    """
    attempts = 0
    for _ in range(rounds):
        keys = [r.key for r in consolidation.failed_runs(memory.ports.run_ledger)]
        if not keys:
            return attempts, 0
        for key in keys:
            attempts += 1
            try:
                consolidation.replay(key, memory.ports)
            except Exception:  # recorded again; the next round tries again
                continue
    return attempts, len(consolidation.failed_runs(memory.ports.run_ledger))
