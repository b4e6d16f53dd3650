"""Telling when a new fact contradicts one already confirmed, without a model.

Deliberately narrow: two statements about the same thing (most of their words shared) that
differ in a number, in negation, or by an opposite word. Such a fact is held back for a human
instead of being served beside the one it contradicts; anything subtler is left to review.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?|\d+(?:\.\d+)?")
_NUMBER = re.compile(r"^\d+(?:\.\d+)?$")
_NEGATIONS = frozenset(
    {
        "not",
        "no",
        "never",
        "without",
        "cannot",
        "isn't",
        "aren't",
        "doesn't",
        "don't",
        "won't",
        "shouldn't",
        "mustn't",
        "wasn't",
        "weren't",
        "nor",
    }
)
_OPPOSITES = (
    ("above", "below"),
    ("more", "less"),
    ("higher", "lower"),
    ("increase", "decrease"),
    ("before", "after"),
    ("allowed", "forbidden"),
    ("required", "optional"),
    ("always", "never"),
    ("must", "may"),
    ("minimum", "maximum"),
    ("over", "under"),
    ("include", "exclude"),
    ("includes", "excludes"),
    ("enabled", "disabled"),
    ("true", "false"),
    ("valid", "invalid"),
    ("safe", "unsafe"),
    ("legal", "illegal"),
)
_OPPOSITE = {a: b for a, b in _OPPOSITES} | {b: a for a, b in _OPPOSITES}
_FILLER = frozenset(
    {
        "a",
        "an",
        "the",
        "is",
        "are",
        "be",
        "of",
        "in",
        "on",
        "to",
        "and",
        "or",
        "for",
        "with",
        "by",
        "as",
        "at",
        "it",
        "its",
        "that",
        "this",
        "usually",
    }
)
# Share of (non-filler) words two statements must have in common to be "about the same thing".
SAME_SUBJECT_OVERLAP = 0.6


def contradiction(new: str, old: str) -> str | None:
    """Why ``new`` contradicts ``old``, or None when it does not (as far as words can tell)."""
    a, b = _words(new), _words(old)
    content_a, content_b = _content(a), _content(b)
    if not content_a or not content_b:
        return None
    overlap = len(content_a & content_b) / min(len(content_a), len(content_b))
    if overlap < SAME_SUBJECT_OVERLAP:
        return None
    numbers_a = {w for w in a if _NUMBER.match(w)}
    numbers_b = {w for w in b if _NUMBER.match(w)}
    if numbers_a and numbers_b and numbers_a != numbers_b:
        figures = f"{', '.join(sorted(numbers_a))} vs {', '.join(sorted(numbers_b))}"
        return f"different figures ({figures})"
    if (len(a & _NEGATIONS) % 2) != (len(b & _NEGATIONS) % 2):
        return "one negates the other"
    for word in a - b:
        if _OPPOSITE.get(word) in b - a:
            return f"opposite words ({word} vs {_OPPOSITE[word]})"
    return None


def _words(text: str) -> set[str]:
    # "1x", "2x" and "90-day" keep their numbers apart from their units.
    spaced = re.sub(r"(\d)([a-z])", r"\1 \2", text.lower().replace("n't", " not"))
    return set(_WORD.findall(spaced))


def _content(words: set[str]) -> set[str]:
    return {
        w
        for w in words
        if w not in _FILLER and w not in _NEGATIONS and not _NUMBER.match(w) and w not in _OPPOSITE
    }
