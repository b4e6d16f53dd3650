"""The strict event reader: what JSON text may not leave to the reader's choice is refused.

A key named twice, a number a 64-bit float cannot hold as written, a lone surrogate, an event
past 256 KiB, an object of more keys than any event has or values nested deeper than 64: each
refused naming the field, and the large ones before they cost their size in memory.
"""

from __future__ import annotations

import io
import json
import tracemalloc
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_memory.core.api import contracts
from agent_memory.core.api.contracts import parse_run_finished
from agent_memory.core.api.json_input import (
    MAX_EVENT_BYTES,
    MAX_OBJECT_KEYS,
    EventTooLarge,
    check_document,
    read_json,
    read_json_stream,
)
from agent_memory.core.model.errors import InvalidInput

EVENT = '{"tenant_id": "acme", "agent_id": "a", "run_id": "r1", "task": "t"%s}'


def refused(text: str | bytes) -> InvalidInput:
    with pytest.raises(InvalidInput) as raised:
        read_json(text)
    return raised.value


def compact_size(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())


# --- one meaning per key ----------------------------------------------------------------------


def test_a_tenant_named_twice_is_refused_naming_it() -> None:
    # Given the red team's event: which tenant it is depends on the reader (last wins here)
    text = (
        '{"tenant_id": "victim", "tenant_id": "acme", "agent_id": "a", "run_id": "r", "task": "t"}'
    )
    # Then it is refused, naming the key
    error = refused(text)
    assert error.field == "tenant_id"
    assert "twice" in error.message


@pytest.mark.parametrize(
    ("fields", "path"),
    [
        (', "artifacts": {"outcome": "FAILED", "outcome": "COMPLETED"}', "artifacts.outcome"),
        (
            ', "artifacts": {"facts": [{"content": "c", "confidence": 0.1, "confidence": 0.9}]}',
            "artifacts.facts[0].confidence",
        ),
        (
            ', "messages": [{"role": "ai", "content": "x"}, {"role": "ai", "role": "system"}]',
            "messages[1].role",
        ),
    ],
)
def test_a_key_named_twice_anywhere_is_refused_naming_its_path(fields: str, path: str) -> None:
    assert refused(EVENT % fields).field == path


def test_a_key_named_twice_inside_an_eventbridge_envelope_is_refused() -> None:
    text = '{"detail-type": "RunFinished", "detail": {"run_id": "r1", "run_id": "r2"}}'
    assert refused(text).field == "detail.run_id"


@settings(max_examples=60, deadline=None)
@given(
    keys=st.lists(st.text("abcxyz_", min_size=1, max_size=6), min_size=1, max_size=6, unique=True),
    data=st.data(),
)
def test_any_object_repeating_any_key_is_refused(keys: list[str], data: st.DataObject) -> None:
    # Given an object whose members name some key a second time, with any values
    repeated = data.draw(st.sampled_from(keys))
    members = [(k, data.draw(st.integers())) for k in keys] + [(repeated, 0)]
    members = data.draw(st.permutations(members))
    text = "{" + ", ".join(f"{json.dumps(k)}: {v}" for k, v in members) + "}"
    # Then the reader refuses it, naming that key
    assert refused(text).field == repeated


# --- numbers as written -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("literal", "words"),
    [
        ("1e-400", "reads as zero"),
        ("-2.5e-330", "reads as zero"),
        ("0." + "0" * 400 + "1", "reads as zero"),
        ("1e400", "beyond the range"),
        ("-1e400", "beyond the range"),
        ("9" * 400, "beyond the range"),
        ("9" * 5_000, "beyond the range"),
        ("NaN", "finite"),
        ("Infinity", "finite"),
        ("-Infinity", "finite"),
    ],
)
def test_a_confidence_no_float_holds_as_written_is_refused_naming_it(
    literal: str, words: str
) -> None:
    # Given a confidence that would read as 0, as infinity, or is not a JSON number at all
    text = EVENT % f', "artifacts": {{"facts": [{{"content": "c", "confidence": {literal}}}]}}'
    # Then it is refused naming the field, never read as another number
    error = refused(text)
    assert error.field == "artifacts.facts[0].confidence"
    assert words in error.message


@pytest.mark.parametrize("literal", ["0", "0.0", "-0.0", "0e-400", "0.000e5", "5e-324", "1", "1.0"])
def test_zero_and_every_number_a_float_holds_are_read_as_written(literal: str) -> None:
    assert read_json(f"[{literal}]") == [json.loads(literal)]


# --- Unicode text -----------------------------------------------------------------------------


@pytest.mark.parametrize(("escaped", "code"), [("\\ud800", "D800"), ("ok \\udfff", "DFFF")])
def test_a_lone_surrogate_is_refused_naming_its_field(escaped: str, code: str) -> None:
    error = refused(EVENT % f', "artifacts": {{"key_findings": ["{escaped}"]}}')
    assert error.field == "artifacts.key_findings[0]"
    assert f"U+{code}" in error.message


def test_a_surrogate_pair_is_one_character_and_is_accepted() -> None:
    assert read_json('["\\ud83d\\udce8"]') == ["\U0001f4e8"]


def test_bytes_that_are_not_utf8_are_refused() -> None:
    assert refused(b'{"task": "caf\xc3\x28"}').message == "is not UTF-8 text"


# --- the size bound, before parsing -----------------------------------------------------------


def sized_event(size: int, char: str = "a") -> dict[str, Any]:
    """An event of exactly ``size`` bytes as compact UTF-8 JSON, its messages filled with
    ``char`` (of 1 to 4 bytes), each of at most 50,000 of them.
    """
    event: dict[str, Any] = json.loads(EVENT % "")
    event["messages"] = []
    width = len(char.encode())
    while True:
        event["messages"].append({"role": "human", "content": ""})
        room = size - compact_size(event)
        if room <= 50_000 * width:
            event["messages"][-1]["content"] = char * (room // width) + "a" * (room % width)
            break
        event["messages"][-1]["content"] = char * 50_000
    assert compact_size(event) == size
    return event


def sized_text(size: int, char: str = "a") -> str:
    return json.dumps(sized_event(size, char), ensure_ascii=False, separators=(",", ":"))


@pytest.mark.parametrize("char", ["a", "é", "€", "📨"])
def test_an_event_of_exactly_256_kib_is_read_and_one_byte_more_is_refused(char: str) -> None:
    # Given JSON texts of 262,144 and 262,145 bytes (counted in UTF-8, not characters)
    fits, over = sized_text(MAX_EVENT_BYTES, char), sized_text(MAX_EVENT_BYTES + 1, char)
    assert len(fits.encode()) == MAX_EVENT_BYTES == 256 * 1024
    # Then the first is read, as text and as bytes; the second refused naming the event
    assert read_json(fits) == read_json(fits.encode())
    for text in (over, over.encode()):
        with pytest.raises(EventTooLarge) as raised:
            read_json(text)
        assert raised.value.field == "event" and "262,144 bytes" in raised.value.message


class CountingStream(io.RawIOBase):
    """An endless stream of JSON-ish bytes that counts what was read from it."""

    def __init__(self) -> None:
        self.read_bytes = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer)
        view[:] = b"[" * len(view)
        self.read_bytes += len(view)
        return len(view)


def test_a_50_mb_stream_is_refused_after_reading_one_byte_past_the_bound() -> None:
    # Given stdin (or a file) with no end in sight
    stream = CountingStream()
    # When the reader takes an event from it
    with pytest.raises(EventTooLarge):
        read_json_stream(io.BufferedReader(stream, buffer_size=64 * 1024))
    # Then it stopped within a buffer of the bound, never reading 50 MB
    assert stream.read_bytes <= MAX_EVENT_BYTES + 1 + 64 * 1024


def test_a_50_mb_event_costs_less_than_a_megabyte_to_refuse() -> None:
    # Given 50 MB of JSON text (the red team's event cost 1.28 GB to consolidate)
    text = "[" + '"' + "a" * (50 * 1024 * 1024) + '"]'
    # When it is read
    tracemalloc.start()
    try:
        with pytest.raises(EventTooLarge):
            read_json(text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # Then it was refused without a copy of it being made
    assert peak < 1024 * 1024


# --- a parsed event: keys counted, size measured -------------------------------------------------


def million_unknown_keys() -> dict[str, Any]:
    event: dict[str, Any] = {"tenant_id": "acme", "agent_id": "a", "run_id": "r", "task": "t"}
    event.update((f"k{i}", 0) for i in range(1_000_000))
    return event


def test_a_million_unknown_keys_are_refused_before_validation_at_little_cost(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given an event some runtime already parsed, with a million unknown keys (validating them
    # costs the validator about 650 bytes of error each: over 600 MB), and a validator that
    # fails the test if it is reached
    event = million_unknown_keys()

    def unreached(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the validator saw the event")

    monkeypatch.setattr(contracts, "validate", unreached)
    # When it is parsed as a RunFinished event
    tracemalloc.start()
    try:
        with pytest.raises(InvalidInput) as raised:
            parse_run_finished(event)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # Then it is refused as an object with too many keys before any validation, in little memory
    assert raised.value.field == "event"
    assert f"at most {MAX_OBJECT_KEYS}" in raised.value.message
    assert peak < 64 * 1024


def test_a_million_unknown_keys_as_text_are_refused_by_the_size_bound() -> None:
    # Given the same event as JSON text: 11 MB
    text = json.dumps(million_unknown_keys())
    # Then it never reaches the parser
    with pytest.raises(EventTooLarge):
        read_json(text)


def test_an_object_of_the_most_keys_allowed_is_checked_and_one_more_is_refused() -> None:
    at_limit = {f"k{i}": 0 for i in range(MAX_OBJECT_KEYS)}
    check_document({"artifacts": at_limit})
    with pytest.raises(InvalidInput) as raised:
        check_document({"artifacts": {**at_limit, "one_more": 0}})
    assert raised.value.field == "artifacts"


def nested(levels: int) -> Any:
    """``levels`` arrays, one inside the other."""
    document: list[Any] = []
    inner = document
    for _ in range(levels - 1):
        inner.append([])
        inner = inner[0]
    return document


def test_values_nested_64_deep_are_read_and_65_are_refused_naming_where() -> None:
    # Given a tool call whose arguments nest arrays to the limit, and one level more
    def event(levels: int) -> str:
        call = {"id": "c", "name": "f", "args": {"a": nested(levels - 6)}}
        message = {"role": "ai", "tool_calls": [call]}
        return json.dumps(
            {"tenant_id": "t", "agent_id": "a", "run_id": "r", "task": "t", "messages": [message]}
        )

    # When each is read, Then the first is an event, and the second is refused by its path
    parse_run_finished(read_json(event(64)))
    with pytest.raises(InvalidInput) as raised:
        parse_run_finished(read_json(event(65)))
    assert raised.value.field.startswith("messages[0].tool_calls[0].args.a")
    assert "64" in raised.value.message


def test_a_parsed_event_nested_past_the_bound_is_refused_not_a_recursion_error() -> None:
    # Given an event an SDK caller or a Lambda runtime already parsed, whose tool call's
    # arguments nest 5,000 objects deep (no JSON text was read: no parser's limit applies)
    deep: dict[str, Any] = {}
    inner = deep
    for _ in range(5_000):
        inner["a"] = {}
        inner = inner["a"]
    call = {"id": "c", "name": "f", "args": deep}
    event = {"tenant_id": "t", "agent_id": "a", "run_id": "r", "task": "t"}
    # When it is validated, Then it is refused naming the arguments, not by a RecursionError
    with pytest.raises(InvalidInput) as raised:
        parse_run_finished({**event, "messages": [{"role": "ai", "tool_calls": [call]}]})
    assert raised.value.field.startswith("messages[0].tool_calls[0].args.a")


@settings(max_examples=200, deadline=None)
@given(
    document=st.recursive(
        st.none()
        | st.booleans()
        | st.integers()
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
        max_leaves=12,
    )
)
def test_a_parsed_event_is_measured_to_the_byte_of_its_compact_json(document: Any) -> None:
    # Given any JSON value, of exactly n bytes as compact UTF-8 JSON
    size = compact_size(document)
    # Then a bound of n admits it and a bound of n - 1 does not
    check_document(document, max_bytes=size)
    with pytest.raises(EventTooLarge):
        check_document(document, max_bytes=size - 1)


def test_a_parsed_event_over_256_kib_is_refused_before_validation() -> None:
    # Given a detail one byte over the bound, as compact JSON
    event = sized_event(MAX_EVENT_BYTES + 1)
    # Then it is refused naming the event, not its fields
    with pytest.raises(EventTooLarge):
        parse_run_finished(event)


def test_a_parsed_event_of_256_kib_is_accepted() -> None:
    event = sized_event(MAX_EVENT_BYTES, "📨")
    run = parse_run_finished(event)
    assert sum(len(m.content.encode()) for m in run.messages) > 260_000


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_a_parsed_non_finite_number_is_refused_naming_it_wherever_it_is(value: float) -> None:
    with pytest.raises(InvalidInput) as raised:
        check_document({"x": [{"y": value}]})
    assert raised.value.field == "x[0].y"
