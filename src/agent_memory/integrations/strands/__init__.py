"""Strands Agents integration: agent-memory as a memory store, and working-memory compression.

Needs ``strands-agents`` (the ``strands`` extra). Two pieces, usable separately:

- :class:`AgentMemoryStore`: a ``strands.memory`` store for ``MemoryManager``. Its ``search``
  returns the procedure, past episodes (naming the agent whose run each was) and confirmed
  facts memory holds for the query; after each invocation the manager hands it the
  invocation's messages, reported as one RunFinished event (idempotent on their sequence
  numbers), with the outcome of the procedure it served.
- :class:`MemoryConversationManager`: a conversation manager that compresses long
  conversations with the core's working memory, never separating a ``toolUse`` from its
  ``toolResult``.

Example (offline model aside: any Strands model)::

    from strands import Agent
    from strands.memory import MemoryManager

    from agent_memory.integrations.strands import AgentMemoryStore, MemoryConversationManager
    from agent_memory.sdk import MemoryClient

    with MemoryClient.local() as memory:
        store = AgentMemoryStore(
            memory, tenant_id="acme", agent_id="reviewer", task_type="contract_review"
        )
        agent = Agent(
            model=model,
            memory_manager=MemoryManager(stores=[store]),
            conversation_manager=MemoryConversationManager(),
        )
        agent("Review the Northwind MSA for liability risk.")
"""

try:
    import strands  # noqa: F401
except ImportError as error:
    raise ImportError(
        "agent_memory.integrations.strands needs Strands Agents: "
        "pip install 'agent-memory[strands]'"
    ) from error

from agent_memory.integrations.strands.conversation import MemoryConversationManager
from agent_memory.integrations.strands.messages import first_user_text, to_core_messages
from agent_memory.integrations.strands.store import (
    DEFAULT_MAX_SEARCH_RESULTS,
    AgentMemoryStore,
    Outcome,
    every_invocation,
    invocation_outcome,
    memory_entries,
)

__all__ = [
    "DEFAULT_MAX_SEARCH_RESULTS",
    "AgentMemoryStore",
    "MemoryConversationManager",
    "Outcome",
    "every_invocation",
    "first_user_text",
    "invocation_outcome",
    "memory_entries",
    "to_core_messages",
]
