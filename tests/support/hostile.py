"""Values no JSON text can be, built without recursion, and a bound on how long a test may run.

Each hostile value comes with what its refusal must say: nested past the 64 levels an event may
have, holding itself (through dicts or lists, at any depth), or holding an object that is not a
JSON value (one whose ``__str__`` or ``__repr__`` raises or recurses, or whose ``__eq__``,
``__hash__`` and ``__iter__`` do).
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType
from typing import Any

from hypothesis import strategies as st

from agent_memory.core.api.json_input import MAX_DEPTH

TOO_DEEP = f"is nested deeper than {MAX_DEPTH} levels"
CYCLE = "refers to itself"
NOT_JSON = "not a JSON value"

# JSON values of a few levels, as an agent's tool arguments are.
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**53), 2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)


class Hung(Exception):
    """The code under test ran past its bound (it would have hung)."""


@contextmanager
def bounded(seconds: float) -> Iterator[None]:
    """Raise :class:`Hung` in the main thread if the block runs longer than ``seconds``: a bound
    on a hang, not a timed assertion (a passing block is nowhere near it).
    """

    def expire(signum: int, frame: FrameType | None) -> None:
        raise Hung(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def nested(levels: int, shape: list[bool], key: str = "k") -> Any:
    """``levels`` lists and objects, one inside the other (``shape[i % len(shape)]``: an object
    at level i), the innermost holding 1; built without recursion.
    """
    value: Any = 1
    for level in reversed(range(levels)):
        value = {key: value} if shape[level % len(shape)] else [value]
    return value


class RaisingStr:
    """An object whose text cannot be had: ``str`` and ``repr`` raise."""

    def __str__(self) -> str:
        raise RuntimeError("no text for you")

    def __repr__(self) -> str:
        raise RuntimeError("no repr for you")


class RecursingStr:
    """An object whose ``str`` and ``repr`` never return (each calls itself)."""

    def __str__(self) -> str:
        return str(self)

    def __repr__(self) -> str:
        return repr(self)


class Treacherous:
    """An object that raises whatever is asked of it: equality, hashing, iteration, length."""

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no equality")

    def __hash__(self) -> int:
        raise RuntimeError("no hash")

    def __iter__(self) -> Iterator[Any]:
        raise RuntimeError("no iteration")

    def __len__(self) -> int:
        raise RuntimeError("no length")

    def __str__(self) -> str:
        raise RuntimeError("no text")


class LyingDict(dict[str, Any]):
    """A dict whose own methods lie: its items never end, its length raises."""

    def items(self) -> Any:
        while True:
            yield "again", self

    def __iter__(self) -> Iterator[str]:
        while True:
            yield "again"

    def __len__(self) -> int:
        raise RuntimeError("no length")


HOSTILE_OBJECTS = [RaisingStr, RecursingStr, Treacherous, object, set, bytes, complex]


@dataclass(frozen=True)
class Hostile:
    """A value placed in a JSON value, and what its refusal says."""

    value: Any
    message: str
    description: str


@st.composite
def with_cycle(draw: st.DrawFn) -> Hostile:
    """A JSON value in which a list or object holds one of its ancestors (or itself), at a
    random place: through dicts, lists or both.
    """
    levels = draw(st.integers(1, 8))
    shape = draw(st.lists(st.booleans(), min_size=1, max_size=levels))
    root = nested(levels, shape)
    # The containers from the root down.
    chain = [root]
    while isinstance(chain[-1], dict | list):
        inner = chain[-1]["k"] if isinstance(chain[-1], dict) else chain[-1][0]
        if not isinstance(inner, dict | list):
            break
        chain.append(inner)
    holder = draw(st.integers(0, len(chain) - 1))
    target = chain[draw(st.integers(0, holder))]
    container = chain[holder]
    if isinstance(container, dict):
        container[draw(st.text(min_size=1, max_size=5).filter(lambda k: k != "k"))] = target
    else:
        container.insert(draw(st.integers(0, len(container))), target)
    return Hostile(root, CYCLE, f"a cycle from level {holder + 1}")


@st.composite
def too_deep(draw: st.DrawFn, room: int = MAX_DEPTH) -> Hostile:
    """Lists and objects nested just past ``room`` levels, or far past them."""
    levels = draw(st.sampled_from([room + 1, room + 2, room + 5, 255, 3_000, 10_000]))
    shape = draw(st.lists(st.booleans(), min_size=1, max_size=6))
    return Hostile(nested(levels, shape), TOO_DEEP, f"{levels} levels")


@st.composite
def holding_an_object(draw: st.DrawFn) -> Hostile:
    """A JSON value with an object that is not a JSON value at a random leaf."""
    kind = draw(st.sampled_from(HOSTILE_OBJECTS))
    instance = kind() if kind is not complex else complex(1, 2)
    levels = draw(st.integers(0, 6))
    shape = draw(st.lists(st.booleans(), min_size=1, max_size=4))
    value: Any = nested(levels, shape) if levels else 1
    if levels == 0:
        return Hostile({"x": instance}, NOT_JSON, kind.__name__)
    holder: Any = value
    while True:
        inner = holder["k"] if isinstance(holder, dict) else holder[0]
        if not isinstance(inner, dict | list):
            break
        holder = inner
    if isinstance(holder, dict):
        holder["k"] = instance
    else:
        holder[0] = instance
    return Hostile(value, NOT_JSON, kind.__name__)


def hostile_values(room: int = MAX_DEPTH) -> st.SearchStrategy[Hostile]:
    """Any of the hostile values; ``room``: the levels left where the value is placed."""
    return st.one_of(too_deep(room), with_cycle(), holding_an_object())
