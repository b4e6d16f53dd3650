"""What a deployed function scrubs with, by the deployment's ``piiDetector``: the local PII and
credential detectors alone by default, with no Comprehend client made, let alone called; under
``comprehend``, Amazon Comprehend beside them.

Comprehend's DetectPiiEntities is billed per 100 characters, 3 units at least per request
(https://aws.amazon.com/comprehend/pricing/), and reads English and Spanish only
(https://docs.aws.amazon.com/comprehend/latest/dg/how-pii.html).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from unittest import mock

import boto3
import pytest

from agent_memory.core.privacy.scrubbing import detect_all
from agent_memory.wiring.aws import AwsRuntime
from agent_memory.wiring.detectors import PiiDetectorChoice, every_detector
from tests.integration.aws.moto_dynamodb import REGION, settings_for
from tests.support.botocore_answers import answer
from tests.support.fake_comprehend import detect_pii_entities
from tests.support.fakes import FakePiiDetector
from tests.support.guarded_runtime import GuardedRuntime

pytestmark = pytest.mark.usefixtures("stub_credentials")

TABLES = {name: name for name in ("episodes", "facts", "procedures", "ledger")}
# The kinds of data the README's PII table promises, as a run might hold them.
SENTENCES = [
    "Call Jane at +1 415 555 0134 or mail jane.doe@example.com about the renewal.",
    "Kontakt: Jürgen Müller, IBAN DE89 3704 0044 0532 0130 00, mail j.mueller@example.de",
    "Carte 4111 1111 1111 1111, adresse IP 2001:db8::8a2e:370:7334",
    "Rechnung an 192.168.14.7 gesendet; Token ghp_16C7e42F292c6912E7710c838347Ae178B4a",
]


@pytest.fixture
def made() -> Iterator[list[str]]:
    """The service of every client any boto3 session makes meanwhile."""
    services: list[str] = []
    real = boto3.Session.client

    def recording(session: boto3.Session, service: str, *args: Any, **kwargs: Any) -> Any:
        services.append(service)
        return real(session, service, *args, **kwargs)

    with mock.patch.object(boto3.Session, "client", recording):
        yield services


def _spans(text: str, found: list[Any]) -> set[int]:
    return {i for e in found for i in range(e.begin, e.end)}


def test_a_default_runtime_scrubs_with_the_local_detectors_and_never_makes_comprehend(
    made: list[str],
) -> None:
    # Given a function's runtime of the default deployment (no PII_DETECTOR: local)
    runtime = AwsRuntime(settings_for(TABLES), session=boto3.Session(region_name=REGION))
    assert runtime.settings.pii_detector is PiiDetectorChoice.LOCAL
    local = every_detector()
    for text in SENTENCES:
        # When a tenant's write is scrubbed
        found = detect_all(text, runtime.ports("acme").pii)
        # Then it finds what local mode finds, every character of it
        expected = _spans(text, detect_all(text, local))
        assert expected and _spans(text, found) == expected, text
    # And no Comprehend client was made (so none was called, and none is billed)
    assert "comprehend" not in made


def test_under_comprehend_the_runtime_calls_it_beside_the_local_detectors(
    made: list[str],
) -> None:
    # Given a function's runtime of a deployment with piiDetector=comprehend, Comprehend
    # answered in-process (it knows one name the local detector may not)
    calls: list[str] = []
    recogniser = detect_pii_entities(FakePiiDetector(names=("Zorblax Quint",)))

    def counted(params: dict[str, Any]) -> dict[str, Any]:
        calls.append(params["Text"])
        return recogniser(params)

    def serve(client: Any) -> None:
        if client.meta.service_model.service_name == "comprehend":
            answer(client, "DetectPiiEntities", counted)

    runtime = GuardedRuntime(
        settings_for(TABLES, pii_detector=PiiDetectorChoice.COMPREHEND),
        session=boto3.Session(region_name=REGION),
        prepare_client=serve,
    )
    text = "Zorblax Quint wrote from jane.doe@example.com"
    # When a write is scrubbed
    found = detect_all(text, runtime.ports("acme").pii)
    # Then Comprehend was asked, and both its name and the local detector's address are found
    assert calls and "comprehend" in made
    covered = _spans(text, found)
    for value in ("Zorblax Quint", "jane.doe@example.com"):
        start = text.index(value)
        assert all(i in covered for i in range(start, start + len(value))), value


def test_a_given_stand_in_runs_beside_the_local_detectors_whatever_the_choice(
    made: list[str],
) -> None:
    # Given runtimes of both choices with a service detector given (as tests stand one in)
    for choice in PiiDetectorChoice:
        stand_in = FakePiiDetector(names=("Zorblax Quint",))
        runtime = AwsRuntime(
            settings_for(TABLES, pii_detector=choice),
            session=boto3.Session(region_name=REGION),
            pii=stand_in,
        )
        # When a write is scrubbed
        text = "Zorblax Quint, IBAN DE89 3704 0044 0532 0130 00"
        found = detect_all(text, runtime.ports("acme").pii)
        # Then the stand-in ran (its name found) and so did the local detectors (the IBAN)
        assert stand_in.calls and "NAME" in {e.type for e in found}, choice
        assert _spans(text, detect_all(text, every_detector())) <= _spans(text, found), choice
    # And no Comprehend client was made: the stand-in is Comprehend's
    assert "comprehend" not in made
