"""The LangGraph integration reads a graph's messages and a store's items within bounds: tool
call arguments, content blocks, item values and search filters nested past 64 levels, holding
themselves, or holding objects that are not JSON are refused naming the field, with nothing
written.
"""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langgraph.store.base import GetOp

from agent_memory.core.api.contracts import MAX_MESSAGE_CHARS
from agent_memory.core.api.json_input import MAX_DEPTH
from agent_memory.core.model.policies import WorkingMemoryPolicy
from agent_memory.integrations.langgraph import (
    bootstrap_node,
    compression_hook,
    finish_hook,
    to_core_messages,
)
from agent_memory.integrations.langgraph_store import AgentMemoryStore
from agent_memory.sdk import InvalidInputError
from tests.sdk.conftest import LocalMemory
from tests.support.hostile import (
    CYCLE,
    Hostile,
    RaisingStr,
    bounded,
    hostile_values,
)
from tests.support.ledger import ledger_contents

HOSTILE = settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
TASK = "Review the Northwind MSA liability cap"


def calling(args: dict[str, Any], **extra: Any) -> list[BaseMessage]:
    """A task, a tool call with ``args``, its result and the answer."""
    return [
        HumanMessage(TASK, id="h"),
        AIMessage(content="", tool_calls=[{"name": "read", "args": args, "id": "c1"}], **extra),
        ToolMessage("Clause 7.3 caps liability", tool_call_id="c1", name="read", id="t"),
        AIMessage("Clause 7.3 caps liability at 0.5x fees", id="a"),
    ]


def episodes(local: LocalMemory) -> list[Any]:
    return list(local.ports().episodes.list_all(now=time.time(), limit=10).items)


@HOSTILE
@given(hostile=hostile_values(MAX_DEPTH - 1))
def test_hostile_tool_arguments_are_refused_naming_them_and_nothing_is_written(
    memory: LocalMemory, hostile: Hostile
) -> None:
    # Given a graph whose model called a tool with arguments nested too deep, holding
    # themselves, or holding an object that is not JSON (LangChain keeps them as given)
    state = {"messages": calling({"q": hostile.value})}
    finish = finish_hook(memory.client, tenant_id="acme", agent_id="reviewer")
    # When the run is reported (before: ValueError, RecursionError, or the caller's __str__)
    with bounded(20), pytest.raises(InvalidInputError) as refused:
        finish(state, run_id="run-1", outcome="COMPLETED")
    # Then the refusal names the arguments and says why
    assert refused.value.field.startswith("messages[1].tool_calls[0].args.q")
    assert hostile.message in refused.value.message


def test_a_refused_graph_run_writes_nothing(memory: LocalMemory) -> None:
    args: dict[str, Any] = {"q": 1}
    args["self"] = args
    finish = finish_hook(memory.client, tenant_id="acme", agent_id="reviewer")
    with pytest.raises(InvalidInputError):
        finish({"messages": calling(args)}, run_id="run-1")
    memory.client.close()
    assert ledger_contents(memory.ports()) == []
    assert episodes(memory) == []


def test_the_compression_hook_refuses_hostile_arguments_naming_them() -> None:
    # Given a long history with one tool call holding itself
    args: dict[str, Any] = {}
    args["again"] = [args]
    history = calling(args) * 3
    hook = compression_hook(policy=WorkingMemoryPolicy(compress_at=6, keep_recent=3))
    # Then the hook refuses it (before: "Circular reference detected")
    with bounded(20), pytest.raises(InvalidInputError) as refused:
        hook({"messages": history})
    # (LangChain copies the arguments' outer object: the cycle closes one level further)
    assert refused.value.field.startswith("messages[1].tool_calls[0].args.again[0]")
    assert refused.value.message.startswith(CYCLE)


def test_huge_arguments_are_written_as_far_as_a_message_keeps_them() -> None:
    # Given a tool call with 20 MB of arguments (a file written, say)
    [_, call, *_] = calling({"path": "a.txt", "content": "x" * 20_000_000})
    # When it becomes a core message
    tracemalloc.start()
    try:
        [message] = to_core_messages([call])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # Then its line holds the arguments' JSON up to what a message keeps, no more was made
    assert message.content.startswith('[tool call] read {"content": "xxx')
    assert len(message.content) < MAX_MESSAGE_CHARS + 100
    assert peak < 4 * MAX_MESSAGE_CHARS


def test_a_content_block_whose_text_is_not_a_string_is_refused_naming_it() -> None:
    # Given a text block whose text is an object whose __str__ raises
    message = AIMessage(content=[{"type": "text", "text": RaisingStr()}])
    # Then it is refused naming the block (before: the object's RuntimeError)
    with pytest.raises(InvalidInputError) as refused:
        to_core_messages([HumanMessage("task"), message])
    assert refused.value.field == "messages[1].content[0].text"


def test_a_state_whose_messages_never_end_is_refused() -> None:
    def endless() -> Iterator[BaseMessage]:
        while True:
            yield HumanMessage("again")

    hook = compression_hook()
    with bounded(20), pytest.raises(InvalidInputError) as refused:
        hook({"messages": endless()})
    assert refused.value.field == "messages"


def test_a_task_read_from_the_state_that_is_not_text_is_refused_naming_it(
    memory: LocalMemory,
) -> None:
    # Given a bootstrap node whose task reader returns an object, not text
    node = bootstrap_node(
        memory.client, tenant_id="acme", agent_id="reviewer", task=lambda state: RaisingStr()
    )
    # Then the node refuses it naming the task (before: the object's AttributeError)
    with pytest.raises(InvalidInputError) as refused:
        node({"messages": [HumanMessage(TASK)]})
    assert refused.value.field == "task"


# --- the store ---------------------------------------------------------------------------


@HOSTILE
@given(hostile=hostile_values(MAX_DEPTH - 1))
def test_a_hostile_item_is_refused_naming_it_and_the_key_keeps_its_item(
    memory: LocalMemory, hostile: Hostile
) -> None:
    store = AgentMemoryStore(memory.client, "acme")
    # Given an item already stored under the key
    if store.get(("notes",), "k1") is None:
        store.put(("notes",), "k1", {"text": "Prefers dark mode"})
    # When a hostile value is put under it
    with bounded(20), pytest.raises(InvalidInputError) as refused:
        store.put(("notes",), "k1", {"v": hostile.value})
    # Then it is refused naming the value, and the item stored before is still there (before:
    # forgotten first, then the new value refused)
    assert refused.value.field.startswith("value.v")
    assert hostile.message in refused.value.message
    kept = store.get(("notes",), "k1")
    assert kept is not None and kept.value == {"text": "Prefers dark mode"}


def test_an_item_too_large_is_refused_before_the_old_one_is_forgotten(
    memory: LocalMemory,
) -> None:
    store = AgentMemoryStore(memory.client, "acme")
    store.put(("notes",), "k1", {"text": "Prefers dark mode"})
    with pytest.raises(InvalidInputError) as refused:
        store.put(("notes",), "k1", {"text": "x" * 100_000})
    assert refused.value.field == "value"
    kept = store.get(("notes",), "k1")
    assert kept is not None and kept.value == {"text": "Prefers dark mode"}


def test_a_search_filter_that_holds_itself_is_refused_naming_it(memory: LocalMemory) -> None:
    store = AgentMemoryStore(memory.client, "acme")
    store.put(("notes",), "k1", {"text": "Prefers dark mode"})
    wanted: dict[str, Any] = {"$eq": 1}
    wanted["$ne"] = wanted
    with bounded(20), pytest.raises(InvalidInputError) as refused:
        store.search(("notes",), filter={"text": wanted})
    assert refused.value.field == "filter.text.$ne"
    assert refused.value.message.startswith(CYCLE)


def test_a_key_that_is_not_text_is_refused_naming_it(memory: LocalMemory) -> None:
    # Given an operation built by hand (the store's get makes the key text itself)
    store = AgentMemoryStore(memory.client, "acme")
    with pytest.raises(InvalidInputError) as refused:
        store.batch([GetOp(("notes",), RaisingStr())])  # type: ignore[arg-type]
    assert refused.value.field == "key"
