"""Postal addresses: street lines with their unit, city, state and postcode; PO boxes;
"City, ST 12345"; UK postcodes; continental forms ("Hauptstraße 5", "14 rue de Rivoli",
"Via Roma 12", "Unter den Linden 77, 10117 Berlin"); Japanese blocks ("3-2-1 Marunouchi,
Chiyoda-ku"); house numbers in words ("One Microsoft Way, Redmond").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from agent_memory.adapters.local.pii.address_shapes import find_world_addresses
from agent_memory.adapters.local.pii.postcodes import find_postcodes, postcode_after
from agent_memory.core.ports import PiiEntity

_STREET_TYPES = (
    "Street|Avenue|Road|Boulevard|Lane|Drive|Court|Place|Square|Terrace|Way|Parkway|Highway|"
    "Circle|Trail|Plaza|Crescent|Close|Row|Mews|Alley|Walk|Hill|Gardens|Grove|Park|Pike|Loop|"
    "Path|Point|Expressway|Freeway|Turnpike|Causeway|Embankment|Quay|Wharf|Green|Gate|Rise|View|"
    "Broadway"
)
_STREET_ABBREVIATIONS = (
    "St|Ave|Av|Rd|Blvd|Ln|Dr|Ct|Pl|Sq|Ter|Pkwy|Hwy|Cir|Trl|Plz|Cres|Pt|Expy|Fwy|Tpke"
)
_DIRECTION = (
    r"(?:N|S|E|W|NE|NW|SE|SW|North|South|East|West|Northeast|Northwest|Southeast|Southwest)"
)
_STATES = (
    "AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|"
    "NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|PR|GU|VI|"
    "AB|BC|MB|NB|NL|NS|NT|NU|ON|PE|QC|SK|YT"
)
_CAP_WORD = r"[^\W\d_a-z][^\W\d_'’.-]*(?:['’-][^\W\d_]+)*"
_ORDINAL = r"\d{1,3}(?:st|nd|rd|th)"
_ZIP = r"\d{5}(?:-\d{4})?"
_CA_POSTCODE = r"[A-Z]\d[A-Z] ?\d[A-Z]\d"
_UK_POSTCODE = r"(?:GIR 0AA|[A-Z]{1,2}\d[A-Z\d]? ?\d[ABD-HJLNP-UW-Z]{2})"
_UNIT = (
    r"(?:,?[ \t]*(?:(?:Apt|Apartment|Suite|Ste|Unit|Flat|Floor|Fl|Room|Rm|Bldg|Building|Dept|#)"
    r"\.?[ \t]*#?[ \t]*[A-Za-z]?\d{0,5}[A-Za-z]?(?<=[\dA-Za-z])"
    r"|(?:\d{1,3}(?:st|nd|rd|th)|Ground|First|Second|Third|Fourth|Fifth|Sixth|Seventh|Eighth|"
    r"Ninth|Tenth|Top)[ \t]+Floor))"
)
# The city is optional and capitalised; a state or postcode may follow it.
_CITY_TAIL = (
    rf"(?:,[ \t]*(?!(?:Apt|Suite|Unit)\b)[A-Z][^\W\d_]+(?:[ \t-][A-Z][^\W\d_]+){{0,2}}"
    rf"(?:,?[ \t]+(?:{_STATES})\b(?:[ \t]+{_ZIP}|[ \t]+{_CA_POSTCODE})?"
    rf"|[ \t]+{_ZIP}|[ \t]+{_UK_POSTCODE})?"
    rf"(?:,[ \t]*(?:USA|U\.S\.A\.|US|United States|UK|United Kingdom|Canada))?)?"
)
_STREET_LINE = re.compile(
    rf"(?<![\w.,/$€£-])\d{{1,6}}[A-Za-z]?(?:[-/]\d{{1,5}}[A-Za-z]?)?[ \t]+"
    rf"(?:{_DIRECTION}\.?[ \t]+)?"
    rf"(?:(?:{_CAP_WORD}|{_ORDINAL})[ \t]+){{1,4}}"
    rf"(?:(?:{_STREET_TYPES})\b|(?:{_STREET_ABBREVIATIONS})\b\.?)"
    rf"(?:[ \t]+{_DIRECTION}\b\.?)?"
    rf"{_UNIT}?"
    rf"{_CITY_TAIL}"
)
_PO_BOX = re.compile(
    rf"\b(?i:P\.?[ \t]?O\.?[ \t]?Box|Post Office Box|POB)[ \t]*#?[ \t]*\d{{1,7}}\b{_CITY_TAIL}"
)
_CITY_STATE_ZIP = re.compile(
    rf"\b[A-Z][^\W\d_]+(?:[ \t][A-Z][^\W\d_]+){{0,2}},[ \t]*(?:{_STATES})[ \t]+{_ZIP}\b"
)
# Alone, a postcode needs its space: "BM25HF" is a model name, "NW1 6XE" a postcode.
_UK_POSTCODE_ALONE = re.compile(r"\b(?:GIR 0AA|[A-Z]{1,2}\d[A-Z\d]? \d[ABD-HJLNP-UW-Z]{2})\b")
# US military mail: "PSC 1234, Box 5678, APO AE 09012", "Unit 2050 Box 4190 DPO AP 96521".
_MILITARY = re.compile(
    r"\b(?:PSC|CMR|Unit)[ \t]+\d{1,5},?[ \t]+Box[ \t]+\d{1,5}"
    r"(?:[ \t]*,?[ \t]*\n?[ \t]*(?:APO|FPO|DPO)[ \t]+(?:AA|AE|AP)[ \t]+\d{5})?"
)
# A flat or suite number on its own (the rest of the address on another line or left out).
_UNIT_ALONE = re.compile(r"\b(?:Apt|apt|Apartment|Suite|Flat)\.?[ \t]*#?[ \t]*\d{1,5}[A-Z]?\b")
# A street named in one word and a city after a comma: "88 Queensway, London".
_ONE_WORD_STREET = re.compile(
    rf"(?<![\w.,/$€£-])\d{{1,5}}[A-Za-z]?[ \t]+[A-Z][a-z]+"
    rf"(?:way|gate|grove|lane|road|street|side|bury|field|croft|mead|wick|strasse|straße)\b"
    rf",[ \t]*[A-Z][^\W\d_]+(?:[ \t-][A-Z][^\W\d_]+){{0,2}}"
    rf"(?:[ \t]+{_UK_POSTCODE})?"
)
# House numbers in words: "One Microsoft Way, Redmond"; the city is required.
_WORDED_NUMBER = re.compile(
    rf"\b(?:One|Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten|Eleven|Twelve|Twenty|Fifty|"
    rf"Hundred)[ \t]+(?:{_CAP_WORD}[ \t]+){{1,3}}"
    rf"(?:(?:{_STREET_TYPES})\b|(?:{_STREET_ABBREVIATIONS})\b\.?)"
    rf"(?=,[ \t]*[A-Z]){_CITY_TAIL}"
)
# Japan: block numbers, a district, a ward or city ("-ku", "-shi"), a prefecture or city.
_JAPANESE = re.compile(
    rf"(?<![\w.,/-])\d{{1,4}}(?:-\d{{1,4}}){{1,3}}[ \t]+{_CAP_WORD}"
    rf"(?:,[ \t]*{_CAP_WORD}-(?:ku|shi|cho|machi|gun|ken)\b)"
    rf"(?:,[ \t]*{_CAP_WORD}(?:[ \t]+\d{{3}}-\d{{4}})?)?"
)
_STREET_PARTICLES = (
    r"(?:den|der|dem|des|am|an|im|zum|zur|auf|de|del|della|di|da|do|dos|das|la|le|van|von|du)"
)
# Continental: a street of up to four words (particles lowercase), its number, then a postcode
# and a city: "Unter den Linden 77, 10117 Berlin", "Rua Augusta 27, 1100-048 Lisboa".
_STREET_NUMBER_POSTCODE = re.compile(
    rf"\b{_CAP_WORD}(?:[ \t]+(?:{_CAP_WORD}|{_STREET_PARTICLES})){{0,3}}[ \t]+\d{{1,4}}[a-z]?"
    rf",[ \t]*(?:[A-Z]{{1,2}}-)?\d{{4,5}}(?:-\d{{3}})?[ \t]+{_CAP_WORD}"
)
_CONTINENTAL = re.compile(
    r"\b[A-ZÄÖÜ][^\W\d_]*(?:straße|strasse|str\.|weg|gasse|platz|allee|ring|damm|laan|straat|"
    r"gracht|vej|gatan|gata|veien)(?:[ \t]+\d{1,4}[a-z]?)(?:,[ \t]*\d{4,5}[ \t]+[A-ZÄÖÜ][^\W\d_]+)?"
)
# Continental Europe: "14 rue de Rivoli, 75004 Paris", "Via Roma 12", "Calle Mayor 5".
_EU_POSTCODE_CITY = (
    rf"(?:,[ \t]*(?:[A-Z]{{1,2}}-)?\d{{4,5}}[ \t]+{_CAP_WORD}(?:[ \t-]{_CAP_WORD}){{0,2}})?"
)
_NAME_PARTICLES = r"(?:(?:de|du|des|del|della|di|da|do|dos|das|la|le|los|las)[ \t]+|[ld]['’])*"
_TYPE_AFTER_NUMBER = re.compile(
    rf"(?<![\w.,/$€£-])\d{{1,4}}(?:[ \t]?(?:bis|ter))?,?[ \t]+"
    rf"(?i:rue|avenue|av\.|boulevard|bd|place|chemin|allée|quai|impasse|cours|route)\b[ \t]+"
    rf"{_NAME_PARTICLES}{_CAP_WORD}(?:[ \t-]{_NAME_PARTICLES}{_CAP_WORD}){{0,3}}{_EU_POSTCODE_CITY}"
)
_NUMBER_AFTER_NAME = re.compile(
    rf"\b(?:Calle|Avenida|Avda\.|Paseo|Plaza|Carrer|Via|Viale|Piazza|Piazzale|Corso|Largo|Rua|"
    rf"Praça|Travessa|Strada)[ \t]+"
    rf"{_NAME_PARTICLES}{_CAP_WORD}(?:[ \t]{_NAME_PARTICLES}{_CAP_WORD}){{0,3}}"
    rf",?[ \t]+\d{{1,4}}[A-Za-z]?\b{_EU_POSTCODE_CITY}"
)
_JOIN = re.compile(r"[ \t]*,?[ \t]*\n?[ \t]*")
# House numbers right after these words are clause, page or quantity numbers.
_NOT_ADDRESS_BEFORE = re.compile(
    r"(?:clause|section|article|schedule|exhibit|appendix|annex|page|pages|item|paragraph|para|"
    r"§|no|number|version|v|chapter|rule|part|step|table|figure|fig)\.?[ \t]*$",
    re.I,
)


def find_addresses(text: str, is_city: Callable[[str], bool] | None = None) -> Iterator[PiiEntity]:
    """Postal addresses; a street line takes the unit, city, state and postcode after it, and
    parts found separately but written together become one address. With ``is_city`` (a
    folded-name test), other countries' postcodes beside a known city are found too.
    """
    candidates = list(_candidates(text))
    if is_city is not None:
        candidates.extend(find_postcodes(text, is_city))
    found = sorted(candidates, key=lambda e: (e.begin, -e.end))
    if not found:
        return
    current = found[0]
    for entity in found[1:]:
        if entity.begin <= current.end or _JOIN.fullmatch(text, current.end, entity.begin):
            end = max(current.end, entity.end)
            current = PiiEntity("ADDRESS", current.begin, end, max(current.score, entity.score))
        else:
            yield _with_postcode(text, current)
            current = entity
    yield _with_postcode(text, current)


def _with_postcode(text: str, address: PiiEntity) -> PiiEntity:
    """``address`` with a postcode that stands right after it ("…, São Paulo - SP, 01310-100")."""
    end = postcode_after(text, address.end)
    if end is None:
        return address
    return PiiEntity("ADDRESS", address.begin, end, address.score)


def _candidates(text: str) -> Iterator[PiiEntity]:
    for m in _STREET_LINE.finditer(text):
        if _NOT_ADDRESS_BEFORE.search(text[max(0, m.start() - 12) : m.start()]):
            continue
        yield PiiEntity("ADDRESS", m.start(), _trim(text, m.start(), m.end()), 0.8)
    for pattern, score in (
        (_PO_BOX, 0.85),
        (_CITY_STATE_ZIP, 0.75),
        (_UK_POSTCODE_ALONE, 0.6),
        (_ONE_WORD_STREET, 0.7),
        (_MILITARY, 0.8),
        (_UNIT_ALONE, 0.5),
        (_WORDED_NUMBER, 0.7),
        (_JAPANESE, 0.75),
        (_STREET_NUMBER_POSTCODE, 0.7),
        (_CONTINENTAL, 0.7),
        (_TYPE_AFTER_NUMBER, 0.75),
        (_NUMBER_AFTER_NAME, 0.75),
    ):
        for m in pattern.finditer(text):
            yield PiiEntity("ADDRESS", m.start(), _trim(text, m.start(), m.end()), score)
    yield from find_world_addresses(text)


def _trim(text: str, begin: int, end: int) -> int:
    """Drop trailing punctuation and spaces the patterns may swallow."""
    while end > begin and text[end - 1] in " \t,":
        end -= 1
    return end
