"""The bootstrap reply's shape: what the core builds, the Lambda returns and the SDK types.

They are ``TypedDict`` s: the reply stays the plain JSON object README.md's "The bootstrap
reply" shows (it can be logged, measured against Lambda's payload limit or forwarded as is, with
no codec in between), and a type checker holds the core's builder and every reader of the reply
to the same fields. The SDK re-exports them (``agent_memory.sdk.types``).
"""

# No ``from __future__ import annotations`` here: TypedDict tells NotRequired keys from
# required ones only when annotations are evaluated (``BOOTSTRAP_REPLY_KEYS`` relies on it).
import json
from collections.abc import Mapping
from typing import Literal, NotRequired, TypedDict


class EpisodeUnitView(TypedDict):
    """A message or finding of a past run that matched the task."""

    kind: Literal["message", "finding"]
    seq: int
    speaker: str | None
    text: str
    score: float


class EpisodeView(TypedDict):
    """A past run of the agent found relevant to the task (episodic memory)."""

    run_id: str
    # The agent whose run it was (a read scoped to a team or the tenant sees other agents').
    agent_id: str
    task_summary: str
    outcome: str
    similarity: float
    score: float
    created_at: float
    key_findings: list[str]
    reusable_patterns: list[str]
    units: list[EpisodeUnitView]


class FactView(TypedDict):
    """A confirmed domain fact found relevant to the task (semantic memory)."""

    content: str
    score: float
    source: str
    fact_hash: str


# A procedure's status as the reply spells it: the values of ``models.ProcedureStatus``.
ProcedureStatusName = Literal["PENDING", "VALIDATED", "REJECTED", "NEEDS_REVIEW", "RETIRED"]


class ProcedureView(TypedDict):
    """A procedure with its status and track record (procedural memory)."""

    procedure_id: str
    tenant_id: str
    task_type: str
    status: ProcedureStatusName
    title: str
    steps: list[str]
    trial: bool
    times_applied: int
    times_succeeded: int
    success_rate: float | None
    # The first runs that proposed it; ``proposals`` counts them all.
    proposed_by_runs: list[str]
    proposals: int
    reviewer: str | None
    reviewed_at: float | None
    review_note: str | None
    # How many times a person replaced its steps (an edit names the revision it read), who
    # made the last edit and when (None: the steps are as a run proposed them).
    revision: int
    edited_by: str | None
    edited_at: float | None
    # In a bootstrap reply only: the serving receipt a report on this procedure must carry back
    # (``procedure_feedback.receipt``) to be counted; None when the deployment signs none.
    receipt: NotRequired[str | None]


class ReplyContent(TypedDict):
    """The part of a bootstrap reply that the byte budget trims: the context block and what
    each tier found (:class:`BootstrapReply` adds how it was ranked, trimmed and timed).
    """

    context: str
    context_token: str | None
    context_guidance: str | None
    episodes: list[EpisodeView]
    facts: list[FactView]
    procedure: ProcedureView | None


class BootstrapReply(ReplyContent):
    """The memory of a run about to start.

    ``context`` is the block to give the model in a message of its own, after its instructions
    and before the task (empty when nothing relevant is remembered); ``context_guidance`` the
    sentence to add to the instructions, naming the block's boundaries by ``context_token``,
    the random token of this reply's marker lines (both ``None`` with an empty block);
    ``episodes``, ``facts`` and ``procedure`` are what each tier found;
    ``episodes_ranked_by`` the reranker model that ordered the episodes (``None``: the index
    did, with no reranker configured or none available at the time); ``timings_ms`` how long
    each took (``query``, ``embed``, ``episodic``, ``rerank``, ``semantic``, ``procedural``,
    ``total``); ``unavailable`` the tiers that could not be read, and why (a damaged or
    failing store: the reply serves the others).
    """

    episodes_ranked_by: str | None
    # What was trimmed to keep the reply within the deployment's byte budget, by kind
    # ("episodes", "facts", "episode_parts", "procedure_steps", "texts"); empty when nothing.
    truncated: dict[str, int]
    # The tiers whose store could not be read ("episodic", "semantic", "procedural"), each
    # with why in one line; the others were served. Empty when every tier was read.
    unavailable: dict[str, str]
    timings_ms: dict[str, float]


class SearchReply(TypedDict):
    """What a search of memory found for a query: episodes and facts, best first (the same
    retrieval as a bootstrap's, without the block or a procedure).
    """

    episodes: list[EpisodeView]
    facts: list[FactView]


def found_in(reply: ReplyContent, limit: int | None = None) -> SearchReply:
    """The episodes and facts of ``reply``, at most ``limit`` of each."""
    return {"episodes": reply["episodes"][:limit], "facts": reply["facts"][:limit]}


BOOTSTRAP_REPLY_KEYS = frozenset(BootstrapReply.__required_keys__)
"""The keys every bootstrap reply carries, whichever deployment sent it."""


def reply_bytes(reply: Mapping[str, object]) -> int:
    """A reply's size as JSON with non-ASCII escaped: the larger of the two forms a runtime
    may send (a 4-byte character takes 12 bytes as a surrogate pair's escapes).
    """
    return len(json.dumps(reply))
