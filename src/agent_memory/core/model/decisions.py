"""A decision about a tenant's memory, as its history keeps it.

Every decision a person makes about what memory holds (approve or reject a procedure, resolve a
contested fact, forget a run, ...) is appended to the tenant's history: who decided, when, why,
and about which record. The history never holds removed content: a decision that removes text
keeps the ids of what it removed and, where useful, a digest of it (``digest``), never the text.
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from agent_memory.core.model.errors import InvalidInput

# Bounds of a decision's texts: a history entry is a small record (one ledger item).
MAX_ACTOR = 200
MAX_RECORD_ID = 512
MAX_REASON = 2_000


def fact_record_id(domain: str, fact_hash: str) -> str:
    """How the history names a fact (``domain/fact_hash``): its decisions are listed by it."""
    return f"{domain}/{fact_hash}"[:MAX_RECORD_ID]


class Action(StrEnum):
    """What was decided."""

    APPROVE = "approve"
    REJECT = "reject"
    RESOLVE = "resolve"
    FORGET = "forget"
    EDIT = "edit"
    RETIRE = "retire"
    RETRACT = "retract"
    CORRECT = "correct"
    ASSERT = "assert"
    REDACT = "redact"
    FLAG = "flag"
    DISMISS = "dismiss"


class RecordKind(StrEnum):
    """What a decision is about."""

    PROCEDURE = "procedure"
    FACT = "fact"
    RUN = "run"
    AGENT = "agent"
    EPISODE = "episode"
    TENANT = "tenant"


@dataclass(frozen=True, slots=True)
class Decision:
    """One entry of a tenant's history. ``decision_id`` names it (recording it again is a
    no-op); ``digest`` is the SHA-256 of removed content, when a decision removed some.
    """

    tenant_id: str
    action: Action
    kind: RecordKind
    record_id: str
    actor: str
    at: float
    reason: str | None = None
    digest: str | None = None
    decision_id: str = ""

    def __post_init__(self) -> None:
        check_texts(self.actor, self.record_id, self.reason)
        if not self.decision_id:
            object.__setattr__(self, "decision_id", uuid.uuid4().hex)

    def as_json(self) -> dict[str, Any]:
        """The decision as stored and shown (its tenant is where it is kept)."""
        return {
            "decision_id": self.decision_id,
            "at": self.at,
            "action": self.action.value,
            "kind": self.kind.value,
            "record_id": self.record_id,
            "actor": self.actor,
            "reason": self.reason,
            "digest": self.digest,
        }

    @classmethod
    def from_json(cls, tenant_id: str, value: dict[str, Any]) -> Decision:
        """A decision :meth:`as_json` wrote, read back under its tenant."""
        return cls(
            tenant_id,
            Action(value["action"]),
            RecordKind(value["kind"]),
            str(value["record_id"]),
            str(value["actor"]),
            float(value["at"]),
            value.get("reason"),
            value.get("digest"),
            str(value["decision_id"]),
        )


def check_texts(actor: str, record_id: str, reason: str | None) -> None:
    """Refuse a decision's text past its bound, or without an actor, naming the field."""
    for field, value, bound in (
        ("actor", actor, MAX_ACTOR),
        ("record_id", record_id, MAX_RECORD_ID),
        ("reason", reason or "", MAX_REASON),
    ):
        if len(value) > bound:
            raise InvalidInput(field, f"holds more than {bound:,} characters")
    if not actor.strip():
        raise InvalidInput("actor", "is required: who decided")


def digest(content: str) -> str:
    """The SHA-256 of removed content, as a history keeps it instead of the content."""
    return hashlib.sha256(content.encode("utf-8")).hexdigest()
