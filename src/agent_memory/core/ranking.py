"""Fusing several rankings of the same items into one score (reciprocal rank fusion)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float32]

RRF_K = 60.0


def fuse_ranks(
    scores: Sequence[FloatArray],
    *,
    usable: npt.NDArray[np.bool_],
    k: float = RRF_K,
    weights: Sequence[float] | None = None,
) -> FloatArray:
    """Reciprocal rank fusion: each list adds ``weight / (k + rank)`` for the items it ranks.

    An item ranks in a list when its score there is finite (use ``-inf`` for "no match"); items
    not ``usable`` score ``-inf``. Ties within a list share the better rank.
    """
    fused = np.zeros(len(usable), dtype=np.float32)
    for position, values in enumerate(scores):
        weight = 1.0 if weights is None else weights[position]
        ranked = usable & np.isfinite(values)
        rows = np.flatnonzero(ranked)
        if not len(rows):
            continue
        ordered = rows[np.argsort(-values[rows], kind="stable")]
        ranks = np.empty(len(ordered), dtype=np.float32)
        sorted_values = values[ordered]
        # Equal scores share the first rank of their run.
        starts = np.r_[True, sorted_values[1:] != sorted_values[:-1]]
        ranks[:] = np.maximum.accumulate(np.where(starts, np.arange(1, len(ordered) + 1), 0))
        fused[ordered] += weight / (k + ranks)
    return np.where(usable, fused, -np.inf).astype(np.float32)
