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
from collections.abc import Iterable

from agent_memory.core.model.markers import QUOTE

# What Pseudonyms.label writes: the entity type and 10 hex digits of a keyed digest.
PSEUDONYM = re.compile(r"\[([A-Z][A-Z_]*)-([0-9a-f]{10})\]")
_SHORT = re.compile(r"\[([A-Z][A-Z_]*)-([0-9]+)\]")
_LEGEND = "Pseudonyms, shortened here: "
_PAIR = re.compile(rf"({_SHORT.pattern}) is ({PSEUDONYM.pattern})")


def shortened(text: str) -> str:
    """``text`` with each pseudonym replaced by a short form's stand-in of one digit: as long
    as the block will show it (to a character past the ninth of a type).
    """
    return PSEUDONYM.sub(lambda m: f"[{m.group(1)}-0]", text)


def without_pseudonyms(text: str) -> str:
    """``text`` with its pseudonyms taken out (their digests are no words to match)."""
    return PSEUDONYM.sub(" ", text)


class Aliases:
    """Numbers each distinct pseudonym of a block in the order the block first shows it.

    A number some text already uses in a short form (a stored message may say ``[NAME-1]``)
    is skipped, so a short form in the block means one thing.
    """

    def __init__(self, texts: Iterable[str] = ()) -> None:
        self._taken = {(m.group(1), int(m.group(2))) for t in texts for m in _SHORT.finditer(t)}
        self._aliases: dict[str, str] = {}
        self._counts: dict[str, int] = {}

    def __call__(self, text: str) -> str:
        """``text`` with each pseudonym in its short form (numbered on first sight)."""
        return PSEUDONYM.sub(lambda m: self._alias(m.group(0), m.group(1)), text)

    def _alias(self, pseudonym: str, kind: str) -> str:
        alias = self._aliases.get(pseudonym)
        if alias is None:
            number = self._counts.get(kind, 0) + 1
            while (kind, number) in self._taken:
                number += 1
            self._counts[kind] = number
            alias = self._aliases[pseudonym] = f"[{kind}-{number}]"
        return alias

    def legend(self) -> str | None:
        """The line that says what each short form stands for (None when none was used)."""
        if not self._aliases:
            return None
        pairs = "; ".join(f"{alias} is {full}" for full, alias in self._aliases.items())
        return f"{_LEGEND}{pairs}"


def expanded(block: str) -> str:
    """``block`` with the short forms its legend declares back in full, as a reader of the
    legend would read them (unchanged when it has no legend). The legend is the block's first
    quoted line: no stored text can be that line, so none can declare a short form.
    """
    lines = block.splitlines()
    first = next((line for line in lines if line.startswith(QUOTE)), "")
    if not first.startswith(QUOTE + _LEGEND):
        return block
    full = {m.group(1): m.group(4) for m in _PAIR.finditer(first)}
    return "\n".join(
        line if line is first else _SHORT.sub(lambda m: full.get(m.group(0), m.group(0)), line)
        for line in lines
    )
