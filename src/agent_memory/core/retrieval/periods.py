"""Calendar periods named in a question ("on 8 May 2023", "in June", "two weeks ago"), resolved
against the time it is asked, and whether a run's date falls in one: a tie-breaker for episodic
search. Also whether a question asks for the newest state of something ("currently").
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass

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
WEEKDAYS = {
    name: number
    for number, name in enumerate(
        ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
    )
}
_MONTH = "(" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_DAY_FIRST = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+{_MONTH},?\s+(\d{{4}})\b")
_MONTH_FIRST = re.compile(rf"\b{_MONTH}\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b")
_MONTH_YEAR = re.compile(rf"\b{_MONTH},?\s+(\d{{4}})\b")
# A bare month only after "in"/"during"/"last": "may" is also a verb.
_IN_MONTH = re.compile(rf"\b(?:in|during)\s+{_MONTH}\b")
_LAST_MONTH_NAMED = re.compile(rf"\blast\s+{_MONTH}\b")
_IN_YEAR = re.compile(r"\b(?:in|during)\s+((?:19|20)\d\d)\b")

# Counts as (fewest, most) units: "a few days" is anything from two to four.
_COUNTS = {
    "a": (1, 1),
    "an": (1, 1),
    "one": (1, 1),
    "a couple of": (2, 2),
    "couple of": (2, 2),
    "a few": (2, 4),
    "few": (2, 4),
    **{
        word: (n, n)
        for n, word in enumerate(
            ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"), start=2
        )
    },
    "eleven": (11, 11),
    "twelve": (12, 12),
}
_COUNT = r"(\d{1,3}|" + "|".join(w.replace(" ", r"\s+") for w in _COUNTS) + ")"
_UNIT = r"(day|week|month|year)"
_WEEKDAY = "(" + "|".join(WEEKDAYS) + ")"
_DAY_BEFORE_YESTERDAY = re.compile(r"\bday\s+before\s+yesterday\b")
_YESTERDAY = re.compile(r"\b(?:yesterday|last\s+night)\b")
# "before today" / "since today" name no day to look in.
_TODAY = re.compile(
    r"(?<!before )(?<!until )(?<!since )(?<!from )(?<!of )(?<!to )"
    r"\b(?:today|tonight|this\s+(?:morning|afternoon|evening))\b"
)
_AGO = re.compile(rf"\b{_COUNT}\s+{_UNIT}s?\s+ago\b")
_PAST_COUNT = re.compile(rf"\b(?:past|last)\s+{_COUNT}\s+{_UNIT}s?\b")
# "the last week" is the last seven days; "last week" the calendar week before this one.
_PAST_UNIT = re.compile(rf"\b(?:the\s+(?:past|last)|past)\s+{_UNIT}\b(?!\s+of\b)")
_WEEKEND = re.compile(r"\b(last|past|this)\s+weekend\b")
_CALENDAR = re.compile(r"\b(last|this)\s+(week|month|year)\b")
_ON_WEEKDAY = re.compile(rf"\b(?:last|on|this\s+past)\s+{_WEEKDAY}\b")
# One word every relative expression holds: most questions hold none, and skip the rest.
_RELATIVE_WORD = re.compile(
    r"\b(?:ago|yesterday|today|tonight|this|last|past|" + "|".join(WEEKDAYS) + r")\b"
)

# A question about time: when something happened, how long ago or apart, in what order.
_ASKS_WHEN = re.compile(
    r"^\W*when\b|\bwhen\s+(?:did|was|were|is|are|do|does|had|has|have|will|would)\b"
    r"|\bhow\s+long\s+(?:ago|did|has|have|had|was|were|before|after|since)\b"
    # A count of days between two moments, not a total ("how many days did I spend camping")
    # nor a frequency ("how many days a week").
    r"|\bhow\s+(?:many|much)\s+(?:days|weeks|months|years|time)\b(?=.*\b(?:ago|before|after"
    r"|between|passed|since|later|earlier|elapsed|until|take|took)\b)"
    r"|\b(?:after|before|within)\s+how\s+(?:many|much)\s+(?:days|weeks|months|years|time)\b"
    r"|\b(?:what|which)\s+(?:date|day|week|month|year)\b(?!\s+of\s+the\s+week)"
    r"|\bwhat\s+(?:was|is)\s+the\s+date\b"
    r"|\bin\s+which\s+(?:week|month|year)\b"
    r"|\b(?:first|earlier|earliest|later|latest|most\s+recently)\s*,?\s+(?:the\s+)?[^?]*\bor\b"
    r"|\bmost\s+recently\b|\bearliest\s+to\s+latest\b|\blatest\s+to\s+earliest\b"
    r"|\bin\s+what\s+order\b"
)
# A month that dates a message: "in May", "last May", "May 3rd", "3 May", "the 3rd of May",
# "May 2023" (a bare "may" is also a verb).
_MONTH_NAMED = re.compile(
    rf"\b(?:in|during|last)\s+{_MONTH}(?!\w)|\b{_MONTH}\s+\d{{1,4}}(?:st|nd|rd|th)?\b"
    rf"|\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}(?!\w)"
)
_WORD = re.compile(r"[a-z]+")

_LATEST = re.compile(
    r"\b(?:currently|current|now|nowadays|presently|at\s+(?:the\s+moment|present)"
    r"|most\s+recent(?:ly)?|latest|newest|still|these\s+days|anymore|so\s+far|to\s+date)\b"
)

_DAY = dt.timedelta(days=1)
# Windows of every year ("in June" with no "now") are kept in 2000, a leap year: 29 February fits.
_ANY_YEAR = 2000
_EPOCH = dt.date(1970, 1, 1)

# Slack. Runs tell of events on or after the day they happen, so a window reaches past its end
# by a telling delay: DAY_TOLERANCE days for windows of up to a week (a named day, a weekend, a
# week); none for months and years, whose length dwarfs it (and absolute ones never had any).
# "N units ago" names a point only as precisely as people round, so it reaches half a unit
# either way (at least a day), and a day more after it, for the telling delay.
DAY_TOLERANCE = 7
_AGO_SLACK = {"day": (1, 2), "week": (3, 4), "month": (15, 16), "year": (182, 183)}


@dataclass(frozen=True, slots=True)
class Period:
    """UTC dates ``start`` to ``end`` (inclusive), matched from ``early`` days before ``start`` to
    ``late`` days after ``end``; with ``any_year`` the window's month and day in every year (its
    dates are then in 2000).
    """

    start: dt.date
    end: dt.date
    early: int = 0
    late: int = 0
    any_year: bool = False

    def contains(self, moment: float) -> bool:
        """Whether a run that finished at ``moment`` (epoch seconds) falls in the period."""
        date = dt.datetime.fromtimestamp(moment, tz=dt.UTC).date()
        if self.any_year:
            date = date.replace(year=_ANY_YEAR)
        return (self.start - date).days <= self.early and (date - self.end).days <= self.late

    def bounds(self) -> tuple[float, float] | None:
        """The epoch seconds ``[low, high)`` the period matches (None with ``any_year``): the
        same test as ``contains``, for comparing a whole array of moments at once.
        """
        if self.any_year:
            return None
        low = (self.start - _EPOCH).days - self.early
        high = (self.end - _EPOCH).days + self.late + 1
        return low * 86_400.0, high * 86_400.0


def question_period(question: str, now: float | None = None) -> Period | None:
    """The calendar period ``question`` names, if any. Absolute dates resolve alone; relative
    ones ("yesterday", "two weeks ago", "last month", "in June" without a year) need ``now``,
    the epoch seconds the question is asked at, and without it are ignored ("in June" then
    means June of any year).
    """
    low = question.lower()
    if m := _DAY_FIRST.search(low):
        return _named_day(int(m.group(3)), MONTHS[m.group(2)], int(m.group(1)))
    if m := _MONTH_FIRST.search(low):
        return _named_day(int(m.group(3)), MONTHS[m.group(1)], int(m.group(2)))
    if m := _MONTH_YEAR.search(low):
        return _month(int(m.group(2)), MONTHS[m.group(1)])
    in_month = _IN_MONTH.search(low)
    if now is not None:
        today = dt.datetime.fromtimestamp(now, tz=dt.UTC).date()
        if (m := _CALENDAR.search(low)) and m.group(2) == "year" and in_month:
            # "in June last year": the month of the year named.
            year = today.year - (m.group(1) == "last")
            return _month(year, MONTHS[in_month.group(1)])
        if _RELATIVE_WORD.search(low):
            for resolve in _RELATIVE:
                if (period := resolve(low, today)) is not None:
                    return period
        if in_month:
            month = MONTHS[in_month.group(1)]
            return _month(today.year - (month > today.month), month)
    elif in_month:
        return _month(_ANY_YEAR, MONTHS[in_month.group(1)], any_year=True)
    if m := _IN_YEAR.search(low):
        year = int(m.group(1))
        return Period(dt.date(year, 1, 1), dt.date(year, 12, 31))
    return None


def without_durations(question: str) -> str:
    """``question`` without the durations a period is resolved from ("four weeks ago", "in
    the past three months"): they say when, and the period prior uses them; as query words
    they would match any run that mentions a duration. Named days ("yesterday", "last
    Tuesday"), months and dates stay: a run telling of that day may say the same words.
    """
    low = question.lower()
    if not _RELATIVE_WORD.search(low):
        return question
    spans = sorted(m.span() for pattern in _DURATION_PATTERNS for m in pattern.finditer(low))
    kept, cursor = [], 0
    for start, end in spans:
        if start >= cursor:
            kept.append(question[cursor:start])
        cursor = max(cursor, end)
    kept.append(question[cursor:])
    return " ".join("".join(kept).split())


def asks_for_latest(question: str) -> bool:
    """Whether ``question`` asks for the current or newest state of something ("Where do I
    live now?", "my latest job"), so the newest of the matching runs should win.
    """
    return _LATEST.search(question.lower()) is not None


def asks_when(question: str) -> bool:
    """Whether ``question`` asks about time: when something happened ("When did I...?"), how
    long ago or apart ("How many days ago...?"), on what date, or in what order ("Which did I
    buy first, A or B?").
    """
    return _ASKS_WHEN.search(question.lower()) is not None


def tells_when(text: str) -> bool:
    """Whether ``text`` dates what it tells: a day relative to its own ("yesterday", "three
    weeks ago", "last weekend", "on Monday"), a named month or date ("in May", "May 3rd",
    "8 May 2023").
    """
    low = text.lower()
    # Each pattern runs only when its word is there: most messages hold none of them.
    words = set(_WORD.findall(low))
    return any(
        not words.isdisjoint(needed) and pattern.search(low) is not None
        for needed, pattern in _TELLING_PATTERNS
    )


def calendar_day(moment: float) -> str:
    """``moment`` as a calendar day in words, e.g. "8 May 2023" (UTC)."""
    date = dt.datetime.fromtimestamp(moment, tz=dt.UTC).date()
    return f"{date.day} {date.strftime('%B')} {date.year}"


def _named_day(year: int, month: int, day: int) -> Period | None:
    try:
        date = dt.date(year, month, day)
    except ValueError:
        return None
    return _day(date)


def _day(date: dt.date) -> Period:
    return Period(date, date, late=DAY_TOLERANCE)


def _month(year: int, month: int, any_year: bool = False) -> Period:
    last = calendar.monthrange(year, month)[1]
    return Period(dt.date(year, month, 1), dt.date(year, month, last), any_year=any_year)


def _minus(date: dt.date, count: int, unit: str) -> dt.date:
    """``count`` units before ``date``; a month or year back keeps the day, clamped to the
    month's length (31 March less a month is 28 or 29 February).
    """
    if unit == "day":
        return date - count * _DAY
    if unit == "week":
        return date - 7 * count * _DAY
    months = count * (12 if unit == "year" else 1)
    index = date.year * 12 + date.month - 1 - months
    year, month = divmod(index, 12)
    month += 1
    return dt.date(year, month, min(date.day, calendar.monthrange(year, month)[1]))


def _count(word: str) -> tuple[int, int]:
    return (int(word), int(word)) if word.isdigit() else _COUNTS[" ".join(word.split())]


def _days_before(low: str, today: dt.date) -> Period | None:
    if _DAY_BEFORE_YESTERDAY.search(low):
        return _day(today - 2 * _DAY)
    if _YESTERDAY.search(low):
        return _day(today - _DAY)
    if _TODAY.search(low):
        return _day(today)
    return None


def _ago(low: str, today: dt.date) -> Period | None:
    if not (m := _AGO.search(low)):
        return None
    fewest, most = _count(m.group(1))
    unit = m.group(2)
    early, late = _AGO_SLACK[unit]
    return Period(_minus(today, most, unit), _minus(today, fewest, unit), early, late)


def _past(low: str, today: dt.date) -> Period | None:
    if m := _PAST_COUNT.search(low):
        most, unit = _count(m.group(1))[1], m.group(2)
    elif m := _PAST_UNIT.search(low):
        most, unit = 1, m.group(1)
    else:
        return None
    return Period(_minus(today, most, unit), today)


def _weekend(low: str, today: dt.date) -> Period | None:
    if not (m := _WEEKEND.search(low)):
        return None
    weekday = today.weekday()
    if weekday >= 5:  # a weekend day: "this weekend" is the one under way
        saturday = today - (weekday - 5) * _DAY
        if m.group(1) == "this":
            return Period(saturday, today, late=DAY_TOLERANCE)
        saturday -= 7 * _DAY
    else:
        saturday = today - (weekday + 2) * _DAY
    return Period(saturday, saturday + _DAY, late=DAY_TOLERANCE)


def _calendar(low: str, today: dt.date) -> Period | None:
    if not (m := _CALENDAR.search(low)):
        return None
    which, unit = m.group(1), m.group(2)
    if unit == "week":
        monday = today - today.weekday() * _DAY
        if which == "this":
            return Period(monday, today, late=DAY_TOLERANCE)
        return Period(monday - 7 * _DAY, monday - _DAY, late=DAY_TOLERANCE)
    if unit == "month":
        if which == "this":
            return Period(today.replace(day=1), today)
        previous = today.replace(day=1) - _DAY
        return _month(previous.year, previous.month)
    if which == "this":
        return Period(dt.date(today.year, 1, 1), today)
    return Period(dt.date(today.year - 1, 1, 1), dt.date(today.year - 1, 12, 31))


def _weekday(low: str, today: dt.date) -> Period | None:
    if not (m := _ON_WEEKDAY.search(low)):
        return None
    # The most recent such day before today: "on Monday" asked on a Monday is a week ago.
    back = (today.weekday() - WEEKDAYS[m.group(1)]) % 7 or 7
    return _day(today - back * _DAY)


def _last_named_month(low: str, today: dt.date) -> Period | None:
    if not (m := _LAST_MONTH_NAMED.search(low)):
        return None
    month = MONTHS[m.group(1)]
    return _month(today.year - (month >= today.month), month)


# Durations ("four weeks ago", "the past three months"): the words ``without_durations``
# takes out. Their numerals and units are shared by any run that mentions a duration ("for
# three months now"); a run telling of "yesterday" or "last weekend" often says those very
# words, so they stay.
_DURATION_PATTERNS = (_AGO, _PAST_COUNT, _PAST_UNIT)
_TELLING_PATTERNS = (
    (frozenset({"today", "tonight", "this"}), _TODAY),
    (frozenset({"yesterday", "night"}), _YESTERDAY),
    (frozenset({"ago"}), _AGO),
    (frozenset({"weekend"}), _WEEKEND),
    (frozenset({"week", "month", "year"}), _CALENDAR),
    (frozenset(WEEKDAYS), _ON_WEEKDAY),
    (frozenset(MONTHS), _MONTH_NAMED),
    (frozenset({"in", "during"}), _IN_YEAR),
)

# Most precise first: a question naming a day and a month ("yesterday, in June") means the day.
_RELATIVE: tuple[Callable[[str, dt.date], Period | None], ...] = (
    _days_before,
    _ago,
    _weekday,
    _weekend,
    _past,
    _calendar,
    _last_named_month,
)
