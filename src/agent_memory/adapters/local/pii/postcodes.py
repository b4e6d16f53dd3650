"""Postcodes of many countries, which are part of an address only beside one: after a
postcode word ("CEP", "PLZ", "code postal", "〒"), before a known city ("10117 Berlin",
"00-950 Warszawa"), after a city ("São Paulo - SP, 01310-100") or right after an address found
otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from agent_memory.core.ports import PiiEntity

# Brazil 01310-100, Portugal 1100-048, Poland 00-950, Japan 100-0001, the Netherlands 1012 AB,
# Sweden 111 22, five digits (Germany, France, Spain, Italy, Mexico, ...) with an optional
# country letter ("D-10117"), four digits (Austria, Switzerland, Belgium, Denmark, Norway, ...),
# six digits (China, Russia, India).
_SHAPES = (
    r"\d{5}-\d{3}|\d{4}-\d{3}|\d{2}-\d{3}|\d{3}-\d{4}|\d{4} ?[A-Z]{2}(?![A-Za-z])|\d{3} \d{2}|"
    r"(?:[A-Z]{1,2}-)?\d{4,6}"
)
_POSTCODE = rf"(?<![\w.,/-])(?:{_SHAPES})(?![\w-]|[.,/]\d)"
_LABEL = re.compile(
    r"(?:(?<![\w.])(?:CEP|PLZ|CAP|C\.?P\.?|CP|ZIP|NPA|PSČ|PSC)(?![\w])|(?i:\bpostleitzahl\b|"
    r"\bcode\s+postal\b|\bc[óo]digo\s+postal\b|\bcodice\s+postale\b|\bpost\s*code\b|"
    r"\bpostal\s+code\b|\bzip\s+code\b|\bkod\s+pocztowy\b|\bpostnummer\b|\bpostnr\b|"
    r"\bpostcode\b|почтовый\s+индекс|\bиндекс\b)|〒|邮编|邮政编码|郵便番号|우편번호)"
    r"[ \t]*[:.]?[ \t]*"
)
_AFTER_LABEL = re.compile(_POSTCODE)
_CAP_WORD = r"[^\W\d_a-z][^\W\d_]*(?:['’-][^\W\d_]+)*"
# A year is no postcode: "2024 Berlin", "Paris 2024".
_NOT_YEAR = r"(?!(?:19|20)\d\d(?!\d))"
_POSTCODE_CITY = re.compile(
    rf"{_NOT_YEAR}{_POSTCODE}[ \t]+(?P<city>{_CAP_WORD}(?:[ \t]{_CAP_WORD}){{0,2}})"
)
# After a city only the shapes no count or year has, and after a comma, dash or state:
# "São Paulo - SP, 01310-100", "Warszawa, 00-950".
_DISTINCT = (
    r"(?<![\w.,/-])(?:\d{5}-\d{3}|\d{4}-\d{3}|\d{2}-\d{3}|\d{3}-\d{4}|\d{4} [A-Z]{2}|"
    r"\d{5,6})(?![\w-]|[.,/]\d)"
)
_CITY_POSTCODE = re.compile(
    rf"(?P<city>{_CAP_WORD}(?:[ \t]{_CAP_WORD}){{0,2}})(?:[ \t]*[,–-][ \t]*[A-Z]{{2}})?"
    rf"[ \t]*[,–-][ \t]*(?:(?:CEP|PLZ|CP|C\.P\.|CAP)[:.]?[ \t]*)?(?P<pc>{_DISTINCT})"
)
# A postcode of a shape no count has, then a capitalised word: "00-950 Warszawa", "1100-048
# Lisboa", "1012 AB Amsterdam" (the town need not be in the list of cities), opening a line
# or after a comma, as the last line of an address stands.
_SHAPED_POSTCODE_WORD = re.compile(
    rf"(?:(?<=,)|(?<=,[ \t])|(?<=\n)|^)"
    rf"(?:\d{{5}}-\d{{3}}|\d{{4}}-\d{{3}}|\d{{2}}-\d{{3}}|\d{{4}} [A-Z]{{2}})"
    rf"[ \t]+{_CAP_WORD}",
    re.M,
)
# What may stand between an address and its postcode: ", ", " - ", a state ("SP"), a word.
_TAIL = re.compile(
    rf"(?:[ \t]*[,–-][ \t]*|[ \t]+|[ \t]*\n[ \t]*)(?:[A-Z]{{2}}[ \t]*[,–-]?[ \t]*)?"
    rf"(?:(?:CEP|PLZ|CP|C\.P\.|CAP)[:.]?[ \t]*)?(?P<pc>{_POSTCODE})"
)


def find_postcodes(text: str, is_city: Callable[[str], bool]) -> Iterator[PiiEntity]:
    """Postcodes after a postcode word, and a postcode with a known city on either side."""
    if not any(c.isdigit() for c in text):
        return
    for label in _LABEL.finditer(text):
        m = _AFTER_LABEL.match(text, label.end())
        if m is not None:
            yield PiiEntity("ADDRESS", m.start(), m.end(), 0.7)
    for m in _POSTCODE_CITY.finditer(text):
        city = _known_prefix(m.group("city"), is_city)
        if city:
            yield PiiEntity("ADDRESS", m.start(), m.start("city") + len(city), 0.65)
    for m in _SHAPED_POSTCODE_WORD.finditer(text):
        yield PiiEntity("ADDRESS", m.start(), m.end(), 0.6)
    for m in _CITY_POSTCODE.finditer(text):
        if is_city(m.group("city")):
            yield PiiEntity("ADDRESS", m.start(), m.end(), 0.65)


def postcode_after(text: str, end: int) -> int | None:
    """The end of a postcode standing right after an address that ends at ``end``."""
    m = _TAIL.match(text, end)
    return m.end() if m is not None else None


def _known_prefix(words: str, is_city: Callable[[str], bool]) -> str:
    """The longest run of leading words of ``words`` that names a city, or ""."""
    parts = words.split()
    for size in range(len(parts), 0, -1):
        candidate = " ".join(parts[:size])
        if is_city(candidate):
            return words[: words.index(parts[size - 1]) + len(parts[size - 1])]
    return ""
