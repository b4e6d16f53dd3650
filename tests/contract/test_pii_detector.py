"""The ``PiiDetector`` contract: every test runs once per detector in ``pii_detectors.ADAPTERS``.

Covered: the local detector, Comprehend's adapter (``DetectPiiEntities`` answered at the botocore
boundary by a fixed recogniser, ``tests/support/fake_comprehend.py``), the credential detector,
and both compositions the wiring builds (``AllDetectors``). Only plain, long-supported entities
are planted: recall is measured elsewhere, not here.

To put a new detector under the contract, add a factory to ``ADAPTERS`` in
``tests/contract/pii_detectors.py``: it returns the detector, the planted entities of ``SAMPLE``
it must find, and whether it refuses text over its ``max_chunk_chars``.
"""

from __future__ import annotations

import pytest

from agent_memory.core.ports import PiiDetector, PiiEntity
from tests.contract.builders import in_threads
from tests.contract.pii_detectors import ADAPTERS, SAMPLE, DetectorFactory, DetectorUnderTest

# Code points that are more than one UTF-16 unit or more than one UTF-8 byte, and sequences of
# several code points drawn as one character: offsets must count code points, as Python does.
UNICODE_PREFIX = "👋🏽 café (cafe\u0301) 👩‍👩‍👧 東京 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 — "
PLAIN = "the build passed after the second retry and the report went out on time"


@pytest.fixture(params=sorted(ADAPTERS))
def factory(request: pytest.FixtureRequest) -> DetectorFactory:
    return ADAPTERS[request.param]


@pytest.fixture
def under_test(factory: DetectorFactory) -> DetectorUnderTest:
    return factory()


@pytest.fixture
def detector(under_test: DetectorUnderTest) -> PiiDetector:
    return under_test.detector


def found(text: str, entities: list[PiiEntity]) -> set[str]:
    return {text[e.begin : e.end] for e in entities}


def assert_well_formed(text: str, entities: list[PiiEntity]) -> None:
    for entity in entities:
        assert 0 <= entity.begin < entity.end <= len(text), entity
        assert isinstance(entity.type, str) and entity.type, entity
        assert 0.0 <= entity.score <= 1.0, entity


def test_detector_satisfies_the_pii_detector_port(detector: PiiDetector) -> None:
    assert isinstance(detector, PiiDetector)
    assert isinstance(detector.max_chunk_chars, int) and detector.max_chunk_chars > 0


def test_the_planted_entities_are_found_at_their_offsets(under_test: DetectorUnderTest) -> None:
    entities = under_test.detector.detect(SAMPLE)

    assert_well_formed(SAMPLE, entities)
    assert set(under_test.finds) <= found(SAMPLE, entities)


def test_empty_and_blank_text_hold_no_entity(detector: PiiDetector) -> None:
    assert detector.detect("") == []
    assert detector.detect(" \n\t ") == []


def test_a_plain_sentence_holds_no_entity(detector: PiiDetector) -> None:
    assert detector.detect(PLAIN) == []


def test_offsets_count_code_points(under_test: DetectorUnderTest) -> None:
    # Given the entities after emoji, a ZWJ sequence, combining marks and astral letters
    text = UNICODE_PREFIX + SAMPLE
    # When detected
    entities = under_test.detector.detect(text)
    # Then each slice of the text at an entity's offsets is the entity, as written
    assert_well_formed(text, entities)
    assert set(under_test.finds) <= found(text, entities)


def test_text_over_the_chunk_limit_is_refused_or_searched_whole(
    under_test: DetectorUnderTest,
) -> None:
    # Given a text longer than the detector's chunk limit (in code points, each four bytes of
    # UTF-8), with the entities at its end, past the limit
    detector = under_test.detector
    text = "🙂" * (detector.max_chunk_chars + 1) + " " + SAMPLE
    if under_test.refuses_long_text:
        # Then a detector that refuses it raises ValueError (the caller splits the text)
        with pytest.raises(ValueError, match="max_chunk_chars"):
            detector.detect(text)
    else:
        # Or one that takes it finds the entities at their offsets in the whole text
        entities = detector.detect(text)
        assert_well_formed(text, entities)
        assert set(under_test.finds) <= found(text, entities)


def test_text_at_the_chunk_limit_is_taken(under_test: DetectorUnderTest) -> None:
    detector = under_test.detector
    text = " " * (detector.max_chunk_chars - len(SAMPLE)) + SAMPLE

    assert set(under_test.finds) <= found(text, detector.detect(text))


TEXTS = [f"{PLAIN} {i}. " * (i % 3) + SAMPLE.replace("jane", f"jane{i}") for i in range(12)]


def test_one_detector_answers_concurrent_callers_as_it_answers_one(detector: PiiDetector) -> None:
    # Given texts that differ in where and what their entities are, answered one at a time
    alone = [detector.detect(text) for text in TEXTS]
    # When the same detector answers them from eight threads at once, several times over
    together = in_threads(detector.detect, TEXTS * 4)
    # Then every answer is the one given alone
    assert together == alone * 4


def test_a_new_detector_may_be_first_called_from_many_threads(factory: DetectorFactory) -> None:
    # Given the answers of one detector called one text at a time
    first = factory().detector
    alone = [first.detect(text) for text in TEXTS]
    # When a new detector (nothing loaded yet) gets its first calls from eight threads at once
    together = in_threads(factory().detector.detect, TEXTS)
    # Then it answers as the first did
    assert together == alone
