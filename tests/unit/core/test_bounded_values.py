"""``check_value``: a Python caller's value read within the bounds of an event, or refused naming
the field, in bounded time and memory whatever the value.
"""

from __future__ import annotations

import json
import tracemalloc
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any
from uuid import UUID

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_memory.core.api.json_input import (
    MAX_DEPTH,
    MAX_EVENT_BYTES,
    EventTooLarge,
    check_document,
    check_value,
)
from agent_memory.core.model.errors import InvalidInput
from tests.support.hostile import (
    CYCLE,
    NOT_JSON,
    TOO_DEEP,
    Hostile,
    LyingDict,
    bounded,
    hostile_values,
    json_values,
    nested,
)

HOSTILE = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@HOSTILE
@given(value=json_values)
def test_a_json_value_comes_back_as_the_same_plain_data(value: Any) -> None:
    # Given any JSON value (what json.loads could have made)
    # When it is read within bounds
    copy = check_value({"args": value})
    # Then the copy is equal to it, and is not it
    assert copy == {"args": value}
    assert json.dumps(copy) == json.dumps({"args": value})


@HOSTILE
@given(levels=st.integers(MAX_DEPTH - 3, MAX_DEPTH + 3), shape=st.lists(st.booleans(), min_size=1))
def test_lists_and_objects_up_to_64_levels_are_read_and_one_more_is_refused(
    levels: int, shape: list[bool]
) -> None:
    # Given lists and objects nested around the limit
    value = nested(levels, shape)
    if levels <= MAX_DEPTH:
        # Then up to the limit the value is read whole
        assert check_value(value) == value
        return
    # And past it the refusal names the first levels of the path and says why
    with pytest.raises(InvalidInput) as refused:
        check_value(value, field="args")
    assert refused.value.message == TOO_DEEP
    assert refused.value.field.startswith("args") and refused.value.field.endswith("…")


@HOSTILE
@given(hostile=hostile_values())
def test_a_hostile_value_is_refused_naming_a_field_under_the_one_given(hostile: Hostile) -> None:
    # Given a value nested too deep, holding itself, or holding an object that is not JSON
    # When it is read (within a bound on time: before, a cycle grew memory until the end)
    with bounded(10), pytest.raises(InvalidInput) as refused:
        check_value({"messages": [{"args": hostile.value}]})
    # Then it is refused, naming a field within it and saying why
    assert refused.value.field.startswith("messages[0].args")
    assert hostile.message in refused.value.message


def test_a_self_holding_dict_names_where_it_is_and_what_it_is() -> None:
    args: dict[str, Any] = {"query": "x"}
    args["self"] = args
    with pytest.raises(InvalidInput) as refused:
        check_value({"args": args})
    assert refused.value.field == "args.self"
    assert refused.value.message.startswith(CYCLE)
    assert "args" in refused.value.message


def test_a_value_shared_without_a_cycle_is_read_and_costs_its_bytes() -> None:
    # Given one list held twice at every one of 60 levels (2**60 paths, a few objects)
    shared: list[Any] = []
    for _ in range(60):
        shared = [shared, shared]
    # Then it is refused as the event it would be, without walking every path
    with bounded(10), pytest.raises(EventTooLarge):
        check_value(shared)
    # And a small sharing is read, as its JSON would be
    small = [1, 2]
    assert check_value({"a": small, "b": small}) == {"a": [1, 2], "b": [1, 2]}


@pytest.mark.parametrize(
    "value",
    [
        {1: "a"},
        {None: "a"},
        {("a",): "b"},
    ],
)
def test_a_key_that_is_not_a_string_is_refused_naming_its_object(value: Any) -> None:
    with pytest.raises(InvalidInput) as refused:
        check_value({"args": value})
    assert refused.value.field == "args"
    assert "the keys of a JSON object are strings" in refused.value.message


def test_an_object_whose_own_methods_lie_is_read_by_its_base_class() -> None:
    # Given a dict subclass whose items never end and whose length raises
    lying = LyingDict(real="value")
    # Then what it holds is read, as a dict holds it
    assert check_value({"args": lying}) == {"args": {"real": "value"}}


def test_subclasses_of_str_int_and_float_become_the_plain_types() -> None:
    class Text(str):
        def __str__(self) -> str:
            raise RuntimeError("no")

    class Number(int):
        def __repr__(self) -> str:
            raise RuntimeError("no")

    copy = check_value({"t": Text("x"), "n": Number(3), "f": type("F", (float,), {})(1.5)})
    assert copy == {"t": "x", "n": 3, "f": 1.5}
    assert [type(v) for v in copy.values()] == [str, int, float]


def test_date_times_uuids_and_decimals_are_kept_as_they_are() -> None:
    when = datetime(2026, 5, 1, 12, tzinfo=UTC)
    value = {"at": when, "id": UUID(int=1), "amount": Decimal("1.50")}
    assert check_value(value) == value


def test_an_integer_no_float_can_hold_is_refused() -> None:
    with pytest.raises(InvalidInput) as refused:
        check_value({"n": 10**5000})
    assert refused.value.field == "n"
    assert "64-bit float" in refused.value.message


def test_a_huge_string_is_refused_before_it_is_encoded() -> None:
    text = "x" * (50 * MAX_EVENT_BYTES)
    tracemalloc.start()
    try:
        with pytest.raises(EventTooLarge):
            check_value({"content": text})
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < MAX_EVENT_BYTES


def test_a_wide_object_is_refused_past_the_keys_an_object_may_have_unless_unbounded() -> None:
    wide = {f"k{i}": i for i in range(100_000)}
    with pytest.raises(InvalidInput) as refused:
        check_value({"args": wide})
    assert refused.value.field == "args"
    assert "100,000 keys" in refused.value.message
    assert check_value({f"k{i}": i for i in range(1_000)}, max_keys=None)["k999"] == 999


def test_a_parsed_document_that_holds_itself_is_refused_not_walked_forever() -> None:
    # Given a document (as a runtime would hand it over) that holds itself, with no size bound
    document: dict[str, Any] = {"detail": {}}
    document["detail"]["again"] = document
    # Then the core's own check refuses it (it walked it until memory ran out)
    with bounded(10), pytest.raises(InvalidInput) as refused:
        check_document(document, max_bytes=None)
    assert refused.value.field == "detail.again"
    assert refused.value.message.startswith(CYCLE)


def test_an_object_of_any_other_type_is_refused_by_its_type_name() -> None:
    with pytest.raises(InvalidInput) as refused:
        check_value({"args": {"when": {1, 2}}})
    assert refused.value.field == "args.when"
    assert refused.value.message.startswith(f"is an object of type set, {NOT_JSON}")
