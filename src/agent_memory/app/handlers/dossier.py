"""What a reviewer needs to judge a procedure: its runs, its record and what it would replace
(the review page's queue), and how it differs from another (``procedures diff``).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

from agent_memory.app.messages import CompareProcedure, ReviewQueue
from agent_memory.app.ports import StorePorts
from agent_memory.app.replies import ProcedureComparison, ReviewItem, SourceRun
from agent_memory.core.model.errors import NotFound
from agent_memory.core.model.keys import parse_run_marker
from agent_memory.core.model.models import Episode, Procedure, ProcedureStatus
from agent_memory.core.model.policies import DecayPolicy, ProceduralPolicy
from agent_memory.core.model.procedure_diff import diff_procedures
from agent_memory.core.model.run_records import RunRecord
from agent_memory.core.paging import every
from agent_memory.core.ports import ProcedureStore
from agent_memory.core.tiers.procedural import is_trial, procedure_view, select_procedure
from agent_memory.core.workflows.run_state import state_from_json

AWAITING_REVIEW = (ProcedureStatus.PENDING, ProcedureStatus.NEEDS_REVIEW)
# A procedure proposed by hundreds of runs shows the first ones; the count says how many more.
MAX_RUNS_SHOWN = 20
# Runs whose ledger record has expired are looked for among the tenant's episodes, this many
# at most: a page must not read a whole large tenant.
MAX_EPISODES_SCANNED = 5_000


def served_procedure(
    store: ProcedureStore, procedure: Procedure, policy: ProceduralPolicy = ProceduralPolicy()
) -> Procedure | None:
    """The validated procedure bootstrap serves now for the same tenant and task type.

    ``procedure`` itself is left out: the point is what it would compete with.
    """
    others = [
        p
        for p in store.for_task_type(procedure.tenant_id, procedure.task_type)
        if p.procedure_id != procedure.procedure_id
    ]
    return select_procedure(others, policy)


def awaiting_review(ports: StorePorts, *, tenant_id: str | None = None) -> list[Procedure]:
    """Every PENDING or NEEDS_REVIEW procedure (of one tenant when given), oldest first."""
    found: list[Procedure] = []
    for status in AWAITING_REVIEW:
        found.extend(every(partial(ports.procedures.list, tenant_id=tenant_id, status=status)))
    return sorted(found, key=lambda p: (p.tenant_id, p.task_type, p.created_at, p.procedure_id))


def review_queue(message: ReviewQueue, ports: StorePorts) -> list[ReviewItem]:
    """The review items of every procedure awaiting a decision (see :func:`awaiting_review`)."""
    runs = RunFinder(ports)
    waiting = awaiting_review(ports, tenant_id=message.tenant_id)
    return [review_item(ports, p, runs) for p in waiting]


def compare_procedure(message: CompareProcedure, ports: StorePorts) -> ProcedureComparison:
    """How the procedure differs, step by step, from the served one (or ``against``)."""
    procedure = ports.procedures.get(message.procedure_id)
    if procedure is None:
        raise NotFound(f"no procedure {message.procedure_id!r}")
    policy = ports.policies.procedural
    if message.against is not None:
        against = ports.procedures.get(message.against, tenant_id=procedure.tenant_id)
        if against is None:
            raise NotFound(f"no procedure {message.against!r} of tenant {procedure.tenant_id}")
    else:
        against = served_procedure(ports.procedures, procedure, policy)
    candidates = ports.procedures.for_task_type(procedure.tenant_id, procedure.task_type)
    served = select_procedure(candidates, policy)
    return ProcedureComparison(
        procedure=procedure,
        against=against,
        diff=diff_procedures(against, procedure),
        served_itself=served is not None and served.procedure_id == procedure.procedure_id,
        procedure_view=procedure_view(procedure, policy),
        against_view=None if against is None else procedure_view(against, policy),
    )


def review_item(
    ports: StorePorts, procedure: Procedure, runs: RunFinder | None = None
) -> ReviewItem:
    """The procedure with its source runs, trial state, and diff against the served one."""
    finder = runs or RunFinder(ports)
    # The store names a procedure's first runs only; its count says how many proposed it.
    # In run-id order (a marker names its agent first).
    shown = sorted(procedure.source_run_ids, key=lambda m: (parse_run_marker(m)[1], m))
    shown = shown[:MAX_RUNS_SHOWN]
    served = served_procedure(ports.procedures, procedure, ports.policies.procedural)
    return ReviewItem(
        procedure=procedure,
        trial=is_trial(procedure, ports.policies.procedural),
        served=served,
        diff=diff_procedures(served, procedure),
        runs=finder.find(procedure.tenant_id, shown),
        runs_not_shown=max(0, procedure.proposed_by - len(shown)),
        served_trial=served is not None and is_trial(served, ports.policies.procedural),
        flagged_because=flag_reason(procedure, ports.policies.decay),
    )


def flag_reason(procedure: Procedure, policy: DecayPolicy = DecayPolicy()) -> str | None:
    """Why decay flagged a NEEDS_REVIEW procedure, from its record (decay stores no note)."""
    if procedure.status is not ProcedureStatus.NEEDS_REVIEW:
        return None
    rate = procedure.success_rate
    if (
        procedure.times_applied >= policy.procedure_min_uses
        and rate is not None
        and rate < policy.procedure_min_success
    ):
        return (
            f"success rate {rate:.0%} after {procedure.times_applied} uses, below "
            f"{policy.procedure_min_success:.0%}"
        )
    return f"not applied for {policy.procedure_unused_days:g} days or more"


class RunFinder:
    """Looks up runs by id within a tenant: the episode store is keyed by agent too.

    The run's ledger record (kept 90 days) names its agent, so its episode is one lookup; it
    also holds the scrubbed summary and outcome should the episode be gone. Runs with neither
    are searched among the tenant's exported episodes, once per tenant, up to a bound.
    """

    def __init__(self, ports: StorePorts, *, max_scanned: int = MAX_EPISODES_SCANNED) -> None:
        self._ports = ports
        self._max_scanned = max_scanned
        self._scans: dict[str, _EpisodeScan] = {}

    def find(self, tenant_id: str, run_ids: list[str]) -> tuple[SourceRun, ...]:
        """What memory knows of each run, in the order given."""
        return tuple(self._one(tenant_id, run_id) for run_id in run_ids)

    def _one(self, tenant_id: str, run_id: str) -> SourceRun:
        now = self._ports.clock()
        # Procedures name a run by its marker (agent/run; a digest marker names no agent).
        agent, bare = parse_run_marker(run_id)
        found = self._ports.run_ledger.run(tenant_id, agent, bare, now=now) if agent else None
        record = _run_record(RunRecord.read(found.value) if found else None)
        if record is not None:
            agent_id, summary, outcome = record
            episode = self._ports.episodes.get(tenant_id, agent_id, bare, now=now)
            if episode is not None:
                return _from_episode(episode, now)
            return SourceRun(bare, "run record", agent_id, summary, outcome)
        if agent is not None:
            episode = self._ports.episodes.get(tenant_id, agent, bare, now=now)
            if episode is not None:
                return _from_episode(episode, now)
            return SourceRun(bare, "not stored", agent)
        scan = self._scans.setdefault(
            tenant_id, _EpisodeScan(self._ports.episodes.export(tenant_id), self._max_scanned)
        )
        episode = scan.find(run_id)
        if episode is not None:
            return _from_episode(episode, now)
        return SourceRun(run_id, "not stored")


class _EpisodeScan:
    """A tenant's episodes read lazily, remembered by run id, up to ``limit`` of them."""

    def __init__(self, episodes: Iterator[Episode], limit: int) -> None:
        self._episodes = episodes
        self._left = limit
        self._seen: dict[str, Episode] = {}

    def find(self, run_id: str) -> Episode | None:
        while run_id not in self._seen and self._left > 0:
            episode = next(self._episodes, None)
            if episode is None:
                self._left = 0
                break
            self._left -= 1
            self._seen.setdefault(episode.run_id, episode)
        return self._seen.get(run_id)


def _from_episode(episode: Episode, now: float) -> SourceRun:
    return SourceRun(
        run_id=episode.run_id,
        found_in="episode",
        agent_id=episode.agent_id,
        summary=episode.task_summary,
        outcome=episode.outcome,
        at=episode.created_at,
        expired=episode.expires_at <= now,
    )


def _run_record(record: RunRecord | None) -> tuple[str, str | None, str | None] | None:
    """(agent, summary, outcome) of a run's ledger record, or None if it has none."""
    if record is None:
        return None
    state = state_from_json(record.state)
    return state.run.agent_id, state.artifacts.task_summary, state.artifacts.outcome
