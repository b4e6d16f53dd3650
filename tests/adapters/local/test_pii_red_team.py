"""Red-team cases of issue 17 for the local PII detector: places, companies and code not taken
for people, names and addresses it used to miss or cut, and a scrubbed word that must not eat
its neighbours.
"""

from __future__ import annotations

import pytest

from agent_memory.adapters.local.pii import LocalPiiDetector


@pytest.fixture(scope="module")
def detector() -> LocalPiiDetector:
    return LocalPiiDetector()


def found(detector: LocalPiiDetector, text: str) -> list[tuple[str, str]]:
    return [(e.type, text[e.begin : e.end]) for e in detector.detect(text)]


@pytest.mark.parametrize(
    "text",
    [
        "We deploy the workers on Microsoft Azure in two regions.",
        "The fund holds accounts at Charles Schwab, Morgan Stanley and two smaller brokers.",
        "Our office in São Paulo opens at nine.",
        "The flight to Hong Kong was delayed.",
        "x = Len(y)",
        "for i in range(len(items)):",
        "Rank the passages with BM25HF before the reranker.",
        # British spellings of ordinary words, at a step's start (examples/events' procedure)
        "Summarise the risks with clause references.",
        "Organise the files, analyse the logs and catalogue the cancelled orders.",
        "The colour of the licence is set in the centre panel.",
        # a common prefix before an ordinary word (the demo's DPA finding)
        "Subprocessor list is missing from the DPA.",
        "Preapproved vendors only; reprocessing is manual.",
    ],
)
def test_places_companies_and_code_are_not_personal_data(
    detector: LocalPiiDetector, text: str
) -> None:
    # Given a sentence naming a cloud, brokers, cities, a function or a ranking model
    # When it is scanned
    # Then nothing in it is taken for a name or an address
    assert found(detector, text) == []


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Ayşe Demir joined the call late.", "Ayşe Demir"),
        ("This is Bill Lumbergh from accounts", "Bill Lumbergh"),
        ("Check Okonkwo, Chidinma.", "Okonkwo, Chidinma"),
        ("The file lists rachel greenberg here.", "rachel greenberg"),
        ("The tenant's name is Vasquez, she said.", "Vasquez"),
        ("Present were Okafor, Lindqvist and Brennan.", None),
        ("Minutes taken by Anneke T Visser.", "Anneke T Visser"),
    ],
)
def test_names_it_used_to_miss_are_found_whole(
    detector: LocalPiiDetector, text: str, name: str | None
) -> None:
    # Given a name with letters outside English, a common given name before an unknown surname,
    # a surname first after a capitalised verb, a lowercase name, a cue, or a bare initial
    # When it is scanned
    names = [value for kind, value in found(detector, text) if kind == "NAME"]
    # Then the whole name is one NAME span (each listed surname its own)
    if name is None:
        assert names == ["Okafor", "Lindqvist", "Brennan"]
    else:
        assert names == [name]


def test_a_scrubbed_name_does_not_eat_the_word_before_it(detector: LocalPiiDetector) -> None:
    # Given "bin", a name particle in Arabic and a verb in German, before a German name
    text = "ich bin Jürgen Müller"
    # When it is scanned
    # Then the name is found and "bin" stays outside the span
    assert found(detector, text) == [("NAME", "Jürgen Müller")]


@pytest.mark.parametrize(
    "address",
    [
        "3-2-1 Marunouchi, Chiyoda-ku, Tokyo",
        "88 Queensway, London",
        "Unter den Linden 77, 10117 Berlin",
        "One Microsoft Way, Redmond",
    ],
)
def test_addresses_outside_the_us_forms_are_one_span(
    detector: LocalPiiDetector, address: str
) -> None:
    # Given a Japanese block address, a one-word London street, a Berlin street named in three
    # words, or a house number written as a word
    text = f"Please send the signed copy to {address} by Friday."
    # When it is scanned
    # Then one ADDRESS span covers it all and nothing else is found
    assert found(detector, text) == [("ADDRESS", address)]


@pytest.mark.parametrize(
    ("text", "address"),
    [
        (
            "Forward it to PSC 1234, Box 5678, APO AE 09012 please.",
            "PSC 1234, Box 5678, APO AE 09012",
        ),
        ("The keys are in Apt. 12B, second floor.", "Apt. 12B"),
    ],
)
def test_military_mail_and_a_flat_number_alone_are_addresses(
    detector: LocalPiiDetector, text: str, address: str
) -> None:
    # Given US military mail or a flat number written without its street
    # When it is scanned
    # Then it is one ADDRESS span
    assert found(detector, text) == [("ADDRESS", address)]


def test_a_test_suite_count_is_no_address(detector: LocalPiiDetector) -> None:
    # Given "suite" as a word of testing, in lowercase and followed by a number
    text = "The test suite 380 ran green."
    # When it is scanned
    # Then nothing is found
    assert found(detector, text) == []
