"""What the run ledger records of a run, typed: its consolidation record and its failure.

The ledger keeps JSON (``RunEntry.value``); the core reads and writes it only through these,
so a field is named once and its absence is decided once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

SCRUBBED = "scrubbed_at"
CONSOLIDATED = "consolidated_at"
DIGEST = "digest"


@dataclass(frozen=True, slots=True)
class RunRecord:
    """A run's consolidation record: its scrubbed state (the JSON the steps carry), written by
    scrub (the run has started writing), when its last step completed it (None: not yet), and
    the digest of the event's content it was recorded from (None: recorded before digests
    were kept), which tells a replay of the run from another run reusing its id.
    """

    state: Mapping[str, Any]
    scrubbed_at: float
    consolidated_at: float | None = None
    digest: str | None = None

    @classmethod
    def read(cls, value: Mapping[str, Any]) -> RunRecord:
        """The record of a ledger value."""
        consolidated = value.get(CONSOLIDATED)
        return cls(
            state=value["state"],
            scrubbed_at=float(value[SCRUBBED]),
            consolidated_at=None if consolidated is None else float(consolidated),
            digest=None if value.get(DIGEST) is None else str(value[DIGEST]),
        )

    @property
    def consolidated(self) -> bool:
        """Whether the run was completed."""
        return self.consolidated_at is not None

    def differs(self, digest: str | None) -> bool:
        """Whether an event of content ``digest`` is another run than the one recorded (a record
        or an event without a digest cannot tell: it is taken for a replay).
        """
        return self.digest is not None and digest is not None and self.digest != digest

    def run_json(self) -> Mapping[str, Any]:
        """The run as the state holds it (identity, task; scrubbed)."""
        run: Mapping[str, Any] = self.state["run"]
        return run

    def json(self) -> dict[str, Any]:
        """The ledger value."""
        value: dict[str, Any] = {"state": dict(self.state), SCRUBBED: self.scrubbed_at}
        if self.consolidated_at is not None:
            value[CONSOLIDATED] = self.consolidated_at
        if self.digest is not None:
            value[DIGEST] = self.digest
        return value


def without_digest(value: Mapping[str, Any]) -> dict[str, Any]:
    """A ledger value with no content digest (a run record's, and its state's): a record whose
    text was redacted keeps nothing a guess at what it held could be checked against; the run
    is then taken for a replay whatever content arrives under its id.
    """
    kept = {k: v for k, v in value.items() if k != DIGEST}
    state = kept.get("state")
    if isinstance(state, Mapping) and DIGEST in state:
        kept["state"] = {k: v for k, v in state.items() if k != DIGEST}
    return kept


@dataclass(frozen=True, slots=True)
class FailureRecord:
    """A run whose consolidation failed, kept until it is replayed or its tenant forgotten:
    the event as sent (None: the execution's input holds it), the step's ``error``
    (``Error``, ``Cause``, ``Step``), the ``execution`` that failed, how many times it failed,
    and whether another delivery completed it since (``resolved``: nothing to replay).
    """

    key: str
    event: Any
    error: Any
    execution: Any
    failed_at: float
    failures: int
    resolved: bool = False

    @classmethod
    def read(cls, value: Mapping[str, Any]) -> FailureRecord:
        """The record of a ledger value."""
        return cls(
            key=str(value["key"]),
            event=value.get("event"),
            error=value.get("error"),
            execution=value.get("execution"),
            failed_at=float(value["failed_at"]),
            failures=int(value["failures"]),
            resolved=bool(value.get("resolved", False)),
        )

    def json(self) -> dict[str, Any]:
        """The ledger value."""
        value = {
            "key": self.key,
            "event": self.event,
            "error": self.error,
            "execution": self.execution,
            "failed_at": self.failed_at,
            "failures": self.failures,
        }
        return {**value, "resolved": True} if self.resolved else value

    def listed(self) -> dict[str, Any]:
        """As a listing shows it: every field but the event."""
        return {k: v for k, v in self.json().items() if k != "event"}

    def resolved_now(self) -> FailureRecord:
        """The record once another delivery completed the run."""
        return replace(self, resolved=True)


@dataclass(frozen=True, slots=True)
class IncompleteRun:
    """A run scrubbed, then not completed within the bound (a crash, a timed-out or aborted
    execution): replay completes it from its record.
    """

    key: str
    tenant_id: str
    agent_id: str
    run_id: str
    scrubbed_at: float

    def listed(self) -> dict[str, Any]:
        """As a listing shows it."""
        return {
            "key": self.key,
            "tenant_id": self.tenant_id,
            "agent_id": self.agent_id,
            "run_id": self.run_id,
            "scrubbed_at": self.scrubbed_at,
            "incomplete": True,
        }
