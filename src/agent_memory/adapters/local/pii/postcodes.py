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
_POSTCODE_AT = re.compile(rf"(?:{_SHAPES})(?![\w-]|[.,/]\d)")
_DISTINCT = re.compile(r"\d{5}-\d{3}|\d{4}-\d{3}|\d{2}-\d{3}|\d{3}-\d{4}|\d{4} [A-Z]{2}|\d{5,6}")
# Only these shapes open an address's last line before a town in no list: "00-950 Warszawa".
_SHAPED = re.compile(r"\d{5}-\d{3}|\d{4}-\d{3}|\d{2}-\d{3}|\d{4} [A-Z]{2}")
# A year is no postcode: "2024 Berlin", "Paris 2024".
_YEAR = re.compile(r"(?:19|20)\d\d")
# Digit runs, matched from their first digit so the scan skips the text between them.
_DIGIT_RUN = re.compile(r"\d(?<!\d.)\d*")
_LABEL_BEFORE = re.compile(
    r"(?:(?<![\w.])(?:CEP|PLZ|CAP|C\.?P\.?|CP|ZIP|NPA|PSČ|PSC)|(?i:\bpostleitzahl|"
    r"\bcode\s+postal|\bc[óo]digo\s+postal|\bcodice\s+postale|\bpost\s*code|"
    r"\bpostal\s+code|\bzip\s+code|\bkod\s+pocztowy|\bpostnummer|\bpostnr|"
    r"почтовый\s+индекс|\bиндекс)|〒|邮编|邮政编码|郵便番号|우편번호)[ \t]*[:.]?[ \t]*$"
)
_CAP_WORD = r"[^\W\d_a-z][^\W\d_]*(?:['’-][^\W\d_]+)*"
_CITY_AFTER = re.compile(rf"[ \t]+(?P<city>{_CAP_WORD}(?:[ \t]{_CAP_WORD}){{0,2}})")
_WORD_AFTER = re.compile(rf"[ \t]+{_CAP_WORD}")
# "São Paulo - SP, 01310-100", "Warszawa, 00-950": a city, a state, a comma or dash.
_CITY_BEFORE = re.compile(
    rf"(?P<city>{_CAP_WORD}(?:[ \t]{_CAP_WORD}){{0,2}})(?:[ \t]*[,–-][ \t]*[A-Z]{{2}})?"
    rf"[ \t]*[,–-][ \t]*(?:(?:CEP|PLZ|CP|C\.P\.|CAP)[:.]?[ \t]*)?$"
)
_OPENS_LINE = re.compile(r"(?:^|\n|,[ \t]?)$")
# What may stand between an address and its postcode: ", ", " - ", a state ("SP"), a word.
_TAIL = re.compile(
    rf"(?:[ \t]*[,–-][ \t]*|[ \t]+|[ \t]*\n[ \t]*)(?:[A-Z]{{2}}[ \t]*[,–-]?[ \t]*)?"
    rf"(?:(?:CEP|PLZ|CP|C\.P\.|CAP)[:.]?[ \t]*)?(?P<pc>{_POSTCODE})"
)
_BEFORE_CHARS = 60


def find_postcodes(text: str, is_city: Callable[[str], bool]) -> Iterator[PiiEntity]:
    """Postcodes after a postcode word, a postcode with a known city on either side, and one
    of a shape no count has opening an address line before a town.
    """
    for run in _DIGIT_RUN.finditer(text):
        begin = run.start()
        prefix = re.match(r"[A-Z]{1,2}-$", text[max(0, begin - 3) : begin])
        if prefix and begin - len(prefix.group()) >= 0:
            begin -= len(prefix.group())
        if begin and (text[begin - 1] in _NOT_BEFORE or text[begin - 1].isalnum()):
            continue
        m = _POSTCODE_AT.match(text, begin)
        if m is None:
            continue
        before = text[max(0, begin - _BEFORE_CHARS) : begin]
        if _LABEL_BEFORE.search(before):
            yield PiiEntity("ADDRESS", begin, m.end(), 0.7)
            continue
        code = m.group()
        if not _YEAR.fullmatch(code) and (city := _CITY_AFTER.match(text, m.end())):
            known = _known_prefix(city.group("city"), is_city)
            if known:
                yield PiiEntity("ADDRESS", begin, city.start("city") + len(known), 0.65)
                continue
        if _SHAPED.fullmatch(code) and not _YEAR.match(code) and _OPENS_LINE.search(before):
            word = _WORD_AFTER.match(text, m.end())
            if word:
                yield PiiEntity("ADDRESS", begin, word.end(), 0.6)
                continue
        if _DISTINCT.fullmatch(code) and (city := _CITY_BEFORE.search(before)):
            start = _known_suffix(city.group("city"), is_city)
            if start is not None:
                window = max(0, begin - _BEFORE_CHARS)
                yield PiiEntity("ADDRESS", window + city.start() + start, m.end(), 0.65)


_NOT_BEFORE = frozenset("_.,/-+")


def postcode_after(text: str, end: int) -> int | None:
    """The end of a postcode standing right after an address that ends at ``end``."""
    m = _TAIL.match(text, end)
    return m.end() if m is not None else None


def _known_suffix(words: str, is_city: Callable[[str], bool]) -> int | None:
    """Where the longest run of trailing words of ``words`` that names a city starts."""
    starts = [m.start() for m in re.finditer(r"\S+", words)]
    for start in starts:
        if is_city(words[start:]):
            return start
    return None


def _known_prefix(words: str, is_city: Callable[[str], bool]) -> str:
    """The longest run of leading words of ``words`` that names a city, or ""."""
    parts = words.split()
    for size in range(len(parts), 0, -1):
        candidate = " ".join(parts[:size])
        if is_city(candidate):
            return words[: words.index(parts[size - 1]) + len(parts[size - 1])]
    return ""
