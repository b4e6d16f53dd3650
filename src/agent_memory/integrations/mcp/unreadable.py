"""Requests the stdio transport could not read, answered instead of dropped.

The MCP SDK's stdio transport drops a line it cannot read with a debug log: the host waits for an
answer that never comes. Here a request it could not parse (JSON nested deeper than its parser
goes, or text that is not JSON) is answered with a JSON-RPC error under the request's id, found
by scanning the line's top-level keys without parsing their values (no depth costs recursion).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from types import TracebackType
from typing import Any, Self

import anyio
from mcp.shared.message import SessionMessage
from mcp_types import INVALID_PARAMS, PARSE_ERROR, ErrorData, JSONRPCError
from pydantic import ValidationError

from agent_memory.core.api.json_input import MAX_DEPTH

__all__ = ["AnsweringReader", "refusal", "request_id"]

# The standard library's reader of one JSON string (its end and its text), typed.
scanstring: Callable[[str, int], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]
_SPACE = re.compile(r"[ \t\n\r]*")
_SCALAR = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null")
_BRACKET_OR_QUOTE = re.compile(r'["\[\]{}]')


class _Unscannable(Exception):
    """The text is not a JSON object whose keys can be told apart."""


def request_id(line: str) -> int | str | None:
    """The id of the JSON-RPC request ``line`` holds, read without parsing the rest: None for a
    notification, a response, or text that is not a JSON object.
    """
    try:
        keys = _top_level(line)
    except (_Unscannable, ValueError, IndexError):
        return None
    found = keys.get("id")
    if "method" not in keys or type(found) not in (int, str):
        return None
    return found  # type: ignore[return-value]


def refusal(error: Exception) -> tuple[int, str] | None:
    """The JSON-RPC error code and message for a line the transport refused with ``error``
    (None for an error of another kind).
    """
    if not isinstance(error, ValidationError) or error.error_count() == 0:
        return None
    first = error.errors()[0]
    if first["type"] != "json_invalid":
        # JSON, but not a JSON-RPC message: the SDK's error holds the part at fault, not the
        # line, so no id can be found for an answer.
        return None
    if "recursion limit" in str(first["msg"]):
        return INVALID_PARAMS, (
            f"the request is nested deeper than the server reads; a tool's arguments are "
            f"at most {MAX_DEPTH} levels deep"
        )
    return PARSE_ERROR, f"Parse error: {first['msg']}"


class AnsweringReader:
    """The transport's read stream, less the lines it could not read: each request among them
    is answered on ``write_stream`` with a JSON-RPC error, so the host is not left waiting.
    """

    def __init__(self, inner: Any, write_stream: Any) -> None:
        self._inner = inner
        self._write = write_stream

    @property
    def last_context(self) -> Any:
        """The sender's context of the last item (the inner stream's)."""
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> SessionMessage | Exception:
        """The next message; an unreadable request is answered and skipped."""
        while True:
            item: SessionMessage | Exception = await self._inner.receive()
            if not isinstance(item, Exception):
                return item
            answer = _answer(item)
            if answer is None:
                return item
            await self._write.send(SessionMessage(answer))

    async def aclose(self) -> None:
        """Close the inner stream."""
        await self._inner.aclose()

    def __aiter__(self) -> Self:
        return self

    async def __anext__(self) -> SessionMessage | Exception:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc_val: BaseException | None,
        exc_tb: TracebackType | None,
    ) -> bool | None:
        await self.aclose()
        return None


def _answer(error: Exception) -> JSONRPCError | None:
    refused = refusal(error)
    if refused is None or not isinstance(error, ValidationError):
        return None
    line = error.errors()[0].get("input")
    found = request_id(line) if isinstance(line, str) else None
    if found is None:
        return None
    code, message = refused
    return JSONRPCError(jsonrpc="2.0", id=found, error=ErrorData(code=code, message=message))


def _top_level(text: str) -> dict[str, object]:
    """The top-level keys of a JSON object's text; only ``id``'s value is read, as a scalar."""
    i = _space(text, 0)
    if text[i] != "{":
        raise _Unscannable
    keys: dict[str, object] = {}
    i = _space(text, i + 1)
    if text[i] == "}":
        return keys
    while True:
        if text[i] != '"':
            raise _Unscannable
        key, i = scanstring(text, i + 1)
        i = _space(text, i)
        if text[i] != ":":
            raise _Unscannable
        i = _space(text, i + 1)
        start = i
        i = _skip(text, i)
        keys[key] = json.loads(text[start:i]) if key == "id" and text[start] not in "[{" else None
        i = _space(text, i)
        if text[i] == "}":
            return keys
        if text[i] != ",":
            raise _Unscannable
        i = _space(text, i + 1)


def _skip(text: str, i: int) -> int:
    """The end of the JSON value at ``i``, found by counting brackets outside strings."""
    if text[i] == '"':
        return scanstring(text, i + 1)[1]
    if text[i] not in "[{":
        match = _SCALAR.match(text, i)
        if match is None:
            raise _Unscannable
        return match.end()
    depth = 0
    while True:
        found = _BRACKET_OR_QUOTE.search(text, i)
        if found is None:
            raise _Unscannable
        i = found.start()
        mark = text[i]
        if mark == '"':
            i = scanstring(text, i + 1)[1]
            continue
        depth += 1 if mark in "[{" else -1
        i += 1
        if depth == 0:
            return i


def _space(text: str, i: int) -> int:
    return _SPACE.match(text, i).end()  # type: ignore[union-attr]
