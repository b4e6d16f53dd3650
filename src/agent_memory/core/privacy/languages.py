"""Which languages a text is written in, guessed from its function words.

A capitalised word in no English list is a likely name in English text only: in Spanish text
"Actualmente" and "También" are no names, so the local name recogniser consults the guessed
language's word list; Amazon Comprehend reads PII in English and Spanish, so its adapter sends
Spanish text as Spanish. No model: only the commonest words of each language.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable


def words(text: str) -> frozenset[str]:
    """The whitespace-separated words of ``text``."""
    return frozenset(text.split())


# Folded (lowercase, no accents) function words that are not also common English words.
FUNCTION_WORDS: dict[str, frozenset[str]] = {
    "es": words(
        """
        el los las del que por para con una unos unas como pero mas este esta estos estas
        ese esa eso esto su sus muy tambien donde cuando porque sin sobre entre hasta desde
        fue ser hay tiene son puede nos les ella ellos usted lo al se es en y o la de
        """
    ),
    "pt": words(
        """
        os das dos uma um pelo pela para com nao mais como mas seu sua seus suas este esta
        isso isto quando onde porque sem sobre entre ate desde foi ser tem sao pode voce
        ele ela eles elas ao na no nas nos em e ou se de do da
        """
    ),
    "fr": words(
        """
        le les des du une est sont pour avec dans par sur pas plus mais comme cette ces
        cet leur leurs nous vous ils elle elles qui que quand sans entre aussi tres etre
        fait peut ou et la au aux en un ne se
        """
    ),
    "it": words(
        """
        il gli della delle degli dei del che per con una uno sono essere questo questa
        questi queste anche come ma piu non nel nella nei sul sulla tra fra quando dove
        perche senza lo la le di da e un
        """
    ),
    "de": words(
        """
        der die das den dem des und ist sind ein eine einer eines einem nicht mit von zu
        auf fur sich auch wird werden wurde war hat haben als aber oder wenn nach bei aus
        noch nur kann im zum zur uber
        """
    ),
    "nl": words(
        """
        de het een en van is zijn niet met voor op te dat die deze dit ook wordt werd
        naar bij uit als maar heeft hebben nog kan over door tot zich er
        """
    ),
    "pl": words(
        """
        w z na sie nie do to ze jest jak po co ale od za dla przez przy jego jej ich tak juz czy
        lub oraz byl byla bylo sa jestem moje moj
        """
    ),
    "tr": words(
        """
        ve bir bu da de ile icin gibi daha cok olarak olan ama veya ben benim sen senin biz siz
        onlar ne mi ki her cok en
        """
    ),
    "ru": words(
        """
        и в не на что с по как это он она они его ее их но из за от для то к все был была
        были бы же у так или ли о об при также этот эта эти которые который которая
        """
    ),
    "en": words(
        """
        the and of to is are was were be been this that these those with for from by on
        it its he she they we you not but or which who what when where have has had will
        would can could in at as an if our your their there then than
        """
    ),
}


_CYRILLIC = re.compile("[\u0400-\u04ff]")


def guess(keys: Iterable[str]) -> list[str]:
    """Languages other than English whose function words ``keys`` use twice or more, and at
    least as often as English ones, most used first; Russian for any Cyrillic word.
    """
    counts: Counter[str] = Counter()
    cyrillic = False
    for key in keys:
        cyrillic = cyrillic or bool(_CYRILLIC.match(key))
        for lang, function_words in FUNCTION_WORDS.items():
            if key in function_words:
                counts[lang] += 1
    english = counts.pop("en", 0)
    found = [lang for lang, n in counts.most_common() if n >= 2 and n >= english]
    return found if not cyrillic or "ru" in found else [*found, "ru"]


_WORD = re.compile(r"[^\W\d_]+")


def guess_text(text: str) -> list[str]:
    """:func:`guess` over the words of ``text``, folded (lowercase, no accents)."""
    return guess(_folded(word) for word in _WORD.findall(text))


def _folded(word: str) -> str:
    decomposed = unicodedata.normalize("NFKD", word)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
