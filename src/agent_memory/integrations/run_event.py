"""The messages of a RunFinished event, whichever framework's messages they came from.

Framework-free: every integration converts its framework's messages to the core's ``Message``
and hands them here to become the event's ``messages``, within the size an event may have.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from agent_memory.core.api.contracts import MAX_MESSAGE_CHARS, MAX_MESSAGES
from agent_memory.core.model.models import Message
from agent_memory.sdk.bounds import plain
from agent_memory.sdk.events import MAX_ENTRY_BYTES

__all__ = ["EVENT_BUDGET", "fit_messages", "message_json"]

# Room left in a PutEvents entry for its Source and DetailType.
EVENT_BUDGET = MAX_ENTRY_BYTES - 4_096


def message_json(message: Message) -> dict[str, Any]:
    """A core ``Message`` as a message of the RunFinished contract."""
    data: dict[str, Any] = {"role": message.role, "content": message.content[:MAX_MESSAGE_CHARS]}
    if message.name:
        data["name"] = message.name
    if message.tool_call_id:
        data["tool_call_id"] = message.tool_call_id
    if message.tool_calls:
        data["tool_calls"] = list(message.tool_calls)
    return data


def fit_messages(
    messages: list[dict[str, Any]], detail: Mapping[str, Any], budget: int = EVENT_BUDGET
) -> list[dict[str, Any]]:
    """The messages an event can carry: up to the first human one (the task), and the most
    recent ones that fit, within ``MAX_MESSAGES`` and ``budget`` bytes of JSON with the rest of
    the event; what still does not fit is cut. The rest of the event (the caller's fields) is
    read within an event's bounds first: ``InvalidInputError`` naming a field that no event can
    hold.
    """

    def size(value: object) -> int:
        # A lone surrogate is measured here and refused, naming its field, when it is sent.
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
        return len(text.encode("utf-8", "surrogatepass")) + 1

    rest = plain({k: v for k, v in detail.items() if k != "messages"})
    head = next((i for i, m in enumerate(messages) if m["role"] == "human"), 0)
    prefix, tail = messages[: head + 1], messages[head + 1 :]
    room = budget - size(rest) - 16
    total = sum(size(m) for m in messages)
    dropped = 0
    while dropped < len(tail) - 1 and (
        total > room or len(prefix) + len(tail) - dropped > MAX_MESSAGES
    ):
        total -= size(tail[dropped])
        dropped += 1
    kept = [*prefix, *tail[dropped:]][-MAX_MESSAGES:]
    if total > room:
        share = max(200, room // (2 * len(kept)))
        kept = [{**m, "content": m["content"][:share]} for m in kept]
    return kept
