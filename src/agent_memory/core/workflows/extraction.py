"""Distilling a finished run into artifacts: from the event, a chat model, or deterministically."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError

from agent_memory.core.api.contracts import ArtifactsModel
from agent_memory.core.model.models import (
    EpisodeUnit,
    FactCandidate,
    Message,
    Outcome,
    ProcedureDraft,
    RunArtifacts,
    RunFinished,
)
from agent_memory.core.ports import ChatModel
from agent_memory.core.tiers.working_memory import transcript

EXTRACTION_PROMPT = """You distil a finished agent run into memory. Return only one JSON object:
{
  "task_summary": "one sentence: what was asked",
  "outcome": "COMPLETED | PARTIAL | FAILED",
  "key_findings": ["important discoveries"],
  "approach_used": "brief description of the approach that worked",
  "tools_used": ["tool names"],
  "reusable_patterns": ["patterns that could help on similar future tasks"],
  "facts": [{"content": "a domain fact useful across many tasks", "confidence": 0.0}],
  "procedure": {"title": "short title", "steps": ["step 1", "step 2"]}
}
Facts: only knowledge that holds beyond this one task; rate confidence 0.0-1.0; none if unsure.
Procedure: only if the run shows a clearly reusable approach that worked, else null.
Base everything on what actually happened, not on what was attempted and failed."""

_UNKNOWN = RunArtifacts(task_summary="", outcome="UNKNOWN")
_JSON_OBJECT = re.compile(r"\{.*\}", re.DOTALL)
_BULLET = re.compile(r"^\s*(?:[-*\u2022]|\d+[.)])\s+(.*\S)\s*$")


def extract_run_artifacts(messages: Sequence[Message], chat: ChatModel) -> RunArtifacts:
    """Ask the chat model for the run's artifacts as JSON.

    A reply that is not valid JSON of the expected shape yields outcome ``UNKNOWN`` and empty
    lists: a bad model answer never crashes consolidation. A model failure (an exception) is
    left to the caller, which retries the step.
    """
    return parse_artifacts(chat.complete(EXTRACTION_PROMPT, transcript(messages)))


def parse_artifacts(reply: str) -> RunArtifacts:
    """Artifacts from a model reply (code fences and chatter around the JSON are tolerated)."""
    match = _JSON_OBJECT.search(reply)
    if match is None:
        return _UNKNOWN
    try:
        data = json.loads(match.group(0))
    except json.JSONDecodeError:
        return _UNKNOWN
    if not isinstance(data, dict):
        return _UNKNOWN
    data = _drop_weak_items(data)
    try:
        model = ArtifactsModel.model_validate(data, strict=False)
    except ValidationError:
        return _UNKNOWN
    return RunArtifacts(
        task_summary=model.task_summary,
        outcome=model.outcome or "UNKNOWN",
        key_findings=tuple(model.key_findings),
        approach_used=model.approach_used,
        tools_used=tuple(model.tools_used),
        reusable_patterns=tuple(model.reusable_patterns),
        facts=tuple(FactCandidate(f.content, f.confidence) for f in model.facts),
        procedure=ProcedureDraft(model.procedure.title, tuple(model.procedure.steps))
        if model.procedure
        else None,
    )


def _drop_weak_items(data: dict[str, Any]) -> dict[str, Any]:
    """Models pad answers with nulls, blanks and out-of-range numbers: drop those items rather
    than lose the whole record.
    """
    facts = data.get("facts")
    if isinstance(facts, list):
        data["facts"] = [
            f
            for f in facts
            if isinstance(f, dict)
            and isinstance(f.get("content"), str)
            and f["content"].strip()
            and isinstance(f.get("confidence"), int | float)
            and 0.0 <= f["confidence"] <= 1.0
        ]
    for key in ("key_findings", "tools_used", "reusable_patterns"):
        if isinstance(data.get(key), list):
            data[key] = [item for item in data[key] if isinstance(item, str) and item.strip()]
    procedure = data.get("procedure")
    if isinstance(procedure, dict) and not procedure.get("steps"):
        data["procedure"] = None
    outcome = data.get("outcome")
    if outcome not in {"COMPLETED", "PARTIAL", "FAILED", "UNKNOWN"}:
        data["outcome"] = None
    return {k: v for k, v in data.items() if k in ArtifactsModel.model_fields}


def extract_deterministically(run: RunFinished) -> RunArtifacts:
    """Artifacts without a model: the task as summary, the final answer's points as findings,
    and the tools that ran. Never invents facts or procedures.
    """
    return RunArtifacts(
        task_summary=first_sentence(run.task),
        outcome=run.outcome or "UNKNOWN",
        key_findings=_final_points(run.messages),
        tools_used=tools_in(run.messages),
    )


def complete_artifacts(run: RunFinished, artifacts: RunArtifacts) -> RunArtifacts:
    """Fill what the artifacts leave empty from the run itself; the harness's outcome wins."""
    outcome: Outcome = run.outcome or artifacts.outcome
    return RunArtifacts(
        task_summary=artifacts.task_summary.strip() or first_sentence(run.task),
        outcome=outcome,
        key_findings=artifacts.key_findings or _final_points(run.messages),
        approach_used=artifacts.approach_used,
        tools_used=artifacts.tools_used or tools_in(run.messages),
        reusable_patterns=artifacts.reusable_patterns,
        facts=artifacts.facts,
        procedure=artifacts.procedure,
    )


def message_units(
    messages: Sequence[Message], *, max_units: int, max_chars: int, max_total_chars: int
) -> list[EpisodeUnit]:
    """The run's human and AI messages as searchable units (tool output and system prompts
    are left out), each cut to ``max_chars``; over budget, the first message (the task) and
    the most recent ones are kept.
    """
    units = [
        EpisodeUnit("message", seq, m.content.strip()[:max_chars], m.name or m.role)
        for seq, m in enumerate(messages)
        if m.role in {"human", "ai"} and m.content.strip()
    ]
    if not units:
        return []
    kept, total = [units[0]], len(units[0].text)
    for unit in reversed(units[1:]):
        size = len(unit.text)
        if len(kept) >= max_units or total + size > max_total_chars:
            break
        kept.insert(1, unit)
        total += size
    return kept


def first_sentence(text: str, *, max_chars: int = 300) -> str:
    """The first sentence (or line) of ``text``, at most ``max_chars`` long."""
    stripped = " ".join(text.split())
    match = re.match(r"(.+?[.!?])(?:\s|$)", stripped)
    sentence = match.group(1) if match else stripped
    return sentence if len(sentence) <= max_chars else sentence[: max_chars - 3] + "..."


def tools_in(messages: Sequence[Message]) -> tuple[str, ...]:
    """Names of the tools that answered, in first-use order."""
    return tuple(dict.fromkeys(m.name for m in messages if m.role == "tool" and m.name))


def _final_points(messages: Sequence[Message], *, limit: int = 5) -> tuple[str, ...]:
    final = next((m.content for m in reversed(messages) if m.role == "ai" and m.content), "")
    bullets = [match.group(1) for line in final.splitlines() if (match := _BULLET.match(line))]
    if bullets:
        return tuple(bullets[:limit])
    sentences = re.split(r"(?<=[.!?])\s+", " ".join(final.split()))
    return tuple(s for s in sentences if len(s) > 20)[:limit]
