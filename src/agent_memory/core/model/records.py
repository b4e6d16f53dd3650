"""JSON forms of domain records: step-function state, exports and CLI output."""

from __future__ import annotations

import base64
import dataclasses
from enum import Enum
from typing import Any, cast

from agent_memory.core.model.models import (
    FactCandidate,
    Outcome,
    ProcedureDraft,
    ProcedureFeedback,
    RunArtifacts,
    RunFinished,
)


def to_json(value: Any) -> Any:
    """A JSON-ready copy of a record: sets sorted, bytes base64, enums by value."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    if isinstance(value, frozenset | set):
        return sorted(to_json(v) for v in value)
    if isinstance(value, tuple | list):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    return value


def run_to_state(run: RunFinished) -> dict[str, Any]:
    """The run's identity and routing fields as carried between consolidation steps.

    Messages are left out: by then they are distilled into artifacts, and state between steps
    must stay small (Step Functions caps it at 256 KB).
    """
    data = to_json(run)
    data.pop("messages")
    data.pop("artifacts")
    # What the event held and is not kept travels in the state's own not_kept.
    data.pop("not_kept")
    return cast(dict[str, Any], data)


def run_from_state(data: dict[str, Any]) -> RunFinished:
    """Inverse of :func:`run_to_state` (without messages and artifacts)."""
    feedback = data.get("procedure_feedback")
    return RunFinished(
        tenant_id=data["tenant_id"],
        agent_id=data["agent_id"],
        run_id=data["run_id"],
        task=data["task"],
        task_type=data.get("task_type"),
        domain=data.get("domain"),
        outcome=data.get("outcome"),
        procedure_feedback=ProcedureFeedback(
            feedback["procedure_id"], feedback["succeeded"], feedback.get("receipt")
        )
        if feedback
        else None,
        finished_at=data.get("finished_at"),
    )


def artifacts_from_json(data: dict[str, Any]) -> RunArtifacts:
    """Inverse of ``to_json`` for artifacts."""
    procedure = data.get("procedure")
    outcome: Outcome = data["outcome"]
    return RunArtifacts(
        task_summary=data["task_summary"],
        outcome=outcome,
        key_findings=tuple(data["key_findings"]),
        approach_used=data["approach_used"],
        tools_used=tuple(data["tools_used"]),
        reusable_patterns=tuple(data["reusable_patterns"]),
        facts=tuple(FactCandidate(f["content"], f["confidence"]) for f in data["facts"]),
        procedure=ProcedureDraft(procedure["title"], tuple(procedure["steps"]))
        if procedure
        else None,
    )
