"""Strands messages as the core's ``Message``: roles, text, tool uses and tool results.

A Strands message is ``{"role": "user" | "assistant", "content": [block, ...]}``. An assistant
message becomes one ``ai`` message: its text, then one line per ``toolUse`` (the same
``[tool call] name {...}`` line every surface writes), with the tool-use ids as its calls. A
user message becomes a ``human`` message for its text, then one ``tool`` message per
``toolResult`` (answering its ``toolUseId``, named for the tool that was called). Reasoning,
images, documents and other blocks without text are left out.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agent_memory.core.api.message_text import tool_call_line, with_tool_calls
from agent_memory.core.model.models import Message

__all__ = ["Part", "first_user_text", "message_parts", "to_core_messages"]

_MAX_ID_CHARS = 256
_MAX_TOOL_CALLS = 128


@dataclass(frozen=True, slots=True)
class Part:
    """A core message and the index of the Strands message it was made from."""

    source: int
    message: Message


def to_core_messages(messages: Sequence[Mapping[str, Any]]) -> list[Message]:
    """Strands messages as core messages (see the module's docstring)."""
    return [part.message for part in message_parts(messages)]


def message_parts(messages: Sequence[Mapping[str, Any]]) -> list[Part]:
    """The core messages of ``messages``, each with the index of the message it came from.

    A user message's text comes before its tool results, so the first part of every message
    is where a cut between messages falls.
    """
    names: dict[str, str] = {}
    parts: list[Part] = []
    for index, message in enumerate(messages):
        blocks = list(message.get("content") or [])
        if message.get("role") == "assistant":
            parts.append(Part(index, _assistant(blocks, names)))
            continue
        text = _text(blocks)
        if text.strip():
            parts.append(Part(index, Message("human", text)))
        for block in blocks:
            result = block.get("toolResult")
            if isinstance(result, Mapping):
                parts.append(Part(index, _tool_result(result, names)))
    return parts


def first_user_text(messages: Iterable[Mapping[str, Any]]) -> str:
    """The text of the first user message that has some (the task, as agents are started)."""
    for message in messages:
        if message.get("role") == "user":
            text = _text(list(message.get("content") or []))
            if text.strip():
                return text
    return ""


def _assistant(blocks: list[Mapping[str, Any]], names: dict[str, str]) -> Message:
    calls: list[str] = []
    ids: list[str] = []
    for block in blocks:
        use = block.get("toolUse")
        if not isinstance(use, Mapping):
            continue
        name = str(use.get("name") or "tool")
        call_id = str(use.get("toolUseId") or "")[:_MAX_ID_CHARS]
        arguments = json.dumps(use.get("input"), sort_keys=True, default=str)
        calls.append(tool_call_line(name, arguments))
        if call_id:
            ids.append(call_id)
            names[call_id] = name
    content = with_tool_calls(_text(blocks), calls) if calls else _text(blocks)
    return Message("ai", content, None, None, tuple(ids[:_MAX_TOOL_CALLS]))


def _tool_result(result: Mapping[str, Any], names: Mapping[str, str]) -> Message:
    call_id = str(result.get("toolUseId") or "")[:_MAX_ID_CHARS] or None
    lines = []
    for item in result.get("content") or []:
        if "text" in item:
            lines.append(str(item["text"]))
        elif "json" in item:
            lines.append(json.dumps(item["json"], sort_keys=True, default=str))
    content = "\n".join(lines)
    if result.get("status") == "error":
        content = f"[tool error] {content}" if content else "[tool error]"
    name = names.get(call_id or "")
    return Message("tool", content, name[:_MAX_ID_CHARS] if name else None, call_id)


def _text(blocks: Iterable[Mapping[str, Any]]) -> str:
    return "\n".join(str(b["text"]) for b in blocks if isinstance(b.get("text"), str))
