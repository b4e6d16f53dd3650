"""Every common message shape is accepted, and read as the canonical message it stands for.

Messages are built with each library's own objects (LangChain's messages, OpenAI's and
Anthropic's SDK types, Strands' typed dicts) and dumped as an agent logs them; each is held to
the published JSON Schema too, which agents on AWS validate against.
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest
from anthropic.types import Message as AnthropicMessage
from anthropic.types import TextBlock, ToolUseBlock, Usage
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import (
    AIMessage,
    AIMessageChunk,
    ChatMessage,
    FunctionMessage,
    HumanMessage,
    RemoveMessage,
    SystemMessage,
    ToolMessage,
    messages_to_dict,
)
from openai.types.chat import ChatCompletionMessage, ChatCompletionMessageFunctionToolCall
from openai.types.chat.chat_completion_message_function_tool_call import Function
from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
    ResponseReasoningItem,
)
from openai.types.responses.response_reasoning_item import Summary
from strands.types.content import ContentBlock
from strands.types.content import Message as StrandsMessage
from strands.types.tools import ToolResult, ToolUse

from agent_memory.core.api.contracts import json_schema, parse_run_finished
from agent_memory.core.api.message_shapes import plain_messages
from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.model.models import Message, RunFinished

SCHEMA = jsonschema.Draft202012Validator(json_schema())


def event_with(*messages: Any) -> dict[str, Any]:
    return {
        "tenant_id": "acme",
        "agent_id": "reviewer",
        "run_id": "run-1",
        "task": "Review the Tailspin MSA.",
        "messages": list(messages),
    }


def parsed(*messages: Any) -> RunFinished:
    """The run of an event carrying ``messages``, after the schema accepted it too."""
    event = event_with(*messages)
    errors = [e.message for e in SCHEMA.iter_errors(json.loads(json.dumps(event)))]
    assert errors == []
    return parse_run_finished(event)


def core(message: Message) -> tuple[str, str, str | None, tuple[str, ...]]:
    return (message.role, message.content, message.tool_call_id, message.tool_calls)


# --- LangChain ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "held"),
    [
        (HumanMessage("Review clause 7."), ("human", "Review clause 7.", None, ())),
        (SystemMessage("You review contracts."), ("system", "You review contracts.", None, ())),
        (AIMessage("The cap is 0.5x."), ("ai", "The cap is 0.5x.", None, ())),
        (AIMessageChunk(content="The cap"), ("ai", "The cap", None, ())),
        (ToolMessage("7.3: cap", tool_call_id="call_1"), ("tool", "7.3: cap", "call_1", ())),
        (
            ToolMessage("no such clause", tool_call_id="call_2", status="error"),
            ("tool", "[tool error] no such clause", "call_2", ()),
        ),
        (FunctionMessage(name="count", content="12"), ("tool", "12", None, ())),
        (ChatMessage(role="assistant", content="Done."), ("ai", "Done.", None, ())),
        (ChatMessage(role="developer", content="Be brief."), ("system", "Be brief.", None, ())),
    ],
)
def test_a_langchain_model_dump_is_read_under_its_type(
    message: Any, held: tuple[str, str, str | None, tuple[str, ...]]
) -> None:
    # Given a LangChain message as model_dump() gives it (type, not role; metadata beside it)
    dumped = message.model_dump()
    # When an event carrying it is parsed
    run = parsed(dumped)
    # Then the core holds it under the role its type names, with its text and call id
    assert core(run.messages[0]) == held
    assert run.not_kept == ()


def test_messages_to_dict_items_are_read_as_their_data() -> None:
    # Given a conversation stored with messages_to_dict ({"type", "data"})
    stored = messages_to_dict([HumanMessage("Review it."), AIMessage("Reviewed.")])
    # When it is parsed
    run = parsed(*stored)
    # Then each item reads as its message
    assert [core(m) for m in run.messages] == [
        ("human", "Review it.", None, ()),
        ("ai", "Reviewed.", None, ()),
    ]


def test_an_ai_message_with_anthropic_blocks_and_tool_calls_pairs_with_its_result() -> None:
    # Given an AIMessage from ChatAnthropic (its call both a content block and in tool_calls)
    call = AIMessage(
        content=[
            {"type": "text", "text": "Looking it up."},
            {"type": "tool_use", "id": "toolu_1", "name": "lookup", "input": {"clause": "7.3"}},
        ],
        tool_calls=[{"name": "lookup", "args": {"clause": "7.3"}, "id": "toolu_1"}],
        usage_metadata={"input_tokens": 3, "output_tokens": 5, "total_tokens": 8},
        response_metadata={"model_name": "claude"},
    )
    answer = ToolMessage("7.3: cap 0.5x", tool_call_id="toolu_1")
    # When both are parsed
    ai, tool = parsed(call.model_dump(), answer.model_dump()).messages
    # Then the call is written once, and its id pairs the result with it
    assert ai.content == 'Looking it up.\n[tool call] lookup {"clause": "7.3"}'
    assert ai.tool_calls == ("toolu_1",)
    assert tool.tool_call_id == "toolu_1"


def test_what_a_langchain_message_holds_beside_its_content_is_reported_not_kept() -> None:
    # Given messages carrying provider extras, an unparsable call and a state instruction
    ai = AIMessage(
        "Thinking done.",
        additional_kwargs={"reasoning_content": "step 1..."},
        invalid_tool_calls=[{"name": "f", "args": "{oops", "id": "c", "error": "bad JSON"}],
    )
    # When they are parsed
    run = parsed(ai.model_dump(), RemoveMessage(id="m-1").model_dump())
    # Then each thing not kept is named with its message, none dropped unsaid
    assert run.not_kept == (
        "LangChain 'remove' message not kept (message 1)",
        "LangChain additional_kwargs 'reasoning_content' not kept (message 0)",
        "LangChain invalid_tool_calls not kept (message 0)",
    )


def test_a_chat_message_of_an_unknown_role_names_the_field() -> None:
    # Given a ChatMessage whose role no framework reads as the core's
    dumped = ChatMessage(role="critic", content="Too long.").model_dump()
    # Then the schema and the validator refuse it, naming the role
    assert not SCHEMA.is_valid(event_with(dumped))
    with pytest.raises(InvalidInput) as refused:
        parse_run_finished(event_with(dumped))
    assert refused.value.field == "messages[0].role"


# --- OpenAI ---------------------------------------------------------------------------------------


def test_a_chat_completion_message_model_dump_is_accepted() -> None:
    # Given an assistant message built with OpenAI's SDK, dumped with its nulls
    message = ChatCompletionMessage(
        role="assistant",
        content=None,
        tool_calls=[
            ChatCompletionMessageFunctionToolCall(
                id="call_1", type="function", function=Function(name="f", arguments="{}")
            )
        ],
    )
    plain = ChatCompletionMessage(role="assistant", content="Done.")
    # When both are parsed
    call, done = parsed(message.model_dump(), plain.model_dump()).messages
    # Then the call keeps its id, and the null fields are read as absent
    assert core(call) == ("ai", "[tool call] f {}", None, ("call_1",))
    assert core(done) == ("ai", "Done.", None, ())


def test_responses_api_items_read_as_messages_and_report_reasoning() -> None:
    # Given a Responses API conversation: input, reasoning, a function call, its output, a reply
    items = [
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Q?"}]},
        ResponseReasoningItem(
            id="rs_1", type="reasoning", summary=[Summary(type="summary_text", text="hm")]
        ).to_dict(),
        ResponseFunctionToolCall(
            type="function_call", call_id="call_9", name="lookup", arguments='{"q": 1}'
        ).to_dict(),
        {"type": "function_call_output", "call_id": "call_9", "output": "found"},
        ResponseOutputMessage(
            id="msg_1",
            type="message",
            role="assistant",
            status="completed",
            content=[ResponseOutputText(type="output_text", text="A.", annotations=[])],
        ).model_dump(),
    ]
    # When they are parsed
    run = parsed(*items)
    # Then each item is its message, the call pairs with its output, and reasoning is reported
    assert [core(m) for m in run.messages] == [
        ("human", "Q?", None, ()),
        ("ai", "", None, ()),
        ("ai", '[tool call] lookup {"q": 1}', None, ("call_9",)),
        ("tool", "found", "call_9", ()),
        ("ai", "A.", None, ()),
    ]
    assert run.not_kept == ("'reasoning' item not kept (message 1)",)


# --- Anthropic ------------------------------------------------------------------------------------


def test_an_anthropic_message_is_read_with_its_tool_use() -> None:
    # Given a whole reply of Anthropic's Messages API, dumped
    reply = AnthropicMessage(
        id="msg_1",
        type="message",
        role="assistant",
        model="claude",
        content=[
            TextBlock(type="text", text="Checking."),
            ToolUseBlock(type="tool_use", id="toolu_2", name="lookup", input={"c": 7}),
        ],
        stop_reason="tool_use",
        stop_sequence=None,
        usage=Usage(input_tokens=1, output_tokens=2),
    )
    # When it is parsed
    run = parsed(reply.model_dump())
    # Then its text and call are the message, and its metering is not reported
    assert core(run.messages[0]) == (
        "ai",
        'Checking.\n[tool call] lookup {"c": 7}',
        None,
        ("toolu_2",),
    )
    assert run.not_kept == ()


# --- Strands --------------------------------------------------------------------------------------


def test_strands_messages_keep_tool_uses_results_and_report_images() -> None:
    # Given a Strands conversation built from its own types
    messages = [
        StrandsMessage(role="user", content=[ContentBlock(text="Review clause 7.")]),
        StrandsMessage(
            role="assistant",
            content=[
                ContentBlock(text="Fetching."),
                ContentBlock(toolUse=ToolUse(toolUseId="tu_1", name="fetch", input={"n": 7})),
            ],
        ),
        StrandsMessage(
            role="user",
            content=[
                ContentBlock(
                    toolResult=ToolResult(
                        toolUseId="tu_1",
                        status="error",
                        content=[{"text": "timeout"}, {"json": {"retry": True}}],
                    )
                ),
                ContentBlock(image={"format": "png", "source": {"bytes": "AAAA"}}),
            ],
        ),
    ]
    # When they are parsed
    run = parsed(*messages)
    # Then the tool result answers its use, and the image is reported
    assert [core(m) for m in run.messages] == [
        ("human", "Review clause 7.", None, ()),
        ("ai", 'Fetching.\n[tool call] fetch {"n": 7}', None, ("tu_1",)),
        ("tool", '[tool error] timeout\n{"retry": true}', "tu_1", ()),
    ]
    assert run.not_kept == (
        "1 'image' content part not kept (message 2): only text, refusal, tool-use and "
        "tool-result parts are kept",
    )


@pytest.mark.parametrize(
    ("message", "field"),
    [
        ({"role": "assistant", "content": [{"toolUse": {"toolUseId": "t"}}]}, "name"),
        ({"role": "user", "content": [{"text": 7}]}, "text"),
        ({"role": "bot", "content": [{"text": "hi"}]}, "role"),
        ({"type": "human", "content": 7}, "content"),
        ({"type": "function_call", "name": "f", "arguments": "{}"}, "call_id"),
    ],
)
def test_a_malformed_message_of_another_shape_names_its_field(
    message: dict[str, Any], field: str
) -> None:
    # Given a message in another framework's shape with one field wrong
    event = event_with(message)
    # Then the schema refuses it, and the validator names the field
    assert not SCHEMA.is_valid(event)
    with pytest.raises(InvalidInput) as refused:
        parse_run_finished(event)
    assert refused.value.field.startswith("messages[0]")
    assert refused.value.field.endswith(field)


# --- one message, every shape ---------------------------------------------------------------------

ids = st.from_regex(r"[a-z][a-z0-9_]{0,11}", fullmatch=True)
texts = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=40)
texts = texts.filter(lambda t: t.strip() != "")


def shapes(role: str, text: str, call: tuple[str, str] | None, answers: str | None) -> list[Any]:
    """The same message in every shape that can say it: (the canonical form, the others)."""
    if role == "tool":
        assert answers is not None
        return [
            {"role": "tool", "content": text, "tool_call_id": answers},
            ToolMessage(text, tool_call_id=answers).model_dump(),
            messages_to_dict([ToolMessage(text, tool_call_id=answers)])[0],
            {"type": "function_call_output", "call_id": answers, "output": text},
            {
                "role": "user",
                "content": [{"toolResult": {"toolUseId": answers, "content": [{"text": text}]}}],
            },
        ]
    if role == "ai" and call is not None:
        call_id, name = call
        return [
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": call_id,
                        "type": "function",
                        "function": {"name": name, "arguments": "{}"},
                    }
                ],
            },
            AIMessage("", tool_calls=[{"name": name, "args": {}, "id": call_id}]).model_dump(),
            {"type": "function_call", "call_id": call_id, "name": name, "arguments": "{}"},
            {
                "role": "assistant",
                "content": [{"toolUse": {"toolUseId": call_id, "name": name, "input": {}}}],
            },
        ]
    openai_role = {"human": "user", "ai": "assistant", "system": "system"}[role]
    made = {"human": HumanMessage, "ai": AIMessage, "system": SystemMessage}[role](text)
    out = [
        {"role": openai_role, "content": text},
        made.model_dump(),
        messages_to_dict([made])[0],
        {"type": "message", "role": openai_role, "content": [{"type": "input_text", "text": text}]},
    ]
    if role != "system":
        out.append({"role": openai_role, "content": [{"text": text}]})
    return out


messages = st.one_of(
    st.tuples(st.sampled_from(["human", "ai", "system"]), texts, st.none(), st.none()),
    st.tuples(st.just("ai"), texts, st.tuples(ids, ids), st.none()),
    st.tuples(st.just("tool"), texts, st.none(), ids),
)


@settings(max_examples=60, deadline=None)
@given(messages)
def test_a_message_in_any_shape_is_the_same_core_message(
    spec: tuple[str, str, tuple[str, str] | None, str | None],
) -> None:
    # Given one message written in every shape that can carry it
    canonical, *others = shapes(*spec)
    # When each is parsed
    expected = parse_run_finished(event_with(canonical)).messages
    # Then each is the same core message as the canonical form: role, text, call ids
    for other in others:
        assert parsed(other).messages == expected, other


def test_message_objects_become_their_plain_data() -> None:
    # Given messages as objects (LangChain's, OpenAI's) beside plain ones
    given_ = [HumanMessage("hi"), ChatCompletionMessage(role="assistant", content="yo"), {"a": 1}]
    # When they are made plain
    plain = plain_messages(given_)
    # Then each object is its dump, and plain data is left as it is
    assert plain == [
        HumanMessage("hi").model_dump(mode="json"),
        {"role": "assistant", "content": "yo"},
        {"a": 1},
    ]


def test_a_message_object_whose_dump_fails_names_the_message() -> None:
    # Given an object that looks like a message but cannot be dumped
    class Broken:
        def model_dump(self, **_: Any) -> dict[str, Any]:
            raise RuntimeError("no")

    # Then it is refused, naming the message
    with pytest.raises(InvalidInput) as refused:
        plain_messages(["fine", Broken()])
    assert refused.value.field == "messages[1]"
