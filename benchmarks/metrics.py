"""Retrieval metrics for the benchmarks: recall, nDCG and latency percentiles over plain lists.

A ranking is a best-first sequence of item ids (sessions, turns, anything hashable); the
relevant items of a query are a non-empty collection of the same ids. Pure Python, no model.

>>> ranking, relevant = ["s3", "s1", "s7"], {"s1", "s9"}
>>> recall_any(ranking, relevant, 1), recall_any(ranking, relevant, 5)
(0.0, 1.0)
>>> recall_all(ranking, relevant, 5)
0.0
>>> round(ndcg(ranking, relevant, 10), 4)
0.3869
>>> first_relevant_rank(ranking, relevant)
2
>>> percentile([1.0, 2.0, 3.0, 4.0], 50)
2.5
"""

from __future__ import annotations

import math
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence

RECALL_ANY_CUTOFFS = (1, 5, 10)
RECALL_ALL_CUTOFFS = (5, 10)
NDCG_CUTOFF = 10
METRIC_NAMES = (
    *(f"recall_any@{k}" for k in RECALL_ANY_CUTOFFS),
    *(f"recall_all@{k}" for k in RECALL_ALL_CUTOFFS),
    f"ndcg@{NDCG_CUTOFF}",
)


def _top(ranking: Sequence[Hashable], k: int) -> set[Hashable]:
    if k < 1:
        raise ValueError("k must be at least 1")
    return set(ranking[:k])


def _check(relevant: Collection[Hashable]) -> None:
    if not relevant:
        raise ValueError("a query needs at least one relevant item")


def recall_any(ranking: Sequence[Hashable], relevant: Collection[Hashable], k: int) -> float:
    """1.0 if at least one relevant item is among the first ``k`` of ``ranking``, else 0.0."""
    _check(relevant)
    return 1.0 if _top(ranking, k) & set(relevant) else 0.0


def recall_all(ranking: Sequence[Hashable], relevant: Collection[Hashable], k: int) -> float:
    """1.0 if every relevant item is among the first ``k`` of ``ranking``, else 0.0."""
    _check(relevant)
    return 1.0 if set(relevant) <= _top(ranking, k) else 0.0


def ndcg(
    ranking: Sequence[Hashable], relevant: Collection[Hashable], k: int = NDCG_CUTOFF
) -> float:
    """Normalised discounted cumulative gain at ``k`` with binary gains.

    A relevant item at 1-based rank r adds ``1 / log2(r + 1)`` (repeats of an item count once);
    the ideal places ``min(len(relevant), k)`` relevant items first.
    """
    _check(relevant)
    wanted, seen = set(relevant), set()
    gain = 0.0
    for rank, item in enumerate(ranking[:k], start=1):
        if item in wanted and item not in seen:
            gain += 1.0 / math.log2(rank + 1)
            seen.add(item)
    ideal = sum(1.0 / math.log2(rank + 1) for rank in range(1, min(len(wanted), k) + 1))
    return gain / ideal


def first_relevant_rank(ranking: Sequence[Hashable], relevant: Collection[Hashable]) -> int | None:
    """The 1-based rank of the first relevant item in ``ranking``; ``None`` if none is in it."""
    _check(relevant)
    wanted = set(relevant)
    return next((rank for rank, item in enumerate(ranking, start=1) if item in wanted), None)


def question_metrics(
    ranking: Sequence[Hashable], relevant: Collection[Hashable]
) -> dict[str, float]:
    """Every metric of :data:`METRIC_NAMES` for one query."""
    row = {f"recall_any@{k}": recall_any(ranking, relevant, k) for k in RECALL_ANY_CUTOFFS}
    row |= {f"recall_all@{k}": recall_all(ranking, relevant, k) for k in RECALL_ALL_CUTOFFS}
    row[f"ndcg@{NDCG_CUTOFF}"] = ndcg(ranking, relevant, NDCG_CUTOFF)
    return row


def mean_metrics(rows: Iterable[Mapping[str, float]]) -> dict[str, float]:
    """The mean of each metric over queries (a micro-average when rows are pooled)."""
    pooled = list(rows)
    if not pooled:
        return {}
    return {name: sum(row[name] for row in pooled) / len(pooled) for name in pooled[0]}


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100) with linear interpolation between closest ranks.

    The same definition as numpy's default (``method="linear"``): position ``(n - 1) * q / 100``
    in the sorted values, interpolated between its neighbours.
    """
    if not values:
        raise ValueError("no values")
    if not 0 <= q <= 100:
        raise ValueError("q must be within [0, 100]")
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100.0
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def latency_summary(milliseconds: Sequence[float]) -> dict[str, float]:
    """p50, p95 and mean of per-query latencies, in milliseconds."""
    return {
        "p50": percentile(milliseconds, 50),
        "p95": percentile(milliseconds, 95),
        "mean": sum(milliseconds) / len(milliseconds),
    }
