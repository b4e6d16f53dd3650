"""The one rule for characters that are not ordinary visible text: kept, and shown by name.

Memory keeps what runs wrote, character for character (an export gives it back exactly). What
memory serves to an agent and what it shows a person (the context block, replies, search
results, the review page, the command line) shows every *hidden* character by its code point,
``⟨U+E0061⟩``, so a reviewer sees every character an agent gets and no text can hide, reorder
or erase another: tag characters spelling an instruction, bidi overrides, zero-width joiners,
terminal escapes.

Hidden: controls but tab and line feed (``Cc``), format characters (``Cf``: bidi, tag and
zero-width characters), private use (``Co``), unassigned code points and noncharacters
(``Cn``), surrogates (``Cs``), line and paragraph separators (``Zl``, ``Zp``), and the other
default-ignorable code points of Unicode (variation selectors, fillers; Unicode's
``DerivedCoreProperties.txt``), which render as nothing. A carriage return before a line feed
is part of the line break.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp"})
# Default_Ignorable_Code_Point characters outside the categories above (Unicode 15.1,
# DerivedCoreProperties.txt): a grapheme joiner, fillers, inherent vowels and variation
# selectors. Each renders as nothing, so a run of them can carry text no one sees.
_IGNORABLE = (
    (0x034F, 0x034F),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFFA0, 0xFFA0),
    (0xE0100, 0xE01EF),
)
LINE_BREAK_SIGN = " ⏎ "


def is_hidden(char: str) -> bool:
    """Whether ``char`` is not ordinary visible text (see the module's rule)."""
    if char in "\t\n":
        return False
    code = ord(char)
    if unicodedata.category(char) in _HIDDEN_CATEGORIES:
        return True
    return any(low <= code <= high for low, high in _IGNORABLE)


def name(char: str) -> str:
    """How a hidden character is shown: ``⟨U+200B⟩``."""
    return f"⟨U+{ord(char):04X}⟩"


class _Table(dict[int, int | str]):
    """A ``str.translate`` table filled as characters are met: each code point is classified
    once per process, then translated at C speed.
    """

    def __init__(self, hidden_as: Any) -> None:
        super().__init__()
        self._hidden_as = hidden_as

    def __missing__(self, code: int) -> int | str:
        char = chr(code)
        value: int | str = self._hidden_as(char) if is_hidden(char) else code
        self[code] = value
        return value


def _json_escape(char: str) -> str:
    return json.dumps(char)[1:-1]


_SHOWN = _Table(name)
_PRINTABLE_ASCII = re.compile(r"[\t\n\x20-\x7e]*")
_JSON = _Table(_json_escape)


def shown(text: str) -> str:
    """``text`` with each hidden character shown by name (line feeds and tabs kept)."""
    if _PRINTABLE_ASCII.fullmatch(text):  # most stored text: nothing to look up
        return text
    return text.replace("\r\n", "\n").translate(_SHOWN)


def one_line(text: str) -> str:
    """:func:`shown` ``text`` on one line: each line break shown as :data:`LINE_BREAK_SIGN`."""
    return shown(text).replace("\n", LINE_BREAK_SIGN)


def has_hidden(text: str) -> bool:
    """Whether ``text`` holds a hidden character."""
    return shown(text) != text.replace("\r\n", "\n")


def json_text(value: Any, **options: Any) -> str:
    r"""``value`` as JSON whose strings keep every character exactly, hidden ones as ``\uXXXX``
    escapes (JSON writes its structure in ASCII, so only string contents change form).
    """
    return json.dumps(value, ensure_ascii=False, **options).translate(_JSON)
