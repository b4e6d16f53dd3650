"""Names in structured values and repeated mentions are scrubbed whatever the detector finds."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from agent_memory.core.ports import PiiEntity
from agent_memory.core.privacy.mentions import field_names, other_mentions
from agent_memory.core.privacy.scrubbing import scrub_texts
from tests.support.fakes import FakePiiDetector


class _FindsNothing:
    """A detector that reads no prose: only the record rules can scrub."""

    max_chunk_chars = 100_000

    def detect(self, text: str) -> list[PiiEntity]:
        return []


NAME_KEYS = [
    "first", "last", "first_name", "lastName", "Surname", "given-name", "family_name",
    "fullName", "customer_name", "patientName", "billing_first_name", "cardholder.name",
    "vorname", "Nachname", "prénom", "nom", "apellidos", "nome", "cognome", "voornaam",
    "nazwisko", "soyadı", "имя", "фамилия", "отчество", "姓", "名", "氏名", "이름", "الاسم",
]  # fmt: skip
# Capitalised words of several scripts, as names are written.
_LATIN = st.text(alphabet="abcdefghijklmnopqrstuvwxyzçğışüöéèñã", min_size=2, max_size=10)
_CYRILLIC = st.text(alphabet="абвгдежзиклмнопрстуфхцчшщыэюя", min_size=2, max_size=10)
NAME_WORDS = st.one_of(
    _LATIN.map(str.capitalize),
    _CYRILLIC.map(str.capitalize),
    st.text(alphabet="山田太郎王小明李娜佐藤花子", min_size=2, max_size=4),
    st.text(alphabet="محمدعليحسنفاطمة", min_size=3, max_size=8),
)
NAMES = st.one_of(
    st.lists(NAME_WORDS, min_size=1, max_size=3).map(" ".join),
    # A surname after lowercase particles (Dutch, German, Spanish, Portuguese)
    st.tuples(st.sampled_from(["van der", "von", "de la", "dos"]), NAME_WORDS).map(" ".join),
)


def _layouts(key: str, value: str) -> list[str]:
    return [
        json.dumps({key: value}, ensure_ascii=False),
        json.dumps({"person": {key: value, "id": 7}}, ensure_ascii=False, indent=2),
        f"{key}: {value}\nstatus: active",
        f"{key}={value}&plan=pro",
        repr({key: value}),
    ]


@given(key=st.sampled_from(NAME_KEYS), value=NAMES)
def test_a_name_held_under_a_name_key_is_scrubbed_in_every_layout(key: str, value: str) -> None:
    # Given a name as the value of a name key, in JSON, YAML, a query string and a dict literal
    for text in _layouts(key, value):
        # When the record is scrubbed by a detector that finds nothing in prose
        scrubbed = scrub_texts([text], _FindsNothing()).texts[0]
        # Then the name is gone and the key stays
        assert value not in scrubbed, text
        assert "[NAME]" in scrubbed


@given(first=NAME_WORDS, last=NAME_WORDS)
def test_a_name_split_over_sibling_fields_is_scrubbed_where_it_appears_bare(
    first: str, last: str
) -> None:
    # Given a LangGraph-style item: the name split over two keys, each part also indexed alone
    item = json.dumps({"value": {"first": first, "last": last}}, ensure_ascii=False)
    # When the item and its indexed texts are scrubbed together
    scrubbed = scrub_texts([item, first, last], _FindsNothing()).texts
    # Then no part of the name is left in any field
    assert all(first not in text and last not in text for text in scrubbed), scrubbed


def test_values_that_are_not_names_are_kept() -> None:
    # Given name-like keys with values no name has, and keys that are not a person's name
    text = json.dumps(
        {
            "name": "get_weather",
            "tool_name": "Search",
            "first": True,
            "last": "2024-01-02",
            "first_name": "",
            "last_page": "Next",
            "surname": "see field 12",
            "filename": "Report.pdf",
            "username": "Jdoe",
        }
    )
    # When scrubbed by a detector that finds nothing
    scrubbed = scrub_texts([text], _FindsNothing()).texts[0]
    # Then every value stays
    assert scrubbed == text
    assert field_names(text) == []


def test_other_mentions_of_a_found_name_are_scrubbed_but_not_inside_longer_words() -> None:
    # Given a detector that finds "Grace Hopper" once
    detector = FakePiiDetector(names=("Grace Hopper",))
    # When a record mentions her surname again, and a word that starts with it
    scrubbed = scrub_texts(
        ["Met Grace Hopper.", "Hopper approved; Hopperton is a town."], detector
    ).texts
    # Then the surname alone is scrubbed, the longer word is kept
    assert scrubbed == ("Met [NAME].", "[NAME] approved; Hopperton is a town.")


def test_a_found_number_is_scrubbed_where_it_repeats_but_not_inside_longer_digits() -> None:
    # Given a phone number found once
    text = "call 0301234567 now; again: 0301234567, order 903012345678"
    found = [PiiEntity("PHONE", 5, 15, 1.0)]
    # When its other mentions are looked for
    mentions = other_mentions(text, found)
    # Then the repeat is found with the same type and the longer digit run is not
    assert [(text[m.begin : m.end], m.type) for m in mentions] == [
        ("0301234567", "PHONE"),
        ("0301234567", "PHONE"),
    ]


def test_a_two_ideograph_name_is_scrubbed_where_it_repeats_inside_unspaced_text() -> None:
    # Given a Japanese name split over two keys, and the same person in running text
    item = json.dumps({"姓": "山田", "名": "太郎"}, ensure_ascii=False)
    # When scrubbed together
    scrubbed = scrub_texts([item, "山田太郎さんへ連絡済み"], _FindsNothing()).texts
    # Then neither part is left in the running text
    assert "山田" not in scrubbed[1] and "太郎" not in scrubbed[1]
    assert scrubbed[1].endswith("さんへ連絡済み")
