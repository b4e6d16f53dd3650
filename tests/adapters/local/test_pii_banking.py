"""Bank and card details in the local PII detector: IBAN, SWIFT/BIC, account and routing numbers,
card verification codes, expiry dates and PINs, labelled as Amazon Comprehend labels them."""

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
        # IBANs need no label: the country's format and the check digits say what they are
        (
            "Please wire it to DE89 3704 0044 0532 0130 00 today.",
            ("INTERNATIONAL_BANK_ACCOUNT_NUMBER", "DE89 3704 0044 0532 0130 00"),
        ),
        (
            "Refund to GB29NWBK60161331926819, as agreed.",
            ("INTERNATIONAL_BANK_ACCOUNT_NUMBER", "GB29NWBK60161331926819"),
        ),
        (
            "IBAN FR14 2004 1010 0505 0001 3M02 606 for the deposit",
            ("INTERNATIONAL_BANK_ACCOUNT_NUMBER", "FR14 2004 1010 0505 0001 3M02 606"),
        ),
        ("Our SWIFT code is NWBKGB2L.", ("SWIFT_CODE", "NWBKGB2L")),
        ("BIC: DEUTDEFF500", ("SWIFT_CODE", "DEUTDEFF500")),
        ("Paid from account 31926819 last week.", ("BANK_ACCOUNT_NUMBER", "31926819")),
        ("Bank account no. 0012-3456-789 is closed.", ("BANK_ACCOUNT_NUMBER", "0012-3456-789")),
        ("acct #4455667788 was debited", ("BANK_ACCOUNT_NUMBER", "4455667788")),
        ("ABA routing 021000021 for the transfer", ("BANK_ROUTING", "021000021")),
        ("sort code 20-00-00", ("BANK_ROUTING", "20-00-00")),
        ("Card 4111 1111 1111 1111, CVV 737.", ("CREDIT_DEBIT_CVV", "737")),
        ("security code: 4412", ("CREDIT_DEBIT_CVV", "4412")),
        ("The card expires 09/27, please update it.", ("CREDIT_DEBIT_EXPIRY", "09/27")),
        ("exp 11/2028", ("CREDIT_DEBIT_EXPIRY", "11/2028")),
        ("valid thru 03/29", ("CREDIT_DEBIT_EXPIRY", "03/29")),
        ("Card on file, exp 03/29.", ("CREDIT_DEBIT_EXPIRY", "03/29")),
        ("Her PIN is 4821.", ("PIN", "4821")),
        ("pin code: 009911", ("PIN", "009911")),
    ],
)
def test_bank_and_card_details_are_found_with_comprehend_labels(
    detector: LocalPiiDetector, text: str, expected: tuple[str, str]
) -> None:
    # Given a sentence with one bank or card detail; When it is scanned; Then it is reported
    assert expected in found(detector, text)


@pytest.mark.parametrize(
    "text",
    [
        # An IBAN-shaped string whose check digits are wrong identifies no account
        "Reference DE89 3704 0044 0532 0130 01 is a typo.",
        # An upper-case word in SWIFT's shape, without the word SWIFT or BIC
        "The flag is DISABLED by default.",
        # Account-like digits after words that are not about a bank
        "Deploy to AWS account 123456789012 in us-east-1.",
        "The service account 4711 runs the job.",
        "Invoice 20240117 and order number 88812345 are paid.",
        # A routing-shaped number that fails the ABA checksum
        "routing 123456789",
        # Three digits with no card-security word
        "We shipped 737 units.",
        # A contract's expiry is a date to remember, not a card's
        "The lease expires 12/2027 unless renewed.",
        # "pin" as a word, and too few digits for a PIN
        "Pin the version to 2.31 and set GPIO PIN 13 high.",
    ],
)
def test_lookalikes_without_the_label_or_checksum_are_left_alone(
    detector: LocalPiiDetector, text: str
) -> None:
    banking = {
        "INTERNATIONAL_BANK_ACCOUNT_NUMBER",
        "SWIFT_CODE",
        "BANK_ACCOUNT_NUMBER",
        "BANK_ROUTING",
        "CREDIT_DEBIT_CVV",
        "CREDIT_DEBIT_EXPIRY",
        "PIN",
    }
    assert [f for f in found(detector, text) if f[0] in banking] == []


def test_an_iban_followed_by_a_group_of_other_text_keeps_only_the_iban(
    detector: LocalPiiDetector,
) -> None:
    # Given an IBAN grouped by fours and followed by an upper-case reference group
    text = "to DE89 3704 0044 0532 0130 00 REF1 please"
    # When it is scanned
    # Then the IBAN is reported without the group that breaks its check digits
    assert ("INTERNATIONAL_BANK_ACCOUNT_NUMBER", "DE89 3704 0044 0532 0130 00") in found(
        detector, text
    )
