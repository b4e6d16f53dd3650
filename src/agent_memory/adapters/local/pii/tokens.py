"""Words of a text as the name recogniser sees them: offsets, folded form and letter case."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from agent_memory.adapters.local.pii import lexicon as lx

_TOKEN = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*(?:-[^\W\d_]+(?:['’][^\W\d_]+)*)*")
_POSSESSIVE = ("'s", "’s", "'S", "’S")
_CONTRACTION = re.compile(r"['’](?:ve|m|re|ll|d|t)$", re.I)
_INNER_CAPITAL = re.compile(r"(?<=[^\W\d_])(?<![A-Z])[A-Z]")
_CAPITALISED_PREFIXES = lx.words("mc mac de di da la le van von du fitz st")
_BARE_INITIAL = re.compile(r"[^\W\d_] [B-HJ-Z] [^\W\d_a-z]")
_CODE_BEFORE = frozenset("`@/\\#_<")
_CODE_AFTER = frozenset("`/\\_>")


@dataclass(frozen=True, slots=True)
class Token:
    """One word; a possessive "'s" is left out of ``end`` and flagged."""

    start: int
    end: int
    key: str  # folded: lowercase, no accents or apostrophes
    shape: str  # "cap", "caps", "lower", "initial" or "other"
    possessive: bool = False


def tokenise(text: str) -> Iterator[Token]:
    """The words of ``text`` in order."""
    for match in _TOKEN.finditer(text):
        start, end = match.span()
        word = match.group()
        possessive = word.endswith(_POSSESSIVE) and len(word) > 2
        if possessive:
            end -= 2
            word = word[:-2]
        next_char = text[end : end + 1]
        prev_char = text[start - 1 : start] if start else ""
        # Code, handles and paths: "`Len`", "@Viicos", "github.com/Viicos".
        in_code = next_char in _CODE_AFTER or prev_char in _CODE_BEFORE
        shape = "other" if in_code or _CONTRACTION.search(word) else _shape(word, next_char)
        if (
            shape == "other"
            and end - start == 1
            and _BARE_INITIAL.fullmatch(text, max(0, start - 2), end + 2)
        ):
            shape = "initial"  # "Anneke T Visser": a middle initial without its full stop
        yield Token(start, end, lx.fold(word), shape, possessive)


def _shape(word: str, next_char: str) -> str:
    if next_char == "(":
        return "other"  # a function call in code: "Len(3)"
    if len(word) == 1:
        if word.isupper():
            return "initial" if next_char == "." else "other"
        return "lower" if word.islower() else "other"
    if word.isupper():
        return "caps"
    if word[:2].isalpha() and word[:2].isupper():
        return "other"  # "APIs", "IPython"
    if word[0].isupper():
        return "cap" if _name_cased(word) else "other"
    return "lower" if word.islower() else "other"


def _name_cased(word: str) -> bool:
    """Capitals only where names have them: "McDonald", "O'Neil", "Jean-Luc", not "LangChain",
    "NaN" or "GIL-free".
    """
    for n, part in enumerate(re.split(r"[-'’]", word)):
        # Later parts may be lowercase: "Min-jun".
        if not part or (len(part) > 1 and part.isupper()) or (n == 0 and not part[0].isupper()):
            return False
        inner = _INNER_CAPITAL.search(part)
        if inner and part[: inner.start()].casefold() not in _CAPITALISED_PREFIXES:
            return False
    return True
