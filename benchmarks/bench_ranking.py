"""Episodic ranking time per query: the product's ``EpisodeIndex.search`` against the reference
loop, LangGraph's ``InMemoryStore`` and the matrix-vector floor, side by side per query.

Each round takes one query and times every method on it back to back, so the ratios are paired
(same query, same moment of machine noise); figures are medians over rounds. Where the product's
time goes is measured without knowing how ``search`` is written: :func:`line_profile` times each
source line of ``search`` (callees included) and :func:`cprofile_search` each function, so the
profile stays right while the index is being optimised.
"""

from __future__ import annotations

import cProfile
import gc
import linecache
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

import numpy as np

from agent_memory.core.retrieval import vectors
from agent_memory.core.retrieval.episode_index import EpisodeIndex
from benchmarks import baselines
from benchmarks.synthetic import AGENT, TENANT, EpisodeSet, FloatArray, SentencePool
from benchmarks.timing import CacheEvictor, Summary, paired_ratios, time_call, time_cold

TOP_EPISODES = 3
TOP_UNITS = 10
# Cold calls per method and round; the round keeps their median.
COLD_REPEATS = 3
NAMESPACE = (TENANT, AGENT, "episodes")


def rank_benchmark(
    episodes: EpisodeSet,
    pool: SentencePool,
    *,
    now: float,
    rounds: int,
    min_similarity: float,
    reference: bool,
    langgraph: bool,
    seed: int = 3,
    evict: Callable[[], None] | None = None,
) -> dict[str, Any]:
    """Time every method on ``rounds`` queries over ``episodes``: medians, ratios, profile.

    The product and the matvec are timed twice: in batches of calls (hot caches: the data of
    the previous call is still there) and one call at a time after ``evict()`` (cold caches,
    as a bootstrap finds them after its process sat idle).
    """
    evict = evict or CacheEvictor()
    dimension = pool.dimension
    n = len(episodes.episodes)
    run_ids = [e.run_id for e in episodes.episodes]
    outcomes = [e.outcome for e in episodes.episodes]
    setup: dict[str, float] = {}

    started = time.perf_counter()
    index = EpisodeIndex(episodes.episodes, pool.model_id, dimension)
    setup["product_index_build_s"] = time.perf_counter() - started
    started = time.perf_counter()
    bare = EpisodeIndex([replace(e, units=()) for e in episodes.episodes], pool.model_id, dimension)
    setup["product_summaries_only_build_s"] = time.perf_counter() - started
    matrix = np.ascontiguousarray(episodes.summary_vectors, dtype=np.float32)
    # Every vector the product ranks (summaries and units), decoded once: its bandwidth floor.
    every, _ = vectors.stack(
        [e.embedding for e in episodes.episodes]
        + [u.embedding for e in episodes.episodes for u in e.units],
        pool.model_id,
        dimension,
    )
    blobs = baselines.float32_blobs(matrix)

    rng = random.Random(seed + n)
    queries = rng.sample(range(len(pool.queries)), k=min(rounds, len(pool.queries)))
    query_text = {i: pool.queries[i][1] for i in queries}
    query_vec = {i: pool.vectors[pool.texts.index(query_text[i])] for i in queries}

    items: list[dict[str, Any]] = []
    if reference:
        started = time.perf_counter()
        items = baselines.reference_items(run_ids, outcomes, matrix)
        setup["reference_decimal_items_s"] = time.perf_counter() - started
    store = None
    if langgraph:
        started = time.perf_counter()
        store = baselines.langgraph_store(
            episodes.texts,
            matrix,
            [{"run_id": r, "outcome": o} for r, o in zip(run_ids, outcomes, strict=True)],
            namespace=NAMESPACE,
            query_vectors={query_text[i]: query_vec[i] for i in queries},
        )
        setup["langgraph_fill_s"] = time.perf_counter() - started
    gc.collect()

    series: dict[str, list[float]] = {}
    agreement: dict[str, bool] = {}
    last: dict[str, baselines.Ranked] = {}
    for i in queries:
        text, q = query_text[i], query_vec[i]
        q_list = q.tolist()

        def product(text: str = text, q: FloatArray = q) -> object:
            return index.search(
                text,
                q,
                now=now,
                top_episodes=TOP_EPISODES,
                top_units=TOP_UNITS,
                min_similarity=min_similarity,
            )

        def product_bare(text: str = text, q: FloatArray = q) -> object:
            return bare.search(
                text,
                q,
                now=now,
                top_episodes=TOP_EPISODES,
                top_units=TOP_UNITS,
                min_similarity=min_similarity,
            )

        def matvec_all_vectors(q: FloatArray = q) -> object:
            return every @ q

        def matvec(q: FloatArray = q) -> object:
            return matrix @ q

        def naive_join(q: FloatArray = q) -> object:
            return baselines.naive_join_scores(blobs, q)

        timed: dict[str, Callable[[], object]] = {
            "product": product,
            "product_summaries_only": product_bare,
            "matvec_all_vectors": matvec_all_vectors,
            "matvec": matvec,
            "naive_join": naive_join,
        }
        last.clear()
        if store is not None:

            def langgraph_search(text: str = text) -> object:
                last["langgraph"] = baselines.langgraph_search(store, NAMESPACE, text, TOP_EPISODES)
                return last["langgraph"]

            timed["langgraph"] = langgraph_search
        if items:

            def reference_search(q_list: list[float] = q_list) -> object:
                last["reference"] = baselines.reference_rank(
                    items, q_list, top_k=TOP_EPISODES, min_similarity=min_similarity
                )
                return last["reference"]

            timed["reference"] = reference_search
        for name, work in timed.items():
            series.setdefault(name, []).append(time_call(work, min_time=0.05))
        cold = [
            (time_cold(product, evict), time_cold(timed["matvec"], evict))
            for _ in range(COLD_REPEATS)
        ]
        series.setdefault("product_cold", []).append(statistics.median(p for p, _ in cold))
        series.setdefault("matvec_cold", []).append(statistics.median(m for _, m in cold))

        # The slow baselines' answers from their timed calls, against plain numpy's top 3.
        plain = baselines.numpy_rank(matrix, run_ids, q)
        if "reference" in last:
            above = [run_id for score, run_id in plain if score >= min_similarity]
            same = baselines.top_ids(last["reference"]) == above
            agreement["reference_top3_equals_numpy"] = (
                agreement.get("reference_top3_equals_numpy", True) and same
            )
        if "langgraph" in last:
            same = baselines.top_ids(last["langgraph"]) == baselines.top_ids(plain)
            agreement["langgraph_top3_equals_numpy"] = (
                agreement.get("langgraph_top3_equals_numpy", True) and same
            )

    ratios = {
        "reference_over_product": ("reference", "product"),
        "langgraph_over_product": ("langgraph", "product"),
        "product_over_matvec": ("product", "matvec"),
        "product_over_matvec_cold": ("product_cold", "matvec_cold"),
        "product_over_matvec_all_vectors": ("product", "matvec_all_vectors"),
        "naive_join_over_matvec": ("naive_join", "matvec"),
        "reference_over_product_summaries_only": ("reference", "product_summaries_only"),
        "langgraph_over_product_summaries_only": ("langgraph", "product_summaries_only"),
        "product_summaries_only_over_matvec": ("product_summaries_only", "matvec"),
        "reference_over_langgraph": ("reference", "langgraph"),
    }
    first = queries[0]

    def search_all(searched: EpisodeIndex) -> list[object]:
        return [
            searched.search(
                query_text[i],
                query_vec[i],
                now=now,
                top_episodes=TOP_EPISODES,
                top_units=TOP_UNITS,
                min_similarity=min_similarity,
            )
            for i in queries
        ]

    return {
        "episodes": n,
        "dimension": dimension,
        "units": episodes.unit_count,
        "units_per_episode_mean": round(episodes.unit_count / max(n, 1), 2),
        "rounds": len(queries),
        "min_similarity": min_similarity,
        "setup_s": {k: round(v, 3) for k, v in setup.items()},
        "time_ms": {name: Summary.of(values).as_dict(1000) for name, values in series.items()},
        "ratios": {
            name: Summary.of(paired_ratios(series[a], series[b])).as_dict()
            for name, (a, b) in ratios.items()
            if a in series and b in series
        },
        "agreement": agreement,
        "profile": {
            "lines": line_profile(
                lambda: search_all(index), type(index).search.__code__, calls=len(queries)
            ),
            "lines_summaries_only": line_profile(
                lambda: search_all(bare), type(bare).search.__code__, calls=len(queries)
            ),
            "cprofile_top": cprofile_search(
                index, query_text[first], query_vec[first], now=now, min_similarity=min_similarity
            ),
        },
    }


def line_profile(
    work: Callable[[], object], code: CodeType, *, calls: int, top: int = 12
) -> list[dict[str, Any]]:
    """Milliseconds per call spent on each source line of ``code`` while ``work`` runs.

    A line's time runs from its line event to the next event of the same frame, so it includes
    everything the line calls (numpy, helpers); lines are those of the file as loaded.
    """
    spent: dict[int, float] = {}
    current: list[Any] = [None, 0.0]

    def local(frame: FrameType, event: str, arg: object) -> Any:
        now = time.perf_counter()
        if current[0] is not None:
            spent[current[0]] = spent.get(current[0], 0.0) + now - current[1]
        current[0] = frame.f_lineno if event == "line" else None
        current[1] = time.perf_counter()
        return local

    def calls_into(frame: FrameType, event: str, arg: object) -> Any:
        return local if frame.f_code is code else None

    previous = sys.gettrace()
    sys.settrace(calls_into)
    try:
        work()
    finally:
        sys.settrace(previous)
    total = sum(spent.values()) or 1.0
    rows: list[dict[str, Any]] = [
        {
            "line": f"{Path(code.co_filename).name}:{line}",
            "source": linecache.getline(code.co_filename, line).strip()[:100],
            "ms_per_call": round(seconds * 1000 / calls, 4),
            "share": round(seconds / total, 3),
        }
        for line, seconds in spent.items()
    ]
    rows.sort(key=lambda r: -float(r["ms_per_call"]))
    return rows[:top]


def cprofile_search(
    index: EpisodeIndex,
    text: str,
    query: FloatArray,
    *,
    now: float,
    min_similarity: float | None,
    calls: int = 10,
    top: int = 10,
) -> list[dict[str, Any]]:
    """The functions with the most own time over ``calls`` searches (ms per search)."""
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(calls):
        index.search(
            text,
            query,
            now=now,
            top_episodes=TOP_EPISODES,
            top_units=TOP_UNITS,
            min_similarity=min_similarity,
        )
    profiler.disable()
    stats = pstats.Stats(profiler)
    rows = []
    entries: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    for (filename, line, name), (_, ncalls, tottime, cumtime, _) in entries.items():
        label = f"{Path(filename).name}:{line}({name})" if filename != "~" else name
        rows.append(
            {
                "function": label,
                "calls_per_search": round(ncalls / calls, 1),
                "own_ms_per_search": round(tottime * 1000 / calls, 4),
                "cumulative_ms_per_search": round(cumtime * 1000 / calls, 4),
            }
        )
    rows.sort(key=lambda r: -float(r["own_ms_per_search"]))
    return rows[:top]
