"""Which countries a text suggests for its phone numbers: phone words in many languages, the
language's function words and script, and country names (``phonenumbers``' own names of every
region in the major languages).
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterator

from agent_memory.adapters.local.pii._labels import lower

_GERMAN = ("DE", "AT", "CH")
_PORTUGUESE = ("BR", "PT")
_SPANISH = ("ES", "MX", "AR", "CO", "CL", "PE")
_FRENCH = ("FR", "BE", "CH", "CA")
_ITALIAN = ("IT", "CH")
_DUTCH = ("NL", "BE")
_NORDIC = ("SE", "DK", "NO", "FI")
_RUSSIAN = ("RU", "UA", "BY", "KZ")
_CHINESE = ("CN", "TW", "HK")

# Words that say a telephone number follows, by the regions whose languages write them.
PHONE_WORDS: dict[str, tuple[str, ...]] = {
    r"telefon(?:nummer|nr)?|handy(?:nummer)?|mobil(?:nummer|funk)?|festnetz|"
    r"rufnummer|durchwahl|anrufen|erreichbar|r(?:ü|ue)ckruf|"
    r"ruf(?:e|en|t)?\s+(?:mich|uns|an)": (*_GERMAN, "PL", "TR", *_NORDIC, "CZ"),
    r"telefone|celular|whats\s?app|zap|fone|contato|liga(?:r|r-me|-me)|ligue|ligou": (
        *_PORTUGUESE,
        *_SPANISH,
    ),
    # A verb of calling in its forms ("llámele al", "llame al", "appelez le", "chiami il").
    r"tel[ée]fono|m[óo]vil|tfno\.?|tlf\.?|contacto|"
    r"ll[aá]m(?:ar|e|ele|eme|enos|en|a|ó|ame)": _SPANISH,
    r"t[ée]l[ée]phone|portable|tél\.?|joindre|appel(?:er|ez|le|lez)|numéro": _FRENCH,
    r"telefono|cellulare|chiam(?:are|a|i|ate|ami)|recapito": _ITALIAN,
    r"telefoon(?:nummer)?|mobiel|gsm|bel(?:len|t)?\s+(?:me|ons|naar|op)|bellen": _DUTCH,
    r"kom[óo]rk\w*|tel\.\s*kom\.?|numer\w*|telefon\w*|dzwoń|zadzwoń": ("PL",),
    r"telefon\w*|cep\w*|gsm|numara\w*|arayın|arayabilirsiniz": ("TR",),
    r"mobilnummer|telefonnummer": _NORDIC,
    r"телефон\w*|тел\.?|мобильн\w*|сотов\w*|номер\w*|звонит\w*|позвонит\w*": _RUSSIAN,
    r"電話|携帯|でんわ|連絡先|お問い合わせ先": ("JP",),
    r"电话|手机|联系方式|電話|手機": _CHINESE,
    r"전화|휴대폰|핸드폰|연락처|전화번호": ("KR",),
}
# Function words common in running text of one language, and the regions that write it.
_FUNCTION_WORDS: dict[str, tuple[str, ...]] = {
    "und der die das ist nicht mit bitte ich sie wir auf für ein eine den dem": _GERMAN,
    "não você é da com para obrigado uma os ao pelo seu sua também está": _PORTUGUESE,
    "el los las y que por para con usted está es un una del al su gracias": _SPANISH,
    "le les et est vous avec pour une des du au sur nous merci je": _FRENCH,
    "il della che è per con sono gli una del alla grazie non questo": _ITALIAN,
    "het een en van niet met ik u voor op dat zijn bedankt wij": _DUTCH,
    "jest nie się że dla oraz jak na do proszę dziękuję pan pani": ("PL",),
    "ve bir için ile bu da değil çok teşekkürler lütfen": ("TR",),
    "och att det är inte med för på jag ni tack": ("SE",),
    "og er det ikke med til på jeg du tak": ("DK", "NO"),
}
_SCRIPTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("[\u3040-\u30ff]", ("JP",)),
    ("[\uac00-\ud7af]", ("KR",)),
    ("[\u4e00-\u9fff]", (*_CHINESE, "JP")),
    ("[\u0400-\u04ff]", _RUSSIAN),
    ("[\u0590-\u05ff]", ("IL",)),
    ("[\u0370-\u03ff]", ("GR", "CY")),
    ("[\u0e00-\u0e7f]", ("TH",)),
    ("[\u0600-\u06ff]", ("SA", "AE", "EG", "MA", "PK")),
    ("[\u0900-\u097f]", ("IN",)),
)
# A language is read from its function words when they are this many and this share of words
# (English text holds "die", "per", "en" and code "y" now and then).
_FUNCTION_HITS = 3
_FUNCTION_SHARE = 0.04
MAX_REGIONS = 4
_MAX_NAMED = 3


@functools.cache
def _phone_words() -> tuple[tuple[re.Pattern[str], tuple[str, ...], bool], ...]:
    return tuple(
        (re.compile(_unbounded_start(words)), regions, not _CJK.search(words))
        for words, regions in PHONE_WORDS.items()
    )


def _bounded(words: str) -> str:
    """Whole words; words of the scripts written without spaces stand anywhere."""
    return f"(?:{words})" if _CJK.search(words) else rf"\b(?:{words})(?![^\W\d_])"


def _unbounded_start(words: str) -> str:
    # No leading assertion, so the engine can skip ahead to the words' first letters; the
    # start is checked by the caller.
    return f"(?:{words})" if _CJK.search(words) else rf"(?:{words})(?![^\W\d_])"


@functools.cache
def phone_word_pattern() -> re.Pattern[str]:
    """Any phone word of any language."""
    return re.compile("|".join(_bounded(words) for words in PHONE_WORDS), re.I)


@functools.cache
def _function_words() -> dict[str, tuple[str, ...]]:
    table: dict[str, list[str]] = {}
    for words, regions in _FUNCTION_WORDS.items():
        for word in words.split():
            table.setdefault(word, []).extend(regions)
    return {word: tuple(dict.fromkeys(regions)) for word, regions in table.items()}


@functools.cache
def _country_names() -> tuple[dict[str, str], re.Pattern[str] | None]:
    """Names of countries (lowercase) to their regions, and a pattern for those written
    without spaces between words (Chinese, Japanese, Korean).
    """
    from agent_memory.adapters.local.pii.lists import read_list

    names: dict[str, str] = {}
    for line in read_list("country-names").strip().splitlines():
        region, name = line.split(" ", 1)
        names.setdefault(name, region)
    unspaced = sorted((n for n in names if _CJK.search(n)), key=len, reverse=True)
    pattern = re.compile("|".join(map(re.escape, unspaced))) if unspaced else None
    return names, pattern


_CJK = re.compile("[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]")
_WORD = re.compile(r"[^\W\d_]+(?:[-'’][^\W\d_]+)*")


@functools.cache
def _first_words() -> frozenset[str]:
    """First words of the country names of two words or more."""
    return frozenset(name.split()[0] for name in _country_names()[0] if " " in name)


def _countries_named(text: str) -> list[str]:
    names, unspaced = _country_names()
    firsts = _first_words()
    words = _WORD.findall(lower(text))
    found = [names[w] for w in words if w in names]
    found.extend(
        names[key]
        for i, word in enumerate(words)
        if word in firsts
        for size in (2, 3)
        if (key := " ".join(words[i : i + size])) in names
    )
    if unspaced is not None and _CJK.search(text):
        found.extend(names[m.group().casefold()] for m in unspaced.finditer(text))
    return found


def phone_words_in(text: str) -> Iterator[tuple[int, tuple[str, ...]]]:
    """Where each phone word ends, and the regions whose languages write it."""
    lowered = lower(text)
    for pattern, regions, bounded in _phone_words():
        for m in pattern.finditer(lowered):
            if not bounded or m.start() == 0 or not lowered[m.start() - 1].isalpha():
                yield m.end(), regions


def suggested_regions(text: str) -> tuple[str, ...]:
    """Up to ``MAX_REGIONS`` ISO 3166 codes the text suggests, the most suggested first."""
    votes: Counter[str] = Counter()
    seen: set[tuple[str, ...]] = set()
    for _, regions in phone_words_in(text):
        if regions not in seen:
            seen.add(regions)
            votes.update(regions)
    named = _countries_named(text)
    if len(set(named)) <= _MAX_NAMED:  # a text that lists many countries suggests none
        for region in named:
            votes[region] += 3
    words = _function_words()
    tokens = re.findall(r"[^\W\d_]+", text.casefold())
    hits: Counter[tuple[str, ...]] = Counter(words[w] for w in tokens if w in words)
    for regions, count in hits.items():
        if count >= max(_FUNCTION_HITS, _FUNCTION_SHARE * len(tokens)):
            votes.update(regions)
    for script, regions in _SCRIPTS:
        if re.search(script, text):
            votes.update(regions)
    return tuple(region for region, _ in votes.most_common(MAX_REGIONS))
