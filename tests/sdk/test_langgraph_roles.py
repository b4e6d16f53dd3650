"""LangChain messages of every type, and free-form chat roles, as the core's roles."""

from __future__ import annotations

import pytest
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    ChatMessage,
    FunctionMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)

from agent_memory.core.model.models import Role
from agent_memory.integrations.langgraph import to_core_messages


@pytest.mark.parametrize(
    ("message", "held"),
    [
        (SystemMessage("x"), "system"),
        (HumanMessage("x"), "human"),
        (AIMessage("x"), "ai"),
        (ToolMessage(content="x", tool_call_id="c1"), "tool"),
        (FunctionMessage(content="x", name="count_clauses"), "tool"),
    ],
)
def test_each_langchain_message_type_is_held_as_its_core_role(
    message: BaseMessage, held: Role
) -> None:
    # Given a message of one of LangChain's types, when it is converted for the core
    # Then it keeps its role under the core's name
    assert to_core_messages([message])[0].role == held


@pytest.mark.parametrize(
    ("role", "held"),
    [
        ("user", "human"),
        ("human", "human"),
        ("assistant", "ai"),
        ("ai", "ai"),
        ("system", "system"),
        ("tool", "tool"),
        ("function", "tool"),
    ],
)
def test_a_chat_message_role_is_read_as_an_event_would_name_it(role: str, held: Role) -> None:
    # Given a ChatMessage whose free-form role is a LangChain or OpenAI role name
    message = ChatMessage(content="x", role=role)
    # When it is converted for the core
    # Then it is held under the role a RunFinished event naming it would get
    assert to_core_messages([message])[0].role == held


def test_a_chat_message_of_an_unknown_role_is_held_as_human() -> None:
    # Given a ChatMessage whose role no framework here names (a speaker of the conversation)
    message = ChatMessage(content="x", role="reviewer")
    # Then it is held as a human turn, as before
    assert to_core_messages([message])[0].role == "human"
