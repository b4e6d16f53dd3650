"""Labelled credential samples from two secret scanners' own tests, read from their git
repositories at run time (never copied here): TruffleHog's detector tests and Gitleaks' rule
generators. Neither is the rule set the credential detector adopts (CredSweeper's, whose
fixtures live in Samsung/CredData) nor detect-secrets'.

A sample is a text, the secret values in it (gold spans) and whether it should yield a find at
all. Each sample belongs to a provider (the detector or rule file it came from): the dev and
held-out halves are split by provider, so one provider's samples never sit on both sides.
"""

from __future__ import annotations

import re
import subprocess
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Sample:
    corpus: str
    provider: str
    text: str
    golds: tuple[tuple[int, int], ...]
    positive: bool

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
_VALUE_TOKEN = re.compile(r"[^\s\"'`,:=;(){}<>\[\]@\\]{8,}")


def gitleaks(git_dir: Path) -> Iterator[Sample]:
    """The literal true and false positives of every rule generator (generated ones skipped)."""
    folder = "cmd/generate/config/rules"
    for path in _git(git_dir, "ls-tree", "--name-only", f"HEAD:{folder}").split():
        if not path.endswith(".go") or path.endswith("_test.go"):
            continue
        source = _git(git_dir, "show", f"HEAD:{folder}/{path}")
        provider = f"gitleaks/{path[:-3]}"
        for match in re.finditer(r"\b(tps|fps)\s*:?=\s*", source):
            positive = match.group(1) == "tps"
            for expr in _expressions(source, match.end()):
                for text, gold in _gitleaks_texts(expr):
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


def _sample(corpus: str, provider: str, text: str, gold: str | None, positive: bool) -> Sample:
    spans: list[tuple[int, int]] = []
    if positive:
        if gold is None:
            # A literal true positive with its context: its longest token is the secret.
            tokens = [
                m for m in _VALUE_TOKEN.finditer(text) if not _NOT_SECRET.fullmatch(m.group())
            ]
            tokens.sort(key=lambda m: -len(m.group()))
            spans = [tokens[0].span()] if tokens else []
        else:
            at = text.find(gold)
            spans = [(at, at + len(gold))] if at >= 0 else []
    return Sample(corpus, provider, text, tuple(spans), positive and bool(spans))


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
            golds = [g for want in wants for g in _gold_parts(want, text)]
            if wants and not golds:
                continue
            spans = tuple(sorted({(text.find(g), text.find(g) + len(g)) for g in golds}))
            yield Sample("trufflehog", provider, text, spans, bool(wants))


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


def _gold_parts(want: str, text: str) -> list[str]:
    """The want itself when it is in the text, else its parts (TruffleHog joins a key id and its
    secret with ``:`` or ``;``) that are.
    """
    if want in text:
        return [want]
    parts = [p for p in re.split(r"[:;|]", want) if len(p) >= 6 and p in text]
    # The parts that name where or whose the secret is (a host, a URL, an address) are no secret.
    return [p for p in parts if not _NOT_SECRET.fullmatch(p)]


# What names where or whose a secret is, or what kind of value it is: a host, a URL, an address,
# an UPPER_SNAKE variable, a MIME type.
_NOT_SECRET = re.compile(
    r"//.*|[^@\s]+@[^@\s]+|(?:[\w-]+\.)+[a-z]{2,}(?:[/?#:]\S*)?|https?|[A-Z][A-Z0-9_]+"
    r"|[a-z]+/[\w.+-]+"
)
