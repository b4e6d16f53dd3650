"""Behaviour of the local PII detector: what it finds, what it leaves alone, and its contract."""

from __future__ import annotations

import itertools
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_memory.adapters.local.pii import LocalPiiDetector
from agent_memory.adapters.local.pii.spans import resolve
from agent_memory.core.ports import PiiDetector, PiiEntity

COMPREHEND_TYPES = {"NAME", "EMAIL", "PHONE", "SSN", "CREDIT_DEBIT_NUMBER", "IP_ADDRESS", "ADDRESS"}


@pytest.fixture(scope="module")
def detector() -> LocalPiiDetector:
    return LocalPiiDetector()


def found(detector: LocalPiiDetector, text: str) -> list[tuple[str, str]]:
    return [(e.type, text[e.begin : e.end]) for e in detector.detect(text)]


def found_of(detector: LocalPiiDetector, text: str, kind: str) -> list[str]:
    return [value for t, value in found(detector, text) if t == kind]


# -- contract --------------------------------------------------------------------------------


def test_implements_the_pii_detector_port(detector: LocalPiiDetector) -> None:
    assert isinstance(detector, PiiDetector)


def test_accepts_up_to_100_000_characters_by_default(detector: LocalPiiDetector) -> None:
    assert detector.max_chunk_chars == 100_000
    assert detector.detect("x" * 100_000) == []


def test_text_over_the_chunk_limit_raises_so_the_caller_writes_nothing() -> None:
    small = LocalPiiDetector(max_chunk_chars=10)
    with pytest.raises(ValueError, match="max_chunk_chars"):
        small.detect("John Smith!")


def test_non_string_input_raises_type_error(detector: LocalPiiDetector) -> None:
    with pytest.raises(TypeError):
        detector.detect(b"john@example.com")  # type: ignore[arg-type]


def test_empty_text_has_no_entities(detector: LocalPiiDetector) -> None:
    assert detector.detect("") == []


def test_labels_are_comprehend_entity_types(detector: LocalPiiDetector) -> None:
    text = (
        "John Smith, john@example.com, (555) 123-4567, SSN 123-45-6789, card 4111 1111 1111 1111, "
        "host 10.0.0.1, 12 Main St., Apt 4"
    )
    assert {e.type for e in detector.detect(text)} == COMPREHEND_TYPES


def test_offsets_are_exact_sorted_and_disjoint(detector: LocalPiiDetector) -> None:
    text = "Please ping Maria Garcia (maria@example.org) at +44 20 7946 0958 from 192.168.0.7."
    entities = detector.detect(text)
    assert [(e.type, text[e.begin : e.end]) for e in entities] == [
        ("NAME", "Maria Garcia"),
        ("EMAIL", "maria@example.org"),
        ("PHONE", "+44 20 7946 0958"),
        ("IP_ADDRESS", "192.168.0.7"),
    ]
    assert all(a.end <= b.begin for a, b in itertools.pairwise(entities))


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=400))
def test_any_text_gives_in_bounds_sorted_disjoint_spans(
    detector: LocalPiiDetector, text: str
) -> None:
    entities = detector.detect(text)
    for entity in entities:
        assert 0 <= entity.begin < entity.end <= len(text)
        assert 0.0 < entity.score <= 1.0
    assert all(a.end <= b.begin for a, b in itertools.pairwise(entities))


@pytest.mark.parametrize(
    "text",
    [
        "\x00\x01John Smith\x1f\x7f called +1 415 555 0123\x00",
        "\ud800 lone surrogates \udfff Maria Garcia \ud83d",
        "\u200b\u200dZero\u2060width joiners and \ufeff BOM",
        "Ω≈ç√∫ 😀 مرحبا 你好 Привет שלום",
        "a" * 50_000 + " John Smith " + "1" * 40_000,
    ],
)
def test_unusual_unicode_and_control_characters_do_not_crash(
    detector: LocalPiiDetector, text: str
) -> None:
    for entity in detector.detect(text):
        assert 0 <= entity.begin < entity.end <= len(text)


def test_control_characters_around_an_email_leave_its_span_exact(
    detector: LocalPiiDetector,
) -> None:
    assert found(detector, "\x00jane.roe@example.com\x07") == [("EMAIL", "jane.roe@example.com")]


def test_concurrent_calls_give_the_same_results_as_sequential_ones(
    detector: LocalPiiDetector,
) -> None:
    texts = [
        f"Contact {name} at {name.split()[0].lower()}@example.com or 555-01{i:02d} 1234."
        for i, name in enumerate(["John Smith", "Maria Garcia", "Wei Zhang", "Aisha Bello"] * 5)
    ]
    expected = [detector.detect(t) for t in texts]
    results: dict[int, list[list[PiiEntity]]] = {}

    def work(worker: int) -> None:
        results[worker] = [detector.detect(t) for t in texts]

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(results[n] == expected for n in range(8))


# -- emails ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "email",
    [
        "john.smith@example.com",
        "j.o'brien+contracts@mail.example.co.uk",
        "LEGAL-NOTICES@ACME-CORP.COM",
        "josé.núñez@correo.example.es",
        "a_b-c@sub.domain.example.org",
    ],
)
def test_finds_emails_in_common_formats(detector: LocalPiiDetector, email: str) -> None:
    assert found(detector, f"Write to <{email}>.") == [("EMAIL", email)]


def test_email_span_excludes_the_sentence_full_stop(detector: LocalPiiDetector) -> None:
    assert found_of(detector, "Reply to jane@example.com.", "EMAIL") == ["jane@example.com"]


@pytest.mark.parametrize("text", ["user@localhost", "@handle", "a @ b . com", "x@y"])
def test_ignores_strings_that_are_not_full_email_addresses(
    detector: LocalPiiDetector, text: str
) -> None:
    assert found_of(detector, text, "EMAIL") == []


# -- phones ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "phone",
    [
        "(555) 123-4567",
        "555-123-4567",
        "555.123.4567",
        "555 123 4567",
        "+1 555 123 4567",
        "+1-202-456-1111",
        "1-800-555-0199",
        "+44 20 7946 0958",
        "+44 (0)20 7946 0958",
        "0044 20 7946 0958",
        "+49 30 12345678",
        "+33 6 12 34 56 78",
        "+91 98765 43210",
        "+81 3-1234-5678",
    ],
)
def test_finds_phone_numbers_in_us_and_international_formats(
    detector: LocalPiiDetector, phone: str
) -> None:
    assert found(detector, f"Reach us on {phone} today.") == [("PHONE", phone)]


@pytest.mark.parametrize(
    ("text", "phone"),
    [
        ("Tel: 020 7946 0958", "020 7946 0958"),
        ("mobile 07700 900123", "07700 900123"),
        ("call 4155550123 now", "4155550123"),
        ("Phone: 555-0100", "555-0100"),
    ],
)
def test_finds_national_and_unpunctuated_numbers_after_a_phone_word(
    detector: LocalPiiDetector, text: str, phone: str
) -> None:
    assert found_of(detector, text, "PHONE") == [phone]


@pytest.mark.parametrize(
    "text",
    [
        "Order 4155550123 shipped.",
        "Signed on 2024-03-15 at 10:30.",
        "Dated 03/04/2024.",
        "The fee is $1,234,567.89.",
        "ISBN 978-3-16-148410-0",
        "See Clause 7.3.1 and Section 12.4.",
        "PO 4500012345 and invoice #000123456",
        "Version 10.2.3 released.",
    ],
)
def test_ignores_numbers_that_are_not_phone_numbers(detector: LocalPiiDetector, text: str) -> None:
    assert found_of(detector, text, "PHONE") == []


def test_phone_span_excludes_an_enclosing_bracket(detector: LocalPiiDetector) -> None:
    assert found_of(detector, "Kenji (+81 3-1234-5678)", "PHONE") == ["+81 3-1234-5678"]


# -- social security numbers -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "ssn"),
    [
        ("SSN 123-45-6789 on file", "123-45-6789"),
        ("number 078 05 1120 on file", "078 05 1120"),
        ("SSN: 123456789", "123456789"),
        ("social security number 219099999", "219099999"),
    ],
)
def test_finds_us_social_security_numbers(detector: LocalPiiDetector, text: str, ssn: str) -> None:
    assert found_of(detector, text, "SSN") == [ssn]


@pytest.mark.parametrize(
    "text",
    [
        "000-12-3456",  # area 000 is never issued
        "666-12-3456",
        "900-12-3456",
        "123-00-4567",  # group 00
        "123-45-0000",  # serial 0000
        "123-45 6789",  # mixed separators
        "Order 123456789 shipped",  # bare nine digits without an SSN word
    ],
)
def test_ignores_numbers_that_cannot_be_social_security_numbers(
    detector: LocalPiiDetector, text: str
) -> None:
    assert found_of(detector, text, "SSN") == []


# -- payment cards ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "card",
    [
        "4111 1111 1111 1111",  # Visa, spaces
        "5555-5555-5555-4444",  # Mastercard, hyphens
        "378282246310005",  # American Express, 15 digits
        "3782 822463 10005",  # American Express as printed
        "6011000990139424",  # Discover
        "3530111333300000",  # JCB
        "4222222222222",  # 13-digit Visa
        "5105 1051 0510 5100",
    ],
)
def test_finds_luhn_valid_card_numbers(detector: LocalPiiDetector, card: str) -> None:
    assert found(detector, f"Charge {card} now.") == [("CREDIT_DEBIT_NUMBER", card)]


@pytest.mark.parametrize(
    "text",
    [
        "4111 1111 1111 1112",  # fails the Luhn check
        "1234567890123452",  # passes Luhn, but no issuer uses prefix 1
        "9123456789012348",  # nor 9
        "4111-1111 1111-1111",  # mixed separators
        "0000 0000 0000 0000",
        "ref 41111111111111112222",  # longer than any card
    ],
)
def test_ignores_digit_runs_that_are_not_card_numbers(
    detector: LocalPiiDetector, text: str
) -> None:
    assert found_of(detector, text, "CREDIT_DEBIT_NUMBER") == []


# -- IP addresses ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "ip"),
    [
        ("from 192.168.10.24 today", "192.168.10.24"),
        ("at 10.0.0.5:8443", "10.0.0.5"),
        ("block 10.0.0.0/8 now", "10.0.0.0"),
        ("ends with 203.0.113.77.", "203.0.113.77"),
        ("v6 2001:db8:85a3::8a2e:370:7334 seen", "2001:db8:85a3::8a2e:370:7334"),
        (
            "v6 2001:0db8:0000:0000:0000:ff00:0042:8329 seen",
            "2001:0db8:0000:0000:0000:ff00:0042:8329",
        ),
        ("loopback ::1 only", "::1"),
        ("link fe80::1%eth0 up", "fe80::1%eth0"),
        ("mapped ::ffff:192.0.2.1 here", "::ffff:192.0.2.1"),
        ("url [2001:db8::1]:443", "2001:db8::1"),
    ],
)
def test_finds_ipv4_and_ipv6_addresses(detector: LocalPiiDetector, text: str, ip: str) -> None:
    assert found_of(detector, text, "IP_ADDRESS") == [ip]


def test_a_bare_dotted_quad_counts_as_an_ip_address(detector: LocalPiiDetector) -> None:
    # A dotted quad with no word before it cannot be told from an address: scrub it.
    assert found_of(detector, "Upgrade to 1.2.3.4 soon.", "IP_ADDRESS") == ["1.2.3.4"]


@pytest.mark.parametrize(
    "text",
    [
        "runs version 4.2.1.7 of the gateway",
        "release v1.2.3.4",
        "see Clause 1.2.3.4",
        "Section 4.1.2.3 sets the credits",
        "256.1.1.1 is out of range",
        "only 1.2.3 parts",
        "at 10:30:45 UTC",
        "MAC 00:1A:2B:3C:4D:5E",
        "std::vector and a::b",
        "five parts 1.2.3.4.5",
    ],
)
def test_ignores_versions_clauses_times_and_invalid_addresses(
    detector: LocalPiiDetector, text: str
) -> None:
    assert found_of(detector, text, "IP_ADDRESS") == []


# -- postal addresses ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "address",
    [
        "1600 Pennsylvania Avenue NW, Washington, DC 20500",
        "221B Baker Street",
        "12 Main St., Apt 4",
        "12 Main St., Apt 4, Springfield, IL 62704",
        "350 Fifth Avenue, Suite 3300, New York, NY 10118",
        "51 Franklin Street, Fifth Floor, Boston, MA 02110-1301",
        "1 Hacker Way, Menlo Park, CA 94025",
        "PO Box 123",
        "P.O. Box 4410, Dallas, TX 75208",
        "Hauptstraße 5, 10115 Berlin",
        "14 rue de Rivoli, 75004 Paris",
        "Via Roma 12, 00184 Roma",
        "8 Canada Square, London E14 5HQ",
    ],
)
def test_finds_street_addresses_with_their_unit_city_and_postcode(
    detector: LocalPiiDetector, address: str
) -> None:
    assert found(detector, f"Deliver to {address}; thanks.") == [("ADDRESS", address)]


def test_finds_a_city_state_and_zip_on_their_own(detector: LocalPiiDetector) -> None:
    assert found_of(detector, "based in Springfield, IL 62704 since", "ADDRESS") == [
        "Springfield, IL 62704"
    ]


def test_address_span_excludes_the_sentence_full_stop(detector: LocalPiiDetector) -> None:
    assert found_of(detector, "He lives at 221B Baker Street.", "ADDRESS") == ["221B Baker Street"]


@pytest.mark.parametrize(
    "text",
    [
        "within 30 days' notice",
        "Schedule 2 Pricing applies",
        "12 months of fees",
        "within 5 Business Days",
        "Clause 12 Park Lane Terms",
        "the 2 Parties agree",
        "Net 45 Payment Terms",
    ],
)
def test_ignores_numbers_followed_by_ordinary_words(detector: LocalPiiDetector, text: str) -> None:
    assert found_of(detector, text, "ADDRESS") == []


# -- names -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Please ask John Smith.", "John Smith"),
        ("Reviewed by Dr. Maria Garcia today.", "Maria Garcia"),
        ("Attendee: Smith, John", "Smith, John"),
        ("Dear Ms. O'Neil, thanks.", "O'Neil"),
        ("Signed by Jean-Luc Picard.", "Jean-Luc Picard"),
        ("Maria de la Cruz signed.", "Maria de la Cruz"),
        ("Witnessed by J. R. Smith.", "J. R. Smith"),
        ("Robert Brown Jr. will sign.", "Robert Brown Jr."),
        ("Ask Diego Hernández first.", "Diego Hernández"),
        ("Approved by Kim Min-jun today.", "Kim Min-jun"),
        ("Send it to Kenji Watanabe.", "Kenji Watanabe"),
        ("Grace Hopper reviewed it.", "Grace Hopper"),
        ("Will Smith confirmed.", "Will Smith"),
        ("By: JOHN SMITH", "JOHN SMITH"),
    ],
)
def test_finds_full_names_in_common_forms(detector: LocalPiiDetector, text: str, name: str) -> None:
    assert found_of(detector, text, "NAME") == [name]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Dear Zorvath,\nThe draft is attached.", "Zorvath"),
        ("Signed by Zorvath Quellington.", "Zorvath Quellington"),
        ("Please contact Zorvath Quellington today.", "Zorvath Quellington"),
        ("Mr. Quellington agreed.", "Quellington"),
        ("Okonkwo said the clause is void.", "Okonkwo"),
        ("Name: Zorvath Quellington", "Zorvath Quellington"),
        ("Best regards,\nZorvath Quellington", "Zorvath Quellington"),
        ("The memo from Nguyen arrived.", "Nguyen"),
        ("Okafor, CFO, objected.", "Okafor"),
    ],
)
def test_finds_unlisted_names_where_only_a_person_fits(
    detector: LocalPiiDetector, text: str, name: str
) -> None:
    assert found_of(detector, text, "NAME") == [name]


def test_finds_a_lone_given_name(detector: LocalPiiDetector) -> None:
    assert found_of(detector, "Sarah approved the redlines.", "NAME") == ["Sarah"]


def test_name_span_excludes_a_possessive(detector: LocalPiiDetector) -> None:
    assert found_of(detector, "Sarah's comments were accepted.", "NAME") == ["Sarah"]


def test_name_span_excludes_a_greeting_before_it(detector: LocalPiiDetector) -> None:
    assert found_of(detector, "Yeah, Maria, that works. Cool John.", "NAME") == ["Maria", "John"]


@pytest.mark.parametrize(
    "text",
    [
        "The Vendor shall not exceed the Liability Cap in Clause 7.3.",
        "The Master Services Agreement governs the Statement of Work.",
        "Payment is due on Monday, May 5.",
        "Will the Supplier accept the cap?",
        "May the Customer assign the Agreement?",
        "Grace period: 15 business days.",
        "Mark the clause as high risk.",
        "Bill the Customer quarterly.",
        "Acme Corp and Globex International signed.",
        "Smith & Wesson and Johnson & Johnson are suppliers.",
        "Offices in San Jose and St. Louis.",
        "The Austin office serves Dallas and Houston.",
        "Jordan and Georgia are excluded from the Territory.",
        "The GNU General Public License applies.",
        "We spoke to Microsoft about the terms.",
        "LangChain and PyYAML are dependencies.",
        "I'm sure I've read it.",
        "The German and French subsidiaries sign separately.",
        "Exhibit B. Net 45 payment terms apply.",
        "Force Majeure excludes pandemics.",
        "Contact Support via the portal.",
        "Dear Customer, the renewal is due.",
    ],
)
def test_ignores_capitalised_business_words(detector: LocalPiiDetector, text: str) -> None:
    assert found_of(detector, text, "NAME") == []


@pytest.mark.parametrize(
    "text",
    [
        "6. Hummus and carrots: Hummus and carrots make a filling snack.",
        "Related keywords:\n1. Titanium ceramic pans\n2. Titanium pans",
        "1. **Data Ingestion**: collect the logs first.",
        "3. **Beach Cleanups**: volunteers meet on Sundays.",
        "Try the Ultra Fluid Face Moisturizer SPF 50 after washing.",
        "* Time commitment: Online courses need a few hours a week.",
        "5. Congestive heart failure: older adults are most at risk.",
    ],
)
def test_ignores_less_common_english_words_in_lists_and_headings(
    detector: LocalPiiDetector, text: str
) -> None:
    # Given capitalised words of SCOWL's spell-checking size (60), not of its common sizes,
    # where a list item or a heading puts them first. When the text is scanned. Then no NAME.
    assert found_of(detector, text, "NAME") == []


@pytest.mark.parametrize(
    "text",
    [
        "Pros: light and cheap.\n\nCons:\n\n1. **Weight**: the kayak is heavy.",
        "4. Smoothie: Blend together your favorite fruits and yogurt.",
        "Instagram's algorithm favors Reels and Stories this year.",
        "Congress passed the bill; the Senate votes next week.",
        "Add to Cart, then check out.",
        "The Great Barrier Reef is bleaching.",
    ],
)
def test_ignores_words_that_are_also_rare_surnames(detector: LocalPiiDetector, text: str) -> None:
    # Given an English word the census also lists as a surname, but for under 0.001% of people
    # (it prints 0.000%). When the text is scanned. Then it is read as the word: no NAME.
    assert found_of(detector, text, "NAME") == []


@pytest.mark.parametrize(
    "text",
    [
        "We ordered Hawaiian pizza after the temple tour.",
        "The monastery is home to Tibetan Buddhists.",
        "A Victorian house with Prussian blue shutters.",
        "Christianity and Judaism share the Hebrew Bible.",
        "Try the Jewish deli near the Malaysian restaurant.",
    ],
)
def test_ignores_peoples_faiths_and_periods(detector: LocalPiiDetector, text: str) -> None:
    # Given capitalised words SCOWL lists for peoples, faiths and periods, where they stand
    # mid-sentence. When the text is scanned. Then no NAME.
    assert found_of(detector, text, "NAME") == []


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Baker signed the lease on Monday.", "Baker"),
        ("Please forward it to Ms. Reef.", "Reef"),
        ("The report was written by Congress and Lantz.", "Congress"),
    ],
)
def test_still_finds_surnames_that_are_words_where_a_person_stands(
    detector: LocalPiiDetector, text: str, name: str
) -> None:
    # Given a frequent surname that is a word, or a rare one after a title or a cue only a
    # person fits. When scanned. Then it is a NAME.
    assert any(name in found for found in found_of(detector, text, "NAME"))


@pytest.mark.parametrize(
    "text",
    [
        "I'm planning a trip to Barcelona, Spain next month.",
        "I'm moving to Melbourne soon and need a flat.",
        "After his death she flew to Cremona, where she lived for years.",
        "We're flying to Manchester on Friday.",
        "Stop in Eugene, Oregon for lunch.",
        "We swam at Ross Lake and hiked the Dipsea Trail.",
        "Both Chincoteague Island and Tybee Island are laid-back.",
        "Enjoy the fishing in Lake Tahoe this summer.",
        "The trail starts in Glen Canyon near the campground.",
        "Hike the John Muir Trail from Yosemite Valley.",
        "We toured Andrew Molera State Park by the coast.",
    ],
)
def test_ignores_places_named_like_people_where_the_words_around_say_place(
    detector: LocalPiiDetector, text: str
) -> None:
    # Given a city that is also a name after a journey's words or before its country or state,
    # or capitalised words before a feature ("Lake", "Trail", "State Park").
    # When the text is scanned. Then no NAME.
    assert found_of(detector, text, "NAME") == []


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Leo appreciated this quality in Adrian, and he was grateful.", "Adrian"),
        ("Leo pulled back from Adrian and smiled at him.", "Adrian"),
        ("I had coffee with Sean Park yesterday.", "Sean Park"),
        ("The invoice was sent to Barcelona, our accountant, on Friday.", "Barcelona"),
    ],
)
def test_still_finds_people_named_like_places(
    detector: LocalPiiDetector, text: str, name: str
) -> None:
    # Given a given name after "in" or "back from", a surname that is also a feature word, or
    # a surname that is also a city after a plain "to". When scanned. Then it is a NAME.
    assert name in found_of(detector, text, "NAME")


# -- overlaps --------------------------------------------------------------------------------


def test_a_name_inside_an_email_is_reported_once_as_the_email(detector: LocalPiiDetector) -> None:
    assert found(detector, "Write to John.Smith@example.com") == [
        ("EMAIL", "John.Smith@example.com")
    ]


def test_a_surname_inside_a_street_address_is_reported_as_the_address(
    detector: LocalPiiDetector,
) -> None:
    assert found(detector, "Deliver to 12 Garcia Street, Apt 4") == [
        ("ADDRESS", "12 Garcia Street, Apt 4")
    ]


def test_the_longer_of_two_overlapping_candidates_wins() -> None:
    text = "0123456789"
    spans = resolve([PiiEntity("PHONE", 0, 6), PiiEntity("CREDIT_DEBIT_NUMBER", 0, 10)], text)
    assert spans == [PiiEntity("CREDIT_DEBIT_NUMBER", 0, 10)]


def test_equal_length_overlaps_go_to_the_more_specific_type() -> None:
    spans = resolve([PiiEntity("NAME", 0, 5), PiiEntity("EMAIL", 0, 5)], "abcde")
    assert [e.type for e in spans] == ["EMAIL"]


def test_the_part_of_a_losing_candidate_outside_the_winner_is_kept() -> None:
    # Given a phone "+1 415 555" whose tail overlaps a longer address candidate
    text = "+1 415 555 Main Street Plaza"
    spans = resolve([PiiEntity("PHONE", 0, 10), PiiEntity("ADDRESS", 7, 28)], text)
    # Then the address wins and the phone keeps its uncovered head
    assert [(e.type, text[e.begin : e.end]) for e in spans] == [
        ("PHONE", "+1 415"),
        ("ADDRESS", "555 Main Street Plaza"),
    ]


def test_overlapping_candidates_of_one_type_are_united() -> None:
    spans = resolve([PiiEntity("NAME", 0, 5, 0.9), PiiEntity("NAME", 3, 11, 0.7)], "Smith, John")
    assert spans == [PiiEntity("NAME", 0, 11, 0.9)]
