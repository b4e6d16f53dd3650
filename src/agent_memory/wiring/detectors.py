"""The detectors every write is scrubbed by, in both modes, built on first use.

Both modes run the local PII detector and the credential detector. A deployment may add Amazon
Comprehend beside them (``PiiDetectorChoice.COMPREHEND``): it reads English and Spanish only,
and is billed per 100 characters; the local detector holds the rules Comprehend has none of
(other countries' identifiers and phone numbers, names in other scripts), so adding it never
lowers what is caught.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from enum import StrEnum

from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.ports import PiiDetector, PiiEntity

__all__ = ["DetectorsOnFirstUse", "PiiDetectorChoice", "check_regions", "every_detector"]


class PiiDetectorChoice(StrEnum):
    """Which PII detectors a deployment runs: the local detector alone (with the credential
    detector, as every write is), or Amazon Comprehend beside them.
    """

    LOCAL = "local"
    COMPREHEND = "comprehend"

    @classmethod
    def parse(cls, value: str | None, *, field: str) -> PiiDetectorChoice:
        """The choice named by ``value`` (empty: ``local``); anything else names ``field``."""
        text = (value or cls.LOCAL.value).strip().lower()
        try:
            return cls(text)
        except ValueError:
            allowed = ", ".join(m.value for m in cls)
            raise InvalidInput(field, f"must be one of {allowed}, not {text!r}") from None


def check_regions(regions: Sequence[str], *, field: str) -> tuple[str, ...]:
    """``regions`` if the phone library knows each one; else ``InvalidInput`` naming ``field``
    (a deployment's typo is refused when it starts, not at its first write).
    """
    if not regions:
        return tuple(regions)
    import phonenumbers

    unknown = [r for r in regions if r not in phonenumbers.SUPPORTED_REGIONS]
    if unknown:
        raise InvalidInput(field, f"{', '.join(unknown)}: no country with that ISO 3166 code")
    return tuple(regions)


def every_detector(pii: PiiDetector | None = None, regions: Sequence[str] = ()) -> PiiDetector:
    """The local PII detector reading the phone numbers of ``regions`` (or ``pii``, a test's
    stand-in) and the credential detector.
    """
    from agent_memory.adapters.local.pii import LocalPiiDetector
    from agent_memory.adapters.secrets import CredentialDetector
    from agent_memory.core.privacy.scrubbing import AllDetectors

    return AllDetectors(pii or LocalPiiDetector(regions=regions), CredentialDetector())


class DetectorsOnFirstUse:
    """A ``PiiDetector`` imported and built when first asked for.

    Commands and functions that write nothing never scrub, so they skip loading the detectors
    (and their word lists).
    """

    def __init__(self, build: Callable[[], PiiDetector]) -> None:
        self._build = build
        self._built: PiiDetector | None = None
        self._lock = threading.Lock()

    def _detectors(self) -> PiiDetector:
        with self._lock:
            if self._built is None:
                self._built = self._build()
            return self._built

    @property
    def max_chunk_chars(self) -> int:
        """The smallest of the detectors' limits."""
        return self._detectors().max_chunk_chars

    def detect(self, text: str) -> list[PiiEntity]:
        """Every detector's entities."""
        return self._detectors().detect(text)
