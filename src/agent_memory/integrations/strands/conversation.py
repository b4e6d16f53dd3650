"""``MemoryConversationManager``: working-memory compression for long Strands conversations.

The application's ``compress`` decides what is summarized (it never separates a tool use from
its result); this module maps its choice back onto the agent's messages, which stay the
originals except for one summary message in front.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from strands.agent.conversation_manager import ConversationManager
from strands.hooks import BeforeModelCallEvent, HookRegistry
from strands.types.content import Message as StrandsMessage
from strands.types.exceptions import ContextWindowOverflowException

from agent_memory.app.in_run import Summarize, compress, summarizer
from agent_memory.core.model.models import Message
from agent_memory.core.model.policies import WorkingMemoryPolicy
from agent_memory.core.ports import ChatModel
from agent_memory.integrations.strands.messages import message_parts

if TYPE_CHECKING:
    from strands import Agent

__all__ = ["MemoryConversationManager"]

_log = logging.getLogger(__name__)


class MemoryConversationManager(ConversationManager):
    """Compresses a Strands agent's conversation with agent-memory's working memory.

    Once the conversation holds ``policy.compress_at`` messages (as the core counts them: a
    user message's text and each of its tool results count apart), before a model call and
    after each invocation, the oldest are replaced by ONE summary (a user message opening the
    conversation), and the last ``policy.keep_recent`` or a few more are kept as they were: the
    cut never separates a ``toolUse`` from its ``toolResult``, and the first kept message is
    the model's, so roles still alternate. A later summary folds the earlier one in.

    ``summarize`` (a function of core messages) or ``chat`` (a small, cheap ``ChatModel``)
    writes the summary; without either, the extractive summary (no model) does. On a context
    overflow, :meth:`reduce_context` keeps half of the conversation, or raises
    ``ContextWindowOverflowException`` when nothing can be summarized.
    """

    def __init__(
        self,
        *,
        policy: WorkingMemoryPolicy = WorkingMemoryPolicy(),
        summarize: Summarize | None = None,
        chat: ChatModel | None = None,
        before_model_calls: bool = True,
        proactive_compression: bool | None = None,
    ) -> None:
        super().__init__(proactive_compression=proactive_compression)
        if summarize is not None and chat is not None:
            raise ValueError("MemoryConversationManager: give summarize or chat, not both")
        self.policy = policy
        self._summarize: Summarize = summarize or summarizer(chat)
        self._before_model_calls = before_model_calls
        self._summary_message: StrandsMessage | None = None

    def register_hooks(self, registry: HookRegistry, **kwargs: Any) -> None:
        """The base class's hooks, and compression before each model call."""
        super().register_hooks(registry, **kwargs)
        if self._before_model_calls:
            registry.add_callback(BeforeModelCallEvent, self._on_before_model_call)

    def _on_before_model_call(self, event: BeforeModelCallEvent) -> None:
        self.compress(event.agent.messages, self.policy)

    def apply_management(self, agent: Agent, **kwargs: Any) -> None:
        """Compress the conversation once it is long (see the class)."""
        self.compress(agent.messages, self.policy)

    def reduce_context(self, agent: Agent, e: Exception | None = None, **kwargs: Any) -> None:
        """Summarize the older half of the conversation; on an overflow (``e``), raise
        ``ContextWindowOverflowException`` when nothing can be summarized.
        """
        parts = [p for p in self._parts(agent.messages) if p.message.role != "system"]
        overflow = WorkingMemoryPolicy(compress_at=1, keep_recent=max(1, len(parts) // 2))
        try:
            changed = self.compress(agent.messages, overflow)
        except Exception as error:
            if e is not None:
                raise
            _log.warning("proactive compression failed, continuing: %s", error)
            return
        if not changed and e is not None:
            raise ContextWindowOverflowException(
                "the conversation has nothing left to summarize"
            ) from e

    def compress(self, messages: list[StrandsMessage], policy: WorkingMemoryPolicy) -> bool:
        """Compress ``messages`` in place under ``policy``; whether anything changed."""
        parts = self._parts(messages)
        core = [p.message for p in parts]
        source = {id(p.message): p.source for p in parts}
        keep = self._keep_from(messages, core, source, policy)
        if keep is None:
            return False
        compressed = compress(core, self._summarize, replace(policy, keep_recent=keep))
        first = min(source[id(m)] for m in compressed if id(m) in source)
        summary = next(m for m in compressed if id(m) not in source)
        removed = [m for m in messages[:first] if m is not self._summary_message]
        kept = [m for m in messages[first:] if m is not self._summary_message]
        self.removed_message_count += len(removed)
        self._summary_message = {
            "role": "user",
            "content": [{"text": summary.content}],
            "tracking_id": str(uuid.uuid4()),
        }
        messages[:] = [self._summary_message, *kept]
        return True

    def _keep_from(
        self,
        messages: list[StrandsMessage],
        core: list[Message],
        source: dict[int, int],
        policy: WorkingMemoryPolicy,
    ) -> int | None:
        """The smallest ``keep_recent`` from the policy's up whose cut leaves the model's
        message first (None: no such cut, nothing to compress).
        """
        rest = sum(1 for m in core if m.role != "system")
        for keep in range(policy.keep_recent, rest):
            # A dry run: maybe_compress is deterministic, and only the summary is costly.
            probe = compress(core, _no_summary, replace(policy, keep_recent=keep))
            kept = [source[id(m)] for m in probe if id(m) in source]
            if len(probe) == len(core) and all(a is b for a, b in zip(probe, core, strict=True)):
                return None
            first = min(kept, default=len(messages))
            if first < len(messages) and messages[first]["role"] == "assistant":
                return keep
        return None

    def _parts(self, messages: list[StrandsMessage]) -> list[Any]:
        parts = message_parts(messages)
        if self._summary_message is None:
            return parts
        # Our summary is a user message to Strands; to the core, the summary it is.
        return [
            replace(p, message=Message("system", p.message.content))
            if messages[p.source] is self._summary_message
            else p
            for p in parts
        ]

    def get_state(self) -> dict[str, Any]:
        """The base class's state and the current summary message."""
        return {"summary_message": self._summary_message, **super().get_state()}

    def restore_from_session(self, state: dict[str, Any]) -> list[StrandsMessage] | None:
        """Restore the summary, which opens the restored conversation."""
        super().restore_from_session(state)
        self._summary_message = state.get("summary_message")
        return [self._summary_message] if self._summary_message else None


def _no_summary(messages: object) -> str:
    return ""
