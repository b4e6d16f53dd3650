"""How a message's parts read as the one text the core keeps: content parts and tool calls.

Agents log messages in their framework's shape (OpenAI's content parts and tool-call objects,
its Responses API's ``input_text``/``output_text`` parts, Anthropic's ``text``, ``tool_use`` and
``tool_result`` blocks, LangChain's content blocks and ``tool_calls``); every surface turns them
into text here, so a tool call reads the same whichever framework made it. What a part holds
that is not kept (an image, a reasoning trace, a citation) is counted, never dropped unsaid.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

# Parts whose ``text`` is the message's text: OpenAI's chat API and Anthropic's ``text``, the
# Responses API's ``input_text`` and ``output_text``.
TEXT_PART_TYPES = ("text", "input_text", "output_text")
# A model's refusal as a part (OpenAI): its ``refusal`` is kept as text.
REFUSAL_PART_TYPE = "refusal"
# A tool call as a part, by the key holding its arguments: Anthropic's ``tool_use`` and
# ``server_tool_use`` ({id, name, input}), LangChain's ``tool_call`` block ({id, name, args}).
TOOL_USE_PART_TYPES = {"tool_use": "input", "server_tool_use": "input", "tool_call": "args"}
# A tool's answer as a part (Anthropic): {tool_use_id, content: text or parts, is_error}.
TOOL_RESULT_PART_TYPE = "tool_result"
KNOWN_PART_TYPES = (
    *TEXT_PART_TYPES,
    REFUSAL_PART_TYPE,
    *TOOL_USE_PART_TYPES,
    TOOL_RESULT_PART_TYPE,
)
# Keys of a kept part that only place or cache it: not reported as not kept.
_BOOKKEEPING_KEYS = frozenset({"type", "id", "index", "cache_control"})
# The keys of each kept part whose values are read into the text.
_READ_KEYS: dict[str, frozenset[str]] = {
    **{t: frozenset({"text"}) for t in TEXT_PART_TYPES},
    REFUSAL_PART_TYPE: frozenset({"refusal"}),
    **{t: frozenset({"name", key}) for t, key in TOOL_USE_PART_TYPES.items()},
    TOOL_RESULT_PART_TYPE: frozenset({"tool_use_id", "content", "is_error"}),
}


def parts_text(parts: Iterable[str | Mapping[str, Any]]) -> str:
    """The text of a list of content parts: strings and text parts (``text``, ``input_text``,
    ``output_text``), in order; parts of other types are left out (:func:`read_parts` reads
    all of them and counts what it leaves out).
    """
    return "".join(
        part if isinstance(part, str) else str(part.get("text") or "")
        for part in parts
        if isinstance(part, str) or part.get("type") in TEXT_PART_TYPES
    )


def tool_call_line(name: str, arguments: str) -> str:
    """One tool call as the text of the message that made it."""
    return f"[tool call] {name} {arguments}"


def with_tool_calls(content: str, calls: Iterable[str]) -> str:
    """``content`` followed by its tool-call lines (only the lines when it is blank)."""
    lines = list(calls)
    return "\n".join([content, *lines] if content.strip() else lines)


@dataclass
class PartsReading:
    """What a list of content parts reads as.

    ``text`` joins the text and refusal parts; ``results`` holds each tool result's text;
    ``calls`` a tool-call line and the call's id (or None) per tool-use part; ``result_ids``
    the calls the results answer. ``unread`` counts the parts left out, by type, and
    ``unread_keys`` the keys of read parts whose values are not kept (a citation list).
    """

    text: str = ""
    results: list[str] = field(default_factory=list)
    calls: list[tuple[str, str | None]] = field(default_factory=list)
    result_ids: list[str] = field(default_factory=list)
    unread: Counter[str] = field(default_factory=Counter)
    unread_keys: Counter[str] = field(default_factory=Counter)

    @property
    def only_results(self) -> bool:
        """Whether the parts are tool results and nothing else kept (an Anthropic user turn
        answering tool calls).
        """
        return bool(self.result_ids) and not self.text.strip() and not self.calls


def read_parts(parts: Iterable[str | Mapping[str, Any]]) -> PartsReading:
    """Every part of a message's content, read: see :class:`PartsReading`."""
    reading = PartsReading()
    texts: list[str] = []
    for part in parts:
        if isinstance(part, str):
            texts.append(part)
            continue
        kind = str(part.get("type"))
        if kind not in _READ_KEYS:
            reading.unread[kind] += 1
            continue
        reading.unread_keys.update(
            key
            for key, value in part.items()
            if key not in _READ_KEYS[kind] and key not in _BOOKKEEPING_KEYS and _holds(value)
        )
        if kind in TEXT_PART_TYPES:
            texts.append(str(part.get("text") or ""))
        elif kind == REFUSAL_PART_TYPE:
            texts.append(str(part.get("refusal") or ""))
        elif kind in TOOL_USE_PART_TYPES:
            arguments = part.get(TOOL_USE_PART_TYPES[kind]) or {}
            line = tool_call_line(str(part.get("name")), json.dumps(arguments, sort_keys=True))
            reading.calls.append((line, str(part["id"]) if part.get("id") else None))
        else:
            _read_result(part, reading)
    reading.text = "".join(texts)
    return reading


def _read_result(part: Mapping[str, Any], reading: PartsReading) -> None:
    content = part.get("content")
    if isinstance(content, list):
        inner = read_parts(content)
        lines = [line for line, _ in inner.calls]
        text = "\n".join(filter(None, [inner.text, *inner.results, *lines]))
        reading.unread.update(inner.unread)
        reading.unread_keys.update(inner.unread_keys)
    else:
        text = str(content or "")
    if part.get("is_error"):
        text = f"[tool error] {text}"
    reading.results.append(text)
    reading.result_ids.append(str(part.get("tool_use_id")))


def _holds(value: object) -> bool:
    """Whether a value carries anything (an empty list or a null carries nothing)."""
    return value not in (None, "", [], {}, False)
