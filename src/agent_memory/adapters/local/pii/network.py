"""Identifiers of accounts and devices on a network: MAC addresses, URLs that name a user, and
user names.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from agent_memory.adapters.local.pii._labels import lower
from agent_memory.core.ports import PiiEntity

# Six hex pairs joined by one kind of separator ("00:1A:2B:3C:4D:5E", "00-1a-..."), or Cisco's
# three dotted groups of four ("001a.2b3c.4d5e").
_MAC = re.compile(
    r"[0-9A-Fa-f](?<![\w:.-].)[0-9A-Fa-f]([:-])(?:[0-9A-Fa-f]{2}\1){4}[0-9A-Fa-f]{2}"
    r"(?![\w:-]|\.\w)"
)
_MAC_DOTTED = re.compile(
    r"[0-9a-fA-F](?<![\w:.-].)[0-9a-fA-F]{3}\.[0-9a-fA-F]{4}\.[0-9a-fA-F]{4}(?![\w:.-])"
)
# scheme://user[:password]@host...: the whole URL, since its path often names the user too.
_URL_WITH_USER = re.compile(
    r"(?<![\w+.-])[A-Za-z][A-Za-z0-9+.-]{1,15}://[^\s/?#@\"'<>(){}\[\]]*@"
    r"[^\s/?#\"'<>(){}\[\]@]+[^\s\"'<>(){}\[\]]*"
)
_URL_TRAILING = ".,;:!?)]}"

_USERNAME = re.compile(
    r"(?<![\w.$-])(?i:user[ _-]?name|user[ _-]?id|log[ _-]?in(?:[ _-]?name)?|screen[ _-]?name|"
    r"handle|nick[ _-]?name|account[ _-]?name)['\"]?[ \t]*(?P<sep>[:=]|\bis\b)[ \t]*['\"]?"
    r"(?P<v>@?[A-Za-z0-9][\w.@+-]{0,63}?)['\"]?(?=[\s,;)}\]]|[.!?](?:\s|$)|$)"
)
# Values that follow those labels in code and templates, not user names.
_NOT_USERNAMES = frozenset(
    {
        "str", "string", "int", "none", "null", "true", "false", "optional", "required",
        "bool", "any", "text", "varchar", "char", "self", "username", "user_name", "user_id",
        "userid", "login", "name", "handle", "user", "value", "field", "empty", "blank",
        "missing", "invalid", "unknown", "undefined", "nil", "example", "placeholder",
        "the", "a", "an", "your", "my", "his", "her", "their", "our", "not", "also", "case",
    }
)  # fmt: skip
# The first part of a dotted value that is a reference in code ("self.username").
_CODE_OBJECTS = frozenset(
    {
        "self", "cls", "builtins", "request", "req", "settings", "config", "event", "parsed",
        "runtime", "context", "ctx", "args", "kwargs", "os", "user", "key", "response", "data",
        "params", "options", "opts", "auth", "session", "this", "props", "form", "env",
    }
)  # fmt: skip
_CODE_SUFFIXES = ("name", "_id", "id_", "handle", "login")
_USERNAME_TRIGGERS = ("user", "log", "screen", "handle", "nick", "account")
_WORD = re.compile(r"[A-Za-z]+")


def find_macs(text: str) -> Iterator[PiiEntity]:
    """MAC addresses: six hex pairs with colons or hyphens, or Cisco's dotted form with a
    letter in it (twelve digits in fours are more often a number).
    """
    if text.count(":") >= 5 or text.count("-") >= 5:
        for m in _MAC.finditer(text):
            yield PiiEntity("MAC_ADDRESS", m.start(), m.end(), 0.9)
    if text.count(".") >= 2:
        for m in _MAC_DOTTED.finditer(text):
            if not m.group().replace(".", "").isdigit():
                yield PiiEntity("MAC_ADDRESS", m.start(), m.end(), 0.9)


def find_credential_urls(text: str) -> Iterator[PiiEntity]:
    """URLs naming a user before the host, with or without a password
    ("https://jdoe:s3cret@host/x"): the whole URL, as ``URL``. A plain URL is not reported
    (``core.pii_policy``); an address inside one is an ``EMAIL``.
    """
    if "://" not in text or "@" not in text:
        return
    for m in _URL_WITH_USER.finditer(text):
        end = m.end()
        while end > m.start() and text[end - 1] in _URL_TRAILING:
            end -= 1
        yield PiiEntity("URL", m.start(), end, 0.9)


def find_usernames(text: str, is_word: Callable[[str], bool]) -> Iterator[PiiEntity]:
    """The value after "username", "user id", "login", "screen name", "handle" and a ":",
    "=" or "is" ("username: jdoe42", "login=mgarcia"), unless it reads as code or prose: an
    English word (``is_word``, lower case), a dotted reference (``self.username``), another
    field's name (``nick_name``), a short number; after "is" no plain word at all ("the login
    is broken").
    """
    lowered = lower(text)
    if not any(word in lowered for word in _USERNAME_TRIGGERS):
        return
    for m in _USERNAME.finditer(text):
        value = m.group("v").rstrip(".")
        if _reads_as_code_or_prose(value, m.group("sep").lower() == "is", is_word):
            continue
        yield PiiEntity("USERNAME", m.start("v"), m.start("v") + len(value), 0.8)


def _reads_as_code_or_prose(value: str, after_is: bool, is_word: Callable[[str], bool]) -> bool:
    lowered = value.lower()
    if len(value) < 3 or lowered in _NOT_USERNAMES or lowered.endswith(_CODE_SUFFIXES):
        return True
    if value.isdigit():
        return len(value) < 5
    parts = lowered.split(".")
    if len(parts) > 1 and "@" not in value and (parts[0] in _CODE_OBJECTS or is_word(parts[-1])):
        return True
    if _WORD.fullmatch(value):
        return after_is or is_word(lowered) or not value[1:].islower()
    return False
