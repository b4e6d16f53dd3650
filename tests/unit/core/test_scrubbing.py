import itertools

import pytest

from agent_memory.core.model.errors import PiiDetectionFailed, TransientError
from agent_memory.core.ports import PiiEntity
from agent_memory.core.privacy.scrubbing import chunk_spans, masked_spans, scrub_texts
from tests.support.fakes import FakePiiDetector


def test_chunks_cover_the_text_and_overlap() -> None:
    spans = chunk_spans(12_000, 5_000, 256)
    assert spans[0] == (0, 5_000)
    assert spans[-1][1] == 12_000
    assert all(b[0] == a[1] - 256 for a, b in itertools.pairwise(spans))


def test_pii_beyond_5000_characters_is_scrubbed() -> None:
    # Given a long text with PII far past the 5,000th character
    detector = FakePiiDetector(max_chunk_chars=5_000)
    text = "x " * 4_000 + "mail jane@example.com now " + "y " * 4_000 + "Jane Doe"
    # When scrubbed
    result = scrub_texts([text], detector)
    # Then both entities are replaced and the detector never saw more than its limit
    assert "jane@example.com" not in result.texts[0]
    assert "Jane Doe" not in result.texts[0]
    assert result.counts == {"EMAIL": 1, "NAME": 1}
    assert max(detector.calls) <= 5_000 and len(detector.calls) >= 4


def test_entity_on_a_chunk_boundary_is_found_once() -> None:
    detector = FakePiiDetector(max_chunk_chars=1_000)
    text = "a" * 990 + " jane@example.com " + "b" * 990
    result = scrub_texts([text], detector)
    assert result.texts[0] == "a" * 990 + " [EMAIL] " + "b" * 990


def test_every_field_is_scrubbed_and_fields_stay_apart() -> None:
    detector = FakePiiDetector()
    result = scrub_texts(["hi Jane Doe", "", "write to jane@example.com", "clean"], detector)
    assert result.texts == ("hi [NAME]", "", "write to [EMAIL]", "clean")
    assert len(detector.calls) == 1


def test_a_detector_failure_fails_closed() -> None:
    detector = FakePiiDetector()
    detector.fail = True
    with pytest.raises(PiiDetectionFailed):
        scrub_texts(["Jane Doe"], detector)


def test_text_containing_the_field_separator_cannot_shift_fields() -> None:
    result = scrub_texts(["a\n\u2029\nb", "c"], FakePiiDetector())
    assert result.texts == ("a\n\n\nb", "c")


def test_a_throttled_detector_stays_retryable() -> None:
    class Throttled(FakePiiDetector):
        def detect(self, text: str) -> list[PiiEntity]:
            raise TransientError("ThrottlingException")

    with pytest.raises(TransientError):
        scrub_texts(["Jane Doe"], Throttled())


def test_a_name_becomes_the_same_pseudonym_everywhere_in_a_tenant() -> None:
    from agent_memory.core.privacy.scrubbing import Pseudonyms

    pseudonyms = Pseudonyms(b"k" * 32, "acme")
    result = scrub_texts(
        ["Jane Doe signed", "ask  jane doe", "mail jane@example.com"],
        FakePiiDetector(names=("Jane Doe", "jane doe")),
        pseudonyms,
    )
    first, second, third = result.texts
    token = first.split()[0]
    assert token.startswith("[NAME-") and second == f"ask  {token}"
    assert third == "mail [EMAIL]"  # only names are pseudonymised


def test_pseudonyms_differ_between_tenants_and_keys() -> None:
    from agent_memory.core.privacy.scrubbing import Pseudonyms

    labels = {
        Pseudonyms(key, scope).label("NAME", "Jane Doe")
        for key, scope in ((b"a" * 32, "acme"), (b"a" * 32, "globex"), (b"b" * 32, "acme"))
    }
    assert len(labels) == 3


def test_masked_spans_are_what_scrubbing_replaces() -> None:
    # Given a text with an address and a second mention of it
    detector = FakePiiDetector()
    text = "mail jane@example.com, again: jane@example.com"
    # When its masked spans are read and the text is scrubbed
    spans = masked_spans(text, detector)
    scrubbed = scrub_texts([text], detector).texts[0]
    # Then both mentions are spans, and replacing them gives the scrubbed text
    assert [text[e.begin : e.end] for e in spans] == ["jane@example.com"] * 2
    rebuilt = text[: spans[0].begin] + "[EMAIL]" + text[spans[0].end : spans[1].begin] + "[EMAIL]"
    assert scrubbed == rebuilt + text[spans[1].end :]
