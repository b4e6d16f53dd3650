"""Where a credential stands beside its name: side by side as arguments, after ``=>`` or a run of
``:``/``=``, inside quotes with spaces, after ``curl --user name:'...'``; and a weak secret made
of runs of consecutive characters (``abcdef123456``) is a secret all the same."""

from __future__ import annotations

import random
import string
import uuid

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from agent_memory.adapters.credentials import CredentialDetector

DETECTOR = CredentialDetector()
ALNUM = string.ascii_letters + string.digits
KEY_NAMES = ("api_token", "API_KEY", "x-api-key", "secret", "access_token", "client_secret")
CALLS = ('os.getenv("{k}", "{v}")', 'GetEnvOrDefault("{k}", "{v}")', "headers.Set('{k}', '{v}')")
ARROWS = ("'{k}' => '{v}'", '{k} :::= "{v}"', "{k} ::= {v}", "{k} -> '{v}'")


def covered_whole(text: str, value: str) -> bool:
    start = text.index(value)
    return any(e.begin <= start and e.end >= start + len(value) for e in DETECTOR.detect(text))


@st.composite
def secrets(draw: st.DrawFn) -> str:
    """A random token (16-48 letters and digits, drawn from a seed) or a UUID: API keys of
    several providers are UUIDs."""
    seed = draw(st.integers(min_value=0, max_value=2**32))
    if draw(st.booleans()):
        return str(uuid.UUID(int=random.Random(seed).getrandbits(128)))
    size = draw(st.integers(min_value=16, max_value=48))
    body = "".join(random.Random(seed).choices(ALNUM, k=size))
    assume(
        sum(
            any(c in group for c in body)
            for group in (string.ascii_lowercase, string.ascii_uppercase, string.digits)
        )
        == 3
    )
    return body


@settings(max_examples=40, deadline=None)
@given(template=st.sampled_from(CALLS + ARROWS), name=st.sampled_from(KEY_NAMES), value=secrets())
def test_a_secret_beside_its_name_is_scrubbed_whole(template: str, name: str, value: str) -> None:
    # Given a key's name and its value as arguments, or after "=>" or a run of ":" and "="
    text = template.format(k=name, v=value)
    # When it is read, Then one find covers the whole value
    assert covered_whole(text, value), text


@pytest.mark.parametrize(
    "text",
    [
        'the value after "password", "mot de passe", "contraseña", "Passwort", "пароль"',
        'KEYS = ("api_key", "token", "secret", "client_secret")',
        'os.getenv("API_TOKEN", "")',
        'getenv("SECRET_KEY", "default-development-value")',
    ],
)
def test_a_list_of_quoted_words_is_kept(text: str) -> None:
    # Given quoted words side by side, or a key's name beside an empty or wordy default
    # When it is read, Then nothing is found
    assert DETECTOR.detect(text) == [], text


@settings(max_examples=30, deadline=None)
@given(value=secrets(), left=st.sampled_from(" \t"), right=st.sampled_from(("", " ", "  ")))
def test_spaces_inside_the_quotes_are_left_out(value: str, left: str, right: str) -> None:
    # Given a quoted value with spaces just inside its quotes
    text = f"deploy token = '{left}{value}{right}'"
    # When it is read, Then the value is found whole and no space is taken with it
    found = DETECTOR.detect(text)
    assert [text[e.begin : e.end] for e in found] == [value], text


@settings(max_examples=30, deadline=None)
@given(
    start=st.integers(min_value=0, max_value=20),
    size=st.integers(min_value=16, max_value=30),
    digits=st.integers(min_value=2, max_value=9),
)
def test_a_weak_secret_of_consecutive_characters_is_still_a_secret(
    start: int, size: int, digits: int
) -> None:
    # Given a value made of runs of consecutive letters and digits after a password's name
    letters = string.ascii_lowercase[start : start + size // 2]
    value = f"{letters}{'1234567890'[:digits]}{letters.upper()[:3]}"
    assume(len(value) >= 16)
    text = f'db_password = "{value}"'
    # When it is read, Then it is found whole
    assert covered_whole(text, value), text


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("curl --user kevin:'pRf7vG2h1L8nQkW9' -X PATCH https://x", "pRf7vG2h1L8nQkW9"),
        ('curl -u deploy:"Wint3r-Is-C0ming" https://x', "Wint3r-Is-C0ming"),
    ],
)
def test_a_quoted_curl_password_is_scrubbed_whole(text: str, value: str) -> None:
    # Given curl's user and a quoted password, When it is read, Then the password is found whole
    assert covered_whole(text, value), text


@settings(max_examples=30, deadline=None)
@given(value=secrets(), host=st.sampled_from(("github.com/org/repo.git", "gitlab.example.com/x")))
def test_a_token_in_a_urls_user_place_is_scrubbed(value: str, host: str) -> None:
    # Given a URL whose user stands alone and is a random token (a user with no password is a
    # token, as pip's URL redaction reads it)
    assume("-" not in value)
    text = f"git clone https://{value}@{host}"
    # When it is read, Then the token is found whole
    assert covered_whole(text, value), text


@pytest.mark.parametrize(
    "text", ["ssh://git@github.com/org/repo", "https://jdoe@bitbucket.org/team/repo.git"]
)
def test_a_plain_user_name_in_a_url_is_kept(text: str) -> None:
    # Given a URL with a plain user name, When it is read, Then nothing is found
    assert DETECTOR.detect(text) == []


def test_a_curl_user_with_no_password_is_the_credential() -> None:
    # Given curl given an API key as its user and an empty password
    text = 'curl -u "d2LkV78zLx!t:" https://localhost:9200'
    # When it is read, Then the key is found whole
    assert covered_whole(text, "d2LkV78zLx!t")


def azure_secret(seed: int) -> str:
    """A secret in Azure's client-secret shape: three characters, a digit, "Q~", then 34 drawn
    from letters, digits, "_" and "~"."""
    rng = random.Random(seed)
    head = "".join(rng.choices(ALNUM, k=3)) + rng.choice(string.digits)
    return f"{head}Q~{''.join(rng.choices(ALNUM + '_~', k=34))}"


def test_an_azure_client_secret_with_its_tilde_is_scrubbed_whole() -> None:
    # Given 1,000 unlabeled secrets in Azure's client-secret shape
    values = [azure_secret(seed) for seed in range(1000)]
    # When each is read after a word that names nothing
    found = [covered_whole(f"Example= {value}", value) for value in values]
    # Then at least 99% are found whole. About 0.6% are missed: an unlabeled token whose random
    # letters happen to read as words for 40% of it (``…lyosd1lEITONGU``) is taken for a name
    # (the wordiness bound of the unlabeled-token rule); a gap stated in docs/pii.md
    assert sum(found) / len(found) >= 0.99, [v for v, f in zip(values, found, strict=True) if not f]


@pytest.mark.parametrize(
    "text",
    [
        'ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"',
        "secret_key = '0123456789abcdefghijklmnopqrstuvwxyz'",
    ],
)
def test_an_alphabet_is_no_secret(text: str) -> None:
    # Given a value that is runs of consecutive characters throughout (an alphabet, a count)
    # When it is read, Then nothing is found
    assert DETECTOR.detect(text) == []
