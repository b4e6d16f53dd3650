"""Known token shapes and prefixes from a maintained rule set: Samsung CredSweeper's
``rules/config.yaml``, read from the installed ``credsweeper`` package at run time.

Only the file is read: ``credsweeper`` itself is never imported (it would load its ML validator
and a dozen file parsers). Of its rules we take those that name a token by its shape, ``pattern``
and ``multi`` rules that need no ML, and leave:

- the rules CredSweeper runs only with its ML validator (``use_ml: true``: keyword pairs such as
  ``password = ...``; ``context`` and the detect-secrets keyword rules do that job here);
- ``info`` rules (a UUID, an S3 bucket name, a Firebase domain: not secrets);
- rules whose only literal is a character or two (``-``, ``|``, ``M``) or none, and weak rules
  whose prefix is shorter than four characters: CredSweeper prunes these with filters that live
  in its code, not in the rule file.

A pattern Python's ``re`` cannot compile is counted and skipped (``RuleSet.uncompiled``).
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agent_memory.core.ports import PiiEntity

from .values import is_placeholder, is_plain_word, is_random

_PACKAGE = "credsweeper"
_RULES = Path("rules") / "config.yaml"
_MIN_LITERAL = 2
_MIN_WEAK_LITERAL = 4
# CredSweeper's names for kinds the other detectors already label: one label per kind.
_LABELS = {
    "AWS Multi": "AWS_ACCESS_KEY",
    "AWS Client ID": "AWS_ACCESS_KEY",
    "JSON Web Token": "JWT",
    "PEM Private Key": "PRIVATE_KEY",
    "BASE64 Private Key": "PRIVATE_KEY",
    "BASE64 encoded PEM Private Key": "PRIVATE_KEY",
    "Basic Authorization": "SECRET",
    "Bearer Authorization": "SECRET",
}


@dataclass(frozen=True, slots=True)
class Rule:
    """One adopted rule: its label, its compiled patterns and the literals that prefilter it."""

    label: str
    patterns: tuple[re.Pattern[str], ...]
    literals: tuple[str, ...]  # lowercased; a line holding none of them cannot match
    multi: bool  # the second pattern counts only where the first matched in the same text


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The adopted rules, and what was left and why (for the benchmark and the docs)."""

    version: str
    rules: tuple[Rule, ...]
    total: int
    skipped: dict[str, int]
    uncompiled: tuple[str, ...]


def load() -> RuleSet:
    """CredSweeper's rules from the installed package (``FileNotFoundError`` if it is absent)."""
    import yaml

    path = _rules_path()
    raw: list[dict[str, Any]] = yaml.safe_load(path.read_text(encoding="utf-8"))
    rules: list[Rule] = []
    skipped: dict[str, int] = {}
    uncompiled: list[str] = []
    for entry in raw:
        reason = _skip_reason(entry)
        if reason:
            skipped[reason] = skipped.get(reason, 0) + 1
            continue
        patterns = []
        for value in entry["values"]:
            try:
                patterns.append(re.compile(value))
            except re.error:
                uncompiled.append(entry["name"])
        if len(patterns) != len(entry["values"]):
            continue
        rules.append(
            Rule(
                label=_label(entry["name"]),
                patterns=tuple(patterns),
                literals=tuple(s.lower() for s in entry.get("required_substrings") or ()),
                multi=entry["type"] == "multi",
            )
        )
    return RuleSet(_version(), tuple(rules), len(raw), skipped, tuple(uncompiled))


def finds(text: str, rule_set: RuleSet) -> Iterator[PiiEntity]:
    """Every adopted rule's ``value`` group in ``text``."""
    lowered = text.lower()
    for rule in rule_set.rules:
        if rule.literals and not any(literal in lowered for literal in rule.literals):
            continue
        first, *rest = rule.patterns
        matched = False
        for match in first.finditer(text):
            begin, end = _value_span(match)
            value = text[begin:end]
            if not (is_placeholder(value) or is_plain_word(value)):
                matched = True
                yield PiiEntity(rule.label, begin, end, 1.0)
        if rule.multi and matched:
            # The partner of a key id (an AWS secret key beside ``AKIA...``): CredSweeper checks
            # it with filters in its code; here it must read as random.
            for pattern in rest:
                for match in pattern.finditer(text):
                    begin, end = _value_span(match)
                    if is_random(text[begin:end]):
                        yield PiiEntity(rule.label, begin, end, 1.0)


def _value_span(match: re.Match[str]) -> tuple[int, int]:
    if "value" in match.re.groupindex and match.group("value") is not None:
        return match.span("value")
    return match.span()


def _skip_reason(entry: dict[str, Any]) -> str | None:
    if entry.get("type") not in {"pattern", "multi"}:
        return "other rule type (keyword, PEM: found by the other detectors)"
    if entry.get("use_ml"):
        return "needs CredSweeper's ML validator"
    if entry.get("severity") == "info":
        return "info severity (not a secret)"
    literals = entry.get("required_substrings") or ()
    shortest = min((len(s) for s in literals), default=0)
    if shortest < _MIN_LITERAL:
        return "no literal of two characters or more"
    if entry.get("confidence") == "weak" and shortest < _MIN_WEAK_LITERAL:
        return "weak rule with a prefix under four characters"
    return None


def _label(name: str) -> str:
    return _LABELS.get(name) or re.sub(r"[^A-Z0-9]+", "_", name.upper()).strip("_")


def _rules_path() -> Path:
    # find_spec locates the package without running its __init__ (which loads the ML model).
    spec = importlib.util.find_spec(_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(f"the {_PACKAGE} package is not installed")
    return Path(next(iter(spec.submodule_search_locations))) / _RULES


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(_PACKAGE)
    except PackageNotFoundError:
        return "unknown"
