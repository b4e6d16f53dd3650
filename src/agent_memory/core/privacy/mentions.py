"""Record-level PII rules that hold whatever detector runs: names held in structured values
(``{"first": "Grace", "last": "Hopper"}``), and every other mention of what was found.

A detector reads prose; a record also carries JSON, YAML and ``key=value`` text where a name is
split over fields and no sentence says it is a person. And a name found once (``Grace Hopper``
in one field) is the same person where it appears again bare (``Hopper`` in another field).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator

from agent_memory.core.ports import PiiEntity

__all__ = ["field_names", "other_mentions"]

# Keys whose value is a person's name or part of one, compared with case, "_", "-", "." and
# spaces removed. English and the languages the detector's cue words cover.
_NAME_KEYS = frozenset(
    {
        # English
        "first", "firstname", "given", "givenname", "givennames", "forename", "forenames",
        "middle", "middlename", "middlenames", "last", "lastname", "surname", "surnames",
        "family", "familyname", "fullname", "maidenname", "birthname", "personname",
        "displayname", "legalname", "preferredname", "nickname",
        # French, Spanish, Portuguese, Italian, German, Dutch, Polish, Turkish
        "prenom", "prénom", "nom", "nomdefamille", "nomcomplet", "nombre", "nombres",
        "apellido", "apellidos", "primerapellido", "segundoapellido", "nombrecompleto",
        "nome", "sobrenome", "nomecompleto", "cognome", "nomeecognome", "vorname",
        "nachname", "familienname", "vollername", "geburtsname", "voornaam", "achternaam",
        "tussenvoegsel", "imie", "imię", "nazwisko", "soyad", "soyadı", "adsoyad", "adısoyadı",
        # Russian, Chinese, Japanese, Korean, Arabic
        "имя", "фамилия", "отчество", "фио", "姓", "名", "姓名", "名字", "氏名", "名前",
        "苗字", "이름", "성명", "성", "الاسم", "اسم", "اللقب",
    }
)  # fmt: skip
# "<who>_name": a key naming a person's role, then "name".
_PERSON_ROLES = frozenset(
    {
        "customer", "contact", "client", "patient", "employee", "person", "holder",
        "cardholder", "accountholder", "recipient", "sender", "applicant", "guest",
        "passenger", "member", "student", "beneficiary", "spouse", "father", "mother",
        "parent", "child", "manager", "caller", "requester", "reporter", "assignee",
        "signatory", "witness", "emergencycontact", "nextofkin", "driver", "buyer", "seller",
        "owner", "landlord", "lessee", "lessor", "author", "reviewer", "approver",
    }
)  # fmt: skip
_NAME_PARTS = ("firstname", "lastname", "givenname", "familyname", "surname", "fullname",
               "middlename", "maidenname")  # fmt: skip
# A key (quoted or bare), ":" or "=", then a quoted or a bare value.
_PAIR = re.compile(
    r"""(?P<q>["']?)(?P<key>[^\W\d][\w.\- ]{0,40}?)(?P=q)\s*[:=]\s*"""
    r"""(?:(?P<vq>["'])(?P<quoted>[^"'\n\\]{1,80})(?P=vq)|(?P<bare>[^\W\d][^\n,;{}\[\]&"'=:]{0,80}))"""
)
_MAX_NAME_WORDS = 5
# Characters a name may hold besides letters and marks.
_NAME_PUNCTUATION = frozenset(" .'’-")
_MIN_PROPAGATED = 3
# Scripts written without spaces between words (or with particles joined to them): kana, CJK
# ideographs, Hangul syllables, Thai, Lao, Khmer, Myanmar.
_UNSPACED = re.compile(
    "[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3400-\u4dbf"
    "\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]"
)


def field_names(text: str) -> list[PiiEntity]:
    """Values of name keys in structured text (JSON, YAML, dict literals, ``key=value``),
    as ``NAME`` entities, when the value reads as a name.
    """
    found: list[PiiEntity] = []
    for match in _PAIR.finditer(text):
        if not _is_name_key(match.group("key")):
            continue
        group = "quoted" if match.group("quoted") is not None else "bare"
        begin, end = match.span(group)
        while end > begin and text[end - 1] in " .":
            end -= 1
        if end > begin and _reads_as_name(text[begin:end]):
            found.append(PiiEntity("NAME", begin, end, 1.0))
    return found


def other_mentions(text: str, found: Iterable[PiiEntity]) -> list[PiiEntity]:
    """Every other occurrence in ``text`` of what ``found`` holds, with the same type: the
    whole surface (of three characters or more, two for a name), and for a
    ``NAME`` each of its capitalised words of three or more letters (``Hopper`` after ``Grace
    Hopper``). Occurrences inside a longer word do not count, except in scripts written
    without spaces.
    """
    surfaces: dict[str, str] = {}
    for entity in found:
        surface = text[entity.begin : entity.end].strip()
        # A whole name may be two letters (山田, Li, Wu); other finds that short are noise.
        shortest = 2 if entity.type == "NAME" else _MIN_PROPAGATED
        if len(surface) >= shortest:
            surfaces.setdefault(surface, entity.type)
        if entity.type == "NAME":
            for word in _capitalised_words(surface):
                surfaces.setdefault(word, "NAME")
    if not surfaces:
        return []
    ordered = sorted(surfaces, key=len, reverse=True)
    pattern = re.compile("|".join(_bounded(s) for s in ordered))
    return [
        PiiEntity(surfaces[m.group(0)], m.start(), m.end(), 1.0) for m in pattern.finditer(text)
    ]


def _is_name_key(key: str) -> bool:
    normal = re.sub(r"[\s_.\-]", "", key).casefold()
    if normal in _NAME_KEYS:
        return True
    if normal.endswith(_NAME_PARTS):
        return True
    return normal.endswith("name") and normal[: -len("name")] in _PERSON_ROLES


def _reads_as_name(value: str) -> bool:
    """Letters (any script) with name punctuation, a few words, the first or the last word
    capitalised or of an uncased script: ``Grace``, ``O'Neil``, ``van der Berg``, ``山田``.
    """
    words = value.split()
    if not words or len(words) > _MAX_NAME_WORDS:
        return False
    if any(not (c.isalpha() or c in _NAME_PUNCTUATION or _is_mark(c)) for c in value):
        return False
    return any(_capital_or_uncased(word) for word in (words[0], words[-1]))


def _capital_or_uncased(word: str) -> bool:
    first = next((c for c in word if c.isalpha()), "")
    return bool(first) and (first.isupper() or not first.islower())


def _is_mark(char: str) -> bool:
    return unicodedata.category(char).startswith("M")


def _capitalised_words(surface: str) -> Iterator[str]:
    for word in re.findall(r"[^\W\d_][\w'’-]*", surface):
        if len(word) >= _MIN_PROPAGATED and word[0].isupper() and not word.isupper():
            yield word


def _bounded(surface: str) -> str:
    """``surface`` as a pattern that does not match inside a longer word; a surface in a
    script written without spaces (``山田太郎さん``) has no word breaks to lean on and matches
    anywhere.
    """
    escaped = re.escape(surface)
    if _UNSPACED.search(surface):
        return escaped
    return rf"(?<!\w){escaped}(?!\w)"
