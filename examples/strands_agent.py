"""A contract-review agent with memory: Strands Agents and agent-memory's local mode, offline.

A Strands ``Agent`` reads a contract clause, checks the company policy and reports its findings.
The model is scripted (no API key, no network) but the memory is real: the local store, the
local embedding model and PII detector. Around the agent:

- ``AgentMemoryStore`` in Strands' ``MemoryManager``: before the model's first call the manager
  searches memory for the task and folds what it found into the model's input; after the
  invocation it hands the store the invocation's messages, reported as one RunFinished event;
- ``MemoryConversationManager`` compresses the conversation before model calls (tiny
  thresholds here, so that even this short run shows it; the defaults are 30 and 15).

The scripted model reads what memory gave it: when memory already holds the company policy, it
does not look the policy up again, so the second run needs one tool call fewer. Run it twice
against one store::

    python examples/strands_agent.py --store ./strands-memory --contract "Northwind MSA"
    python examples/strands_agent.py --store ./strands-memory --contract "Tailspin MSA"

Needs ``pip install 'agent-memory[strands]'``.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from strands import Agent, tool
from strands.memory import MemoryManager
from strands.models.model import Model
from strands.types.content import ContentBlock, Message, Messages
from strands.types.event_loop import StopReason
from strands.types.streaming import StreamEvent
from strands.types.tools import ToolSpec

from agent_memory.core.model.policies import WorkingMemoryPolicy
from agent_memory.integrations.strands import AgentMemoryStore, MemoryConversationManager
from agent_memory.sdk import MemoryClient

TENANT, AGENT = "acme", "contract-reviewer"
TASK_TYPE, DOMAIN = "contract_review", "contract_law"
# Small enough that the last model call of the first run already sees a summary.
DEMO_POLICY = WorkingMemoryPolicy(compress_at=5, keep_recent=2)
SYSTEM_PROMPT = "You review contracts for liability risk. Use the tools; report findings."

CLAUSES = {
    "Northwind MSA": "7.3 Liability. Each party's liability is capped at 0.5x the annual fees.",
    "Tailspin MSA": "9.1 Liability. Aggregate liability shall not exceed 2x the annual fees.",
}
POLICY = "Liability caps below 1x the annual fees need legal sign-off before signature."
# What the model recognises, in what memory gives it, as the policy already known.
POLICY_MARK = "legal sign-off"


@tool
def read_clause(contract: str, topic: str) -> str:
    """Return the clause of ``contract`` about ``topic``."""
    return CLAUSES.get(contract, f"{contract} has no clause about {topic}.")


@tool
def lookup_policy(topic: str) -> str:
    """Return the company policy on ``topic``."""
    return POLICY


@dataclass
class ModelCall:
    """What one model call was given."""

    messages: Messages
    system_prompt: str | None

    def text(self) -> str:
        """Every text the call was given, the system prompt first."""
        texts = [self.system_prompt or ""]
        for message in self.messages:
            for block in message["content"]:
                if "text" in block:
                    texts.append(block["text"])
                for item in block.get("toolResult", {}).get("content", []):
                    texts.append(str(item.get("text", "")))
        return "\n".join(texts)


@dataclass
class ScriptedModel(Model):
    """A Strands model that answers by rule and records every input it was given.

    It reads the clause, then the policy unless what it was given (memory, or its own earlier
    steps) already states it, then reports its findings.
    """

    contract: str
    calls: list[ModelCall] = field(default_factory=list)
    tools_called: list[str] = field(default_factory=list)
    config: dict[str, Any] = field(default_factory=dict)

    def update_config(self, **model_config: Any) -> None:
        """Keep the configuration (nothing in it changes the script)."""
        self.config.update(model_config)

    def get_config(self) -> dict[str, Any]:
        """The configuration given."""
        return self.config

    def structured_output(self, *args: Any, **kwargs: Any) -> Any:
        """Not scripted."""
        raise NotImplementedError("the scripted model has no structured output")

    async def stream(
        self,
        messages: Messages,
        tool_specs: list[ToolSpec] | None = None,
        system_prompt: str | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[StreamEvent]:
        """The next answer of the script, as the stream events a provider sends."""
        call = ModelCall([_copy(m) for m in messages], system_prompt)
        self.calls.append(call)
        for event in _events(self.answer(call)):
            yield event

    def answer(self, call: ModelCall) -> list[ContentBlock]:
        """What the model says next, given what it was given (its summary of earlier steps
        included).
        """
        seen = call.text()
        clause = CLAUSES.get(self.contract, "")
        if clause not in seen:
            # Memory is given to the first call only: what it said is kept in the model's
            # own words, as a model thinking aloud would.
            noted: list[ContentBlock] = (
                [{"text": f"Memory recalls the policy: {POLICY_MARK} below 1x the annual fees."}]
                if POLICY_MARK in seen
                else []
            )
            return noted + self.use("read_clause", contract=self.contract, topic="liability")
        if POLICY_MARK not in seen:
            return self.use("lookup_policy", topic="liability cap")
        cap = clause.split("capped at ")[-1].split("exceed ")[-1].rstrip(".")
        return [
            {
                "text": (
                    f"Findings for the {self.contract}:\n"
                    f"- The liability clause caps liability at {cap}.\n"
                    "- Company policy requires legal sign-off for caps below 1x the annual fees.\n"
                    "- Recommendation: compare the cap with the 1x floor before signature."
                )
            }
        ]

    def use(self, name: str, **arguments: str) -> list[ContentBlock]:
        """A call of tool ``name``, recorded."""
        self.tools_called.append(name)
        call_id = f"call-{len(self.tools_called)}-{name}"
        return [{"toolUse": {"toolUseId": call_id, "name": name, "input": arguments}}]


def _copy(message: Message) -> Message:
    copied: Message = json.loads(json.dumps(message, default=str))
    return copied


def _events(blocks: list[ContentBlock]) -> list[StreamEvent]:
    events: list[StreamEvent] = [{"messageStart": {"role": "assistant"}}]
    for block in blocks:
        if "toolUse" in block:
            use = block["toolUse"]
            events.append(
                {
                    "contentBlockStart": {
                        "start": {"toolUse": {"toolUseId": use["toolUseId"], "name": use["name"]}}
                    }
                }
            )
            events.append(
                {"contentBlockDelta": {"delta": {"toolUse": {"input": json.dumps(use["input"])}}}}
            )
        else:
            events.append({"contentBlockDelta": {"delta": {"text": block.get("text", "")}}})
        events.append({"contentBlockStop": {}})
    stop: StopReason = "tool_use" if any("toolUse" in b for b in blocks) else "end_turn"
    events.append({"messageStop": {"stopReason": stop}})
    return events


@dataclass
class Review:
    """One review: the agent, its model (with what each call was given) and its store."""

    agent: Agent
    model: ScriptedModel
    store: AgentMemoryStore

    def memory_received(self) -> str:
        """The memory the model's first call was given ("" if none)."""
        if not self.model.calls:
            return ""
        text = self.model.calls[0].text()
        start = text.find("<memory>")
        return text[start : text.find("</memory>", start) + len("</memory>")] if start >= 0 else ""

    def answer(self) -> str:
        """The model's final answer."""
        return "\n".join(b.get("text", "") for b in self.agent.messages[-1]["content"])


def review_contract(memory: MemoryClient, contract: str) -> Review:
    """Review ``contract`` with memory; the run is reported and consolidated when it returns."""
    model = ScriptedModel(contract)
    store = AgentMemoryStore(
        memory, tenant_id=TENANT, agent_id=AGENT, task_type=TASK_TYPE, domain=DOMAIN, wait=True
    )
    agent = Agent(
        model=model,
        tools=[read_clause, lookup_policy],
        system_prompt=SYSTEM_PROMPT,
        memory_manager=MemoryManager(stores=[store], search_tool_config=False),
        conversation_manager=MemoryConversationManager(policy=DEMO_POLICY),
        callback_handler=None,
    )
    agent(f"Review the {contract} for liability risk.")
    return Review(agent, model, store)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one review and say what memory gave it and what it did."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--store", help="memory directory (default: $AGENT_MEMORY_HOME)")
    parser.add_argument("--contract", default="Northwind MSA", choices=sorted(CLAUSES))
    args = parser.parse_args(argv)
    with MemoryClient.local(args.store) as memory:
        review = review_contract(memory, args.contract)
    print(f"reviewed the {args.contract}")
    received = review.memory_received()
    print("memory at the first model call:", "\n" + received if received else "none yet")
    tools = ", ".join(review.model.tools_called) or "none"
    print(f"model calls: {len(review.model.calls)}; tools called: {tools}")
    print("final answer:")
    print(review.answer())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
