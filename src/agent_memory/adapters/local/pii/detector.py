"""The local PII detector: pattern and word-list recognisers, no model and no network."""

from __future__ import annotations

from collections.abc import Sequence

import phonenumbers

from agent_memory.adapters.local.pii import (
    addresses,
    banking,
    contact,
    identifiers,
    lexicon,
    national_ids,
    network,
    numbers,
    russian_names,
)
from agent_memory.adapters.local.pii.names import NameRecogniser
from agent_memory.adapters.local.pii.spans import resolve
from agent_memory.core.ports import PiiEntity
from agent_memory.core.privacy.scrubbing import check_chunk

DEFAULT_MAX_CHUNK_CHARS = 100_000


class LocalPiiDetector:
    """A ``PiiDetector`` for local mode, labelling entities with Amazon Comprehend's types:
    NAME, EMAIL, PHONE, SSN, CREDIT_DEBIT_NUMBER, IP_ADDRESS, ADDRESS, the bank and card
    details (INTERNATIONAL_BANK_ACCOUNT_NUMBER, SWIFT_CODE, BANK_ACCOUNT_NUMBER, BANK_ROUTING,
    CREDIT_DEBIT_CVV, CREDIT_DEBIT_EXPIRY, PIN), the identity documents and national numbers
    (PASSPORT_NUMBER, DRIVER_ID, LICENSE_PLATE, VEHICLE_IDENTIFICATION_NUMBER and the UK_, CA_,
    US_ and IN_ types), MAC_ADDRESS, URL (one holding an "@") and USERNAME. Dates and ages are
    kept (``core.pii_policy``); passwords and keys are the credential detector's. Other
    countries' national identity and personal tax numbers are NATIONAL_ID and TAX_ID.

    ``regions``: ISO 3166 codes of the countries whose national phone numbers the tenant's
    texts hold; the text's own phone words, language and country names add more.

    Construction reads the name lists (tens of milliseconds); ``detect`` keeps no state
    between calls, so one instance may serve many threads.
    """

    def __init__(
        self, *, max_chunk_chars: int = DEFAULT_MAX_CHUNK_CHARS, regions: Sequence[str] = ()
    ) -> None:
        if max_chunk_chars < 1:
            raise ValueError("max_chunk_chars must be positive")
        self._max_chunk_chars = max_chunk_chars
        self._regions = tuple(_region(r) for r in regions)
        self._names = NameRecogniser()
        self._lexicon = lexicon.load()  # shared with the name recogniser, read once

    def _is_city(self, name: str) -> bool:
        return " ".join(lexicon.fold(w) for w in name.split()) in self._lexicon.places

    @property
    def max_chunk_chars(self) -> int:
        """Longest text one ``detect`` call accepts."""
        return self._max_chunk_chars

    def detect(self, text: str) -> list[PiiEntity]:
        """Disjoint entities in text order; raises ``ValueError`` for text over the limit."""
        check_chunk(text, self._max_chunk_chars)
        candidates = [
            *contact.find_emails(text),
            *contact.find_phones(text, self._regions),
            *numbers.find_ssns(text),
            *numbers.find_cards(text),
            *numbers.find_ips(text),
            *banking.find_ibans(text),
            *banking.find_bank_details(text),
            *banking.find_card_details(text),
            *identifiers.find_identifiers(text),
            *national_ids.find_national_ids(text),
            *network.find_macs(text),
            *network.find_credential_urls(text),
            *network.find_usernames(text, self._lexicon.is_english),
            *addresses.find_addresses(text, self._is_city),
            *russian_names.with_russian_names(text, self._names.find(text)),
        ]
        if not candidates:
            return []
        return resolve(_labels_not_names(_specific_over_phone(candidates), text), text)


# Told apart from a phone number by a checksum or a label word, though printed like one
# ("NHS 943 476 5919"): spans.resolve breaks ties by its own table, which predates them.
_LIKE_A_PHONE = frozenset(
    {
        "UK_NATIONAL_HEALTH_SERVICE_NUMBER",
        "UK_UNIQUE_TAXPAYER_REFERENCE_NUMBER",
        "CA_SOCIAL_INSURANCE_NUMBER",
        "CA_HEALTH_NUMBER",
        "IN_AADHAAR",
        "BANK_ACCOUNT_NUMBER",
        "BANK_ROUTING",
        "US_INDIVIDUAL_TAX_IDENTIFICATION_NUMBER",
        "NATIONAL_ID",
        "TAX_ID",
    }
)


# How far before a national number its label may stand ("Codice fiscale del cliente: …").
_LABEL_REACH = 40


def _labels_not_names(candidates: list[PiiEntity], text: str) -> list[PiiEntity]:
    """``candidates`` without a NAME made only of label words and words of one or two letters
    ("Codice", "Su Cédula") that stands right before a national number it labels.
    """
    numbers = [e.begin for e in candidates if e.type in _NATIONAL]
    if not numbers:
        return candidates
    words = national_ids.label_words()
    return [
        e
        for e in candidates
        if e.type != "NAME"
        or not any(0 <= n - e.end <= _LABEL_REACH for n in numbers)
        or not all(w in words or len(w) <= 2 for w in text[e.begin : e.end].lower().split())
    ]


def _region(code: str) -> str:
    """An ISO 3166 alpha-2 code phonenumbers knows, upper-cased; raises ``ValueError``."""
    region = code.strip().upper()
    if region not in phonenumbers.SUPPORTED_REGIONS:
        raise ValueError(f"regions: {code!r} is not an ISO 3166 region code phonenumbers knows")
    return region


# A national number after its label or in its own format is also a Luhn-valid digit string
# with a card's prefix now and then (South African identity numbers are Luhn-checked).
_NATIONAL = frozenset({"NATIONAL_ID", "TAX_ID"})


def _specific_over_phone(candidates: list[PiiEntity]) -> list[PiiEntity]:
    """``candidates`` without a PHONE that has exactly the span of a more specific number, nor
    a card number that has exactly the span of a national one.
    """
    specific = {(e.begin, e.end) for e in candidates if e.type in _LIKE_A_PHONE}
    if not specific:
        return candidates
    national = {(e.begin, e.end) for e in candidates if e.type in _NATIONAL}
    return [
        e
        for e in candidates
        if not (e.type == "PHONE" and (e.begin, e.end) in specific)
        and not (e.type == "CREDIT_DEBIT_NUMBER" and (e.begin, e.end) in national)
    ]
