"""Choosing the few best of many scores without sorting them all."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

# Scores per group when the top few of many are chosen by group maxima first, and how many
# scores make that pay.
_RUN = 16
_GROUPED_ABOVE = 4_096


def top_positions(scores: npt.NDArray[np.floating[Any]], count: int) -> npt.NDArray[np.int64]:
    """Positions of the ``count`` highest ``scores`` (any order; ties broken arbitrarily).

    Over many scores, the scores are dealt into ``n / _RUN`` groups (position modulo the
    group count) and only the ``count`` groups with the highest maximum are searched: a top
    score's group has a maximum at least as high, so it is among them. A maximum over rows is
    one vectorised pass, far cheaper than a selection over every score.
    """
    n = len(scores)
    groups = n // _RUN
    if n < _GROUPED_ABOVE or groups < 4 * count:
        return np.argpartition(scores, n - count)[n - count :]
    maxima = scores[: groups * _RUN].reshape(_RUN, groups).max(axis=0)
    best = np.argpartition(maxima, groups - count)[groups - count :]
    members = (best + np.arange(0, groups * _RUN, groups)[:, None]).ravel()
    if groups * _RUN < n:
        members = np.concatenate((members, np.arange(groups * _RUN, n)))
    chosen = np.argpartition(scores[members], len(members) - count)[len(members) - count :]
    return members[chosen]
