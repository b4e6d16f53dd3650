"""finish_run takes a framework's message objects as they are (LangChain's, OpenAI's,
Anthropic's) and its message shapes as dumped, and reports what it did not keep.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from langchain_core.messages import (
    AIMessage,
    AIMessageChunk,
    ChatMessage,
    HumanMessage,
    RemoveMessage,
    SystemMessage,
    ToolMessage,
)
from openai.types.chat import ChatCompletionMessage
from openai.types.responses import ResponseReasoningItem

from agent_memory.core.api.contracts import parse_run_finished
from agent_memory.sdk import InvalidInputError
from agent_memory.sdk.events import run_finished
from tests.sdk.conftest import LocalMemory, run_event


def test_langchain_message_objects_are_consolidated_and_the_summary_comes_back(
    local: LocalMemory,
) -> None:
    # Given a LangGraph-style conversation as LangChain objects, chunks and a removal included
    messages = [
        SystemMessage("You review contracts."),
        HumanMessage("Review the Northwind MSA liability cap"),
        AIMessage("", tool_calls=[{"name": "fetch", "args": {"clause": "7.3"}, "id": "call_1"}]),
        ToolMessage("7.3: liability capped at 0.5x annual fees", tool_call_id="call_1"),
        ChatMessage(role="assistant", content="Checking the market norm."),
        AIMessageChunk(content="The cap is below market."),
        RemoveMessage(id="stale"),
    ]
    # When the run is finished with them, on the local backend
    handle = local.client.finish_run(run_event("run-lc"), messages=messages)
    result = handle.wait(timeout=30)
    # Then the run is consolidated, and the removal is reported as not kept
    assert result["status"] == "CONSOLIDATED"
    assert result["episode"] == "written"
    assert "LangChain 'remove' message not kept (message 6)" in result["not_kept"]


def test_openai_objects_are_accepted_and_reasoning_is_reported(local: LocalMemory) -> None:
    # Given OpenAI SDK objects: a chat completion message and a Responses reasoning item
    messages: list[Any] = [
        {"role": "user", "content": "Review the Northwind MSA liability cap"},
        ResponseReasoningItem(id="rs_1", type="reasoning", summary=[]),
        ChatCompletionMessage(role="assistant", content="Clause 7.3 caps liability."),
    ]
    # When the run is finished with them
    result = local.client.finish_run(run_event("run-oa", messages=messages)).wait(timeout=30)
    # Then it is consolidated, with the reasoning item reported
    assert result["status"] == "CONSOLIDATED"
    assert "'reasoning' item not kept (message 1)" in result["not_kept"]


@pytest.mark.parametrize(
    ("message", "field"),
    [
        (object(), "messages[0]"),
        (ChatMessage(role="critic", content="no"), "messages[0].role"),
    ],
)
def test_a_message_that_is_no_message_names_the_field(
    local: LocalMemory, message: object, field: str
) -> None:
    # Given a message no shape reads
    # When the run is finished with it, Then it is refused naming the field, nothing written
    with pytest.raises(InvalidInputError) as refused:
        local.client.finish_run(run_event("run-bad"), messages=[message])
    assert refused.value.field == field


def test_the_detail_sent_to_the_bus_reads_as_the_same_run() -> None:
    # Given a run whose messages are objects and other frameworks' shapes
    messages: list[Any] = [
        HumanMessage("Review it."),
        AIMessage("", tool_calls=[{"name": "fetch", "args": {}, "id": "c1"}]),
        {
            "role": "user",
            "content": [{"toolResult": {"toolUseId": "c1", "content": [{"json": 1}]}}],
        },
        ResponseReasoningItem(id="rs_1", type="reasoning", summary=[]),
    ]
    # When the SDK validates it into the detail it sends (on AWS, read again by the Lambda)
    validated = run_finished(run_event("run-rt"), {"messages": messages})
    again = parse_run_finished(json.loads(json.dumps(validated.detail)))
    # Then the detail reads as the same messages, with the same notes of what is not kept
    assert again.messages == validated.run.messages
    assert again.not_kept == validated.run.not_kept == ("'reasoning' item not kept (message 3)",)
    assert again.messages[2].tool_call_id == "c1"
