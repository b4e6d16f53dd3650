"""A LangGraph agent whose memory tools use the store: what it saves in one run, its next run
finds through ``store.search`` (the product's retrieval), so it answers what it could not.

The model is scripted (no network): it calls the tools LangMem-style tools would, and answers
from what the search tool returned, so the second run's answer depends on the first's write.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import tool
from langgraph.prebuilt import InjectedStore, create_react_agent
from langgraph.store.base import BaseStore
from langgraph.warnings import LangGraphDeprecatedSinceV10

from agent_memory.integrations.langgraph_store import AgentMemoryStore
from tests.sdk.conftest import make_local

NAMESPACE = ("memories", "u42")
QUESTION = "When is the Tailspin report due?"
NOT_KNOWN = "I do not know yet."


@tool
def save_memory(content: str, store: Annotated[BaseStore, InjectedStore()]) -> str:
    """Remember ``content`` for later conversations."""
    key = "-".join(content.lower().split()[:4])
    store.put(NAMESPACE, key, {"content": content})
    return f"Saved as {key}."


@tool
def search_memory(query: str, store: Annotated[BaseStore, InjectedStore()]) -> str:
    """Search what was remembered about ``query``."""
    found = store.search(NAMESPACE, query=query, limit=5)
    return "\n".join(item.value["content"] for item in found) or "Nothing remembered."


class RuleModel(BaseChatModel):
    """Asks memory about every question, saves what it is told to remember, and answers from
    the memory search's result.
    """

    @property
    def _llm_type(self) -> str:
        return "rule-model"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> RuleModel:
        return self

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=self._reply(messages))])

    def _reply(self, messages: list[BaseMessage]) -> AIMessage:
        last = messages[-1]
        if isinstance(last, HumanMessage):
            text = str(last.content)
            if text.startswith("Remember: "):
                call = {"name": "save_memory", "args": {"content": text[10:]}, "id": "save"}
            else:
                call = {"name": "search_memory", "args": {"query": text}, "id": "search"}
            return AIMessage(content="", tool_calls=[call])
        if isinstance(last, ToolMessage) and last.name == "search_memory":
            found = str(last.content)
            return AIMessage(NOT_KNOWN if found == "Nothing remembered." else found)
        return AIMessage("Noted.")


def agent(store: AgentMemoryStore) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LangGraphDeprecatedSinceV10)
        return create_react_agent(RuleModel(), [save_memory, search_memory], store=store)


def answer(graph: Any, text: str) -> str:
    state = graph.invoke({"messages": [HumanMessage(text)]})
    return str(state["messages"][-1].content)


def test_the_second_run_finds_what_the_first_saved(tmp_path: Path) -> None:
    # Given an agent over a fresh local memory, in its first run
    first = make_local(tmp_path / "store")
    graph = agent(AgentMemoryStore(first.client, "acme"))
    # When it is asked, it does not know; then it is told, and saves it
    before = answer(graph, QUESTION)
    answer(graph, "Remember: The Tailspin report is due on Friday 12 June.")
    first.client.close()

    # When a second run (a new process's client, store and graph) is asked again
    second = make_local(tmp_path / "store")
    try:
        after = answer(agent(AgentMemoryStore(second.client, "acme")), QUESTION)
        # Then the first run knew nothing, and the second answers from the first's memory
        assert before == NOT_KNOWN
        assert after == "The Tailspin report is due on Friday 12 June."
        # And what it saved is the agent's episodic memory: its bootstrap serves it too
        reply = second.client.bootstrap("acme", "memories.u42", QUESTION)
        assert "due on Friday 12 June" in reply["context"]
    finally:
        second.client.close()


def test_another_tenant_s_agent_finds_nothing(tmp_path: Path) -> None:
    # Given the first tenant's agent saved a memory
    memory = make_local(tmp_path / "store")
    try:
        answer(
            agent(AgentMemoryStore(memory.client, "acme")),
            "Remember: The Tailspin report is due on Friday 12 June.",
        )
        # When the same agent of another tenant is asked about it
        other = answer(agent(AgentMemoryStore(memory.client, "globex")), QUESTION)
        # Then it knows nothing
        assert other == NOT_KNOWN
    finally:
        memory.client.close()
