"""How a message's parts read as the one text the core keeps: content parts and tool calls.

Agents log messages in their framework's shape (OpenAI's content parts and tool-call objects,
LangChain's content blocks and ``tool_calls``); every surface turns them into text here, so a
tool call reads the same whichever framework made it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def parts_text(parts: Iterable[str | Mapping[str, Any]]) -> str:
    """The text of a list of content parts: strings and ``{"type": "text", "text": ...}``
    blocks, in order; parts of other types (images, audio, files) carry no text and are left
    out.
    """
    return "".join(
        part if isinstance(part, str) else str(part.get("text") or "")
        for part in parts
        if isinstance(part, str) or part.get("type") == "text"
    )


def tool_call_line(name: str, arguments: str) -> str:
    """One tool call as the text of the message that made it."""
    return f"[tool call] {name} {arguments}"


def with_tool_calls(content: str, calls: Iterable[str]) -> str:
    """``content`` followed by its tool-call lines (only the lines when it is blank)."""
    lines = list(calls)
    return "\n".join([content, *lines] if content.strip() else lines)
