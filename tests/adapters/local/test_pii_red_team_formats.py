"""Formats a red team found the local PII detector missing: national phone numbers without a
phone word, the "+234" Nigerian numbers, zero-padded IPv4 and spelled-out email addresses."""

from __future__ import annotations

import pytest

from agent_memory.adapters.local.pii import LocalPiiDetector
from tests.adapters.local._pii_helpers import found


@pytest.fixture(scope="module")
def detector() -> LocalPiiDetector:
    return LocalPiiDetector()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # National numbers grouped exactly as their country prints them, with no phone word
        ("The Paris office is on 01 42 68 53 00 today.", ("PHONE", "01 42 68 53 00")),
        ("The Sydney desk, (02) 9374 4000, opens at nine.", ("PHONE", "(02) 9374 4000")),
        ("London: 020 7946 0321.", ("PHONE", "020 7946 0321")),
        ("Paris again: 01.42.68.53.00", ("PHONE", "01.42.68.53.00")),
        # A "+" and a country code, though the library's length rules reject the number
        ("Lagos office +234 1 270 0000 confirmed.", ("PHONE", "+234 1 270 0000")),
        ("Gateway 172.016.005.004 is down.", ("IP_ADDRESS", "172.016.005.004")),
        ("write to dana[at]example[dot]org", ("EMAIL", "dana[at]example[dot]org")),
        ("or j.smith (at) example.co.uk", ("EMAIL", "j.smith (at) example.co.uk")),
    ],
)
def test_red_team_formats_are_found(
    detector: LocalPiiDetector, text: str, expected: tuple[str, str]
) -> None:
    # Given a sentence in a format the red team found missed; When scanned; Then it is found
    assert expected in found(detector, text)


@pytest.mark.parametrize(
    "text",
    [
        # Digits starting with 0 but not grouped as a national number is printed
        "Invoice 0207946032 and order 0142685300 are paid.",
        "Part 0 20 7946 03 21 is out of stock.",
        # Version numbers with zero-padded parts
        "Firmware v001.002.003.004 is current.",
        # "at" in brackets that is not an address
        "[at] least [dot] points",
        # A plus sign in arithmetic or a diff stat
        "Files changed: +1234 -567 lines.",
    ],
)
def test_lookalikes_are_left_alone(detector: LocalPiiDetector, text: str) -> None:
    kinds = {"PHONE", "IP_ADDRESS", "EMAIL"}
    assert [f for f in found(detector, text) if f[0] in kinds] == []
