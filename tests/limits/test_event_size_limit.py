"""The event bound is EventBridge's, and the SDK's largest run fits it on every surface.

EventBridge: "Event size: 256 KB" per PutEvents entry
(https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-quotas.html), counted over Source,
DetailType, Detail and Resources
(https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-putevent-size.html). The core
holds every event to :data:`~agent_memory.core.api.json_input.MAX_EVENT_BYTES` of UTF-8 JSON: the
CLI on the text it reads, the core and the extract Lambda on the compact form of the event they
were handed. The SDK sends at most :data:`~agent_memory.sdk.events.MAX_DETAIL_BYTES`, 1 KiB
less, so its largest run fits whole with its envelope.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest

from agent_memory.core.api.contracts import parse_run_finished, unwrap_event
from agent_memory.core.api.json_input import MAX_EVENT_BYTES, EventTooLarge, read_json
from agent_memory.core.model.tenant_identity import tenant_source
from agent_memory.sdk.errors import EventTooLargeError
from agent_memory.sdk.events import (
    MAX_DETAIL_BYTES,
    MAX_ENTRY_BYTES,
    put_events_entry,
    run_finished,
)
from agent_memory.serverless.parsing import parse_run_finished_event

LONGEST_ID = "a" * 128
# A Region name as long as any (14 characters), for the envelope's "region".
LONGEST_REGION = "ap-southeast-5"


def compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def utf8(value: Any) -> int:
    return len(compact(value).encode())


def largest_sdk_detail(char: str) -> dict[str, Any]:
    """A detail the SDK accepts of exactly MAX_DETAIL_BYTES, with the longest ids, its
    messages of ``char`` (1 to 4 bytes of UTF-8)."""
    detail: dict[str, Any] = {
        "tenant_id": LONGEST_ID,
        "agent_id": LONGEST_ID,
        "run_id": LONGEST_ID,
        "task": "Review the MSA",
        "messages": [],
    }
    width = len(char.encode())
    while True:
        detail["messages"].append({"role": "human", "content": ""})
        room = MAX_DETAIL_BYTES - utf8(detail)
        if room <= 100_000 * width:
            detail["messages"][-1]["content"] = char * (room // width) + "a" * (room % width)
            break
        detail["messages"][-1]["content"] = char * 100_000
    assert utf8(detail) == MAX_DETAIL_BYTES
    return run_finished(detail, {}).detail


def delivered(detail: dict[str, Any], source: str) -> dict[str, Any]:
    """The event as EventBridge delivers it to a target."""
    return {
        "version": "0",
        "id": str(uuid.uuid4()),
        "detail-type": "RunFinished",
        "source": source,
        "account": "123456789012",
        "time": "2026-11-30T10:00:00Z",
        "region": LONGEST_REGION,
        "resources": [],
        "detail": detail,
    }


def test_the_event_bound_is_eventbridges_256_kib() -> None:
    # "Event size: 256 KB", which PutEvents counts in bytes of 1,024
    assert MAX_EVENT_BYTES == MAX_ENTRY_BYTES == 262_144
    assert MAX_DETAIL_BYTES == MAX_EVENT_BYTES - 1024


@pytest.mark.parametrize("char", ["a", "é", "€", "📨"])
def test_the_sdks_largest_run_in_its_envelope_is_read_by_every_surface(char: str) -> None:
    # Given the largest run the SDK sends, with the longest tenant's source, as EventBridge
    # delivers it (the whole envelope, the {source, detail} pair, the detail)
    detail = largest_sdk_detail(char)
    source = tenant_source(LONGEST_ID)
    put_events_entry(detail, bus="bus", source=source)  # the SDK puts it
    envelope = delivered(detail, source)
    # Then every form is within the bound, as compact JSON
    assert utf8(envelope) <= MAX_EVENT_BYTES
    # And the CLI reads it from a file, the core and the extract Lambda parse every form
    assert read_json(compact(envelope).encode()) == envelope
    for event in (envelope, {"source": source, "detail": detail}, detail):
        assert parse_run_finished_event(event).run_id == LONGEST_ID
        assert parse_run_finished(unwrap_event(event)).run_id == LONGEST_ID


def test_the_largest_detail_eventbridge_admits_is_within_the_bound() -> None:
    # Given a detail of all that a PutEvents entry leaves beside a one-letter source and the
    # detail type (what a producer without the SDK may send)
    detail: dict[str, Any] = {"tenant_id": "acme", "agent_id": "a", "run_id": "r", "task": "t"}
    detail["messages"] = [{"role": "human", "content": "a" * 100_000} for _ in range(3)]
    room = MAX_ENTRY_BYTES - len("x") - len("RunFinished")
    detail["messages"][-1]["content"] = "a" * (100_000 - (utf8(detail) - room))
    assert utf8(detail) == room
    # Then the state machine's input, the detail, is an event the product takes
    assert parse_run_finished_event(detail).run_id == "r"
    assert parse_run_finished(detail).run_id == "r"


def test_one_byte_past_the_bound_is_refused_by_the_reader_the_core_and_the_lambda() -> None:
    # Given a detail of MAX_EVENT_BYTES + 1 bytes of compact JSON
    detail: dict[str, Any] = {"tenant_id": "acme", "agent_id": "a", "run_id": "r", "task": "t"}
    detail["messages"] = [{"role": "human", "content": "a" * 100_000} for _ in range(3)]
    detail["messages"][-1]["content"] = "a" * (100_000 - (utf8(detail) - MAX_EVENT_BYTES - 1))
    assert utf8(detail) == MAX_EVENT_BYTES + 1
    # Then the text, the parsed detail and the Lambda's event are each refused, whole
    with pytest.raises(EventTooLarge):
        read_json(compact(detail))
    with pytest.raises(EventTooLarge):
        parse_run_finished(detail)
    with pytest.raises(EventTooLarge):
        parse_run_finished_event(detail)
    # And the SDK refuses it before sending, on either backend
    with pytest.raises(EventTooLargeError):
        run_finished(detail, {})
