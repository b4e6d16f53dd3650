"""Government and vehicle identifiers in the local PII detector: passports, driving licences,
plates, VINs and the UK, Canadian, US and Indian national numbers Amazon Comprehend reports."""

from __future__ import annotations

import pytest

from agent_memory.adapters.local.pii import LocalPiiDetector
from agent_memory.adapters.local.pii.identifiers import vin_check_digit_valid
from tests.adapters.local._pii_helpers import covered, found

IDENTIFIER_TYPES = {
    "PASSPORT_NUMBER",
    "DRIVER_ID",
    "LICENSE_PLATE",
    "VEHICLE_IDENTIFICATION_NUMBER",
    "UK_NATIONAL_INSURANCE_NUMBER",
    "CA_SOCIAL_INSURANCE_NUMBER",
    "US_INDIVIDUAL_TAX_IDENTIFICATION_NUMBER",
    "UK_UNIQUE_TAXPAYER_REFERENCE_NUMBER",
    "UK_NATIONAL_HEALTH_SERVICE_NUMBER",
    "CA_HEALTH_NUMBER",
    "IN_PERMANENT_ACCOUNT_NUMBER",
    "IN_AADHAAR",
    "IN_VOTER_NUMBER",
    "IN_NREGA",
}


@pytest.fixture(scope="module")
def detector() -> LocalPiiDetector:
    return LocalPiiDetector()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Passport number C01X00T47, issued 2019.", ("PASSPORT_NUMBER", "C01X00T47")),
        ("passport: 533380006", ("PASSPORT_NUMBER", "533380006")),
        ("Driver's license D1234-56789-01234 on file.", ("DRIVER_ID", "D1234-56789-01234")),
        ("driving licence MORGA657054SM9IJ", ("DRIVER_ID", "MORGA657054SM9IJ")),
        ("DL# S530-4123-7654", ("DRIVER_ID", "S530-4123-7654")),
        ("The licence plate 7ABC123 was caught on camera.", ("LICENSE_PLATE", "7ABC123")),
        ("number plate AB12 CDE", ("LICENSE_PLATE", "AB12 CDE")),
        # A VIN with a valid check digit needs no label; with a label any VIN is taken
        (
            "Car 1HGCM82633A004352 was serviced.",
            ("VEHICLE_IDENTIFICATION_NUMBER", "1HGCM82633A004352"),
        ),
        ("VIN WVWZZZ1JZXW000001", ("VEHICLE_IDENTIFICATION_NUMBER", "WVWZZZ1JZXW000001")),
        # National Insurance numbers have a shape of their own
        ("NI AB 12 34 56 C", ("UK_NATIONAL_INSURANCE_NUMBER", "AB 12 34 56 C")),
        ("her NINO is JG103759A.", ("UK_NATIONAL_INSURANCE_NUMBER", "JG103759A")),
        ("SIN 130 692 544", ("CA_SOCIAL_INSURANCE_NUMBER", "130 692 544")),
        ("social insurance number: 193-456-787", ("CA_SOCIAL_INSURANCE_NUMBER", "193-456-787")),
        (
            "Filed with 912-70-1234 last year.",
            ("US_INDIVIDUAL_TAX_IDENTIFICATION_NUMBER", "912-70-1234"),
        ),
        ("ITIN 912701234", ("US_INDIVIDUAL_TAX_IDENTIFICATION_NUMBER", "912701234")),
        ("UTR 19558 39661", ("UK_UNIQUE_TAXPAYER_REFERENCE_NUMBER", "19558 39661")),
        ("NHS 9434765919", ("UK_NATIONAL_HEALTH_SERVICE_NUMBER", "9434765919")),
        ("Ontario health card 1234-567-890-AB", ("CA_HEALTH_NUMBER", "1234-567-890-AB")),
        ("RAMQ health insurance number ABCD 1234 5678", ("CA_HEALTH_NUMBER", "ABCD 1234 5678")),
        ("PAN ABCPE1234F on the invoice", ("IN_PERMANENT_ACCOUNT_NUMBER", "ABCPE1234F")),
        ("Holder AAAPL1234C signed.", ("IN_PERMANENT_ACCOUNT_NUMBER", "AAAPL1234C")),
        ("Aadhaar 2341 2341 2346", ("IN_AADHAAR", "2341 2341 2346")),
        ("UID: 987654321096", ("IN_AADHAAR", "987654321096")),
        ("voter ID ABC1234566", ("IN_VOTER_NUMBER", "ABC1234566")),
        ("Job card AP-01-002-003-004/123 was issued.", ("IN_NREGA", "AP-01-002-003-004/123")),
        ("NREGA RJ12345678901234", ("IN_NREGA", "RJ12345678901234")),
    ],
)
def test_identifiers_are_found_with_comprehend_labels(
    detector: LocalPiiDetector, text: str, expected: tuple[str, str]
) -> None:
    # Given a sentence with one identifier; When it is scanned; Then it is reported
    assert expected in found(detector, text)


def test_an_nhs_number_printed_like_a_phone_number_is_labelled_as_an_nhs_number(
    detector: LocalPiiDetector,
) -> None:
    # Given an NHS number grouped 3-3-4, as North American phone numbers also are
    text = "NHS 943 476 5919 for the referral"
    # When it is scanned
    # Then it is one entity, labelled by the word and checksum that say what it is
    assert found(detector, text) == [("UK_NATIONAL_HEALTH_SERVICE_NUMBER", "943 476 5919")]
    assert covered(detector, text, "943 476 5919")


@pytest.mark.parametrize(
    "text",
    [
        # Digits in an identifier's shape without the word that names it
        "Batch 130 692 544 shipped.",
        "Total 9434765919 rows.",
        "Order 234123412346 is late.",
        "Ticket 19558 39661 closed.",
        # A 17-character code whose check digit is wrong, and one of digits only
        "Build 1HGCM82633A004353 passed; part 11111111111111111 too.",
        # Upper-case identifiers of software: versions, constants, hashes
        "Set MAX_RETRIES to 5 in v2.3.1; see RFC 7231 and ISO 8601.",
        "Commit A3F5C8D9E2B1 fixed CVE-2024-3094.",
        # A passport or plate word followed by an ordinary word
        "The passport office is closed; the plate is broken.",
        # SSN-shaped numbers are SSNs, not ITINs, unless the area is 9xx
        "SSN 078-05-1120",
    ],
)
def test_lookalikes_are_left_alone(detector: LocalPiiDetector, text: str) -> None:
    assert [f for f in found(detector, text) if f[0] in IDENTIFIER_TYPES] == []


def test_the_vin_check_digit_is_the_north_american_one() -> None:
    assert vin_check_digit_valid("1HGCM82633A004352")
    assert vin_check_digit_valid("1M8GDM9AXKP042788")  # check digit X
    assert not vin_check_digit_valid("1HGCM82633A004353")
