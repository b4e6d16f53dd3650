"""Russian (Cyrillic) person names: natasha's news NER tagger (slovnet), loaded on first use.

The model runs only on sentences holding a Cyrillic letter, so text in other scripts never
loads it; its weights (~30 MB with the navec embeddings) ship in the ``natasha`` wheel.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from agent_memory.core.ports import PiiEntity

if TYPE_CHECKING:
    from natasha import NewsNERTagger, Segmenter

# Russian, Ukrainian, Belarusian, Serbian, ... letters (the Cyrillic block, its supplement).
_CYRILLIC = re.compile(r"[\u0400-\u04ff\u0500-\u052f]")
_LATIN = re.compile(r"[A-Za-z\u00c0-\u024f]")
_WORD = re.compile(r"[\w-]+")
# pymorphy2's grammemes of a given name, a surname and a patronymic.
_NAME_GRAMMEMES = frozenset({"Name", "Surn", "Patr"})
_PERSON = "PER"


@dataclass(frozen=True)
class _Model:
    segmenter: Segmenter
    tagger: NewsNERTagger
    morph: Any  # pymorphy2.MorphAnalyzer, untyped


_lock = threading.Lock()
_model: _Model | None = None


def is_loaded() -> bool:
    """Whether this process has loaded the NER model (a text with Cyrillic letters has come)."""
    return _model is not None


def has_cyrillic(text: str) -> bool:
    """Whether ``text`` holds a Cyrillic letter (the cheap check before the model)."""
    return _CYRILLIC.search(text) is not None


def find_russian_names(text: str) -> list[PiiEntity]:
    """NAME spans (code-point offsets into ``text``) of the persons the tagger finds in the
    sentences of ``text`` that hold a Cyrillic letter; ``[]`` without loading anything when
    there is none.
    """
    if not has_cyrillic(text):
        return []
    return [PiiEntity("NAME", b, e) for kind, b, e in _tag(text, _load()) if kind == _PERSON]


def with_russian_names(text: str, rule_names: Iterable[PiiEntity]) -> list[PiiEntity]:
    """The tagger's persons, and the rule-based recogniser's NAME finds that it confirms.

    Every capitalised Cyrillic word reads as a name to the rules, which know English words
    only; a find in Cyrillic letters alone is kept when it overlaps a person of the tagger, or
    when pymorphy2 knows one of its words as a given name, surname or patronymic and the tagger
    did not call it a place or an organisation. Finds with Latin letters are kept as found.
    """
    found = list(rule_names)
    if not has_cyrillic(text):
        return found
    model = _load()
    spans = _tag(text, model)
    persons = [(b, e) for kind, b, e in spans if kind == _PERSON]
    others = [(b, e) for kind, b, e in spans if kind != _PERSON]
    kept = [
        name
        for name in found
        if _LATIN.search(surface := text[name.begin : name.end])
        or not has_cyrillic(surface)
        or _overlaps_any(name, persons)
        or (not _overlaps_any(name, others) and _is_name_word(surface, model.morph))
    ]
    return [*kept, *(PiiEntity("NAME", b, e) for b, e in persons)]


def _tag(text: str, model: _Model) -> list[tuple[str, int, int]]:
    """(type, begin, end) of the tagger's spans with a Cyrillic letter, in sentences that hold
    one (the tagger reads Russian news: the Latin words it tags are mostly product names).
    """
    sentences = [s for s in model.segmenter.sentenize(text) if has_cyrillic(s.text)]
    found: list[tuple[str, int, int]] = []
    for sentence, markup in zip(
        sentences, model.tagger.map([s.text for s in sentences]), strict=True
    ):
        for span in markup.spans:
            if has_cyrillic(markup.text[span.start : span.stop]):
                found.append((span.type, sentence.start + span.start, sentence.start + span.stop))
    return found


def _overlaps_any(name: PiiEntity, spans: list[tuple[int, int]]) -> bool:
    return any(name.begin < e and b < name.end for b, e in spans)


def _is_name_word(surface: str, morph: Any) -> bool:
    """Whether a word of ``surface`` is a name to pymorphy2, or no word of its dictionary."""
    return any(
        not morph.word_is_known(word)
        or any(_NAME_GRAMMEMES & parse.tag.grammemes for parse in morph.parse(word))
        for word in _WORD.findall(surface)
    )


def _load() -> _Model:
    """The segmenter and tagger, loaded once per process (~1 s) whichever thread asks first."""
    global _model
    if _model is None:
        with _lock:
            if _model is None:
                # A core dependency, imported here so that a process that meets no Cyrillic
                # text never pays its ~150 ms import; if it is missing this raises, and the
                # write that asked is refused rather than stored unscrubbed.
                import pymorphy2  # type: ignore[import-untyped]
                from natasha import NewsEmbedding, NewsNERTagger, Segmenter

                _model = _Model(
                    Segmenter(), NewsNERTagger(NewsEmbedding()), pymorphy2.MorphAnalyzer()
                )
    return _model
