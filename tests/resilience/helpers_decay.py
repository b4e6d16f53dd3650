"""Decay at volume: many episodes of mixed outcome, age, agent and tenant, procedures in every
state, and a store that crashes mid-pass.

The expected deletions are computed here from the seeded records with the decay rule
restated (FAILED and created more than ``failed_episode_days`` before now), not with decay's
code.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from agent_memory.core.model.models import Episode, Outcome, Procedure, ProcedureStatus
from agent_memory.core.model.policies import DAY, DecayPolicy
from agent_memory.core.ports import EpisodeStore, MemoryPorts, Page, ProcedureStore

Key = tuple[str, str, str]
TENANTS = ("acme", "acme-eu", "globex", "initech")
AGENTS = ("reviewer", "drafter", "triage")
OUTCOMES: tuple[Outcome, ...] = ("COMPLETED", "PARTIAL", "FAILED", "UNKNOWN")


@dataclass
class Seeded:
    """What was written, and what decay must delete and flag."""

    episodes: set[Key] = field(default_factory=set)
    doomed: set[Key] = field(default_factory=set)
    procedures: dict[str, ProcedureStatus] = field(default_factory=dict)
    to_flag: set[str] = field(default_factory=set)


def seed_episodes(
    store: EpisodeStore, count: int, *, now: float, seed: int, seeded: Seeded | None = None
) -> Seeded:
    """``count`` episodes up to 60 days old (none expired); a few exactly on the cutoff."""
    rng = random.Random(seed)
    seeded = seeded or Seeded()
    policy = DecayPolicy()
    cutoff = now - policy.failed_episode_days * DAY
    for number in range(count):
        tenant, agent = rng.choice(TENANTS), rng.choice(AGENTS)
        outcome = rng.choices(OUTCOMES, weights=(50, 15, 30, 5))[0]
        created = now - rng.uniform(0, 60) * DAY
        if number % 997 == 0:
            created = cutoff + rng.choice((-1.0, 0.0, 1.0))  # on the boundary
        episode = Episode(
            tenant_id=tenant,
            agent_id=agent,
            run_id=f"run-{number:06d}",
            task="Review the agreement",
            task_summary=f"Run {number}",
            outcome=outcome,
            created_at=created,
            expires_at=created + 90 * DAY,
        )
        assert store.add(episode)
        key = (tenant, agent, episode.run_id)
        seeded.episodes.add(key)
        if outcome == "FAILED" and created < cutoff:
            seeded.doomed.add(key)
    return seeded


def seed_procedures(store: ProcedureStore, *, now: float, seeded: Seeded) -> Seeded:
    """Procedures in every status, some due to be flagged (unused 60 days, or failing)."""
    policy = DecayPolicy()
    cases: list[tuple[ProcedureStatus, float, int, int, bool]] = [
        # status, days since last use, times applied, times succeeded, due to be flagged
        (ProcedureStatus.VALIDATED, 2, 10, 9, False),
        (ProcedureStatus.VALIDATED, 90, 10, 9, True),
        (ProcedureStatus.VALIDATED, 3, 5, 1, True),
        (ProcedureStatus.VALIDATED, 3, 2, 0, False),  # too few uses to judge
        (ProcedureStatus.PENDING, 400, 0, 0, False),
        (ProcedureStatus.REJECTED, 400, 0, 0, False),
        (ProcedureStatus.NEEDS_REVIEW, 400, 4, 0, False),
    ]
    for tenant in TENANTS:
        for number, (status, idle, applied, succeeded, due) in enumerate(cases):
            used = now - idle * DAY
            pid = f"proc-{tenant}-{number}"
            store.propose(
                Procedure(
                    tenant_id=tenant,
                    task_type="contract_review",
                    procedure_id=pid,
                    title=f"Procedure {number}",
                    steps=("Read", "Compare"),
                    status=status,
                    created_at=used - DAY,
                    updated_at=used,
                    times_applied=applied,
                    times_succeeded=succeeded,
                    last_applied_at=used if applied else None,
                    reviewer="lead" if status is not ProcedureStatus.PENDING else None,
                    reviewed_at=used - DAY if status is not ProcedureStatus.PENDING else None,
                ),
                run_id="seed",
            )
            seeded.procedures[pid] = status
            if due:
                assert status is ProcedureStatus.VALIDATED and (
                    idle > policy.procedure_unused_days or succeeded / applied < 0.6
                )
                seeded.to_flag.add(pid)
    return seeded


def stored_episodes(ports: MemoryPorts, tenants: tuple[str, ...] = TENANTS) -> set[Key]:
    return {(e.tenant_id, e.agent_id, e.run_id) for t in tenants for e in ports.episodes.export(t)}


class Crash(RuntimeError):
    """The process died (a Lambda timeout, a kill -9)."""


class CrashingEpisodes:
    """An episode store that dies after ``deletes`` deletions; counts and notes every read."""

    def __init__(self, inner: EpisodeStore, *, deletes: int | None = None) -> None:
        self._inner = inner
        self._left = deletes
        self.deleted = 0
        self.cursors: list[str | None] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def failed_before(
        self, cutoff: float, *, now: float, limit: int, cursor: str | None = None
    ) -> Page[Episode]:
        self.cursors.append(cursor)
        return self._inner.failed_before(cutoff, now=now, limit=limit, cursor=cursor)

    def delete(self, tenant_id: str, agent_id: str, run_id: str) -> bool:
        if self._left is not None and self._left <= 0:
            raise Crash("killed mid-pass")
        deleted = self._inner.delete(tenant_id, agent_id, run_id)
        self.deleted += deleted
        if self._left is not None:
            self._left -= 1
        return deleted

    def export(self, tenant_id: str) -> Iterator[Episode]:
        return self._inner.export(tenant_id)
