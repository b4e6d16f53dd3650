"""Numbers that identify a person or a device: US SSNs, payment card numbers, IP addresses."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterator

from agent_memory.core.ports import PiiEntity

# Area 000, 666 and 9xx, group 00 and serial 0000 are never issued.
_SSN_FORMATTED = re.compile(
    r"(?<![\w-])(?!000|666|9\d\d)\d{3}([- ])(?!00)\d{2}\1(?!0000)\d{4}(?![\w-])"
)
_SSN_BARE = re.compile(r"(?<![\w-])(?!000|666|9\d\d)\d{3}(?!00)\d{2}(?!0000)\d{4}(?![\w-])")
_SSN_CONTEXT = re.compile(r"\b(?:ssn|ss#|ssan|social[ -]security(?:[ -]n(?:o|umber))?)\b", re.I)

# 13 to 19 digits, optionally grouped by single spaces, hyphens, dots, slashes or no-break
# spaces ("4111.1111.1111.1111", as some countries print them).
_CARD = re.compile(
    r"(?<![\w-])(?<!\d[ .\-/\u00a0])\d(?:[ .\-/\u00a0]?\d){12,18}(?![\w-]|[ .\-/\u00a0]\d)"
)
# Groups of three to six digits: how cards are printed, unlike dotted versions or dates.
_CARD_GROUP = re.compile(r"\d{3,6}")
# Issuer prefixes in use: Visa 4; Mastercard, Maestro and RuPay 5; Mastercard and Mir 22-27;
# Diners, American Express and JCB 30 and 34-39; Discover, UnionPay and Maestro 6; UnionPay and
# RuPay 81-82.
_CARD_PREFIX = re.compile(r"4|5|2[2-7]|3[04-9]|6|8[12]")

# An octet may be zero-padded to three digits ("172.016.005.004"), as some tools print them.
_IPV4 = re.compile(
    r"(?<![\w.])(?:(?:25[0-5]|2[0-4]\d|[01]\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|[01]\d\d|[1-9]?\d)"
    r"(?![\w]|\.\d)"
)
# A dotted quad right after these words is a version or a clause number, not an address.
_NOT_IP_BEFORE = re.compile(
    r"(?:\b(?:v|ver|version|versions|release|rel|build|firmware|fw|clause|clauses|section|"
    r"sections|sec|article|art|paragraph|para|rule|item|§|no)\.?|§)\s*$",
    re.I,
)
_IPV6_CANDIDATE = re.compile(
    r"(?<![\w:])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:[0-9A-Fa-f]{1,4}|(?:\d{1,3}\.){3}\d{1,3})?"
    r"(?:%[\w.]+)?(?![\w:])"
)


def find_ssns(text: str) -> Iterator[PiiEntity]:
    """US social security numbers: "123-45-6789", "123 45 6789"; bare "123456789" only
    within 40 characters after a word such as "SSN".
    """
    for m in _SSN_FORMATTED.finditer(text):
        yield PiiEntity("SSN", m.start(), m.end(), 0.9)
    for m in _SSN_BARE.finditer(text):
        if _SSN_CONTEXT.search(text[max(0, m.start() - 40) : m.start()]):
            yield PiiEntity("SSN", m.start(), m.end(), 0.85)


def luhn_valid(digits: str) -> bool:
    """True if the digit string passes the Luhn checksum."""
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = ord(char) - 48
        if position % 2:
            value *= 2
            if value > 9:
                value -= 9
        total += value
    return total % 10 == 0


def find_cards(text: str) -> Iterator[PiiEntity]:
    """Payment card numbers: 13-19 digits with a known issuer prefix and a valid Luhn digit,
    compact or grouped by one kind of separator (dots and slashes only in groups of 3-6).
    """
    for m in _CARD.finditer(text):
        raw = m.group()
        separators = {c for c in raw if not c.isdigit()}
        if len(separators) > 1:
            continue  # "1234-5678 9012 3456" mixes separators: not a card as printed
        if separators - {" ", "-"} and not all(
            _CARD_GROUP.fullmatch(g) for g in re.split(r"[^\d]", raw)
        ):
            continue
        digits = "".join(c for c in raw if c.isdigit())
        if len(set(digits)) > 1 and _CARD_PREFIX.match(digits) and luhn_valid(digits):
            yield PiiEntity("CREDIT_DEBIT_NUMBER", m.start(), m.end(), 0.95)


def find_ips(text: str) -> Iterator[PiiEntity]:
    """IPv4 dotted quads, also zero-padded to three digits an octet (unless after "version",
    "v", "Clause", ...), and IPv6 addresses.
    """
    for m in _IPV4.finditer(text):
        if _NOT_IP_BEFORE.search(text[max(0, m.start() - 12) : m.start()]):
            continue
        yield PiiEntity("IP_ADDRESS", m.start(), m.end(), 0.9)
    for m in _IPV6_CANDIDATE.finditer(text):
        candidate = m.group()
        # "dead::beef" and "a::b" are valid but far likelier to be code than addresses.
        if not any(c.isdigit() for c in candidate):
            continue
        try:
            ipaddress.IPv6Address(candidate)
        except ValueError:
            continue
        yield PiiEntity("IP_ADDRESS", m.start(), m.end(), 0.9)
