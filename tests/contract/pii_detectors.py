"""PII detectors under the contract of ``test_pii_detector``: one factory per adapter.

Each factory says which plain, long-supported entities its detector must find (``finds``:
entity text, in ``SAMPLE``) and what it does with text over its ``max_chunk_chars``: refuse it
with ``ValueError`` (``refuses_long_text``) or still find every entity in it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from agent_memory.adapters.aws.comprehend_pii import ComprehendPiiDetector
from agent_memory.adapters.local.pii import LocalPiiDetector
from agent_memory.adapters.secrets import CredentialDetector
from agent_memory.core.ports import PiiDetector
from agent_memory.core.privacy.scrubbing import AllDetectors
from tests.support.fake_comprehend import comprehend_client

EMAIL = "jane.doe@example.com"
SSN = "078-05-1120"
GITHUB_TOKEN = "ghp_Zx8kQ2mN4pR7sT1vW3yB5dF6hJ9lA0cE2gI4"
AWS_KEY = "AKIAZ7QW3ERTYUIOPASD"
# Every planted entity, each in the plainest context its recogniser knows.
SAMPLE = (
    f"Write to {EMAIL} about SSN {SSN}. "
    f"The deploy token is {GITHUB_TOKEN} and the access key {AWS_KEY}."
)
PERSONAL = (EMAIL, SSN)
CREDENTIALS = (GITHUB_TOKEN, AWS_KEY)


@dataclass(frozen=True)
class DetectorUnderTest:
    detector: PiiDetector
    finds: tuple[str, ...]
    refuses_long_text: bool


DetectorFactory = Callable[[], DetectorUnderTest]


def local() -> DetectorUnderTest:
    return DetectorUnderTest(LocalPiiDetector(), PERSONAL, refuses_long_text=True)


def comprehend() -> DetectorUnderTest:
    # Comprehend's adapter takes text over its chunk size and splits it by UTF-8 bytes itself.
    detector = ComprehendPiiDetector(comprehend_client(LocalPiiDetector()))
    return DetectorUnderTest(detector, PERSONAL, refuses_long_text=False)


def credentials() -> DetectorUnderTest:
    return DetectorUnderTest(CredentialDetector(), CREDENTIALS, refuses_long_text=True)


def local_mode() -> DetectorUnderTest:
    # As wiring.py composes them for local mode.
    detector = AllDetectors(LocalPiiDetector(), CredentialDetector())
    return DetectorUnderTest(detector, PERSONAL + CREDENTIALS, refuses_long_text=True)


def aws_mode() -> DetectorUnderTest:
    # As wiring/aws.py composes them: a text over the smaller limit (Comprehend's) is
    # still within the credential detector's, so neither refuses it.
    comprehend_pii = ComprehendPiiDetector(comprehend_client(LocalPiiDetector()))
    detector = AllDetectors(comprehend_pii, CredentialDetector())
    return DetectorUnderTest(detector, PERSONAL + CREDENTIALS, refuses_long_text=False)


ADAPTERS: dict[str, DetectorFactory] = {
    "local": local,
    "comprehend": comprehend,
    "credentials": credentials,
    "all-local": local_mode,
    "all-aws": aws_mode,
}
