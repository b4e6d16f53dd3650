"""The ledger table in memory: small JSON records by string key, under the database's lock."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

from agent_memory.adapters.store_keys import check_limit
from agent_memory.core.model.errors import InvalidInput
from tests.support.in_memory.database import MemoryDatabase


class MemoryLedgerTable:
    """``LedgerTable`` over a :class:`MemoryDatabase`: the run ledger, job checkpoints and model
    registry of ``adapters/ledger_records.py`` keep their records here as on SQLite.

    Values are stored as copies and handed out as copies, as a database would: a caller changing
    what it read or wrote changes nothing stored.
    """

    def __init__(self, db: MemoryDatabase) -> None:
        self._db = db

    def get(self, key: str, *, now: float) -> dict[str, Any] | None:
        """A copy of the unexpired record at ``key``."""
        with self._db.lock:
            found = self._db.ledger.get(key)
            if found is None or _expired(found[1], now):
                return None
            return copy.deepcopy(found[0])

    def add(self, key: str, value: dict[str, Any], *, now: float, expires_at: float | None) -> bool:
        """Written only over nothing or an expired record."""
        stored = _checked(value)
        with self._db.lock:
            found = self._db.ledger.get(key)
            if found is not None and not _expired(found[1], now):
                return False
            self._db.ledger[key] = (stored, expires_at)
            return True

    def put(self, key: str, value: dict[str, Any], *, now: float, expires_at: float | None) -> None:
        """Written over whatever is there."""
        stored = _checked(value)
        with self._db.lock:
            self._db.ledger[key] = (stored, expires_at)

    def replace(self, key: str, value: dict[str, Any]) -> bool:
        """Written over the record at ``key``, its expiry kept; False if none is there."""
        stored = _checked(value)
        with self._db.lock:
            found = self._db.ledger.get(key)
            if found is None:
                return False
            self._db.ledger[key] = (stored, found[1])
            return True

    def delete(self, key: str) -> None:
        """Gone at once (nothing is kept on disk to clear)."""
        with self._db.lock:
            self._db.ledger.pop(key, None)

    def scan(self, prefix: str) -> Iterator[tuple[str, dict[str, Any]]]:
        """Copies of every record whose key starts with ``prefix``, in key order, expired
        included, read at one moment.
        """
        with self._db.lock:
            found = sorted(
                (key, copy.deepcopy(value))
                for key, (value, _) in self._db.ledger.items()
                if key.startswith(prefix)
            )
        yield from found

    def latest(
        self, prefix: str, *, limit: int, before: str | None = None
    ) -> list[tuple[str, dict[str, Any]]]:
        """Copies of the last ``limit`` records under ``prefix`` (below ``before``), last first."""
        check_limit(limit)
        with self._db.lock:
            found = sorted(
                (
                    (key, copy.deepcopy(value))
                    for key, (value, _) in self._db.ledger.items()
                    if key.startswith(prefix) and (before is None or key < before)
                ),
                reverse=True,
            )
        return found[:limit]

    def purge_expired(self, now: float, *, limit: int) -> int:
        """Up to ``limit`` records expired at ``now`` deleted, soonest expired first."""
        check_limit(limit)
        with self._db.lock:
            expired = sorted(
                (e, k) for k, (_, e) in self._db.ledger.items() if e is not None and e <= now
            )[:limit]
            for _, key in expired:
                del self._db.ledger[key]
            return len(expired)


def _expired(expires_at: float | None, now: float) -> bool:
    return expires_at is not None and expires_at <= now


def _checked(value: dict[str, Any]) -> dict[str, Any]:
    # JSON records, as both real tables store them: what JSON cannot carry is refused here too.
    try:
        text = json.dumps(value, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise InvalidInput("value", f"not storable as JSON: {error}") from error
    loaded: dict[str, Any] = json.loads(text)
    return loaded
