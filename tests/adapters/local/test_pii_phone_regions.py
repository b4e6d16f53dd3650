"""Phone numbers by region in the local PII detector: the regions a tenant declares and those
the text suggests (phone words in many languages, the language, country names)."""

from __future__ import annotations

import phonenumbers
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_memory.adapters.local.pii import LocalPiiDetector
from agent_memory.adapters.local.pii.regions import suggested_regions
from tests.adapters.local._pii_helpers import found

REGIONS = ("DE", "BR", "FR", "ES", "IT", "NL", "PL", "JP", "CN", "KR", "MX", "TR", "SE", "AT")
KINDS = (phonenumbers.PhoneNumberType.FIXED_LINE, phonenumbers.PhoneNumberType.MOBILE)


def _examples() -> list[tuple[str, str]]:
    """(region, number as printed nationally) for phonenumbers' example numbers."""
    examples = []
    for region in REGIONS:
        for kind in KINDS:
            number = phonenumbers.example_number_for_type(region, kind)
            if number is not None:
                printed = phonenumbers.format_number(
                    number, phonenumbers.PhoneNumberFormat.NATIONAL
                )
                examples.append((region, printed))
    return examples


EXAMPLES = _examples()


def _phones(detector: LocalPiiDetector, text: str) -> list[str]:
    return [value for kind, value in found(detector, text) if kind == "PHONE"]


@pytest.mark.parametrize(("region", "number"), EXAMPLES)
def test_a_declared_regions_number_needs_no_phone_word(region: str, number: str) -> None:
    # Given a detector declared for the region and its example number in a neutral sentence
    detector = LocalPiiDetector(regions=(region,))
    text = f"The front desk answers on {number} in the morning."
    # When it is scanned / Then the number is a phone number, whole
    assert number in _phones(detector, text)


@pytest.mark.parametrize(("region", "number"), EXAMPLES)
def test_bare_digits_of_a_declared_region_are_found(region: str, number: str) -> None:
    # Given the same number written as bare digits
    digits = "".join(c for c in number if c.isdigit())
    detector = LocalPiiDetector(regions=(region,))
    # When it is scanned / Then it is found
    assert _phones(detector, f"The front desk answers on {digits} in the morning.")


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("Sie erreichen mich per Handy: 01512 3456789", "01512 3456789"),
        ("Telefon 030 12345678", "030 12345678"),
        ("WhatsApp do cliente: (11) 98765-4321", "(11) 98765-4321"),
        ("WhatsApp do cliente: 11987654321", "11987654321"),
        ("Mi móvil es 612 34 56 78", "612 34 56 78"),
        ("mon portable : 06 12 34 56 78", "06 12 34 56 78"),
        ("il mio cellulare è 312 345 6789", "312 345 6789"),
        ("mijn telefoon: 06 12345678", "06 12345678"),
        ("電話: 03-1234-5678", "03-1234-5678"),
        ("电话：13812345678", "13812345678"),
        ("전화 010-1234-5678", "010-1234-5678"),
        ("мой телефон 8 (912) 345-67-89", "8 (912) 345-67-89"),
    ],
)
def test_a_phone_word_of_the_texts_language_finds_its_national_number(
    text: str, number: str
) -> None:
    # Given no region declared and a phone word in the text's language
    # When it is scanned / Then the region's national number is found
    assert number in _phones(LocalPiiDetector(), text)


@pytest.mark.parametrize(
    "text",
    [
        "Die Zentrale ist unter 030 12345678 oder 0151 23456789 erreichbar, bitte und danke.",
        "Bitte rufen Sie die Zentrale unter 030 1234567 an, wir sind für Sie da.",
    ],
)
def test_german_numbers_in_german_text_need_no_phone_word_nor_declared_region(text: str) -> None:
    # Given German text (its function words suggest Germany) and German numbers
    # When it is scanned / Then every number is found
    phones = _phones(LocalPiiDetector(), text)
    assert phones and all(p.startswith("0") for p in phones)


@settings(max_examples=60, deadline=None)
@given(
    region=st.sampled_from(REGIONS),
    digits=st.text("0123456789", min_size=8, max_size=12),
    word=st.sampled_from(["Bestellnummer", "pedido", "commande", "ordine", "order", "注文"]),
)
def test_digits_after_an_order_word_are_kept_in_a_declared_region(
    region: str, digits: str, word: str
) -> None:
    # Given an order number after an order word, valid as a phone number or not
    detector = LocalPiiDetector(regions=(region,))
    # When it is scanned / Then no phone number is reported
    assert not _phones(detector, f"{word} {digits}")


@settings(max_examples=60, deadline=None)
@given(region=st.sampled_from(REGIONS), digits=st.text("0123456789", min_size=6, max_size=12))
def test_digits_that_are_no_valid_number_of_the_region_are_kept(region: str, digits: str) -> None:
    # Given digits that are not a valid number of the declared region ("00" opens an
    # international number, another class)
    if digits.startswith("00"):
        return
    try:
        valid = phonenumbers.is_valid_number(phonenumbers.parse(digits, region))
    except phonenumbers.NumberParseException:
        valid = False
    if valid:
        return
    detector = LocalPiiDetector(regions=(region,))
    # When they stand in a sentence with no phone word / Then they are no phone number
    assert not _phones(detector, f"The meter read {digits} at noon.")


@pytest.mark.parametrize(
    ("text", "region"),
    [
        ("Mein Handy ist aus.", "DE"),
        ("Olá, o celular do cliente", "BR"),
        ("Ella vive en España", "ES"),
        ("お電話ください", "JP"),
        ("请拨打电话", "CN"),
        ("Ich bin nicht da und die Tür ist zu.", "DE"),
    ],
)
def test_the_text_suggests_regions_by_phone_words_country_names_and_language(
    text: str, region: str
) -> None:
    # Given text with a phone word, a country's name or its language's function words
    # When its regions are read / Then the country is among them
    assert region in suggested_regions(text)


def test_an_unknown_region_code_is_refused_by_name() -> None:
    # Given a region code phonenumbers does not know
    # When a detector is built with it / Then it is refused, naming the parameter
    with pytest.raises(ValueError, match="regions"):
        LocalPiiDetector(regions=("XX",))


def test_the_country_names_table_is_what_its_generator_writes_from_phonenumbers() -> None:
    # Given the committed table and phonenumbers' locale data installed beside it
    from tools.pii_lists import make_country_names
    from tools.pii_lists.data_files import DATA

    # When the generator runs / Then it writes the table unchanged (regenerate after upgrades)
    for name, text in make_country_names.main().items():
        assert text == (DATA / name).read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("region", "before"),
    [
        ("ES", "Llámele al "),
        ("ES", "Llame al "),
        ("ES", "Llámame al "),
        ("FR", "Appelez le "),
        ("FR", "Appelle-le au "),
        ("IT", "Chiami il "),
        ("IT", "Chiamami al "),
        ("BR", "Ligue para "),
        ("BR", "Liga-me no "),
        ("NL", "Bel me op "),
    ],
)
def test_a_verb_of_calling_in_any_of_its_forms_finds_the_number_after_it(
    region: str, before: str
) -> None:
    # Given a mobile and a fixed-line number of the region, in its national format, after a
    # verb of calling conjugated as people write it, and no region declared
    detector = LocalPiiDetector()
    for kind in (phonenumbers.PhoneNumberType.MOBILE, phonenumbers.PhoneNumberType.FIXED_LINE):
        example = phonenumbers.example_number_for_type(region, kind)
        number = phonenumbers.format_number(example, phonenumbers.PhoneNumberFormat.NATIONAL)
        text = f"{before}{number} mañana."
        # When it is scanned / Then the number is found
        assert number in _phones(detector, text), text


MIXED = "Das ist gut. Le client est là. El cliente es bueno. O cliente é bom. Il cliente è qui. "


@pytest.mark.parametrize(
    ("sentence", "number"),
    [
        ("連絡先は090-1234-5678までお願いします。", "090-1234-5678"),
        ("Звонить по номеру 8 (916) 123-45-67.", "8 (916) 123-45-67"),
        ("Позвоните на мобильный 8 912 345-67-89.", "8 912 345-67-89"),
        ("Proszę zadzwonić pod numer 501 234 567.", "501 234 567"),
        ("Cep numarası 0532 123 45 67 olarak kayıtlı.", "0532 123 45 67"),
    ],
)
def test_an_inflected_phone_word_finds_its_number_in_a_text_of_many_languages(
    sentence: str, number: str
) -> None:
    # Given a record mixing many languages (so no region is suggested by its words), and a
    # phone word in an inflected form ("номеру", "numarası") or a contact word ("連絡先")
    text = MIXED + sentence
    # When it is scanned / Then the number after the word is found
    assert number in _phones(LocalPiiDetector(), text), text
