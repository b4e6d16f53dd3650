"""Labelled credential samples from two secret scanners' own tests, read from their git
repositories at run time (never copied here): TruffleHog's detector tests and Gitleaks' rule
generators. Neither is the rule set the credential detector adopts (CredSweeper's, whose
fixtures live in Samsung/CredData) nor detect-secrets'.

A sample is a text, the secret values in it (gold spans), what the scanner reports beside each
secret (a user name, a key id, a host: spans a find may cover without being wrong), and whether
it should yield a find at all. What a scanner reports is often a composite (``user:password``,
``id:secret``, a URL): the secret in it is told apart by ``secret_parts``.

Each sample belongs to a provider (the detector or rule file it came from): the dev and
held-out halves are split by provider, so one provider's samples never sit on both sides.
"""

from __future__ import annotations

import math
import re
import subprocess
import tomllib
import zlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from difflib import SequenceMatcher
from pathlib import Path


@dataclass(frozen=True)
class Sample:
    corpus: str
    provider: str
    text: str
    golds: tuple[tuple[int, int], ...]
    positive: bool
    context: tuple[tuple[int, int], ...] = ()
    set_aside: int = 0  # reported secrets that are no secret: fillers, values labelled ids

    @property
    def reported(self) -> tuple[tuple[int, int], ...]:
        """Every span the scanner reports: its secrets and what it names beside them."""
        return self.golds + self.context

    @property
    def split(self) -> str:
        return "dev" if zlib.crc32(self.provider.encode()) % 2 == 0 else "held_out"


def _git(git_dir: Path, *args: str) -> str:
    return subprocess.run(
        ["git", f"--git-dir={git_dir}", *args], capture_output=True, text=True, check=True
    ).stdout


def commit_of(git_dir: Path) -> str:
    return _git(git_dir, "rev-parse", "HEAD").strip()


# -- Go source, just enough of it --------------------------------------------------------------

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "'": "'", "0": "\0"}


def _unquote(literal: str) -> str:
    if literal.startswith("`"):
        return literal[1:-1]
    body = literal[1:-1]

    def escape(match: re.Match[str]) -> str:
        code = match.group(1)
        if code[0] in "xuU":
            return chr(int(code[1:], 16))
        return _ESCAPES.get(code, code)

    return re.sub(r"\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)", escape, body)


_TOKEN = re.compile(r'`[^`]*`|"(?:[^"\\\n]|\\.)*"|//[^\n]*|/\*.*?\*/|\s+|.', re.DOTALL)


def _elements(source: str, start: int, closer: str) -> tuple[list[str], int]:
    """Top-level comma-separated expressions from ``start`` to the matching ``closer``."""
    depth = 0
    items: list[str] = []
    current: list[str] = []
    for match in _TOKEN.finditer(source, start):
        token = match.group()
        if token.startswith(("//", "/*")):
            continue
        if token in "([{" and len(token) == 1:
            depth += 1
        elif token in ")]}" and len(token) == 1:
            if depth == 0 and token == closer:
                if "".join(current).strip():
                    items.append("".join(current).strip())
                return items, match.end()
            depth -= 1
        elif token == "," and depth == 0:
            items.append("".join(current).strip())
            current = []
            continue
        current.append(token)
    return items, len(source)


_LITERAL = r'`[^`]*`|"(?:[^"\\\n]|\\.)*"'
_CONCAT = re.compile(rf"(?:{_LITERAL})(?:\s*\+\s*(?:{_LITERAL}))*")
_SAMPLE_CALL = re.compile(
    rf"utils\.GenerateSampleSecrets?\(\s*({_LITERAL})\s*,"
    rf"\s*((?:{_LITERAL})(?:\s*\+\s*(?:{_LITERAL}))*)\s*\)"
)


def _literal_value(expr: str) -> str | None:
    if not _CONCAT.fullmatch(expr):
        return None
    return "".join(_unquote(m.group()) for m in re.finditer(_LITERAL, expr))


# -- Gitleaks ------------------------------------------------------------------------------------

# gitleaks' utils.GenerateSampleSecrets writes a secret into these (one-line forms of its list).
_GITLEAKS_FORMS = (
    '{i}Token="{s}"',
    "{i}Token = {s}",
    '{{\n    "{i}_token": "{s}"\n}}',
    "{i}_token: '{s}'",
)


def gitleaks(git_dir: Path) -> Iterator[Sample]:
    """The literal true and false positives of every rule generator (generated ones skipped).

    A literal true positive names no secret: the secret is what the file's own rule (its
    regular expression in the generated ``config/gitleaks.toml``) captures from it.
    """
    rules = _gitleaks_rules(git_dir)
    folder = "cmd/generate/config/rules"
    for path in _git(git_dir, "ls-tree", "--name-only", f"HEAD:{folder}").split():
        if not path.endswith(".go") or path.endswith("_test.go"):
            continue
        source = _git(git_dir, "show", f"HEAD:{folder}/{path}")
        provider = f"gitleaks/{path[:-3]}"
        own = [rules[i] for i in re.findall(r'RuleID:\s*"([^"]+)"', source) if i in rules]
        for match in re.finditer(r"\b(tps|fps)\s*:?=\s*", source):
            positive = match.group(1) == "tps"
            for expr in _expressions(source, match.end()):
                for text, gold in _gitleaks_texts(expr):
                    if positive and gold is None:
                        gold = _captured(own, text)
                    yield _sample("gitleaks", provider, text, gold, positive)


def _expressions(source: str, at: int) -> list[str]:
    rest = source[at:]
    if rest.startswith("[]string{"):
        return _elements(source, at + len("[]string{"), "}")[0]
    if rest.startswith("append("):
        items = _elements(source, at + len("append("), ")")[0]
        return items[1:]
    call = _SAMPLE_CALL.match(rest)
    return [call.group()] if call else []


def _gitleaks_texts(expr: str) -> Iterator[tuple[str, str | None]]:
    call = _SAMPLE_CALL.fullmatch(expr.rstrip(". "))
    if call:
        identifier = _unquote(call.group(1))
        secret = _literal_value(call.group(2))
        if secret is None:
            return
        if "GenerateSampleSecrets(" in expr:
            for form in _GITLEAKS_FORMS:
                yield form.format(i=identifier, s=secret), secret
        else:
            yield f'{identifier}_api_token = "{secret}"', secret
        return
    value = _literal_value(expr)
    if value is not None and value.strip():
        yield value, None


_POSIX_CLASSES = {"alnum": "a-zA-Z0-9", "alpha": "a-zA-Z", "digit": "0-9", "space": r"\s"}


def _gitleaks_rules(git_dir: Path) -> dict[str, tuple[re.Pattern[str], int]]:
    """Each rule's expression in Python's dialect, and the group that holds its secret."""
    config = tomllib.loads(_git(git_dir, "show", "HEAD:config/gitleaks.toml"))
    rules: dict[str, tuple[re.Pattern[str], int]] = {}
    for rule in config["rules"]:
        if "regex" not in rule:
            continue
        pattern = rule["regex"].replace(r"\z", r"\Z")
        for name, members in _POSIX_CLASSES.items():
            pattern = pattern.replace(f"[:{name}:]", members)
        if "(?i)" in pattern[1:]:
            # Go scopes a later (?i) to the rest of its group; matching a known positive
            # case-blind everywhere finds the same secret.
            pattern = "(?i)" + pattern.replace("(?i)", "")
        try:
            rules[rule["id"]] = (re.compile(pattern), int(rule.get("secretGroup", 0)))
        except re.error:
            continue
    return rules


def _captured(rules: list[tuple[re.Pattern[str], int]], text: str) -> str | None:
    """What gitleaks reports for ``text``: the secret group, else the only or first non-empty
    group, else the whole match. None when no rule of the file matches in Python's dialect.
    """
    for pattern, group in rules:
        match = pattern.search(text)
        if match is None:
            continue
        if group:
            return match.group(group)
        groups = [g for g in match.groups() if g]
        return groups[0] if groups else match.group()
    return None


def _sample(corpus: str, provider: str, text: str, gold: str | None, positive: bool) -> Sample:
    """A sample whose secret is ``gold`` (a positive whose secret was not located has no span
    and is counted apart).
    """
    if not positive or gold is None or gold not in text:
        return Sample(corpus, provider, text, (), positive)
    # A rule that captures ``user:password`` whole (curl's -u, a URL's user information) holds
    # one secret, the password (RFC 3986's userinfo, RFC 7617's user-pass).
    user_pass = _USER_PASS.fullmatch(gold)
    parts = [user_pass.group(1)] if user_pass else secret_parts(gold)
    secrets, context, set_aside = _located(text, [(gold, parts)])
    return Sample(corpus, provider, text, secrets, True, context, set_aside)


_USER_PASS = re.compile(r"[^:\s\"']+:([^:\s\"']+)")


def _located(
    text: str, reported: list[tuple[str, list[str]]]
) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...], int]:
    """Spans of each reported value, wherever it stands in the text (a test may repeat it), of
    the secrets inside each, and how many reported secrets were set aside as no secret.
    """
    secrets: set[tuple[int, int]] = set()
    context: set[tuple[int, int]] = set()
    set_aside: set[tuple[int, int]] = set()
    for value, parts in reported:
        for match in re.finditer(re.escape(value), text):
            context.add(match.span())
            for secret in parts:
                at = match.start() + value.find(secret)
                span = (at, at + len(secret))
                if is_filler(secret) or _labelled_identifier(text, at):
                    set_aside.add(span)
                else:
                    secrets.add(span)
    return tuple(sorted(secrets)), tuple(sorted(context)), len(set_aside - secrets)


# A label that says the value after it is who or where, not a secret: ``"hive_id": "..."``,
# ``censys_user: ...``, ``ORG_ID=...``, ``<id>{...``, ``id: ...``.
_IDENTIFIER_LABEL = re.compile(
    r"(?i)(?:\b|_)(?:id|user(?:name)?|account|org|email|domain|host|url)[\"'>]?\s*[:=]?\s*[\"'{]*\s*$"
)


def _labelled_identifier(text: str, at: int) -> bool:
    """The text itself labels the value at ``at`` an identifier (TruffleHog reports ids and
    user names beside the secret they go with).
    """
    line_start = text.rfind("\n", 0, at) + 1
    return _IDENTIFIER_LABEL.search(text[max(line_start, at - 40) : at]) is not None


def is_filler(secret: str) -> bool:
    """A test's stand-in, not a secret anyone holds: after its prefix, one character repeated
    (``shippo_live_aaaa...``, ``spu-1111...``), as Gitleaks' own global allowlist reads it.
    """
    body = re.split(r"[_-]", secret)[-1]
    return len(body) >= 8 and len(set(body.lower())) == 1


# -- what in a report is the secret --------------------------------------------------------------

_SECRET_KEY = re.compile(
    r"(?i)(?:sig(?:nature)?|pass(?:word|wd)?|pwd|secret|token|credentials?"
    r"|(?:account|shared_?access|access|api|client|private)?_?key|access_?token)"
)


def secret_parts(reported: str) -> list[str]:
    """The secrets in what a scanner reports: the password of a URL or a connection string,
    the values of its secret-named parameters, the most random part of a composite
    (``user:password``, ``key_id:secret``); none when it only says where or who (a URL without
    credentials, a host, an address).
    """
    if "://" in reported or reported.lower().startswith("jdbc:"):
        return _url_secrets(reported)
    pairs = _pairs(reported)
    if pairs:
        named = [v for k, v in pairs if _SECRET_KEY.fullmatch(k.strip()) and v]
        return named or [_most_random([v for _, v in pairs])]
    fields = _json_fields(reported)
    if fields:
        return [v for k, v in fields if _SECRET_KEY.fullmatch(k) and v]
    parts = [p.strip(_ENCLOSING) for p in re.split(r"[:;|]", reported)]
    candidates = [p for p in parts if p and not _NOT_SECRET.fullmatch(p)]
    return [_most_random(candidates)] if candidates else []


_ENCLOSING = "\"'{}` "
# ``"private_key": "..."`` in JSON, or in JSON held in a string (``\"private_key\": \"...\"``).
_JSON_FIELD = re.compile(r'\\?"([\w-]+)\\?"\s*:\s*\\?"(?![{\[])(.*?)\\?"')


def _json_fields(text: str) -> list[tuple[str, str]]:
    return _JSON_FIELD.findall(text) if text.lstrip().startswith(("{", '"')) else []


def _pairs(text: str) -> list[tuple[str, str]]:
    """``key=value`` pairs joined by ``&`` or ``;`` (a query string, a connection string)."""
    if "=" not in text or not re.search(r"[&;]", text):
        return []
    pairs = [item.partition("=") for item in re.split(r"[&;]", text) if item]
    if not all(sep and re.fullmatch(r"\w[\w.-]*", key.strip()) for key, sep, _ in pairs):
        return []
    return [(key, value) for key, _, value in pairs]


def _url_secrets(url: str) -> list[str]:
    rest = re.sub(r"(?i)^jdbc:", "", url)
    userinfo = re.match(r"[\w+.-]+://([^/@\s]*)@", rest)
    secrets: list[str] = []
    if userinfo and ":" in userinfo.group(1):
        secrets.append(userinfo.group(1).split(":", 1)[1])
    for key, value in re.findall(r"[?&;]([\w.-]+)=([^&;#\s]*)", rest):
        if _SECRET_KEY.fullmatch(key) and value:
            secrets.append(value)
    if not secrets:
        path = re.sub(r"^[\w+.-]+://[^/]*", "", rest).split("?")[0]
        secrets = [
            segment
            for segment in path.split("/")
            if len(segment) >= 16 and re.search(r"\d", segment) and re.search(r"[A-Za-z]", segment)
        ]
    return secrets


def _most_random(parts: list[str]) -> str:
    # On a tie the later part: a password follows its user name.
    return max(reversed(parts), key=lambda p: len(p) * _entropy(p))


def _entropy(text: str) -> float:
    counts = Counter(text)
    return -sum(n / len(text) * math.log2(n / len(text)) for n in counts.values())


# -- TruffleHog ----------------------------------------------------------------------------------

_ASSIGN = re.compile(rf"\b(\w+)\s*(?:string\s*)?=\s*({_LITERAL})")
_CASE = re.compile(
    r"\{\s*name:\s*(?P<name>" + _LITERAL + r")\s*,\s*input:\s*(?P<input>.+?),\s*"
    r"want:\s*(?P<want>\[\]string\{.*?\}|nil)\s*,?\s*\}",
    re.DOTALL,
)
_SPRINTF = re.compile(r"fmt\.Sprintf\((.*)\)\s*$", re.DOTALL)


def trufflehog(git_dir: Path) -> Iterator[Sample]:
    """Each detector's pattern tests: an input with the secrets its detector must report (a
    positive) or none (a negative). Inputs built by code other than ``fmt.Sprintf`` of
    constants are skipped.
    """
    listing = _git(git_dir, "ls-tree", "-r", "--name-only", "HEAD", "pkg/detectors")
    for path in listing.split():
        if not path.endswith("_test.go") or "integration" in path:
            continue
        source = _git(git_dir, "show", f"HEAD:{path}")
        if "want:" not in source or "input:" not in source:
            continue
        provider = "trufflehog/" + path.split("/")[2]
        constants = {m.group(1): _unquote(m.group(2)) for m in _ASSIGN.finditer(source)}
        for case in _CASE.finditer(source):
            text = _evaluate(case.group("input").strip(), constants)
            wants = _wants(case.group("want"), constants)
            if text is None or wants is None:
                continue
            reported = [r for want in wants for r in _reported(want, text)]
            if wants and not reported:
                continue
            secrets, context, set_aside = _located(text, reported)
            yield Sample("trufflehog", provider, text, secrets, bool(wants), context, set_aside)


def _evaluate(expr: str, constants: dict[str, str]) -> str | None:
    if expr in constants:
        return constants[expr]
    value = _literal_value(expr)
    if value is not None:
        return value
    sprintf = _SPRINTF.match(expr)
    if not sprintf:
        return None
    args, _ = _elements(sprintf.group(1) + ")", 0, ")")
    if not args:
        return None
    template = _literal_value(args[0])
    values = [_evaluate(a, constants) for a in args[1:]]
    if template is None or any(v is None for v in values):
        return None
    queue = iter(values)
    try:
        return re.sub(
            r"%[sqv]",
            lambda m: f'"{next(queue)}"' if m.group() == "%q" else str(next(queue)),
            template,
        )
    except StopIteration:
        return None


def _wants(expr: str, constants: dict[str, str]) -> list[str] | None:
    if expr == "nil" or expr == "[]string{}":
        return []
    items, _ = _elements(expr[len("[]string{") :], 0, "}")
    values = [_evaluate(item, constants) for item in items]
    return None if any(v is None for v in values) else [v for v in values if v]


def _reported(want: str, text: str) -> list[tuple[str, list[str]]]:
    """The want with its secrets when it is in the text; else its parts that are (TruffleHog
    joins a key id, a secret, a host with ``:`` or ``;`` in one result, or a URL and a query
    string), the secret among them told apart as in the whole.
    """
    if want in text:
        return [(want, secret_parts(want))]
    parts = _parts_in(want, text)
    structured = {p: secret_parts(p) for p in parts if _pairs(p)}
    if any(structured.values()):
        return [(p, structured.get(p, [])) for p in parts]
    secrets = secret_parts(":".join(parts)) if parts else []
    return [(p, [p] if p in secrets else []) for p in parts]


def _parts_in(want: str, text: str) -> list[str]:
    """The pieces of ``want`` found in ``text``, longest first, split where TruffleHog joins the
    parts of a result (``:``, ``;``, ``|``, or nothing at all: a secret glued to its key id).
    """
    pieces: list[str] = []
    pending = [p for p in re.split(r"[;|]|(?<!\d):|:(?!\d)", want) if p]
    while pending:
        part = pending.pop()
        match = SequenceMatcher(None, part, text, autojunk=False).find_longest_match()
        if match.size < _MIN_PIECE:
            continue
        pieces.append(part[match.a : match.a + match.size])
        pending += [part[: match.a], part[match.a + match.size :]]
    return pieces


_MIN_PIECE = 6


# What names where or whose a secret is, or what kind of value it is: a host, a URL, an address,
# an UPPER_SNAKE variable, a MIME type.
_NOT_SECRET = re.compile(
    r"//.*|[^@\s]+@(?:[\w-]+\.)+[a-z]{2,}|(?:[\w-]+\.)+[a-z]{2,}(?:[/?#:]\S*)?|https?|[A-Z][A-Z0-9_]+"
    r"|[a-z]+/[\w.+-]+"
)
