"""A credential named in any supported language: the value after "password", "mot de passe",
"contraseña", "Passwort", ... and a connector ("is", "est", "es", "lautet", "は", "是", ":") is
scrubbed whole; a word of prose in its place ("la contraseña es incorrecta") is kept."""

from __future__ import annotations

import math
import random
import string
from collections import Counter

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from agent_memory.adapters.credentials import CredentialDetector

DETECTOR = CredentialDetector()

# (language, text before the value, text after it): how each language states a password.
PASSWORD_SENTENCES = (
    ("en", "the admin password is ", " and it expires monthly"),
    ("en", "password: ", ""),
    ("fr", "le mot de passe est ", " merci"),
    ("fr", "Le mot de passe de l'admin est : ", "."),
    ("es", "la contraseña es ", " y caduca pronto"),
    ("de", "Das Passwort lautet ", " für den Server."),
    ("de", "Kennwort: ", ""),
    ("it", "la password è ", " per il server"),
    ("pt", "a senha é ", " para o servidor"),
    ("nl", "het wachtwoord is ", " voor de server"),
    ("pl", "hasło to ", " do serwera"),
    ("pl", "hasło jest ", " do serwera"),
    ("ru", "пароль — ", " для сервера"),
    ("ru", "пароль это ", ""),
    ("tr", "şifre: ", " sunucu için"),
    ("ja", "パスワードは「", "」です"),
    ("ja", "パスワードは ", " です"),
    ("zh", "密码是", "，请保密"),
    ("zh", "密碼：", "。"),
    ("ko", "비밀번호는 ", " 입니다"),
    ("ar", "كلمة المرور هي ", " للخادم"),
)
# (language, text before the value, text after it): a machine-made secret after its name.
TOKEN_SENTENCES = (
    ("en", "the API key is ", " for staging"),
    ("en", "export GITLAB_TOKEN=", ""),
    ("fr", "la clé API est ", " pour la prod"),
    ("es", "el token es ", " para producción"),
    ("de", "Der API-Schlüssel lautet ", "."),
    ("it", "la chiave API è ", "."),
    ("pt", "a chave de API é ", "."),
    ("nl", "de API-sleutel is ", "."),
    ("pl", "klucz API to ", "."),
    ("ru", "токен: ", ""),
    ("tr", "API anahtarı: ", ""),
    ("ja", "トークンは ", " です"),
    ("zh", "令牌是", "。"),
    ("ko", "토큰은 ", " 입니다"),
    ("ar", "مفتاح API هو ", ""),
)
# Prose where the value's place holds a word: "the password is incorrect", in each language.
PROSE = (
    "The password you entered is incorrect, please try again.",
    "le mot de passe est incorrect",
    "la contraseña es incorrecta",
    "Das Passwort ist falsch",
    "la password è sbagliata",
    "a senha é inválida",
    "het wachtwoord is onjuist",
    "hasło jest nieprawidłowe",
    "пароль это секрет",
    "şifre yanlış",
    "パスワードが間違っています",
    "密码是错误的",
    "비밀번호가 틀렸습니다",
    "كلمة المرور هي خاطئة",
    "the key is to keep the token short-lived",
    "Reset your password: click the link in the email",
)
SYMBOLS = "!#&*+@^$-_"


def entropy(value: str) -> float:
    counts = Counter(value)
    return -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())


@st.composite
def passwords(draw: st.DrawFn) -> str:
    """A password a person chooses: 6-15 letters, digits, symbols, no spaces (from 16
    characters on, a value half made of one character is read as a filler, ``xxxx...``).
    """
    body = draw(st.text(string.ascii_letters + string.digits + SYMBOLS, min_size=6, max_size=15))
    # Small letters (an UPPER_SNAKE value is a name) and a digit or a symbol other than the "-"
    # and "_" that join words (``well-known`` is a word).
    assume(any(c.islower() for c in body))
    assume(any(c.isdigit() or c in SYMBOLS.strip("-_") for c in body))
    assume(body[-1].isalnum() and body[0].isalnum())
    return body


@st.composite
def tokens(draw: st.DrawFn) -> str:
    """A machine-made secret: 20-40 characters drawn at random from letters and digits, as a
    generator makes them (a seed drawn, not each character: shrinking toward ``AAAA...`` or
    ``ABCD...`` would leave the class of random tokens).
    """
    seed = draw(st.integers(min_value=0, max_value=2**32))
    size = draw(st.integers(min_value=20, max_value=40))
    body = "".join(random.Random(seed).choices(string.ascii_letters + string.digits, k=size))
    assume(any(c.isupper() for c in body) and any(c.islower() for c in body))
    assume(any(c.isdigit() for c in body))
    assume(entropy(body) >= 4.0)
    return body


def covered_whole(text: str, value: str) -> bool:
    start = text.index(value)
    return any(e.begin <= start and e.end >= start + len(value) for e in DETECTOR.detect(text))


@pytest.mark.parametrize(("language", "before", "after"), PASSWORD_SENTENCES)
@settings(max_examples=25, deadline=None)
@given(value=passwords())
def test_a_password_stated_in_any_language_is_scrubbed_whole(
    language: str, before: str, after: str, value: str
) -> None:
    # Given a sentence stating a password in the language
    text = f"{before}{value}{after}"
    # When the detector reads it, Then one find covers the whole password
    assert covered_whole(text, value), (language, text)


@pytest.mark.parametrize(("language", "before", "after"), PASSWORD_SENTENCES)
def test_the_name_of_the_password_is_kept(language: str, before: str, after: str) -> None:
    # Given a sentence stating a password
    text = f"{before}Xk9#mQ2v{after}"
    # When it is read, Then nothing before the value is taken
    assert all(e.begin >= len(before) for e in DETECTOR.detect(text)), language


@pytest.mark.parametrize(("language", "before", "after"), TOKEN_SENTENCES)
@settings(max_examples=25, deadline=None)
@given(value=tokens())
def test_a_random_token_after_a_key_name_in_any_language_is_scrubbed_whole(
    language: str, before: str, after: str, value: str
) -> None:
    # Given a high-entropy token after the name of a key in the language
    text = f"{before}{value}{after}"
    # When the detector reads it, Then one find covers the whole token
    assert covered_whole(text, value), (language, text)


@pytest.mark.parametrize("text", PROSE)
def test_a_word_of_prose_where_a_password_would_stand_is_kept(text: str) -> None:
    # Given prose that talks about a password, a key or a token without stating one
    # When the detector reads it, Then nothing is found (a plain word is no password)
    assert DETECTOR.detect(text) == []


@settings(max_examples=50, deadline=None)
@given(
    word=st.sampled_from(
        ["incorrecta", "falsch", "incorrect", "expired", "inválida", "onjuist", "wrong"]
    ),
    template=st.sampled_from(
        [
            "la contraseña es {} otra vez",
            "the password is {} again",
            "das Passwort ist {} und alt",
            "le mot de passe est {} encore",
        ]
    ),
)
def test_any_plain_word_after_is_is_read_as_prose(word: str, template: str) -> None:
    # Given a plain word after "password is" in prose, When it is read, Then it is kept
    assert DETECTOR.detect(template.format(word)) == []


def test_a_plain_word_set_apart_as_a_value_is_a_password() -> None:
    # Given a plain word quoted, or alone after a colon at the end of its line
    for text, value in (
        ('le mot de passe est "soleil"', "soleil"),
        ("Passwort: sonnenschein", "sonnenschein"),
    ):
        # When it is read, Then it is taken for the password it is set apart as
        assert covered_whole(text, value), text


@settings(max_examples=60, deadline=None)
@given(
    password=passwords(),
    before=st.text(alphabet="管理画面の服务器的계정사용자", min_size=1, max_size=6),
    sentence=st.sampled_from([s for s in PASSWORD_SENTENCES if s[0] in {"ja", "zh", "ko"}]),
)
def test_a_name_joined_to_the_word_before_it_in_an_unspaced_script_is_read(
    password: str, before: str, sentence: tuple[str, str, str]
) -> None:
    # Given a password named after words written without a space ("管理画面のパスワードは")
    _, lead, tail = sentence
    text = f"{before}{lead}{password}{tail}"
    # When it is read, Then the password is covered whole
    start = text.index(password, len(before) + len(lead) - 1)
    found = DETECTOR.detect(text)
    assert any(e.begin <= start and e.end >= start + len(password) for e in found), text
