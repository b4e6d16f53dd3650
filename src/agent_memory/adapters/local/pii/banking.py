"""Bank and card details besides the card number: IBAN, SWIFT/BIC, account and routing numbers,
card verification codes, card expiry dates and PINs.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from agent_memory.adapters.local.pii._labels import labelled, lower, stdnum_valid
from agent_memory.core.ports import PiiEntity

# Compact ("DE89370400440532013000") or grouped by spaces, hyphens or dots, one kind, in
# groups of up to four ("DE89 3704 0044 0532 0130 00", "DE89-3704-…", "BR15 … 814 P2"), in
# either case: the check digits decide.
_IBAN = re.compile(
    r"[A-Za-z](?<![\w-].)[A-Za-z]\d{2}"
    r"(?:[A-Za-z0-9]{11,30}|(?P<s>[ .-])[A-Za-z0-9]{1,4}(?:(?P=s)[A-Za-z0-9]{1,4}){2,8})"
    r"(?![\w-]|[.-][A-Za-z0-9])"
)


def _iban_valid(candidate: str) -> bool:
    return stdnum_valid("iban", candidate)


def find_ibans(text: str) -> Iterator[PiiEntity]:
    """IBANs anywhere: the country's length and format and the ISO 7064 check digits
    (``stdnum.iban``), so no label is needed; a trailing group that breaks the check is left.
    """
    for m in _IBAN.finditer(text):
        raw = m.group()
        while len(raw) >= 15:
            if _iban_valid(raw):
                end = m.start() + len(raw)
                yield PiiEntity("INTERNATIONAL_BANK_ACCOUNT_NUMBER", m.start(), end, 0.95)
                break
            cut = max(raw.rfind(" "), raw.rfind("-", 5), raw.rfind(".", 5))
            if cut < 0:
                break
            raw = raw[:cut]


def _bic_valid(candidate: str) -> bool:
    return stdnum_valid("bic", candidate)


def _rtn_valid(candidate: str) -> bool:
    return stdnum_valid("us.rtn", candidate)


_ACCOUNT = labelled(
    "BANK_ACCOUNT_NUMBER",
    "account|acct|a/c|checking|savings|konto|compte",
    r"\b(?:bank\s+account|account|acct|a/c|checking|savings|Kontonummer|"
    r"Konto|compte)\b",
    r"\d(?:[ -]?\d){5,16}",
    # "AWS account 123456789012", "service account 4711": accounts that are not bank accounts.
    not_after=r"\b(?:aws|amazon|iam|gcp|google|azure|cloud|service|user|twitter|github|storage|"
    r"billing|root|member|admin|email|customer\s+portal)",
)
_BIC = labelled(
    "SWIFT_CODE",
    "SWIFT|BIC|Swift|swift code|bic code|bank identifier",
    r"\b(?:SWIFT|BIC)(?:/(?:SWIFT|BIC))?\b|\bbank\s+identifier\s+code\b",
    r"[A-Z]{6}[A-Z0-9]{2}(?:[A-Z0-9]{3})?",
    _bic_valid,
)
_ROUTING = labelled(
    "BANK_ROUTING",
    "routing|ABA|RTN|transit",
    r"\b(?:routing|ABA|RTN|transit)\b",
    r"\d{9}",
    _rtn_valid,
)
_SORT_CODE = labelled(
    "BANK_ROUTING", "sort code|sortcode", r"\bsort\s*code\b", r"\d{2}(?P<s>[- ]?)\d{2}(?P=s)\d{2}"
)
_CVV = labelled(
    "CREDIT_DEBIT_CVV",
    "cvv|cvc|CVN|CV2|CSC|CID|card verification|card security|security code",
    r"\b(?:CVV2?|CVC2?|CVN|CV2|CSC|CID)\b|\b(?:cvv2?|cvc2?)\b|\bcard\s+(?:verification|security)"
    r"(?:\s+(?:value|code))?|\bsecurity\s+code\b",
    r"\d{3,4}",
    flags=0,
)
_PIN = labelled(
    "PIN",
    "PIN|pin c|pin n|pinc|pinn",
    r"\bPIN\b|\b(?:pin|Pin)\s*(?:code|number)\b|\bPIN\s*code\b",
    r"\d{4,8}",
    flags=0,
)

# "exp 09/27", "valid thru 09/2027"; the general words ("expires", "expiry") only near a card.
_EXPIRY = re.compile(
    r"\b(?:(?P<card>exp\b\.?|valid\s+(?:thru|through)\b|good\s+thru\b)|"
    r"expir(?:y|es|ation|ing)\b(?:\s+date\b)?)",
    re.I,
)
_EXPIRY_VALUE = re.compile(
    r"(?:[ \t]*(?:[:=(]|\bon\b|\bin\b|\bdate\b|\bis\b|\bof\b)[ \t]*){0,3}[ \t]*"
    r"(?P<v>(?:0?[1-9]|1[0-2]) ?[/-] ?(?:\d{2}|20\d{2}))(?![\d/-]|\.\d)"
)
_CARD_WORD = re.compile(
    r"\b(?:card|visa|mastercard|amex|american\s+express|discover|maestro|cvv|cvc|credit|debit)\b",
    re.I,
)
_CARD_CONTEXT_CHARS = 80


def find_bank_details(text: str) -> Iterator[PiiEntity]:
    """Account numbers (6-17 digits after "account", "acct", "a/c", not after "AWS" or
    "service"), SWIFT/BIC codes after "SWIFT"/"BIC" (country checked), ABA routing numbers
    after "routing"/"ABA" (checksum) and UK sort codes after "sort code".
    """
    yield from _ACCOUNT.find(text)
    yield from _BIC.find(text)
    yield from _ROUTING.find(text)
    yield from _SORT_CODE.find(text)


def find_card_details(text: str) -> Iterator[PiiEntity]:
    """Card verification codes after "CVV"/"CVC"/"security code", PINs after "PIN", and card
    expiry dates (MM/YY, MM/YYYY) after "exp"/"valid thru", or after "expires"/"expiry" with a
    card word within 80 characters before.
    """
    yield from _CVV.find(text)
    yield from _PIN.find(text)
    lowered = lower(text)
    if "exp" not in lowered and "thru" not in lowered:
        return
    for label in _EXPIRY.finditer(text):
        m = _EXPIRY_VALUE.match(text, label.end())
        if m is None:
            continue
        window = text[max(0, label.start() - _CARD_CONTEXT_CHARS) : label.start()]
        if label.group("card") or _CARD_WORD.search(window):
            yield PiiEntity("CREDIT_DEBIT_EXPIRY", m.start("v"), m.end("v"), 0.8)
