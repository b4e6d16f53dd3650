"""What a bootstrap reply serves: its context block's size in tokens, and which units it holds.

Recall of what is served asks whether an evidence unit is inside the block the agent receives,
not merely somewhere in a ranked list. A reply's ``episodes`` list mirrors its block (both are
rendered from the same trimmed selection), so a unit is served when it is listed there and its
moment line is in the block (read with the block's legend of short forms, as its units keep
their pseudonyms in full). Tokens are counted with the embedding model's own tokenizer
(all-MiniLM-L6-v2's WordPiece, no special tokens): the figure is the block's size, not any
particular chat model's count.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from agent_memory.core.privacy.aliases import expanded

# The block shows a moment whole, or a window of it (core/tiers/episodic.py MOMENT_CHARS, 300
# characters) where the task's words are: some 60-character piece of it, taken every 20
# characters, is inside the block when its line is.
_PROBE_CHARS = 60
_PROBE_STEP = 20


class TokenCounter(Protocol):
    def count_tokens(self, text: str) -> int: ...


@dataclass(frozen=True, slots=True)
class Served:
    """The units a reply serves, as ``(run_id, seq)`` of message units, and the block's size."""

    units: frozenset[tuple[str, int]]
    runs: tuple[str, ...]
    tokens: int
    chars: int


def served(reply: Mapping[str, Any], counter: TokenCounter) -> Served:
    """The message units inside ``reply``'s context block, its runs best first, its size."""
    context = str(reply.get("context") or "")
    # The block names people by short forms its legend declares; units keep pseudonyms.
    flat = " ".join(expanded(context).split())
    units: set[tuple[str, int]] = set()
    runs: list[str] = []
    for episode in reply.get("episodes") or ():
        runs.append(str(episode["run_id"]))
        for unit in episode.get("units") or ():
            if unit.get("kind") != "message":
                continue
            if _shown(" ".join(str(unit["text"]).split()), flat):
                units.add((str(episode["run_id"]), int(unit["seq"])))
    return Served(
        frozenset(units), tuple(runs), counter.count_tokens(context) if context else 0, len(context)
    )


def _shown(text: str, block: str) -> bool:
    """Whether some part of ``text`` (a piece of ``_PROBE_CHARS``) is inside ``block``."""
    if len(text) <= _PROBE_CHARS:
        return bool(text) and text in block
    last = len(text) - _PROBE_CHARS
    starts = [*range(0, last, _PROBE_STEP), last]
    return any(text[at : at + _PROBE_CHARS] in block for at in starts)
