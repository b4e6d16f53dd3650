"""Email addresses and telephone numbers."""

from __future__ import annotations

import re
from collections.abc import Iterator

import phonenumbers

from agent_memory.core.ports import PiiEntity

# The look-behind makes every local part start at a run boundary, so matching stays linear.
_EMAIL = re.compile(
    r"(?<![\w.+%'-])[\w+%'-]+(?:\.[\w+%'-]+)*@[^\W_](?:[\w-]*[^\W_])?"
    r"(?:\.[^\W_](?:[\w-]*[^\W_])?)*\.[^\W\d_]{2,63}(?![\w-])"
)

_PHONE_WORDS = re.compile(
    r"\b(?:tel|telephone|phone|ph|mobile|mob|cell|cellphone|fax|call|ring|text|sms|whatsapp|"
    r"signal|contact|reach|dial|number|hotline|helpline|landline|direct|line|ext|extension)\b",
    re.I,
)
# "0044 20 7946 0958": the international prefix most of the world dials instead of "+".
_DOUBLE_ZERO = re.compile(r"(?<![\w+])00(?=[1-9])((?:[ .()-]{0,2}\d){7,15})(?![\w-])")
# "020 7946 0958", "06 12 34 56 78": national formats, tried only after a phone word.
_NATIONAL = re.compile(r"(?<![\w+])\(?0\d{1,4}\)?(?:[ .-]?\d){5,11}(?![\w-])")
_NATIONAL_REGIONS = ("GB", "DE", "FR", "IT", "ES", "NL", "IE", "AU", "IN", "JP", "BR", "ZA")
_NANP_SHAPE = re.compile(r"^(?:\+?1[ .-]?)?\(?\d{3}\)?[ .-]?\d{3}[ .-]\d{4}")
_CONTEXT_CHARS = 40


def find_emails(text: str) -> Iterator[PiiEntity]:
    """Email addresses, including Unicode local parts and domains."""
    for m in _EMAIL.finditer(text):
        yield PiiEntity("EMAIL", m.start(), m.end(), 0.95)


def _phone_word_before(text: str, start: int) -> bool:
    return _PHONE_WORDS.search(text[max(0, start - _CONTEXT_CHARS) : start]) is not None


def find_phones(text: str) -> Iterator[PiiEntity]:
    """Telephone numbers: international ("+44 20 ...", "0044 20 ..."), North American in any
    punctuation, and other national formats or unformatted digits after a word such as "tel".
    """
    matcher = phonenumbers.PhoneNumberMatcher(text, "US", leniency=phonenumbers.Leniency.POSSIBLE)
    for match in matcher:
        raw = match.raw_string
        if _accept_matched(raw, match.number, text, match.start):
            begin, end = _balance(text, match.start, match.end)
            yield PiiEntity("PHONE", begin, end, 0.85)
    for m in _DOUBLE_ZERO.finditer(text):
        if _possible("+" + m.group(1), None):
            yield PiiEntity("PHONE", m.start(), m.end(), 0.8)
    for m in _NATIONAL.finditer(text):
        if _phone_word_before(text, m.start()) and any(
            _valid(m.group(), region) for region in _NATIONAL_REGIONS
        ):
            yield PiiEntity("PHONE", m.start(), m.end(), 0.75)


def _accept_matched(raw: str, number: phonenumbers.PhoneNumber, text: str, start: int) -> bool:
    digits = sum(c.isdigit() for c in raw)
    if raw.lstrip("(").startswith("+"):
        return True
    if digits >= 10 and (_NANP_SHAPE.match(raw) or phonenumbers.is_valid_number(number)):
        # Unpunctuated digit strings are as often order or account numbers.
        return not raw.isdigit() or _phone_word_before(text, start)
    return _phone_word_before(text, start)


def _balance(text: str, begin: int, end: int) -> tuple[int, int]:
    """Drop an opening bracket whose partner is outside the match: "(+81 3-1234-5678)"."""
    span = text[begin:end]
    if span.startswith("(") and span.count("(") > span.count(")"):
        begin += 1
    return begin, end


def _possible(candidate: str, region: str | None) -> bool:
    try:
        return phonenumbers.is_possible_number(phonenumbers.parse(candidate, region))
    except phonenumbers.NumberParseException:
        return False


def _valid(candidate: str, region: str) -> bool:
    try:
        return phonenumbers.is_valid_number(phonenumbers.parse(candidate, region))
    except phonenumbers.NumberParseException:
        return False
