"""A window of time episodes were created in: ``[since, until)``, in seconds since the epoch.

Listing and searching an agent's episodes by time read the same window; either end may be
open (None). It is checked where it is built, so every surface refuses the same bad window
naming the same field.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from agent_memory.core.model.errors import InvalidInput


@dataclass(frozen=True, slots=True)
class TimeWindow:
    """Episodes created at or after ``since`` and before ``until`` (None: that end is open).

    ``InvalidInput`` names ``since`` or ``until`` when one is not a finite number, and
    ``until`` when it is not after ``since`` (an empty window is a mistake, never a query).
    """

    since: float | None = None
    until: float | None = None

    def __post_init__(self) -> None:
        for name in ("since", "until"):
            moment = getattr(self, name)
            if moment is not None:
                object.__setattr__(self, name, seconds(moment, name))
        if self.since is not None and self.until is not None and self.since >= self.until:
            raise InvalidInput("until", "must be later than since")

    @property
    def bounded(self) -> bool:
        """Whether either end is set (an open window holds every episode)."""
        return self.since is not None or self.until is not None

    def holds(self, created_at: float) -> bool:
        """Whether a moment falls in the window."""
        return (self.since is None or created_at >= self.since) and (
            self.until is None or created_at < self.until
        )


OPEN = TimeWindow()
"""The window that holds every moment."""


def window_of(since: object, until: object) -> TimeWindow:
    """The window of a request's ``since`` and ``until`` (JSON numbers of seconds since the
    epoch, or absent as None); ``InvalidInput`` names the bad one.
    """
    return TimeWindow(
        None if since is None else seconds(since, "since"),
        None if until is None else seconds(until, "until"),
    )


def seconds(value: object, field: str) -> float:
    """A moment given as a number of seconds since the epoch, as a float; ``InvalidInput``
    names ``field`` when it is not a finite number (a bool is not one).
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInput(field, "must be a number of seconds since the epoch")
    try:
        moment = float(value)
    except OverflowError:
        moment = math.inf
    if not math.isfinite(moment):
        raise InvalidInput(field, "must be a finite number of seconds since the epoch")
    return moment
