"""Text as a reader sees it: the view the PII detector is shown, mapped back onto the text.

Stored text keeps its own characters (canonically composed, nothing else changed); the detector
reads a folded copy in which compatibility forms are plain (full-width ``４１１１`` is ``4111``),
every decimal digit is ASCII, every dash is ``-``, every space-like character is a space, and
invisible characters (zero-width spaces, soft hyphens, joiners, variation selectors, bidi
controls, fillers) are gone. Every character of the view remembers which stored character it
came from, so an entity found in the view is replaced whole in the stored text, invisible
characters inside it included: what is stored is exactly what was scrubbed.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt): drawn as nothing.
_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
# Blank-looking symbols that are not spaces to Unicode (the braille blank).
_BLANKS = frozenset({"\u2800"})
# Dashes of CJK punctuation read as wave marks, not hyphens: left as they are.
_NOT_HYPHENS = frozenset({"\u301c", "\u3030", "\u30a0"})
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")


def _ignorable(char: str) -> bool:
    point = ord(char)
    return any(low <= point <= high for low, high in _IGNORABLE)


@lru_cache(maxsize=4096)
def _fold(char: str) -> str:
    """What one character reads as ("" for an invisible one)."""
    if _ignorable(char) or unicodedata.category(char) == "Cf":
        return ""
    if char in _BLANKS or (unicodedata.category(char) == "Zs"):
        return " "
    if char == "\u2212" or (unicodedata.category(char) == "Pd" and char not in _NOT_HYPHENS):
        return "-"
    if unicodedata.category(char) == "Nd":
        return str(unicodedata.decimal(char))
    folded = unicodedata.normalize("NFKC", char)
    # A compatibility form may itself fold to digits or dashes (e.g. a circled digit does not,
    # a mathematical bold digit does): fold what it became, once more.
    return "".join(_fold(c) if c != char else c for c in folded)


@dataclass(frozen=True, slots=True)
class ReadingForm:
    """``text`` as read (``view``), and for each view character its index in ``text``."""

    text: str
    view: str
    origin: tuple[int, ...]

    def span(self, begin: int, end: int) -> tuple[int, int]:
        """The span of ``text`` that the view's ``[begin, end)`` was read from."""
        if begin >= end:
            return begin, begin
        return self.origin[begin], self.origin[end - 1] + 1


def stored_form(text: str) -> str:
    """``text`` as it is stored: canonically composed (NFC), which changes no character's
    meaning, so the same words always compare and scrub alike.
    """
    return unicodedata.normalize("NFC", text)


def reading_form(text: str) -> ReadingForm:
    """The view of ``text`` a reader sees, with where each of its characters came from."""
    if text.isascii():
        return ReadingForm(text, text, tuple(range(len(text))))
    view: list[str] = []
    origin: list[int] = []
    cursor = 0
    for run in _NON_ASCII.finditer(text):
        view.append(text[cursor : run.start()])
        origin.extend(range(cursor, run.start()))
        for index in range(run.start(), run.end()):
            folded = _fold(text[index])
            view.append(folded)
            origin.extend([index] * len(folded))
        cursor = run.end()
    view.append(text[cursor:])
    origin.extend(range(cursor, len(text)))
    return ReadingForm(text, "".join(view), tuple(origin))
