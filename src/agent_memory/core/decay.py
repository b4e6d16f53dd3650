"""Forgetting on purpose: the nightly rules of DESIGN.md §5, paginated, reporting what they did."""

from __future__ import annotations

from dataclasses import dataclass, field

from agent_memory.core.models import ProcedureStatus
from agent_memory.core.policies import DAY, DecayPolicy
from agent_memory.core.ports import EpisodeStore, FactStore, Ledger, ProcedureStore


@dataclass(slots=True)
class DecayReport:
    """What one decay pass changed."""

    failed_episodes_deleted: int = 0
    expired_episodes_purged: int = 0
    expired_ledger_records_purged: int = 0
    pending_facts_expired: int = 0
    procedures_flagged: list[dict[str, str]] = field(default_factory=list)


def decay(
    episodes: EpisodeStore,
    facts: FactStore,
    procedures: ProcedureStore,
    ledger: Ledger,
    *,
    now: float,
    policy: DecayPolicy = DecayPolicy(),
) -> DecayReport:
    """Apply every decay rule once across all tenants.

    Deletes FAILED episodes older than ``failed_episode_days`` and PENDING facts unseen for
    ``pending_fact_days``; flags (never deletes) validated procedures unused for
    ``procedure_unused_days`` or below ``procedure_min_success`` after ``procedure_min_uses``.
    Every listing is followed page by page, so nothing beyond the first page is missed.
    """
    report = DecayReport()
    report.failed_episodes_deleted = _delete_failed_episodes(episodes, now, policy)
    while (purged := episodes.purge_expired(now, limit=policy.page_size)) > 0:
        report.expired_episodes_purged += purged
    while (purged := ledger.purge_expired(now, limit=policy.page_size)) > 0:
        report.expired_ledger_records_purged += purged
    report.pending_facts_expired = _expire_pending_facts(facts, now, policy)
    report.procedures_flagged = _flag_procedures(procedures, now, policy)
    return report


def _delete_failed_episodes(store: EpisodeStore, now: float, policy: DecayPolicy) -> int:
    cutoff = now - policy.failed_episode_days * DAY
    deleted, cursor = 0, None
    while True:
        page = store.failed_before(cutoff, now=now, limit=policy.page_size, cursor=cursor)
        for episode in page.items:
            deleted += store.delete(episode.tenant_id, episode.agent_id, episode.run_id)
        if page.cursor is None:
            return deleted
        cursor = page.cursor


def _expire_pending_facts(store: FactStore, now: float, policy: DecayPolicy) -> int:
    cutoff = now - policy.pending_fact_days * DAY
    deleted, cursor = 0, None
    while True:
        page = store.pending_seen_before(cutoff, limit=policy.page_size, cursor=cursor)
        for fact in page.items:
            deleted += store.delete(fact.tenant_id, fact.domain, fact.fact_hash)
        if page.cursor is None:
            return deleted
        cursor = page.cursor


def _flag_procedures(
    store: ProcedureStore, now: float, policy: DecayPolicy
) -> list[dict[str, str]]:
    unused_cutoff = now - policy.procedure_unused_days * DAY
    # Flagging moves procedures out of VALIDATED, so collect first, then flag.
    due: list[tuple[str, str, str]] = []
    cursor = None
    while True:
        page = store.list(status=ProcedureStatus.VALIDATED, limit=policy.page_size, cursor=cursor)
        for p in page.items:
            last_used = p.last_applied_at or p.reviewed_at or p.created_at
            rate = p.success_rate
            if (
                p.times_applied >= policy.procedure_min_uses
                and rate is not None
                and (rate < policy.procedure_min_success)
            ):
                due.append(
                    (
                        p.procedure_id,
                        p.tenant_id,
                        f"success rate {rate:.0%} after {p.times_applied} uses",
                    )
                )
            elif last_used < unused_cutoff:
                due.append(
                    (
                        p.procedure_id,
                        p.tenant_id,
                        f"unused for {policy.procedure_unused_days:g} days",
                    )
                )
        if page.cursor is None:
            break
        cursor = page.cursor
    flagged = []
    for procedure_id, tenant_id, reason in due:
        if store.set_status(
            procedure_id,
            tenant_id=tenant_id,
            status=ProcedureStatus.NEEDS_REVIEW,
            allowed_from=(ProcedureStatus.VALIDATED,),
            now=now,
            note=reason,
        ):
            flagged.append({"procedure_id": procedure_id, "tenant_id": tenant_id, "reason": reason})
    return flagged
