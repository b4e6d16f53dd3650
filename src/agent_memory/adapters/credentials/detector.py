"""The credential detector: every source of credential finds behind the ``PiiDetector`` port."""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass

from agent_memory.core.ports import PiiEntity
from agent_memory.core.privacy.scrubbing import check_chunk

from . import context, library, rules, shapes
from .values import is_placeholder

DEFAULT_MAX_CHUNK_CHARS = 100_000
# When sources overlap, the span is their union and the label a provider's (``GITHUB_TOKEN``)
# if any, else the first of these (``password: hunter2`` stays a ``SECRET`` assignment).
_GENERIC = ("SECRET", "PIN", "PASSWORD")
# ``public_key = "..."``, ``publishable key: ...``, ``pub_token=...``: the name right before.
_PUBLIC_NAME = re.compile(
    r"(?i)\bpub(?:lic|lishable)?[\s_-]?(?:api[\s_-]?)?(?:key|token)s?[\"'`]?\s*(?:[:=]|is)?\s*[\"'`]?$"
)
_PUBLIC_REACH = 40


@dataclass(frozen=True, slots=True)
class _Loaded:
    library: library.Library
    rules: rules.RuleSet


class CredentialDetector:
    """A ``PiiDetector`` for credentials, by what they are rather than whose they are.

    - known token shapes and prefixes: Samsung CredSweeper's rule set (``rules``), read from the
      installed package, and Yelp detect-secrets' plugins (``library``);
    - a value after a key-like name in any of 14 languages ("password", "mot de passe",
      "contraseña", "Passwort", "пароль", "パスワード", "密码", ...) that is no word of prose
      (``context``);
    - HTTP auth headers, connection strings of any scheme, an unlabeled 40-character AWS secret
      key (``shapes``); private key blocks and JWTs whole (``library``).

    Entity types: ``PASSWORD``, ``SECRET``, ``PIN``, ``PRIVATE_KEY``, ``JWT``, ``AWS_ACCESS_KEY``,
    ``AWS_SECRET_KEY`` and one per provider (``GITHUB_TOKEN``, ``ANTHROPIC_API_KEY``, ...). The
    libraries are loaded on the first ``detect``: commands that write nothing do not pay for them.
    """

    def __init__(self, *, max_chunk_chars: int = DEFAULT_MAX_CHUNK_CHARS) -> None:
        if max_chunk_chars < 1:
            raise ValueError("max_chunk_chars must be positive")
        self._max_chunk_chars = max_chunk_chars
        self._loaded: _Loaded | None = None
        self._lock = threading.Lock()

    @property
    def max_chunk_chars(self) -> int:
        """Longest text one ``detect`` call accepts."""
        return self._max_chunk_chars

    def detect(self, text: str) -> list[PiiEntity]:
        """Credential spans in ``text``, one per credential, in order."""
        check_chunk(text, self._max_chunk_chars)
        loaded = self._load()
        return _merged(
            text,
            [
                *library.finds(text, loaded.library),
                *rules.finds(text, loaded.rules),
                *context.finds(text),
                *shapes.finds(text),
            ],
        )

    def _load(self) -> _Loaded:
        with self._lock:
            if self._loaded is None:
                self._loaded = _Loaded(library.load(), rules.load())
            return self._loaded


def _merged(text: str, found: list[PiiEntity]) -> list[PiiEntity]:
    """Overlapping finds as one entity each: their union, under the most specific label. A
    one-line find that is a placeholder (``glpat-XXXXXXXX``, ``YOUR_API_KEY``), or the value of
    a public key (``public_key = "..."``: published, not kept secret), is left.
    """
    merged: list[PiiEntity] = []
    kept = (e for e in found if not _left(text, e))
    for entity in sorted(kept, key=lambda e: (e.begin, -e.end)):
        if merged and entity.begin < merged[-1].end:
            last = merged[-1]
            label = min(last.type, entity.type, key=_rank)
            merged[-1] = PiiEntity(label, last.begin, max(last.end, entity.end), 1.0)
        else:
            merged.append(entity)
    return merged


def _rank(label: str) -> int:
    return _GENERIC.index(label) + 1 if label in _GENERIC else 0


def _left(text: str, entity: PiiEntity) -> bool:
    value = text[entity.begin : entity.end]
    if "\n" in value:
        return False  # a key block
    before = text[max(0, entity.begin - _PUBLIC_REACH) : entity.begin]
    return is_placeholder(value) or _PUBLIC_NAME.search(before) is not None
