"""Distilling a finished run into artifacts: from the event, a chat model, or deterministically."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from agent_memory.core.api import not_kept
from agent_memory.core.api.contracts import (
    MAX_ITEM_CHARS,
    MAX_LIST_ITEMS,
    MAX_TASK_CHARS,
    ArtifactsModel,
)
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
    return extract_with_model(messages, chat)[0]


def extract_with_model(
    messages: Sequence[Message], chat: ChatModel
) -> tuple[RunArtifacts, tuple[str, ...]]:
    """:func:`extract_run_artifacts`, with what of the model's reply is not kept."""
    return read_artifacts(chat.complete(EXTRACTION_PROMPT, transcript(messages)))


def parse_artifacts(reply: str) -> RunArtifacts:
    """Artifacts from a model reply (code fences and chatter around the JSON are tolerated)."""
    return read_artifacts(reply)[0]


def read_artifacts(reply: str) -> tuple[RunArtifacts, tuple[str, ...]]:
    """:func:`parse_artifacts`, with a line for each thing of the reply not kept: items
    dropped (blank, out of range), lists and texts cut to the contract's limits, or the
    whole reply when it holds no artifacts.
    """
    unusable = ("the chat model's reply held no artifacts: nothing of it is kept",)
    match = _JSON_OBJECT.search(reply)
    if match is None:
        return _UNKNOWN, unusable
    try:
        data = json.loads(match.group(0))
    except json.JSONDecodeError:
        return _UNKNOWN, unusable
    if not isinstance(data, dict):
        return _UNKNOWN, unusable
    notes: list[str] = []
    data = _drop_weak_items(data, notes)
    try:
        model = ArtifactsModel.model_validate(data, strict=False)
    except ValidationError as error:
        where = ".".join(str(part) for part in error.errors(include_url=False)[0]["loc"])
        return _UNKNOWN, (
            f"the chat model's reply held no valid artifacts ({where} is malformed): "
            "nothing of it is kept",
        )
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
    ), tuple(notes)


_TEXT_LIMITS = {"task_summary": MAX_ITEM_CHARS, "approach_used": MAX_TASK_CHARS}
_LISTS = ("key_findings", "tools_used", "reusable_patterns")


def _drop_weak_items(data: dict[str, Any], notes: list[str]) -> dict[str, Any]:
    """Models pad answers with nulls, blanks and out-of-range numbers, and run past limits:
    drop or cut those items, each noted in ``notes``, rather than lose the whole record.
    """
    facts = data.get("facts")
    if isinstance(facts, list):
        kept = [
            f
            for f in facts
            if isinstance(f, dict)
            and isinstance(f.get("content"), str)
            and f["content"].strip()
            and isinstance(f.get("confidence"), int | float)
            and 0.0 <= f["confidence"] <= 1.0
        ]
        if len(kept) < len(facts):
            dropped = not_kept.counted(len(facts) - len(kept), "fact")
            notes.append(
                f"{dropped} of the chat model's reply not kept: no content, or no confidence "
                "in [0, 1]"
            )
        data["facts"] = _within(kept, "facts", notes)
    for key in _LISTS:
        if isinstance(data.get(key), list):
            items = [item for item in data[key] if isinstance(item, str) and item.strip()]
            if len(items) < len(data[key]):
                blank = not_kept.counted(len(data[key]) - len(items), "item")
                notes.append(f"{blank} of {key} in the chat model's reply not kept: blank")
            data[key] = _within([_cut(i, MAX_ITEM_CHARS, key, notes) for i in items], key, notes)
    for key, limit in _TEXT_LIMITS.items():
        if isinstance(data.get(key), str):
            data[key] = _cut(data[key], limit, key, notes)
    procedure = data.get("procedure")
    if isinstance(procedure, dict):
        steps = procedure.get("steps")
        if isinstance(steps, list):
            kept = [s for s in steps if not isinstance(s, str) or s.strip()]
            if len(kept) < len(steps):
                blank = not_kept.counted(len(steps) - len(kept), "blank step")
                notes.append(f"{blank} of the chat model's procedure not kept")
            procedure["steps"] = _within(kept, "procedure steps", notes)
        if not procedure.get("steps"):
            data["procedure"] = None
            notes.append("procedure not proposed: the chat model's procedure has no steps")
    outcome = data.get("outcome")
    if outcome not in {"COMPLETED", "PARTIAL", "FAILED", "UNKNOWN"}:
        data["outcome"] = None
    return {k: v for k, v in data.items() if k in ArtifactsModel.model_fields}


def _within(items: list[Any], name: str, notes: list[str]) -> list[Any]:
    if len(items) <= MAX_LIST_ITEMS:
        return items
    extra = not_kept.counted(len(items) - MAX_LIST_ITEMS, "item")
    notes.append(
        f"the last {extra} of {name} in the chat model's reply not kept (at most {MAX_LIST_ITEMS})"
    )
    return items[:MAX_LIST_ITEMS]


def _cut(text: str, limit: int, name: str, notes: list[str]) -> str:
    if len(text) <= limit:
        return text
    notes.append(f"{name} of the chat model's reply not kept past its first {limit:,} characters")
    return text[:limit]


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
    return kept_units(
        messages, max_units=max_units, max_chars=max_chars, max_total_chars=max_total_chars
    ).units


@dataclass(frozen=True, slots=True)
class KeptUnits:
    """The message units of a run (:func:`message_units`) and what of its messages they
    leave out: ``unsearched`` (human and AI messages over the budget), ``cut`` (messages longer
    than a unit, by position) and ``left_out`` (how many messages of each other role).
    """

    units: list[EpisodeUnit]
    unsearched: tuple[int, ...] = ()
    cut: tuple[int, ...] = ()
    left_out: dict[str, int] | None = None

    def lines(self, *, max_units: int, max_total_chars: int) -> list[str]:
        """What is not kept, as consolidation reports it (cut units are reported by scrub,
        which makes the final cut).
        """
        lines = []
        if self.unsearched:
            lines.append(
                f"human and ai {not_kept.messages(self.unsearched)} not kept as searchable "
                f"units (a run keeps at most {max_units:,} units and {max_total_chars:,} "
                "characters of them: its first message and its latest)"
            )
        if self.left_out:
            roles = ", ".join(
                not_kept.counted(count, f"{role} message") for role, count in self.left_out.items()
            )
            lines.append(f"{roles} not kept as searchable units (only human and ai messages are)")
        return lines


def kept_units(
    messages: Sequence[Message], *, max_units: int, max_chars: int, max_total_chars: int
) -> KeptUnits:
    """:func:`message_units`, with what they leave out (:class:`KeptUnits`)."""
    left_out: Counter[str] = Counter(
        str(m.role) for m in messages if m.role not in {"human", "ai"} and m.content.strip()
    )
    units = [
        EpisodeUnit("message", seq, m.content.strip()[:max_chars], m.name or m.role)
        for seq, m in enumerate(messages)
        if m.role in {"human", "ai"} and m.content.strip()
    ]
    cut = tuple(
        seq
        for seq, m in enumerate(messages)
        if m.role in {"human", "ai"} and len(m.content.strip()) > max_chars
    )
    if not units:
        return KeptUnits([], (), cut, dict(left_out))
    kept, total = [units[0]], len(units[0].text)
    for unit in reversed(units[1:]):
        size = len(unit.text)
        if len(kept) >= max_units or total + size > max_total_chars:
            break
        kept.insert(1, unit)
        total += size
    seqs = {u.seq for u in kept}
    unsearched = tuple(u.seq for u in units if u.seq not in seqs)
    return KeptUnits(kept, unsearched, tuple(s for s in cut if s in seqs), dict(left_out))


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
