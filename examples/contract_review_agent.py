"""A contract-review agent with memory: LangGraph and agent-memory's local mode, fully offline.

A ReAct agent (``create_react_agent``) reads a contract clause, checks the company policy and
reports its findings. The chat model is scripted (no API key, no network) but the memory is
real: the local store, the local embedding model and PII detector. Around the agent:

- the bootstrap node asks memory about the task and puts what it remembers in a system message
  before the model's first call;
- the compression hook compresses the working memory before each model call (with tiny
  thresholds here, so that even this short run shows it; the defaults are 30 and 15);
- the finish hook reports the run (a RunFinished event) and waits for its consolidation.

Run it twice against one store; the second run starts from what the first learned::

    python examples/contract_review_agent.py --store ./contract-memory --contract "Northwind MSA"
    python examples/contract_review_agent.py --store ./contract-memory --contract "Tailspin MSA"

Needs ``pip install 'agent-memory[langgraph]'``.
"""

from __future__ import annotations

import argparse
import uuid
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.outputs import ChatResult
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.prebuilt import create_react_agent
from langgraph.warnings import LangGraphDeprecatedSinceV10
from pydantic import Field

from agent_memory.core.model.policies import WorkingMemoryPolicy
from agent_memory.integrations.langgraph import bootstrap_node, compression_hook, finish_hook
from agent_memory.sdk import MemoryClient, RunResult

TENANT, AGENT = "acme", "contract-reviewer"
TASK_TYPE, DOMAIN = "contract_review", "contract_law"
# Small enough that the third model call of a run already sees a summary.
DEMO_POLICY = WorkingMemoryPolicy(compress_at=5, keep_recent=2)

CLAUSES = {
    "Northwind MSA": "7.3 Liability. Each party's liability is capped at 0.5x the annual fees.",
    "Tailspin MSA": "9.1 Liability. Aggregate liability shall not exceed 2x the annual fees.",
}
POLICY = "Liability caps below 1x the annual fees need legal sign-off before signature."


@tool
def read_clause(contract: str, topic: str) -> str:
    """Return the clause of ``contract`` about ``topic``."""
    return CLAUSES.get(contract, f"{contract} has no clause about {topic}.")


@tool
def lookup_policy(topic: str) -> str:
    """Return the company policy on ``topic``."""
    return POLICY


class ScriptedChatModel(FakeMessagesListChatModel):
    """A chat model that answers from a script and records every input it was given.

    LangChain's fake models do not implement ``bind_tools``; the script already holds the
    tool calls, so binding tools changes nothing.
    """

    received: list[list[BaseMessage]] = Field(default_factory=list)

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedChatModel:
        """The model itself: the script decides which tools are called."""
        return self

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.received.append(list(messages))
        return super()._generate(messages, stop, run_manager, **kwargs)


def script(contract: str) -> list[BaseMessage]:
    """What the model says in a review of ``contract``: two tool calls, then its findings."""
    clause = CLAUSES.get(contract, "")
    cap = clause.split("capped at ")[-1].split("exceed ")[-1].rstrip(".") if clause else "?"
    return [
        AIMessage(
            content="",
            tool_calls=[
                {
                    "name": "read_clause",
                    "args": {"contract": contract, "topic": "liability"},
                    "id": "call-clause",
                }
            ],
        ),
        AIMessage(
            content="",
            tool_calls=[
                {"name": "lookup_policy", "args": {"topic": "liability cap"}, "id": "call-policy"}
            ],
        ),
        AIMessage(
            content=(
                f"Findings for the {contract}:\n"
                f"- The liability clause caps liability at {cap}.\n"
                "- Company policy requires legal sign-off for caps below 1x the annual fees.\n"
                "- Recommendation: compare the cap with the 1x floor before signature."
            )
        ),
    ]


def build_agent(memory: MemoryClient, model: ScriptedChatModel) -> CompiledStateGraph[Any]:
    """The agent, behind a node that recalls memory first."""
    with warnings.catch_warnings():
        # Moved to `langchain.agents.create_agent` in LangGraph 1.0; the prebuilt one (and its
        # pre_model_hook contract) is still LangGraph's own.
        warnings.simplefilter("ignore", LangGraphDeprecatedSinceV10)
        react = create_react_agent(
            model,
            [read_clause, lookup_policy],
            pre_model_hook=compression_hook(policy=DEMO_POLICY),
        )
    graph = StateGraph(MessagesState)
    graph.add_node(
        "recall",
        bootstrap_node(
            memory, tenant_id=TENANT, agent_id=AGENT, task_type=TASK_TYPE, domain=DOMAIN
        ),
    )
    graph.add_node("agent", react)
    graph.add_edge(START, "recall")
    graph.add_edge("recall", "agent")
    graph.add_edge("agent", END)
    return graph.compile()


@dataclass
class Review:
    """One review: the final state, the model (with what it received) and the run's result."""

    state: dict[str, Any]
    model: ScriptedChatModel
    result: RunResult

    def memory_received(self) -> str:
        """The memory context the model's first call was given ("" if none)."""
        first = self.model.received[0] if self.model.received else []
        return "\n".join(
            str(m.content)
            for m in first
            if isinstance(m, SystemMessage) and "[MEMORY CONTEXT" in str(m.content)
        )


def review_contract(memory: MemoryClient, contract: str, *, run_id: str) -> Review:
    """Review ``contract`` with memory, report the run and wait for its consolidation."""
    model = ScriptedChatModel(responses=script(contract))
    agent = build_agent(memory, model)
    task = f"Review the {contract} for liability risk."
    state = agent.invoke({"messages": [HumanMessage(task)]})
    finish = finish_hook(
        memory, tenant_id=TENANT, agent_id=AGENT, task_type=TASK_TYPE, domain=DOMAIN
    )
    handle = finish(state, run_id=run_id, outcome="COMPLETED")
    return Review(state, model, handle.wait(timeout=120))


def main(argv: Sequence[str] | None = None) -> int:
    """Run one review and say what memory gave it and what it left behind."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", help="memory directory (default: $AGENT_MEMORY_HOME)")
    parser.add_argument("--contract", default="Northwind MSA", choices=sorted(CLAUSES))
    parser.add_argument("--run-id", default=None)
    args = parser.parse_args(argv)
    run_id = args.run_id or f"run-{uuid.uuid4().hex[:12]}"
    with MemoryClient.local(args.store) as memory:
        review = review_contract(memory, args.contract, run_id=run_id)
    print(f"run {run_id}: reviewed the {args.contract}")
    received = review.memory_received()
    print("memory at the first model call:", "\n" + received if received else "none yet")
    print(f"model calls: {len(review.model.received)}; final answer:")
    print(review.state["messages"][-1].content)
    print(f"consolidated: episode {review.result.get('episode')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
