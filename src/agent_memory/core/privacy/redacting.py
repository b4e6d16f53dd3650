"""Finding a given text in stored text as a reader would, and replacing every occurrence.

A person redacts a secret the PII scrubber missed. A demanding reader of the store must not
find it again through a variant the scrubber's own detector would read as the same text, so
both the secret and the stored text are compared in their *reading form*
(``reading_form.py``: compatibility forms plain, digits ASCII, dashes ``-``, spaces a space,
invisible characters gone), then case-folded (``Hunter2`` and ``HUNTER2`` are one secret), and
runs of spaces read as one. Every character compared remembers the stored character it came
from, so what is replaced is the whole stored span, invisible characters inside it included.

The match is of a substring, not of words: redacting ``acme-7731`` also rewrites
``acme-77310``, which is what a person removing a secret wants (a longer token holding it
still discloses it). That is why a text must be long enough (``MIN_TEXT_CHARS`` characters
as read) to redact: a short one would wreck every record of the tenant.
"""

from __future__ import annotations

from dataclasses import dataclass

from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.privacy.reading_form import reading_form, stored_form

MIN_TEXT_CHARS = 4
MAX_TEXT_CHARS = 1_000
MAX_REPLACEMENT_CHARS = 100
DEFAULT_REPLACEMENT = "[REDACTED]"
# A replacement next to its neighbours can spell the text again; a few passes settle that.
_PASSES = 4


@dataclass(frozen=True, slots=True)
class _Folded:
    """A text as compared (``view``), and for each of its characters the stored one's index."""

    view: str
    origin: tuple[int, ...]


def _folded(text: str) -> _Folded:
    form = reading_form(text)
    view: list[str] = []
    origin: list[int] = []
    for char, index in zip(form.view, form.origin, strict=True):
        if char.isspace():
            if view and view[-1] == " ":
                continue  # a run of spaces reads as one
            char = " "
        for folded in char.casefold():
            view.append(folded)
            origin.append(index)
    return _Folded("".join(view), tuple(origin))


@dataclass(frozen=True, slots=True)
class Needle:
    """A text to redact, checked and in the form it is compared in."""

    text: str
    view: str
    replacement: str

    def spans(self, text: str) -> list[tuple[int, int]]:
        """The stored spans of ``text`` that read as the needle, in order, never overlapping."""
        folded = _folded(text)
        spans: list[tuple[int, int]] = []
        start = folded.view.find(self.view)
        while start >= 0:
            end = start + len(self.view)
            begin, stop = folded.origin[start], folded.origin[end - 1] + 1
            if spans and begin < spans[-1][1]:
                spans[-1] = (spans[-1][0], max(stop, spans[-1][1]))
            else:
                spans.append((begin, stop))
            start = folded.view.find(self.view, start + 1)
        return spans

    def holds(self, text: str | None) -> bool:
        """Whether ``text`` holds the needle as read."""
        return bool(text) and self.view in _folded(text or "").view

    def redact(self, text: str) -> str:
        """``text`` with every occurrence replaced (and none spelt again by the replacement)."""
        for _ in range(_PASSES):
            spans = self.spans(text)
            if not spans:
                return text
            parts: list[str] = []
            cursor = 0
            for begin, end in spans:
                parts.append(text[cursor:begin])
                parts.append(self.replacement)
                cursor = end
            parts.append(text[cursor:])
            text = "".join(parts)
        if self.holds(text):
            raise InvalidInput("replacement", "spells the text again next to what surrounds it")
        return text


def needle(text: object, replacement: object = DEFAULT_REPLACEMENT) -> Needle:
    """The text to redact, refused by name (``text``, ``replacement``) when it is not a
    string, is blank, reads as fewer than :data:`MIN_TEXT_CHARS` characters (it would match
    nearly everything), is longer than :data:`MAX_TEXT_CHARS`, or when the replacement
    would hold it (a second redaction would then find it again).
    """
    if not isinstance(text, str):
        raise InvalidInput("text", f"must be a string, not {type(text).__name__}")
    if not isinstance(replacement, str):
        raise InvalidInput("replacement", f"must be a string, not {type(replacement).__name__}")
    if len(text) > MAX_TEXT_CHARS:
        raise InvalidInput("text", f"holds more than {MAX_TEXT_CHARS:,} characters")
    if len(replacement) > MAX_REPLACEMENT_CHARS:
        raise InvalidInput("replacement", f"holds more than {MAX_REPLACEMENT_CHARS} characters")
    view = _folded(stored_form(text)).view.strip()
    if not view:
        raise InvalidInput("text", "is blank: nothing to redact")
    if len(view) < MIN_TEXT_CHARS:
        raise InvalidInput(
            "text",
            f"reads as {len(view)} characters; at least {MIN_TEXT_CHARS} are needed, since a "
            "shorter text would be replaced in nearly every record",
        )
    if view in _folded(replacement).view:
        raise InvalidInput("replacement", "holds the text itself")
    return Needle(text, view, replacement)
