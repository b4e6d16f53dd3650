"""What memory does inside a run, in the agent's own process and with no store: working memory
(old messages compressed into one summary once the list grows) and the run's artifacts
distilled by the agent's own model before the run is reported.

The framework integrations (LangGraph, Strands) call these; the rules are the working-memory
tier's and the extraction workflow's, written once in the core.

Example::

    summarize = summarizer(chat)              # or summarizer(None): extractive, no model
    messages = compress(messages, summarize)  # unchanged below the policy's threshold
"""

from __future__ import annotations

from collections.abc import Sequence

from agent_memory.core.model.models import Message, RunArtifacts
from agent_memory.core.model.policies import WorkingMemoryPolicy
from agent_memory.core.ports import ChatModel
from agent_memory.core.tiers.working_memory import (
    Summarize,
    chat_summarizer,
    extractive_summary,
    maybe_compress,
    summary_message,
)
from agent_memory.core.workflows.extraction import extract_run_artifacts

__all__ = ["Summarize", "compress", "extract_artifacts", "summarizer", "summary_message"]


def summarizer(chat: ChatModel | None) -> Summarize:
    """How a run's old messages are summarized: by ``chat`` (a small, cheap model), or without
    a model (an extractive summary) when it is None.
    """
    return extractive_summary if chat is None else chat_summarizer(chat)


def compress(
    messages: Sequence[Message],
    summarize: Summarize,
    policy: WorkingMemoryPolicy = WorkingMemoryPolicy(),
) -> list[Message]:
    """The messages, their oldest replaced by one summary once there are ``compress_at`` or
    more (system messages and the last ``keep_recent`` stay; a tool result never leaves the
    call it answers).
    """
    return maybe_compress(messages, summarize, policy)


def extract_artifacts(messages: Sequence[Message], chat: ChatModel) -> RunArtifacts:
    """The run's artifacts (summary, outcome, findings, facts, procedure) as ``chat`` reads
    them from its messages; a reply of the wrong shape gives outcome ``UNKNOWN``.
    """
    return extract_run_artifacts(messages, chat)
