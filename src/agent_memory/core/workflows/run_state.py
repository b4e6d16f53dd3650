"""A run's state between consolidation steps, typed, and its one JSON form.

Locally the steps hand each other a :class:`RunState`; only where state leaves the process (a
Lambda's payload, the run's record in the ledger) is it written as JSON by
:func:`state_to_json` and read back by :func:`state_from_json`. The JSON form is the one the
state machine carries between its tasks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from agent_memory.core.model.models import EpisodeUnit, RunArtifacts, RunFinished
from agent_memory.core.model.records import (
    artifacts_from_json,
    run_from_state,
    run_to_state,
    to_json,
)
from agent_memory.core.tiers.procedural import FeedbackResult
from agent_memory.core.tiers.semantic import FactProgress

ExtractedBy = Literal["event", "model", "deterministic", "ledger"]


@dataclass(frozen=True, slots=True)
class FactResults:
    """What confirm_facts did with the run's facts, each a tuple of fact hashes, and where
    each observed fact stands (``progress``, in the order observed).
    """

    observed: tuple[str, ...] = ()
    confirmed: tuple[str, ...] = ()
    newly_confirmed: tuple[str, ...] = ()
    contested: tuple[str, ...] = ()
    progress: tuple[FactProgress, ...] = ()


@dataclass(frozen=True, slots=True)
class ProcedureResult:
    """What propose_procedure did: the procedure proposed (or supported), whether it is new,
    and what the run's procedure feedback did.
    """

    proposed: str | None
    created: bool
    feedback: FeedbackResult | None = None
    # The proposed procedure's status once the run was counted (PENDING: awaits a person).
    status: str | None = None


@dataclass(frozen=True, slots=True)
class RunState:
    """A run as it crosses the consolidation steps; each step returns it with its result set.

    ``units`` are the run's message units (kind ``message``, before embedding); ``trimmed``
    counts what was dropped to keep the JSON form within Step Functions' limit (None: nothing
    was); ``not_kept`` says, a line each, what of the run is not kept (each step adds what its
    limits leave out), and ``cut_units`` the positions of units extract cut for length; the
    results are None until their step has run (``episode_expired``: the episode was not
    written, its retention having ended already). ``consolidated``: extract found the run's
    record marked complete (a redelivery): no later step calls a model or writes again.
    ``digest``: the event's content digest (what tells a replay from a reused run id);
    ``reused``: the run's id was recorded already with other content: no step writes anything.
    """

    run: RunFinished
    artifacts: RunArtifacts
    units: tuple[EpisodeUnit, ...] = ()
    extracted_by: ExtractedBy = "event"
    trimmed: Mapping[str, int] | None = None
    pii_entities: Mapping[str, int] | None = None
    episode_written: bool | None = None
    episode_expired: bool = False
    facts: FactResults | None = None
    kb_staged: tuple[str, ...] | None = None
    procedure: ProcedureResult | None = None
    not_kept: tuple[str, ...] = ()
    cut_units: tuple[int, ...] = ()
    consolidated: bool = False
    digest: str | None = None
    reused: bool = False
    # Keys of a JSON state this code does not know (a newer version's), carried unchanged.
    extra: Mapping[str, Any] = field(default_factory=dict)

    def but(self, **changes: Any) -> RunState:
        """A copy with ``changes``."""
        return replace(self, **changes)


def unit_to_json(unit: EpisodeUnit) -> dict[str, Any]:
    """A message unit as the state carries it (no vectors: it is not embedded yet)."""
    return {"kind": unit.kind, "seq": unit.seq, "speaker": unit.speaker, "text": unit.text}


def unit_from_json(data: Mapping[str, Any]) -> EpisodeUnit:
    """Inverse of :func:`unit_to_json`."""
    return EpisodeUnit(
        data.get("kind", "message"), int(data["seq"]), data["text"], data.get("speaker")
    )


_KNOWN = frozenset(
    {
        "run",
        "artifacts",
        "units",
        "extracted_by",
        "trimmed",
        "pii_entities",
        "episode",
        "facts",
        "kb",
        "procedure",
        "not_kept",
        "cut_units",
        "consolidated",
        "digest",
        "reused",
    }
)


def state_to_json(state: RunState) -> dict[str, Any]:
    """The state as the state machine carries it (keys of results not yet set are absent)."""
    data: dict[str, Any] = {
        **state.extra,
        "run": run_to_state(state.run),
        "artifacts": to_json(state.artifacts),
        "units": [unit_to_json(u) for u in state.units],
        "extracted_by": state.extracted_by,
    }
    if state.trimmed is not None:
        data["trimmed"] = dict(state.trimmed)
    if state.pii_entities is not None:
        data["pii_entities"] = dict(state.pii_entities)
    if state.episode_written is not None:
        data["episode"] = {"written": state.episode_written}
        if state.episode_expired:
            data["episode"]["expired"] = True
    if state.facts is not None:
        data["facts"] = {k: list(v) for k, v in to_json(state.facts).items()}
        if not state.facts.progress:
            del data["facts"]["progress"]
    if state.kb_staged is not None:
        data["kb"] = {"staged": list(state.kb_staged)}
    if state.procedure is not None:
        data["procedure"] = to_json(state.procedure)
    if state.not_kept:
        data["not_kept"] = list(state.not_kept)
    if state.cut_units:
        data["cut_units"] = list(state.cut_units)
    if state.consolidated:
        data["consolidated"] = True
    if state.digest is not None:
        data["digest"] = state.digest
    if state.reused:
        data["reused"] = True
    return data


def state_from_json(data: Mapping[str, Any]) -> RunState:
    """Inverse of :func:`state_to_json`."""
    facts = data.get("facts")
    procedure = data.get("procedure")
    feedback = procedure.get("feedback") if procedure else None
    return RunState(
        run=run_from_state(dict(data["run"])),
        artifacts=artifacts_from_json(dict(data["artifacts"])),
        units=tuple(unit_from_json(u) for u in data.get("units", ())),
        extracted_by=data.get("extracted_by", "event"),
        trimmed=dict(data["trimmed"]) if "trimmed" in data else None,
        pii_entities=dict(data["pii_entities"]) if "pii_entities" in data else None,
        episode_written=bool(data["episode"]["written"]) if "episode" in data else None,
        episode_expired=bool(data.get("episode", {}).get("expired", False)),
        facts=FactResults(
            tuple(facts.get("observed", ())),
            tuple(facts.get("confirmed", ())),
            tuple(facts.get("newly_confirmed", ())),
            tuple(facts.get("contested", ())),
            tuple(FactProgress.from_json(p) for p in facts.get("progress", ())),
        )
        if facts is not None
        else None,
        kb_staged=tuple(data["kb"]["staged"]) if "kb" in data else None,
        procedure=ProcedureResult(
            procedure.get("proposed"),
            bool(procedure.get("created")),
            FeedbackResult(feedback["procedure_id"], feedback["counted"], feedback.get("reason"))
            if feedback
            else None,
            procedure.get("status"),
        )
        if procedure is not None
        else None,
        not_kept=tuple(data.get("not_kept", ())),
        cut_units=tuple(data.get("cut_units", ())),
        consolidated=bool(data.get("consolidated", False)),
        digest=data.get("digest"),
        reused=bool(data.get("reused", False)),
        extra={k: v for k, v in data.items() if k not in _KNOWN},
    )
