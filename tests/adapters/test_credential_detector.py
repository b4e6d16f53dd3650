"""The credential detector (detect-secrets' plugins as a ``PiiDetector``) and its composition
with the PII detector in scrubbing."""

from __future__ import annotations

import base64
import random

import pytest

from agent_memory.adapters.local.pii import LocalPiiDetector
from agent_memory.adapters.secrets import CredentialDetector
from agent_memory.core.model.errors import PiiDetectionFailed
from agent_memory.core.ports import PiiDetector, PiiEntity
from agent_memory.core.privacy.scrubbing import AllDetectors, scrub_texts


def key_block() -> tuple[str, list[str]]:
    encoded = base64.b64encode(random.Random(5).randbytes(900)).decode()
    body = [encoded[i : i + 64] for i in range(0, len(encoded), 64)]
    block = "-----BEGIN OPENSSH PRIVATE KEY-----\n" + "\n".join(body)
    return block + "\n-----END OPENSSH PRIVATE KEY-----", body


def test_it_is_a_pii_detector() -> None:
    # Given the credential detector, Then it implements the port scrubbing calls
    assert isinstance(CredentialDetector(), PiiDetector)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("key AKIAZ3MHALF7QW2EXD4N", "AWS_ACCESS_KEY"),
        ("token ghp_R8tLq2Zx9KmV4wN7pB3cY6hJ1sD5fG0aE2uT", "GITHUB_TOKEN"),
        ("xoxb-2048193377-1038471920384-Xh3kR9qLmN2pV7wT5yZcB8dF", "SLACK_TOKEN"),
        ("sk_live_51Hq8ZxL3kR9vT2mN7pW4yBc", "STRIPE_ACCESS_KEY"),
        ("postgres://app:Wint3r-Is-C0ming@db:5432/x", "PASSWORD"),
        ("the root password is Zx81-spectrum!", "PASSWORD"),
        ("password: hunter2", "SECRET"),
    ],
)
def test_each_credential_is_labelled_by_its_kind(text: str, kind: str) -> None:
    # Given a text with one credential, When the detector reads it
    found = CredentialDetector().detect(text)
    # Then it is reported with its kind
    assert kind in {e.type for e in found}


def test_a_private_key_split_across_detector_calls_leaves_no_line_of_its_body() -> None:
    # Given a key block longer than one detector call, in a support message
    block, body = key_block()
    text = f"Customer pasted the deploy key:\n{block}\nand asked us to rotate it."
    detector = AllDetectors(LocalPiiDetector(), CredentialDetector(max_chunk_chars=400))
    assert len(block) > 3 * detector.max_chunk_chars  # one chunk has only body lines
    # When the text is scrubbed (in chunks, each chunk a detector call)
    [scrubbed] = scrub_texts([text], detector).texts
    # Then no line of the key's body is left, and the prose around it is
    assert [line for line in body if line in scrubbed] == []
    assert scrubbed.startswith("Customer pasted the deploy key:")
    assert scrubbed.endswith("and asked us to rotate it.")


def test_a_password_is_replaced_and_its_key_kept() -> None:
    # Given a config line, When it is scrubbed with the PII and credential detectors
    [scrubbed] = scrub_texts(
        ["db_password = s3cr3t-Pa55 # rotated monthly"],
        AllDetectors(LocalPiiDetector(), CredentialDetector()),
    ).texts
    # Then the value is a label and the rest of the line is as written
    assert scrubbed == "db_password = [SECRET] # rotated monthly"


class Failing:
    max_chunk_chars = 1_000

    def detect(self, text: str) -> list[PiiEntity]:
        raise RuntimeError("detector down")


def test_either_detector_failing_fails_the_scrub_closed() -> None:
    # Given the credential detector beside a PII detector that fails
    detector = AllDetectors(Failing(), CredentialDetector())
    # When a text is scrubbed, Then nothing is returned unscrubbed
    with pytest.raises(PiiDetectionFailed):
        scrub_texts(["api_key=9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c"], detector)


def test_the_composite_calls_with_the_smallest_chunk_any_detector_takes() -> None:
    # Given detectors of different limits, Then the composite takes the smallest
    detector = AllDetectors(CredentialDetector(max_chunk_chars=900), Failing())
    assert detector.max_chunk_chars == 900
