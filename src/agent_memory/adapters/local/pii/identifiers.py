"""Government and vehicle identifiers: passports, driving licences, licence plates, VINs, and
the national numbers Amazon Comprehend reports for the UK, Canada, the US and India.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from agent_memory.adapters.local.pii._labels import compact, labelled, stdnum_valid
from agent_memory.core.ports import PiiEntity


def _sin(value: str) -> bool:
    return stdnum_valid("ca.sin", value)


def _itin(value: str) -> bool:
    return stdnum_valid("us.itin", value)


def _utr(value: str) -> bool:
    return stdnum_valid("gb.utr", value)


def _nhs(value: str) -> bool:
    return stdnum_valid("gb.nhs", value)


def _aadhaar(value: str) -> bool:
    return stdnum_valid("in_.aadhaar", value)


def _epic(value: str) -> bool:
    return stdnum_valid("in_.epic", value)


def _has_digit(value: str) -> bool:
    return any(c.isdigit() for c in value)


def _plate(value: str) -> bool:
    return _has_digit(value) and any(c.isalpha() for c in value) and 4 <= len(value) <= 9


def _document(value: str) -> bool:
    return _has_digit(value) and 6 <= len(value) <= 20


# A value with a digit, upper-case letters and digits, grouped by hyphens or single spaces.
_DOCUMENT = r"[A-Z0-9]{1,20}(?:[- ][A-Z0-9]{1,20}){0,4}"

_PASSPORT = labelled(
    "PASSPORT_NUMBER",
    "passport|passeport|reisepass",
    r"\bpassport(?:\s+(?:no|number|num|#))?\b|\bpasseport\b|\bReisepass(?:nummer)?\b",
    r"[A-Z0-9]{6,9}",
    _has_digit,
)
_DRIVER = labelled(
    "DRIVER_ID",
    "driver|driving|DL|führerschein|fuehrerschein",
    r"\b(?:driver'?s'?|drivers|driving)\s+licen[cs]es?\b|\bdriver\s+id\b|\bF(?:ü|ue)hrerschein\b|"
    r"(?-i:\bDL\b)(?!-)#?",
    _DOCUMENT,
    _document,
)
_LICENSE_PLATE = labelled(
    "LICENSE_PLATE",
    "plate|registration|reg.|reg |kennzeichen|plaque",
    r"\b(?:(?:licen[cs]e|number|registration)\s+plates?|plates?|vehicle\s+registration|"
    r"reg(?:istration)?\.?\s+(?:no|number|mark)|Kennzeichen|plaque)\b",
    r"[A-Z0-9]{1,4}(?:[ -]?[A-Z0-9]{1,4}){0,2}",
    _plate,
)
_VIN_LABEL = labelled(
    "VEHICLE_IDENTIFICATION_NUMBER",
    "VIN|vehicle identification|chassis",
    r"\bVIN\b|\bvehicle\s+identification(?:\s+number)?\b|\bchassis\s+(?:no|number)\b",
    r"[A-HJ-NPR-Z0-9]{17}",
    score=0.9,
)
_SIN = labelled(
    "CA_SOCIAL_INSURANCE_NUMBER",
    "SIN|S.I.N.|social insurance|NAS|assurance sociale",
    r"\bSIN\b|\bS\.I\.N\.|\bsocial\s+insurance(?:\s+number)?\b|\bNAS\b|"
    r"\bnum[ée]ro\s+d'assurance\s+sociale\b",
    r"\d{3}(?P<s>[ -]?)\d{3}(?P=s)\d{3}",
    _sin,
)
_ITIN_LABEL = labelled(
    "US_INDIVIDUAL_TAX_IDENTIFICATION_NUMBER",
    "TIN|taxpayer",
    r"\bI?TIN\b|\b(?:individual\s+)?taxpayer\s+identification(?:\s+number)?\b",
    r"9\d{8}",
    _itin,
)
_UTR = labelled(
    "UK_UNIQUE_TAXPAYER_REFERENCE_NUMBER",
    "UTR|taxpayer|tax reference",
    r"\bUTR\b|\bunique\s+tax\s*payer\s+reference(?:\s+number)?\b|\btax\s+reference\b",
    r"\d{5} ?\d{5}",
    _utr,
)
_NHS = labelled(
    "UK_NATIONAL_HEALTH_SERVICE_NUMBER",
    "NHS|national health",
    r"\bNHS\b|\bnational\s+health\s+service\b",
    r"\d{3}(?P<s>[ -]?)\d{3}(?P=s)\d{4}",
    _nhs,
)
_CA_HEALTH = labelled(
    "CA_HEALTH_NUMBER",
    "health|OHIP|PHN|RAMQ|soleil|maladie",
    r"\b(?:health\s+(?:card|insurance|service)|OHIP|PHN|personal\s+health|RAMQ|carte\s+soleil|"
    r"assurance\s+maladie)(?:\s+(?:no|number|#))?\b|\bhealth\s+number\b",
    r"\d{4}(?P<s>[ -]?)\d{3}(?P=s)\d{3}(?:[ -]?[A-Z]{2})?|[A-Z]{4} ?\d{4} ?\d{4}",
)
_AADHAAR_LABEL = labelled(
    "IN_AADHAAR",
    "aadhaar|aadhar|UID|आधार",
    r"\bAadh?aa?r\b|\bUIDAI\b|\bUID\b|आधार",
    r"[2-9]\d{3}(?P<s>[ -]?)\d{4}(?P=s)\d{4}",
    _aadhaar,
)
_VOTER_LABEL = labelled(
    "IN_VOTER_NUMBER",
    "voter|EPIC|electoral",
    r"\bvoter(?:'?s)?\s+(?:id|card|number)\b|\bEPIC\b|\belectoral\s+photo\s+identity\s+card\b",
    r"[A-Z]{3}\d{7}",
)
_NREGA_LABEL = labelled(
    "IN_NREGA",
    "nrega|job card",
    r"\b(?:MG)?NREGA\b|\bjob\s+card\b",
    r"[A-Z]{2}(?:-?\d{2,3}){4,5}(?:/\d{1,6})?|[A-Z]{2}\d{14}",
)

# Two prefix letters (never D, F, I, Q, U, V; O not second; not BG, GB, KN, NK, NT, TN, ZZ),
# six digits and a suffix A-D: "AB 12 34 56 C" or "AB123456C".
_NINO = re.compile(
    r"[A-CEGHJ-PR-TW-Z](?<![\w-].)[A-CEGHJ-NPR-TW-Z](?<!BG|GB|KN|NK|NT|TN|ZZ)"
    r"(?:\d{6}|( )\d{2}\1\d{2}\1\d{2}\1)[A-D](?![\w-])"
)
# Five letters, the fourth the holder's kind (P a person, C a company, H, F, A, T, B, L, J, G).
_PAN = re.compile(r"[A-Z](?<![\w-].)[A-Z]{2}[ABCFGHJLPT][A-Z]\d{4}[A-Z](?![\w-])")
# 9XX-7X-XXXX: SSN-shaped with area 9xx, which SSNs never have; groups 50-65, 70-88, 90-92, 94-99.
_ITIN = re.compile(r"9(?<![\w-].)\d{2}([- ])(?:5\d|6[0-5]|7\d|8[0-8]|9[0-24-9])\1\d{4}(?![\w-])")
# 4-4-4 digits grouped by spaces or hyphens, the first 2-9: the way Aadhaar numbers are printed.
_AADHAAR = re.compile(r"[2-9](?<![\w-].)(?<!\d .)\d{3}([ -])\d{4}\1\d{4}(?![\w-]|[ -]\d)")
# Three letters of the constituency, six digits and a Luhn digit.
_EPIC = re.compile(r"[A-Z](?<![\w-].)[A-Z]{2}\d{7}(?![\w-])")
# The job card as printed: state letters, district, block, panchayat, village and household.
_NREGA = re.compile(r"[A-Z](?<![\w-].)[A-Z]-\d{2}-\d{3}-\d{3}-\d{3}/\d{1,6}(?![\w-])")
# 17 characters of the VIN alphabet (no I, O, Q), letters and digits both present.
_VIN = re.compile(r"[A-HJ-NPR-Z0-9](?<![\w-].)[A-HJ-NPR-Z0-9]{16}(?![\w-])")
_VIN_VALUES = {
    **{str(d): d for d in range(10)},
    **dict(zip("ABCDEFGH", range(1, 9), strict=True)),
    **dict(zip("JKLMN", range(1, 6), strict=True)),
    "P": 7,
    "R": 9,
    **dict(zip("STUVWXYZ", range(2, 10), strict=True)),
}
_VIN_WEIGHTS = (8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2)

_LABELLED = (
    _PASSPORT,
    _DRIVER,
    _LICENSE_PLATE,
    _VIN_LABEL,
    _SIN,
    _ITIN_LABEL,
    _UTR,
    _NHS,
    _CA_HEALTH,
    _AADHAAR_LABEL,
    _VOTER_LABEL,
    _NREGA_LABEL,
)


def vin_check_digit_valid(vin: str) -> bool:
    """True if the ninth character is the ISO 3779 / FMVSS 115 check digit (North America)."""
    total = sum(_VIN_VALUES[c] * w for c, w in zip(vin, _VIN_WEIGHTS, strict=True))
    check = total % 11
    return vin[8] == ("X" if check == 10 else str(check))


def find_identifiers(text: str) -> Iterator[PiiEntity]:
    """Identifiers told by their shape and check digits anywhere (UK National Insurance, Indian
    PAN, Aadhaar as printed, EPIC, NREGA job cards, US ITINs as printed, VINs with a valid check
    digit) and the rest only right after a word that names them ("passport", "driver's
    licence", "plate", "SIN", "UTR", "NHS", "health card", "Aadhaar", "voter ID", ...).
    """
    for pattern, kind, score in (
        (_NINO, "UK_NATIONAL_INSURANCE_NUMBER", 0.9),
        (_ITIN, "US_INDIVIDUAL_TAX_IDENTIFICATION_NUMBER", 0.9),
        (_NREGA, "IN_NREGA", 0.85),
    ):
        for m in pattern.finditer(text):
            yield PiiEntity(kind, m.start(), m.end(), score)
    for m in _PAN.finditer(text):
        if stdnum_valid("in_.pan", m.group()):
            yield PiiEntity("IN_PERMANENT_ACCOUNT_NUMBER", m.start(), m.end(), 0.9)
    for m in _AADHAAR.finditer(text):
        if _aadhaar(compact(m.group())):
            yield PiiEntity("IN_AADHAAR", m.start(), m.end(), 0.85)
    for m in _EPIC.finditer(text):
        if _epic(m.group()):
            yield PiiEntity("IN_VOTER_NUMBER", m.start(), m.end(), 0.8)
    for m in _VIN.finditer(text):
        vin = m.group()
        if (
            vin[9] not in "UZ0"
            and not vin.isdigit()
            and not vin.isalpha()
            and vin_check_digit_valid(vin)
        ):
            yield PiiEntity("VEHICLE_IDENTIFICATION_NUMBER", m.start(), m.end(), 0.9)
    for recogniser in _LABELLED:
        yield from recogniser.find(text)
