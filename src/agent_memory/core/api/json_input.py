r"""One strict reader of events: bounded in size, one meaning per key, numbers as written.

Every surface that takes an event reads it here: JSON text (a file, stdin) with
:func:`read_json` or :func:`read_json_stream`, and an event some runtime already parsed (a
Lambda's, an SDK caller's mapping) with :func:`check_document`. What the published JSON Schema
cannot say about JSON text is refused here, naming the field:

- an event larger than :data:`MAX_EVENT_BYTES` (EventBridge's limit for one event), counted on
  the text before it is parsed, or on its compact form once parsed;
- an object naming a key twice (``{"tenant_id": "victim", "tenant_id": "acme"}``: JSON leaves
  which one counts to the reader, so no reader may pick);
- an object with more than :data:`MAX_OBJECT_KEYS` keys (no object of an event has near as many;
  refused before a validator reports each unknown key; the published schema says so too);
- (once the event is validated, :func:`check_depth`) arrays and objects nested more than
  :data:`MAX_DEPTH` deep: an event's own fields nest eight, only a tool call's arguments, an
  annotation or a part's extra keys nest further, and a deeper value would exhaust a
  recursive reader (the JSON encoder's);
- a number a 64-bit float cannot hold as written: ``1e400`` (infinite), ``1e-400`` (not zero,
  but it reads as zero), ``NaN`` and ``Infinity`` (not JSON);
- a string holding a lone UTF-16 surrogate (``"\ud800"``), which is not Unicode text.

A value a Python caller built (the SDK's, an integration's) is read with :func:`check_value`,
which also refuses what no JSON text can be: nesting deeper than :data:`MAX_DEPTH`, a value
that holds itself, and objects that are not JSON values; it returns the value as plain JSON
data, so nothing after it runs the caller's code.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from datetime import date, datetime, time
from decimal import Decimal
from typing import IO, Any
from uuid import UUID

from agent_memory.core.model.errors import InvalidInput

# EventBridge's limit for one event (PutEvents entry): 256 KiB
# (https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-quotas.html). An event is at
# most this many bytes of UTF-8 JSON on every surface, so one event means the same locally and
# on AWS: counted as written for JSON text, in compact form for a parsed event.
MAX_EVENT_BYTES = 256 * 1024
# The contract's largest object has a dozen keys, EventBridge's envelope ten.
MAX_OBJECT_KEYS = 64
# Python refuses longer integer literals anyway (int_max_str_digits is 4,300); a float's range
# ends near 1.8e308, so no literal of more digits than this can be a number an event holds.
_MAX_INT_DIGITS = 400
# No event nests near as deep (a tool call's arguments sit at the sixth level); JSON text
# stops at the parser's own limit, a Python value at this one.
MAX_DEPTH = 64
# How many levels of a path nested past MAX_DEPTH its refusal names.
_DEEP_PATH_SHOWN = 8
# Values that are not JSON but have one text of their own (what ``str`` makes of them), which
# a validator takes for a date-time or keeps as text: exact types only, so no caller's method
# runs.
TEXT_SCALARS: tuple[type, ...] = (datetime, date, time, UUID, Decimal)

TOO_LARGE = (
    "is more than {limit:,} bytes of JSON; an event is at most {limit:,} bytes "
    "(EventBridge's limit for one event)"
)
NOT_FINITE = "must be a finite number"
OVERFLOW = "is beyond the range of a 64-bit float (it would read as infinity)"
UNDERFLOW = "is not zero but reads as zero in a 64-bit float (write 0, or a larger number)"
DUPLICATE = "is given twice in one object (JSON leaves which one counts undefined)"
SURROGATE = "is not Unicode text: it holds a lone surrogate (U+{code:04X})"
TOO_DEEP = "is nested deeper than {limit} levels"
CYCLE = "refers to itself: it is the same list or object as {where}, which holds it"
NOT_JSON = (
    "is an object of type {kind}, not a JSON value (a string, number, true, false, null, "
    "list or object)"
)
NOT_TEXT_KEY = "has a key of type {kind}; the keys of a JSON object are strings"


class EventTooLarge(InvalidInput):
    """An event larger than the bound; ``limit`` is the bound it passed, in bytes."""

    def __init__(self, limit: int) -> None:
        super().__init__("event", TOO_LARGE.format(limit=limit))
        self.limit = limit


class _Refused:
    """What the parser's hooks leave where the text is ambiguous; the walk names its path."""

    __slots__ = ("key", "message")

    def __init__(self, message: str, key: str | None = None) -> None:
        self.message = message
        self.key = key


def read_json(data: bytes | str, *, max_bytes: int = MAX_EVENT_BYTES) -> Any:
    """The JSON value of ``data``, read strictly; :class:`InvalidInput` naming the field.

    ``data`` is UTF-8 bytes or text. Its size is checked before anything is parsed:
    :class:`EventTooLarge` past ``max_bytes``.
    """
    if isinstance(data, str):
        # Every character is at least one byte: a long text is refused before it is encoded.
        if len(data) > max_bytes or len(data.encode("utf-8", "surrogatepass")) > max_bytes:
            raise EventTooLarge(max_bytes)
        text = data
    else:
        if len(data) > max_bytes:
            raise EventTooLarge(max_bytes)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidInput("event", "is not UTF-8 text") from None
    try:
        document = json.loads(
            text,
            object_pairs_hook=_object,
            parse_float=_float,
            parse_int=_int,
            parse_constant=_constant,
        )
    except json.JSONDecodeError as error:
        raise InvalidInput(
            "event", f"is not valid JSON (line {error.lineno}, column {error.colno})"
        ) from None
    except RecursionError:
        # No event nests more than a few levels; the parser's own limit is ~1,000.
        raise InvalidInput("event", "is nested too deeply to be an event") from None
    check_document(document, max_bytes=None)
    return document


def read_json_stream(stream: IO[bytes], *, max_bytes: int = MAX_EVENT_BYTES) -> Any:
    """The JSON value of a binary stream (a file, stdin), reading at most ``max_bytes + 1``
    bytes of it: a larger one is refused without being read whole.
    """
    data = stream.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise EventTooLarge(max_bytes)
    return read_json(data, max_bytes=max_bytes)


def check_document(document: object, *, max_bytes: int | None = MAX_EVENT_BYTES) -> None:
    """Refuse a parsed event that no JSON text could carry unambiguously, or a large one.

    Walks ``document`` once, without recursion, and stops at the first problem: an object of
    more than :data:`MAX_OBJECT_KEYS` keys, a key the strict reader found twice, a number that
    is not finite, a lone surrogate, a list or object that holds itself, or (with
    ``max_bytes``) more than ``max_bytes`` bytes of compact UTF-8 JSON, counted as it goes, so
    a huge event costs no more than its first ``max_bytes``. Raises :class:`InvalidInput`
    naming the field (``artifacts.facts[0]``).
    """
    _check(document, "", max_bytes=max_bytes, max_keys=MAX_OBJECT_KEYS, plain=False)


def check_value(
    value: object,
    *,
    field: str = "",
    max_bytes: int = MAX_EVENT_BYTES,
    max_keys: int | None = MAX_OBJECT_KEYS,
) -> Any:
    """``value``, which a Python caller built, as plain JSON data, checked as
    :func:`check_document` checks an event, and bounded further.

    Refused, with :class:`InvalidInput` naming the field (its path under ``field``): more than
    :data:`MAX_DEPTH` levels of lists and objects, a list or object that holds itself, a key
    that is not a string, and any object but a dict, list, tuple, str, int, float, bool, None
    or one of :data:`TEXT_SCALARS` (no method of it is called: a ``__str__`` that raises is
    refused like any other); also an integer a 64-bit float cannot hold, and more than
    ``max_bytes`` bytes (:class:`EventTooLarge`) or objects of more than ``max_keys`` keys, as
    :func:`check_document` refuses them. Walked once, without recursion: a value that shares
    parts costs the bytes it would have as JSON, at most ``max_bytes``.

    Returns a copy made of exact dicts, lists, strs, ints, floats, bools, Nones and
    :data:`TEXT_SCALARS` (a tuple becomes a list), for what reads it next.
    """
    return _check(value, field, max_bytes=max_bytes, max_keys=max_keys, plain=True)


def walk_value(
    value: object, field: str = "", *, sort_keys: bool = False
) -> Iterator[tuple[str, int | str | None, int, object]]:
    """The lists, objects and other values of ``value``, each with its path (under
    ``field``), its key (an index, an object's key, None for ``value`` itself) and its depth, in
    document order (with ``sort_keys``, an object's keys in order), one at a time: a walk
    stopped early costs what it visited. Raises :class:`InvalidInput` as :func:`check_value`
    does past :data:`MAX_DEPTH`, for a value that holds itself and for a key that is not a
    string; other values are yielded as they are (see :func:`plain_scalar`).
    """
    return _walk(value, field, max_depth=MAX_DEPTH, plain=True, sort_keys=sort_keys)


def plain_scalar(path: str, value: object) -> object:
    """``value``, which is not a list or an object, as an exact str, int, float, bool or None,
    or one of :data:`TEXT_SCALARS`; :class:`InvalidInput` naming ``path`` for any other object
    and for an integer a 64-bit float cannot hold. Calls no method of ``value``'s own class.
    """
    kind = type(value)
    if value is None or kind is bool or any(kind is text for text in TEXT_SCALARS):
        return value
    if issubclass(kind, str):
        return str.__str__(value)
    if issubclass(kind, float):
        return float.__float__(value)  # type: ignore[arg-type]
    if issubclass(kind, int):
        number = int.__int__(value)  # type: ignore[arg-type]
        try:
            float(number)
        except OverflowError:
            raise InvalidInput(path or "event", OVERFLOW) from None
        return number
    raise InvalidInput(path or "event", NOT_JSON.format(kind=kind.__name__))


def _check(
    document: object, field: str, *, max_bytes: int | None, max_keys: int | None, plain: bool
) -> Any:
    """The walk of :func:`check_document`, or (``plain``) of :func:`check_value`, which
    returns the value's plain copy.
    """
    size = 0
    copy = PlainCopy()
    max_depth = MAX_DEPTH if plain else None
    for path, key, depth, value in _walk(document, field, max_depth=max_depth, plain=plain):
        if type(value) is _Refused:
            at = _join(path, value.key) if value.key is not None else path
            raise InvalidInput(at or "event", value.message)
        kind = type(value)
        item: Any = value
        if issubclass(kind, dict):
            count = dict.__len__(value)  # type: ignore[arg-type]
            if max_keys is not None and count > max_keys:
                raise InvalidInput(
                    path or "event",
                    f"has {count:,} keys; an object of an event has at most {max_keys}",
                )
            # Braces, a colon per key and a comma between keys.
            keys = [_text_size(_join(path, k), k) + 1 for k in _keys(value, path, plain)]  # type: ignore[arg-type]
            size += 2 + sum(keys) + max(len(keys) - 1, 0)
            item = {}
        elif issubclass(kind, list | tuple):
            length = list.__len__(value) if issubclass(kind, list) else tuple.__len__(value)  # type: ignore[arg-type]
            size += 2 + max(length - 1, 0)
            item = []
        elif plain:
            item = plain_scalar(path, value)
            size += _scalar_size(path, item, max_bytes)
        elif isinstance(value, str | float):
            size += _scalar_size(path, value, max_bytes)
        else:
            # int, bool and None are as long in JSON as in Python (true/True, null/None).
            size += len(str(value))
        if max_bytes is not None and size > max_bytes:
            raise EventTooLarge(max_bytes)
        if plain:
            copy.add(depth, key, item)
    return copy.value


class PlainCopy:
    """A copy of a walked value, built from the walk's values in order (each with its depth
    and key): an empty list or object stands for each container, filled as the walk goes on.
    """

    def __init__(self) -> None:
        self.value: Any = None
        self._filling: list[Any] = []  # the copy's lists and objects being filled, by depth

    def add(self, depth: int, key: int | str | None, item: Any) -> None:
        """Put ``item`` where the walk found it."""
        if depth == 0:
            self.value = item
        elif isinstance(key, str):
            self._filling[depth - 1][key] = item
        else:
            self._filling[depth - 1].append(item)
        if isinstance(item, dict | list):
            del self._filling[depth:]
            self._filling.append(item)


def check_depth(value: object, path: str, depth: int) -> None:
    """Refuse ``value``, found at ``path`` as the ``depth``-th nested array or object of an
    event, when arrays and objects nest in it past :data:`MAX_DEPTH`; without recursion.
    """
    if depth > MAX_DEPTH and _is_container(value):
        raise InvalidInput(path or "event", TOO_DEEP.format(limit=MAX_DEPTH))
    for _ in _walk(value, path, max_depth=MAX_DEPTH + 1 - depth):
        pass


def _scalar_size(path: str, value: object, max_bytes: int | None) -> int:
    """Bytes of a plain value that is not a list or an object, as compact JSON."""
    if isinstance(value, str):
        # A text is at least a byte a character: a huge one is refused before it is encoded.
        if max_bytes is not None and len(value) > max_bytes:
            raise EventTooLarge(max_bytes)
        return _text_size(path, value)
    if value is None or isinstance(value, bool):
        return len(json.dumps(value))
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidInput(path or "event", NOT_FINITE)
        return len(repr(value))
    if isinstance(value, int):
        return len(repr(value))
    # One of TEXT_SCALARS, written as its text.
    return _text_size(path, str(value))


def _walk(
    document: object,
    field: str = "",
    *,
    max_depth: int | None = None,
    plain: bool = False,
    sort_keys: bool = False,
) -> Iterator[tuple[str, int | str | None, int, object]]:
    """Every value of ``document`` with its dotted path, its key and its depth, in document
    order; a container's children are reached one at a time, so a walk stopped early costs
    what it visited. A list or object met again inside itself is refused (it would be walked
    forever), and one deeper than ``max_depth`` levels.
    """
    yield field, None, 0, document
    if not _is_container(document):
        return
    stack = [(field, _children(document, field, plain, sort_keys))]
    # The lists and objects being walked (the current one and its ancestors): id -> path.
    holding = {id(document): field}
    held = [id(document)]
    while stack:
        path, children = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            del holding[held.pop()]
            continue
        key, value = child
        child_path = f"{path}[{key}]" if isinstance(key, int) else _join(path, key)
        depth = len(stack)
        yield child_path, key, depth, value
        if _is_container(value):
            if id(value) in holding:
                where = holding[id(value)] or "the whole value"
                raise InvalidInput(child_path, CYCLE.format(where=where))
            if max_depth is not None and depth >= max_depth:
                # Named by its first levels: the rest of a path this deep says nothing more.
                shown = stack[min(_DEEP_PATH_SHOWN, len(stack) - 1)][0] + "…"
                raise InvalidInput(shown, TOO_DEEP.format(limit=MAX_DEPTH))
            holding[id(value)] = child_path
            held.append(id(value))
            stack.append((child_path, _children(value, child_path, plain, sort_keys)))


def _is_container(value: object) -> bool:
    # By type, never isinstance: an object may claim any ``__class__``.
    return issubclass(type(value), dict | list | tuple)


def _children(
    container: Any, path: str, plain: bool, sort_keys: bool
) -> Iterator[tuple[int | str, object]]:
    # The base classes' own iteration: a subclass's ``items`` or ``__iter__`` is not called.
    if issubclass(type(container), dict):
        pairs = ((_key(k, path, plain), v) for k, v in dict.items(container))
        return iter(sorted(pairs, key=lambda pair: pair[0])) if sort_keys else pairs
    if issubclass(type(container), list):
        return enumerate(list.__iter__(container))
    return enumerate(tuple.__iter__(container))


def _key(key: object, path: str, plain: bool) -> str:
    if type(key) is str:
        return key
    if not plain:
        return str(key)
    if issubclass(type(key), str):
        return str.__str__(key)
    raise InvalidInput(path or "event", NOT_TEXT_KEY.format(kind=type(key).__name__))


def _keys(value: dict[Any, Any], path: str, plain: bool) -> list[str]:
    """The keys of an object as text; refused where two read as one (subclasses of str)."""
    keys = [_key(k, path, plain) for k in dict.keys(value)]
    if plain and len(set(keys)) < len(keys):
        seen: set[str] = set()
        for k in keys:
            if k in seen:
                raise InvalidInput(_join(path, k), DUPLICATE)
            seen.add(k)
    return keys


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _text_size(path: str, text: str) -> int:
    """UTF-8 bytes of ``text`` as a JSON string; :class:`InvalidInput` for a lone surrogate."""
    encoded = json.dumps(text, ensure_ascii=False)
    if text.isascii():
        return len(encoded)
    try:
        return len(encoded.encode("utf-8"))
    except UnicodeEncodeError as error:
        code = ord(encoded[error.start])
        raise InvalidInput(path or "event", SURROGATE.format(code=code)) from None


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any] | _Refused:
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            return _Refused(DUPLICATE, key)
        seen.add(key)
    return dict(pairs)


def _float(literal: str) -> float | _Refused:
    value = float(literal)
    if math.isinf(value):
        return _Refused(OVERFLOW)
    mantissa = literal.lower().partition("e")[0]
    if value == 0.0 and any(c in "123456789" for c in mantissa):
        return _Refused(UNDERFLOW)
    return value


def _int(literal: str) -> int | _Refused:
    if len(literal.lstrip("-")) > _MAX_INT_DIGITS:
        return _Refused(OVERFLOW)
    value = int(literal)
    try:
        float(value)
    except OverflowError:
        return _Refused(OVERFLOW)
    return value


def _constant(literal: str) -> _Refused:
    # NaN, Infinity and -Infinity: Python's reader takes them, JSON has no such numbers.
    del literal
    return _Refused(NOT_FINITE)


__all__ = [
    "MAX_DEPTH",
    "MAX_EVENT_BYTES",
    "MAX_OBJECT_KEYS",
    "TEXT_SCALARS",
    "EventTooLarge",
    "PlainCopy",
    "check_depth",
    "check_document",
    "check_value",
    "plain_scalar",
    "read_json",
    "read_json_stream",
    "walk_value",
]
