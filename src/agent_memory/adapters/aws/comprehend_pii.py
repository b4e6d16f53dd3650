"""The ``PiiDetector`` port on Amazon Comprehend ``DetectPiiEntities``."""

from __future__ import annotations

import logging
from collections.abc import Collection
from typing import Any, Protocol

from botocore.exceptions import ClientError  # type: ignore[import-untyped, unused-ignore]

from agent_memory.adapters.aws._errors import THROTTLING_CODES, error_code, transient_errors
from agent_memory.core.model.errors import TransientError
from agent_memory.core.ports import PiiEntity
from agent_memory.core.privacy import languages
from agent_memory.core.privacy.pii_policy import KEPT_TYPES, url_is_personal

__all__ = [
    "DEFAULT_IGNORED_TYPES",
    "DEFAULT_MIN_SCORE",
    "MAX_REQUEST_BYTES",
    "ComprehendPiiDetector",
]

# DetectPiiEntities takes "a UTF-8 text string" of at most 100 KB; 100,000 is under either
# reading of "KB". A code point is at most 4 bytes in UTF-8, so this many characters always fit.
MAX_REQUEST_BYTES = 100_000
SAFE_CHUNK_CHARS = MAX_REQUEST_BYTES // 4
# Keep every entity Comprehend reports: a missed name or card number is written for good,
# while an over-scrubbed word costs little; Comprehend's documented labelling example scores a
# real card number at 0.57. Deployments that measure over-scrubbing can raise it.
DEFAULT_MIN_SCORE = 0.0
# Dates, times and ages stay in stored text in both modes (core.pii_policy): the local detector
# does not look for them either.
DEFAULT_IGNORED_TYPES = KEPT_TYPES
_OVERLAP = 256
# Logged for each call still throttled after botocore's retries; Comprehend publishes no
# throttling metric for DetectPiiEntities, so a log metric filter of the stack counts these.
THROTTLED_LOG = "comprehend throttled"

logger = logging.getLogger(__name__)


class ComprehendClient(Protocol):
    """The Comprehend call this adapter makes."""

    def detect_pii_entities(self, *, Text: str, LanguageCode: str) -> dict[str, Any]: ...


class ComprehendPiiDetector:
    """A ``PiiDetector`` returning Comprehend's entity types (NAME, EMAIL, PHONE, SSN, …).

    Every type is kept but ``ignored_types`` (by default ``DATE_TIME`` and ``AGE``), and a
    ``URL`` only when it names a user (``https://jdoe:pw@host``) or holds an email address,
    unless ``scrub_plain_urls``: the promise local mode makes (``core.pii_policy``).

    ``max_chunk_chars`` (what the core chunks by) defaults to a size whose UTF-8 always fits
    one request; a larger value is allowed, and any text whose UTF-8 is over the limit is split
    again here, with overlap, before it is sent. Offsets are code points, as Python indexes
    strings. Throttling raises ``TransientError``; every other failure propagates, and the core
    then writes nothing.

    Comprehend reads PII in English and Spanish only: each request is sent as Spanish when its
    text reads as Spanish (``core.privacy.languages``), else as English, unless
    ``language_code`` fixes one. Other languages are the local detector's, which the
    deployment runs beside this one.
    """

    def __init__(
        self,
        client: ComprehendClient,
        *,
        language_code: str | None = None,
        min_score: float = DEFAULT_MIN_SCORE,
        ignored_types: Collection[str] = DEFAULT_IGNORED_TYPES,
        scrub_plain_urls: bool = False,
        max_chunk_chars: int = SAFE_CHUNK_CHARS,
        max_request_bytes: int = MAX_REQUEST_BYTES,
    ) -> None:
        if max_chunk_chars < 1 or max_request_bytes < 4:
            raise ValueError("max_chunk_chars must be positive and max_request_bytes at least 4")
        self._client = client
        self._language = language_code
        self._min_score = min_score
        self._ignored = frozenset(ignored_types)
        self._scrub_plain_urls = scrub_plain_urls
        self._max_chunk_chars = max_chunk_chars
        self._max_bytes = max_request_bytes

    @property
    def max_chunk_chars(self) -> int:
        """Longest text the core should pass to one ``detect`` call."""
        return self._max_chunk_chars

    def detect(self, text: str) -> list[PiiEntity]:
        """Entities in ``text`` in text order, offsets clamped to the text."""
        found: set[PiiEntity] = set()
        for start, stop in byte_bounded_spans(text, self._max_bytes, _OVERLAP):
            for e in self._detect_piece(text[start:stop]):
                found.add(PiiEntity(e.type, start + e.begin, start + e.end, e.score))
        return sorted(found, key=lambda e: (e.begin, e.end, e.type))

    def _detect_piece(self, piece: str) -> list[PiiEntity]:
        if not piece.strip():
            return []  # Comprehend rejects empty text, and blank text holds no PII.
        try:
            with transient_errors("comprehend detect_pii_entities"):
                response = self._client.detect_pii_entities(
                    Text=piece, LanguageCode=self._language or language_of(piece)
                )
        except TransientError as error:
            cause = error.__cause__
            if isinstance(cause, ClientError) and error_code(cause) in THROTTLING_CODES:
                logger.warning(THROTTLED_LOG, extra={"code": error_code(cause)})
            raise
        entities = []
        for entity in response.get("Entities", []):
            score = float(entity.get("Score", 1.0))
            kind = str(entity.get("Type", "PII"))
            # Offsets past the text (seen from stubs and moto's canned answers) are clamped.
            begin = max(0, min(int(entity["BeginOffset"]), len(piece)))
            end = max(0, min(int(entity["EndOffset"]), len(piece)))
            if end <= begin or score < self._min_score or kind in self._ignored:
                continue
            if kind == "URL" and not (self._scrub_plain_urls or url_is_personal(piece[begin:end])):
                continue
            entities.append(PiiEntity(kind, begin, end, score))
        return entities


def byte_bounded_spans(text: str, max_bytes: int, overlap: int) -> list[tuple[int, int]]:
    """Windows ``[start, end)`` covering ``text`` whose UTF-8 is at most ``max_bytes`` each,
    overlapping by up to ``overlap`` characters so an entity on a cut is seen whole once.
    """
    if len(text.encode("utf-8", "surrogatepass")) <= max_bytes:
        return [(0, len(text))]
    sizes = [len(char.encode("utf-8", "surrogatepass")) for char in text]
    spans: list[tuple[int, int]] = []
    start = 0
    while True:
        end, used = start, 0
        while end < len(text) and used + sizes[end] <= max_bytes:
            used += sizes[end]
            end += 1
        spans.append((start, end))
        if end >= len(text):
            return spans
        start = end - min(overlap, (end - start) // 4)


def language_of(text: str) -> str:
    """``es`` for text whose likeliest language is Spanish, else ``en``."""
    guessed = languages.guess_text(text)
    return "es" if guessed and guessed[0] == "es" else "en"
