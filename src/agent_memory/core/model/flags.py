"""A flag: an agent's report that memory served it something wrong, open until a person decides.

An agent flags one item a bootstrap served it (an episode, a fact, a procedure) with a reason.
From its next read on, that agent is not served the item; other agents still are, until a person
dismisses the flag (the agent is served it again) or acts on it (retracts the fact, forgets the
run, retires the procedure: other operations) and closes it as acted on.

A flag is named by who flagged what: ``{agent}:{kind}:{record}`` (identifiers never hold
``:``), so flagging an item again is the same flag, and an agent holds at most one open flag per
item. An agent holds at most :data:`MAX_OPEN_FLAGS_PER_AGENT` open flags: each bootstrap reads
them all, in one query.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from agent_memory.core.model.decisions import MAX_REASON, RecordKind
from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.model.identifiers import checked_id

# An agent's open flags at most: a looping agent cannot grow the store past it. At the bounds
# (a 2,000-character reason of 4-byte characters, the longest record id) they are under 1 MB,
# one page of a DynamoDB query, which every bootstrap of the agent reads.
MAX_OPEN_FLAGS_PER_AGENT = 100
# Identifiers never hold it: a flag id splits into its agent, kind and record unambiguously.
FLAG_ID_SEPARATOR = ":"


class FlagKind(StrEnum):
    """What was flagged: the kinds of item a bootstrap serves."""

    EPISODE = "episode"
    FACT = "fact"
    PROCEDURE = "procedure"

    @property
    def record_kind(self) -> RecordKind:
        """The kind the history records a decision about this item under."""
        return RecordKind(self.value)


class FlagOutcome(StrEnum):
    """How a person closed a flag: dismissed (the item was right) or acted on."""

    DISMISSED = "dismissed"
    ACTED = "acted"


def flag_kind(value: str) -> FlagKind:
    """``value`` as a kind; ``InvalidInput`` naming ``kind`` otherwise."""
    try:
        return FlagKind(value)
    except ValueError:
        names = ", ".join(k.value for k in FlagKind)
        raise InvalidInput("kind", f"must be one of {names}") from None


def record_id(kind: FlagKind, value: str, agent_id: str) -> str:
    """The flagged item's id as stored: an episode's ``{agent}/{run}`` (a bare run id names an
    episode of ``agent_id``), a fact's hash, a procedure's id; ``InvalidInput`` otherwise.
    """
    if kind is FlagKind.EPISODE:
        owner, slash, run = value.rpartition("/")
        owner = checked_id(owner if slash else agent_id, "record_id", "agent id")
        return f"{owner}/{checked_id(run, 'record_id', 'run id')}"
    return checked_id(value, "record_id", f"{kind.value} id")


def flag_id(agent_id: str, kind: FlagKind, record: str) -> str:
    """``{agent}:{kind}:{record}``: the one id of an agent's flag on an item."""
    return FLAG_ID_SEPARATOR.join((agent_id, kind.value, record))


def parse_flag_id(value: str) -> tuple[str, FlagKind, str]:
    """(agent, kind, record) of a flag id; ``InvalidInput`` naming ``flag_id`` otherwise."""
    parts = value.split(FLAG_ID_SEPARATOR)
    if len(parts) != 3:
        raise InvalidInput("flag_id", f"{value!r} is not a flag id (agent:kind:record)")
    agent, kind, record = parts
    try:
        parsed = FlagKind(kind)
        checked_id(agent, "flag_id", "flag id")
        if record_id(parsed, record, agent) != record:
            raise ValueError(record)
    except (ValueError, InvalidInput):
        raise InvalidInput("flag_id", f"{value!r} is not a flag id (agent:kind:record)") from None
    return agent, parsed, record


@dataclass(frozen=True, slots=True)
class Flag:
    """An open flag: ``agent_id`` reported the item (``kind``, ``record_id``) wrong, for
    ``reason`` (scrubbed as stored text is), at ``flagged_at``, in run ``run_id`` if named.
    """

    tenant_id: str
    agent_id: str
    kind: FlagKind
    record_id: str
    reason: str
    flagged_at: float
    run_id: str | None = None

    def __post_init__(self) -> None:
        if len(self.reason) > MAX_REASON:
            raise InvalidInput("reason", f"holds more than {MAX_REASON:,} characters")

    @property
    def flag_id(self) -> str:
        """The flag's id (:func:`flag_id`)."""
        return flag_id(self.agent_id, self.kind, self.record_id)

    def as_json(self) -> dict[str, Any]:
        """The flag as stored and shown (its tenant is where it is kept)."""
        return {
            "flag_id": self.flag_id,
            "agent_id": self.agent_id,
            "kind": self.kind.value,
            "record_id": self.record_id,
            "reason": self.reason,
            "flagged_at": self.flagged_at,
            "run_id": self.run_id,
        }

    @classmethod
    def from_json(cls, tenant_id: str, value: dict[str, Any]) -> Flag:
        """A flag :meth:`as_json` wrote, read back under its tenant."""
        run_id = value.get("run_id")
        return cls(
            tenant_id,
            str(value["agent_id"]),
            FlagKind(value["kind"]),
            str(value["record_id"]),
            str(value["reason"]),
            float(value["flagged_at"]),
            None if run_id is None else str(run_id),
        )


@dataclass(frozen=True, slots=True)
class Flagged:
    """What one agent flagged and is open: the items its reads leave out."""

    episodes: frozenset[tuple[str, str]] = frozenset()  # (agent, run)
    facts: frozenset[str] = frozenset()  # fact hashes
    procedures: frozenset[str] = frozenset()  # procedure ids

    @classmethod
    def of(cls, flags: list[Flag]) -> Flagged:
        """The items ``flags`` name."""
        by_kind: dict[FlagKind, set[str]] = {kind: set() for kind in FlagKind}
        for flag in flags:
            by_kind[flag.kind].add(flag.record_id)
        runs = (tuple(r.split("/", 1)) for r in by_kind[FlagKind.EPISODE])
        return cls(
            frozenset((agent, run) for agent, run in runs),
            frozenset(by_kind[FlagKind.FACT]),
            frozenset(by_kind[FlagKind.PROCEDURE]),
        )
