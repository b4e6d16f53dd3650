"""A credential named in any language we support: the value after "password", "mot de passe",
"contraseña", "Passwort", "senha", "wachtwoord", "hasło", "пароль", "şifre", "パスワード", "密码",
"비밀번호", "كلمة المرور" (and token, key, secret, PIN, passphrase) and a connector ("is", "est",
"es", "ist", "lautet", "è", "é", "to", "это", ":", "=", "は", "是", "："), when it is not a word of
prose: ``la contraseña es incorrecta`` keeps ``incorrecta``, ``la contraseña es Xk9#mQ2v`` does not.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from agent_memory.core.ports import PiiEntity

from .values import (
    TRAILING,
    before_next_pair,
    is_placeholder,
    is_plain_word,
    is_random,
    is_uuid,
    looks_secret,
)

# Words that name a password (any value a person may choose), by language.
_PASSWORD_WORDS = (
    r"pass(?:word|wd|phrase|code)|pwd|pass\s+phrase|user\s*password",  # en
    r"mot\s+de\s+passe|mdp|phrase\s+secr[eè]te|code\s+secret",  # fr
    r"contrase[ñn]a|clave(?!\s+(?:de\s+)?api)|frase\s+de\s+paso",  # es
    r"passwort|kennwort|zugangscode|losungswort",  # de
    r"parola\s+d['’]ordine|codice\s+segreto|parola\s+chiave",  # it
    r"senha|palavra[\s-]passe|c[oó]digo\s+secreto",  # pt
    r"wachtwoord|toegangscode",  # nl
    r"has[łl]o|has[łl]a|has[łl]em",  # pl
    r"пароль|пароля|паролем|кодовое\s+слово",  # ru
    r"[şs]ifre|parola",  # tr
    r"パスワード|暗証番号|合言葉",  # ja
    r"密码|密碼|口令",  # zh
    r"비밀번호|패스워드|암호",  # ko
    r"كلمة\s+(?:المرور|السر)|كلمة\s+مرور|رمز\s+المرور",  # ar
)
# Words that name a machine-made secret: only a random-looking value after them is one.
_TOKEN_WORDS = (
    r"(?:access|auth|bearer|api|refresh|session|id|security|bot)?[\s_-]?tokens?|secret(?:[\s_-]?key)?",
    r"(?:api|access|secret|private|license|licence|signing|encryption|master)[\s_-]?key",
    r"client[\s_-]?secret|credentials?|app[\s_-]?secret|keys?",
    r"jeton|cl[ée]\s+(?:d['’]\s*)?(?:api|secr[eè]te|d['’]acc[eè]s|priv[ée]e)|secret",  # fr
    r"clave\s+(?:de\s+)?(?:api|acceso|secreta|privada)|secreto|token",  # es
    r"api[\s-]?schl[üu]ssel|geheim(?:er|e)?\s+schl[üu]ssel|zugangsschl[üu]ssel|geheimnis",  # de
    r"chiave\s+(?:api|segreta|privata|di\s+accesso)|segreto",  # it
    r"chave\s+(?:de\s+)?(?:api|acesso|secreta|privada)|segredo",  # pt
    r"api[\s-]?sleutel|geheime\s+sleutel|toegangssleutel|geheim",  # nl
    r"klucz\s+(?:api|prywatny|dost[eę]pu|tajny)|sekret",  # pl
    r"токен|ключ\s+(?:api|доступа)|секретный\s+ключ|секрет",  # ru
    r"api\s+anahtar[ıi]|gizli\s+anahtar|eri[şs]im\s+anahtar[ıi]",  # tr
    r"トークン|アクセスキー|シークレット|秘密鍵|api\s*キー",  # ja
    r"令牌|密钥|密鑰|秘钥|api\s*密钥|访问密钥",  # zh
    r"토큰|시크릿|api\s*키|비밀\s*키|액세스\s*키",  # ko
    r"مفتاح\s+(?:api|سري|الوصول)|رمز\s+(?:الوصول|مميز)",  # ar
)
_PIN_WORDS = (
    r"pin(?:[\s-]?(?:code|number|nummer|numéro|número|kod|код))?|code\s+pin|c[oó]digo\s+pin",
    r"пин(?:-код)?|暗証番号|비밀번호\s*4자리|رمز\s+PIN",
)

# Between the name and its value: "is", "est", "es", "ist", "lautet", "è", "é", "to", "это",
# ":", "=", "は", "是", ... (each may be followed by a colon: "est :").
_CONNECTOR = re.compile(
    r"""
    \s*(?:
        (?<![^\W\d_])(?:is|was|are|were|to|reads|now|est|était|c['’]est|es|era|ist|lautet|war
        |lautete|[èé]|era|luidt|jest|brzmi|to|это|был|будет|—|–|هي|هو)(?![^\W\d_])\s*[:：]?
        | =>|->|[:：=＝]{1,4}|\s[-–—]\s
        | (?<=["'`]),(?=\s*["'`])  # a quoted name and its value as arguments: ("api_key", "...")
        | [はが]|[是为為係]|[은는이가]\s*[:：]?
    )\s*
    """,
    re.VERBOSE | re.IGNORECASE,
)
# Scripts written without spaces: a name follows the word before it directly (管理画面のパスワード).
_UNSPACED = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
# The name, possibly a field name around it (``db_password``, ``"passwort":``), inflected
# (``passwords``, ``Passwortes``, ``hasłem``, ``şifresi``, ``비밀번호는``).
_NAME = re.compile(
    rf"""
    (?:(?<![^\W_])|(?<=[A-Za-z0-9][_.-])|(?-i:(?<=[a-z0-9])(?=[A-Z]))|(?<=[{_UNSPACED}]))
    (?:(?P<pin>{"|".join(_PIN_WORDS)})|(?P<password>{"|".join(_PASSWORD_WORDS)})
      |(?P<token>{"|".join(_TOKEN_WORDS)}))
    (?-i:[a-zà-ÿąćęłńśźżğışа-яё]{{0,3}})\d{{0,2}}["'`]?
    """,
    re.VERBOSE | re.IGNORECASE,
)
# Up to three words may stand between the name and the connector: "the password for the
# server is", "le mot de passe de l'admin est", "das Passwort für den Server lautet".
_PUBLIC = re.compile(r"(?i)pub(?:lic|lishable)?(?![a-z])|public")
_PUBLIC_REACH = 12
_SPACE = re.compile(r"[ \t]+")
_FILLER_WORD = re.compile(r"\s+[^\s:=：]{1,16}")
_OPEN_QUOTES = {'"': '"', "'": "'", "`": "`", "「": "」", "『": "』", "«": "»", "“": "”", "‘": "’"}
_UNQUOTED = re.compile(r"[^\s\"'`「」『』«»“”，。、；！？]+")
_PIN_VALUE = re.compile(r"\d{4,8}")
_NON_ASCII_LETTER = re.compile(r"[^\x00-\x7f]")
_MAX_QUOTED = 200


@dataclass(frozen=True, slots=True)
class _Value:
    begin: int
    end: int
    text: str
    quoted: bool
    line_ends: bool  # nothing but punctuation after it on its line


def finds(text: str) -> Iterator[PiiEntity]:
    """Values after a key-like name and connector, in any supported language."""
    for name in _NAME.finditer(text):
        kind = name.lastgroup or "password"
        if _PUBLIC.search(text, max(0, name.start() - _PUBLIC_REACH), name.end()):
            continue  # a public key or token is published, not kept secret
        for value, connector in _candidates(text, name.end()):
            if _accepted(kind, value, connector):
                label = "PIN" if kind == "pin" else "PASSWORD" if kind == "password" else "SECRET"
                yield PiiEntity(label, value.begin, value.end, 1.0)
                break


def _candidates(text: str, at: int) -> Iterator[tuple[_Value, str]]:
    """Each (value, connector) after the name: the connector right after it, then after one to
    three filler words; stops at the end of the line.
    """
    line_end = _line_end(text, at)
    starts = [at]
    filler_at = at
    for _ in range(3):
        word = _FILLER_WORD.match(text, filler_at, line_end)
        if not word:
            break
        filler_at = word.end()
        starts.append(filler_at)
    for start in starts:
        connector = _CONNECTOR.match(text, start, line_end)
        if connector is None or connector.end() == start:
            continue
        value = _value(text, connector.end(), line_end)
        if value is not None:
            yield value, connector.group().strip().lower()
    # No connector at all: "LicenseKey gKP8bW_RY5DA...", "token 'af6dmku2...'".
    space = _SPACE.match(text, at, line_end)
    if space is not None:
        value = _value(text, space.end(), line_end)
        if value is not None:
            yield value, ""


def _value(text: str, at: int, line_end: int) -> _Value | None:
    if at >= line_end:
        return None
    close = _OPEN_QUOTES.get(text[at])
    if close is not None:
        end = text.find(close, at + 1, min(line_end, at + 1 + _MAX_QUOTED))
        if end <= at + 1:
            return None
        rest = text[end + 1 : line_end]
        # Spaces just inside the quotes (``' T5LJHzWw...= '``) are not part of the value.
        inner = text[at + 1 : end]
        begin = at + 1 + len(inner) - len(inner.lstrip())
        stop = end - (len(inner) - len(inner.rstrip()))
        if stop <= begin:
            return None
        return _Value(begin, stop, text[begin:stop], True, not rest.strip(TRAILING + " "))
    match = _UNQUOTED.match(text, at, line_end)
    if match is None:
        return None
    raw = before_next_pair(match.group())
    if not raw.isascii() and raw[0].isascii():
        # "密码是Abc12345请保密": an ASCII password runs up to the first CJK character.
        cut = _NON_ASCII_LETTER.search(raw)
        raw = raw[: cut.start()] if cut else raw
    stripped = raw.lstrip("([{")
    begin = match.start() + len(raw) - len(stripped)
    raw = stripped
    value = raw.rstrip(TRAILING)
    rest = text[begin + len(value) : line_end]
    return _Value(begin, begin + len(value), value, False, not rest.strip(TRAILING + " "))


def _accepted(kind: str, value: _Value, connector: str) -> bool:
    text = value.text
    if not text or is_placeholder(text):
        return False
    if kind == "pin":
        return _PIN_VALUE.fullmatch(text) is not None
    if not connector:
        # Only a machine-made token stands after a bare name with nothing between.
        return kind == "token" and is_random(text, min_chars=16, labelled=True)
    if connector == ",":
        # Arguments side by side (``getenv("api_token", "...")``) are also lists of words
        # (``"password", "mot de passe"``): only a value no word could be.
        secret = looks_secret(text) and not any(c.isspace() for c in text)
        return secret and (
            kind != "token" or is_random(text, min_chars=8, labelled=True) or is_uuid(text)
        )
    if kind == "token":
        # API keys of several providers are UUIDs: after a key's name one is a key.
        return (
            is_random(text, min_chars=10, labelled=True)
            or (value.quoted and is_random(text, min_chars=8, labelled=True))
            or is_uuid(text)
        )
    if looks_secret(text):
        return True
    # A plain word is a password only when set apart as one: quoted, or alone after ":"/"="
    # at the end of its line ("Passwort: sonnenschein"), never after "is" ("es incorrecta").
    symbol = connector[:1] in {":", "=", "：", "＝"}
    return len(text) >= 4 and is_plain_word(text) and (value.quoted or (symbol and value.line_ends))


def _line_end(text: str, at: int) -> int:
    end = text.find("\n", at)
    return len(text) if end < 0 else end
