"""Building a RunFinished event from what the caller passed, validated before it goes anywhere."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from agent_memory.core.api.contracts import RunFinishedEvent, run_from_model, unwrap_event, validate
from agent_memory.core.api.json_input import (
    MAX_EVENT_BYTES,
    MAX_OBJECT_KEYS,
    EventTooLarge,
    check_value,
)
from agent_memory.core.api.message_shapes import plain_messages
from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.model.models import RunFinished
from agent_memory.sdk.errors import EventTooLargeError, invalid

DETAIL_TYPE = "RunFinished"
DEFAULT_SOURCE = "agent-memory.sdk"
# PutEvents' limit for one entry, counted as EventBridge counts it (see entry_size).
MAX_ENTRY_BYTES = 256 * 1024
# The detail is the consolidation's execution input, which Step Functions caps at 256 KiB of
# UTF-8 (its limits-overview page), as the core caps every event (MAX_EVENT_BYTES): a detail
# leaves 1 KiB of that for what travels with it (its source under principal-tag tenancy, the
# EventBridge envelope when the event is kept or replayed whole). Both backends hold it.
MAX_DETAIL_BYTES = MAX_EVENT_BYTES - 1024
# How far a detail refused as too large is measured for its error (a bound on that walk).
_MEASURED_BYTES = 2 * MAX_EVENT_BYTES


@dataclass(frozen=True, slots=True)
class ValidatedRun:
    """A RunFinished event the SDK validated, in its two forms: ``detail``, the JSON sent to the
    bus (and kept for replay if the run fails), and ``run``, the domain record the embedded
    memory consolidates as it is, without reading the detail again.
    """

    detail: dict[str, Any]
    run: RunFinished

    def with_receipt(self, receipt: str) -> ValidatedRun:
        """The run with this serving receipt on its procedure feedback, in both forms."""
        feedback = self.run.procedure_feedback
        if feedback is None:
            raise ValueError("the run reports no procedure feedback")
        detail = {**self.detail, "procedure_feedback": {**self.detail["procedure_feedback"]}}
        detail["procedure_feedback"]["receipt"] = receipt
        run = replace(self.run, procedure_feedback=replace(feedback, receipt=receipt))
        return ValidatedRun(detail, run)


def run_finished(event: Mapping[str, Any] | None, fields: Mapping[str, Any]) -> ValidatedRun:
    """A RunFinished event validated once: its detail as plain JSON, and its domain record.

    ``event`` is a detail (or a whole EventBridge event), ``fields`` keyword fields that are
    added to it or override it. Raises :class:`InvalidInputError` naming the first bad field
    (an object of more than 64 keys is refused before any field is validated, and so is what
    no JSON can be: nesting past 64 levels, a value that holds itself, an object that is not a
    JSON value), and :class:`EventTooLargeError` for a detail past :data:`MAX_DETAIL_BYTES`, on
    either backend, so an event the SDK accepts locally is one it can send. Only the fields
    given are kept, with date-times as RFC 3339 strings.
    """
    try:
        model = validate(RunFinishedEvent, plain_detail(event, fields))
    except EventTooLarge:
        raise EventTooLargeError(_measured(event, fields), MAX_DETAIL_BYTES) from None
    except InvalidInput as error:
        raise invalid(error) from None
    detail: dict[str, Any] = model.model_dump(mode="json", exclude_unset=True)
    size = len(_compact(detail).encode("utf-8"))
    if size > MAX_DETAIL_BYTES:
        raise EventTooLargeError(size, MAX_DETAIL_BYTES)
    return ValidatedRun(detail, run_from_model(model))


def plain_detail(
    event: object, fields: Mapping[str, Any], *, max_bytes: int = MAX_EVENT_BYTES
) -> dict[str, Any]:
    """The detail of ``event`` (a detail, or a whole EventBridge event) with ``fields`` over
    it, as plain JSON data within the event's bounds (``json_input.check_value``: at most
    ``max_bytes``, walked once before anything reads it); :class:`InvalidInput` naming the
    field.
    """
    fields = (
        {**fields, "messages": plain_messages(fields["messages"])}
        if "messages" in fields
        else fields
    )
    event = _with_plain_messages(event)
    if event is None:
        base: object = {}
    elif issubclass(type(event), dict):
        base = unwrap_event(check_value(event, max_bytes=max_bytes))
    elif isinstance(event, Mapping):
        base = unwrap_event(check_value(_read_mapping(event), max_bytes=max_bytes))
    else:
        raise InvalidInput("event", "must be a JSON object")
    if not isinstance(base, dict):
        raise InvalidInput("detail", "must be a JSON object")
    merged: dict[str, Any] = check_value({**base, **fields}, max_bytes=max_bytes)
    return merged


def _with_plain_messages(data: object) -> object:
    """An event (or its detail) with messages given as objects (LangChain's, OpenAI's,
    Anthropic's) as the plain data they dump to, which the contract reads in their own shapes;
    anything else as it is. Only a dict's own methods are run.
    """
    if not issubclass(type(data), dict):
        return data
    messages = dict.get(data, "messages")  # type: ignore[call-overload]
    detail = dict.get(data, "detail")  # type: ignore[call-overload]
    if not isinstance(messages, list | tuple) and not issubclass(type(detail), dict):
        return data
    copy: dict[Any, Any] = dict.copy(data)  # type: ignore[arg-type]
    if isinstance(messages, list | tuple):
        copy["messages"] = plain_messages(messages)
    if issubclass(type(detail), dict):
        copy["detail"] = _with_plain_messages(detail)
    return copy


def _measured(event: object, fields: Mapping[str, Any]) -> int | None:
    """The size of a detail refused as too large, for its error: measured up to
    ``_MEASURED_BYTES``, past which it is only known to be too large (None).
    """
    try:
        detail = plain_detail(event, fields, max_bytes=_MEASURED_BYTES)
    except InvalidInput:
        return None
    return len(json.dumps(detail, ensure_ascii=False, separators=(",", ":"), default=str).encode())


def _read_mapping(event: Mapping[str, Any]) -> dict[str, Any]:
    """A mapping other than a dict, read into one: at most one key more than an object may
    have (check_value refuses that one), and refused, not raised, if reading it fails.
    """
    copy: dict[str, Any] = {}
    try:
        for key in event:
            if len(copy) > MAX_OBJECT_KEYS:
                break
            copy[key] = event[key]
    except Exception as error:
        raise InvalidInput(
            "event", f"could not be read as a mapping ({type(error).__name__})"
        ) from None
    return copy


def _compact(detail: Mapping[str, Any]) -> str:
    # As EventBridge counts it; never NaN or Infinity, which are not JSON.
    return json.dumps(detail, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def entry_size(entry: Mapping[str, Any]) -> int:
    """Bytes a PutEvents entry counts against the 256 KB limit.

    EventBridge adds up the UTF-8 sizes of ``Source``, ``DetailType``, ``Detail`` and each of
    ``Resources``, plus 14 bytes when ``Time`` is set.
    """
    size = 14 if entry.get("Time") is not None else 0
    for key in ("Source", "DetailType", "Detail"):
        size += len(str(entry.get(key, "")).encode("utf-8"))
    size += sum(len(str(r).encode("utf-8")) for r in entry.get("Resources", ()))
    return size


def put_events_entry(detail: Mapping[str, Any], *, bus: str, source: str) -> dict[str, Any]:
    """The PutEvents entry carrying ``detail``; :class:`EventTooLargeError` past 256 KB, or
    a detail past :data:`MAX_DETAIL_BYTES` (which the state machine could not start with), and
    :class:`InvalidInputError` for a number JSON cannot carry (NaN, infinity).
    """
    try:
        text = _compact(detail)
    except ValueError:
        raise invalid(InvalidInput("detail", "must hold only finite numbers")) from None
    entry = {"EventBusName": bus, "Source": source, "DetailType": DETAIL_TYPE, "Detail": text}
    size = entry_size(entry)
    if size > MAX_ENTRY_BYTES:
        raise EventTooLargeError(size, MAX_ENTRY_BYTES)
    detail_size = len(entry["Detail"].encode("utf-8"))
    if detail_size > MAX_DETAIL_BYTES:
        raise EventTooLargeError(detail_size, MAX_DETAIL_BYTES)
    return entry
