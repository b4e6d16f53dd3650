"""Messages as agents log them: OpenAI's chat API (content null, content parts, tool-call
objects, refusals, legacy function calls) and LangChain's tool calls are accepted as they are,
and read as the text the core keeps."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage, convert_to_openai_messages

from agent_memory.core.api.contracts import MAX_LIST_ITEMS, MAX_MESSAGE_CHARS, parse_run_finished
from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.model.models import Message, RunFinished


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


def test_content_parts_keep_their_text_and_report_images() -> None:
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


def test_a_message_is_bounded_by_its_fields_and_the_event_not_by_its_joined_text() -> None:
    # Given a message whose content and call arguments are each within their limit, and
    # together longer than one field may be (the published schema bounds fields, and the
    # event's size bounds them all)
    arguments = "x" * (MAX_MESSAGE_CHARS // 2 + 1)
    call = {"id": "c", "type": "function", "function": {"name": "f", "arguments": arguments}}
    message = {"role": "ai", "content": "y" * (MAX_MESSAGE_CHARS // 2), "tool_calls": [call]}
    # When it is parsed
    [parsed] = run_with(message)
    # Then it is accepted and kept whole
    assert parsed.content.endswith(arguments) and len(parsed.content) > MAX_MESSAGE_CHARS


def event_with(*messages: dict[str, Any]) -> RunFinished:
    return parse_run_finished(
        {
            "tenant_id": "acme",
            "agent_id": "reviewer",
            "run_id": "run-1",
            "task": "Review the Tailspin MSA.",
            "messages": list(messages),
        }
    )


def test_responses_api_input_and_output_text_parts_are_kept() -> None:
    # Given messages as OpenAI's Responses API logs them
    asked = {"role": "user", "content": [{"type": "input_text", "text": "Is 7.3 capped?"}]}
    answered = {
        "role": "assistant",
        "content": [{"type": "output_text", "text": "Yes, at 1.5x fees.", "annotations": []}],
    }
    # When they are parsed
    human, ai = run_with(asked, answered)
    # Then their text is the messages' text
    assert (human.role, human.content) == ("human", "Is 7.3 capped?")
    assert (ai.role, ai.content) == ("ai", "Yes, at 1.5x fees.")


def test_the_developer_role_is_a_system_message() -> None:
    # Given OpenAI's newer name for the system message
    # When it is parsed, Then it is held as a system message
    [parsed] = run_with({"role": "developer", "content": "Be brief."})
    assert (parsed.role, parsed.content) == ("system", "Be brief.")


def test_anthropic_tool_use_and_tool_result_read_like_other_tool_calls() -> None:
    # Given an Anthropic assistant turn calling a tool, and the user turn answering it
    calling = {
        "role": "assistant",
        "content": [
            {"type": "text", "text": "Let me look."},
            {"type": "tool_use", "id": "toolu_1", "name": "lookup", "input": {"clause": "7.3"}},
        ],
    }
    answering = {
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": "toolu_1", "content": "7.3: cap 1.5x fees"}
        ],
    }
    # When they are parsed
    ai, tool = run_with(calling, answering)
    # Then the call is a tool-call line with its id, and the answer a tool message to it
    assert ai.content == 'Let me look.\n[tool call] lookup {"clause": "7.3"}'
    assert ai.tool_calls == ("toolu_1",)
    assert (tool.role, tool.tool_call_id, tool.content) == ("tool", "toolu_1", "7.3: cap 1.5x fees")


def test_a_tool_result_of_parts_keeps_their_text_and_marks_an_error() -> None:
    # Given a tool result whose content is a list of parts, and one reporting an error
    answering = {
        "role": "user",
        "content": [
            {
                "type": "tool_result",
                "tool_use_id": "t1",
                "content": [{"type": "text", "text": "page 4"}, {"type": "image", "source": {}}],
            },
            {"type": "tool_result", "tool_use_id": "t2", "content": "timeout", "is_error": True},
        ],
    }
    # When it is parsed
    run = event_with(answering)
    # Then both answers' text is kept, the error marked, and the image reported as not kept
    [tool] = run.messages
    assert (tool.role, tool.content) == ("tool", "page 4\n[tool error] timeout")
    assert any("'image' content part" in line for line in run.not_kept)


def test_a_user_turn_with_text_beside_a_tool_result_stays_a_human_message() -> None:
    # Given a user turn that answers a tool call and also says something
    message = {
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": "done"},
            {"type": "text", "text": "Now compare the caps."},
        ],
    }
    # When it is parsed, Then it is the human's, with the result's text after its own
    [parsed] = run_with(message)
    assert (parsed.role, parsed.content) == ("human", "Now compare the caps.\ndone")


def test_langchain_content_blocks_are_read() -> None:
    # Given LangChain content: a plain string part, a text block and a tool_call block that
    # is also in tool_calls (LangChain keeps both)
    message = {
        "role": "ai",
        "content": [
            "Checking ",
            {"type": "text", "text": "clause 7.", "id": "b1"},
            {"type": "tool_call", "id": "c1", "name": "lookup", "args": {"n": 7}},
        ],
        "tool_calls": [{"id": "c1", "name": "lookup", "args": {"n": 7}}],
    }
    # When it is parsed
    [parsed] = run_with(message)
    # Then the text is kept and the call appears once
    assert parsed.content == 'Checking clause 7.\n[tool call] lookup {"n": 7}'
    assert parsed.tool_calls == ("c1",)


@pytest.mark.parametrize(
    ("part", "kind"),
    [
        ({"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}, "image_url"),
        ({"type": "input_image", "image_url": "https://example.com/a.png"}, "input_image"),
        ({"type": "input_audio", "input_audio": {"data": "AAAA", "format": "wav"}}, "input_audio"),
        ({"type": "image", "source": {"type": "base64", "data": "AAAA"}}, "image"),
        ({"type": "thinking", "thinking": "Let me see.", "signature": "s"}, "thinking"),
        ({"type": "reasoning", "reasoning": "Step by step."}, "reasoning"),
        ({"type": "document", "source": {"type": "text", "data": "x"}}, "document"),
    ],
)
def test_a_part_without_text_to_keep_is_reported_not_kept(part: dict[str, Any], kind: str) -> None:
    # Given a message holding a part the core keeps no text of, beside a text part
    message = {"role": "user", "content": [{"type": "text", "text": "See this."}, part]}
    # When it is parsed
    run = event_with(message)
    # Then the text is kept, and the part is reported by its type and message
    assert run.messages[0].content == "See this."
    assert run.not_kept == (
        f"1 {kind!r} content part not kept (message 0): only text, refusal, tool-use and "
        "tool-result parts are kept",
    )


def test_citations_of_a_kept_part_are_reported_not_kept() -> None:
    # Given Anthropic text with citations and OpenAI text with annotations
    cited = {"type": "text", "text": "Cap is 1.5x.", "citations": [{"cited_text": "1.5x"}]}
    annotated = {"type": "output_text", "text": "See [1].", "annotations": [{"url": "u"}]}
    # When they are parsed
    run = event_with(
        {"role": "assistant", "content": [cited]}, {"role": "ai", "content": [annotated]}
    )
    # Then the text is kept and the citations and annotations are reported
    assert run.not_kept == (
        "'annotations' of 1 content part not kept (message 1)",
        "'citations' of 1 content part not kept (message 0)",
    )


def test_an_unknown_part_is_not_confused_with_a_tool_call() -> None:
    # Given a part of another type that happens to carry a tool call's keys
    message = {"role": "user", "content": [{"type": "image", "name": "chart", "args": {}}]}
    # When it is parsed, Then it is accepted as a part carrying no text (the schema agrees)
    run = event_with(message)
    assert run.messages[0].content == ""
    assert run.not_kept[0].startswith("1 'image' content part")


@pytest.mark.parametrize(
    ("content", "field"),
    [
        ("x" * (MAX_MESSAGE_CHARS + 1), "messages[0].content"),
        ([{"type": "text", "text": "x" * (MAX_MESSAGE_CHARS + 1)}], "messages[0].content[0].text"),
        ([{"type": "tool_use", "input": {}}], "messages[0].content[0].name"),
        (
            [{"type": "tool_result", "tool_use_id": "t", "content": [7]}],
            "messages[0].content[0].content[0]",
        ),
        (
            [{"type": "tool_result", "tool_use_id": "t", "content": [{"type": "tool_use"}]}],
            "messages[0].content[0].content[0]",
        ),
        # Blocks without a type are Strands' shape when they open the content (see
        # test_message_shapes.py); after a canonical part, one is a part missing its type.
        (["fine", {"text": "no type"}], "messages[0].content[1]"),
    ],
)
def test_a_malformed_part_is_named_by_its_exact_path(content: Any, field: str) -> None:
    # Given content that breaks its shape
    # When it is parsed, Then the error names exactly where (no union tag in the path)
    with pytest.raises(InvalidInput) as error:
        run_with({"role": "user", "content": content})
    assert error.value.field == field


@pytest.mark.parametrize(
    "content",
    [
        "x" * MAX_MESSAGE_CHARS,
        ["x"] * MAX_LIST_ITEMS,
        [{"type": "text", "text": "x"}] * MAX_LIST_ITEMS,
        [{"type": "image_url", "image_url": {"url": "https://x.test/a.png"}}]
        + ["x"] * (MAX_LIST_ITEMS - 1),
    ],
    ids=[
        "string at its bound",
        "strings at the list bound",
        "text parts at the list bound",
        "an image first, at the list bound",
    ],
)
def test_a_failed_tool_answer_at_its_bounds_is_kept_and_marked(content: Any) -> None:
    # Given a LangChain tool message that failed, its content as large as its shape allows
    failed = ToolMessage(content=content, tool_call_id="call_1", status="error")
    # When it is parsed as LangChain stores it
    run = event_with({"type": "tool", "data": failed.model_dump()})
    [tool] = run.messages
    # Then it is accepted whole, and marked as an error where the mark found room, or
    # reported when it did not
    kept = sum(1 for part in content if part == "x" or (isinstance(part, dict) and "text" in part))
    assert tool.role == "tool"
    assert tool.content.count("x") == (MAX_MESSAGE_CHARS if isinstance(content, str) else kept)
    marked = tool.content.startswith("[tool error] ")
    noted = any("status 'error'" in line for line in run.not_kept)
    assert marked != noted
    assert noted == (isinstance(content[0], dict) and "image_url" in content[0])
