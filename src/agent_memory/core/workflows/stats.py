"""What memory holds right now, counted per tier and status: the gauges of the stores.

The same figures feed ``agent-memory stats`` and the nightly metrics of the decay function.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import partial

from agent_memory.core.model.models import OUTCOMES, FactStatus, ProcedureStatus
from agent_memory.core.paging import every
from agent_memory.core.ports import MemoryPorts
from agent_memory.core.tiers.procedural import is_trial
from agent_memory.core.workflows.consolidation import failed_runs

_PAGE = 100
_FACT_STATUSES = tuple(s.value for s in FactStatus)
_PROCEDURE_STATUSES = tuple(s.value for s in ProcedureStatus)


@dataclass(frozen=True, slots=True)
class MemoryStats:
    """Counts of one tenant's memory (``tenant_id``), or of every tenant's (None), at ``at``.

    ``episodes`` are the unexpired ones by outcome, ``facts`` and ``procedures`` by status
    (every outcome and status is a key, zero included); ``procedures_on_trial`` are VALIDATED
    ones still earning their trial uses; ``failed_runs`` are runs awaiting replay, None when
    they were not counted.
    """

    tenant_id: str | None
    at: float
    episodes: dict[str, int]
    facts: dict[str, int]
    facts_awaiting_ingestion: int
    procedures: dict[str, int]
    procedures_on_trial: int
    failed_runs: int | None

    def gauges(self) -> dict[str, int]:
        """The counts under flat names (``StoredFactsPending``…): the nightly metrics' names."""
        gauges = {f"StoredEpisodes{_pascal(k)}": n for k, n in self.episodes.items()}
        gauges |= {f"StoredFacts{_pascal(k)}": n for k, n in self.facts.items()}
        gauges["StoredFactsAwaitingIngestion"] = self.facts_awaiting_ingestion
        gauges |= {f"StoredProcedures{_pascal(k)}": n for k, n in self.procedures.items()}
        gauges["StoredProceduresOnTrial"] = self.procedures_on_trial
        if self.failed_runs is not None:
            gauges["FailedRunsAwaitingReplay"] = self.failed_runs
        return gauges


def gauge_names() -> tuple[str, ...]:
    """Every name :meth:`MemoryStats.gauges` reports (what a dashboard should plot)."""
    empty = MemoryStats(
        tenant_id=None,
        at=0.0,
        episodes=_ordered({}, OUTCOMES),
        facts=_ordered({}, _FACT_STATUSES),
        facts_awaiting_ingestion=0,
        procedures=_ordered({}, _PROCEDURE_STATUSES),
        procedures_on_trial=0,
        failed_runs=0,
    )
    return tuple(empty.gauges())


def memory_stats(
    ports: MemoryPorts,
    *,
    now: float,
    tenant_id: str | None = None,
    count_failed_runs: bool = True,
) -> MemoryStats:
    """Count what memory holds for the tenant, or for every tenant when ``tenant_id`` is None.

    Every listing is followed page by page; the stores count episodes and facts themselves.
    Reads every record in scope, so it suits a nightly job or an operator, not a request.
    ``count_failed_runs=False`` skips the failed runs, whose count across tenants reads the
    whole ledger (on AWS the dead-letter queue's depth is that figure, published by SQS).
    """
    procedures, on_trial = _procedures(ports, tenant_id)
    return MemoryStats(
        tenant_id=tenant_id,
        at=now,
        episodes=_ordered(ports.episodes.count_by_outcome(now=now, tenant_id=tenant_id), OUTCOMES),
        facts=_ordered(ports.facts.count_by_status(tenant_id=tenant_id), _FACT_STATUSES),
        facts_awaiting_ingestion=_awaiting_ingestion(ports, tenant_id),
        procedures=procedures,
        procedures_on_trial=on_trial,
        failed_runs=_failed_runs(ports, tenant_id) if count_failed_runs else None,
    )


def _procedures(ports: MemoryPorts, tenant_id: str | None) -> tuple[dict[str, int], int]:
    by_status: Counter[str] = Counter()
    on_trial = 0
    for procedure in every(partial(ports.procedures.list, tenant_id=tenant_id, limit=_PAGE)):
        by_status[procedure.status.value] += 1
        on_trial += is_trial(procedure, ports.policies.procedural)
    return _ordered(by_status, _PROCEDURE_STATUSES), on_trial


def _awaiting_ingestion(ports: MemoryPorts, tenant_id: str | None) -> int:
    # The listing spans every tenant; what awaits ingestion is a few windows' worth at most.
    waiting = every(partial(ports.facts.awaiting_ingestion, limit=_PAGE))
    return sum(1 for f in waiting if tenant_id in (None, f.tenant_id))


def _failed_runs(ports: MemoryPorts, tenant_id: str | None) -> int:
    return len(failed_runs(ports.run_ledger, tenant_id))


def _ordered(counts: dict[str, int], names: tuple[str, ...]) -> dict[str, int]:
    """Every name in its canonical order (zero if absent), then any other key found."""
    return {name: counts.get(name, 0) for name in names} | {
        k: n for k, n in counts.items() if k not in names
    }


def _pascal(name: str) -> str:
    """``NEEDS_REVIEW`` -> ``NeedsReview``."""
    return "".join(part.title() for part in name.split("_"))
