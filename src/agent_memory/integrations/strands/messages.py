"""Strands messages as the core's ``Message``: roles, text, tool uses and tool results.

A Strands message is ``{"role": "user" | "assistant", "content": [block, ...]}``. An assistant
message becomes one ``ai`` message: its text, then one line per ``toolUse`` (the same
``[tool call] name {...}`` line every surface writes), with the tool-use ids as its calls. A
user message becomes a ``human`` message for its text, then one ``tool`` message per
``toolResult`` (answering its ``toolUseId``, named for the tool that was called). Reasoning,
images, documents and other blocks without text are left out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agent_memory.core.api.contracts import MAX_MESSAGE_CHARS
from agent_memory.core.api.message_text import tool_call_line, with_tool_calls
from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.model.models import Message
from agent_memory.sdk.bounds import json_text, listed, text_of
from agent_memory.sdk.errors import invalid

__all__ = ["Part", "ends_with_answer", "first_user_text", "message_parts", "to_core_messages"]

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
    is where a cut between messages falls. What is read is read within bounds: a message,
    block or tool use that is not what Strands holds there, or a tool's input or JSON result
    nested past 64 levels or holding itself, raises ``InvalidInputError`` naming it
    (``messages[3].content[0].toolUse.input``); a tool's input and JSON result are written as
    JSON cut where a message is, so one of any size costs no more. Blocks without text
    (images, documents, reasoning) are not read.
    """
    names: dict[str, str] = {}
    parts: list[Part] = []
    for index, message in enumerate(_messages(messages)):
        field = f"messages[{index}]"
        blocks = _blocks(message, field)
        if _role(message, field) == "assistant":
            parts.append(Part(index, _assistant(blocks, names, field)))
            continue
        text = _text(blocks)
        if text.strip():
            parts.append(Part(index, Message("human", text)))
        for number, block in enumerate(blocks):
            result = dict.get(block, "toolResult")
            if result is not None:
                at = f"{field}.content[{number}].toolResult"
                parts.append(Part(index, _tool_result(_object(result, at), names, at)))
    return parts


def first_user_text(messages: Iterable[Mapping[str, Any]]) -> str:
    """The text of the first user message that has some (the task, as agents are started)."""
    for index, message in enumerate(_messages(messages)):
        field = f"messages[{index}]"
        if _role(message, field) == "user":
            text = _text(_blocks(message, field))
            if text.strip():
                return text
    return ""


def ends_with_answer(messages: Sequence[Mapping[str, Any]]) -> bool:
    """Whether the last message is the model's answer: an assistant message with text and no
    tool use.
    """
    listed_ = _messages(messages)
    if not listed_:
        return False
    field = f"messages[{len(listed_) - 1}]"
    last = listed_[-1]
    if _role(last, field) != "assistant":
        return False
    blocks = _blocks(last, field)
    if any(dict.__contains__(b, "toolUse") for b in blocks):
        return False
    return bool(_text(blocks).strip())


def _messages(messages: object) -> list[dict[str, Any]]:
    return [
        _object(m, f"messages[{i}]")
        for i, m in enumerate(listed(messages, "messages", "a list of Strands messages"))
    ]


def _object(value: object, field: str) -> dict[str, Any]:
    """A message, block or part: an object (a dict; no other mapping's methods are run)."""
    if not issubclass(type(value), dict):
        raise invalid(InvalidInput(field, f"must be an object, not {type(value).__name__}"))
    return value  # type: ignore[return-value]


def _role(message: dict[str, Any], field: str) -> str:
    # Strands' roles are user and assistant; a message naming none is read as the user's.
    return _optional_text(dict.get(message, "role"), f"{field}.role") or "user"


def _blocks(message: dict[str, Any], field: str) -> list[dict[str, Any]]:
    content = dict.get(message, "content")
    if content is None:
        return []
    at = f"{field}.content"
    return [
        _object(block, f"{at}[{i}]")
        for i, block in enumerate(listed(content, at, "a list of content blocks"))
    ]


def _assistant(blocks: list[dict[str, Any]], names: dict[str, str], field: str) -> Message:
    calls: list[str] = []
    ids: list[str] = []
    for number, block in enumerate(blocks):
        use = dict.get(block, "toolUse")
        if use is None:
            continue
        at = f"{field}.content[{number}].toolUse"
        use = _object(use, at)
        name = _optional_text(dict.get(use, "name"), f"{at}.name") or "tool"
        call_id = (_optional_text(dict.get(use, "toolUseId"), f"{at}.toolUseId") or "")[
            :_MAX_ID_CHARS
        ]
        arguments = json_text(dict.get(use, "input"), f"{at}.input", limit=MAX_MESSAGE_CHARS)
        calls.append(tool_call_line(name, arguments))
        if call_id:
            ids.append(call_id)
            names[call_id] = name
    content = with_tool_calls(_text(blocks), calls) if calls else _text(blocks)
    return Message("ai", content, None, None, tuple(ids[:_MAX_TOOL_CALLS]))


def _tool_result(result: dict[str, Any], names: Mapping[str, str], field: str) -> Message:
    call_id = (_optional_text(dict.get(result, "toolUseId"), f"{field}.toolUseId") or "")[
        :_MAX_ID_CHARS
    ] or None
    lines = []
    items = dict.get(result, "content")
    at = f"{field}.content"
    for i, item in enumerate([] if items is None else listed(items, at, "a list of parts")):
        part = _object(item, f"{at}[{i}]")
        if dict.__contains__(part, "text"):
            lines.append(text_of(dict.get(part, "text"), f"{at}[{i}].text"))
        elif dict.__contains__(part, "json"):
            lines.append(
                json_text(dict.get(part, "json"), f"{at}[{i}].json", limit=MAX_MESSAGE_CHARS)
            )
    content = "\n".join(lines)
    if _optional_text(dict.get(result, "status"), f"{field}.status") == "error":
        content = f"[tool error] {content}" if content else "[tool error]"
    name = names.get(call_id or "")
    return Message("tool", content, name[:_MAX_ID_CHARS] if name else None, call_id)


def _optional_text(value: object, field: str) -> str | None:
    return None if value is None else text_of(value, field)


def _text(blocks: Iterable[dict[str, Any]]) -> str:
    texts = (dict.get(b, "text") for b in blocks)
    return "\n".join(str.__str__(t) for t in texts if issubclass(type(t), str))
