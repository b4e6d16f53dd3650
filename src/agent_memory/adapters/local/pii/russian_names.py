"""Russian (Cyrillic) person names: natasha's news NER tagger (slovnet), its given-name list
and pymorphy2's dictionary, loaded on first use.

They run only on sentences holding a Cyrillic letter, so text in other scripts never loads
them; the weights (~30 MB with the navec embeddings) ship in the ``natasha`` wheel. They also
judge the rule-based recogniser's finds in Cyrillic, which take every capitalised word.
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
# A capitalised Cyrillic word (a double-barrelled one too) and the space after it, if any.
_CAPITALISED = re.compile(r"[А-ЯЁ][а-яё]+(?:-[А-ЯЁ][а-яё]+)?( (?=[А-ЯЁ]))?")
# A patronymic by its suffix, in any case ("Бауыровна" of a father's name pymorphy2 lacks).
_PATRONYMIC = re.compile(r"[А-ЯЁ][а-яё]+(?:ович|евич|овн|евн|ичн)(?:а|у|ем|ом|е|ой|ою|ы)?")
# A compound term, not a name: Latin then lower-case Cyrillic after a hyphen, or two lower-case
# parts hyphenated ("React-компонент", "Диаграмма-жизненного-цикла"); a title after a name,
# "Газан-хан", "Ментеше-беем", is kept.
_COMPOUND = re.compile(r"[A-Za-z]-[а-яё]|-[а-яё]{3,}-[а-яё]")
# pymorphy2's grammemes of a given name, a surname and a patronymic.
_NAME_GRAMMEMES = frozenset({"Name", "Surn", "Patr"})
_PERSON = "PER"


@dataclass(frozen=True)
class _Model:
    segmenter: Segmenter
    tagger: NewsNERTagger
    morph: Any  # pymorphy2.MorphAnalyzer (untyped)
    given_names: frozenset[str]  # natasha's list, lower case, nominative

    def is_name_word(self, word: str) -> bool:
        """A given name of natasha's list (in any case), or a word pymorphy2's dictionary has
        as a given name, surname or patronymic.
        """
        parses = self.morph.parse(word)
        if any(p.normal_form in self.given_names for p in parses):
            return True
        # A word pymorphy2 does not know gets parses guessed from its ending, names among
        # them ("Промис"): only its dictionary is asked.
        return self.morph.word_is_known(word) and any(_is_name(p) for p in parses)


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

    Neither is a name when it holds a compound term or Markdown anchor (``_COMPOUND``).

    Every capitalised Cyrillic word reads as a name to the rules, which know English words
    only. A find in Cyrillic letters alone is kept when it overlaps a person of the tagger;
    when it overlaps none of the tagger's spans and pymorphy2's dictionary has one of its words
    as a given name, surname or patronymic; or when it overlaps a place or an
    organisation of the tagger but is two or more words that pymorphy2 reads first as names
    (the tagger calls unfamiliar full names places now and then). Such a place or organisation
    of the tagger's is a name too. Finds with Latin letters are kept as found.
    """
    found = list(rule_names)
    if not has_cyrillic(text):
        return found
    model = _load()
    spans = _tag(text, model)
    persons = [_trimmed(text, b, e, model.morph) for kind, b, e in spans if kind == _PERSON]
    others = [(b, e) for kind, b, e in spans if kind != _PERSON]
    kept = [
        PiiEntity("NAME", *_trimmed(text, name.begin, name.end, model.morph))
        if has_cyrillic(text[name.begin : name.end])
        else name
        for name in found
        if _confirmed(text, name, persons, others, model)
    ]
    persons += [(b, e) for b, e in others if _is_full_name(text[b:e], model.morph)]
    persons += _full_names(text, model)
    return [
        name
        for name in [*kept, *(PiiEntity("NAME", b, e) for b, e in persons)]
        if not _COMPOUND.search(text, name.begin, name.end)
    ]


def _full_names(text: str, model: _Model) -> list[tuple[int, int]]:
    """Full names the tagger split or missed ("Абдубаев Всеволод Всеволодович", its surname
    first): runs of two or more capitalised Cyrillic words that pymorphy2 can read as given
    names, surnames or patronymics (or end as a patronymic does), when one is read first as
    a patronymic or ends as one, or when every one
    is read first as a name and one of them is a name word (``_Model.is_name_word``) or
    guessed a surname (two words pymorphy2 does not know, such as "Промис Реакт", get
    given-name parses from their endings).
    """
    found: list[tuple[int, int]] = []
    run: list[tuple[re.Match[str], Any]] = []
    for word in [*_CAPITALISED.finditer(text), None]:
        parses = model.morph.parse(word.group().strip()) if word else []
        named = word is not None and (
            any(_is_name(p) for p in parses) or _patronymic(word.group().strip())
        )
        if named and word and (not run or run[-1][0].end() == word.start()):
            run.append((word, parses[0]))
            continue
        if len(run) > 1 and _is_full_name_run(run, model):
            last = run[-1][0]
            found.append((run[0][0].start(), last.end() - len(last.group(1) or "")))
        run = [(word, parses[0])] if named and word else []
    return found


def _patronymic(word: str) -> bool:
    return _PATRONYMIC.fullmatch(word) is not None


def _is_full_name_run(run: list[tuple[re.Match[str], Any]], model: _Model) -> bool:
    firsts = [parse.tag.grammemes for _, parse in run]
    if any("Patr" in g for g in firsts) or any(_patronymic(w.group().strip()) for w, _ in run):
        return True
    return all(_NAME_GRAMMEMES & g for g in firsts) and (
        any("Surn" in g for g in firsts)
        or any(model.is_name_word(w.group().strip()) for w, _ in run)
    )


def _trimmed(text: str, begin: int, end: int, morph: Any) -> tuple[int, int]:
    """A span without its first word when pymorphy2's dictionary never has that word as a name
    and either it opens its sentence, where a capital says nothing ("Пригласите Ивана Петрова"),
    or it is only ever a function word ("…, Вчера Роза"); mid-sentence another word's capital is
    the sign of a name ("с Досей Ивановой").
    """
    words = list(_WORD.finditer(text, begin, end))
    # A word only ever an adverb, a conjunction or the like ("Вчера") is no part of a name
    # wherever it stands; any other word only where its capital says nothing.
    first = words[0].group() if len(words) > 1 else ""
    if (
        first
        and _not_a_name(first, morph)
        and (_opens_sentence(text, begin) or _only_a_function_word(first, morph))
    ):
        return words[1].start(), end
    return begin, end


def _only_a_function_word(word: str, morph: Any) -> bool:
    return all(p.tag.POS in _FUNCTION for p in morph.parse(word))


# Parts of speech no name word is read as: adverbs, predicatives, pronouns, prepositions,
# conjunctions, particles, interjections.
_FUNCTION = frozenset({"ADVB", "PRED", "NPRO", "PREP", "CONJ", "PRCL", "INTJ"})


def _opens_sentence(text: str, at: int) -> bool:
    before = text[:at].rstrip(" \t\"'«„“(")
    return not before or before[-1] in ".!?…\n"


def _not_a_name(word: str, morph: Any) -> bool:
    return morph.word_is_known(word) and not any(_is_name(p) for p in morph.parse(word))


def _confirmed(
    text: str,
    name: PiiEntity,
    persons: list[tuple[int, int]],
    others: list[tuple[int, int]],
    model: _Model,
) -> bool:
    surface = text[name.begin : name.end]
    if _LATIN.search(surface) or not has_cyrillic(surface) or _overlaps_any(name, persons):
        return True
    if _overlaps_any(name, others):
        return _is_full_name(surface, model.morph)
    return any(model.is_name_word(word) for word in re.findall(r"\w+", surface))


def _is_full_name(surface: str, morph: Any) -> bool:
    """Two or more words, each read first as a given name, surname or patronymic."""
    words = _WORD.findall(surface)
    return len(words) > 1 and all(_is_name(morph.parse(word)[0]) for word in words)


def _is_name(parse: Any) -> bool:
    return bool(_NAME_GRAMMEMES & parse.tag.grammemes)


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


def _load() -> _Model:
    """The segmenter, tagger and morphology, loaded once per process (~1 s) by the first
    thread that needs them.
    """
    global _model
    if _model is None:
        with _lock:
            if _model is None:
                # A core dependency, imported here so that a process that meets no Cyrillic
                # text never pays its ~150 ms import; if it is missing this raises, and the
                # write that asked is refused rather than stored unscrubbed.
                # After natasha, whose yargy patches pymorphy2 for Python 3.11+. The dictionary
                # is named, not looked up through pkg_resources (no setuptools on Lambda).
                import pymorphy2
                import pymorphy2_dicts_ru
                from natasha import NewsEmbedding, NewsNERTagger, Segmenter
                from natasha.data import FIRST, load_dict

                _model = _Model(
                    Segmenter(),
                    NewsNERTagger(NewsEmbedding()),
                    pymorphy2.MorphAnalyzer(path=pymorphy2_dicts_ru.get_path(), lang="ru"),
                    frozenset(load_dict(FIRST)),
                )
    return _model
