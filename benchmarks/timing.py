"""Timing helpers for the benchmarks: repeated measurements, medians, percentiles and ratios.

The machines these run on are small and noisy, so every figure is a median of repeats, and
comparisons are ratios of measurements taken side by side in the same process (paired by round),
never absolute times compared across runs.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

# Bytes written to evict the CPU caches: four times the 32 MiB last-level cache of the
# project's machine, so little of what a call used before survives in any cache level.
EVICT_BYTES = 128 * 2**20


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100) with linear interpolation between closest ranks.

    Same definition as numpy's default (``method="linear"``): rank ``(n - 1) * q / 100``.
    """
    if not values:
        raise ValueError("percentile of no values")
    if not 0.0 <= q <= 100.0:
        raise ValueError(f"percentile must be within [0, 100], got {q}")
    ordered = sorted(values)
    rank = (len(ordered) - 1) * q / 100.0
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def ratio(numerator: float, denominator: float) -> float:
    """``numerator / denominator``; infinity when the denominator is zero."""
    if denominator == 0:
        return math.inf
    return numerator / denominator


def paired_ratios(numerators: Sequence[float], denominators: Sequence[float]) -> list[float]:
    """Per-round ratios of two series measured side by side (round i with round i)."""
    if len(numerators) != len(denominators):
        raise ValueError("paired series must have the same length")
    return [ratio(a, b) for a, b in zip(numerators, denominators, strict=True)]


@dataclass(frozen=True, slots=True)
class Summary:
    """Median, spread and count of a series (seconds, or a unitless ratio)."""

    median: float
    p5: float
    p95: float
    minimum: float
    count: int

    @classmethod
    def of(cls, values: Sequence[float]) -> Summary:
        """Summarise a non-empty series."""
        return cls(
            median=statistics.median(values),
            p5=percentile(values, 5),
            p95=percentile(values, 95),
            minimum=min(values),
            count=len(values),
        )

    def as_dict(self, scale: float = 1.0, digits: int = 4) -> dict[str, float | int]:
        """The summary as JSON-ready numbers, each multiplied by ``scale`` (e.g. 1000 for ms)."""
        return {
            "median": _round(self.median * scale, digits),
            "p5": _round(self.p5 * scale, digits),
            "p95": _round(self.p95 * scale, digits),
            "min": _round(self.minimum * scale, digits),
            "n": self.count,
        }


def _round(value: float, digits: int) -> float:
    if not math.isfinite(value) or value == 0:
        return value
    # Significant digits, so tiny times and huge ratios both keep their precision.
    return round(value, max(0, digits - 1 - math.floor(math.log10(abs(value)))))


def time_call(
    work: Callable[[], object], *, min_time: float = 0.02, max_number: int = 10_000
) -> float:
    """Seconds per call of ``work``: called in a batch long enough (``min_time``) to time well.

    A call slower than ``min_time`` is timed once; faster ones are repeated and averaged, so the
    timer's resolution and per-call overhead do not dominate sub-millisecond work.
    """
    started = time.perf_counter()
    work()
    elapsed = time.perf_counter() - started
    if elapsed >= min_time:
        return elapsed
    number = min(max_number, max(1, math.ceil(min_time / max(elapsed, 1e-7))))
    started = time.perf_counter()
    for _ in range(number):
        work()
    return (time.perf_counter() - started) / number


def repeat(work: Callable[[], object], *, repeats: int, min_time: float = 0.02) -> list[float]:
    """``repeats`` independent :func:`time_call` measurements of ``work`` (seconds per call)."""
    return [time_call(work, min_time=min_time) for _ in range(repeats)]


class CacheEvictor:
    """Writes every byte of a buffer larger than the CPU's caches, so that the next call finds
    none of its own data in them: the state a bootstrap meets after its process sat idle.
    """

    def __init__(self, nbytes: int = EVICT_BYTES) -> None:
        self.buffer = np.zeros(max(nbytes // 8, 1), dtype=np.int64)

    def __call__(self) -> None:
        np.add(self.buffer, 1, out=self.buffer)


def time_cold(work: Callable[[], object], evict: Callable[[], None]) -> float:
    """Seconds of one call of ``work`` right after ``evict()``: cold caches, timed once."""
    evict()
    started = time.perf_counter()
    work()
    return time.perf_counter() - started
