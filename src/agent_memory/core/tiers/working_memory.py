"""Working memory inside a run: compress old messages once the list grows."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

from agent_memory.core.model import markers
from agent_memory.core.model.models import Message
from agent_memory.core.model.policies import WorkingMemoryPolicy
from agent_memory.core.model.visible import one_line
from agent_memory.core.ports import ChatModel

Summarize = Callable[[Sequence[Message]], str]

SUMMARY_PROMPT = """Summarize these agent messages into a compact working-memory record.
Include: decisions made, tools called and their results, key findings, and anything the agent
needs to continue its work. Discard: failed attempts, repetitive reasoning, tool errors that were
resolved. Plain text, at most 300 words."""


def maybe_compress(
    messages: Sequence[Message],
    summarize: Summarize,
    policy: WorkingMemoryPolicy = WorkingMemoryPolicy(),
) -> list[Message]:
    """Replace the oldest messages by one summary once there are ``compress_at`` or more.

    System messages stay, then one summary message, then the last ``keep_recent`` non-system
    messages verbatim. The cut moves earlier rather than separate a tool result from the AI
    message that called the tool. A summary from an earlier compression is folded into the new
    one instead of piling up.
    """
    if len(messages) < policy.compress_at:
        return list(messages)
    system = [m for m in messages if m.role == "system" and not _is_summary(m)]
    earlier_summaries = [m for m in messages if _is_summary(m)]
    rest = [m for m in messages if m.role != "system"]
    cutoff = _safe_cutoff(rest, len(rest) - policy.keep_recent)
    if cutoff <= 0:
        return list(messages)
    summary = summarize([*earlier_summaries, *rest[:cutoff]])
    return [*system, summary_message(summary), *rest[cutoff:]]


def summary_message(summary: str) -> Message:
    """The system message holding a working-memory summary, quoted in a block of its own.

    The block's token is a digest of the summary: the same summary always makes the same
    message (a prompt cache keeps it), and no text can contain the digest of itself.
    """
    token = hashlib.sha256(summary.encode()).hexdigest()[: markers.TOKEN_HEX_CHARS]
    return Message("system", markers.render_text(markers.WORKING_SUMMARY, summary, token))


def summary_text(message: Message) -> str | None:
    """The summary a message made by :func:`summary_message` holds; None for any other."""
    if message.role != "system" or not message.content.startswith(f"[{markers.WORKING_SUMMARY} "):
        return None
    try:
        parsed = markers.parse(message.content)
    except ValueError:
        return None
    if parsed.kind != markers.WORKING_SUMMARY:
        return None
    return "\n".join(line for section in parsed.sections for line in section.lines)


def _is_summary(message: Message) -> bool:
    return summary_text(message) is not None


def _safe_cutoff(messages: Sequence[Message], cutoff: int) -> int:
    """The largest index <= ``cutoff`` such that no tool call and its results straddle it."""
    issuer = _tool_issuers(messages)
    moved = True
    while moved and cutoff > 0:
        # Moving the cut can pull in tool results whose call is earlier still: repeat.
        kept = range(cutoff, len(messages))
        earliest = min((issuer.get(i, cutoff) for i in kept), default=cutoff)
        moved = earliest < cutoff
        cutoff = earliest
    return max(cutoff, 0)


def _tool_issuers(messages: Sequence[Message]) -> dict[int, int]:
    """For each tool message, the index of the AI message whose call it answers."""
    call_owner: dict[str, int] = {}
    issuer: dict[int, int] = {}
    last_ai = -1
    for index, message in enumerate(messages):
        if message.role == "ai":
            last_ai = index
            for call_id in message.tool_calls:
                call_owner[call_id] = index
        elif message.role == "tool":
            owner = call_owner.get(message.tool_call_id or "", last_ai)
            if owner >= 0:
                issuer[index] = owner
    return issuer


def transcript(messages: Sequence[Message], *, max_chars: int = 24_000) -> str:
    """Messages as ``role(name): content`` lines within a character budget, one line each
    (line breaks shown as a sign, hidden characters by name: ``core/model/visible.py``).

    The first human message (the task) and the most recent messages are kept; the middle is
    elided, because that is where an over-long run says least.
    """
    lines = [_line(m) for m in messages]
    if sum(len(line) + 1 for line in lines) <= max_chars:
        return "\n".join(lines)
    per_line = max(200, max_chars // 40)
    lines = [line[:per_line] for line in lines]
    head = next((i for i, m in enumerate(messages) if m.role == "human"), 0)
    kept, budget = [lines[head]], max_chars - len(lines[head])
    tail: list[str] = []
    for line in reversed(lines[head + 1 :]):
        if budget - len(line) - 1 < 0:
            break
        tail.append(line)
        budget -= len(line) + 1
    return "\n".join([*kept, "... (earlier messages elided) ...", *reversed(tail)])


def _line(message: Message) -> str:
    # One message, one line: a message's own line breaks cannot write a line that reads as
    # another speaker's (the block's rule, core/model/markers.py).
    who = f"{message.role}({one_line(message.name)})" if message.name else message.role
    return f"{who}: {one_line(message.content)}"


def chat_summarizer(chat: ChatModel) -> Summarize:
    """A summarizer backed by a (small, cheap) chat model."""

    def summarize(messages: Sequence[Message]) -> str:
        return chat.complete(SUMMARY_PROMPT, transcript(messages))

    return summarize


def extractive_summary(messages: Sequence[Message], *, max_chars: int = 2_000) -> str:
    """A summarizer with no model: the tools called and the last words of each speaker.

    Deterministic and cheap; it keeps what a later step most often needs (which tools ran and
    what they returned) rather than paraphrasing.
    """
    tools = list(dict.fromkeys(m.name for m in messages if m.role == "tool" and m.name))
    # An earlier summary leads: its content is older than every message after it.
    lines = [text for m in messages if (text := summary_text(m)) is not None]
    if tools:
        lines.append(f"Tools called: {', '.join(tools)}.")
    for message in messages:
        if message.role in {"human", "ai", "tool"} and message.content.strip():
            first = message.content.strip().splitlines()[0][:200]
            lines.append(f"- {_line(Message(message.role, first, message.name))}")
    text = "\n".join(lines)
    return text if len(text) <= max_chars else text[: max_chars - 3] + "..."
