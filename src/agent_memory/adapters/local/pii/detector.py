"""The local PII detector: pattern and word-list recognisers, no model and no network."""

from __future__ import annotations

from agent_memory.adapters.local.pii import addresses, contact, numbers
from agent_memory.adapters.local.pii.names import NameRecogniser
from agent_memory.adapters.local.pii.spans import resolve
from agent_memory.core.ports import PiiEntity
from agent_memory.core.scrubbing import check_chunk

DEFAULT_MAX_CHUNK_CHARS = 100_000


class LocalPiiDetector:
    """A ``PiiDetector`` for local mode, labelling entities with Amazon Comprehend's types:
    NAME, EMAIL, PHONE, SSN, CREDIT_DEBIT_NUMBER, IP_ADDRESS and ADDRESS.

    Construction reads the name lists (tens of milliseconds); ``detect`` keeps no state
    between calls, so one instance may serve many threads.
    """

    def __init__(self, *, max_chunk_chars: int = DEFAULT_MAX_CHUNK_CHARS) -> None:
        if max_chunk_chars < 1:
            raise ValueError("max_chunk_chars must be positive")
        self._max_chunk_chars = max_chunk_chars
        self._names = NameRecogniser()

    @property
    def max_chunk_chars(self) -> int:
        """Longest text one ``detect`` call accepts."""
        return self._max_chunk_chars

    def detect(self, text: str) -> list[PiiEntity]:
        """Disjoint entities in text order; raises ``ValueError`` for text over the limit."""
        check_chunk(text, self._max_chunk_chars)
        candidates = [
            *contact.find_emails(text),
            *contact.find_phones(text),
            *numbers.find_ssns(text),
            *numbers.find_cards(text),
            *numbers.find_ips(text),
            *addresses.find_addresses(text),
            *self._names.find(text),
        ]
        return resolve(candidates, text) if candidates else []
