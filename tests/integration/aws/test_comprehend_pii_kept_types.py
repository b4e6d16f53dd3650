"""The Comprehend adapter keeps what local mode keeps (core.pii_policy): dates, times, ages and
plain URLs stay in stored text by default; a URL naming a user or holding an address is not."""

from __future__ import annotations

from typing import Any

from agent_memory.adapters.aws.comprehend_pii import ComprehendPiiDetector
from agent_memory.adapters.local.pii import LocalPiiDetector

TEXT = (
    "On 3 May 2026 the 42-year-old admin read https://docs.aws.amazon.com/comprehend/ and "
    "cloned https://jdoe:s3cret@git.example.com/repo.git before lunch; unsubscribe at "
    "https://lists.example.com/off?m=ana.lima@example.com or read "
    "https://github.com/aws/aws-cdk/tree/main/packages/@aws-cdk/core."
)


def span(value: str, kind: str) -> dict[str, Any]:
    begin = TEXT.index(value)
    return {"Type": kind, "Score": 0.99, "BeginOffset": begin, "EndOffset": begin + len(value)}


class CannedComprehend:
    """Comprehend answering TEXT as it labels such a text: every date, age and URL."""

    def detect_pii_entities(self, *, Text: str, LanguageCode: str) -> dict[str, Any]:
        assert Text == TEXT
        return {
            "Entities": [
                span("3 May 2026", "DATE_TIME"),
                span("42-year-old", "AGE"),
                span("https://docs.aws.amazon.com/comprehend/", "URL"),
                span("https://jdoe:s3cret@git.example.com/repo.git", "URL"),
                span("https://lists.example.com/off?m=ana.lima@example.com", "URL"),
                span("https://github.com/aws/aws-cdk/tree/main/packages/@aws-cdk/core", "URL"),
            ]
        }


def kinds_and_values(detector: Any) -> list[tuple[str, str]]:
    return [(e.type, TEXT[e.begin : e.end]) for e in detector.detect(TEXT)]


def test_by_default_dates_ages_and_plain_urls_are_kept_and_personal_urls_are_not() -> None:
    # Given Comprehend reporting a date, an age, plain URLs (one with an npm scope's "@"), a
    # URL with credentials and one with an email address
    detector = ComprehendPiiDetector(CannedComprehend())
    # When the adapter detects with its defaults
    found = kinds_and_values(detector)
    # Then only the URLs with the user and the address are left to be scrubbed
    assert found == [
        ("URL", "https://jdoe:s3cret@git.example.com/repo.git"),
        ("URL", "https://lists.example.com/off?m=ana.lima@example.com"),
    ]


def test_the_local_detector_makes_the_same_promise_on_the_same_text() -> None:
    # Given the same text; When the local detector scans it
    found = kinds_and_values(LocalPiiDetector())
    # Then it scrubs the same user and address and leaves the date, the age and plain URLs
    assert found == [
        ("URL", "https://jdoe:s3cret@git.example.com/repo.git"),
        ("EMAIL", "ana.lima@example.com"),
    ]


def test_a_deployment_can_scrub_every_type_comprehend_reports() -> None:
    # Given an adapter told to ignore nothing and to scrub plain URLs too
    detector = ComprehendPiiDetector(CannedComprehend(), ignored_types=(), scrub_plain_urls=True)
    # When it detects
    found = {kind for kind, _ in kinds_and_values(detector)}
    # Then every reported type is kept
    assert found == {"DATE_TIME", "AGE", "URL"}
