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

In an agent (any Strands model), pass ``memory_manager=MemoryManager(stores=[store])`` and
``conversation_manager=MemoryConversationManager()`` to ``Agent``: the manager searches the
store before the model's first call and hands it each invocation's messages afterwards
(``examples/strands_agent.py`` runs one offline). The store alone, on the local memory::

    import asyncio

    from strands.memory import AddMessagesContext

    from agent_memory.integrations.strands import AgentMemoryStore
    from agent_memory.sdk import MemoryClient

    with MemoryClient.local() as memory:
        store = AgentMemoryStore(memory, tenant_id="acme", agent_id="reviewer", wait=True)
        invocation = [
            {"role": "user", "content": [{"text": "Review the Northwind MSA for liability risk."}]},
            {"role": "assistant", "content": [{"text": "Clause 7.3 caps liability at 0.5x fees."}]},
        ]
        asyncio.run(store.add_messages(invocation, AddMessagesContext(sequence_numbers=[0, 1])))
        for entry in asyncio.run(store.search("Review the Tailspin MSA liability cap")):
            print(entry.metadata["kind"], entry.content)
"""

try:
    import strands  # noqa: F401
except ImportError as error:
    from agent_memory.adapters.install import install_command

    raise ImportError(
        f"agent_memory.integrations.strands needs Strands Agents: {install_command('strands')}"
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
