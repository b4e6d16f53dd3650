"""Message roles: the core's names and the OpenAI/LangChain ones agents produce."""

from __future__ import annotations

import jsonschema  # type: ignore[import-untyped]
import pytest

from agent_memory.core.api.contracts import json_schema, parse_run_finished
from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.model.models import Role

SCHEMA = jsonschema.Draft202012Validator(json_schema())


def run_with(*messages: dict[str, object]) -> dict[str, object]:
    return {
        "tenant_id": "acme",
        "agent_id": "reviewer",
        "run_id": "run-1",
        "task": "Review the MSA.",
        "messages": list(messages),
    }


@pytest.mark.parametrize(
    ("sent", "held"),
    [
        ("user", "human"),
        ("assistant", "ai"),
        ("system", "system"),
        ("tool", "tool"),
        ("function", "tool"),
        ("human", "human"),
        ("ai", "ai"),
    ],
)
def test_each_role_name_is_held_as_the_core_role(sent: str, held: Role) -> None:
    # Given a run whose message carries an OpenAI, LangChain or core role name
    event = run_with({"role": sent, "content": "hello"})
    # When the event is validated
    run = parse_run_finished(event)
    # Then the schema accepts it too, and the core holds the message under its own role
    assert SCHEMA.is_valid(event)
    assert run.messages[0].role == held


def test_an_openai_conversation_keeps_its_tool_calls_and_answers() -> None:
    # Given a conversation as an OpenAI-style agent logs it (call ids in the contract's form)
    event = run_with(
        {"role": "system", "content": "You review contracts."},
        {"role": "user", "content": "Review the Northwind MSA."},
        {"role": "assistant", "content": "Fetching it.", "tool_calls": ["call_1"]},
        {"role": "tool", "content": "Clause 7.3: cap 0.5x fees", "tool_call_id": "call_1"},
        {"role": "function", "content": '{"clauses": 12}', "name": "count_clauses"},
        {"role": "assistant", "content": "The cap is below market."},
    )
    # When it is validated
    run = parse_run_finished(event)
    # Then every message keeps its place, content, call ids and name under the core's roles
    assert [m.role for m in run.messages] == ["system", "human", "ai", "tool", "tool", "ai"]
    assert run.messages[2].tool_calls == ("call_1",)
    assert run.messages[3].tool_call_id == "call_1"
    assert run.messages[4].name == "count_clauses"
    assert run.messages[1].content == "Review the Northwind MSA."


@pytest.mark.parametrize("role", ["bot", "User", "model", "developer ", ""])
def test_any_other_role_is_refused_by_the_validator_and_the_schema(role: str) -> None:
    # Given a role no agent framework names this way
    event = run_with({"role": role, "content": "hello"})
    # Then the published schema refuses it, and so does the validator, naming the field
    assert not SCHEMA.is_valid(event)
    with pytest.raises(InvalidInput) as refused:
        parse_run_finished(event)
    assert refused.value.field == "messages[0].role"
