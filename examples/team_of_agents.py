"""A team of agents sharing memory: what one worker learns reaches another's next run (LangGraph).

A supervisor graph hands each task to one of two workers of the ``platform`` team: a security
reviewer and a code analyst. Each worker is its own agent (its own agent id, its own episodes);
both read their memory with ``scope="team"``, so a worker's run starts from what either of them
learned, each episode naming the agent that learned it. Another tenant's workers see nothing of
it: the tenant boundary does not move. The chat models are scripted (no API key, no network);
the memory is real (the local store, embedding model and PII detector).

Run the security review first, then the code analysis, on one store::

    python examples/team_of_agents.py --store ./team-memory --worker security-reviewer
    python examples/team_of_agents.py --store ./team-memory --worker code-analyst

The second run's model is given the security reviewer's finding. Needs
``pip install 'agent-memory[langgraph]'``.
"""

from __future__ import annotations

import argparse
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.outputs import ChatResult
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.graph.state import CompiledStateGraph
from pydantic import Field

from agent_memory.integrations.langgraph import bootstrap_node, finish_hook
from agent_memory.sdk import MemoryClient, RunResult

TENANT = "acme"
Worker = Literal["security-reviewer", "code-analyst"]
TEAM: tuple[Worker, ...] = ("security-reviewer", "code-analyst")
DOMAIN = "payments_platform"

TASKS: dict[Worker, str] = {
    "security-reviewer": "Review the payments-api webhook handler for security issues.",
    "code-analyst": "Refactor the payments-api webhook handler and keep its signature checks.",
}
ANSWERS: dict[Worker, str] = {
    "security-reviewer": (
        "Security review of the payments-api webhook handler:\n"
        "- The payments-api webhook handler verifies signatures with SHA-1; it must use "
        "HMAC-SHA256.\n"
        "- Signature comparison uses ==, open to timing attacks; use hmac.compare_digest."
    ),
    "code-analyst": (
        "Refactoring plan for the payments-api webhook handler:\n"
        "- Extract the signature check into verify_signature().\n"
        "- Switch it to HMAC-SHA256 with hmac.compare_digest, as the security review asked."
    ),
}


class TeamState(MessagesState):
    """The supervisor's state: the conversation and which worker takes the task."""

    worker: Worker


class RecordingChatModel(FakeMessagesListChatModel):
    """A scripted chat model that records what it was given (to show what memory reached)."""

    received: list[list[BaseMessage]] = Field(default_factory=list)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.received.append(list(messages))
        return super()._generate(messages, stop, run_manager, **kwargs)


def worker_graph(
    memory: MemoryClient, worker: Worker, model: RecordingChatModel, *, tenant_id: str
) -> CompiledStateGraph[Any]:
    """One worker: recall the team's memory, then answer."""
    graph = StateGraph(MessagesState)
    graph.add_node(
        "recall",
        bootstrap_node(
            memory,
            tenant_id=tenant_id,
            agent_id=worker,
            domain=DOMAIN,
            scope="team",
            team=list(TEAM),
        ),
    )
    graph.add_node("answer", lambda state: {"messages": [model.invoke(state["messages"])]})
    graph.add_edge(START, "recall")
    graph.add_edge("recall", "answer")
    graph.add_edge("answer", END)
    return graph.compile()


def supervisor(
    memory: MemoryClient, models: dict[Worker, RecordingChatModel], *, tenant_id: str
) -> CompiledStateGraph[Any]:
    """The team: the supervisor routes the task to the worker the state names."""
    graph = StateGraph(TeamState)
    for worker in TEAM:
        graph.add_node(worker, worker_graph(memory, worker, models[worker], tenant_id=tenant_id))
        graph.add_edge(worker, END)
    graph.add_conditional_edges(START, lambda state: state["worker"], list(TEAM))
    return graph.compile()


@dataclass
class Turn:
    """One worker's run: the model (with what it was given) and the consolidated result."""

    worker: Worker
    model: RecordingChatModel
    result: RunResult

    def memory_received(self) -> str:
        """The memory context the worker's model was given ("" if none)."""
        first = self.model.received[0] if self.model.received else []
        return "\n".join(
            str(m.content)
            for m in first
            if isinstance(m, SystemMessage) and "[MEMORY CONTEXT" in str(m.content)
        )


def run_worker(
    memory: MemoryClient, worker: Worker, *, run_id: str, tenant_id: str = TENANT
) -> Turn:
    """Hand ``worker`` its task through the supervisor, report the run, wait for consolidation."""
    models = {w: RecordingChatModel(responses=[AIMessage(ANSWERS[w])]) for w in TEAM}
    team = supervisor(memory, models, tenant_id=tenant_id)
    state = team.invoke({"messages": [HumanMessage(TASKS[worker])], "worker": worker})
    finish = finish_hook(memory, tenant_id=tenant_id, agent_id=worker, domain=DOMAIN)
    handle = finish(state, run_id=run_id, outcome="COMPLETED")
    return Turn(worker, models[worker], handle.wait(timeout=120))


def main(argv: Sequence[str] | None = None) -> int:
    """Run one worker's task and say what the team's memory gave it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", help="memory directory (default: $AGENT_MEMORY_HOME)")
    parser.add_argument("--worker", default="security-reviewer", choices=TEAM)
    parser.add_argument("--tenant", default=TENANT)
    args = parser.parse_args(argv)
    run_id = f"run-{uuid.uuid4().hex[:12]}"
    with MemoryClient.local(args.store) as memory:
        turn = run_worker(memory, args.worker, run_id=run_id, tenant_id=args.tenant)
    print(f"{args.worker} ({run_id}): {TASKS[args.worker]}")
    received = turn.memory_received()
    print("team memory at the first model call:", "\n" + received if received else "none yet")
    print(f"consolidated: episode {turn.result.get('episode')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
