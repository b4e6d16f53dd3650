"""Credentials told by where they stand or by their shape alone: HTTP auth headers, connection
strings of any scheme, and unlabeled secrets of a fixed shape (a 40-character AWS secret key).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from agent_memory.core.ports import PiiEntity

from .values import TRAILING, is_placeholder, is_plain_word, is_random

# ``Authorization: Bearer ...``, ``Proxy-Authorization: Basic ...``, ``-H "Authorization: token
# ..."``: the value whatever its scheme or length.
_AUTH_HEADER = re.compile(
    r"""(?ix)\b(?:proxy-)?authorization["']?\s*[:=]\s*["']?
    (?:(?:bearer|basic|token|digest|negotiate|ntlm|apikey|api-key|key|sso-key|otoken|jwt)\s+)?
    (?P<value>[^\s"',;]{8,})"""
)
# ``X-Api-Key: ...``, ``X-Auth-Token: ...``, ``Api-Key=...``, ``Cookie: session=...``.
_KEY_HEADER = re.compile(
    r"""(?ix)(?<![\w-])(?:x-)?[\w-]*(?:api[_-]?key|auth[\w-]*token|access[_-]?token|secret
    |session[_-]?(?:id|token)?|csrf[_-]?token|signature)["']?\s*:\s*["']?(?P<value>[^\s"',;]{8,})"""
)
# A URL that carries a password: ``postgres://app:...@db``, ``mongodb+srv://u:...@cluster``,
# ``amqp://guest:...@mq``, ``redis://:...@cache`` (any scheme).
_URL_PASSWORD = re.compile(
    r"(?i)\b[a-z][a-z0-9+.-]{1,30}://[^\s:/@\"'<>]*:(?P<value>[^\s@/\"'<>]+)@"
)
# ``Server=db;User Id=app;Password=...;`` (ADO.NET, ODBC), ``jdbc:...;password=...``,
# ``?user=app&password=...`` (JDBC and other URLs), ``AccountKey=...;`` (Azure).
_KEY_VALUE = re.compile(
    r"""(?ix)(?:^|(?<=[;?&\s"'{(,]))
    (?P<key>password|passwd|pwd|pass|user\s*password|account\s*key|shared\s*access\s*key
    |client[_-]?secret|secret|access[_-]?token|refresh[_-]?token|api[_-]?key|apikey|token|sig
    |auth[_-]?token|private[_-]?key)
    \s*=\s*(?P<value>"[^"\n]*"|'[^'\n]*'|\{[^}\n]*\}|[^;&\s"'<>]+)"""
)
_PASSWORD_KEYS = {"password", "passwd", "pwd", "pass", "userpassword", "user password"}
# A 40-character AWS secret access key, unlabeled: base64 characters, no longer run around it.
_AWS_SECRET = re.compile(r"(?<![A-Za-z0-9/+=_-])(?P<value>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=_-])")
_MIN_PASSWORD = 3


def finds(text: str) -> Iterator[PiiEntity]:
    """Headers, connection strings and unlabeled shapes in ``text``."""
    for match in _AUTH_HEADER.finditer(text):
        yield from _if_secret("SECRET", match, text, min_random=0)
    for match in _KEY_HEADER.finditer(text):
        yield from _if_secret("SECRET", match, text, min_random=12)
    for match in _URL_PASSWORD.finditer(text):
        yield from _if_secret("PASSWORD", match, text, min_random=0)
    for match in _KEY_VALUE.finditer(text):
        key = re.sub(r"\s+", " ", match.group("key").lower())
        if key in _PASSWORD_KEYS:
            yield from _if_secret("PASSWORD", match, text, min_random=0)
        else:
            yield from _if_secret("SECRET", match, text, min_random=12)
    for match in _AWS_SECRET.finditer(text):
        value = match.group("value")
        if any(c.isdigit() for c in value) and is_random(value, min_chars=40):
            yield PiiEntity("AWS_SECRET_KEY", *match.span("value"), 1.0)


def _if_secret(
    label: str, match: re.Match[str], text: str, *, min_random: int
) -> Iterator[PiiEntity]:
    begin, end = match.span("value")
    value = text[begin:end]
    if value[:1] in "\"'{" and len(value) >= 2:
        begin, end = begin + 1, end - 1
    else:
        while end > begin and text[end - 1] in TRAILING:
            end -= 1
    value = text[begin:end]
    if len(value) < _MIN_PASSWORD or is_placeholder(value) or is_plain_word(value):
        return
    if min_random and not is_random(value, min_chars=min_random):
        return
    yield PiiEntity(label, begin, end, 1.0)
