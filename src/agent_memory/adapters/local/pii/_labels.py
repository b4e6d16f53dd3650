"""Values that are PII only after a word that says so: "passport X1234567", "CVV: 123"."""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from agent_memory.core.ports import PiiEntity

# What may stand between a label and its value: "passport no. X1234567", "CVV: 123",
# "account number is 12345678", "DL# D1234567", "routing (ABA) 021000021".
_FILLER = (
    r"(?:[ \t]*(?i:[:=#(),\-\u2013]|\bno\b\.?|\bnr\b\.?|\bnum\b\.?|\bnumbers?\b|\bid\b|\bcode\b|"
    r"\bis\b|\bwas\b|\bof\b|\bfor\b|\bthe\b|\bon\b)[ \t]*){0,4}[ \t]*['\"]?"
)
_BEFORE_CHARS = 24


@dataclass(frozen=True, slots=True)
class Labelled:
    """A value pattern (its group ``v``) found right after a label, checked by ``valid``."""

    kind: str
    # Substrings of which every label holds one, a cheap first test: in lower case they are
    # looked for in the lowered text, otherwise as written.
    triggers: tuple[str, ...]
    label: re.Pattern[str]
    value: re.Pattern[str]
    valid: Callable[[str], bool] | None = None
    score: float = 0.85
    not_after: re.Pattern[str] | None = None  # words before the label that change its sense

    def find(self, text: str) -> Iterator[PiiEntity]:
        """The value after each label in ``text`` that passes ``valid``."""
        lowered = lower(text)
        if not any(t in (lowered if t.islower() else text) for t in self.triggers):
            return
        for label in self.label.finditer(text):
            m = self.value.match(text, label.end())
            if m is None:
                continue
            before = text[max(0, label.start() - _BEFORE_CHARS) : label.start()]
            if self.not_after is not None and self.not_after.search(before):
                continue
            if self.valid is None or self.valid(compact(m.group("v"))):
                yield PiiEntity(self.kind, m.start("v"), m.end("v"), self.score)


def labelled(
    kind: str,
    triggers: str,
    label: str,
    value: str,
    valid: Callable[[str], bool] | None = None,
    *,
    flags: int = re.I,
    score: float = 0.85,
    not_after: str | None = None,
) -> Labelled:
    """A ``Labelled`` from pattern sources: ``label`` with ``flags``, ``value`` case-sensitive
    and ending at a boundary (no word character, and no further digit group, follows it);
    ``triggers`` are "|"-separated substrings of which every label holds one.
    """
    return Labelled(
        kind,
        tuple(triggers.split("|")),
        re.compile(label, flags),
        re.compile(_FILLER + r"(?P<v>" + value + r")(?![\w/]|[ -]\d)"),
        valid,
        score,
        re.compile(not_after + r"\s*$", re.I) if not_after else None,
    )


def compact(value: str) -> str:
    """``value`` without the spaces, hyphens and dots it is grouped by."""
    return value.replace(" ", "").replace("-", "").replace(".", "")


@functools.lru_cache(maxsize=4)
def lower(text: str) -> str:
    """``text.lower()``, computed once for the recognisers that scan the same text."""
    return text.lower()


@functools.cache
def _stdnum(module: str) -> Any:
    # Imported on first use: commands that store nothing never load the checksum modules.
    return importlib.import_module(f"stdnum.{module}")


def stdnum_valid(module: str, candidate: str) -> bool:
    """True if ``python-stdnum``'s ``stdnum.<module>`` accepts ``candidate`` (its checksum,
    length and format).
    """
    return bool(_stdnum(module).is_valid(candidate))
