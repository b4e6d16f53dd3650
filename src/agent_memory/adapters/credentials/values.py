"""What a value after a key-like name is: a secret, a word of prose, a placeholder or a reference.

Shared by the context rules (``password is ...`` in each language) and the shape rules (headers,
connection strings): the decision that a value is a credential rests here, in one place.
"""

from __future__ import annotations

import math
import re
from collections import Counter

# Characters a value ends before: sentence punctuation of the scripts we read, brackets, quotes.
# Not "!" or "?": passwords end in them more often than sentences around a password do.
TRAILING = ".,;:)]}>'\"`。、，！？；：」』》）】”’»"
# ``${API_KEY}``, ``<password>``, ``{{ token }}``, ``%s``, ``$TOKEN``, ``YOUR_API_KEY``, ``xxxx``,
# ``****``, ``...``, ``[REDACTED]``: names of a value, or a value withheld, not the value.
_PLACEHOLDER = re.compile(
    r"""
    .*(?:\$\{|\{\{|<[A-Za-z_-]+>|%\(?\w*\)?s\b|\[[A-Z_ ]+\]).*  # template syntax anywhere
    | \$\w+                              # a shell or env variable
    | [A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+      # an UPPER_SNAKE name (YOUR_API_KEY, DB_PASSWORD)
    | (?i:x+|\*+|\.+|_+|-+|\#+|•+|…+)    # a value withheld
    | (?i:(?:your|my|the|some|example|sample|dummy|fake|test|changeme|placeholder)[\w-]*)
    | (?i:none|null|nil|true|false|undefined|empty|required|optional|string|str|bytes|int)
    """,
    re.VERBOSE,
)
# A call, an index or a dotted name is a reference to a secret (``secretsmanager.Secret(``,
# ``os.environ["DB_PASSWORD"]``, ``self.key``); a version is a pin (``detect-secrets==1.5.0``).
_REFERENCE = re.compile(
    r"[A-Za-z_][\w.]*[(\[].*|[A-Za-z_]\w{0,31}(?:\.[A-Za-z_]\w{0,31})+|v?\d+(?:\.\d+)+(?:[-+.]\w+)?"
)
_CAMEL_PART = re.compile(r"[A-Z]?[a-z]{3,}")
# In a connection string a value ends before the next ``;Key=`` pair.
_NEXT_PAIR = re.compile(r";(?=[A-Za-z ]+=)")


def before_next_pair(value: str) -> str:
    """``value`` up to a ``;Key=`` that starts the next pair of a connection string."""
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
    if _PLACEHOLDER.fullmatch(value) or _REFERENCE.fullmatch(value):
        return True
    return len(set(value.lower())) <= 2  # ``aaaa``, ``1111``, ``abab``


def entropy(value: str) -> float:
    """Shannon entropy of ``value`` in bits per character."""
    counts = Counter(value)
    total = len(value)
    return -sum(n / total * math.log2(n / total) for n in counts.values())


def is_random(value: str, *, min_chars: int = 16) -> bool:
    """A machine-made token: long enough, of high entropy for its length, not hex-only of a
    digest's length, not an identifier (camel case, snake case, words).
    """
    if len(value) < min_chars or is_placeholder(value):
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
    # A random string of n symbols from a large alphabet has entropy near log2(n).
    if entropy(value) < min(4.0, math.log2(len(value)) - 0.8):
        return False
    return not is_identifier(value)


def is_identifier(value: str) -> bool:
    """Mostly words joined by case or separators (``ThisIsAnIdentifier``, ``max_retry_count``)."""
    covered = sum(len(m.group()) for m in _CAMEL_PART.finditer(value))
    return covered >= 0.6 * len(value)


def looks_secret(value: str) -> bool:
    """A value a person could have chosen as a password: not prose, not a placeholder, and with
    a digit, a symbol or inner capitals (``hunter2``, ``Tr0ub4dor&3``, ``correctHorse``).
    """
    if len(value) < 4 or is_placeholder(value) or is_plain_word(value):
        return False
    return any(not c.isalpha() for c in value) or value[1:] != value[1:].lower()
