"""Forgetting on purpose: the nightly rules of ``policies.DecayPolicy``, paginated, resumable,
reporting what they did.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from agent_memory.core.model.models import ProcedureStatus
from agent_memory.core.model.policies import DAY, DecayPolicy
from agent_memory.core.paging import every
from agent_memory.core.ports import (
    Checkpoint,
    EpisodeStore,
    FactStore,
    JobCheckpoints,
    Page,
    ProcedureStore,
    RunLedger,
)

# An interrupted pass older than this is abandoned and a fresh one starts.
_RESUME_WITHIN = 1.0 * DAY


@dataclass(slots=True)
class DecayReport:
    """What one decay pass changed (a resumed pass includes what was done before the stop)."""

    failed_episodes_deleted: int = 0
    expired_episodes_purged: int = 0
    expired_ledger_records_purged: int = 0
    pending_facts_expired: int = 0
    procedures_flagged: list[dict[str, str]] = field(default_factory=list)
    resumed: bool = False


@dataclass(frozen=True, slots=True)
class DecayPreview:
    """What a decay pass at ``now`` would change, per tier, by id; nothing was changed.

    Expired records are not listed: every read already hides them, and a pass only frees
    their space.
    """

    now: float
    failed_episodes: list[dict[str, str]]
    pending_facts: list[dict[str, str]]
    procedures_flagged: list[dict[str, str]]


@dataclass(slots=True)
class _Progress:
    now: float
    step: int = 0
    cursor: str | None = None
    report: dict[str, Any] = field(default_factory=dict)


def decay(
    episodes: EpisodeStore,
    facts: FactStore,
    procedures: ProcedureStore,
    run_ledger: RunLedger,
    checkpoints: JobCheckpoints,
    *,
    now: float,
    policy: DecayPolicy = DecayPolicy(),
) -> DecayReport:
    """Apply every decay rule once across all tenants.

    Deletes FAILED episodes older than ``failed_episode_days`` and PENDING facts unseen for
    ``pending_fact_days``; flags (never deletes) validated procedures unused for
    ``procedure_unused_days`` or below ``procedure_min_success`` after ``procedure_min_uses``.
    Every listing is followed page by page. After each page the position is saved in
    ``checkpoints``, so a pass that is interrupted (a Lambda timeout, a crash) resumes where
    it stopped, with the same ``now``, instead of starting over. Work of a page that was under
    way when the pass stopped is done, but may be missing from the resumed pass's counts.
    """
    progress, report = _load(checkpoints, now)

    def save(step: int, cursor: str | None) -> None:
        progress.step, progress.cursor = step, cursor
        progress.report = asdict(report)
        checkpoints.save(Checkpoint.DECAY_PROGRESS, asdict(progress), now=now)

    at = progress.now
    steps: list[Callable[[str | None, Callable[[str | None], None]], None]] = [
        lambda c, s: _delete_failed_episodes(episodes, at, policy, report, c, s),
        lambda c, s: _expire_pending_facts(facts, at, policy, report, c, s),
        lambda c, s: _purge(episodes.purge_expired, at, policy, report, "expired_episodes_purged"),
        lambda c, s: _purge(
            run_ledger.purge_expired, at, policy, report, "expired_ledger_records_purged"
        ),
        lambda c, s: _flag_procedures(procedures, at, policy, report),
    ]
    for number in range(progress.step, len(steps)):
        cursor = progress.cursor if number == progress.step else None
        steps[number](cursor, functools.partial(save, number))
        save(number + 1, None)
    checkpoints.clear(Checkpoint.DECAY_PROGRESS)
    return report


def decay_preview(
    episodes: EpisodeStore,
    facts: FactStore,
    procedures: ProcedureStore,
    *,
    now: float,
    policy: DecayPolicy = DecayPolicy(),
) -> DecayPreview:
    """What :func:`decay` would delete and flag at ``now``, read with the same rules; a dry
    run that writes nothing (not even the progress record a pass keeps).
    """
    failed_cutoff = now - policy.failed_episode_days * DAY
    pending_cutoff = now - policy.pending_fact_days * DAY
    failed = every(
        functools.partial(episodes.failed_before, failed_cutoff, now=now, limit=policy.page_size)
    )
    pending = every(
        functools.partial(facts.pending_seen_before, pending_cutoff, limit=policy.page_size)
    )
    return DecayPreview(
        now=now,
        failed_episodes=[
            {"tenant_id": e.tenant_id, "agent_id": e.agent_id, "run_id": e.run_id} for e in failed
        ],
        pending_facts=[
            {"tenant_id": f.tenant_id, "domain": f.domain, "fact_hash": f.fact_hash}
            for f in pending
        ],
        procedures_flagged=[
            {"procedure_id": procedure_id, "tenant_id": tenant_id, "reason": reason}
            for procedure_id, tenant_id, reason in _due_procedures(procedures, now, policy)
        ],
    )


def _load(checkpoints: JobCheckpoints, now: float) -> tuple[_Progress, DecayReport]:
    saved = checkpoints.load(Checkpoint.DECAY_PROGRESS, now=now)
    if saved is None or now - float(saved["now"]) > _RESUME_WITHIN:
        return _Progress(now=now), DecayReport()
    report = DecayReport(**{**saved["report"], "resumed": True})
    return _Progress(saved["now"], saved["step"], saved["cursor"]), report


def _pages(
    read: Callable[[str | None], Page[Any]],
    cursor: str | None,
    save: Callable[[str | None], None],
) -> Any:
    """Every page from ``cursor`` on; the position is saved once a page has been handled."""
    while True:
        page = read(cursor)
        yield page.items
        save(page.cursor)
        if page.cursor is None:
            return
        cursor = page.cursor


def _delete_failed_episodes(
    store: EpisodeStore,
    now: float,
    policy: DecayPolicy,
    report: DecayReport,
    cursor: str | None,
    save: Callable[[str | None], None],
) -> None:
    cutoff = now - policy.failed_episode_days * DAY

    def read(c: str | None) -> Page[Any]:
        return store.failed_before(cutoff, now=now, limit=policy.page_size, cursor=c)

    for items in _pages(read, cursor, save):
        for e in items:
            report.failed_episodes_deleted += store.delete(e.tenant_id, e.agent_id, e.run_id)


def _expire_pending_facts(
    store: FactStore,
    now: float,
    policy: DecayPolicy,
    report: DecayReport,
    cursor: str | None,
    save: Callable[[str | None], None],
) -> None:
    cutoff = now - policy.pending_fact_days * DAY

    def read(c: str | None) -> Page[Any]:
        return store.pending_seen_before(cutoff, limit=policy.page_size, cursor=c)

    for items in _pages(read, cursor, save):
        for f in items:
            report.pending_facts_expired += store.delete(f.tenant_id, f.domain, f.fact_hash)


def _purge(
    purge: Callable[..., int], now: float, policy: DecayPolicy, report: DecayReport, field_: str
) -> None:
    while (purged := purge(now, limit=policy.page_size)) > 0:
        setattr(report, field_, getattr(report, field_) + purged)


def _flag_procedures(
    store: ProcedureStore, now: float, policy: DecayPolicy, report: DecayReport
) -> None:
    for procedure_id, tenant_id, reason in _due_procedures(store, now, policy):
        if store.set_status(
            procedure_id,
            tenant_id=tenant_id,
            status=ProcedureStatus.NEEDS_REVIEW,
            allowed_from=(ProcedureStatus.VALIDATED,),
            now=now,
        ):
            report.procedures_flagged.append(
                {"procedure_id": procedure_id, "tenant_id": tenant_id, "reason": reason}
            )


def _due_procedures(
    store: ProcedureStore, now: float, policy: DecayPolicy
) -> list[tuple[str, str, str]]:
    """(procedure_id, tenant_id, reason) of every validated procedure decay flags at ``now``."""
    unused_cutoff = now - policy.procedure_unused_days * DAY
    # Flagging moves procedures out of VALIDATED, so collect first, then flag; a resumed pass
    # collects again, and flagging twice is refused by its condition.
    due: list[tuple[str, str, str]] = []
    validated = functools.partial(
        store.list, status=ProcedureStatus.VALIDATED, limit=policy.page_size
    )
    for p in every(validated):
        last_used = p.last_applied_at or p.reviewed_at or p.created_at
        rate = p.success_rate
        if (
            p.times_applied >= policy.procedure_min_uses
            and rate is not None
            and rate < policy.procedure_min_success
        ):
            reason = f"success rate {rate:.0%} after {p.times_applied} uses"
            due.append((p.procedure_id, p.tenant_id, reason))
        elif last_used < unused_cutoff:
            reason = f"unused for {policy.procedure_unused_days:g} days"
            due.append((p.procedure_id, p.tenant_id, reason))
    return due
