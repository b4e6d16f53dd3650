"""IAM's string matching, as AWS documents it, for tests that reason about what a policy lets
through (the call check in :mod:`tests.support.iam_check`, the tenant-tag isolation tests).

What it follows:

- ``StringLike``/``StringNotLike`` compare case-sensitively; ``*`` matches any run of
  characters (none included) and ``?`` exactly one, anywhere in the value; ``StringEquals``
  has no wildcards. https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_condition_operators.html#Conditions_String
- Several values of one key are ORed; a negated operator holds when none of them matches.
  https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-logic-multiple-context-keys-or-values.html
- ``${key}`` is replaced by the request's value of ``key`` (key names are case-insensitive),
  ``${key, 'default'}`` by ``default`` when the request lacks it; a variable with no value
  leaves that policy value matching nothing. ``${*}``, ``${?}`` and ``${$}`` stand for a
  literal ``*``, ``?`` and ``$``. https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_variables.html
  ("Special characters", "Specifying default values", "Policy variables with no value").

What the pages leave open is whether a ``*`` or ``?`` inside a *substituted value* acts as a
wildcard: :func:`parse` takes both readings (``live_values``), so a test can hold under
either. A ``?`` is one Python character (one code point); AWS does not say whether it counts
UTF-16 units, which only matters for characters outside the Basic Multilingual Plane.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from functools import cache

__all__ = ["ANY", "ONE", "Pattern", "parse"]


class Wildcard(Enum):
    """A wildcard of a pattern: ``*`` or ``?``."""

    ANY = "*"
    ONE = "?"


ANY = Wildcard.ANY
ONE = Wildcard.ONE
Part = str | Wildcard

_TOKEN = re.compile(r"\$\{([^}]*)\}|[*?]")
_SPECIAL = {"*": "*", "?": "?", "$": "$"}
_WILDCARDS = {ANY: ".*", ONE: "."}
_DEFAULT = re.compile(r"^(.*?),\s*'(.*)'$", re.DOTALL)


@dataclass(frozen=True, slots=True)
class Pattern:
    """A policy string with its variables filled in: literal runs and wildcards."""

    parts: tuple[Part, ...]

    def like(self, value: str, *, ignore_case: bool = False) -> bool:
        """``StringLike``: the wildcards match, the rest must be equal."""
        return _regex(self.parts, ignore_case).fullmatch(value) is not None

    def equals(self, value: str, *, ignore_case: bool = False) -> bool:
        """``StringEquals``: a ``*`` or ``?`` of the policy is the character itself."""
        text = self.text
        return text.casefold() == value.casefold() if ignore_case else text == value

    @property
    def text(self) -> str:
        """The pattern as plain text (a wildcard as its character)."""
        return "".join(p.value if isinstance(p, Wildcard) else p for p in self.parts)

    def split(self, separator: str, maxsplit: int) -> list[Pattern]:
        """The pattern cut at its first ``maxsplit`` literal ``separator`` characters (ARN
        segments); a wildcard never matches across a cut.
        """
        segments: list[list[Part]] = [[]]
        for part in self.parts:
            if isinstance(part, Wildcard):
                segments[-1].append(part)
                continue
            pieces = part.split(separator, maxsplit - (len(segments) - 1))
            segments[-1].append(pieces[0])
            segments += [[piece] for piece in pieces[1:]]
        return [Pattern(tuple(p for p in s if p != "")) for s in segments]


def parse(text: str, variables: Mapping[str, str], *, live_values: bool) -> Pattern | None:
    """``text`` as IAM reads it, its variables filled from ``variables``; None when one has no
    value (the policy value then matches nothing).

    ``live_values``: whether a ``*`` or ``?`` inside a substituted value is a wildcard (True)
    or the character itself (False).
    """
    known = {k.casefold(): v for k, v in variables.items()}
    parts: list[Part] = []
    position = 0
    for found in _TOKEN.finditer(text):
        parts.append(text[position : found.start()])
        position = found.end()
        token, name = found.group(0), found.group(1)
        if name is None:
            parts.append(ANY if token == "*" else ONE)
        elif name in _SPECIAL:
            parts.append(_SPECIAL[name])
        else:
            value = _value(name, known)
            if value is None:
                return None
            parts += _value_parts(value) if live_values else [value]
    parts.append(text[position:])
    return Pattern(tuple(p for p in parts if p != ""))


def _value(name: str, known: Mapping[str, str]) -> str | None:
    default = _DEFAULT.match(name)
    key = (default.group(1) if default else name).strip().casefold()
    if key in known:
        return known[key]
    return default.group(2) if default else None


def _value_parts(value: str) -> list[Part]:
    parts: list[Part] = []
    for piece in re.split(r"([*?])", value):
        if piece in ("*", "?"):
            parts.append(ANY if piece == "*" else ONE)
        elif piece:
            parts.append(piece)
    return parts


@cache
def _regex(parts: tuple[Part, ...], ignore_case: bool) -> re.Pattern[str]:
    body = "".join(_WILDCARDS[p] if isinstance(p, Wildcard) else re.escape(p) for p in parts)
    flags = re.DOTALL | (re.IGNORECASE if ignore_case else 0)
    return re.compile(body, flags)
