"""Periods a question names, resolved against the time it is asked, and the runs they match."""

import datetime as dt

import pytest

from agent_memory.core.retrieval.periods import (
    DAY_TOLERANCE,
    Period,
    asks_for_latest,
    asks_when,
    question_period,
    tells_when,
    without_durations,
)


def at(year: int, month: int, day: int, hour: int = 12) -> float:
    return dt.datetime(year, month, day, hour, tzinfo=dt.UTC).timestamp()


def window(question: str, now: float | None) -> tuple[dt.date, dt.date] | None:
    """The first and last days a question's period matches (slack included), or None."""
    period = question_period(question, now)
    if period is None:
        return None
    bounds = period.bounds()
    assert bounds is not None
    first = dt.datetime.fromtimestamp(bounds[0], tz=dt.UTC).date()
    last = dt.datetime.fromtimestamp(bounds[1] - 1, tz=dt.UTC).date()
    return first, last


D = dt.date
# Wednesday 15 March 2023, noon UTC.
WEDNESDAY = at(2023, 3, 15)


@pytest.mark.parametrize("now", [None, WEDNESDAY])
@pytest.mark.parametrize(
    ("question", "first", "last"),
    [
        ("What did we decide on 8 May 2023?", D(2023, 5, 8), D(2023, 5, 15)),
        ("What happened on May 8th, 2023?", D(2023, 5, 8), D(2023, 5, 15)),
        ("Which talks did I give in Sept. 2022?", D(2022, 9, 1), D(2022, 9, 30)),
        ("What did I plant in 2021?", D(2021, 1, 1), D(2021, 12, 31)),
        ("What did I book in February 2024?", D(2024, 2, 1), D(2024, 2, 29)),
    ],
)
def test_absolute_periods_do_not_depend_on_now(
    question: str, first: dt.date, last: dt.date, now: float | None
) -> None:
    # Given a question naming an absolute date, month or year
    # When its period is read with and without a "now"
    # Then it is that calendar period, a named day reaching DAY_TOLERANCE days later
    assert window(question, now) == (first, last)


def test_an_impossible_date_matches_no_run() -> None:
    # Given a day that does not exist
    # When its period is read
    # Then there is none (as before: nothing matched it)
    assert question_period("What did I do on 31 February 2023?", WEDNESDAY) is None


def test_without_now_a_bare_month_is_that_month_of_every_year() -> None:
    # Given "in February" and no time of asking
    period = question_period("What did I cook in February?")
    # When runs from several years are checked
    # Then every February matches, 29 February included, and no other month
    assert period is not None
    assert period.contains(at(2019, 2, 3)) and period.contains(at(2024, 2, 29))
    assert not period.contains(at(2024, 3, 1)) and not period.contains(at(2023, 1, 31))
    assert period.bounds() is None


@pytest.mark.parametrize(
    "question", ["What did I do yesterday?", "What did I buy two weeks ago?", "last week?"]
)
def test_without_now_relative_expressions_are_ignored(question: str) -> None:
    # Given a relative expression and no time of asking
    # When its period is read
    # Then there is none
    assert question_period(question) is None


@pytest.mark.parametrize(
    ("question", "first", "last"),
    [
        ("What did I eat yesterday?", D(2023, 3, 14), D(2023, 3, 21)),
        ("Who called last night?", D(2023, 3, 14), D(2023, 3, 21)),
        ("What did I say the day before yesterday?", D(2023, 3, 13), D(2023, 3, 20)),
        ("What is on my list today?", D(2023, 3, 15), D(2023, 3, 22)),
        ("What did I read this morning?", D(2023, 3, 15), D(2023, 3, 22)),
        # Days ago: the day, a day before, two after.
        ("What did I buy 3 days ago?", D(2023, 3, 11), D(2023, 3, 14)),
        ("What did I buy three days ago?", D(2023, 3, 11), D(2023, 3, 14)),
        ("Where was I a day ago?", D(2023, 3, 13), D(2023, 3, 16)),
        ("Who did I meet a couple of days ago?", D(2023, 3, 12), D(2023, 3, 15)),
        # A few: two to four units.
        ("Who did I meet a few days ago?", D(2023, 3, 10), D(2023, 3, 15)),
        # Weeks ago: three days before, four after.
        ("What did I order two weeks ago?", D(2023, 2, 26), D(2023, 3, 5)),
        ("What did I order a few weeks ago?", D(2023, 2, 12), D(2023, 3, 5)),
        # Months ago: half a month either way.
        ("Where did I travel 2 months ago?", D(2022, 12, 31), D(2023, 1, 31)),
        ("Where did I travel twelve months ago?", D(2022, 2, 28), D(2022, 3, 31)),
        ("What did I start a year ago?", D(2021, 9, 14), D(2022, 9, 14)),
        # Rolling windows up to today.
        ("What did I run in the past 10 days?", D(2023, 3, 5), D(2023, 3, 15)),
        ("Which films did I see in the last two weeks?", D(2023, 3, 1), D(2023, 3, 15)),
        ("What did I read over the past few months?", D(2022, 11, 15), D(2023, 3, 15)),
        ("What did I fix in the last week?", D(2023, 3, 8), D(2023, 3, 15)),
        ("What did I fix this past week?", D(2023, 3, 8), D(2023, 3, 15)),
        ("What did I spend in the past month?", D(2023, 2, 15), D(2023, 3, 15)),
        ("What did I learn in the past year?", D(2022, 3, 15), D(2023, 3, 15)),
        # Calendar units: weeks start on Monday.
        ("What did I cook last week?", D(2023, 3, 6), D(2023, 3, 19)),
        ("What did I cook this week?", D(2023, 3, 13), D(2023, 3, 22)),
        ("What did I pay last month?", D(2023, 2, 1), D(2023, 2, 28)),
        ("What did I pay this month?", D(2023, 3, 1), D(2023, 3, 15)),
        ("What did I plan earlier this year?", D(2023, 1, 1), D(2023, 3, 15)),
        ("Where did I go last year?", D(2022, 1, 1), D(2022, 12, 31)),
        # A bare month is the latest one not after now.
        ("What did I buy in December?", D(2022, 12, 1), D(2022, 12, 31)),
        ("What did I buy in March?", D(2023, 3, 1), D(2023, 3, 31)),
        ("What did I buy in January?", D(2023, 1, 1), D(2023, 1, 31)),
        ("What did I buy last March?", D(2022, 3, 1), D(2022, 3, 31)),
        ("What did I buy last January?", D(2023, 1, 1), D(2023, 1, 31)),
        ("What did I buy in June last year?", D(2022, 6, 1), D(2022, 6, 30)),
        # A named weekday is the latest one before today.
        ("What did I do last Monday?", D(2023, 3, 13), D(2023, 3, 20)),
        ("What did I do on Friday?", D(2023, 3, 10), D(2023, 3, 17)),
        ("What did I do on Wednesday?", D(2023, 3, 8), D(2023, 3, 15)),
        ("What did I do this past Sunday?", D(2023, 3, 12), D(2023, 3, 19)),
        ("Where did I hike last weekend?", D(2023, 3, 11), D(2023, 3, 19)),
        ("Where did I hike this weekend?", D(2023, 3, 11), D(2023, 3, 19)),
    ],
)
def test_relative_expressions_resolve_against_now(
    question: str, first: dt.date, last: dt.date
) -> None:
    # Given a question asked on Wednesday 15 March 2023
    # When its period is read
    # Then it spans the days the expression names, with its slack
    assert window(question, WEDNESDAY) == (first, last)


@pytest.mark.parametrize(
    ("now", "question", "first", "last"),
    [
        # Month and year rollover.
        (at(2023, 1, 10), "What did I pay last month?", D(2022, 12, 1), D(2022, 12, 31)),
        (at(2023, 1, 10), "What did I do in November?", D(2022, 11, 1), D(2022, 11, 30)),
        (at(2023, 1, 10), "Where was I 2 weeks ago?", D(2022, 12, 24), D(2022, 12, 31)),
        # A month back keeps the day, clamped to the shorter month (leap years too).
        (at(2023, 3, 31), "What did I buy a month ago?", D(2023, 2, 13), D(2023, 3, 16)),
        (at(2024, 3, 31), "What did I buy a month ago?", D(2024, 2, 14), D(2024, 3, 16)),
        (at(2024, 2, 29), "What did I sign a year ago?", D(2022, 8, 30), D(2023, 8, 30)),
        (at(2024, 3, 10), "What did I pay last month?", D(2024, 2, 1), D(2024, 2, 29)),
        (at(2024, 3, 1), "What did I eat yesterday?", D(2024, 2, 29), D(2024, 3, 7)),
        # Weekends asked on a weekend day and on a Monday.
        (at(2023, 3, 18), "Where did I hike this weekend?", D(2023, 3, 18), D(2023, 3, 25)),
        (at(2023, 3, 19), "Where did I hike this weekend?", D(2023, 3, 18), D(2023, 3, 26)),
        (at(2023, 3, 19), "Where did I hike last weekend?", D(2023, 3, 11), D(2023, 3, 19)),
        (at(2023, 3, 20), "Where did I hike last weekend?", D(2023, 3, 18), D(2023, 3, 26)),
        # Weekday arithmetic across a month end; "last week" asked on a Sunday and a Monday.
        (at(2023, 3, 1), "What did I do last Tuesday?", D(2023, 2, 28), D(2023, 3, 7)),
        (at(2023, 3, 1), "What did I do last Thursday?", D(2023, 2, 23), D(2023, 3, 2)),
        (at(2023, 3, 19), "What did I cook last week?", D(2023, 3, 6), D(2023, 3, 19)),
        (at(2023, 3, 20), "What did I cook last week?", D(2023, 3, 13), D(2023, 3, 26)),
    ],
)
def test_calendar_arithmetic(now: float, question: str, first: dt.date, last: dt.date) -> None:
    # Given a question asked near a month, year or week boundary
    # When its period is read
    # Then the calendar arithmetic lands on the right days
    assert window(question, now) == (first, last)


def test_the_time_of_day_of_now_does_not_move_the_window() -> None:
    # Given the same day asked just after midnight and just before the next (UTC)
    # When "yesterday" is resolved
    # Then both name the same day
    early, late = at(2023, 3, 15, 0), at(2023, 3, 15, 23) + 3599
    assert question_period("yesterday?", early) == question_period("yesterday?", late)


@pytest.mark.parametrize(
    "question",
    [
        "What may I have told you?",
        "May I ask what my plans were?",
        "When was the last time I saw Anna?",
        "What did I say in the past about gardening?",
        "What did I buy recently?",
        "How many days ago did I start the course?",
        "Did I finish it before today?",
        "What did I do on Mondays?",
        "Which one did I pick last?",
        "What is the last step of the recipe?",
    ],
)
def test_no_period_is_read_into_other_words(question: str) -> None:
    # Given a question with a month-like verb, "last" without a unit or no period at all
    # When its period is read against a time of asking
    # Then there is none
    assert question_period(question, WEDNESDAY) is None


def test_slack_boundaries_are_inclusive() -> None:
    # Given "yesterday" asked on 15 March 2023
    period = question_period("What did I do yesterday?", WEDNESDAY)
    assert period == Period(D(2023, 3, 14), D(2023, 3, 14), late=DAY_TOLERANCE)
    # When runs on the edges of its window are checked
    # Then the day itself to DAY_TOLERANCE days later match, and nothing outside
    assert period.contains(at(2023, 3, 14, 0)) and period.contains(at(2023, 3, 21, 23))
    assert not period.contains(at(2023, 3, 13, 23)) and not period.contains(at(2023, 3, 22, 0))


def test_bounds_agree_with_contains() -> None:
    # Given a period with slack on both sides
    period = question_period("What did I order two weeks ago?", WEDNESDAY)
    assert period is not None and (bounds := period.bounds()) is not None
    # When every hour of a month around it is checked both ways
    # Then the two agree
    for hour in range(24 * 40):
        moment = at(2023, 2, 15, 0) + 3600.0 * hour
        assert period.contains(moment) == (bounds[0] <= moment < bounds[1])


@pytest.mark.parametrize(
    "question",
    [
        "Where do I currently work?",
        "What is my current address?",
        "Where do I live now?",
        "What am I reading at the moment?",
        "Which gym did I join most recently?",
        "What is my latest project?",
        "Do I still play tennis?",
        "What do I cook these days?",
        "Do I not drink coffee anymore?",
        "How many books have I read so far?",
        "NOW: what is my role?",
    ],
)
def test_asks_for_latest(question: str) -> None:
    # Given a question about the current state of something
    # When it is checked
    # Then it asks for the latest
    assert asks_for_latest(question)


@pytest.mark.parametrize(
    "question",
    [
        "Do you know my sister's name?",
        "Did it snow in June?",
        "Where was the known issue logged?",
        "Nowhere to be found?",
        "What did I buy recently?",
        "What was my first job?",
        "I enjoyed the stillness of the lake, where was it?",
    ],
)
def test_does_not_ask_for_latest(question: str) -> None:
    # Given a question with no word of the present ("now" only inside other words)
    # When it is checked
    # Then it does not ask for the latest
    assert not asks_for_latest(question)


@pytest.mark.parametrize(
    ("question", "kept"),
    [
        ("What milestone did I mention four weeks ago?", "What milestone did I mention ?"),
        ("Which trips did I take in the past three months?", "Which trips did I take in the ?"),
        ("What did I do in the past week?", "What did I do in ?"),
        ("What did I cook a few days ago?", "What did I cook ?"),
        ("What did I cook last Tuesday?", "What did I cook last Tuesday?"),
        ("What did I buy yesterday?", "What did I buy yesterday?"),
        ("How many visits did I have in March?", "How many visits did I have in March?"),
        ("What did I buy on 8 May 2023?", "What did I buy on 8 May 2023?"),
        ("Plan the offsite", "Plan the offsite"),
    ],
)
def test_without_durations_drops_only_durations(question: str, kept: str) -> None:
    # Given a question that may name a relative period
    # When its durations are taken out
    # Then what remains is the rest, named days, months and dates included
    assert without_durations(question) == kept


@pytest.mark.parametrize(
    "question",
    [
        "When did I start playing the piano?",
        "When Jon has lost his job as a banker?",
        "How many days ago did I participate in the 5K charity run?",
        "How long ago did I move?",
        "How long has Melanie been creating art?",
        "How many weeks passed between the two trips?",
        "How many days did it take for my iPad case to arrive after I bought it?",
        "After how many weeks did Tim reconnect with his friend?",
        "What was the date on which I attended the first BBQ event in June?",
        "Which month was John in Italy?",
        "Which device did I set up first, the smart thermostat or the new router?",
        "Which streaming service did I start using most recently?",
        "What is the order of the three trips, from earliest to latest?",
    ],
)
def test_asks_when(question: str) -> None:
    # Given a question about when, how long ago or in what order something happened
    # When it is checked
    # Then it asks about time
    assert asks_when(question)


@pytest.mark.parametrize(
    "question",
    [
        "Where do I keep my old sneakers?",
        "How many children does Melanie have?",
        "How many days a week do I attend fitness classes?",
        "What day of the week do I take a cocktail-making class?",
        "How many days did I spend on camping trips this year?",
        "Which restaurant serves a great Nasi Goreng?",
        "What did I say when we talked about gardening?",
        "Should I buy the red one or the blue one first?",
    ],
)
def test_does_not_ask_when(question: str) -> None:
    # Given a question about what, where or how many (a total or a frequency of days among
    # them), a "when" inside a clause, or advice
    # When it is checked
    # Then it does not ask about time
    assert not asks_when(question)


@pytest.mark.parametrize(
    "text",
    [
        "I did a 5K charity run today",
        "We got back yesterday",
        "I adopted her three weeks ago",
        "I fixed my bike last weekend",
        "The gallery opened on Friday",
        "The party is on May 3rd",
        "It was the 8th of June",
        "I moved in March 2022",
        "I started the job in 2019",
    ],
)
def test_tells_when(text: str) -> None:
    # Given a message that dates what it tells, relative to its own day or by the calendar
    # When it is checked
    # Then it tells when
    assert tells_when(text)


@pytest.mark.parametrize(
    "text",
    [
        "I was involved in a charity 5K run recently",
        "You may 3D-print the case",
        "Mondays are hard",
        "I have 20 days of leave",
        "Version 2019.3 is out",
    ],
)
def test_does_not_tell_when(text: str) -> None:
    # Given a message with no date: vague time, "may" the verb, a plural weekday, a count of
    # days, a version number
    # When it is checked
    # Then it does not tell when
    assert not tells_when(text)
