"""The Comprehend adapter keeps what local mode keeps (core.pii_policy): dates, times, ages and
plain URLs stay in stored text by default; a URL holding an "@" is scrubbed."""

from __future__ import annotations

from typing import Any

from agent_memory.adapters.aws.comprehend_pii import ComprehendPiiDetector
from agent_memory.adapters.local.pii import LocalPiiDetector

TEXT = (
    "On 3 May 2026 the 42-year-old admin read https://docs.aws.amazon.com/comprehend/ and "
    "cloned https://jdoe:s3cret@git.example.com/repo.git before lunch."
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
            ]
        }


def kinds_and_values(detector: Any) -> list[tuple[str, str]]:
    return [(e.type, TEXT[e.begin : e.end]) for e in detector.detect(TEXT)]


def test_by_default_dates_ages_and_plain_urls_are_kept_and_a_url_with_an_at_is_not() -> None:
    # Given Comprehend reporting a date, an age, a plain URL and a URL with credentials
    detector = ComprehendPiiDetector(CannedComprehend())
    # When the adapter detects with its defaults
    found = kinds_and_values(detector)
    # Then only the URL with credentials is left to be scrubbed
    assert found == [("URL", "https://jdoe:s3cret@git.example.com/repo.git")]


def test_the_local_detector_makes_the_same_promise_on_the_same_text() -> None:
    # Given the same text; When the local detector scans it
    found = kinds_and_values(LocalPiiDetector())
    # Then it reports the same URL and leaves the date, the age and the plain URL
    assert found == [("URL", "https://jdoe:s3cret@git.example.com/repo.git")]


def test_a_deployment_can_scrub_every_type_comprehend_reports() -> None:
    # Given an adapter told to ignore nothing and to scrub plain URLs too
    detector = ComprehendPiiDetector(CannedComprehend(), ignored_types=(), scrub_plain_urls=True)
    # When it detects
    found = {kind for kind, _ in kinds_and_values(detector)}
    # Then every reported type is kept
    assert found == {"DATE_TIME", "AGE", "URL"}
