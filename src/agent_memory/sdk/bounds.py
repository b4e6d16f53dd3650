"""Caller data, read within bounds: every value the SDK or an integration walks comes here first.

A caller's value (an event's fields, a tool call's arguments, a store item) is walked once,
without recursion, before anything else reads it: nested past
:data:`~agent_memory.core.api.json_input.MAX_DEPTH` levels, holding itself, larger than its
bound, or holding an object that is not a JSON value, it is refused with an
:class:`~agent_memory.sdk.errors.InvalidInputError` naming the field. The bounds are the core's
(``core.api.json_input``): one definition for JSON text, Lambda events and Python callers.
"""

from __future__ import annotations

import json
from typing import Any

from agent_memory.core.api.json_input import (
    MAX_EVENT_BYTES,
    MAX_OBJECT_KEYS,
    TEXT_SCALARS,
    PlainCopy,
    check_value,
    plain_scalar,
    walk_value,
)
from agent_memory.core.model.errors import InvalidInput
from agent_memory.sdk.errors import invalid

__all__ = ["MAX_TERMS", "json_text", "listed", "plain", "plain_terms", "text_of"]

# The most values a search's terms (a filter) may hold: far more than any filter has, and a
# bound on a walk that no byte count bounds (a filter is compared, not stored).
MAX_TERMS = 10_000


def plain(
    value: object,
    field: str = "",
    *,
    max_bytes: int = MAX_EVENT_BYTES,
    max_keys: int | None = MAX_OBJECT_KEYS,
) -> Any:
    """``value`` as plain JSON data (exact dicts, lists, strs, numbers), checked within bounds
    (:func:`~agent_memory.core.api.json_input.check_value`); :class:`InvalidInputError` naming
    the field under ``field`` (an ``EventTooLarge`` past ``max_bytes``).
    """
    try:
        return check_value(value, field=field, max_bytes=max_bytes, max_keys=max_keys)
    except InvalidInput as error:
        raise invalid(error) from None


def plain_terms(value: object, field: str) -> Any:
    """Terms a search compares items with (a filter), as plain data: refused as :func:`plain`
    refuses a value (nested past ``MAX_DEPTH``, holding itself, a key that is not a string, an
    object that is not a JSON value), except that any float is taken (a filter may compare
    with infinity or NaN) and no byte bound applies: at most :data:`MAX_TERMS` values.
    """
    copy = PlainCopy()
    try:
        for count, (path, key, depth, item) in enumerate(walk_value(value, field)):
            if count >= MAX_TERMS:
                raise InvalidInput(field, f"holds more than {MAX_TERMS:,} values")
            if issubclass(type(item), dict):
                made: Any = {}
            elif issubclass(type(item), list | tuple):
                made = []
            else:
                made = plain_scalar(path, item)
            copy.add(depth, key, made)
    except InvalidInput as error:
        raise invalid(error) from None
    return copy.value


def json_text(value: object, field: str, *, limit: int) -> str:
    """``value`` as ``json.dumps(value, sort_keys=True, default=str)`` writes it, cut at
    ``limit`` characters: only what is kept is walked, so a value of any size costs at most
    ``limit``. Refused as :func:`plain` refuses, for what lies within the cut: more than
    ``MAX_DEPTH`` levels, a value that holds itself, a key that is not a string, an object that
    is not a JSON value (``TEXT_SCALARS`` are written as their text, as ``default=str`` wrote
    them).
    """
    parts: list[str] = []
    length = 0
    # The closing bracket of each list or object being written, and whether it has a member.
    open_: list[list[Any]] = []

    def add(text: str) -> None:
        nonlocal length
        parts.append(text)
        length += len(text)

    try:
        for path, key, depth, item in walk_value(value, field, sort_keys=True):
            while len(open_) > depth:
                add(open_.pop()[0])
            if open_:
                if open_[-1][1]:
                    add(", ")
                open_[-1][1] = True
                if isinstance(key, str):
                    add(json.dumps(key[:limit]) + ": ")
            if issubclass(type(item), dict):
                add("{")
                open_.append(["}", False])
            elif issubclass(type(item), list | tuple):
                add("[")
                open_.append(["]", False])
            else:
                add(_scalar_json(path, item, limit))
            if length >= limit:
                break
        else:
            while open_:
                add(open_.pop()[0])
    except InvalidInput as error:
        raise invalid(error) from None
    return "".join(parts)[:limit]


def text_of(value: object, field: str) -> str:
    """A value that must be a string, as an exact ``str``; :class:`InvalidInputError` naming
    ``field`` for anything else (no ``__str__`` of the caller's is called).
    """
    if not issubclass(type(value), str):
        raise invalid(InvalidInput(field, f"must be a string, not {type(value).__name__}"))
    return str.__str__(value)


def listed(value: object, field: str, what: str) -> list[Any]:
    """The members of a list or a tuple, read as the base class reads them (no ``__iter__`` of
    a subclass runs); any other value, even an iterable (it may never end), is refused with
    :class:`InvalidInputError` naming ``field``: it "must be ``what``".
    """
    if issubclass(type(value), list):
        return list(list.__iter__(value))  # type: ignore[arg-type]
    if issubclass(type(value), tuple):
        return list(tuple.__iter__(value))  # type: ignore[arg-type]
    raise invalid(InvalidInput(field, f"must be {what}"))


def _scalar_json(path: str, value: object, limit: int) -> str:
    scalar = plain_scalar(path, value)
    if any(type(scalar) is kind for kind in TEXT_SCALARS):
        scalar = str(scalar)
    if isinstance(scalar, str) and len(scalar) > limit:
        # Its JSON is longer than the cut still; the rest is not kept.
        scalar = scalar[:limit]
    return json.dumps(scalar)
