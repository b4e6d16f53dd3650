"""Russian (Cyrillic) person names: natasha's NER tagger beside the rule-based recogniser."""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path
from typing import Any

import natasha  # first: it patches pymorphy2 for Python 3.11
import pymorphy2  # type: ignore[import-untyped]
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from agent_memory.adapters.local.pii import LocalPiiDetector, russian_names

NAME_DICTS = Path(natasha.__file__).parent / "data" / "dict"
# Sentence shapes and the case each puts the name in.
SHAPES = [
    ("nomn", "{} подписал договор вчера вечером."),
    ("nomn", "Вчера {} подписал договор."),
    ("ablt", "Мы встретились с {} в офисе."),
    ("datv", "Передайте документы {} до пятницы."),
    ("gent", "Письмо от {} пришло утром, ответ нужен сегодня."),
    ("accs", "Пригласите {} на совещание в среду."),
]


@cache
def _morph() -> Any:
    return pymorphy2.MorphAnalyzer()


@cache
def _given_names(gender: str) -> list[str]:
    """Given names of natasha's dictionary that pymorphy2 knows as such (every 5th)."""
    words = (NAME_DICTS / "first.txt").read_text(encoding="utf-8").split()[::5]
    return [w for w in words if _parse(w, {"Name", gender}) is not None]


@cache
def _surnames() -> list[str]:
    """Surnames of natasha's dictionary in -ов/-ев/-ин that pymorphy2 declines (every 50th)."""
    words = (NAME_DICTS / "last.txt").read_text(encoding="utf-8").split()[::50]
    return [w for w in words if w.endswith(("ов", "ев", "ин")) and _parse(w, {"Surn", "masc"})]


def _parse(word: str, grammemes: set[str]) -> Any:
    for parse in _morph().parse(word):
        if grammemes <= parse.tag.grammemes and parse.tag.case == "nomn":
            return parse
    return None


def _inflect(word: str, kind: str, gender: str, case: str) -> str | None:
    """``word`` (a masculine surname, or a name of ``gender``) in ``gender`` and ``case``."""
    parse = _parse(word, {kind, gender}) or _parse(word, {kind, "masc"})
    form = parse and parse.inflect({case, "sing", gender} if kind == "Surn" else {case, "sing"})
    return form.word.capitalize() if form else None


def _patronymic(father: str, gender: str, case: str) -> str | None:
    """The patronymic a father's name ending in a hard consonant gives (Иван → Иванович)."""
    if father[-1] in "аеёиоуыэюяйьъ":
        return None
    patronymic = father + ("ович" if gender == "masc" else "овна")
    return _inflect(patronymic, "Patr", gender, case) if _parse(patronymic, {"Patr"}) else None


@st.composite
def full_names(draw: st.DrawFn) -> tuple[str, str]:
    """(sentence, the full name as it stands in it): given name, maybe patronymic, surname, of
    a man or a woman, in the case the sentence puts it in.
    """
    case, shape = draw(st.sampled_from(SHAPES))
    gender = draw(st.sampled_from(["masc", "femn"]))
    given = _inflect(draw(st.sampled_from(_given_names(gender))), "Name", gender, case)
    surname = _inflect(draw(st.sampled_from(_surnames())), "Surn", gender, case)
    assume(given is not None and surname is not None)
    words = [given]
    father = draw(st.sampled_from(_given_names("masc")))
    if draw(st.booleans()) and (patronymic := _patronymic(father, gender, case)):
        words.append(patronymic)
    words.append(surname)
    if draw(st.booleans()):
        words.insert(0, words.pop())  # surname first, as in lists and forms
    name = " ".join(str(w) for w in words)
    return shape.format(name).replace(
        "подписал ", "подписала " if gender == "femn" else "подписал "
    ), name


@pytest.fixture(scope="module")
def detector() -> LocalPiiDetector:
    return LocalPiiDetector()


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(full_names())
def test_a_russian_full_name_in_any_case_is_a_name(
    detector: LocalPiiDetector, case: tuple[str, str]
) -> None:
    # Given a sentence with a Russian full name from natasha's dictionaries, declined
    sentence, name = case
    begin = sentence.index(name)
    # When it is scanned
    found = detector.detect(sentence)
    # Then every word of the name is inside a NAME span
    covered = {i for e in found if e.type == "NAME" for i in range(e.begin, e.end)}
    assert all(
        i in covered for i in range(begin, begin + len(name)) if not name[i - begin].isspace()
    )


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.text(alphabet="😀👍 é\n", max_size=12), full_names())
def test_spans_are_code_point_offsets_after_any_prefix(
    detector: LocalPiiDetector, prefix: str, case: tuple[str, str]
) -> None:
    # Given a name after a line of emoji and accented letters (several bytes each in UTF-8)
    sentence, name = case
    text = prefix + "\n" + sentence
    # When it is scanned
    names = [text[e.begin : e.end] for e in detector.detect(text) if e.type == "NAME"]
    # Then the spans cut the name's own words out of the text
    assert any(n in name for n in names)
    assert all(n.strip() == n and n for n in names)


@pytest.mark.parametrize(
    "text",
    [
        "Договор поставки заключён в Москве между ООО «Ромашка» и АО «Север».",
        "Стороны подписали Договор в Санкт-Петербурге; Приложение 2 является его частью.",
        "Функция возвращает Промис, который выполняется после загрузки Компонента.",
        "Обратите внимание: Массив передаётся по ссылке, а Строка копируется.",
        "Офис переехал из Новосибирска в Екатеринбург, Казань и Нижний Новгород.",
        "См. [о жизненном цикле](#Диаграмма-жизненного-цикла), где React-компонент описан.",
        "Используйте Эффект, чтобы синхронизировать Компонент с внешней системой.",
    ],
)
def test_russian_ordinary_words_and_places_are_kept(detector: LocalPiiDetector, text: str) -> None:
    # Given Russian contract and technical text with capitalised words and places, no person
    # When it is scanned
    found = detector.detect(text)
    # Then no name is found in it
    assert [text[e.begin : e.end] for e in found if e.type == "NAME"] == []


def test_a_text_without_cyrillic_never_loads_the_model() -> None:
    # Given a fresh module state (the model not loaded) and text in Latin and other scripts
    russian_names._model = None
    detector = LocalPiiDetector()
    # When it is scanned
    detector.detect("Grace Hopper met 山田太郎 and José Ñúñez at 10:00 — see https://x.org")
    # Then the model is still not loaded
    assert not russian_names.is_loaded()
    # And the first Cyrillic text loads it
    detector.detect("Иван Петров позвонил.")
    assert russian_names.is_loaded()


def test_without_natasha_a_cyrillic_text_raises_rather_than_passes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given natasha cannot be imported and the model is not loaded
    monkeypatch.setattr(russian_names, "_model", None)
    monkeypatch.setitem(sys.modules, "natasha", None)
    # When a Cyrillic text is scanned, Then the scan fails (the write is refused), not skipped
    with pytest.raises(ImportError):
        LocalPiiDetector().detect("Иван Петров позвонил.")


def test_the_model_loads_without_pkg_resources(monkeypatch: pytest.MonkeyPatch) -> None:
    # Given a runtime without setuptools' pkg_resources (Lambda's Python), the model not loaded
    monkeypatch.setattr(russian_names, "_model", None)
    monkeypatch.setitem(sys.modules, "pkg_resources", None)
    # When a Cyrillic text is scanned
    names = [
        e for e in LocalPiiDetector().detect("Вчера Иван Петров позвонил.") if e.type == "NAME"
    ]
    # Then the model loads and the name is found
    assert russian_names.is_loaded()
    assert names


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Как договорились, Вчера Иван Петров подписал акт.", "Иван Петров"),
        ("ok Сегодня Ольга Смирнова прислала счёт.", "Ольга Смирнова"),
    ],
)
def test_a_function_word_before_a_name_mid_sentence_is_left_out(
    detector: LocalPiiDetector, text: str, name: str
) -> None:
    # Given an adverb capitalised mid-sentence before a name (a word no name is)
    names = [text[e.begin : e.end] for e in detector.detect(text) if e.type == "NAME"]
    # Then the name is found without it
    assert name in names, names
