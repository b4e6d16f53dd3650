"""Person names in Arabic script: a common given name or an ``عبد``/``أبو`` compound, with the
name words that follow it (another given name, ``بن``/``بنت`` and a name, a family name with
the article), or the words after an honorific (``السيد``, ``الدكتورة``).

Arabic has no capitals, so only the given-name list (``_world_names``) and the honorifics say
where a name is; a family name alone ("الأحمد") is not found.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from agent_memory.adapters.local.pii import _world_names as wn
from agent_memory.core.ports import PiiEntity

_WORD = re.compile(r"[\u0621-\u064a\u0671-\u06d3\u064b-\u065f]+")
_GAP = re.compile(r"[ \t\u00a0]{1,2}")
_HARAKAT = re.compile(r"[\u064b-\u065f]")
_GIVEN = frozenset(wn.ARABIC_GIVEN_NAMES.split())
_TITLES = frozenset(wn.ARABIC_TITLES.split())
_LINEAGE = frozenset(wn.ARABIC_LINEAGE.split())
_COMPOUND_HEADS = ("عبد", "أبو", "ابو")
# Words that end a name: prepositions, pronouns and verbs of speech.
_STOP = frozenset(
    "في من على إلى الى عن مع هو هي هم قال قالت أن ان إن كان كانت و أو او ثم التي الذي لا ما".split()
)
_MAX_WORDS = 5


def find(text: str) -> Iterator[PiiEntity]:
    """NAME entities written in Arabic script."""
    if not any("\u0600" <= c <= "\u06ff" for c in text):
        return
    words = list(_WORD.finditer(text))
    i = 0
    while i < len(words):
        key = _HARAKAT.sub("", words[i].group())
        titled = key in _TITLES
        start = i + 1 if titled else i
        if start >= len(words) or (titled and not _joined(text, words, i, start)):
            i += 1
            continue
        end = _name_end(text, words, start, titled=titled)
        if end is None:
            i += 1
            continue
        yield PiiEntity("NAME", words[start].start(), words[end].end(), 0.8 if titled else 0.6)
        i = end + 1


def _joined(text: str, words: list[re.Match[str]], a: int, b: int) -> bool:
    return _GAP.fullmatch(text, words[a].end(), words[b].start()) is not None


def _given(key: str) -> bool:
    bare = key[1:] if key[:1] in ("و", "ل", "ب") and key[1:] in _GIVEN else key
    return bare in _GIVEN or (bare.startswith(_COMPOUND_HEADS) and len(bare) > 4)


def _name_end(text: str, words: list[re.Match[str]], start: int, *, titled: bool) -> int | None:
    """Index of the last word of a name starting at ``start``, or None."""
    key = _HARAKAT.sub("", words[start].group())
    if key in _STOP:
        return None
    compound = (
        key in _COMPOUND_HEADS and start + 1 < len(words) and _joined(text, words, start, start + 1)
    )
    if not (titled or _given(key) or compound):
        return None
    end = start + 1 if compound else start
    while end + 1 < len(words) and end - start < _MAX_WORDS and _joined(text, words, end, end + 1):
        nxt = _HARAKAT.sub("", words[end + 1].group())
        if nxt in _STOP:
            break
        if nxt in _LINEAGE and end + 2 < len(words) and _joined(text, words, end + 1, end + 2):
            end += 2
        elif (
            _given(nxt)
            or (nxt.startswith("ال") and len(nxt) > 3 and end == start)
            or (titled and end - start < 2)
        ):
            end += 1
        else:
            break
    return end
