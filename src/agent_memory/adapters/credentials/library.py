"""Yelp's ``detect-secrets`` plugins run over text instead of files.

``detect-secrets`` is line-based and reports secret values, not offsets; this module runs its
plugins' own patterns over each line to find the spans, and adds a little glue where the library
reports a line but not the whole secret (a JWT's signature, a private key's body) or has no rule
for prose ("the admin password is ...") or for unquoted high-entropy values after a key-like
name (``token=...``). It never calls the network: plugin verification is not used.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from agent_memory.core.ports import PiiEntity

from .values import before_next_pair, is_plain_word

# detect-secrets' secret types as entity types; any other type is upper-snake-cased.
_TYPES = {
    "JSON Web Token": "JWT",
    "Secret Keyword": "SECRET",
    "Basic Auth Credentials": "PASSWORD",
    "Base64 High Entropy String": "SECRET",
    "Hex High Entropy String": "SECRET",
}
# Public IPs are personal data, labelled IP_ADDRESS by the PII detector; the entropy and keyword
# plugins are run below with the context rules this adapter adds.
_RUN_SEPARATELY = {
    "IPPublicDetector",
    # A URL's password, any scheme: ``shapes`` finds it, the password alone.
    "BasicAuthDetector",
    "Base64HighEntropyString",
    "HexHighEntropyString",
    "KeywordDetector",
    "JwtTokenDetector",
    "PrivateKeyDetector",
}
# A group this short is a prefix the plugin captures (``ghp`` of a GitHub token), not the secret.
_MIN_GROUP_CHARS = 8
_EDGE = " \t\"'`=:;,"
_LINE = re.compile(r"[^\n\r\u2028\u2029]+")
_BASE64URL = re.compile(r"[A-Za-z0-9_\-=]+")
_KEY_BODY_LINE = re.compile(r"[A-Za-z0-9+/=]{16,}|[A-Za-z-]+: .*")
_KEY_END = re.compile(r"-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|---- END SSH2[^\n]*----")
_TRAILING_PUNCTUATION = ".,;:!?)]}>"
_MIN_BLOB_CHARS = 40
_QUOTE = re.compile(r"(?<=.)[`\"']")
# A pasted token, or a key's body line; not ``name=value`` (whose value the rules above judge).
_BLOB = re.compile(r"[A-Za-z0-9+/_-]+=*")
# A call or a dotted name is a reference to a secret (``secretsmanager.Secret(``, ``self.key``);
# a version is a pin (``detect-secrets==1.5.0``).
_REFERENCE = re.compile(r"[A-Za-z_][\w.]*\(|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$|v?\d+(?:\.\d+)+$")


@dataclass(frozen=True, slots=True)
class Library:
    """The loaded plugins and the patterns built from them."""

    regex: tuple[tuple[str, Any], ...]  # (entity type, plugin) for the regex-based plugins
    jwt: Any
    private_key: Any
    base64: Any
    hex: Any
    keyword: re.Pattern[str]
    keyword_patterns: tuple[tuple[re.Pattern[str], int], ...]
    prose: re.Pattern[str]
    key_like: re.Pattern[str]
    filters: tuple[Any, ...]
    indirect_reference: Any


def load() -> Library:
    """The installed detect-secrets' plugins, patterns and filters (imported here, on first use)."""
    return _load()


def finds(text: str, plugins: Library) -> Iterator[PiiEntity]:
    """What detect-secrets' plugins (with this module's glue) find in ``text``."""
    yield from _private_keys(text, plugins)
    for line in _LINE.finditer(text):
        start = line.start()
        for kind, begin, end in _in_line(line.group(), plugins):
            yield PiiEntity(kind, start + begin, start + end, 1.0)


def _load() -> Library:
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
    from detect_secrets.filters import heuristic
    from detect_secrets.plugins import keyword
    from detect_secrets.plugins.base import RegexBasedDetector
    from detect_secrets.plugins.high_entropy_strings import (
        Base64HighEntropyString,
        HexHighEntropyString,
    )
    from detect_secrets.plugins.jwt import JwtTokenDetector
    from detect_secrets.plugins.private_key import PrivateKeyDetector

    # Every regex-based plugin the installed version ships, so a new provider's comes along.
    classes: dict[str, type[Any]] = dict(get_mapping_from_secret_type_to_class())
    regex = tuple(
        (_entity_type(secret_type), plugin_class())
        for secret_type, plugin_class in sorted(classes.items())
        if issubclass(plugin_class, RegexBasedDetector)
        and plugin_class.__name__ not in _RUN_SEPARATELY
    )
    # The library's keyword patterns for config-like text (``key: value``, ``key = value``),
    # with and without quotes; each reports the value's group.
    keyword_patterns = (
        *keyword.CONFIG_DENYLIST_REGEX_TO_GROUP.items(),
        *keyword.QUOTES_REQUIRED_DENYLIST_REGEX_TO_GROUP.items(),
    )
    # Prose the library has no rule for: "the admin password is Tr0ub4dor&3".
    prose = re.compile(
        rf"\b(?:{keyword.DENYLIST_REGEX}|passphrase|passcode|pin)\s+(?:is|was|are)\s*:?\s*"
        r"[\"'`]?(?P<value>[^\s\"'`]{4,})",
        re.IGNORECASE,
    )
    # Key-like names the keyword list lacks, before an unquoted value the entropy plugins judge.
    key_like = re.compile(
        r"(?i)(?<![A-Za-z0-9])[\w.-]*(?:token|auth|bearer|credential|api[_-]?key|access[_-]?key"
        r"|secret|session[_-]?id|signature)[\w.-]*[\"']?\s*(?:[:=]|=>|\s)\s*[\"']?"
        r"(?:(?:Bearer|Basic|Token)\s+)?(?P<value>[A-Za-z0-9+/_\-=.~]{16,})"
    )
    filters = (
        heuristic.is_sequential_string,
        heuristic.is_potential_uuid,
        heuristic.is_templated_secret,
        heuristic.is_prefixed_with_dollar_sign,
    )
    return Library(
        regex=regex,
        jwt=JwtTokenDetector(),
        private_key=PrivateKeyDetector(),
        base64=Base64HighEntropyString(),
        hex=HexHighEntropyString(),
        keyword=re.compile(rf"{keyword.DENYLIST_REGEX}|passphrase|passcode|pin", re.IGNORECASE),
        keyword_patterns=tuple(keyword_patterns),
        prose=prose,
        key_like=key_like,
        filters=filters,
        # ``password = os.environ["DB_PASSWORD"]``: a reference to a secret, not one.
        indirect_reference=heuristic.is_indirect_reference,
    )


def _entity_type(secret_type: str) -> str:
    return _TYPES.get(secret_type) or re.sub(r"[^A-Z0-9]+", "_", secret_type.upper()).strip("_")


def _in_line(line: str, plugins: Library) -> Iterator[tuple[str, int, int]]:
    for kind, plugin in plugins.regex:
        for pattern in plugin.denylist:
            for match in pattern.finditer(line):
                yield kind, *_secret_span(match)
    for match in plugins.jwt.denylist[0].finditer(line):
        # The library's pattern stops before the signature; the token runs on to its end.
        signature = _BASE64URL.match(line, match.end())
        end = signature.end() if signature else match.end()
        if plugins.jwt.is_formally_valid(line[match.start() : end].rstrip(".")):
            yield "JWT", match.start(), end
    # Most lines name no secret: one search spares them the keyword patterns.
    if plugins.keyword.search(line):
        yield from _keywords(line, plugins)
        for match in plugins.prose.finditer(line):
            value, begin = _trimmed(match.group("value"), match.start("value"))
            if not is_plain_word(value) and not _filtered(value, line, plugins):
                yield "PASSWORD", begin, begin + len(value)
    for match in plugins.key_like.finditer(line):
        value, begin = _trimmed(match.group("value"), match.start("value"))
        if _high_entropy(value, plugins) and not _filtered(value, "", plugins):
            yield "SECRET", begin, begin + len(value)
    blob = line.strip()
    if len(blob) >= _MIN_BLOB_CHARS and _BLOB.fullmatch(blob) and _high_entropy(blob, plugins):
        # A line that is one random token: a key's body line (its header may be in another
        # chunk), a pasted secret.
        begin = line.index(blob)
        yield "SECRET", begin, begin + len(blob)
    for plugin in (plugins.base64, plugins.hex):
        # The entropy plugins' own rule: a quoted string of high entropy, anywhere.
        for match in plugin.regex.finditer(line):
            value = match.group(2)
            if _entropy_above(plugin, value) and not _filtered(value, "", plugins):
                yield "SECRET", match.start(2), match.end(2)


def _keywords(line: str, plugins: Library) -> Iterator[tuple[str, int, int]]:
    for pattern, group in plugins.keyword_patterns:
        for match in pattern.finditer(line):
            begin = match.start(group)
            # The library's value runs to the end of the line; a password has no spaces, and in
            # a connection string it ends before the next ``;Key=`` pair.
            first = _QUOTE.split(before_next_pair(match.group(group).split()[0]), maxsplit=1)[0]
            value, begin = _trimmed(first, begin)
            rest = line[begin + len(value) :].strip()
            # "Reset your password: click the link" is prose; "password: hunter" ends the line.
            prose = bool(rest) and is_plain_word(value)
            reference = _REFERENCE.match(value) is not None
            if len(value) >= 3 and not (prose or reference) and not _filtered(value, line, plugins):
                yield "SECRET", begin, begin + len(value)


def _private_keys(text: str, plugins: Library) -> Iterator[PiiEntity]:
    """Whole key blocks: from the header the plugin finds to the footer (or the text's end), and
    a body whose header is in an earlier chunk (from the text's start to its footer).
    """
    covered = 0
    for pattern in plugins.private_key.denylist:
        for match in pattern.finditer(text):
            begin = text.rfind("\n", 0, match.start()) + 1
            end_match = _KEY_END.search(text, match.end())
            end = end_match.end() if end_match else len(text)
            covered = max(covered, end)
            yield PiiEntity("PRIVATE_KEY", begin, end, 1.0)
    for footer in _KEY_END.finditer(text, covered):
        begin = footer.start()
        while begin > 0:
            previous = text.rfind("\n", 0, begin - 1) + 1
            if not _KEY_BODY_LINE.fullmatch(text[previous : begin - 1].strip()):
                break
            begin = previous
        yield PiiEntity("PRIVATE_KEY", begin, footer.end(), 1.0)


def _secret_span(match: re.Match[str]) -> tuple[int, int]:
    """The secret in a plugin's match: its last capture group when that is the value (a URL's
    password), else the whole match less the delimiters some patterns take in.
    """
    groups = [n for n in range(1, (match.re.groups or 0) + 1) if match.group(n)]
    if groups and len(match.group(groups[-1])) >= _MIN_GROUP_CHARS:
        return match.span(groups[-1])
    begin, end = match.span()
    text = match.string
    while begin < end and text[begin] in _EDGE:
        begin += 1
    while end > begin and text[end - 1] in _EDGE:
        end -= 1
    return begin, end


def _trimmed(value: str, begin: int) -> tuple[str, int]:
    stripped = value.lstrip(_EDGE)
    begin += len(value) - len(stripped)
    return stripped.rstrip(_EDGE + _TRAILING_PUNCTUATION), begin


def _filtered(value: str, line: str, plugins: Library) -> bool:
    """The library's heuristic filters: templates (``${PASSWORD}``, ``<token>``), ``$var``
    references, UUIDs and sequences (``abcdef...``) are not secrets, nor is a keyword's value
    in a ``line`` that assigns it from a call or an index (``os.environ["DB_PASSWORD"]``).
    """
    return (
        not value
        or any(check(value) for check in plugins.filters)
        or plugins.indirect_reference(line)
    )


def _high_entropy(value: str, plugins: Library) -> bool:
    for plugin in (plugins.hex, plugins.base64):
        if set(value) <= set(plugin.charset) and _entropy_above(plugin, value):
            return True
    return False


def _entropy_above(plugin: Any, value: str) -> bool:
    return bool(plugin.calculate_shannon_entropy(value) > plugin.entropy_limit)
