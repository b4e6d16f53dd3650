"""Short forms of a memory context's pseudonyms: ``[NAME-1]`` for ``[NAME-3f9a1c0b2d]``.

A keyed pseudonym (:class:`~agent_memory.core.privacy.scrubbing.Pseudonyms`) costs 11 tokens
of a WordPiece vocabulary wherever it appears, and in a memory of conversations between people
it appears on nearly every line: a quarter of a LoCoMo block's tokens. Within one block a
number tells the people apart as well as the digest does, for 5 tokens. The block says once
which pseudonym each number stands for, so a reader can still match them with the stored
records, search results and other replies, where names keep their pseudonyms.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

from agent_memory.core.model.markers import QUOTE, Line

# What Pseudonyms.label writes: the entity type and 10 hex digits of a keyed digest.
PSEUDONYM = re.compile(r"\[([A-Z][A-Z_]*)-([0-9a-f]{10})\]")
_SHORT = re.compile(r"\[([A-Z][A-Z_]*)-([0-9]+)\]")
LEGEND = "Pseudonyms, shortened here: "
# A short form saves 6 tokens a use, and its declaration ("[NAME-1] is [NAME-3f9a1c0b2d]; ")
# costs 18: it pays from the fourth use.
MIN_USES = 4
_PAIR = re.compile(rf"(?P<short>{_SHORT.pattern}) is (?P<full>{PSEUDONYM.pattern})")


def shortened(text: str) -> str:
    """``text`` with each pseudonym replaced by a short form's stand-in of one digit: as long
    as the block will show it (to a character past the ninth of a type).
    """
    return PSEUDONYM.sub(lambda m: f"[{m.group(1)}-0]", text)


def without_pseudonyms(text: str) -> str:
    """``text`` with its pseudonyms taken out (their digests are no words to match)."""
    return PSEUDONYM.sub(" ", text)


class Aliases:
    """Short forms for the pseudonyms of one block.

    Text is shortened as it is laid out (``alias(text)``), before a long line is cut to what
    the block shows of it; :meth:`finish` then numbers the short forms the finished lines
    show, in the order they first appear, and writes the legend of those alone. A number some
    stored text already uses in a short form (a message may say ``[NAME-1]``) is never given,
    so a short form in the block means one thing.
    """

    def __init__(self, texts: Iterable[str] = ()) -> None:
        self._taken = {(m.group(1), int(m.group(2))) for t in texts for m in _SHORT.finditer(t)}
        self._drafts: dict[str, str] = {}  # pseudonym -> its short form while laying out
        self._last: dict[str, int] = {}

    def __call__(self, text: str) -> str:
        """``text`` with each pseudonym in a draft short form (renumbered by :meth:`finish`)."""
        return PSEUDONYM.sub(lambda m: self._draft(m.group(0), m.group(1)), text)

    def _draft(self, pseudonym: str, kind: str) -> str:
        draft = self._drafts.get(pseudonym)
        if draft is None:
            draft = self._drafts[pseudonym] = self._next(kind, self._last)
        return draft

    def _next(self, kind: str, last: dict[str, int]) -> str:
        """The short form of the first number of ``kind`` past ``last``'s that no stored text
        uses; ``last`` moves to it.
        """
        number = last.get(kind, 0) + 1
        while (kind, number) in self._taken:
            number += 1
        last[kind] = number
        return f"[{kind}-{number}]"

    def finish(self, lines: Sequence[str]) -> tuple[list[str], Line | None]:
        """``lines`` (the stored texts a block shows) with the short forms they show numbered in
        order of appearance, and the line that says what each stands for (None when they show
        none).

        A pseudonym the lines show fewer than :data:`MIN_USES` times is shown in full, as its
        declaration would cost more than its short form saves.
        """
        pseudonym_of = {draft: pseudonym for pseudonym, draft in self._drafts.items()}
        uses = Counter(m.group(0) for line in lines for m in _SHORT.finditer(line))
        final: dict[str, str] = {}  # draft -> what the block shows
        last: dict[str, int] = {}

        def renumber(match: re.Match[str]) -> str:
            draft = match.group(0)
            if draft not in pseudonym_of:  # stored text's own short form
                return draft
            if draft not in final:
                short = uses[draft] >= MIN_USES
                final[draft] = self._next(match.group(1), last) if short else pseudonym_of[draft]
            return final[draft]

        shown = [_SHORT.sub(renumber, line) for line in lines]
        pairs = "; ".join(
            f"{short} is {pseudonym_of[draft]}"
            for draft, short in final.items()
            if short != pseudonym_of[draft]
        )
        return shown, Line(LEGEND, pairs) if pairs else None


def expanded(block: str) -> str:
    """``block`` with the short forms its legend declares back in full, as a reader of the
    legend would read them (unchanged when it has no legend). The legend is the block's first
    quoted line: no stored text can begin a line (``markers.Line``), so none can declare a
    short form.
    """
    lines = block.splitlines()
    at = _legend_at(lines)
    if at is None:
        return block
    full = {m["short"]: m["full"] for m in _PAIR.finditer(lines[at])}
    return "\n".join(
        line if i == at else _SHORT.sub(lambda m: full.get(m.group(0), m.group(0)), line)
        for i, line in enumerate(lines)
    )


def in_full(block: str) -> str:
    """``block`` :func:`expanded`, without its legend: each line reads alone."""
    lines = expanded(block).splitlines()
    at = _legend_at(lines)
    return block if at is None else "\n".join(lines[:at] + lines[at + 1 :])


def _legend_at(lines: Sequence[str]) -> int | None:
    at = next((i for i, line in enumerate(lines) if line.startswith(QUOTE)), None)
    return at if at is not None and lines[at].startswith(QUOTE + LEGEND) else None
