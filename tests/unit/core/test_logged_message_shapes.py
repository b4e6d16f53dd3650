"""Messages as agents log them: OpenAI's chat API (content null, content parts, tool-call
objects, refusals, legacy function calls) and LangChain's tool calls are accepted as they are,
and read as the text the core keeps."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage, convert_to_openai_messages

from agent_memory.core.api.contracts import MAX_MESSAGE_CHARS, parse_run_finished
from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.model.models import Message


def run_with(*messages: dict[str, Any]) -> tuple[Message, ...]:
    event = {
        "tenant_id": "acme",
        "agent_id": "reviewer",
        "run_id": "run-1",
        "task": "Review the Tailspin MSA.",
        "messages": list(messages),
    }
    return parse_run_finished(event).messages


# What ChatCompletionMessage.model_dump() gives for an assistant turn that only calls a tool.
OPENAI_TOOL_TURN = {
    "role": "assistant",
    "content": None,
    "refusal": None,
    "annotations": [],
    "audio": None,
    "function_call": None,
    "tool_calls": [
        {
            "id": "call_abc",
            "type": "function",
            "function": {"name": "lookup_clause", "arguments": '{"clause": "7.2"}'},
        }
    ],
}


def test_an_openai_tool_call_turn_with_null_content_is_kept_as_its_call() -> None:
    # Given an assistant message dumped from OpenAI's SDK, and the tool's answer
    answer = {"role": "tool", "tool_call_id": "call_abc", "content": "7.2: net 30"}
    # When the event is parsed
    call, result = run_with(OPENAI_TOOL_TURN, answer)
    # Then the call's id pairs the two, and its name and arguments are the message's text
    assert (call.role, call.tool_calls) == ("ai", ("call_abc",))
    assert call.content == '[tool call] lookup_clause {"clause": "7.2"}'
    assert (result.role, result.tool_call_id) == ("tool", "call_abc")


def test_what_langchain_converts_to_openai_messages_is_accepted() -> None:
    # Given a LangChain conversation converted by langchain-core to OpenAI's format
    converted = convert_to_openai_messages(
        [
            HumanMessage("Check clause 7."),
            AIMessage("", tool_calls=[{"name": "lookup", "args": {"id": 7}, "id": "call_1"}]),
            ToolMessage("net 30", tool_call_id="call_1"),
        ]
    )
    # When it is sent as the run's messages
    human, ai, tool = run_with(*converted)
    # Then it reads as the LangGraph hook would have read the LangChain messages
    assert (human.role, human.content) == ("human", "Check clause 7.")
    assert (ai.content, ai.tool_calls) == ('[tool call] lookup {"id": 7}', ("call_1",))
    assert (tool.role, tool.tool_call_id, tool.content) == ("tool", "call_1", "net 30")


def test_langchain_tool_call_objects_keep_their_arguments() -> None:
    # Given an ai message with text and LangChain-shaped tool calls (one without an id)
    message = {
        "role": "ai",
        "content": "Looking it up.",
        "tool_calls": [
            {"name": "search", "args": {"q": "indemnity"}, "id": "c1", "type": "tool_call"},
            {"name": "search", "args": {"q": "liability"}},
        ],
    }
    # When it is parsed
    [parsed] = run_with(message)
    # Then both calls follow the text, and only the given id is kept
    assert parsed.content.splitlines() == [
        "Looking it up.",
        '[tool call] search {"q": "indemnity"}',
        '[tool call] search {"q": "liability"}',
    ]
    assert parsed.tool_calls == ("c1",)


def test_content_parts_keep_their_text_and_drop_images() -> None:
    # Given OpenAI content parts: text, an image, more text
    message = {
        "role": "user",
        "content": [
            {"type": "text", "text": "What does this clause say? "},
            {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}},
            {"type": "text", "text": "It is on page 4."},
        ],
    }
    # When it is parsed
    [parsed] = run_with(message)
    # Then the text parts are the content, and nothing of the image is kept
    assert parsed.content == "What does this clause say? It is on page 4."


def test_a_refusal_and_a_legacy_function_call_are_kept_as_text() -> None:
    # Given a refusal, and an assistant message using OpenAI's legacy function_call
    refusal = {"role": "assistant", "content": None, "refusal": "I can't share that."}
    legacy = {
        "role": "assistant",
        "content": None,
        "function_call": {"name": "get_rate", "arguments": '{"ccy": "EUR"}'},
    }
    answer = {"role": "function", "name": "get_rate", "content": "1.08"}
    # When they are parsed
    said, called, answered = run_with(refusal, legacy, answer)
    # Then the refusal is the text, and the call reads like a tool call answered by the next
    assert said.content == "I can't share that."
    assert called.content == '[tool call] get_rate {"ccy": "EUR"}'
    assert (answered.role, answered.name) == ("tool", "get_rate")


@pytest.mark.parametrize(
    ("message", "field"),
    [
        (
            {"role": "ai", "content": None, "tool_calls": [{"id": "c", "type": "function"}]},
            "messages[0].tool_calls[0]",
        ),
        ({"role": "user", "content": [{"type": "text"}]}, "messages[0].content"),
        ({"role": "user", "content": "hi", "logprobs": None}, "messages[0].logprobs"),
        ({"role": "assistant", "content": None, "audio": {"id": "a1"}}, "messages[0].audio"),
    ],
    ids=["call-without-function", "text-part-without-text", "unknown-field", "audio"],
)
def test_a_malformed_logged_message_names_its_field(message: dict[str, Any], field: str) -> None:
    # Given a logged message that breaks the shapes above
    # When it is parsed, Then the error names the field
    with pytest.raises(InvalidInput) as error:
        run_with(message)
    assert str(error.value).startswith(field)


def test_tool_calls_count_towards_the_length_of_a_message() -> None:
    # Given a message whose content is within the limit, but whose call arguments take it over
    arguments = "x" * (MAX_MESSAGE_CHARS // 2 + 1)
    call = {"id": "c", "type": "function", "function": {"name": "f", "arguments": arguments}}
    message = {"role": "ai", "content": "y" * (MAX_MESSAGE_CHARS // 2), "tool_calls": [call]}
    # When it is parsed, Then it is refused naming the message
    with pytest.raises(InvalidInput) as error:
        run_with(message)
    assert str(error.value).startswith("messages[0]")
