"""Card numbers written with other separators and other countries' postcodes beside an address
in the local PII detector."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_memory.adapters.local.pii import LocalPiiDetector
from agent_memory.adapters.local.pii.numbers import luhn_valid
from tests.adapters.local._pii_helpers import covered, found


@pytest.fixture(scope="module")
def detector() -> LocalPiiDetector:
    return LocalPiiDetector()


@st.composite
def card_numbers(draw: st.DrawFn) -> str:
    """16 digits with a Visa or Mastercard prefix and a valid Luhn digit."""
    body = draw(st.sampled_from(["4", "51", "55"]))
    body += draw(st.text("0123456789", min_size=15 - len(body), max_size=15 - len(body)))
    return next(body + d for d in "0123456789" if luhn_valid(body + d))


@settings(max_examples=60, deadline=None)
@given(number=card_numbers(), separator=st.sampled_from([".", "/", " ", "-", "\u00a0"]))
def test_a_card_number_grouped_by_fours_with_any_separator_is_found(
    detector: LocalPiiDetector, number: str, separator: str
) -> None:
    # Given a valid card number in groups of four joined by dots, slashes, spaces or hyphens
    printed = separator.join(number[i : i + 4] for i in range(0, 16, 4))
    text = f"Karte {printed} wurde abgelehnt."
    # When it is scanned / Then it is a card number, whole
    assert ("CREDIT_DEBIT_NUMBER", printed) in found(detector, text)


@pytest.mark.parametrize(
    "text",
    [
        "Upgrade to 4.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1 first.",
        "Card 4111.1111.1111.1112 failed the check.",
        "Rows 4111.111.11.11111.1 were read.",
    ],
)
def test_dotted_digits_that_are_no_card_are_kept(detector: LocalPiiDetector, text: str) -> None:
    # Given dotted digits: a version, a card with a bad Luhn digit, groups of odd sizes
    # When scanned / Then no card is reported
    assert not [f for f in found(detector, text) if f[0] == "CREDIT_DEBIT_NUMBER"]


@pytest.mark.parametrize(
    ("text", "postcode"),
    [
        ("Endereço: Rua Augusta 1500, São Paulo - SP, 01310-100.", "01310-100"),
        ("Entregar na Avenida Paulista 1000, CEP 01310-100, São Paulo.", "01310-100"),
        ("Lieferung an 10117 Berlin, Tor 3", "10117"),
        ("ul. Marszałkowska 10, 00-950 Warszawa", "00-950"),
        ("Levering aan 1012 AB Amsterdam graag.", "1012 AB"),
        ("〒100-0001 東京都千代田区千代田1-1", "100-0001"),
        ("Enviar a Madrid, 28013 antes del lunes", "28013"),
        ("Spedire a Bologna - 40121 entro lunedì", "40121"),
        ("Enviar para Porto, 4000-322 amanhã", "4000-322"),
        ("PLZ: 80331, bitte bis Freitag", "80331"),
    ],
)
def test_a_postcode_beside_an_address_a_city_or_its_word_is_scrubbed(
    detector: LocalPiiDetector, text: str, postcode: str
) -> None:
    # Given a postcode of another country beside its street, its city or a postcode word
    # When scanned / Then the postcode is covered
    assert covered(detector, text, postcode)


@pytest.mark.parametrize(
    "text",
    [
        "In 2024 Berlin hosted the games and Paris 2024 followed.",
        "The package weighs 10117 grams.",
        "Room 12-345 Building A is on page 2024-001 Appendix.",
        "Version 1012 AB testing started.",
    ],
)
def test_numbers_that_only_look_like_postcodes_are_kept(
    detector: LocalPiiDetector, text: str
) -> None:
    # Given years beside cities, weights and room numbers
    # When scanned / Then no address is reported
    assert not [f for f in found(detector, text) if f[0] == "ADDRESS"]


@st.composite
def ibans(draw: st.DrawFn) -> str:
    """A valid German, French or Dutch IBAN, its check digits from stdnum's own function."""
    from stdnum import iban

    country, bban = draw(
        st.sampled_from(
            [
                ("DE", st.text("0123456789", min_size=18, max_size=18)),
                ("FR", st.text("0123456789", min_size=23, max_size=23)),
                (
                    "NL",
                    st.builds(
                        lambda a, b: a + b,
                        st.just("ABNA"),
                        st.text("0123456789", min_size=10, max_size=10),
                    ),
                ),
            ]
        )
    )
    body = draw(bban)
    number = country + iban.calc_check_digits(country + "00" + body) + body
    assert iban.is_valid(number)
    return number


@settings(max_examples=60, deadline=None)
@given(number=ibans(), separator=st.sampled_from([" ", "-", "."]), lower=st.booleans())
def test_an_iban_grouped_by_any_separator_in_either_case_is_found(
    detector: LocalPiiDetector, number: str, separator: str, lower: bool
) -> None:
    # Given a valid IBAN in groups of four joined by spaces, hyphens or dots, maybe lowercase
    printed = separator.join(number[i : i + 4] for i in range(0, len(number), 4))
    printed = printed.lower() if lower else printed
    # When it is scanned / Then it is an IBAN, whole
    found_ = found(detector, f"Bitte überweisen an {printed} bis Freitag.")
    assert ("INTERNATIONAL_BANK_ACCOUNT_NUMBER", printed) in found_
