"""The commands and queries of agent-memory: what any surface may ask of it.

Each message is a frozen record, already parsed and checked by the surface that built it
(:mod:`agent_memory.app.parsing` turns JSON into one), and names the type of its reply:
``Application.handle(Ingest())`` is typed ``IngestionReport``. One handler answers each
(``application.HANDLERS``); adding an operation is one message, one handler and one line in
each surface that offers it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

from agent_memory.core.model.models import (
    Fact,
    FactStatus,
    ProcedureStatus,
    Retention,
    RunFinished,
)
from agent_memory.core.model.scope import AGENT_SCOPE, Scope
from agent_memory.core.ports import Embedder, FloatArray
from agent_memory.core.workflows.run_state import RunState

if TYPE_CHECKING:  # replies, named in the messages' bases (strings ruff cannot see used)
    from agent_memory.app.replies import (  # noqa: F401
        FailureRecorded,
        ProcedureComparison,
        ReviewItem,
    )
    from agent_memory.core.api.bootstrap_reply import (  # noqa: F401
        BootstrapReply,
        ProcedureView,
    )
    from agent_memory.core.api.episode_record import EpisodePage, EpisodeRecord  # noqa: F401
    from agent_memory.core.api.episode_search import EpisodeSearch  # noqa: F401
    from agent_memory.core.api.fact_record import FactPage, FactRecord  # noqa: F401
    from agent_memory.core.api.flag_page import FlagPage, FlagRecord  # noqa: F401
    from agent_memory.core.api.history_page import HistoryPage  # noqa: F401
    from agent_memory.core.model.requests import BootstrapRequest
    from agent_memory.core.workflows.consolidation import RunsToReplay  # noqa: F401
    from agent_memory.core.workflows.decay import DecayPreview, DecayReport  # noqa: F401
    from agent_memory.core.workflows.forgetting import RunsForgotten  # noqa: F401
    from agent_memory.core.workflows.ingestion import IngestionReport  # noqa: F401
    from agent_memory.core.workflows.redaction import TextRedacted  # noqa: F401
    from agent_memory.core.workflows.reembed import ReembedReport, ReembedStatus  # noqa: F401
    from agent_memory.core.workflows.stats import MemoryStats  # noqa: F401
    from agent_memory.core.workflows.tenants import ForgetReceipt, TenantExport  # noqa: F401

R_co = TypeVar("R_co", covariant=True)


class Message(Generic[R_co]):
    """A command or a query whose handler replies with an ``R_co``."""

    __slots__ = ()


# --- the write path ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ConsolidateRun(Message["RunState"]):
    """Consolidate one finished run: ``event`` is its event as sent (a detail or an EventBridge
    envelope, kept for replay if a step fails), ``run`` the same event parsed into its domain
    record (:func:`agent_memory.app.wire.run_message` makes one from JSON).
    """

    event: Mapping[str, Any]
    run: RunFinished


@dataclass(frozen=True, slots=True)
class ExtractRun(Message["RunState"]):
    """The first step of a consolidation carried out step by step (the state machine): the run
    distilled, nothing written yet (a run consolidated before is answered from its record).
    """

    run: RunFinished


@dataclass(frozen=True, slots=True)
class ContinueRun(Message["RunState"]):
    """One step after ``extract`` (``scrub`` ... ``propose_procedure``) on the run's state."""

    step: Literal["scrub", "write_episode", "confirm_facts", "stage_kb_docs", "propose_procedure"]
    state: RunState


@dataclass(frozen=True, slots=True)
class RecordFailure(Message["FailureRecorded"]):
    """Keep a run whose consolidation failed where it can be replayed from: its ``event``,
    the ``error`` (``Error``, ``Cause``, ``Step``) and the ``execution`` that failed, if any.
    """

    event: Any
    error: Any = None
    execution: Any = None


@dataclass(frozen=True, slots=True)
class ListRunsToReplay(Message["RunsToReplay"]):
    """Runs that failed, and runs started longer than ``incomplete_after`` seconds ago and
    never consolidated.
    """

    incomplete_after: float


@dataclass(frozen=True, slots=True)
class ReplayRun(Message["RunState"]):
    """Complete one failed or incomplete run, by the key it is listed under."""

    key: str


@dataclass(frozen=True, slots=True)
class RedeliveryOf(Message["dict[str, Any] | None"]):
    """The RunFinished detail that completes an incomplete run, by its key (its identity and
    scrubbed task; extract answers it from the run's record); None if the record is gone.
    """

    key: str


# --- the read path ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Bootstrap(Message["BootstrapReply"]):
    """The memory context for a run about to start."""

    request: BootstrapRequest


@dataclass(frozen=True, slots=True)
class SearchEpisodes(Message["EpisodeSearch"]):
    """The episodes of the scope's agents (``agent_id``'s own by default) and their units best
    matching ``text``, best first, ranked as bootstrap ranks them: the full ranking, with no
    similarity threshold unless ``min_similarity`` is given. ``as_of`` reckons recency and
    dates from that moment instead of now (a benchmark's question asked on its own date; it
    hides no episode stored later) and ``query_vector`` is the embedding of ``text``'s query
    form when the caller has it already: neither is sent to a function. With ``since`` or
    ``until`` (seconds since the epoch), only episodes created in ``[since, until)`` are
    ranked: the result still holds up to ``top_episodes`` of them.
    """

    tenant_id: str
    agent_id: str
    text: str
    top_episodes: int = 10
    top_units: int = 10
    scope: Scope = AGENT_SCOPE
    as_of: float | None = None
    min_similarity: float | None = None
    query_vector: FloatArray | None = field(default=None, compare=False)
    since: float | None = None
    until: float | None = None


@dataclass(frozen=True, slots=True)
class GetEpisode(Message["EpisodeRecord | None"]):
    """One agent's episode of one run, as stored (None: it has none)."""

    tenant_id: str
    agent_id: str
    run_id: str


@dataclass(frozen=True, slots=True)
class ListEpisodes(Message["EpisodePage"]):
    """One page of an agent's unexpired episodes, newest first; with ``since`` or ``until``
    (seconds since the epoch), only those created in ``[since, until)``: a cursor continues
    the listing given the same bounds.
    """

    tenant_id: str
    agent_id: str
    limit: int = 100
    cursor: str | None = None
    since: float | None = None
    until: float | None = None


@dataclass(frozen=True, slots=True)
class History(Message["HistoryPage"]):
    """One page of the tenant's history (every decision people made about its memory), newest
    first; ``cursor`` continues a listing.
    """

    tenant_id: str
    limit: int = 50
    cursor: str | None = None
    # Only the decisions about this record (a procedure's id, a fact's ``domain/hash``, ...).
    record_id: str | None = None


@dataclass(frozen=True, slots=True)
class GetFact(Message["FactRecord | None"]):
    """One fact of the tenant's domain with its confirmations (None: the tenant has none by
    that hash in the domain).
    """

    tenant_id: str
    domain: str
    fact_hash: str


@dataclass(frozen=True, slots=True)
class ListFacts(Message["FactPage"]):
    """One page of the tenant's facts (of one status, of one domain, when given), each with its
    confirmations; ``cursor`` continues a listing.
    """

    tenant_id: str
    status: FactStatus | None = None
    domain: str | None = None
    limit: int = 100
    cursor: str | None = None


@dataclass(frozen=True, slots=True)
class ListAgents(Message[list[str]]):
    """The tenant's agents with unexpired episodes, sorted."""

    tenant_id: str


@dataclass(frozen=True, slots=True)
class Stats(Message["MemoryStats"]):
    """What memory holds, of one tenant or (None) of every tenant."""

    tenant_id: str | None = None
    count_failed_runs: bool = True


@dataclass(frozen=True, slots=True)
class ExportTenant(Message["TenantExport"]):
    """Every record of the tenant as JSON lines, then the export's receipt."""

    tenant_id: str


# --- human review -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ListProcedures(Message[list["ProcedureView"]]):
    """The procedures of a tenant (None: every tenant), of one status (None: any)."""

    tenant_id: str | None = None
    status: ProcedureStatus | None = None


@dataclass(frozen=True, slots=True)
class ShowProcedure(Message["ProcedureView"]):
    """One procedure, within its tenant when one is named."""

    procedure_id: str
    tenant_id: str | None = None


@dataclass(frozen=True, slots=True)
class DecideProcedure(Message["ProcedureView"]):
    """A person approves (validates) or rejects a procedure; the reviewer and the reason are
    recorded. Approving a rejected or retired one overrules that person's decision:
    ``overrule`` says so. ``expected_revision`` is the revision of the steps they read (None:
    whatever they are now): an edit made since is never decided unread.
    """

    procedure_id: str
    approve: bool
    reviewer: str
    note: str | None = None
    tenant_id: str | None = None
    overrule: bool = False
    expected_revision: int | None = None


@dataclass(frozen=True, slots=True)
class EditProcedure(Message["ProcedureView"]):
    """A person replaces the steps (and the title, unless None) of a procedure not served yet,
    saying why; ``expected_revision`` is the revision they read (None: whatever it is now).
    The procedure keeps its id and status: it is served once a person approves it.
    """

    tenant_id: str
    procedure_id: str
    steps: tuple[str, ...]
    reviewer: str
    reason: str
    title: str | None = None
    expected_revision: int | None = None


@dataclass(frozen=True, slots=True)
class RetireProcedure(Message["ProcedureView"]):
    """A person takes a served procedure out of service for good, saying why."""

    tenant_id: str
    procedure_id: str
    reviewer: str
    reason: str


@dataclass(frozen=True, slots=True)
class ReviewQueue(Message[list["ReviewItem"]]):
    """Every procedure awaiting a person's decision (of one tenant, or of all), with its
    evidence: its runs, its record, the diff to the procedure it would replace.
    """

    tenant_id: str | None = None


@dataclass(frozen=True, slots=True)
class CompareProcedure(Message["ProcedureComparison"]):
    """A procedure step by step against the one served for its task type, or ``against``."""

    procedure_id: str
    against: str | None = None


@dataclass(frozen=True, slots=True)
class FastPathFacts(Message[list["Fact"]]):
    """The tenant's confirmed facts the knowledge base does not serve yet (of one domain, or of
    every domain: None).
    """

    tenant_id: str
    domain: str | None = None


@dataclass(frozen=True, slots=True)
class ListContestedFacts(Message[list["Fact"]]):
    """The tenant's facts held back as contradictions, for a person to decide."""

    tenant_id: str


@dataclass(frozen=True, slots=True)
class ResolveFact(Message[tuple[str, ...]]):
    """A person's (``reviewer``'s) decision on a contested fact, recorded in the tenant's
    history; the reply names the facts removed.
    """

    tenant_id: str
    domain: str
    fact_hash: str
    keep: Literal["new", "old", "both"]
    reviewer: str


@dataclass(frozen=True, slots=True)
class RetractFact(Message["FactRecord"]):
    """A person (``actor``) retracts a fact: served nowhere from the next bootstrap on, its KB
    document deleted, never promoted again by agents' sightings; recorded in the history
    (``reason``; a digest of the content, never the content). The reply is the fact after.
    """

    tenant_id: str
    domain: str
    fact_hash: str
    actor: str
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class CorrectFact(Message["FactRecord"]):
    """A person's ``content`` supersedes a fact at once: a new fact CONFIRMED in their name,
    served from the next bootstrap on, and the old one retracted, naming it; recorded in the
    history. The reply is the new fact.
    """

    tenant_id: str
    domain: str
    fact_hash: str
    content: str
    actor: str
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class AssertFact(Message["FactRecord"]):
    """A person's fact of the domain, CONFIRMED at once in their name (agents' facts still go
    through confirmation), served from the next bootstrap on; recorded in the history. The
    reply is the fact.
    """

    tenant_id: str
    domain: str
    content: str
    actor: str
    reason: str | None = None


# --- flags: agents flag, people decide ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FlagMemory(Message["FlagRecord"]):
    """An agent reports an item memory served it as wrong: ``kind`` ``episode`` (``record_id``
    its run id, or ``{agent}/{run}`` for another agent's), ``fact`` (its hash) or ``procedure``
    (its id), with why. That agent is not served the item from its next read on; others are,
    until a person decides. Flagging it again is the same flag.
    """

    tenant_id: str
    agent_id: str
    kind: str
    record_id: str
    reason: str
    run_id: str | None = None


@dataclass(frozen=True, slots=True)
class ListFlags(Message["FlagPage"]):
    """One page of the tenant's open flags; ``cursor`` continues a listing."""

    tenant_id: str
    limit: int = 50
    cursor: str | None = None


@dataclass(frozen=True, slots=True)
class CloseFlag(Message["FlagRecord"]):
    """A person (``actor``) closes an open flag, with why: ``dismissed`` (the item was right:
    its agent is served it again) or ``acted`` (it was dealt with, e.g. the fact retracted).
    """

    tenant_id: str
    flag_id: str
    actor: str
    reason: str | None = None
    outcome: Literal["dismissed", "acted"] = "dismissed"


# --- maintenance ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Ingest(Message["IngestionReport"]):
    """One batched knowledge-base ingestion window."""


@dataclass(frozen=True, slots=True)
class Decay(Message["DecayReport"]):
    """The forgetting pass, as of ``now`` (None: the clock's time)."""

    now: float | None = None


@dataclass(frozen=True, slots=True)
class PreviewDecay(Message["DecayPreview"]):
    """What the forgetting pass would do as of ``now``, changing nothing."""

    now: float | None = None


def _never() -> bool:
    return False


@dataclass(frozen=True, slots=True)
class MigrationStatus(Message["ReembedStatus"]):
    """Where the embedding-model migration stands; with ``coverage``, what each model's
    searches see (a pass over the whole store).
    """

    coverage: bool = False


@dataclass(frozen=True, slots=True)
class Reembed(Message["ReembedReport"]):
    """Advance the embedding-model migration: first the ``decision`` (``begin`` one to model
    ``to``, request the ``switch``, ``finish`` or ``abort`` it; None: go on), then page after
    page until the pass is done or ``should_stop()``. With ``switch_when_done``, a finished
    re-embedding pass is switched at once. ``embedders`` builds this process's embedder of a
    model id.
    """

    embedders: Callable[[str], Embedder]
    decision: Literal["begin", "switch", "finish", "abort"] | None = None
    to: str | None = None
    page_size: int = 50
    should_stop: Callable[[], bool] = _never
    switch_when_done: bool = False


@dataclass(frozen=True, slots=True)
class ForgetRun(Message[bool]):
    """Forget one run of an agent (its episode and its consolidation records); True if it had
    an episode.
    """

    tenant_id: str
    agent_id: str
    run_id: str


@dataclass(frozen=True, slots=True)
class ForgetRuns(Message["RunsForgotten"]):
    """A person's decision to forget one run of an agent (``run_id``), or every run of the
    agent (``run_id`` None), everywhere it counted: its episode, its sightings of facts, its
    proposals and feedback on procedures, its ledger records; recorded in the history.
    """

    tenant_id: str
    agent_id: str
    run_id: str | None
    actor: str
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class RedactText(Message["TextRedacted"]):
    """A person's decision to remove ``text`` from every record of the tenant that holds it
    (as read: any case, look-alike characters folded), replaced by ``replacement``; recorded
    in the history with a digest of the text, never the text.
    """

    tenant_id: str
    text: str
    actor: str
    reason: str | None = None
    replacement: str = "[REDACTED]"


@dataclass(frozen=True, slots=True)
class ForgetTenant(Message["ForgetReceipt"]):
    """Delete every record of the tenant; ``retained`` names the deployment's copies forget
    cannot reach, for the receipt.
    """

    tenant_id: str
    retained: Sequence[Retention] = field(default=())
