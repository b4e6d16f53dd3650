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
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from typing import IO, Any

from agent_memory.core.model.errors import InvalidInput

# EventBridge's limit for one event (PutEvents entry): 256 KiB
# (https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-quotas.html). An event is at
# most this many bytes of UTF-8 JSON on every surface, so one event means the same locally and
# on AWS: counted as written for JSON text, in compact form for a parsed event.
MAX_EVENT_BYTES = 256 * 1024
# The contract's largest object has a dozen keys, EventBridge's envelope ten.
MAX_OBJECT_KEYS = 64
# An event's own structure nests at most eight levels (event, messages, a message, its content,
# a part, a tool result's content, a part, its arguments); this leaves arguments room, and sets
# a bound no parser's recursion limit decides.
MAX_DEPTH = 64
# Python refuses longer integer literals anyway (int_max_str_digits is 4,300); a float's range
# ends near 1.8e308, so no literal of more digits than this can be a number an event holds.
_MAX_INT_DIGITS = 400

TOO_LARGE = (
    "is more than {limit:,} bytes of JSON; an event is at most {limit:,} bytes "
    "(EventBridge's limit for one event)"
)
NOT_FINITE = "must be a finite number"
OVERFLOW = "is beyond the range of a 64-bit float (it would read as infinity)"
UNDERFLOW = "is not zero but reads as zero in a 64-bit float (write 0, or a larger number)"
DUPLICATE = "is given twice in one object (JSON leaves which one counts undefined)"
SURROGATE = "is not Unicode text: it holds a lone surrogate (U+{code:04X})"
TOO_DEEP = f"nests more than {MAX_DEPTH} levels deep; an event nests at most {MAX_DEPTH}"


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
    is not finite, a lone surrogate, or (with ``max_bytes``) more than ``max_bytes`` bytes of
    compact UTF-8 JSON, counted as it goes, so a huge event costs no more than its first
    ``max_bytes``. Raises :class:`InvalidInput` naming the field (``artifacts.facts[0]``).
    """
    size = 0
    for path, value in _walk(document):
        if isinstance(value, _Refused):
            field = _join(path, value.key) if value.key is not None else path
            raise InvalidInput(field or "event", value.message)
        if isinstance(value, dict):
            if len(value) > MAX_OBJECT_KEYS:
                raise InvalidInput(
                    path or "event",
                    f"has {len(value):,} keys; an object of an event has at most {MAX_OBJECT_KEYS}",
                )
            # Braces, a colon per key and a comma between keys.
            keys = [_text_size(_join(path, str(k)), str(k)) + 1 for k in value]
            size += 2 + sum(keys) + max(len(keys) - 1, 0)
        elif isinstance(value, list | tuple):
            size += 2 + max(len(value) - 1, 0)
        elif isinstance(value, str):
            # A text is at least a byte a character: a huge one is refused before it is encoded.
            if max_bytes is not None and len(value) > max_bytes:
                raise EventTooLarge(max_bytes)
            size += _text_size(path, value)
        elif isinstance(value, float):
            if not math.isfinite(value):
                raise InvalidInput(path or "event", NOT_FINITE)
            size += len(repr(value))
        else:
            # int, bool and None are as long in JSON as in Python (true/True, null/None).
            size += len(str(value))
        if max_bytes is not None and size > max_bytes:
            raise EventTooLarge(max_bytes)


def check_depth(value: object, path: str, depth: int) -> None:
    """Refuse ``value``, found at ``path`` as the ``depth``-th nested array or object of an
    event, when arrays and objects nest in it past :data:`MAX_DEPTH`; without recursion.
    """
    stack: list[tuple[str, object, int]] = [(path, value, depth)]
    while stack:
        where, node, level = stack.pop()
        if not isinstance(node, dict | list | tuple):
            continue
        if level > MAX_DEPTH:
            raise InvalidInput(where, TOO_DEEP)
        for key, child in _children(node):
            stack.append(
                (f"{where}[{key}]" if isinstance(key, int) else _join(where, key), child, level + 1)
            )


def _walk(document: object) -> Iterator[tuple[str, object]]:
    """Every value of ``document`` with its dotted path, in document order; a container's
    children are reached one at a time, so a walk stopped early costs what it visited.
    """
    yield "", document
    stack: list[tuple[str, Iterator[tuple[int | str, object]]]] = []
    if isinstance(document, dict | list | tuple):
        stack.append(("", _children(document)))
    while stack:
        path, children = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            continue
        key, value = child
        child_path = f"{path}[{key}]" if isinstance(key, int) else _join(path, key)
        yield child_path, value
        if isinstance(value, dict | list | tuple):
            stack.append((child_path, _children(value)))


def _children(
    container: dict[Any, Any] | list[Any] | tuple[Any, ...],
) -> Iterator[tuple[int | str, object]]:
    if isinstance(container, dict):
        return ((str(k), v) for k, v in container.items())
    return enumerate(container)


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
    "EventTooLarge",
    "check_depth",
    "check_document",
    "read_json",
    "read_json_stream",
]
