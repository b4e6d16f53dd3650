"""Credentials told by where they stand or by their shape alone: HTTP auth headers, connection
strings of any scheme, and unlabeled secrets of a fixed shape (a 40-character AWS secret key).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from agent_memory.core.ports import PiiEntity

from .values import (
    TRAILING,
    is_placeholder,
    is_plain_word,
    is_random,
    looks_secret,
    switches,
    wordiness,
)

# ``Authorization: Bearer ...``, ``Proxy-Authorization: Basic ...``, ``-H "Authorization: token
# ..."``, ``Authorization: Api-Token ...``: the value whatever its scheme or length.
_AUTH_HEADER = re.compile(
    r"""(?ix)\b(?:proxy-)?authorization["']?[ \t]*[:=][ \t]*["']?
    (?:[a-z][\w-]{1,20}[ \t]+)?(?P<value>[^\s"',;]{8,})"""
)
# A bearer token outside a header: ``"Bearer sk_nGDJ..."``, ``Token 3fea6af1...``.
_SCHEME = re.compile(r"(?<![\w-])(?:Bearer|Token|Basic)\s+(?P<value>[A-Za-z0-9._~+/=-]{12,})")
# ``X-Api-Key: ...``, ``X-Auth-Token: ...``, ``apikey: ...``, ``Token: ...``.
_KEY_HEADER = re.compile(
    r"""(?ix)(?<![\w.:/-])(?:[a-z0-9]+-)*(?:api[_-]?key|auth[\w-]*token|access[_-]?token|secret
    |session[_-]?(?:id|token)?|csrf[_-]?token|signature|token)["']?[ \t]*:[ \t]*["']?
    (?P<value>[^\s"',;]{8,})"""
)
# ``curl -u user:password``, ``--user 'user:password'``, ``-u ":password"``; ``-u "token:"``
# (no password: the user is the credential, as an API key passed alone).
_CURL_USER = re.compile(
    r"""(?:\s-u|--user|--proxy-user)\s*["']?(?:[^\s:"']*:["']?(?P<value>[^\s"']+)
    |(?P<alone>[^\s:"']{8,}):["']?(?:\s|$))""",
    re.VERBOSE,
)
# An XML element that holds a secret: ``<password>...</password>``, ``<secret>...</secret>``,
# ``<apiKey>...</apiKey>`` (Jenkins, Maven, .NET config), its whole content.
_SECRET_ELEMENT = re.compile(
    r"""(?ix)<(?P<tag>[\w:.-]*(?:secret|password|passwd|token|api[_-]?key|apikey|private[_-]?key
    |access[_-]?key|credential)s?)(?:\s[^<>]*)?>\s*(?P<value>[^<\n]{4,}?)\s*</(?P=tag)>"""
)
# An unlabeled machine-made token: 24+ characters of letters, digits, ``_``, ``-`` and ``~``
# (Azure's client secrets carry a ``Q~``) (after a
# short dotted prefix such as Vault's ``hvs.`` or Google's ``ya29.``) with
# capitals, small letters and digits in it, random throughout (not words: ``is_random``).
# Standard base64 (``+``, ``/``, ``=``) is left to the rules above: digests use it.
_RANDOM_TOKEN = re.compile(
    r"(?<![\w/+=.~-])(?P<value>(?:[A-Za-z][A-Za-z0-9]{0,7}\.)?[A-Za-z0-9_~-]{24,})(?![\w/+=~-])"
)
# A URL that carries a password: ``postgres://app:...@db``, ``mongodb+srv://u:...@cluster``,
# ``amqp://guest:...@mq``, ``redis://:...@cache`` (any scheme).
_URL_PASSWORD = re.compile(
    r"(?i)\b[a-z][a-z0-9+.-]{1,30}://[^\s:/@\"'<>]*:(?P<value>[^\s@/\"'<>]+)@"
)
# A URL whose user stands alone (``https://<token>@github.com/...``): a user with no password is
# a token, as pip's ``redact_netloc`` reads it; only a random one is taken (``ssh://git@host``).
_URL_TOKEN_USER = re.compile(r"(?i)\b[a-z][a-z0-9+.-]{1,30}://(?P<value>[^\s:/@\"'<>]{16,})@")
# ``Server=db;User Id=app;Password=...;`` (ADO.NET, ODBC), ``jdbc:...;password=...``,
# ``?user=app&password=...`` (JDBC and other URLs), ``AccountKey=...;`` (Azure).
_KEY_VALUE = re.compile(
    r"""(?ix)(?:^|(?<=[;?&\s"'{(,]))
    (?P<key>user\s*password|account\s*key|shared\s*access\s*key
    |[\w.-]{0,30}?(?:password|passwd|pwd|pass|secret|token|key|sig|signature))
    [ \t]*=[ \t]*(?P<value>"[^"\n]*"|'[^'\n]*'|\{[^}\n]*\}|[^;&\s"'<>]+)"""
)
_PASSWORD_KEYS = ("password", "passwd", "pwd", "pass")
# A 40-character AWS secret access key, unlabeled: base64 characters, no longer run around it.
_AWS_SECRET = re.compile(r"(?<![A-Za-z0-9/+=_-])(?P<value>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=_-])")
_MIN_PASSWORD = 3
_HEX = re.compile(r"[0-9a-fA-F]+")
# An unlabeled token made half of words (``id-Gost28147-89-None-KeyMeshing``) is a name.
_MAX_WORDINESS = 0.4
_MIN_LETTERS_TOKEN = 30
_MIN_LETTER_SWITCHES = 0.45
_ENCODED_DATA = ("base64,", "base64:")
# Capitals, small letters and digits alternate in a random token (about 0.6 of positions), far
# less in a name (``NRG0-Hermes-INTERNAL-API``: 0.25).
_MIN_SWITCHES = 0.35


def finds(text: str) -> Iterator[PiiEntity]:
    """Headers, connection strings and unlabeled shapes in ``text``."""
    for match in _AUTH_HEADER.finditer(text):
        yield from _if_secret("SECRET", match, text, min_random=0)
    for match in _KEY_HEADER.finditer(text):
        yield from _if_secret("SECRET", match, text, min_random=12)
    for match in _SCHEME.finditer(text):
        yield from _if_secret("SECRET", match, text, min_random=12)
    for match in _CURL_USER.finditer(text):
        group = "value" if match.group("value") else "alone"
        if looks_secret(match.group(group)):
            yield from _if_secret("PASSWORD", match, text, min_random=0, group=group)
    for match in _SECRET_ELEMENT.finditer(text):
        yield from _if_secret("SECRET", match, text, min_random=0, words=True)
    for match in _URL_PASSWORD.finditer(text):
        # In a URL's password place a plain word is a password all the same.
        yield from _if_secret("PASSWORD", match, text, min_random=0, words=True)
    for match in _URL_TOKEN_USER.finditer(text):
        yield from _if_secret("SECRET", match, text, min_random=16)
    for match in _KEY_VALUE.finditer(text):
        key = match.group("key").lower()
        if key.startswith("pub"):
            continue  # a public key is published, not kept secret
        if key.endswith(_PASSWORD_KEYS):
            yield from _if_secret("PASSWORD", match, text, min_random=0)
        else:
            yield from _if_secret("SECRET", match, text, min_random=12)
    for match in _RANDOM_TOKEN.finditer(text):
        value = match.group("value")
        if text.endswith(_ENCODED_DATA, 0, match.start()):
            continue  # inline data (``data:image/png;base64,...``), not a secret
        body = value.partition(".")[2] or value  # a dotted prefix says nothing of randomness
        if (
            (_three_classes(body) or _long_letters(body))
            and is_random(body, min_chars=24)
            and switches(body) >= _MIN_SWITCHES
            and wordiness(body) < _MAX_WORDINESS
        ):
            yield PiiEntity("SECRET", *match.span("value"), 1.0)
    for match in _AWS_SECRET.finditer(text):
        value = match.group("value")
        if text.endswith(_ENCODED_DATA, 0, match.start()):
            continue
        if _three_classes(value) and not _HEX.fullmatch(value) and is_random(value, min_chars=40):
            yield PiiEntity("AWS_SECRET_KEY", *match.span("value"), 1.0)


def _long_letters(value: str) -> bool:
    """A token of capitals and small letters alone, long and switching case all along."""
    return (
        len(value) >= _MIN_LETTERS_TOKEN
        and any(c.isupper() for c in value)
        and any(c.islower() for c in value)
        and switches(value) >= _MIN_LETTER_SWITCHES
    )


def _three_classes(value: str) -> bool:
    return (
        any(c.isupper() for c in value)
        and any(c.islower() for c in value)
        and any(c.isdigit() for c in value)
    )


def _if_secret(
    label: str,
    match: re.Match[str],
    text: str,
    *,
    min_random: int,
    words: bool = False,
    group: str = "value",
) -> Iterator[PiiEntity]:
    begin, end = match.span(group)
    value = text[begin:end]
    if value[:1] in "\"'{" and len(value) >= 2:
        begin, end = begin + 1, end - 1
    else:
        while end > begin and text[end - 1] in TRAILING:
            end -= 1
    value = text[begin:end]
    if len(value) < _MIN_PASSWORD or is_placeholder(value):
        return
    if not words and is_plain_word(value):
        return
    if min_random and not is_random(value, min_chars=min_random, labelled=True):
        return
    yield PiiEntity(label, begin, end, 1.0)
