"""The SDK reads what its caller hands it within bounds: a value nested past 64 levels, holding
itself, or holding an object that is not JSON is refused with an ``InvalidInputError`` naming
the field, nothing is written or sent, and no such value costs unbounded time or memory.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_memory.core.api.json_input import MAX_DEPTH, MAX_EVENT_BYTES
from agent_memory.sdk import AsyncMemoryClient, EventTooLargeError, InvalidInputError
from agent_memory.sdk.bounds import json_text
from tests.sdk.conftest import LocalMemory, StubbedAws, make_local, run_event
from tests.support.hostile import (
    TOO_DEEP,
    Hostile,
    RaisingStr,
    RecursingStr,
    Treacherous,
    bounded,
    hostile_values,
    json_values,
    nested,
)
from tests.support.ledger import ledger_contents

HOSTILE = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@dataclass(frozen=True)
class Place:
    """Where in a RunFinished event a caller's value goes, and how many levels are left there."""

    field: str
    put: Callable[[dict[str, Any], Any], None]
    room: int


def _args(event: dict[str, Any], value: Any) -> None:
    event["messages"] = [
        {"role": "human", "content": "Review the MSA"},
        {"role": "ai", "content": None, "tool_calls": [{"id": "c1", "name": "f", "args": value}]},
    ]


def _part(event: dict[str, Any], value: Any) -> None:
    event["messages"] = [{"role": "human", "content": [{"type": "image", "data": value}]}]


def _findings(event: dict[str, Any], value: Any) -> None:
    event["artifacts"] = {"key_findings": ["a finding", value]}


def _unknown(event: dict[str, Any], value: Any) -> None:
    event["x_extra"] = value


# The event (1), messages (2), the message (3), tool_calls (4) and the call (5) hold the args.
PLACES = [
    Place("messages[1].tool_calls[0].args", _args, MAX_DEPTH - 5),
    Place("messages[0].content[0].data", _part, MAX_DEPTH - 5),
    Place("artifacts.key_findings[1]", _findings, MAX_DEPTH - 3),
    Place("x_extra", _unknown, MAX_DEPTH - 1),
]


@st.composite
def placed(draw: st.DrawFn) -> tuple[Place, Hostile]:
    place = draw(st.sampled_from(PLACES))
    return place, draw(hostile_values(place.room))


def hostile_event(place: Place, hostile: Hostile) -> dict[str, Any]:
    event = run_event("run-1")
    place.put(event, hostile.value)
    return event


def assert_nothing_written(local: LocalMemory) -> None:
    local.client.close()
    ports = local.ports()
    assert ledger_contents(ports) == []
    assert list(ports.episodes.list_all(now=time.time(), limit=10).items) == []


@HOSTILE
@given(case=placed())
def test_a_hostile_value_in_a_run_is_refused_naming_its_field_and_nothing_is_written(
    memory: LocalMemory, case: tuple[Place, Hostile]
) -> None:
    place, hostile = case
    # Given a run holding a value nested too deep, holding itself, or holding an object that is
    # not JSON (a __str__ that raises or recurses among them)
    event = hostile_event(place, hostile)
    # When it is reported (before: a raw ValueError, a RecursionError, or memory growing
    # until the process died)
    with bounded(20), pytest.raises(InvalidInputError) as refused:
        memory.client.finish_run(event)
    # Then the refusal names the field and says why
    assert refused.value.field.startswith(place.field), refused.value.field
    assert hostile.message in refused.value.message


def test_nothing_is_written_for_a_refused_run(memory: LocalMemory) -> None:
    # Given runs refused for each kind of hostile value
    args: dict[str, Any] = {"q": "x"}
    args["self"] = args
    for value in (nested(3_000, [True]), args, {"x": RaisingStr()}):
        event = run_event("run-1")
        _args(event, value)
        with pytest.raises(InvalidInputError):
            memory.client.finish_run(event)
    # Then nothing reached the store
    assert_nothing_written(memory)


@pytest.mark.parametrize("place", PLACES, ids=lambda p: p.field)
def test_a_value_at_the_levels_left_is_accepted_and_one_more_is_refused(
    memory: LocalMemory, place: Place
) -> None:
    # Given a value that fills the levels left at its place exactly, then one level more
    at_limit = hostile_event(place, Hostile(nested(place.room, [True, False]), "", ""))
    over = hostile_event(place, Hostile(nested(place.room + 1, [True, False]), "", ""))
    # Then the first is past the bounds check (an unknown field is then refused as unknown)
    if place.field == "x_extra":
        with pytest.raises(InvalidInputError) as refused:
            memory.client.finish_run(at_limit)
        assert refused.value.message == "unknown field"
    elif place.field.startswith("artifacts"):
        with pytest.raises(InvalidInputError) as refused:
            memory.client.finish_run(at_limit)
        assert refused.value.field == place.field and TOO_DEEP not in refused.value.message
    else:
        memory.client.finish_run(at_limit).wait(timeout=60)
    # And the second is refused for its depth
    with pytest.raises(InvalidInputError) as refused:
        memory.client.finish_run(over)
    assert refused.value.message == TOO_DEEP


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=placed())
def test_the_async_client_refuses_a_hostile_run_as_the_sync_one_does(
    tmp_path_factory: pytest.TempPathFactory, case: tuple[Place, Hostile]
) -> None:
    place, hostile = case
    local = make_local(tmp_path_factory.mktemp("store"))

    async def report() -> None:
        async with AsyncMemoryClient(local.client) as memory:
            await memory.finish_run(hostile_event(place, hostile))

    with bounded(20), pytest.raises(InvalidInputError) as refused:
        asyncio.run(report())
    assert refused.value.field.startswith(place.field)
    assert hostile.message in refused.value.message
    assert_nothing_written(local)


def test_a_10_mb_argument_is_refused_as_too_large_without_being_copied(
    memory: LocalMemory,
) -> None:
    # Given a run whose tool call carries 10 MB of text
    event = run_event("run-1")
    _args(event, {"content": "x" * 10_000_000})
    # When it is reported
    tracemalloc.start()
    try:
        with pytest.raises(EventTooLargeError) as refused:
            memory.client.finish_run(event)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # Then it is refused as an event too large, in memory of the order of the bound
    assert refused.value.field == "event"
    assert peak < 4 * MAX_EVENT_BYTES
    assert_nothing_written(memory)


def test_a_team_that_never_ends_is_refused_after_one_name_too_many(memory: LocalMemory) -> None:
    # Given a team given as an endless generator of names (read whole, it never returned)
    team = (f"agent-{i}" for i in itertools.count())
    # Then it is read one name past the most a team may have, and refused naming it
    with bounded(20), pytest.raises(InvalidInputError) as refused:
        memory.client.bootstrap("acme", "reviewer", "Review", scope="team", team=team)
    assert refused.value.field == "team"


@pytest.mark.parametrize("hostile", [RaisingStr(), RecursingStr(), Treacherous()])
def test_an_argument_that_is_not_json_is_refused_before_any_backend_reads_it(
    memory: LocalMemory, hostile: object
) -> None:
    calls: list[Callable[[], object]] = [
        lambda: memory.client.list_procedures("acme", status=hostile),  # type: ignore[arg-type]
        lambda: memory.client.get_procedure("acme", hostile),  # type: ignore[arg-type]
        lambda: memory.client.reject_procedure("acme", "p-1", reviewer="r", reason=hostile),  # type: ignore[arg-type]
        lambda: memory.client.get_episode("acme", "reviewer", hostile),  # type: ignore[arg-type]
        lambda: memory.client.list_episodes("acme", hostile),  # type: ignore[arg-type]
        lambda: memory.client.bootstrap("acme", "reviewer", hostile),  # type: ignore[arg-type]
        lambda: memory.client.search("acme", "reviewer", "q", domain=hostile),  # type: ignore[arg-type]
    ]
    fields = ["status", "procedure_id", "reason", "run_id", "agent_id", "task", "domain"]
    for call, field in zip(calls, fields, strict=True):
        with bounded(20), pytest.raises(InvalidInputError) as refused:
            call()
        assert (refused.value.field, "not a JSON value" in refused.value.message) == (field, True)


def test_on_aws_a_hostile_run_or_request_is_refused_before_anything_is_sent(
    aws: StubbedAws,
) -> None:
    # Given no answer stubbed: any PutEvents or Invoke would fail the test
    args: dict[str, Any] = {}
    args["again"] = [args]
    event = run_event("run-1")
    _args(event, args)
    with pytest.raises(InvalidInputError) as refused:
        aws.client.finish_run(event)
    assert refused.value.field == "messages[1].tool_calls[0].args.again[0]"
    with pytest.raises(InvalidInputError) as refused:
        aws.client.approve_procedure("acme", "p-1", reviewer=RaisingStr())  # type: ignore[arg-type]
    assert refused.value.field == "reviewer"


@settings(max_examples=200, deadline=None)
@given(value=json_values, cut=st.integers(1, 200))
def test_json_text_writes_what_json_dumps_writes_and_cuts_it(value: Any, cut: int) -> None:
    whole = json.dumps(value, sort_keys=True, default=str)
    assert json_text(value, "args", limit=10**6) == whole
    assert json_text(value, "args", limit=cut) == whole[:cut]


def test_json_text_of_a_huge_value_costs_what_it_keeps() -> None:
    # Given arguments of 50 MB and a list shared 2**60 ways
    shared: list[Any] = []
    for _ in range(55):
        shared = [shared, shared]
    big = {"content": "é" * 50_000_000, "shared": shared}
    tracemalloc.start()
    try:
        with bounded(20):
            text = json_text(big, "args", limit=1_000)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # Then what is kept is written, in memory of the order of what is kept
    assert text == json.dumps({"content": "é" * 1_000})[:1_000]
    assert peak < 100_000


def test_a_limit_is_read_as_the_whole_number_it_is_without_its_own_methods(
    memory: LocalMemory,
) -> None:
    # Given a limit that is an int whose comparisons raise
    class Limit(int):
        def __lt__(self, other: object) -> bool:
            raise RuntimeError("no comparison")

    # Then the search reads it as the number it holds (before: the RuntimeError)
    found = memory.client.search("acme", "reviewer", "Northwind", limit=Limit(3))
    assert found["episodes"] == []
