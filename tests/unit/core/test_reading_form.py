"""The reading form: what the PII detector is shown, and how its finds map back to stored text."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from agent_memory.adapters.local.pii import LocalPiiDetector
from agent_memory.core.privacy.reading_form import reading_form, stored_form
from agent_memory.core.privacy.scrubbing import Pseudonyms, scrub_texts

# Characters that change how text reads without showing, or show as something plainer.
DISGUISES = [
    "\u200b",  # zero-width space
    "\u200c",  # zero-width non-joiner
    "\u2060",  # word joiner
    "\u00ad",  # soft hyphen
    "\u034f",  # combining grapheme joiner
    "\ufe00",  # variation selector
    "\u202e",  # right-to-left override
    "\ufeff",  # byte-order mark
]


def test_ascii_text_is_its_own_reading_form() -> None:
    form = reading_form("card 4111 1111 1111 1111, mail a@b.example")
    assert form.view == form.text and form.span(5, 24) == (5, 24)


def test_invisible_characters_are_not_read() -> None:
    form = reading_form("4111\u200b1111\u00ad1111\u20601111")
    assert form.view == "4111111111111111"


def test_look_alike_digits_dashes_and_spaces_read_plain() -> None:
    # Given full-width digits, an en dash, a no-break and a narrow no-break space
    form = reading_form("\uff15\uff13\uff16\u201390\u20124399\u00a0at\u202f\u0664\u0662")
    # Then they read as ASCII digits, hyphens and spaces
    assert form.view == "536-90-4399 at 42"


@given(st.text())
def test_every_character_read_comes_from_the_stored_text_in_order(text: str) -> None:
    form = reading_form(text)
    assert len(form.origin) == len(form.view)
    assert list(form.origin) == sorted(form.origin)
    assert all(0 <= i < len(text) for i in form.origin)


@given(
    st.text(alphabet=st.characters(codec="utf-8"), max_size=30),
    st.lists(st.sampled_from(DISGUISES), min_size=1, max_size=6),
)
def test_no_invisible_character_survives_into_the_view(text: str, hidden: list[str]) -> None:
    form = reading_form("".join(c + h for c, h in zip(text + "x" * 6, hidden, strict=False)))
    assert not any(c in form.view for c in DISGUISES)


@given(st.sampled_from(DISGUISES), st.integers(min_value=1, max_value=15))
def test_a_card_split_by_an_invisible_character_is_scrubbed_whole(hidden: str, at: int) -> None:
    card = "4111111111111111"
    text = f"pay with {card[:at]}{hidden}{card[at:]} today"
    scrubbed = scrub_texts([text], LocalPiiDetector()).texts[0]
    assert scrubbed == "pay with [CREDIT_DEBIT_NUMBER] today"


def test_what_is_stored_is_what_was_scrubbed() -> None:
    # Given PII hidden by invisible and look-alike characters, and an em dash in prose
    texts = [
        "mail jane.doe\u200b@example.com \u2014 or ｊａｎｅ＠ｅｘａｍｐｌｅ．ｃｏｍ",
        "ssn 536-90-\u200b4399, card 4111\u202f1111\u202f1111\u202f1111",
    ]
    # When scrubbed
    result = scrub_texts(texts, LocalPiiDetector())
    # Then the entities are replaced and every other character is kept as it was
    assert result.texts == (
        "mail [EMAIL] \u2014 or [EMAIL]",
        "ssn [SSN], card [CREDIT_DEBIT_NUMBER]",
    )


def test_a_name_with_an_invisible_character_gets_the_same_pseudonym() -> None:
    pseudonyms = Pseudonyms(b"k" * 32, "acme")
    plain, hidden = scrub_texts(
        ["Call Maria Gonzalez today.", "Call Maria Gonz\u200balez today."],
        LocalPiiDetector(),
        pseudonyms,
    ).texts
    assert plain == hidden and "Gonz" not in hidden


def test_stored_text_is_composed_and_otherwise_unchanged() -> None:
    decomposed = unicodedata.normalize("NFD", "José Álvarez, x² ﬁle")
    assert stored_form(decomposed) == "José Álvarez, x² ﬁle"
