"""The Strands integration reads an agent's messages within bounds: a tool's input or JSON result
nested past 64 levels, holding itself, or holding an object that is not JSON, and messages not
shaped as Strands shapes them, are refused naming the field, with nothing written; blocks the
store does not keep (images, documents) are not read at all.
"""

from __future__ import annotations

import asyncio
import time
import tracemalloc
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from strands.types.content import Message

from agent_memory.core.api.contracts import MAX_MESSAGE_CHARS
from agent_memory.core.api.json_input import MAX_DEPTH
from agent_memory.integrations.strands import AgentMemoryStore, to_core_messages
from agent_memory.integrations.strands.store import invocation_outcome
from agent_memory.sdk import InvalidInputError
from tests.sdk.conftest import LocalMemory
from tests.support.hostile import Hostile, RaisingStr, bounded, hostile_values
from tests.support.ledger import ledger_contents

HOSTILE = settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
TASK = "Review the Tailspin MSA liability cap"


def invocation(tool_input: Any = None, tool_json: Any = None) -> list[Message]:
    """A task, a tool used with ``tool_input``, its result (``tool_json`` as a JSON part), and
    the answer.
    """
    result: list[Any] = [{"text": "9.1 caps liability at 2x fees"}]
    if tool_json is not None:
        result.append({"json": tool_json})
    use = {"toolUseId": "c1", "name": "read_clause", "input": tool_input or {"clause": "9.1"}}
    return [
        {"role": "user", "content": [{"text": TASK}]},
        {"role": "assistant", "content": [{"text": "Reading."}, {"toolUse": use}]},  # type: ignore[list-item]
        {
            "role": "user",
            "content": [
                {"toolResult": {"toolUseId": "c1", "status": "success", "content": result}}
            ],
        },
        {"role": "assistant", "content": [{"text": "Clause 9.1 caps liability at 2x fees"}]},
    ]


def report(memory: LocalMemory, messages: Any) -> Any:
    store = AgentMemoryStore(memory.client, tenant_id="acme", agent_id="reviewer", wait=True)
    return asyncio.run(store.add_messages(messages))


def assert_nothing_written(memory: LocalMemory) -> None:
    memory.client.close()
    ports = memory.ports()
    assert ledger_contents(ports) == []
    assert list(ports.episodes.list_all(now=time.time(), limit=10).items) == []


@HOSTILE
@given(hostile=hostile_values(MAX_DEPTH - 1))
def test_a_hostile_tool_input_is_refused_naming_it(memory: LocalMemory, hostile: Hostile) -> None:
    # Given an invocation whose tool was used with an input nested too deep, holding itself, or
    # holding an object that is not JSON
    messages = invocation(tool_input={"q": hostile.value})
    # When the memory manager hands it over (before: ValueError, RecursionError, or the
    # object's own __str__ raising)
    with bounded(20), pytest.raises(InvalidInputError) as refused:
        report(memory, messages)
    # Then the refusal names the input and says why
    assert refused.value.field.startswith("messages[1].content[1].toolUse.input.q")
    assert hostile.message in refused.value.message


@HOSTILE
@given(hostile=hostile_values(MAX_DEPTH - 1))
def test_a_hostile_json_tool_result_is_refused_naming_it(
    memory: LocalMemory, hostile: Hostile
) -> None:
    messages = invocation(tool_json={"rows": hostile.value})
    with bounded(20), pytest.raises(InvalidInputError) as refused:
        report(memory, messages)
    assert refused.value.field.startswith("messages[2].content[0].toolResult.content[1].json.rows")
    assert hostile.message in refused.value.message


def test_a_refused_invocation_writes_nothing(memory: LocalMemory) -> None:
    tool_input: dict[str, Any] = {"clause": "9.1"}
    tool_input["self"] = tool_input
    with pytest.raises(InvalidInputError):
        report(memory, invocation(tool_input=tool_input))
    assert_nothing_written(memory)


@pytest.mark.parametrize(
    ("messages", "field"),
    [
        ([{"role": "user", "content": [{"text": TASK}]}, "not a message"], "messages[1]"),
        ([{"role": "user", "content": {"text": TASK}}], "messages[0].content"),
        ([{"role": "user", "content": ["a bare string"]}], "messages[0].content[0]"),
        ([{"role": RaisingStr(), "content": [{"text": TASK}]}], "messages[0].role"),
        (
            [{"role": "assistant", "content": [{"toolUse": {"name": RaisingStr(), "input": {}}}]}],
            "messages[0].content[0].toolUse.name",
        ),
        (
            [{"role": "user", "content": [{"toolResult": {"content": [{"text": RaisingStr()}]}}]}],
            "messages[0].content[0].toolResult.content[0].text",
        ),
    ],
)
def test_a_message_not_shaped_as_strands_shapes_it_is_refused_naming_it(
    memory: LocalMemory, messages: Any, field: str
) -> None:
    with pytest.raises(InvalidInputError) as refused:
        report(memory, messages)
    assert refused.value.field == field


def test_messages_that_never_end_are_refused() -> None:
    def endless() -> Iterator[Message]:
        while True:
            yield {"role": "user", "content": [{"text": TASK}]}

    with bounded(20), pytest.raises(InvalidInputError) as refused:
        to_core_messages(endless())  # type: ignore[arg-type]
    assert refused.value.field == "messages"


def test_a_block_the_store_does_not_keep_is_not_read_even_to_name_the_run(
    memory: LocalMemory,
) -> None:
    # Given an invocation with an image whose bytes are an object that cannot be written, and
    # no sequence numbers or tracking ids (the run is named by what the messages hold)
    messages = invocation()
    messages[0]["content"].append({"image": {"format": "png", "source": {"bytes": RaisingStr()}}})  # type: ignore[typeddict-item]
    # When it is reported
    handle = report(memory, messages)
    # Then it is reported as if the image were not there
    assert handle is not None and handle.wait(timeout=60)["episode"] == "written"


def test_a_huge_tool_input_is_written_as_far_as_a_message_keeps_it() -> None:
    messages = invocation(tool_input={"content": "x" * 20_000_000})
    tracemalloc.start()
    try:
        core = to_core_messages(messages)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert core[1].content.startswith('Reading.\n[tool call] read_clause {"content": "xxx')
    assert len(core[1].content) < MAX_MESSAGE_CHARS + 100
    assert peak < 4 * MAX_MESSAGE_CHARS


def test_the_outcome_of_a_batch_whose_text_is_not_a_string_is_read_without_it() -> None:
    # Given a batch ending with an assistant block whose text is an object whose __str__ raises
    messages: list[Any] = [{"role": "assistant", "content": [{"text": RaisingStr()}]}]
    # Then the outcome is read from what is text (none here: the run stopped on the way)
    assert invocation_outcome(messages) == "PARTIAL"


def test_a_task_stated_by_a_function_that_is_not_text_is_refused_naming_it(
    memory: LocalMemory,
) -> None:
    store = AgentMemoryStore(
        memory.client, tenant_id="acme", agent_id="reviewer", task=lambda batch: RaisingStr()
    )
    with pytest.raises(InvalidInputError) as refused:
        store.run_event(invocation())
    assert refused.value.field == "task"
