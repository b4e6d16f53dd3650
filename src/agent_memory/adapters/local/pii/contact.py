"""Email addresses and telephone numbers."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

import phonenumbers

from agent_memory.adapters.local.pii import regions as text_regions
from agent_memory.core.ports import PiiEntity

# The look-behind makes every local part start at a run boundary, so matching stays linear.
_EMAIL = re.compile(
    r"(?<![\w.+%'-])[\w+%'-]+(?:\.[\w+%'-]+)*@[^\W_](?:[\w-]*[^\W_])?"
    # The top-level domain: letters, or an internationalised one in its ASCII form (xn--p1ai).
    r"(?:\.[^\W_](?:[\w-]*[^\W_])?)*\.(?:[^\W\d_]{2,63}|(?i:xn--)[A-Za-z0-9-]{1,59})(?![\w-])"
)
# "dana[at]example[dot]org", "dana (at) example.org": an address spelled out against scrapers.
_SPELLED_EMAIL = re.compile(
    r"(?<![\w.+%'-])[\w+%'-]+(?:\.[\w+%'-]+)*[ \t]?[\[({<][ \t]?(?i:at)[ \t]?[\])}>][ \t]?"
    r"[^\W_](?:[\w-]*[^\W_])?(?:(?:\.|[ \t]?[\[({<][ \t]?(?i:dot)[ \t]?[\])}>][ \t]?)"
    r"[^\W_](?:[\w-]*[^\W_])?)+"
)

_PHONE_WORDS = re.compile(
    r"\b(?:tel|telephone|phone|ph|mobile|mob|cell|cellphone|fax|call|ring|text|sms|whatsapp|"
    r"signal|contact|reach|dial|number|hotline|helpline|landline|direct|line|ext|extension)\b",
    re.I,
)
# "0044 20 7946 0958": the international prefix most of the world dials instead of "+".
_DOUBLE_ZERO = re.compile(r"(?<![\w+])00(?=[1-9])((?:[ .()-]{0,2}\d){7,15})(?![\w-])")
# "020 7946 0958", "06 12 34 56 78": national formats, tried only after a phone word.
_NATIONAL = re.compile(r"(?<![\w+])\(?0\d{1,4}\)?(?:[ .-]?\d){5,11}(?![\w-])")
# "+234 1 270 0000": a "+", a country calling code and digit groups, possible or not by the
# library's length rules (which lag behind renumberings).
_PLUS = re.compile(r"(?<![\w+])\+\d{1,3}(?:[ .-](?:\(\d{1,5}\)|\d{1,5})){2,6}(?![\w-]|[ .-]\d)")
_NATIONAL_REGIONS = ("GB", "DE", "FR", "IT", "ES", "NL", "IE", "AU", "IN", "JP", "BR", "ZA")
_NANP_SHAPE = re.compile(r"^(?:\+?1[ .-]?)?\(?\d{3}\)?[ .-]?\d{3}[ .-]\d{4}")
_CONTEXT_CHARS = 40


def find_emails(text: str) -> Iterator[PiiEntity]:
    """Email addresses, including Unicode local parts and domains, and addresses spelled out
    with bracketed "at" and "dot" ("dana[at]example[dot]org").
    """
    for m in _EMAIL.finditer(text):
        yield PiiEntity("EMAIL", m.start(), m.end(), 0.95)
    if not any(mark in text for mark in ("at]", "at)", "at}", "at>", "AT]", "AT)")):
        return
    for m in _SPELLED_EMAIL.finditer(text):
        yield PiiEntity("EMAIL", m.start(), m.end(), 0.85)


# Reference numbers, not phones: "Bestellnummer 0301234567", "pedido 011987654321".
_ORDER_WORDS = re.compile(
    r"(?:(?<![^\W\d_])(?:order|invoice|ref|reference|ticket|tracking|case|po|sku|id|"
    r"bestell\w*|rechnung\w*|auftrag\w*|kunden\w*|pedido|fatura|factura|commande|facture|"
    r"ordine|fattura|bestelling|factuur|zam[óo]wieni\w*|faktura|sipari[şs]\w*|заказ\w*|счет|"
    r"protocolo|n[úu]mero\s+de\s+pedido)(?![^\W\d_])|注文|订单|訂單|주문|伝票)[^\n\d]{0,16}$",
    re.I,
)


def _phone_word_before(text: str, start: int) -> bool:
    window = text[max(0, start - _CONTEXT_CHARS) : start]
    return bool(_PHONE_WORDS.search(window) or text_regions.phone_word_pattern().search(window))


def find_phones(text: str, regions: Sequence[str] = ()) -> Iterator[PiiEntity]:
    """Telephone numbers: international ("+44 20 ...", "0044 20 ..."), North American in any
    punctuation, other national numbers grouped exactly as that country prints them
    ("020 7946 0321", "01 42 68 53 00", "(02) 9374 4000"), any valid national number or
    unformatted digits after a phone word of many languages ("tel", "Handy", "celular"), and
    the valid numbers of the declared ``regions`` and of those the text suggests.
    """
    yield from _find_known_formats(text)
    if _NATIONAL_RUN.search(text):
        yield from _find_after_phone_words(text)
        yield from _find_regional(text, regions)


# The number a phone word introduces: "Telefon: 512 345 678", "telefono 312 345 6789".
_AFTER_WORD = re.compile(r"[^\d\n]{0,20}?(\(?\d[\d ().\-/]{4,20}\d)(?![\w-])")


def _find_after_phone_words(text: str) -> Iterator[PiiEntity]:
    """The number after a phone word, valid in one of the regions whose languages write the
    word (every one of them, however many the text suggests overall).
    """
    for end, regions in text_regions.phone_words_in(text):
        m = _AFTER_WORD.match(text, end)
        if m is None:
            continue
        raw = m.group(1).rstrip(" (")
        if any(_valid(raw, region) for region in regions):
            begin, stop = _balance(text, m.start(1), m.start(1) + len(raw))
            yield PiiEntity("PHONE", begin, stop, 0.75)


# Six digits or more, grouped or not: the shortest national numbers worth a matcher's pass.
_NATIONAL_RUN = re.compile(r"\d(?:[ ().\-/]{0,2}\d){5}")


def _find_regional(text: str, declared: Sequence[str]) -> Iterator[PiiEntity]:
    """Valid numbers of the declared regions and of those the text suggests, written in their
    national form: after a phone word, or starting with the trunk prefix, or grouped as the
    region prints them; not after an order or invoice word.
    """
    declared_set = {r.upper() for r in declared}
    wanted = dict.fromkeys(r.upper() for r in declared)
    wanted.update(dict.fromkeys(text_regions.suggested_regions(text)))
    for region in wanted:
        metadata = phonenumbers.PhoneMetadata.metadata_for_region(region)
        if metadata is None:
            continue
        prefix = metadata.national_prefix or ""
        matcher = phonenumbers.PhoneNumberMatcher(
            text, region, leniency=phonenumbers.Leniency.VALID
        )
        for match in matcher:
            raw = match.raw_string
            if raw.startswith("+"):
                continue  # the international forms are found above
            if _regional_number(text, match.start, raw, region, prefix, region in declared_set):
                begin, end = _balance(text, match.start, match.end)
                yield PiiEntity("PHONE", begin, end, 0.75)


# A trunk-prefixed area code and one to three groups, as people write national numbers
# ("030 12345678", "0151 2345 6789", "089/1234567"); not "0.970 163 833" nor bare digits.
_TRUNK_GROUPED = re.compile(r"\(?0\d{1,4}\)?(?:[ /-]\d{2,8}){1,3}")


def _regional_number(
    text: str, start: int, raw: str, region: str, prefix: str, declared: bool
) -> bool:
    """A valid number of ``region`` is a phone number after a phone word; otherwise not after
    an order word, and then, in a region the tenant declared, always (the tenant says its
    texts hold such numbers), in one the text only suggests, when written with the trunk
    prefix or grouped as the region prints it.
    """
    if _phone_word_before(text, start):
        return True
    if _ORDER_WORDS.search(text[max(0, start - 40) : start]):
        return False
    if declared:
        return True
    digits = "".join(c for c in raw if c.isdigit())
    if prefix and digits.startswith(prefix) and len(digits) >= 9 and _TRUNK_GROUPED.fullmatch(raw):
        return True
    return _grouped(raw) and _as_printed(raw, region)


def _find_known_formats(text: str) -> Iterator[PiiEntity]:
    matcher = phonenumbers.PhoneNumberMatcher(text, "US", leniency=phonenumbers.Leniency.POSSIBLE)
    for match in matcher:
        raw = match.raw_string
        if _accept_matched(raw, match.number, text, match.start):
            begin, end = _balance(text, match.start, match.end)
            yield PiiEntity("PHONE", begin, end, 0.85)
    for m in _DOUBLE_ZERO.finditer(text):
        if _ORDER_WORDS.search(text[max(0, m.start() - 40) : m.start()]):
            continue
        if _possible("+" + m.group(1), None):
            yield PiiEntity("PHONE", m.start(), m.end(), 0.8)
    for m in _PLUS.finditer(text) if "+" in text else ():
        digits = sum(c.isdigit() for c in m.group())
        if 8 <= digits <= 15 and _known_country_code(m.group()):
            yield PiiEntity("PHONE", m.start(), m.end(), 0.75)
    for m in _NATIONAL.finditer(text):
        raw = m.group()
        if _phone_word_before(text, m.start()):
            if any(_valid(raw, region) for region in _NATIONAL_REGIONS):
                yield PiiEntity("PHONE", m.start(), m.end(), 0.75)
        elif _grouped(raw) and any(_as_printed(raw, region) for region in _NATIONAL_REGIONS):
            yield PiiEntity("PHONE", m.start(), m.end(), 0.75)


def _accept_matched(raw: str, number: phonenumbers.PhoneNumber, text: str, start: int) -> bool:
    digits = sum(c.isdigit() for c in raw)
    if raw.lstrip("(").startswith("+"):
        return True
    if digits >= 10 and (_NANP_SHAPE.match(raw) or phonenumbers.is_valid_number(number)):
        # Unpunctuated digit strings are as often order or account numbers.
        return not raw.isdigit() or _phone_word_before(text, start)
    return _phone_word_before(text, start)


def _balance(text: str, begin: int, end: int) -> tuple[int, int]:
    """Drop an opening bracket whose partner is outside the match: "(+81 3-1234-5678)"."""
    span = text[begin:end]
    if span.startswith("(") and span.count("(") > span.count(")"):
        begin += 1
    return begin, end


def _possible(candidate: str, region: str | None) -> bool:
    try:
        return phonenumbers.is_possible_number(phonenumbers.parse(candidate, region))
    except phonenumbers.NumberParseException:
        return False


def _valid(candidate: str, region: str) -> bool:
    try:
        return phonenumbers.is_valid_number(phonenumbers.parse(candidate, region))
    except phonenumbers.NumberParseException:
        return False


def _known_country_code(raw: str) -> bool:
    digits = "".join(c for c in raw if c.isdigit())
    return any(int(digits[:size]) in phonenumbers.COUNTRY_CODE_TO_REGION_CODE for size in (1, 2, 3))


def _grouped(raw: str) -> bool:
    return sum(not c.isdigit() for c in raw) >= 2


def _as_printed(candidate: str, region: str) -> bool:
    """True if ``candidate`` is valid in ``region`` and grouped as its national format groups
    it (separators may be spaces, dots or hyphens).
    """
    try:
        number = phonenumbers.parse(candidate, region)
    except phonenumbers.NumberParseException:
        return False
    if not phonenumbers.is_valid_number(number):
        return False
    printed = phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.NATIONAL)
    return _separators_as_spaces(printed) == _separators_as_spaces(candidate)


def _separators_as_spaces(number: str) -> str:
    return number.replace(".", " ").replace("-", " ").replace("\u00a0", " ")
