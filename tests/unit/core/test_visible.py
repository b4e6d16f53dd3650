"""The one rule for hidden characters: memory shows each by name, and keeps it exactly."""

from __future__ import annotations

import json
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent_memory.core.model.visible import (
    LINE_BREAK_SIGN,
    has_hidden,
    is_hidden,
    json_text,
    one_line,
    shown,
)

HIDDEN_CATEGORIES = ["Cc", "Cf", "Co", "Cn", "Zl", "Zp"]
# Any text, weighted toward the characters the rule is about.
TEXT = st.text(
    st.one_of(
        st.characters(codec="utf-8"),
        st.characters(categories=HIDDEN_CATEGORIES),
        st.characters(min_codepoint=0xE0000, max_codepoint=0xE01EF),
        st.sampled_from("\r\n\t\u2028\x85\x1b\u200d\ufe0f\u3164"),
    )
)


@given(TEXT)
def test_what_is_shown_holds_no_hidden_character(text: str) -> None:
    assert not any(is_hidden(c) for c in shown(text))
    assert not has_hidden(shown(text))


@given(TEXT)
def test_showing_twice_shows_the_same(text: str) -> None:
    assert shown(shown(text)) == shown(text)


@given(st.text(st.characters(codec="utf-8", exclude_categories=HIDDEN_CATEGORIES)))
def test_visible_text_is_shown_as_it_is(text: str) -> None:
    # (a default-ignorable character outside those categories is named too)
    visible = "".join(c for c in text if not is_hidden(c))
    assert shown(visible) == visible.replace("\r\n", "\n")


@given(TEXT)
def test_each_hidden_character_is_named_in_its_place(text: str) -> None:
    # Given any text, when it is shown, then reading the names back gives the text (CRLF as LF)
    read = shown(text)
    for char in {c for c in text if is_hidden(c)}:
        read = read.replace(f"⟨U+{ord(char):04X}⟩", char)
    assert read == text.replace("\r\n", "\n")


@given(TEXT)
def test_one_line_is_one_line(text: str) -> None:
    assert len(one_line(text).splitlines()) <= 1


def test_a_line_break_is_shown_as_a_sign() -> None:
    assert one_line("a\nb\r\nc") == f"a{LINE_BREAK_SIGN}b{LINE_BREAK_SIGN}c"


@given(st.recursive(st.none() | TEXT, lambda inner: st.lists(inner) | st.dictionaries(TEXT, inner)))
def test_json_keeps_every_character_and_shows_none_hidden(value: object) -> None:
    text = json_text(value)
    assert json.loads(text) == value
    assert not has_hidden(text)


@pytest.mark.parametrize(
    "char",
    [
        "\x1b",  # escape: ESC[2K erases a terminal line
        "\r",  # returns to the line's start, to overwrite it
        "\x08",  # backspace
        "\x9b",  # the one-byte CSI of C1
        "\u202e",  # right-to-left override
        "\u2066",  # left-to-right isolate
        "\u200b",  # zero-width space
        "\u200d",  # zero-width joiner
        "\u00ad",  # soft hyphen
        "\ufeff",  # byte order mark
        "\U000e0061",  # tag letter a
        "\ue000",  # private use
        "\U0010fffd",  # private use, plane 16
        "\u0378",  # unassigned
        "\uffff",  # noncharacter
        "\u2028",  # line separator
        "\u2029",  # paragraph separator
        "\ufe0f",  # variation selector 16
        "\U000e0100",  # variation selector 17
        "\u3164",  # Hangul filler
        "\u034f",  # combining grapheme joiner
    ],
)
def test_characters_that_show_nothing_are_hidden(char: str) -> None:
    assert is_hidden(char) and shown(f"a{char}b") == f"a⟨U+{ord(char):04X}⟩b"


@pytest.mark.parametrize("char", ["\t", "\n", " ", "\u00a0", "\u3000", "é", "漢", "\u0301", "😀"])
def test_ordinary_text_is_not_hidden(char: str) -> None:
    assert not is_hidden(char), unicodedata.name(char, repr(char))
