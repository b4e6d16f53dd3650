"""Calendar periods named in a question ("in June", "on 8 May 2023"), and whether a run's date
falls in one: a tie-breaker for episodic search.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Literal

MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
_MONTH = "(" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_DAY_FIRST = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+{_MONTH},?\s+(\d{{4}})\b")
_MONTH_FIRST = re.compile(rf"\b{_MONTH}\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b")
_MONTH_YEAR = re.compile(rf"\b{_MONTH},?\s+(\d{{4}})\b")
# A bare month only after "in"/"during": "may" is also a verb.
_IN_MONTH = re.compile(rf"\b(?:in|during)\s+{_MONTH}\b")
_IN_YEAR = re.compile(r"\b(?:in|during)\s+((?:19|20)\d\d)\b")
# A named day matches runs up to this many days later: events are told after they happen.
DAY_TOLERANCE = 7


@dataclass(frozen=True, slots=True)
class Period:
    """A day, a month (``year`` 0: of any year) or a year."""

    kind: Literal["day", "month", "year"]
    year: int
    month: int = 0
    day: int = 0

    def contains(self, moment: float) -> bool:
        """Whether a run that finished at ``moment`` (epoch seconds) falls in the period."""
        date = dt.datetime.fromtimestamp(moment, tz=dt.UTC).date()
        if self.kind == "year":
            return date.year == self.year
        if self.kind == "month":
            return date.month == self.month and self.year in (0, date.year)
        try:
            delta = (date - dt.date(self.year, self.month, self.day)).days
        except ValueError:
            return False
        return 0 <= delta <= DAY_TOLERANCE


def question_period(question: str) -> Period | None:
    """The absolute calendar period ``question`` names, if any (relative ones such as "last
    year" need a reference time a query lacks, and are ignored).
    """
    low = question.lower()
    if m := _DAY_FIRST.search(low):
        return Period("day", int(m.group(3)), MONTHS[m.group(2)], int(m.group(1)))
    if m := _MONTH_FIRST.search(low):
        return Period("day", int(m.group(3)), MONTHS[m.group(1)], int(m.group(2)))
    if m := _MONTH_YEAR.search(low):
        return Period("month", int(m.group(2)), MONTHS[m.group(1)])
    if m := _IN_MONTH.search(low):
        return Period("month", 0, MONTHS[m.group(1)])
    if m := _IN_YEAR.search(low):
        return Period("year", int(m.group(1)))
    return None


def calendar_day(moment: float) -> str:
    """``moment`` as a calendar day in words, e.g. "8 May 2023" (UTC)."""
    date = dt.datetime.fromtimestamp(moment, tz=dt.UTC).date()
    return f"{date.day} {date.strftime('%B')} {date.year}"
