"""The ledger table in SQLite: small JSON records by key, with an optional expiry applied on read.

The run ledger, the job checkpoints and the model registry are kept in it
(:func:`~agent_memory.adapters.ledger_records.ledger_ports`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from agent_memory.adapters.local.sqlite_db import SqliteDatabase
from agent_memory.adapters.store_keys import check_limit
from agent_memory.core.model.errors import InvalidInput

_SCAN_BATCH = 500


class SqliteLedger:
    """A ``LedgerTable`` over a :class:`SqliteDatabase`; a record expired at ``now`` is absent.

    Values are stored as JSON, so they come back as JSON would: tuples as lists, keys as
    strings. NaN and infinity are refused, as DynamoDB refuses them.
    """

    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db

    def get(self, key: str, *, now: float) -> dict[str, Any] | None:
        """Return the record, or None if absent or expired at ``now``."""
        row = self._db.fetchone(
            "SELECT value FROM ledger WHERE key = ? AND (expires_at IS NULL OR expires_at > ?)",
            (key, now),
        )
        return self._db.decoded("ledger record", _decode, row["value"]) if row is not None else None

    def add(self, key: str, value: dict[str, Any], *, now: float, expires_at: float | None) -> bool:
        """Write unless an unexpired record exists; True if this call wrote it."""
        changed = self._db.execute(
            "INSERT INTO ledger (key, value, expires_at) VALUES (?, ?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value, "
            "expires_at = excluded.expires_at "
            "WHERE ledger.expires_at IS NOT NULL AND ledger.expires_at <= ?",
            (key, _encode(value), expires_at, now),
        )
        return changed == 1

    def put(self, key: str, value: dict[str, Any], *, now: float, expires_at: float | None) -> None:
        """Write, replacing any record."""
        self._db.execute(
            "INSERT INTO ledger (key, value, expires_at) VALUES (?, ?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value, "
            "expires_at = excluded.expires_at",
            (key, _encode(value), expires_at),
        )

    def replace(self, key: str, value: dict[str, Any]) -> bool:
        """Rewrite the value of the record at ``key`` keeping its expiry, leaving no copy of
        the old value in the database file or its log; False if none is there.
        """
        with self._db.write(erases=True) as conn:
            changed = conn.execute(
                "UPDATE ledger SET value = ? WHERE key = ?", (_encode(value), key)
            ).rowcount
        return changed == 1

    def delete(self, key: str) -> None:
        """Remove the record if present, leaving no copy in the database file or its log.

        Ledger records can hold raw events (failed runs awaiting replay); deletes are rare.
        """
        if self._db.execute("DELETE FROM ledger WHERE key = ?", (key,)):
            self._db.checkpoint()

    def scan(self, prefix: str) -> Iterator[tuple[str, dict[str, Any]]]:
        """Yield every record whose key starts with ``prefix`` in key order, expired included.

        The port gives ``scan`` no clock, so expiry cannot be judged here (like ``export``, it
        sees everything stored). Reads in batches without holding a transaction between them.
        """
        # Keys starting with the prefix sort together from the prefix on, so walk forward from
        # it and stop at the first key that does not start with it.
        bound, operator = prefix, ">="
        while True:
            rows = self._db.fetchall(
                f"SELECT key, value FROM ledger WHERE key {operator} ? ORDER BY key LIMIT ?",
                (bound, _SCAN_BATCH),
            )
            for row in rows:
                if not row["key"].startswith(prefix):
                    return
                yield row["key"], self._db.decoded("ledger record", _decode, row["value"])
            if len(rows) < _SCAN_BATCH:
                return
            bound, operator = rows[-1]["key"], ">"

    def latest(
        self, prefix: str, *, limit: int, before: str | None = None
    ) -> list[tuple[str, dict[str, Any]]]:
        """The last ``limit`` records under ``prefix`` (below ``before``), last key first: one
        range of the key index read backwards.
        """
        check_limit(limit)
        if not prefix:
            raise InvalidInput("prefix", "is required")
        # Every key starting with the prefix sorts below the prefix with its last character
        # moved one up.
        end = prefix[:-1] + chr(ord(prefix[-1]) + 1)
        if before is not None:
            end = min(end, before)
        rows = self._db.fetchall(
            "SELECT key, value FROM ledger WHERE key >= ? AND key < ? ORDER BY key DESC LIMIT ?",
            (prefix, end, limit),
        )
        return [(r["key"], self._db.decoded("ledger record", _decode, r["value"])) for r in rows]

    def purge_expired(self, now: float, *, limit: int) -> int:
        """Delete up to ``limit`` records expired at ``now``; how many were deleted."""
        check_limit(limit)
        return self._db.execute(
            "DELETE FROM ledger WHERE key IN (SELECT key FROM ledger "
            "WHERE expires_at IS NOT NULL AND expires_at <= ? ORDER BY expires_at LIMIT ?)",
            (now, limit),
        )


def _encode(value: dict[str, Any]) -> str:
    try:
        return json.dumps(value, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise InvalidInput("value", f"not storable as JSON: {exc}") from exc


def _decode(text: str) -> dict[str, Any]:
    value = json.loads(text)
    if not isinstance(value, dict):
        raise TypeError(f"a record is a JSON object, not {type(value).__name__}")
    return value
