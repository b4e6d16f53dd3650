"""Person names beyond English and Latin script: CJK, Cyrillic, Arabic and Latin-script names
of other languages, generated from the lexicons inside cue sentences of their language, and the
look-alike words that must stay.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from agent_memory.adapters.local.pii import LocalPiiDetector, cjk_names
from agent_memory.adapters.local.pii import _world_names as wn

_SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
_DETECTOR = LocalPiiDetector()


def names(text: str) -> list[str]:
    return [text[e.begin : e.end] for e in _DETECTOR.detect(text) if e.type == "NAME"]


def covered(text: str, value: str) -> bool:
    start = text.index(value)
    spans = [(e.begin, e.end) for e in _DETECTOR.detect(text) if e.type == "NAME"]
    return all(any(b <= i < e for b, e in spans) for i in range(start, start + len(value)))


_CHINESE_SURNAMES = sorted(set(wn.CHINESE_SURNAMES.split()))
_GIVEN_CHARS = sorted(cjk_names.GIVEN_CHARACTERS)
chinese_names = st.builds(
    lambda s, g: s + "".join(g),
    st.sampled_from(_CHINESE_SURNAMES),
    st.lists(st.sampled_from(_GIVEN_CHARS), min_size=1, max_size=2),
)


@_SETTINGS
@given(name=chinese_names, honorific=st.sampled_from(["先生", "女士", "小姐", "夫人"]))
def test_a_chinese_name_before_a_courtesy_title_is_found(name: str, honorific: str) -> None:
    # Given a Chinese name from the surname list and given-name characters, then a title
    text = f"请把合同发给{name}{honorific}，谢谢。"
    # When it is scanned / Then the whole name is scrubbed
    assert covered(text, name)


@_SETTINGS
@given(
    surname=st.sampled_from(_CHINESE_SURNAMES),
    role=st.sampled_from(["经理", "老师", "教授", "主任", "律师"]),
)
def test_a_chinese_surname_before_a_role_is_found(surname: str, role: str) -> None:
    text = f"明天请{surname}{role}签字。"
    assert covered(text, surname)


def test_a_chinese_biography_opening_with_a_name_is_found() -> None:
    # Given résumé lines "<name>，男，" and "<name>（<role>）：女，"
    text = "吴重阳，男，中国国籍。袁会琼（监事会主席）：女，大学学历。"
    assert names(text) == ["吴重阳", "袁会琼"]


@_SETTINGS
@given(name=chinese_names, cue=st.sampled_from(["我叫", "联系人：", "姓名："]))
def test_a_chinese_name_after_a_cue_is_found(name: str, cue: str) -> None:
    text = f"{cue}{name}。"
    assert covered(text, name)


@_SETTINGS
@given(name=chinese_names)
def test_a_chinese_full_name_set_off_by_punctuation_is_found(name: str) -> None:
    # Given a résumé line that opens with a name, set off by a comma (a one-character given
    # name that mostly makes a word after a surname, "王国", needs a cue)
    assume(len(name) == 3 or name[1] not in cjk_names._WORD_FORMING)
    text = f"{name}，男，1975年出生，中国国籍。"
    assert covered(text, name)


@pytest.mark.parametrize(
    "text",
    [
        "高速，公路和铁路都很方便。",
        "王国，共和国与联邦。",
        "金融，科技和制造业。",
        "使用高速缓存提高性能。",
        "林业，渔业和农业。",
    ],
)
def test_ordinary_chinese_words_starting_with_a_surname_are_kept(text: str) -> None:
    assert names(text) == []


def _japanese_surnames() -> list[str]:
    lists = cjk_names._load()
    return sorted(s for s in lists.surnames if len(s) == 2 and s not in _CHINESE_SURNAMES)[:400]


@_SETTINGS
@given(
    surname=st.sampled_from(_japanese_surnames()),
    honorific=st.sampled_from(["さん", "様", "部長", "課長", "社長"]),
)
def test_a_japanese_surname_before_an_honorific_is_found(surname: str, honorific: str) -> None:
    text = f"明日、{surname}{honorific}に資料を送ります。"
    assert covered(text, surname)


def test_a_japanese_full_name_before_an_honorific_is_found_whole() -> None:
    text = "山田太郎さんに連絡してください。"
    assert names(text) == ["山田太郎"]


_KOREAN_SURNAMES = sorted(set(wn.KOREAN_SURNAMES.split()))
_HANGUL = st.characters(min_codepoint=0xAC00, max_codepoint=0xD7A3)


@_SETTINGS
@given(
    surname=st.sampled_from(_KOREAN_SURNAMES), given_name=st.text(_HANGUL, min_size=2, max_size=2)
)
def test_a_korean_name_before_an_honorific_is_found(surname: str, given_name: str) -> None:
    name = surname + given_name
    text = f"내일 {name} 씨에게 전화하세요."
    assert covered(text, name)


@_SETTINGS
@given(
    surname=st.sampled_from(_KOREAN_SURNAMES),
    given_name=st.text(_HANGUL, min_size=2, max_size=2),
    role=st.sampled_from(["고객님이", "대리가", "과장님께", "환자분", "회원님의"]),
)
def test_a_korean_name_before_a_role_word_is_found(
    surname: str, given_name: str, role: str
) -> None:
    # Given a three-syllable name before a role word ("김민수 고객님이")
    name = surname + given_name
    text = f"{name} {role} 환불을 요청하셨습니다."
    # Then the name is found
    assert covered(text, name)


def test_a_noun_before_a_role_word_is_kept() -> None:
    # "신규 고객님" (new customer): 신 is a surname, but two syllables before a role are no name
    assert names("신규 고객님께 안내 메일을 보냈습니다.") == []


def test_a_korean_word_before_an_attached_honorific_is_kept() -> None:
    # "고객님" (dear customer): 고 is a surname, but a two-syllable word with 님 is no name
    assert names("고객님, 주문이 완료되었습니다.") == []


_CYRILLIC_GIVEN = sorted(
    w.capitalize() for w in wn.CYRILLIC_GIVEN_NAMES.split() if w.isalpha() and "i" not in w
)
_SURNAME_STEMS = ["Петр", "Иван", "Смирн", "Кузнец", "Попов", "Соколов", "Лебед", "Козл", "Новик"]


@_SETTINGS
@given(
    given_name=st.sampled_from(_CYRILLIC_GIVEN),
    stem=st.sampled_from(_SURNAME_STEMS),
    ending=st.sampled_from(["ов", "ова", "ев", "ский", "ская"]),
)
def test_a_russian_given_name_and_surname_after_an_unknown_word_are_found(
    given_name: str, stem: str, ending: str
) -> None:
    # Given a contract sentence opening with "Договор", then a given name and a surname
    surname = stem.removesuffix("ов") + ending
    text = f"Договор подписал {given_name} {surname} вчера."
    # When it is scanned / Then the name is found and "Договор" is kept
    assert covered(text, f"{given_name} {surname}")
    assert not covered(text, "Договор")


@_SETTINGS
@given(
    given_name=st.sampled_from(_CYRILLIC_GIVEN),
    father=st.sampled_from(["Петр", "Иван", "Сергее", "Николае", "Андрее"]),
    suffix=st.sampled_from(["вич", "вна"]),
)
def test_a_russian_name_with_a_patronymic_is_found(
    given_name: str, father: str, suffix: str
) -> None:
    # Given a role word opening the sentence, then a given name and a patronymic
    patronymic = father + ("о" if father[-1] not in "е" else "") + suffix
    text = f"Директор {given_name} {patronymic} согласен."
    # When it is scanned / Then the name is found, without the role word
    assert names(text) == [f"{given_name} {patronymic}"]


@pytest.mark.parametrize(
    "text",
    [
        "Договор вступает в силу с момента подписания.",
        "Москва и Санкт-Петербург остаются крупнейшими городами.",
        "Тем не менее , он должен был остаться на своем посту.",
    ],
)
def test_ordinary_russian_words_are_kept(text: str) -> None:
    assert names(text) == []


_ARABIC_GIVEN = sorted(wn.ARABIC_GIVEN_NAMES.split())


@_SETTINGS
@given(
    title=st.sampled_from(["السيد", "الدكتور", "المهندس"]),
    first=st.sampled_from(_ARABIC_GIVEN),
    father=st.sampled_from(_ARABIC_GIVEN),
)
def test_an_arabic_name_with_its_lineage_after_an_honorific_is_found(
    title: str, first: str, father: str
) -> None:
    name = f"{first} بن {father}"
    text = f"وقع {title} {name} على العقد أمس."
    assert covered(text, name)


def test_an_arabic_abd_compound_is_found() -> None:
    text = "اتصل عبد الرحمن الشمري بالمكتب."
    assert covered(text, "عبد الرحمن")


@pytest.mark.parametrize(
    "text",
    [
        "Toplantıya Ayşe Yılmaz katıldı.",
        "Dün akşam Mehmet Kaya ile görüştük.",
        "Me llamo Juan Pérez y vivo en Madrid.",
        "Hablé con la Sra. García López sobre el contrato.",
        "Ich heiße Jürgen Müller.",
        "Je m'appelle Amélie Dubois.",
        "Mi chiamo Giulia Bianchi.",
        "Spotkanie prowadził Pan Grzegorz Nowak.",
    ],
)
def test_latin_script_names_in_other_languages_are_found(text: str) -> None:
    found = names(text)
    assert found and all(" " in n or n.istitle() for n in found)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Меня зовут Анна Петрова.", "Анна Петрова"),
        (
            "Nazywam się Grzegorz Brzęczyszczykiewicz i jestem z domu.",
            "Grzegorz Brzęczyszczykiewicz",
        ),
    ],
)
def test_a_name_after_a_cue_of_its_language_is_found(text: str, name: str) -> None:
    # Given "my name is" or a courtesy title in the text's language, then a name
    assert names(text) == [name]


@pytest.mark.parametrize(
    "text",
    [
        "Actualmente dirige el proyecto desde Berlín.",
        "También es muy popular entre los estudiantes.",
        "Les fichiers sont dans le dossier indiqué.",
        "Cette fonction renvoie une liste des valeurs.",
        "Esto es una cadena de caracteres.",
        "Obtiene el valor de la clave y devuelve una lista.",
        "C'est une liste. L'argument est optionnel.",
        "Договор вступает в силу.",
        "Wersja Pythona jest nowsza, a w Pythonie to działa.",
    ],
)
def test_ordinary_words_of_other_languages_opening_a_sentence_are_kept(text: str) -> None:
    assert names(text) == []


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Ayer García López firmó el contrato de la empresa.", "García López"),
        ("Hoy Pedro Almodóvar presentó la película en Madrid.", "Pedro Almodóvar"),
        ("Giuseppe Verdi nacque nel 1813 e morì nel 1901.", "Giuseppe Verdi"),
    ],
)
def test_a_word_opening_a_sentence_before_a_name_is_left_out(text: str, name: str) -> None:
    # Given a sentence whose first word is an ordinary word of its language, then a name
    # When it is scanned / Then the name is found without the word before it
    assert names(text) == [name]


_TURKISH_GIVEN = ["ahmet", "ayse", "hatice", "ozlem", "burak", "cem", "murat", "huseyin", "elif"]
_TURKISH_SURNAMES = ["yilmaz", "kaya", "demir", "sahin", "celik", "yildiz", "ozturk", "aydin"]


@_SETTINGS
@given(
    given_name=st.sampled_from(_TURKISH_GIVEN),
    surname=st.sampled_from(_TURKISH_SURNAMES),
    opening=st.sampled_from(["Toplantıya", "Dün", "Sözleşmeyi", "Projeyi"]),
)
def test_a_turkish_name_after_an_unknown_capitalised_word_is_found_alone(
    given_name: str, surname: str, opening: str
) -> None:
    # Given a Turkish sentence opening with a word in no list, then a listed given name and
    # surname
    name = f"{given_name.capitalize()} {surname.capitalize()}"
    text = f"{opening} {name} imzaladı."
    # When it is scanned / Then the name is found without the opening word
    assert names(text) == [name]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Dün Mehmet Bey ile görüştük.", "Mehmet"),
        ("Toplantıda Zeynep Korkut Hanım konuştu.", "Zeynep Korkut"),
    ],
)
def test_a_turkish_title_after_a_name_is_left_outside_it(text: str, name: str) -> None:
    assert names(text) == [name]
