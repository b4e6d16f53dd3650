"""PII scrubbing: every text field, the whole text, in chunks, failing closed."""

from __future__ import annotations

import hmac
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from agent_memory.core.model.errors import PiiDetectionFailed, TransientError
from agent_memory.core.ports import PiiDetector, PiiEntity
from agent_memory.core.privacy.mentions import field_names, other_mentions
from agent_memory.core.privacy.reading_form import reading_form, stored_form

# Joins fields into one detector call; a paragraph separator no entity should span.
_FIELD_SEPARATOR = "\n\u2029\n"


@dataclass(frozen=True, slots=True)
class ScrubResult:
    """Scrubbed texts, in input order, and how many entities of each type were replaced."""

    texts: tuple[str, ...]
    counts: dict[str, int]


class AllDetectors:
    """A ``PiiDetector`` reporting what each of several detectors finds: the PII detector and
    the credential detector are one port, so every write is scrubbed of both.

    A failing detector fails the whole call (the caller then writes nothing).
    """

    def __init__(self, *detectors: PiiDetector) -> None:
        if not detectors:
            raise ValueError("at least one detector is needed")
        self.detectors = detectors

    @property
    def max_chunk_chars(self) -> int:
        """The smallest of the detectors' limits."""
        return min(detector.max_chunk_chars for detector in self.detectors)

    def detect(self, text: str) -> list[PiiEntity]:
        """Every detector's entities, possibly overlapping (``detect_all`` merges them)."""
        return [entity for detector in self.detectors for entity in detector.detect(text)]


def check_chunk(text: object, max_chunk_chars: int) -> str:
    """``text``, refused as a detector refuses it: not a string, or over its chunk limit."""
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    if len(text) > max_chunk_chars:
        raise ValueError(
            f"text of {len(text)} characters exceeds max_chunk_chars={max_chunk_chars}"
        )
    return text


def chunk_spans(length: int, max_chars: int, overlap: int) -> list[tuple[int, int]]:
    """Windows ``[start, end)`` covering ``range(length)``, each at most ``max_chars`` long and
    overlapping the next by ``overlap`` so an entity on a boundary is seen whole at least once.
    """
    if max_chars <= overlap:
        raise ValueError("max_chars must exceed overlap")
    spans: list[tuple[int, int]] = []
    start = 0
    while True:
        end = min(start + max_chars, length)
        spans.append((start, end))
        if end >= length:
            return spans
        start = end - overlap


def detect_all(text: str, detector: PiiDetector, *, overlap: int = 256) -> list[PiiEntity]:
    """Every entity in ``text`` of any length, merged into non-overlapping spans.

    Raises :class:`PiiDetectionFailed` if the detector fails on any chunk: an unscrubbed text is
    never returned.
    """
    limit = detector.max_chunk_chars
    found: list[PiiEntity] = []
    for start, end in chunk_spans(len(text), limit, min(overlap, limit // 4)):
        try:
            entities = detector.detect(text[start:end])
        except TransientError:
            raise  # throttled: still nothing written, and the step is worth retrying
        except Exception as error:  # any other detector failure means "unknown": fail closed
            raise PiiDetectionFailed(f"PII detector failed: {type(error).__name__}") from error
        for entity in entities:
            begin, stop = max(0, entity.begin), min(end - start, entity.end)
            if stop > begin:
                found.append(PiiEntity(entity.type, start + begin, start + stop, entity.score))
    return _merge(found)


def _merge(entities: list[PiiEntity]) -> list[PiiEntity]:
    merged: list[PiiEntity] = []
    for entity in sorted(entities, key=lambda e: (e.begin, -e.end)):
        if merged and entity.begin < merged[-1].end:
            last = merged[-1]
            # Overlapping finds become one span labelled by the longer find.
            longer = last if last.end - last.begin >= entity.end - entity.begin else entity
            merged[-1] = PiiEntity(longer.type, last.begin, max(last.end, entity.end), 1.0)
        else:
            merged.append(entity)
    return merged


@dataclass(frozen=True, slots=True)
class Pseudonyms:
    """Keyed pseudonyms for some entity types: ``[NAME-3f9a1c0b2d]`` instead of ``[NAME]``.

    The same person gets the same token across a tenant's runs and queries, so memory can
    still tell who did what, while no name is stored. Tokens are an HMAC of the normalised
    surface text under a secret key, scoped by tenant: without the key they cannot be reversed
    or linked across tenants.
    """

    key: bytes
    scope: str
    types: frozenset[str] = frozenset({"NAME"})

    def label(self, kind: str, surface: str) -> str:
        """The replacement for ``surface`` of entity type ``kind``."""
        if kind not in self.types:
            return f"[{kind}]"
        normal = " ".join(unicodedata.normalize("NFKC", surface).casefold().split())
        digest = hmac.new(self.key, f"{self.scope}\0{kind}\0{normal}".encode(), "sha256")
        return f"[{kind}-{digest.hexdigest()[:10]}]"


def pseudonyms_for(key: bytes | None, tenant_id: str) -> Pseudonyms | None:
    """The tenant's name pseudonyms under ``key``; None without a key (plain labels)."""
    return Pseudonyms(key, tenant_id) if key else None


def masked_spans(text: str, detector: PiiDetector) -> list[PiiEntity]:
    """What scrubbing masks in ``text``, merged and in order, as spans of ``text``: the
    detector's finds, names held under name keys, and every other mention of a find.
    """
    # The detector reads the text as a person would (invisible characters gone, look-alike
    # digits, dashes and spaces plain); what it finds is replaced in the text as stored.
    form = reading_form(text)
    # What no detector reads as prose (a name split over a value's fields), and every other
    # mention of what was found (the bare surname in another field), whatever the detector.
    found = [*detect_all(form.view, detector), *field_names(form.view)]
    found += other_mentions(form.view, found)
    return _merge([PiiEntity(e.type, *form.span(e.begin, e.end), e.score) for e in found])


def scrub_texts(
    texts: Sequence[str], detector: PiiDetector, pseudonyms: Pseudonyms | None = None
) -> ScrubResult:
    """Replace every entity in every text by its type label, e.g. ``[EMAIL]`` (or, for the
    types ``pseudonyms`` covers, by a keyed pseudonym).

    All texts go through the detector together (joined by a separator and chunked), so a record
    with many short fields costs a few detector calls, not one per field.
    """
    # U+2029 only ever appears as our separator, so fields split apart again exactly.
    joined = _FIELD_SEPARATOR.join(stored_form(text).replace("\u2029", "\n") for text in texts)
    entities = masked_spans(joined, detector)
    counts: Counter[str] = Counter()
    pieces: list[str] = []
    cursor = 0
    for entity in entities:
        pieces.append(joined[cursor : entity.begin])
        span = joined[entity.begin : entity.end]
        # Keep field separators inside a span so the fields can be split apart again.
        kept = _FIELD_SEPARATOR * span.count(_FIELD_SEPARATOR)
        if pseudonyms is not None and not kept:
            # Named as read, so an invisible character cannot make the same name a new one.
            label = pseudonyms.label(entity.type, reading_form(span).view)
        else:
            label = f"[{entity.type}]"
        pieces.append(f"{label}{kept}")
        counts[entity.type] += 1
        cursor = entity.end
    pieces.append(joined[cursor:])
    scrubbed = "".join(pieces).split(_FIELD_SEPARATOR)
    if len(scrubbed) != len(texts):
        raise PiiDetectionFailed("scrubbed text lost its field boundaries")
    return ScrubResult(tuple(scrubbed), dict(counts))


def query_form(text: str, detector: PiiDetector, pseudonyms: Pseudonyms | None) -> str:
    """A query as stored memory is written: names as the same pseudonyms, other PII as labels.

    Without pseudonyms the query is used as given (nothing in it would match a label). A query
    is never stored, so a detector failure is not fatal here: the raw text is used.
    """
    if pseudonyms is None:
        return text
    try:
        return scrub_texts([text], detector, pseudonyms).texts[0]
    except (PiiDetectionFailed, TransientError):
        return text


def scrub_signed(
    who: str,
    why: str | None,
    detector: PiiDetector,
    pseudonyms: Pseudonyms | None,
    *,
    max_who: int,
    max_why: int,
) -> tuple[str, str | None]:
    """A person's name and reason for a decision, as stored text is kept: scrubbed together
    (a name becomes its keyed pseudonym), each cut at its bound (a label can be longer than
    what it replaced).
    """
    texts = [who, *([why] if why is not None else [])]
    clean = scrub_texts(texts, detector, pseudonyms).texts
    return clean[0][:max_who], clean[1][:max_why] if why is not None else None
