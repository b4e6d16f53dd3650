"""ComprehendPiiDetector: exact requests on Stubber, split requests on a fake, moto canned."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError
from botocore.stub import Stubber
from moto import mock_aws

from agent_memory.adapters.aws.comprehend_pii import MAX_REQUEST_BYTES, ComprehendPiiDetector
from agent_memory.core.model.errors import PiiDetectionFailed, TransientError
from agent_memory.core.ports import PiiDetector, PiiEntity
from agent_memory.core.privacy.scrubbing import scrub_texts

REGION = "us-east-1"
# The input of Comprehend's developer guide example ("Detecting PII entities"), with offsets
# as Comprehend gives them: code points, end exclusive.
EXAMPLE = (
    "Hello Paulo Santos. The latest statement for your credit card account "
    "1111-0000-1111-0000 was mailed to 123 Any Street, Seattle, WA 98109."
)
EXAMPLE_ENTITIES = [
    {"Score": 0.99, "Type": "NAME", "BeginOffset": 6, "EndOffset": 18},
    {"Score": 0.89, "Type": "CREDIT_DEBIT_NUMBER", "BeginOffset": 70, "EndOffset": 89},
    {"Score": 0.98, "Type": "ADDRESS", "BeginOffset": 104, "EndOffset": 137},
]


pytestmark = pytest.mark.usefixtures("stub_credentials")


@pytest.fixture
def comprehend() -> Iterator[Stubber]:
    with Stubber(boto3.client("comprehend", region_name=REGION)) as stubber:
        yield stubber
        stubber.assert_no_pending_responses()


def expect(stubber: Stubber, text: str, entities: list[dict[str, Any]]) -> None:
    stubber.add_response(
        "detect_pii_entities", {"Entities": entities}, {"Text": text, "LanguageCode": "en"}
    )


class MarkerComprehend:
    """A fake Comprehend that finds a marker name, so split requests can be checked."""

    def __init__(self, marker: str) -> None:
        self.marker = marker
        self.texts: list[str] = []

    def detect_pii_entities(self, *, Text: str, LanguageCode: str) -> dict[str, Any]:
        assert len(Text.encode("utf-8")) <= MAX_REQUEST_BYTES
        self.texts.append(Text)
        return {
            "Entities": [
                {"Type": "NAME", "Score": 0.99, "BeginOffset": m.start(), "EndOffset": m.end()}
                for m in re.finditer(re.escape(self.marker), Text)
            ]
        }


def test_adapter_satisfies_the_pii_detector_port(comprehend: Stubber) -> None:
    assert isinstance(ComprehendPiiDetector(comprehend.client), PiiDetector)


def test_entities_keep_comprehend_types_and_offsets(comprehend: Stubber) -> None:
    expect(comprehend, EXAMPLE, EXAMPLE_ENTITIES)

    found = ComprehendPiiDetector(comprehend.client).detect(EXAMPLE)

    assert [(e.type, EXAMPLE[e.begin : e.end]) for e in found] == [
        ("NAME", "Paulo Santos"),
        ("CREDIT_DEBIT_NUMBER", "1111-0000-1111-0000"),
        ("ADDRESS", "123 Any Street, Seattle, WA 98109"),
    ]


def test_default_chunk_of_four_byte_characters_fits_one_request(comprehend: Stubber) -> None:
    # Given the longest chunk the core will send, made of characters of four UTF-8 bytes
    detector = ComprehendPiiDetector(comprehend.client)
    text = "\U0001f600" * detector.max_chunk_chars
    expect(comprehend, text, [])

    # Then it goes out whole, within the byte limit
    assert detector.detect(text) == []
    assert len(text.encode("utf-8")) <= MAX_REQUEST_BYTES


def test_text_over_the_byte_limit_is_split_and_offsets_shifted_back() -> None:
    # Given a chunk size the byte limit cannot hold and a name beyond the first request's reach
    client = MarkerComprehend("Zoë Ångström")
    detector = ComprehendPiiDetector(client, max_chunk_chars=200_000)
    text = "é" * 60_000 + " Zoë Ångström " + "ü" * 60_000

    found = detector.detect(text)

    start = text.index("Zoë Ångström")
    assert len(client.texts) > 1
    assert found == [PiiEntity("NAME", start, start + len("Zoë Ångström"), 0.99)]


def test_a_name_on_the_cut_between_requests_is_still_found() -> None:
    # Given a name straddling where the first request must end (100,000 ASCII bytes)
    client = MarkerComprehend("Paulo Santos")
    detector = ComprehendPiiDetector(client, max_chunk_chars=200_000)
    text = "x" * (MAX_REQUEST_BYTES - 5) + "Paulo Santos" + "x" * 1000

    found = detector.detect(text)

    assert [text[e.begin : e.end] for e in found] == ["Paulo Santos"]


def test_entities_below_min_score_are_dropped(comprehend: Stubber) -> None:
    expect(comprehend, EXAMPLE, EXAMPLE_ENTITIES)

    found = ComprehendPiiDetector(comprehend.client, min_score=0.95).detect(EXAMPLE)

    assert [e.type for e in found] == ["NAME", "ADDRESS"]


def test_default_keeps_low_scoring_entities(comprehend: Stubber) -> None:
    expect(comprehend, EXAMPLE, [{**EXAMPLE_ENTITIES[1], "Score": 0.12}])

    found = ComprehendPiiDetector(comprehend.client).detect(EXAMPLE)

    assert [e.type for e in found] == ["CREDIT_DEBIT_NUMBER"]


def test_ignored_types_are_dropped(comprehend: Stubber) -> None:
    expect(comprehend, EXAMPLE, EXAMPLE_ENTITIES)

    found = ComprehendPiiDetector(comprehend.client, ignored_types={"ADDRESS"}).detect(EXAMPLE)

    assert [e.type for e in found] == ["NAME", "CREDIT_DEBIT_NUMBER"]


def test_blank_text_makes_no_call(comprehend: Stubber) -> None:
    # The stub has no responses queued: any call would raise.
    assert ComprehendPiiDetector(comprehend.client).detect("  \n ") == []


@pytest.mark.parametrize("code", ["ThrottlingException", "TooManyRequestsException"])
def test_throttling_is_transient(comprehend: Stubber, code: str) -> None:
    comprehend.add_client_error("detect_pii_entities", code, "slow down", 400)

    with pytest.raises(TransientError):
        ComprehendPiiDetector(comprehend.client).detect(EXAMPLE)


def test_other_failures_propagate(comprehend: Stubber) -> None:
    comprehend.add_client_error("detect_pii_entities", "TextSizeLimitExceededException", "big", 400)

    with pytest.raises(ClientError):
        ComprehendPiiDetector(comprehend.client).detect(EXAMPLE)


def test_core_writes_nothing_when_comprehend_fails(comprehend: Stubber) -> None:
    comprehend.add_client_error("detect_pii_entities", "AccessDeniedException", "no", 400)

    with pytest.raises(PiiDetectionFailed):
        scrub_texts(["Call Paulo Santos"], ComprehendPiiDetector(comprehend.client))


def test_core_scrubs_with_comprehend_offsets(comprehend: Stubber) -> None:
    expect(comprehend, EXAMPLE, EXAMPLE_ENTITIES)

    scrubbed = scrub_texts([EXAMPLE], ComprehendPiiDetector(comprehend.client))

    assert scrubbed.texts == (
        "Hello [NAME]. The latest statement for your credit card account "
        "[CREDIT_DEBIT_NUMBER] was mailed to [ADDRESS].",
    )


def test_moto_canned_offsets_past_the_text_are_clamped() -> None:
    # Given moto, which answers NAME 50-58, EMAIL 230-259 and BANK_ACCOUNT_NUMBER 334-349 to any
    # text, and a text of 300 characters: the last entity lies wholly past its end
    text = "a" * 300
    with mock_aws():
        detector = ComprehendPiiDetector(boto3.client("comprehend", region_name=REGION))

        found = detector.detect(text)

    assert [(e.type, e.begin, e.end) for e in found] == [("NAME", 50, 58), ("EMAIL", 230, 259)]


def test_core_scrubs_a_short_text_through_moto_without_crashing() -> None:
    with mock_aws():
        detector = ComprehendPiiDetector(boto3.client("comprehend", region_name=REGION))

        scrubbed = scrub_texts(["short", "texts"], detector)

    # NAME 50-58 is past "short\n\u2029\ntexts" (13 chars) and clamps to nothing
    assert scrubbed.texts == ("short", "texts")


class LanguageRecorder:
    """A fake Comprehend recording the language each request is sent in."""

    def __init__(self) -> None:
        self.languages: list[str] = []

    def detect_pii_entities(self, *, Text: str, LanguageCode: str) -> dict[str, Any]:
        self.languages.append(LanguageCode)
        return {"Entities": []}


def test_spanish_text_is_sent_as_spanish_and_every_other_language_as_english() -> None:
    # Given Comprehend, which reads PII in English and Spanish only
    # (https://docs.aws.amazon.com/comprehend/latest/dg/how-pii.html)
    client = LanguageRecorder()
    detector = ComprehendPiiDetector(client)
    # When Spanish, English and German texts are scrubbed
    detector.detect("La factura de la cuenta se envió a Ana García por correo y está pagada.")
    detector.detect("The invoice for the account was mailed to Ana and it is paid.")
    detector.detect("Die Rechnung wurde an Frau Weber geschickt und ist bezahlt.")
    # Then each request names the language Comprehend reads it best in
    assert client.languages == ["es", "en", "en"]


def test_a_fixed_language_is_sent_as_given() -> None:
    client = LanguageRecorder()
    ComprehendPiiDetector(client, language_code="es").detect("The invoice was paid.")
    assert client.languages == ["es"]
