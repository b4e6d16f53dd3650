"""AWS mode never promises less than local mode: by default it runs the local detector alone
(``test_pii_detector_choice.py``); under ``piiDetector=comprehend`` the local detector runs
beside Comprehend, so adding Comprehend never lowers what is caught.

Amazon Comprehend detects PII "in English or Spanish text documents" only
(https://docs.aws.amazon.com/comprehend/latest/dg/how-pii.html) and reports no type for other
countries' identifiers; a Comprehend that finds nothing in a text stands for that here.
"""

from __future__ import annotations

from typing import Any

import boto3
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_memory.adapters.aws.comprehend_pii import ComprehendPiiDetector
from agent_memory.core.privacy.scrubbing import detect_all
from agent_memory.wiring.aws import AwsRuntime
from agent_memory.wiring.detectors import every_detector
from tests.integration.aws.moto_dynamodb import REGION, settings_for

pytestmark = pytest.mark.usefixtures("stub_credentials")


class ReadsNoOtherLanguage:
    """Comprehend's DetectPiiEntities as it answers text in a language it does not read."""

    def __init__(self) -> None:
        self.calls = 0

    def detect_pii_entities(self, *, Text: str, LanguageCode: str) -> dict[str, Any]:
        self.calls += 1
        return {"Entities": []}


TABLES = {name: name for name in ("episodes", "facts", "procedures", "ledger")}
LOCAL = every_detector()
# Text of the kinds Comprehend has no reading of: other languages and countries' identifiers.
SENTENCES = [
    "Kontakt: Jürgen Müller, IBAN DE89 3704 0044 0532 0130 00, mail j.mueller@example.de",
    "La contraseña es Xk9#mQ2$vL7p y el correo es ana.garcia@example.es",
    "Rechnung an 192.168.14.7 gesendet; Token ghp_16C7e42F292c6912E7710c838347Ae178B4a",
    "Carte 4111 1111 1111 1111, adresse IP 2001:db8::8a2e:370:7334",
]


def _runtime(comprehend: ReadsNoOtherLanguage) -> AwsRuntime:
    return AwsRuntime(
        settings_for(TABLES),
        session=boto3.Session(region_name=REGION),
        pii=ComprehendPiiDetector(comprehend),
        local_detectors=LOCAL,
    )


@settings(max_examples=30, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(parts=st.lists(st.sampled_from(SENTENCES), min_size=1, max_size=4), glue=st.text(max_size=8))
def test_aws_mode_finds_everything_local_mode_finds(parts: list[str], glue: str) -> None:
    # Given a text Comprehend finds nothing in, and a deployed stack's detectors
    text = glue.join(parts)
    comprehend = ReadsNoOtherLanguage()
    aws = _runtime(comprehend).ports("acme").pii
    # When both modes look for personal data and credentials in it
    local_spans = detect_all(text, LOCAL)
    aws_spans = detect_all(text, aws)
    # Then every character local mode scrubs, AWS mode scrubs too, and Comprehend was asked
    covered = {i for e in aws_spans for i in range(e.begin, e.end)}
    assert all(i in covered for e in local_spans for i in range(e.begin, e.end))
    assert local_spans and comprehend.calls >= 1


def test_the_deployed_runtime_builds_the_local_detectors_once_per_container() -> None:
    # Given a fresh container's runtime with no detectors given
    runtime = AwsRuntime(
        settings_for(TABLES),
        session=boto3.Session(region_name=REGION),
        pii=ComprehendPiiDetector(ReadsNoOtherLanguage()),
    )
    # When two invocations build their ports and scrub
    first = runtime.ports("acme").pii.detect("Mail an jane@example.de")
    local = runtime.local_detectors
    second = runtime.ports("globex").pii.detect("Mail an jane@example.de")
    # Then the local detectors found the address both times, and were built once
    assert [e.type for e in first] == [e.type for e in second] == ["EMAIL"]
    assert local is not None and runtime.local_detectors is local
