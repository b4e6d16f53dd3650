"""What a value after a key-like name is: a secret, a word of prose, a placeholder or a reference.

Shared by the context rules (``password is ...`` in each language) and the shape rules (headers,
connection strings): the decision that a value is a credential rests here, in one place.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from itertools import pairwise

# Characters a value ends before: sentence punctuation of the scripts we read, brackets, quotes.
# Not "!" or "?": passwords end in them more often than sentences around a password do.
TRAILING = ".,;:)]}>'\"`。、，！？；：」』》）】”’»"
# ``${API_KEY}``, ``<password>``, ``{{ token }}``, ``%s``, ``$TOKEN``, ``YOUR_API_KEY``, ``xxxx``,
# ``****``, ``...``, ``[REDACTED]``: names of a value, or a value withheld, not the value.
_PLACEHOLDER = re.compile(
    r"""
    .*(?:\$\{|\{\{|\{\w+\}|<[A-Za-z_-]+>?$|<[A-Za-z_-]+>|%\(?\w*\)?s\b|\[[A-Z_ ]+\]).*  # template
    | \$\w+                              # a shell or env variable
    | [A-Z]{2}[A-Z0-9]*(?:[_-][A-Z][A-Z0-9]*)+  # an UPPER_SNAKE name (YOUR_API_KEY, DB_PASSWORD)
    | [A-Za-z][\w.-]*[-_]v?\d+(?:\.\d+)+  # an artifact and its version (jjwt-jackson-0.11.2)
    | (?i:x+|\*+|\.+|_+|-+|\#+|•+|…+)    # a value withheld
    | (?i:(?:your|my|the|some)[_-]?[a-z_-]*(?:key|token|secret|password|pass|pwd|here|value)\w*)
    | (?i:(?:example|sample|dummy|fake|changeme|placeholder)[\w-]*)
    | (?i:none|null|nil|true|false|undefined|empty|required|optional|string|str|bytes|int|any
      |object|dict|list|bool|float|secretstr|callable)
    | (?i:pass(?:word|wd)?|pwd|secret|token|api[_-]?key|key)  # the name itself (self.pwd = pwd)
    """,
    re.VERBOSE,
)
# A call, an index or a dotted name is a reference to a secret (``secretsmanager.Secret(``,
# ``os.environ["DB_PASSWORD"]``, ``self.key``); a version is a pin (``detect-secrets==1.5.0``).
_REFERENCE = re.compile(
    r"[A-Za-z_][\w.]*[(\[].*|[A-Za-z_]\w{0,31}(?:\.[A-Za-z_]\w{0,31})+|v?\d+(?:\.\d+)+(?:[-+.]\w+)?"
)
_MIN_VOWELS = 0.3
_SEPARATORS = re.compile(r"[_./\-\s]+")
_MIXED_SEGMENT = re.compile(r"(?=.*[A-Za-z])(?=.*\d)(?![A-Za-z]+\d{1,2}$).+")
_MIN_FILLER_CHECK = 8
_MIN_TOKEN_FILLER = 16
_PART = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_VOWEL = re.compile(r"[aeiouyAEIOUY]")
_CONSONANTS = re.compile(r"[^aeiouyAEIOUY]{4,}")
_THREE_CONSONANTS = re.compile(r"[b-df-hj-np-tv-xzB-DF-HJ-NP-TV-XZ]{3}")
# Where an identifier's words meet: a separator or a small letter before a capital.
_JOIN = re.compile(r"[_./\-\s]|[a-z][A-Z]|[A-Z][A-Z][a-z]")
_HEX = re.compile(r"[0-9a-fA-F-]+")
_UUID = re.compile(r"[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}")
# In a connection string or a query a value ends before the next ``;Key=`` or ``&key=`` pair.
_NEXT_PAIR = re.compile(r"[;&](?=[A-Za-z_ ]+=)")


def before_next_pair(value: str) -> str:
    """``value`` up to a ``;Key=`` or ``&key=`` that starts the next pair."""
    return _NEXT_PAIR.split(value, maxsplit=1)[0]


def is_plain_word(value: str) -> bool:
    """A word of prose in any script: letters only, lowercase or capitalised (``incorrecta``,
    ``Falsch``, ``неверный``, ``错误``), possibly hyphenated or with an apostrophe (``l'admin``).
    """
    letters = value.replace("-", "").replace("'", "").replace("’", "")
    if not letters.isalpha():
        return False
    return letters[1:] == letters[1:].lower()


def is_placeholder(value: str) -> bool:
    """A template, a variable, a withheld or example value, a type name: not a secret."""
    if _PLACEHOLDER.fullmatch(value):
        return True
    # A dotted name is a reference (``self.api_key``), unless its last part is machine-made
    # (``hvs.CAESIJ3k…``: a token's prefix and body).
    if _REFERENCE.fullmatch(value) and not _token_after_prefix(value):
        return True
    lowered = value.lower()
    if len(value) >= _MIN_FILLER_CHECK and len(set(lowered)) <= 2:  # ``aaaaaaaa``, ``abababab``
        return True
    if len(value) < _MIN_TOKEN_FILLER:
        return False  # a person's password may be as dull as it likes
    # A filler after a real prefix (``glpat-XXXXXXXXXXXX``, ``hf_xxxx...``): one character makes
    # up half of it. An alphabet (``ABC...XYZabc...xyz0123456789``) is runs of consecutive
    # characters throughout; a value only partly made of them (``abcdef123456Qx``) is a weak
    # secret, and a secret all the same.
    most = max(lowered.count(c) for c in set(lowered))
    return most * 2 >= len(value) or _in_sequences(lowered) == len(value)


def _in_sequences(value: str) -> int:
    """Characters in runs of 6 or more consecutive ones (``0123456789``, ``abcdefgh``)."""
    run = 1
    counted = 0
    for previous, current in pairwise(value):
        if ord(current) == ord(previous) + 1:
            run += 1
        else:
            counted += run if run >= 6 else 0
            run = 1
    return counted + (run if run >= 6 else 0)


def entropy(value: str) -> float:
    """Shannon entropy of ``value`` in bits per character."""
    counts = Counter(value)
    total = len(value)
    return -sum(n / total * math.log2(n / total) for n in counts.values())


def _token_after_prefix(value: str) -> bool:
    """``prefix.body`` whose body, a plain run of characters, is machine-made."""
    _, dot, body = value.rpartition(".")
    return bool(dot) and not set("([") & set(value) and is_random(body, min_chars=24)


def is_random(value: str, *, min_chars: int = 16, labelled: bool = False) -> bool:
    """A machine-made token: long enough, of high entropy for its alphabet and length, not an
    identifier (camel case, snake case, words). After a name that says it is a key
    (``labelled``) a lower entropy is enough: the name already says what it is.
    """
    if len(value) < min_chars or is_placeholder(value) or any(c.isspace() for c in value):
        return False
    classes = sum(
        (
            any(c.islower() for c in value),
            any(c.isupper() for c in value),
            any(c.isdigit() for c in value),
        )
    )
    if classes < 2:
        return False
    # A random string of n symbols has entropy near log2(n), capped by its alphabet: 4 bits for
    # hex, about 6 for base64.
    ceiling = (2.8 if labelled else 3.0) if _HEX.fullmatch(value) else (3.5 if labelled else 4.0)
    if entropy(value) < min(ceiling, math.log2(len(value)) - (1.2 if labelled else 0.8)):
        return False
    return not is_identifier(value)


def switches(value: str) -> float:
    """How often the kind of character (capital, small letter, digit, other) changes: about 0.6
    in a random base62 token, 0.4 in base36 or hex, 0.1 to 0.25 in an identifier.
    """
    kinds = [_kind(c) for c in value]
    changes = sum(a != b for a, b in pairwise(kinds))
    return changes / max(1, len(value) - 1)


def wordiness(value: str) -> float:
    """Share of ``value`` in runs of four or more letters that read as words (``KeyMeshing``):
    a vowel, and no three consonants in a row unless the run is a listed word (``Ixbj`` and
    ``IDGV`` of a random token are none; ``Strength`` is one).
    """
    return sum(len(p) for p in _PART.findall(value) if _reads_as_word(p)) / len(value)


def _reads_as_word(part: str) -> bool:
    if len(part) < 4 or not _VOWEL.search(part):
        return False
    return not _THREE_CONSONANTS.search(part) or _is_word(part)


def _kind(char: str) -> int:
    return 0 if char.isupper() else 1 if char.islower() else 2 if char.isdigit() else 3


def is_uuid(value: str) -> bool:
    """A UUID (8-4-4-4-12 hex digits)."""
    return _UUID.fullmatch(value) is not None


def is_identifier(value: str) -> bool:
    """A word, or words joined by case or separators, with few digits (``Department``,
    ``ThisIsAnIdentifier``, ``max_retry_count``, ``XMLGenerator``, ``subsegment1``). A token has
    no such joins, or parts no word has (``wz9450iu-iewm-jonx-eab8-0ibxwadddm8i``: ``ibxwadddm``).
    """
    # Digits stand apart (``DOC_Vector_5_32``) or end a word (``subsegment1``, ``Name12``);
    # in a token they fall anywhere (``VjUhhJbfog4rm3oj``).
    if any(_MIXED_SEGMENT.fullmatch(s) for s in _SEPARATORS.split(value)):
        return False
    parts = [p for p in _PART.findall(value) if p.isalpha()]
    if len(parts) == 1:
        digits = sum(c.isdigit() for c in value)
        return _is_word(parts[0]) and len(parts[0]) + digits >= len(value) - 1
    if not parts or not _JOIN.search(value) or sum(map(len, parts)) / len(parts) < 3.5:
        return False
    letters = "".join(parts)
    if len(_VOWEL.findall(letters)) < _MIN_VOWELS * len(letters):
        return False  # words are a third vowels or more; random letters a quarter
    long_parts = [p for p in parts if len(p) >= 3]
    acronyms = [p for p in long_parts if p.isupper() and len(p) <= 4]
    words = [p for p in long_parts if _is_word(p)]
    # An acronym (XML, HTTP) stands beside words, not for most of the value.
    return len(words) + min(len(acronyms), len(words)) >= 0.8 * len(long_parts)


def _is_word(part: str) -> bool:
    return (
        (not part.isupper() or len(part) > 4)
        and _VOWEL.search(part) is not None
        and _CONSONANTS.search(part) is None
    )


def looks_secret(value: str) -> bool:
    """A value a person could have chosen as a password: not prose, not a placeholder, and with
    a digit, a symbol or inner capitals (``hunter2``, ``Tr0ub4dor&3``, ``correctHorse``).
    """
    if len(value) < 4 or is_placeholder(value) or is_plain_word(value):
        return False
    return any(not c.isalpha() for c in value) or value[1:] != value[1:].lower()
