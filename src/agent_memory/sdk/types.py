"""Typed views of what the service answers: the bootstrap reply, a run's result, procedures.

They are ``TypedDict`` s: the reply stays the plain JSON object README.md's "The bootstrap
reply" shows (it can be logged or forwarded as is), and a type checker knows its fields.
"""

# No ``from __future__ import annotations`` here: TypedDict tells NotRequired keys from
# required ones only when annotations are evaluated.
from typing import Any, Literal, NotRequired, TypedDict

# The reply's shape is the core's, which builds it: one definition for the core, the Lambda
# and both of the SDK's modes.
from agent_memory.core.api.bootstrap_reply import (
    BOOTSTRAP_REPLY_KEYS,
    BootstrapReply,
    EpisodeUnitView,
    EpisodeView,
    FactView,
    ProcedureView,
    SearchReply,
)
from agent_memory.core.api.episode_record import EpisodePage, EpisodeRecord
from agent_memory.core.api.flag_page import FlagRecord

__all__ = [
    "BOOTSTRAP_REPLY_KEYS",
    "BootstrapReply",
    "EpisodePage",
    "EpisodeRecord",
    "EpisodeUnitView",
    "EpisodeView",
    "FactView",
    "FlagRecord",
    "ProcedureView",
    "RunResult",
    "SearchReply",
]


class RunResult(TypedDict):
    """What became of a finished run.

    Locally (``status`` ``CONSOLIDATED``) the consolidation summary: the episode, the facts
    observed and confirmed, the procedure proposed, the feedback counted, the PII scrubbed. On
    AWS (``status`` ``SUBMITTED``) the bus's receipt: consolidation goes on in Step Functions.
    """

    status: Literal["CONSOLIDATED", "SUBMITTED"]
    run_id: str
    tenant_id: str
    event_id: NotRequired[str]
    outcome: NotRequired[str]
    extracted_by: NotRequired[str | None]
    episode: NotRequired[str]
    # An exact replay of a run consolidated already; a run_id recorded with other content (then
    # nothing was written, and ``notes`` says so).
    already_consolidated: NotRequired[bool]
    run_id_reused: NotRequired[bool]
    facts_observed: NotRequired[int]
    facts_confirmed: NotRequired[list[str]]
    facts_contested: NotRequired[list[str]]
    # Per fact the run reported: its confirmations of those its rule needs, whether this run
    # counted, and when this agent's next run (``counts_again_at``) and another agent's
    # (``others_count_from``) can count; ``said`` puts it in words.
    facts: NotRequired[list[dict[str, Any]]]
    kb_documents_staged: NotRequired[int]
    procedure_proposed: NotRequired[str | None]
    procedure_created: NotRequired[bool]
    procedure_feedback: NotRequired[dict[str, Any] | None]
    # The proposed procedure's status and, while it waits for a person, where they review it.
    procedure_review: NotRequired[dict[str, Any] | None]
    pii_entities: NotRequired[dict[str, int]]
    # What a write-path limit left out, one line each (``episode`` is "not kept" when the run
    # finished past the episodes' retention).
    not_kept: NotRequired[list[str]]
    # What the summary says for people, a line each: each fact's standing, the procedure's
    # review, a reused run_id.
    notes: NotRequired[list[str]]
