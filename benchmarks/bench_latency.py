"""Full local bootstrap latency (all three tiers) over a filled SQLite store.

The store is filled directly (episodes with units and int8 vectors, facts confirmed by three
runs and ingested, one validated procedure per task type), then ``bootstrap`` is called with an
embedder that answers from precomputed vectors (model time excluded) and, alternately on the
same requests, with the real local embedder (model time included).
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

from agent_memory.core.model.calibration import Calibration, calibration_for
from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.model.models import Episode, ProcedureStatus
from agent_memory.core.model.policies import EpisodicPolicy, Policies
from agent_memory.core.model.requests import BootstrapRequest
from agent_memory.core.ports import Embedder, MemoryPorts
from agent_memory.core.retrieval.episode_index import EpisodeIndexCache
from agent_memory.core.tiers import procedural
from agent_memory.core.workflows.bootstrap import bootstrap
from agent_memory.core.workflows.consolidation import consolidate
from agent_memory.wiring.local import local_ports
from agent_memory.wiring.local_settings import LocalSettings
from benchmarks.synthetic import (
    AGENT,
    TENANT,
    TOPICS,
    EpisodeSet,
    PrecomputedEmbedder,
    SentencePool,
    run_event,
)
from benchmarks.timing import Summary, paired_ratios, percentile

FACT_WRITER = "fact-writer"
# Used only when the pool's model has no calibration (the synthetic, model-free mode).
SYNTHETIC_CALIBRATION_SIMILARITY = 0.33


def latency_benchmark(
    episodes: EpisodeSet,
    pool: SentencePool,
    *,
    now: float,
    calls: int,
    real_embedder: Embedder | None,
    pool_embedder: Embedder,
    full_index: bool,
    seed: int = 5,
) -> dict[str, Any]:
    """Fill a fresh store with ``episodes`` and time ``bootstrap`` calls on it."""
    with tempfile.TemporaryDirectory(prefix="bench-bootstrap-") as tmp:
        # The fallback embeds, once and untimed, the texts the pool lacks: the fact writer's,
        # and the task as bootstrap really embeds it (it may rewrite names first).
        fast = PrecomputedEmbedder(
            pool.vector_of(),
            model_id=pool.model_id,
            dimension=pool.dimension,
            fallback=pool_embedder,
        )
        ports = with_calibration(
            local_ports(LocalSettings(store=Path(tmp)), embedder=fast), pool.model_id
        )
        ports = replace(ports, clock=lambda: now)
        requests = [
            BootstrapRequest(TENANT, AGENT, text, TOPICS[t].task_type, TOPICS[t].domain)
            for t, text in pool.queries
        ]
        fill = fill_store(ports, episodes, pool, now=now)
        # Learn the embedded form of every task on a throwaway index cache (so the timed first
        # call still builds the index).
        learner = replace(ports, episode_indexes=EpisodeIndexCache())
        for request in {r.task: r for r in requests}.values():
            bootstrap(request, learner)
        fast.misses = 0
        rng = random.Random(seed)
        order = [requests[rng.randrange(len(requests))] for _ in range(calls)]
        result: dict[str, Any] = {
            "episodes": len(episodes.episodes),
            "units": episodes.unit_count,
            "calls": calls,
            "fill_s": fill,
        }
        variants = {"default_policy": ports}
        if full_index:
            policy = Policies(episodic=EpisodicPolicy(candidates=len(episodes.episodes)))
            variants["all_episodes_indexed"] = replace(
                ports, policies=policy, episode_indexes=EpisodeIndexCache()
            )
        for name, variant in variants.items():
            result[name] = _timed_calls(variant, order, real_embedder)
        result["default_policy"]["after_new_run_ms"] = _after_new_runs(
            ports, order, episodes.episodes[-1], now=now
        )
        if fast.misses:
            raise RuntimeError(f"{fast.misses} texts were not precomputed: model time leaked in")
        return result


# New runs whose first bootstrap is timed (each rebuilds the index on the last one).
NEW_RUNS = 7


def with_calibration(ports: MemoryPorts, model_id: str) -> MemoryPorts:
    """``ports`` able to threshold ``model_id``'s vectors (adds a calibration if it has none)."""
    try:
        calibration_for(model_id, ports.calibrations)
        return ports
    except InvalidInput:
        extra = Calibration(
            model_family=model_id,
            episode_min_similarity=SYNTHETIC_CALIBRATION_SIMILARITY,
            fact_min_score=SYNTHETIC_CALIBRATION_SIMILARITY,
            source="benchmark: synthetic vectors, the local model's values",
        )
        return replace(ports, calibrations={**ports.calibrations, model_id: extra})


def fill_store(
    ports: MemoryPorts, episodes: EpisodeSet, pool: SentencePool, *, now: float
) -> dict[str, float]:
    """Write the episodes directly; facts and procedures through ``consolidate`` (three runs
    per task type by another agent), the first task type's facts ingested and the others left
    on the fast path, every proposed procedure approved.
    """
    started = time.perf_counter()
    for episode in episodes.episodes:
        ports.episodes.add(episode)
    episodes_s = time.perf_counter() - started
    started = time.perf_counter()
    rng = random.Random(29)
    for t, topic in enumerate(TOPICS):
        for run in range(3):
            event = run_event(10_000 * (t + 1) + run, rng, agent=FACT_WRITER)
            event.update(task_type=topic.task_type, domain=topic.domain, outcome="COMPLETED")
            event["artifacts"].update(
                outcome="COMPLETED",
                facts=[{"content": fact, "confidence": 0.9} for fact in topic.facts],
                procedure={"title": f"{topic.task_type} checklist", "steps": list(topic.steps)},
            )
            consolidate(event, ports)
        if t == 0:
            # The first task type's facts are ingested; the others stay on the fast path.
            ports.knowledge_base.start_ingestion(now=now)
        for found in ports.procedures.for_task_type(TENANT, topic.task_type):
            if found.status is ProcedureStatus.PENDING:
                procedural.review(
                    ports.procedures, found.procedure_id, approve=True, reviewer="bench", now=now
                )
    return {
        "episodes_s": round(episodes_s, 3),
        "facts_and_procedures_s": round(time.perf_counter() - started, 3),
    }


def _timed_calls(
    ports: MemoryPorts, requests: list[BootstrapRequest], real_embedder: Embedder | None
) -> dict[str, Any]:
    """Warm the index (timed), then alternate fast and real-model calls on the same requests."""
    started = time.perf_counter()
    bootstrap(requests[0], ports)
    warm_ms = (time.perf_counter() - started) * 1000
    real = replace(ports, embedder=real_embedder) if real_embedder is not None else None
    if real is not None:
        real.embedder.embed_query("warm the model up")
        bootstrap(requests[0], real)
    fast_rows, real_rows = [], []
    for request in requests:
        fast_rows.append(_call(ports, request))
        if real is not None:
            real_rows.append(_call(real, request))
    result: dict[str, Any] = {
        "first_call_builds_index_ms": round(warm_ms, 2),
        "excluding_model": _summarise(fast_rows),
    }
    if real_rows:
        result["with_local_model"] = _summarise(real_rows)
        result["with_over_excluding_model"] = Summary.of(
            paired_ratios([r["wall"] for r in real_rows], [r["wall"] for r in fast_rows])
        ).as_dict()
    return result


def _after_new_runs(
    ports: MemoryPorts,
    requests: list[BootstrapRequest],
    template: Episode,
    *,
    now: float,
    runs: int = NEW_RUNS,
) -> dict[str, float]:
    """The first bootstrap after each of ``runs`` new episodes of the agent (its index cached
    before each): what an agent pays when its last run was consolidated since its last start.
    """
    walls = []
    for number in range(runs):
        bootstrap(requests[number % len(requests)], ports)  # the index is current
        ports.episodes.add(replace(template, run_id=f"bench-new-{number}", created_at=now - 1))
        started = time.perf_counter()
        bootstrap(requests[number % len(requests)], ports)
        walls.append((time.perf_counter() - started) * 1000)
    return {"p50": round(percentile(walls, 50), 2), "max": round(max(walls), 2), "runs": runs}


def _call(ports: MemoryPorts, request: BootstrapRequest) -> dict[str, Any]:
    started = time.perf_counter()
    reply = bootstrap(request, ports)
    wall = (time.perf_counter() - started) * 1000
    return {
        "wall": wall,
        **reply["timings_ms"],
        "episodes": len(reply["episodes"]),
        "facts": len(reply["facts"]),
        "procedure": reply["procedure"] is not None,
    }


def _summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    def stat(key: str) -> dict[str, float]:
        values = [float(r[key]) for r in rows]
        return {
            "p50": round(percentile(values, 50), 3),
            "p95": round(percentile(values, 95), 3),
        }

    return {
        "wall_ms": stat("wall"),
        "reply_timings_ms": {k: stat(k) for k, v in rows[0].items() if _is_timing(k, v)},
        "tiers_answered": {
            "episodic": _share(r["episodes"] > 0 for r in rows),
            "semantic": _share(r["facts"] > 0 for r in rows),
            "procedural": _share(r["procedure"] for r in rows),
        },
        "episodes_per_reply_mean": round(statistics.mean(r["episodes"] for r in rows), 2),
    }


def _is_timing(key: str, value: object) -> bool:
    return key not in {"wall", "episodes", "facts", "procedure"} and isinstance(value, float)


def _share(flags: Iterable[bool]) -> float:
    values = list(flags)
    return round(sum(values) / len(values), 3) if values else 0.0
