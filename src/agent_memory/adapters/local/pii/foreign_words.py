"""Ordinary words of languages other than English, read lazily from ``pyspellchecker``.

pyspellchecker (MIT) ships word-frequency lists built from OpenSubtitles (Hermit Dave's
FrequencyWords, CC BY-SA 4.0); nothing derived from them is stored in this repository. A
language's list is read the first time a text in that language is seen (a few hundred
milliseconds), kept to its ``TOP_WORDS`` most frequent words, and shared read-only between
threads. Subtitles speak names too ("maría", "иван"), so every listed name is taken out.
"""

from __future__ import annotations

import gzip
import json
import threading
from collections.abc import Callable
from importlib import resources

from agent_memory.adapters.local.pii.lexicon import fold

LANGUAGES = ("es", "pt", "fr", "it", "de", "nl", "ru")
TOP_WORDS = 40_000
# The most frequent words of a language are words even where they are also a surname ("ayer").
ALWAYS_WORDS = 2_000

_lock = threading.Lock()
_loaded: dict[str, frozenset[str]] = {}


def ordinary_words(lang: str, is_name: Callable[[str], bool]) -> frozenset[str]:
    """The folded ordinary words of ``lang`` (empty for a language without a list), less the
    words ``is_name`` says are names.
    """
    if lang not in LANGUAGES:
        return frozenset()
    with _lock:
        known = _loaded.get(lang)
        if known is None:
            known = _loaded[lang] = _read(lang, is_name)
        return known


def _read(lang: str, is_name: Callable[[str], bool]) -> frozenset[str]:
    try:
        data = resources.files("spellchecker").joinpath("resources", f"{lang}.json.gz")
        counts: dict[str, int] = json.loads(gzip.decompress(data.read_bytes()))
    except (ModuleNotFoundError, FileNotFoundError):
        return frozenset()
    ranked = [fold(w) for w in sorted(counts, key=counts.__getitem__, reverse=True)[:TOP_WORDS]]
    kept = {w for n, w in enumerate(ranked) if n < ALWAYS_WORDS or not is_name(w)}
    return frozenset(w for w in kept if w.isalpha() and len(w) >= 2)
