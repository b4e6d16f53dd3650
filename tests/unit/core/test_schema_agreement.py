"""The published JSON Schema and the validator accept exactly the same events.

Events are generated valid, then mutated where they break most often: a value of another
type (a numeric ``finished_at``), an extra or a missing key, a text at or one past its length
limit, date-times in every spelling near RFC 3339, identifiers and "blank" texts built from the
characters regex engines disagree on (a trailing newline, ``\\x1c``, U+FEFF). Each event is
judged by the product (its JSON text through the strict reader, then the validator) and by the
schema with a standard validator, with and without format assertion: all three agree.

What no JSON Schema can say about JSON text (a key named twice, a number a 64-bit float cannot
hold, a lone surrogate, the size bound) is the strict reader's, tested in test_strict_input.py;
generated values here never carry those.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from agent_memory.core.api.contracts import (
    DATE_TIME_PATTERN,
    ID_PATTERN,
    MAX_ITEM_CHARS,
    MAX_MESSAGE_CHARS,
    MAX_TASK_CHARS,
    json_schema,
    parse_run_finished,
)
from agent_memory.core.api.json_input import read_json
from agent_memory.core.model.errors import InvalidInput

SCHEMA = json_schema()
ASSERTING = jsonschema.Draft202012Validator(
    SCHEMA, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
)
ANNOTATING = jsonschema.Draft202012Validator(SCHEMA)

AGREEMENT = settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# --- values near every rule -------------------------------------------------------------------

# Characters some regex engine reads as whitespace (Python's str.isspace, Unicode White_Space,
# ECMA-262's WhiteSpace and LineTerminator), and some no engine does but look blank.
SPACES = "\t\n\x0b\x0c\r \x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2007\u200a"
SPACES += "\u2028\u2029\u202f\u205f\u3000\ufeff"
LOOKS_BLANK = "\u200b\u180e\u2060\u00ad\x00\x7f"
blank_ish = st.text(st.sampled_from(SPACES + LOOKS_BLANK), min_size=0, max_size=4)

identifier_ish = st.one_of(
    st.from_regex(ID_PATTERN, fullmatch=True),
    st.from_regex(ID_PATTERN, fullmatch=True).map(lambda s: s + "\n"),
    st.from_regex(ID_PATTERN, fullmatch=True).map(lambda s: "\n" + s),
    st.sampled_from(["a" * 128, "a" * 129, "", "_a", ".a", "a#b", "a/b", "a b", "a\u0430", "٣"]),
)

years = st.sampled_from(
    ["0001", "0999", "1000", "1970", "2000", "2024", "2100", "2999", "3000", "9999"]
)
months = st.sampled_from(["00", "01", "02", "04", "12", "13"])
days = st.sampled_from(["00", "01", "28", "29", "30", "31", "32"])
times = st.tuples(
    st.sampled_from(["T", "t", " ", "_"]),
    st.sampled_from(["00", "23", "24"]),
    st.sampled_from([":00", ":59", ":60"]),
    st.sampled_from([":00", ":59", ":60", ""]),
    st.sampled_from(["", ".", ".1", ".123456", ".1234567891", ",5"]),
    st.sampled_from(
        ["Z", "z", "", "+00:00", "-00:00", "+14:00", "+23:59", "+24:00", "+0100", "+01"]
    ),
    st.sampled_from(["", "", "", "\n", " "]),
).map("".join)
date_times = st.one_of(
    st.tuples(years, st.just("-"), months, st.just("-"), days, times).map("".join),
    st.from_regex(DATE_TIME_PATTERN, fullmatch=True),
    st.sampled_from(["1700000000", "2026-05-01", "yesterday", "٢٠٢٦-01-01T00:00:00Z"]),
)

LIMITS = [0, 1, 127, 128, 129, 200, 201, 256, 257, MAX_ITEM_CHARS, MAX_ITEM_CHARS + 1]
LIMITS += [MAX_TASK_CHARS, MAX_TASK_CHARS + 1, MAX_MESSAGE_CHARS, MAX_MESSAGE_CHARS + 1]
boundary_texts = st.builds(
    lambda n, pad, c: (c + pad * n)[:n], st.sampled_from(LIMITS), st.sampled_from("ab"), blank_ish
)

# The core's roles and the OpenAI names read as them.
ROLES = ["system", "human", "ai", "tool", "user", "assistant", "function"]

numbers = st.one_of(
    st.sampled_from([0, 1, -1, 2, 0.0, -0.0, 1.0, 0.5, 1.0000000000000002, 5e-324, -5e-324]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.integers(-(10**20), 10**20),
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    numbers,
    st.text(max_size=6),
    identifier_ish,
    blank_ish,
    date_times,
    boundary_texts,
    st.sampled_from(["COMPLETED", "PARTIAL", "FAILED", "UNKNOWN", *ROLES, "User", "bot"]),
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)

# --- valid events to start from ---------------------------------------------------------------

identifiers = st.from_regex(ID_PATTERN, fullmatch=True)
filled = st.text(max_size=40).map(lambda s: s + "x")
facts = st.fixed_dictionaries({"content": filled, "confidence": st.floats(0.0, 1.0)})
events = st.fixed_dictionaries(
    {"tenant_id": identifiers, "agent_id": identifiers, "run_id": identifiers, "task": filled},
    optional={
        "task_type": st.none() | identifiers,
        "domain": st.none() | identifiers,
        "outcome": st.none() | st.sampled_from(["COMPLETED", "PARTIAL", "FAILED"]),
        "messages": st.lists(
            st.fixed_dictionaries(
                {"role": st.sampled_from(ROLES), "content": st.text()},
                optional={
                    "name": st.none() | st.text(max_size=20),
                    "tool_call_id": st.none() | st.text(max_size=20),
                    "tool_calls": st.lists(st.text(max_size=10), max_size=2),
                },
            ),
            max_size=2,
        ),
        "artifacts": st.none()
        | st.fixed_dictionaries(
            {},
            optional={
                "task_summary": st.text(max_size=40),
                "outcome": st.none()
                | st.sampled_from(["COMPLETED", "PARTIAL", "FAILED", "UNKNOWN"]),
                "key_findings": st.lists(st.text(max_size=20), max_size=2),
                "approach_used": st.text(max_size=40),
                "tools_used": st.lists(st.text(max_size=10), max_size=2),
                "reusable_patterns": st.lists(st.text(max_size=20), max_size=2),
                "facts": st.lists(facts, max_size=2),
                "procedure": st.none()
                | st.fixed_dictionaries(
                    {"title": filled, "steps": st.lists(filled, min_size=1, max_size=2)}
                ),
            },
        ),
        "procedure_feedback": st.none()
        | st.fixed_dictionaries({"procedure_id": identifiers, "succeeded": st.booleans()}),
        "finished_at": st.none() | st.from_regex(DATE_TIME_PATTERN, fullmatch=True),
    },
)


def nodes(document: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every value in ``document`` (the root is ``()``)."""
    found = [path]
    if isinstance(document, dict):
        for key, value in document.items():
            found += nodes(value, (*path, key))
    elif isinstance(document, list):
        for index, value in enumerate(document):
            found += nodes(value, (*path, index))
    return found


def at(document: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        document = document[step]
    return document


@st.composite
def mutated_events(draw: st.DrawFn) -> Any:
    """A valid event with one to three defects (or none), anywhere in it."""
    event: Any = draw(events)
    for _ in range(draw(st.integers(0, 3))):
        path = draw(st.sampled_from(nodes(event)))
        if not path:
            event = draw(json_values)
            continue
        parent, last, target = at(event, path[:-1]), path[-1], at(event, path)
        operation = draw(st.sampled_from(["replace", "delete", "add", "grow"]))
        if operation == "delete" and isinstance(parent, dict):
            del parent[last]
        elif operation == "add" and isinstance(target, dict):
            target[draw(st.text(max_size=12))] = draw(json_values)
        elif operation == "grow" and isinstance(target, list) and target:
            target.append(copy.deepcopy(target[0]))
        else:
            parent[last] = draw(json_values)
    return event


def product_accepts(event: Any) -> bool:
    """What the product does with the event's JSON text: the strict reader, then the model."""
    try:
        parse_run_finished(read_json(json.dumps(event, allow_nan=False)))
    except InvalidInput:
        return False
    return True


def assert_agree(event: Any) -> None:
    asserted = ASSERTING.is_valid(event)
    # The schema means the same to a validator that only annotates formats.
    assert ANNOTATING.is_valid(event) == asserted
    assert product_accepts(event) == asserted, "the product and the published schema disagree: " + (
        "schema accepts, product refuses" if asserted else "schema refuses, product accepts"
    )


@AGREEMENT
@given(event=events)
def test_the_schema_and_the_product_accept_every_valid_event(event: dict[str, Any]) -> None:
    assert ASSERTING.is_valid(event)
    assert product_accepts(event)


@AGREEMENT
@given(event=mutated_events())
@example(
    event={
        "tenant_id": "acme",
        "agent_id": "a",
        "run_id": "r",
        "task": "t",
        "finished_at": 1700000000,
    }
)
@example(event={"tenant_id": "acme\n", "agent_id": "a", "run_id": "r", "task": "t"})
@example(event={"tenant_id": "acme", "agent_id": "a", "run_id": "r", "task": "\x1c"})
@example(event={"tenant_id": "acme", "agent_id": "a", "run_id": "r", "task": "\ufeff"})
@example(
    event={
        "tenant_id": "acme",
        "agent_id": "a",
        "run_id": "r",
        "task": "t",
        "finished_at": "2026-05-01 12:00:00Z",
    }
)
def test_the_schema_and_the_product_agree_on_every_mutated_event(event: Any) -> None:
    assert_agree(event)


@pytest.mark.parametrize(
    "value",
    [
        "2026-05-01T12:00:00Z",
        "2026-05-01t12:00:00.123456789z",
        "2024-02-29T00:00:00+14:00",
        "2000-02-29T23:59:59-23:59",
        "1000-01-01T00:00:00Z",
        "2999-12-31T23:59:59Z",
    ],
)
def test_an_rfc_3339_date_time_is_a_finish_time_to_both(value: str) -> None:
    event = {"tenant_id": "acme", "agent_id": "a", "run_id": "r", "task": "t", "finished_at": value}
    assert ASSERTING.is_valid(event) and product_accepts(event)


@pytest.mark.parametrize(
    "value",
    [
        1700000000,
        1.7e9,
        "1700000000",
        "2026-05-01",
        "2026-05-01 12:00:00Z",
        "2026-05-01T12:00Z",
        "2026-05-01T12:00:00",
        "2026-05-01T12:00:60Z",
        "2026-05-01T12:00:00+0100",
        "2026-05-01T12:00:00Z\n",
        "2100-02-29T00:00:00Z",
        "2026-04-31T00:00:00Z",
        "0999-12-31T23:59:59Z",
        "3000-01-01T00:00:00Z",
    ],
)
def test_anything_else_is_refused_as_a_finish_time_by_both(value: object) -> None:
    event = {"tenant_id": "acme", "agent_id": "a", "run_id": "r", "task": "t", "finished_at": value}
    assert not ASSERTING.is_valid(event)
    with pytest.raises(InvalidInput) as refused:
        parse_run_finished(event)
    assert refused.value.field == "finished_at"


def test_the_date_time_pattern_is_written_for_every_regex_engine() -> None:
    # ASCII classes only (\d is any Unicode digit to Python), no lookaround (Rust has none)
    assert not re.search(r"\\[dDsSwW]|\(\?[=!<]", DATE_TIME_PATTERN)
