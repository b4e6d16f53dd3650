"""The run ledger, the job checkpoints, the model registry, the tenants' histories and their
open flags over one table of keyed records.

Both backends keep the five ports in one table of small JSON records by string key (SQLite's
``ledger`` table, DynamoDB's ledger table), read and written through a :class:`LedgerTable`.
The ledger's key formats live here, built on the tenant key scheme (``core/model/keys.py``):
tenant-owned keys start with ``{tenant_id}#`` (``dynamodb:LeadingKeys`` needs that, and a
tenant's records are one key range); system records start with ``_``, which no tenant id can.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict, dataclass
from typing import Any, Protocol

from agent_memory.adapters.store_keys import check_limit
from agent_memory.core.model.decisions import Decision
from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.model.flags import Flag
from agent_memory.core.model.keys import KEY_SEPARATOR, run_name, tenant_prefix
from agent_memory.core.ports import (
    ActiveModel,
    Checkpoint,
    Lease,
    Page,
    RunEntry,
    RunEntryKind,
)

CHECKPOINT_KEYS: dict[Checkpoint, str] = {
    Checkpoint.DECAY_PROGRESS: "_decay#progress",
    Checkpoint.INGESTION_JOB: "_kb-ingestion#current",
    Checkpoint.INGESTION_REQUESTED: "_kb-ingestion#dirty",
    Checkpoint.INGESTION_RETRIES: "_kb-ingestion#retries",
    Checkpoint.REEMBEDDING: "_embedding#migration",
}
LEASE_KEYS: dict[Lease, str] = {Lease.REEMBEDDING: "_embedding#lease"}
ACTIVE_MODEL_KEY = "_embedding#active"


class LedgerTable(Protocol):
    """Small JSON records by key, each with an optional expiry (absent once ``<= now``)."""

    def get(self, key: str, *, now: float) -> dict[str, Any] | None:
        """The record, or None if absent or expired."""
        ...

    def add(self, key: str, value: dict[str, Any], *, now: float, expires_at: float | None) -> bool:
        """Write unless an unexpired record exists; True if this call wrote it."""
        ...

    def put(self, key: str, value: dict[str, Any], *, now: float, expires_at: float | None) -> None:
        """Write, replacing any record."""
        ...

    def replace(self, key: str, value: dict[str, Any]) -> bool:
        """Rewrite the value of the record at ``key`` (expired or not), keeping its expiry;
        False if none is there. The old value leaves the table's files.
        """
        ...

    def delete(self, key: str) -> None:
        """Remove the record if present."""
        ...

    def scan(self, prefix: str) -> Iterator[tuple[str, dict[str, Any]]]:
        """Every record whose key starts with ``prefix``, expired included."""
        ...

    def latest(
        self, prefix: str, *, limit: int, before: str | None = None
    ) -> list[tuple[str, dict[str, Any]]]:
        """At most ``limit`` records whose key starts with ``prefix``, in descending key order,
        only keys below ``before`` when given (the last key of the previous page).
        """
        ...

    def purge_expired(self, now: float, *, limit: int) -> int:
        """Delete up to ``limit`` expired rows (0 where the store expires rows itself)."""
        ...


# --- keys --------------------------------------------------------------------------------------


def kind_prefix(tenant_id: str, kind: RunEntryKind) -> str:
    """The prefix of the tenant's records of one kind (``{tenant}#run#``, ``{tenant}#failed#``)."""
    return f"{tenant_prefix(tenant_id)}{kind.value}{KEY_SEPARATOR}"


def run_key(tenant_id: str, agent_id: str, run_id: str) -> str:
    """Key of a run's scrubbed-artifacts record."""
    return f"{kind_prefix(tenant_id, RunEntryKind.RUN)}{run_name(agent_id, run_id)}"


def failure_key(tenant_id: str, agent_id: str | None, run_id: str) -> str:
    """Key of a failed run awaiting replay (without an agent: an unroutable one)."""
    name = run_id if agent_id is None else run_name(agent_id, run_id)
    return f"{kind_prefix(tenant_id, RunEntryKind.FAILURE)}{name}"


def parse_key(key: str) -> tuple[RunEntryKind, str, str | None, str] | None:
    """(kind, tenant_id, agent_id, run_id) of a run or failure key; None for any other key.

    The agent is None for an event too broken to name its run (tenant ``_unroutable``, run a
    digest of the event). A name holding ``~`` is
    a shortened marker, its own run id.
    """
    parts = key.split(KEY_SEPARATOR, 2)
    if len(parts) != 3:
        return None
    tenant_id, kind, name = parts
    try:
        entry_kind = RunEntryKind(kind)
    except ValueError:
        return None
    agent_id, slash, run_id = name.rpartition("/")
    if not slash or "~" in name:
        return entry_kind, tenant_id, None, name
    return entry_kind, tenant_id, agent_id, run_id


def entry_of(key: str, value: dict[str, Any]) -> RunEntry | None:
    """The run ledger entry a record is, or None if its key is not a run or failure key."""
    parsed = parse_key(key)
    if parsed is None:
        return None
    kind, tenant_id, agent_id, run_id = parsed
    return RunEntry(key, kind, tenant_id, agent_id, run_id, value)


# --- the ports -----------------------------------------------------------------------------------


class KeyedRunLedger:
    """``RunLedger`` over a :class:`LedgerTable`: runs at ``{tenant}#run#{agent}/{run}``,
    failures at ``{tenant}#failed#{agent}/{run}``.
    """

    def __init__(self, table: LedgerTable) -> None:
        self._table = table

    def run(self, tenant_id: str, agent_id: str, run_id: str, *, now: float) -> RunEntry | None:
        """Read at the run's key."""
        return self.entry(run_key(tenant_id, agent_id, run_id), now=now)

    def start_run(
        self,
        tenant_id: str,
        agent_id: str,
        run_id: str,
        value: dict[str, Any],
        *,
        now: float,
        expires_at: float,
    ) -> bool:
        """A conditional write at the run's key."""
        key = run_key(tenant_id, agent_id, run_id)
        return self._table.add(key, value, now=now, expires_at=expires_at)

    def failure_key(self, tenant_id: str, agent_id: str | None, run_id: str) -> str:
        """``{tenant}#failed#{agent}/{run}`` (``{tenant}#failed#{run}`` with no agent)."""
        return failure_key(tenant_id, agent_id, run_id)

    def identify(self, key: str) -> tuple[str, str | None, str] | None:
        """Parsed from the key's parts."""
        parsed = parse_key(key)
        return None if parsed is None else parsed[1:]

    def put_failure(
        self,
        tenant_id: str,
        agent_id: str | None,
        run_id: str,
        value: dict[str, Any],
        *,
        now: float,
        expires_at: float | None,
    ) -> None:
        """An unconditional write at the failure key."""
        key = failure_key(tenant_id, agent_id, run_id)
        self._table.put(key, value, now=now, expires_at=expires_at)

    def entry(self, key: str, *, now: float) -> RunEntry | None:
        """Read at ``key`` when it is a run or failure key (None for any other)."""
        if parse_key(key) is None:
            return None
        value = self._table.get(key, now=now)
        return None if value is None else entry_of(key, value)

    def rewrite(
        self, entry: RunEntry, value: dict[str, Any], *, now: float, expires_at: float | None
    ) -> None:
        """An unconditional write at the entry's key."""
        self._table.put(entry.key, value, now=now, expires_at=expires_at)

    def reword(self, key: str, value: dict[str, Any]) -> bool:
        """The table's replace, only when ``key`` is a run or failure key."""
        return parse_key(key) is not None and self._table.replace(key, value)

    def delete(self, key: str) -> None:
        """Deleted only when ``key`` is a run or failure key."""
        if parse_key(key) is not None:
            self._table.delete(key)

    def failures(self, tenant_id: str) -> Iterator[RunEntry]:
        """Read from the key range ``{tenant}#failed#``."""
        return self._entries(kind_prefix(tenant_id, RunEntryKind.FAILURE))

    def entries(self, tenant_id: str | None = None) -> Iterator[RunEntry]:
        """Read from the key range ``{tenant}#`` (every key without a tenant)."""
        return self._entries("" if tenant_id is None else tenant_prefix(tenant_id))

    def purge_expired(self, now: float, *, limit: int) -> int:
        """The table's own purge, so every kind of record expires (a lapsed lease too)."""
        return self._table.purge_expired(now, limit=limit)

    def _entries(self, prefix: str) -> Iterator[RunEntry]:
        for key, value in self._table.scan(prefix):
            entry = entry_of(key, value)
            if entry is not None:
                yield entry


class KeyedJobCheckpoints:
    """``JobCheckpoints`` over a :class:`LedgerTable`: one system record per checkpoint."""

    def __init__(self, table: LedgerTable) -> None:
        self._table = table

    def load(self, checkpoint: Checkpoint, *, now: float) -> dict[str, Any] | None:
        """Read at the checkpoint's system key."""
        return self._table.get(CHECKPOINT_KEYS[checkpoint], now=now)

    def save(self, checkpoint: Checkpoint, value: dict[str, Any], *, now: float) -> None:
        """An unconditional write at the checkpoint's key, never expiring."""
        self._table.put(CHECKPOINT_KEYS[checkpoint], value, now=now, expires_at=None)

    def clear(self, checkpoint: Checkpoint) -> None:
        """Deleted at the checkpoint's key."""
        self._table.delete(CHECKPOINT_KEYS[checkpoint])

    def acquire(self, lease: Lease, holder: str, *, now: float, until: float) -> bool:
        """A conditional write of the holder at the lease's key, expiring at ``until``."""
        return self._table.add(LEASE_KEYS[lease], {"holder": holder}, now=now, expires_at=until)

    def renew(self, lease: Lease, holder: str, *, now: float, until: float) -> None:
        """An unconditional write of the holder with the new expiry."""
        self._table.put(LEASE_KEYS[lease], {"holder": holder}, now=now, expires_at=until)

    def release(self, lease: Lease, holder: str, *, now: float) -> None:
        """Read, then deleted when the record still names ``holder``."""
        if self._table.get(LEASE_KEYS[lease], now=now) == {"holder": holder}:
            self._table.delete(LEASE_KEYS[lease])


class KeyedModelRegistry:
    """``ModelRegistry`` over a :class:`LedgerTable`: one system record, ``_embedding#active``."""

    def __init__(self, table: LedgerTable) -> None:
        self._table = table

    def active_model(self, *, now: float) -> ActiveModel | None:
        """Read at ``_embedding#active``."""
        record = self._table.get(ACTIVE_MODEL_KEY, now=now)
        return None if record is None else ActiveModel(**record)

    def set_active_model(self, model: ActiveModel, *, now: float) -> None:
        """An unconditional write at ``_embedding#active``."""
        self._table.put(ACTIVE_MODEL_KEY, asdict(model), now=now, expires_at=None)


def decision_prefix(tenant_id: str) -> str:
    """The prefix of the tenant's decisions (``{tenant}#decision#``)."""
    return f"{tenant_prefix(tenant_id)}decision{KEY_SEPARATOR}"


def decision_key(decision: Decision) -> str:
    """``{tenant}#decision#{at}#{id}``: the time fixed-width, so key order is time order."""
    moment = f"{decision.at:020.6f}"
    return f"{decision_prefix(decision.tenant_id)}{moment}{KEY_SEPARATOR}{decision.decision_id}"


# Decisions read at once while looking for one record's.
_CHUNK = 100


class KeyedDecisionLog:
    """``DecisionLog`` over a :class:`LedgerTable`: each decision one record, never expiring,
    at :func:`decision_key`; a page's cursor is its last key, held to the tenant's prefix.
    """

    def __init__(self, table: LedgerTable) -> None:
        self._table = table

    def record(self, decision: Decision) -> None:
        """Write the decision unless its key holds one already."""
        value = decision.as_json()
        self._table.add(decision_key(decision), value, now=decision.at, expires_at=None)

    def history(
        self,
        tenant_id: str,
        *,
        limit: int,
        cursor: str | None = None,
        record_id: str | None = None,
    ) -> Page[Decision]:
        """The tenant's decisions (about one record, when given), newest first, one page; a
        record's are found reading the history back a chunk at a time.
        """
        check_limit(limit)
        prefix = decision_prefix(tenant_id)
        if cursor is not None and not cursor.startswith(prefix):
            raise InvalidInput("cursor", "not a cursor of this tenant's history")
        found: list[tuple[str, dict[str, Any]]] = []
        before = cursor
        while len(found) <= limit:
            chunk = self._table.latest(
                prefix, limit=limit + 1 if record_id is None else _CHUNK, before=before
            )
            found += [f for f in chunk if record_id is None or f[1]["record_id"] == record_id]
            if record_id is None or len(chunk) < _CHUNK:
                break
            before = chunk[-1][0]
        page = found[:limit]
        decisions = tuple(Decision.from_json(tenant_id, value) for _, value in page)
        return Page(decisions, page[-1][0] if len(found) > limit else None)

    def reword(self, decision: Decision) -> bool:
        """The table's replace at the decision's key."""
        return self._table.replace(decision_key(decision), decision.as_json())

    def forget(self, tenant_id: str) -> int:
        """Delete every decision of the tenant."""
        keys = [key for key, _ in self._table.scan(decision_prefix(tenant_id))]
        for key in keys:
            self._table.delete(key)
        return len(keys)


def flag_prefix(tenant_id: str, agent_id: str | None = None) -> str:
    """The prefix of the tenant's flags (``{tenant}#flag#``), or of one agent's
    (``{tenant}#flag#{agent}:``).
    """
    prefix = f"{tenant_prefix(tenant_id)}flag{KEY_SEPARATOR}"
    return prefix if agent_id is None else f"{prefix}{agent_id}:"


def flag_key(tenant_id: str, flag_id: str) -> str:
    """``{tenant}#flag#{flag_id}``; ``InvalidInput`` for an id holding the separator."""
    if KEY_SEPARATOR in flag_id:
        raise InvalidInput("flag_id", f"must not contain {KEY_SEPARATOR!r}")
    return f"{flag_prefix(tenant_id)}{flag_id}"


class KeyedFlagStore:
    """``FlagStore`` over a :class:`LedgerTable`: each open flag one record, never expiring, at
    :func:`flag_key` (an agent's flags one key range); closing one deletes it. A page's cursor
    is its last key, held to the tenant's prefix.
    """

    def __init__(self, table: LedgerTable) -> None:
        self._table = table

    def add(self, flag: Flag) -> bool:
        """A conditional write at the flag's key."""
        key = flag_key(flag.tenant_id, flag.flag_id)
        return self._table.add(key, flag.as_json(), now=flag.flagged_at, expires_at=None)

    def get(self, tenant_id: str, flag_id: str) -> Flag | None:
        """Read at the flag's key."""
        value = self._table.get(flag_key(tenant_id, flag_id), now=0.0)
        return None if value is None else Flag.from_json(tenant_id, value)

    def of_agent(self, tenant_id: str, agent_id: str, *, limit: int) -> list[Flag]:
        """One read of the key range ``{tenant}#flag#{agent}:``."""
        found = self._table.latest(flag_prefix(tenant_id, agent_id), limit=limit)
        return [Flag.from_json(tenant_id, value) for _, value in found]

    def list(self, tenant_id: str, *, limit: int, cursor: str | None = None) -> Page[Flag]:
        """The key range ``{tenant}#flag#``, in descending key order, one page."""
        check_limit(limit)
        prefix = flag_prefix(tenant_id)
        if cursor is not None and not cursor.startswith(prefix):
            raise InvalidInput("cursor", "not a cursor of this tenant's flags")
        found = self._table.latest(prefix, limit=limit + 1, before=cursor)
        page = found[:limit]
        flags = tuple(Flag.from_json(tenant_id, value) for _, value in page)
        return Page(flags, page[-1][0] if len(found) > limit else None)

    def close(self, tenant_id: str, flag_id: str) -> Flag | None:
        """Read, then delete, at the flag's key."""
        flag = self.get(tenant_id, flag_id)
        if flag is not None:
            self._table.delete(flag_key(tenant_id, flag_id))
        return flag

    def reword(self, flag: Flag) -> bool:
        """The table's replace at the flag's key."""
        return self._table.replace(flag_key(flag.tenant_id, flag.flag_id), flag.as_json())

    def forget(self, tenant_id: str) -> int:
        """Delete every flag of the tenant."""
        keys = [key for key, _ in self._table.scan(flag_prefix(tenant_id))]
        for key in keys:
            self._table.delete(key)
        return len(keys)


@dataclass(frozen=True, slots=True)
class LedgerPorts:
    """The five ports one ledger table holds."""

    run_ledger: KeyedRunLedger
    checkpoints: KeyedJobCheckpoints
    model_registry: KeyedModelRegistry
    decisions: KeyedDecisionLog
    flags: KeyedFlagStore


def ledger_ports(table: LedgerTable) -> LedgerPorts:
    """The run ledger, the job checkpoints, the model registry, the tenants' histories and
    their open flags kept in ``table``.
    """
    return LedgerPorts(
        KeyedRunLedger(table),
        KeyedJobCheckpoints(table),
        KeyedModelRegistry(table),
        KeyedDecisionLog(table),
        KeyedFlagStore(table),
    )
