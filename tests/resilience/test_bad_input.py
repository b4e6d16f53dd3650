"""Hostile RunFinished events: refused naming the field, or handled within the stated limits.

Valid events are generated from the contract (``core/api/contracts.py``) and must consolidate on a
real local memory; each hostile event is a valid one with one defect. A refused event writes
nothing: not an episode, a fact, a procedure, a KB document nor a ledger record. The same holds
through the ``agent-memory`` command and the ``extract`` Lambda.
"""

from __future__ import annotations

import json
import math
import os
import re
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from itertools import count
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_memory.core.api.contracts import (
    ID_PATTERN,
    MAX_ITEM_CHARS,
    MAX_LIST_ITEMS,
    MAX_MESSAGE_CHARS,
    MAX_MESSAGES,
    MAX_TASK_CHARS,
)
from agent_memory.core.api.json_input import MAX_EVENT_BYTES
from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.workflows.consolidation import (
    consolidate,
    consolidate_or_record,
    summary,
)
from agent_memory.wiring.local import DATABASE_FILE
from tests.resilience.aws_lambdas import AwsMemory, aws_memory, eventbridge_event
from tests.support.fakes import FakePiiDetector
from tests.support.lambda_context import LambdaContext
from tests.support.ledger import ledger_contents
from tests.support.memory import DAY, T0, Memory, make_memory

Event = dict[str, Any]
TEN_MB = 10 * 1024 * 1024
DEPTH = 10_000

HOSTILE = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,  # one store per test, shared by its examples
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)

# --- valid events, generated from the contract ---------------------------------------------

identifiers = st.from_regex(ID_PATTERN, fullmatch=True)


def texts(max_size: int) -> st.SearchStrategy[str]:
    """Any text (control characters included; Python strings cannot hold lone surrogates
    here, they get their own test)."""
    return st.text(max_size=max_size)


def filled(max_size: int) -> st.SearchStrategy[str]:
    """Text with something besides whitespace, as required fields need."""
    half = max(0, max_size // 2 - 1)
    return st.tuples(texts(half), st.sampled_from("abcXYZ019"), texts(half)).map("".join)


facts = st.fixed_dictionaries(
    {"content": filled(MAX_ITEM_CHARS // 8), "confidence": st.floats(0.0, 1.0)}
)
procedures = st.fixed_dictionaries(
    {
        "title": filled(200),
        "steps": st.lists(filled(120), min_size=1, max_size=6),
    }
)
artifacts = st.fixed_dictionaries(
    {},
    optional={
        "task_summary": texts(300),
        "outcome": st.sampled_from(["COMPLETED", "PARTIAL", "FAILED", "UNKNOWN", None]),
        "key_findings": st.lists(texts(200), max_size=5),
        "approach_used": texts(300),
        "tools_used": st.lists(texts(40), max_size=3),
        "reusable_patterns": st.lists(texts(120), max_size=3),
        "facts": st.lists(facts, max_size=5),
        "procedure": st.none() | procedures,
    },
)
messages = st.fixed_dictionaries(
    {"role": st.sampled_from(["system", "human", "ai", "tool"]), "content": texts(400)},
    optional={"name": st.none() | texts(60), "tool_call_id": st.none() | texts(20)},
)
# Recent enough that the episode has not expired at the test clock's "now".
finished = st.datetimes(
    min_value=datetime.fromtimestamp(T0 - 30 * DAY, UTC).replace(tzinfo=None),
    max_value=datetime.fromtimestamp(T0, UTC).replace(tzinfo=None),
).map(lambda d: d.replace(tzinfo=UTC).isoformat())
valid_events = st.fixed_dictionaries(
    {"tenant_id": identifiers, "agent_id": identifiers, "run_id": identifiers, "task": filled(600)},
    optional={
        "task_type": st.none() | identifiers,
        "domain": st.none() | identifiers,
        "outcome": st.none() | st.sampled_from(["COMPLETED", "PARTIAL", "FAILED"]),
        "messages": st.lists(messages, max_size=6),
        "artifacts": st.none() | artifacts,
        "procedure_feedback": st.none()
        | st.fixed_dictionaries({"procedure_id": identifiers, "succeeded": st.booleans()}),
        "finished_at": st.none() | finished,
    },
)
# Every leaf present, so any of them can be broken.
complete_events = st.fixed_dictionaries(
    {
        "tenant_id": identifiers,
        "agent_id": identifiers,
        "run_id": identifiers,
        "task": filled(300),
        "task_type": identifiers,
        "domain": identifiers,
        "outcome": st.sampled_from(["COMPLETED", "PARTIAL", "FAILED"]),
        "messages": st.lists(
            st.fixed_dictionaries(
                {"role": st.sampled_from(["human", "ai"]), "content": texts(200), "name": texts(30)}
            ),
            min_size=1,
            max_size=3,
        ),
        "artifacts": st.fixed_dictionaries(
            {
                "task_summary": texts(200),
                "outcome": st.sampled_from(["COMPLETED", "PARTIAL", "FAILED", "UNKNOWN"]),
                "key_findings": st.lists(texts(100), min_size=1, max_size=3),
                "approach_used": texts(200),
                "tools_used": st.lists(texts(30), min_size=1, max_size=3),
                "reusable_patterns": st.lists(texts(100), min_size=1, max_size=3),
                "facts": st.lists(facts, min_size=1, max_size=3),
                "procedure": procedures,
            }
        ),
        "procedure_feedback": st.fixed_dictionaries(
            {"procedure_id": identifiers, "succeeded": st.booleans()}
        ),
        "finished_at": finished,
    }
)

# Every scalar of a complete event, by the dotted path an error names it with, and its kind.
LEAVES = {
    "tenant_id": "identifier",
    "agent_id": "identifier",
    "run_id": "identifier",
    "task_type": "identifier",
    "domain": "identifier",
    "task": "text",
    "outcome": "choice",
    "messages[0].role": "choice",
    "messages[0].content": "content",
    "messages[0].name": "text",
    "artifacts.task_summary": "text",
    "artifacts.outcome": "choice",
    "artifacts.key_findings[0]": "text",
    "artifacts.approach_used": "text",
    "artifacts.tools_used[0]": "text",
    "artifacts.reusable_patterns[0]": "text",
    "artifacts.facts[0].content": "text",
    "artifacts.facts[0].confidence": "number",
    "artifacts.procedure.title": "text",
    "artifacts.procedure.steps[0]": "text",
    "procedure_feedback.procedure_id": "identifier",
    "procedure_feedback.succeeded": "boolean",
    "finished_at": "date-time",
}
STRINGS = [
    path for path, kind in LEAVES.items() if kind in {"identifier", "text", "content", "choice"}
]
IDENTIFIERS = [path for path, kind in LEAVES.items() if kind == "identifier"]
# Limits as the contract states them: (path, longest accepted).
TEXT_LIMITS = {
    "task": MAX_TASK_CHARS,
    "messages[0].content": MAX_MESSAGE_CHARS,
    "messages[0].name": 256,
    "artifacts.task_summary": MAX_ITEM_CHARS,
    "artifacts.key_findings[0]": MAX_ITEM_CHARS,
    "artifacts.approach_used": MAX_TASK_CHARS,
    "artifacts.tools_used[0]": MAX_ITEM_CHARS,
    "artifacts.reusable_patterns[0]": MAX_ITEM_CHARS,
    "artifacts.facts[0].content": MAX_ITEM_CHARS,
    "artifacts.procedure.title": 200,
    "artifacts.procedure.steps[0]": MAX_ITEM_CHARS,
}
LIST_LIMITS = {
    "messages": (MAX_MESSAGES, {"role": "human", "content": "ok"}),
    "artifacts.key_findings": (MAX_LIST_ITEMS, "finding"),
    "artifacts.tools_used": (MAX_LIST_ITEMS, "tool"),
    "artifacts.reusable_patterns": (MAX_LIST_ITEMS, "pattern"),
    "artifacts.facts": (MAX_LIST_ITEMS, {"content": "a fact", "confidence": 0.9}),
    "artifacts.procedure.steps": (MAX_LIST_ITEMS, "a step"),
}
# Characters that would let an identifier escape its key or prefix, or pass for another one.
HOSTILE_ID_PARTS = [
    "../",
    "/",
    "#",
    "\\",
    "\x00",
    " ",
    "\n",
    "\t",
    "%2F",
    "\u2215",  # division slash
    "\u2044",  # fraction slash
    "\uff0f",  # full-width solidus
    "\uff03",  # full-width number sign
    "\ufe5f",  # small number sign
    "\u0430",  # Cyrillic a, looks like Latin a
    "\u200b",  # zero-width space
    "\u202e",  # right-to-left override
    "x" * 128,  # one character over the 128 allowed
]


def steps(path: str) -> list[str | int]:
    return [int(i) if i else key for key, i in re.findall(r"(\w+)|\[(\d+)\]", path)]


def put(event: Event, path: str, value: Any) -> Event:
    """A copy of ``event`` with ``value`` at ``path`` (the rest untouched)."""
    copy: Event = json.loads(json.dumps(event))
    *parents, last = steps(path)
    node: Any = copy
    for key in parents:
        node = node[key]
    node[last] = value
    return copy


def take(event: Event, path: str) -> Any:
    node: Any = event
    for key in steps(path):
        node = node[key]
    return node


def nested(depth: int, as_dict: bool) -> Any:
    """``depth`` levels of lists (or objects), built without recursion."""
    value: Any = "bottom"
    for _ in range(depth):
        value = {"a": value} if as_dict else [value]
    return value


def wrapped(event: Event, envelope: bool) -> Any:
    """The detail alone, or inside the EventBridge envelope (both are accepted)."""
    return eventbridge_event(event) if envelope else event


# --- what "nothing written" means ------------------------------------------------------------

DATA_TABLES = (
    "episodes",
    "facts",
    "fact_runs",
    "procedures",
    "procedure_sources",
    "procedure_feedback",
    "ledger",
)


def rows_in(store: Path) -> dict[str, int]:
    with sqlite3.connect(store / DATABASE_FILE) as db:
        return {t: db.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in DATA_TABLES}


def assert_nothing_written(memory: Memory, tenant_id: str) -> None:
    ports = memory.ports
    assert list(ports.episodes.export(tenant_id)) == []
    assert list(ports.facts.export(tenant_id)) == []
    assert list(ports.procedures.export(tenant_id)) == []
    assert ports.knowledge_base.document_keys(tenant_id) == []
    assert ledger_contents(ports) == []
    # Whatever the tenant the defect made unreadable: no row of any table, no KB file.
    assert set(rows_in(memory.root).values()) == {0}
    assert [p for p in (memory.root / "kb").rglob("*") if p.is_file()] == []


def assert_refused(memory: Memory, event: Event, field: str, *, tenant_id: str) -> InvalidInput:
    with pytest.raises(InvalidInput) as refused:
        consolidate_or_record(event, memory.ports)
    assert refused.value.field == field
    assert_nothing_written(memory, tenant_id)
    return refused.value


@pytest.fixture
def memory(tmp_path: Path) -> Memory:
    return make_memory(tmp_path)


# --- valid events ---------------------------------------------------------------------------

run_numbers = count()


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(event=valid_events, envelope=st.booleans())
def test_any_valid_event_consolidates_and_writes_its_episode(
    memory: Memory, event: Event, envelope: bool
) -> None:
    # Given a valid event (a fresh run id: one store serves every example)
    event["run_id"] = f"{event['run_id'][:100]}-{next(run_numbers)}"
    # When it is consolidated
    result = summary(consolidate(wrapped(event, envelope), memory.ports))
    # Then its episode is stored, or (a run that finished past retention) said not kept and
    # absent; its run is recorded either way
    tenant, run_id = event["tenant_id"], event["run_id"]
    stored = memory.ports.episodes.get(tenant, event["agent_id"], run_id, now=memory.clock())
    if result["episode"] == "not kept":
        assert stored is None
        assert any(line.startswith("episode not kept") for line in result["not_kept"])
    else:
        assert result["episode"] == "written" and stored is not None
    recorded = memory.ports.run_ledger.run(tenant, event["agent_id"], run_id, now=memory.clock())
    assert recorded is not None


# --- refused, naming the field, with nothing written -----------------------------------------


@HOSTILE
@given(
    event=complete_events,
    missing=st.sampled_from(["tenant_id", "agent_id", "run_id", "task"]),
    envelope=st.booleans(),
)
def test_an_event_missing_a_required_field_is_refused_naming_it(
    memory: Memory, event: Event, missing: str, envelope: bool
) -> None:
    tenant = event["tenant_id"]
    del event[missing]
    assert_refused(memory, wrapped(event, envelope), missing, tenant_id=tenant)


JSON_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(max_size=5),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
# JSON types each kind of field refuses (strict: no coercion, so "0.9" is not a number).
WRONG_FOR: dict[str, Callable[[Any], bool]] = {
    "identifier": lambda v: not isinstance(v, str),
    "text": lambda v: not isinstance(v, str),
    # a message's content may also be null or a list of parts (OpenAI's shapes; a list's
    # parts are refused by their own index, tests/unit/core/test_logged_message_shapes.py)
    "content": lambda v: v is not None and not isinstance(v, str | list),
    "choice": lambda v: not isinstance(v, str),
    # bool is an int to Python, not a number to the contract
    "number": lambda v: isinstance(v, bool) or not isinstance(v, int | float),
    "boolean": lambda v: not isinstance(v, bool),
    # date-times come as RFC 3339 strings only: an epoch number is refused, as the published
    # schema refuses it
    "date-time": lambda v: v is not None and not isinstance(v, str),
}
# Text fields that also take a list (OpenAI's content parts).
LIST_VALUED = {path for path, kind in LEAVES.items() if kind == "content"}
OPTIONAL_LEAVES = {
    "task_type",
    "domain",
    "outcome",
    "messages[0].name",
    "artifacts.outcome",
    "finished_at",
}


@HOSTILE
@given(event=complete_events, path=st.sampled_from(sorted(LEAVES)), data=st.data())
def test_a_value_of_the_wrong_type_is_refused_naming_its_field(
    memory: Memory, event: Event, path: str, data: st.DataObject
) -> None:
    # Given any field holding a JSON value of a type it does not take (booleans where
    # numbers go, numbers where booleans go, lists and objects where text goes, ...)
    wrong = data.draw(
        JSON_VALUES.filter(WRONG_FOR[LEAVES[path]]).filter(
            lambda v: v is not None or path not in OPTIONAL_LEAVES
        )
    )
    assert_refused(memory, put(event, path, wrong), path, tenant_id=event["tenant_id"])


@HOSTILE
@given(
    event=complete_events,
    path=st.sampled_from(sorted(TEXT_LIMITS)),
    extra=st.integers(1, 5_000),
)
def test_a_text_over_its_stated_limit_is_refused_naming_its_field(
    memory: Memory, event: Event, path: str, extra: int
) -> None:
    too_long = "a" * (TEXT_LIMITS[path] + extra)
    refused = assert_refused(memory, put(event, path, too_long), path, tenant_id=event["tenant_id"])
    assert f"at most {TEXT_LIMITS[path]} characters" in refused.message


@pytest.mark.parametrize("path", ["task", "messages[0].content", "artifacts.approach_used"])
def test_a_10_mb_text_is_refused_by_the_event_bound_before_validation(
    memory: Memory, path: str
) -> None:
    # Given a complete event whose field holds 10 MB
    event = put(complete_example(), path, "x" * TEN_MB)
    # Then the event's 256 KiB bound refuses it whole, before any field is validated
    refused = assert_refused(memory, event, "event", tenant_id="acme")
    assert f"at most {MAX_EVENT_BYTES:,} bytes" in refused.message


@HOSTILE
@given(
    event=complete_events,
    path=st.sampled_from(sorted(LIST_LIMITS)),
    size=st.sampled_from([1, 2, 50, 5_000]),
)
def test_a_list_over_its_stated_limit_is_refused_naming_it(
    memory: Memory, event: Event, path: str, size: int
) -> None:
    # Given a list (messages, facts, steps, findings, ...) longer than its limit by up to 5,000
    # (within the event's 256 KiB: a larger one is refused whole, see the 10 MB text)
    limit, item = LIST_LIMITS[path]
    refused = assert_refused(
        memory, put(event, path, [item] * (limit + size)), path, tenant_id=event["tenant_id"]
    )
    assert f"at most {limit} items" in refused.message


@HOSTILE
@given(
    event=complete_events,
    path=st.sampled_from(sorted(LEAVES)),
    depth=st.sampled_from([100, 1_000, DEPTH]),
    as_dict=st.booleans(),
)
def test_deep_nesting_in_any_field_is_refused_naming_it(
    memory: Memory, event: Event, path: str, depth: int, as_dict: bool
) -> None:
    # Given 10,000 levels of lists or objects where a scalar goes: no recursion error, a refusal
    # (a message's content may be a list of parts: there the first part is named, not a list)
    named = f"{path}[0]" if path in LIST_VALUED and not as_dict else path
    assert_refused(
        memory, put(event, path, nested(depth, as_dict)), named, tenant_id=event["tenant_id"]
    )


@HOSTILE
@given(event=complete_events, key=identifiers, as_dict=st.booleans())
def test_an_unknown_field_is_refused_even_when_deeply_nested(
    memory: Memory, event: Event, key: str, as_dict: bool
) -> None:
    key = f"x_{key}"
    refused = assert_refused(
        memory, {**event, key: nested(DEPTH, as_dict)}, key, tenant_id=event["tenant_id"]
    )
    assert refused.message == "unknown field"


@HOSTILE
@given(
    event=complete_events,
    path=st.sampled_from(STRINGS),
    surrogate=st.integers(0xD800, 0xDFFF).map(chr),
    where=st.floats(0.0, 1.0),
)
def test_a_lone_surrogate_in_any_string_is_refused_naming_its_field(
    memory: Memory, event: Event, path: str, surrogate: str, where: float
) -> None:
    # Given a string holding half of a UTF-16 pair (what a broken encoder leaves behind)
    value = take(event, path)
    cut = int(len(value) * where)
    broken = put(event, path, value[:cut] + surrogate + value[cut:])
    refused = assert_refused(memory, broken, path, tenant_id=event["tenant_id"])
    assert "unicode" in refused.message.lower()


@HOSTILE
@given(
    event=complete_events,
    path=st.sampled_from(IDENTIFIERS),
    part=st.sampled_from(HOSTILE_ID_PARTS),
    at_start=st.booleans(),
)
def test_an_identifier_with_path_separator_or_look_alike_characters_is_refused(
    memory: Memory, event: Event, path: str, part: str, at_start: bool
) -> None:
    # Given an identifier carrying "../", "/", "#", "\", NUL, whitespace or a Unicode
    # look-alike of one of them: it could escape its S3 prefix or forge a key
    value = take(event, path)
    hostile = part + value if at_start else value + part
    tenant = event["tenant_id"]
    refused = assert_refused(memory, put(event, path, hostile), path, tenant_id=tenant)
    assert "should match pattern" in refused.message


BAD_CONFIDENCES = [
    -0.1,
    -1e-9,
    1.0000001,
    2,
    -5,
    1e308,
    math.nan,
    math.inf,
    -math.inf,
    "0.9",
    "NaN",
    "",
    True,
    False,
    None,
    [0.9],
    {"value": 0.9},
]


@HOSTILE
@given(
    event=complete_events,
    confidence=st.sampled_from(BAD_CONFIDENCES)
    | st.floats(max_value=-1e-12)
    | st.floats(min_value=1.0000001, allow_infinity=True),
    fact=st.integers(0, 2),
)
def test_a_confidence_that_is_not_a_number_in_0_1_is_refused(
    memory: Memory, event: Event, confidence: Any, fact: int
) -> None:
    # Given a negative, NaN, infinite, too large, string or boolean confidence on any fact
    facts_ = event["artifacts"]["facts"]
    index = min(fact, len(facts_) - 1)
    path = f"artifacts.facts[{index}].confidence"
    assert_refused(memory, put(event, path, confidence), path, tenant_id=event["tenant_id"])


@pytest.mark.parametrize(
    "finished_at", ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00", "yesterday"]
)
def test_a_finish_time_outside_the_representable_years_is_refused(
    memory: Memory, finished_at: str
) -> None:
    # Valid ISO 8601, but year 0 or 10000 in UTC: refused at once (finish times are years
    # 1000 to 2999), not a failed write later
    event = put(complete_example(), "finished_at", finished_at)
    assert_refused(memory, event, "finished_at", tenant_id="acme")


@pytest.mark.parametrize("document", [None, 7, "an event", ["a", "list"], True])
def test_an_event_that_is_not_an_object_is_refused(memory: Memory, document: Any) -> None:
    with pytest.raises(InvalidInput) as refused:
        consolidate_or_record(document, memory.ports)
    assert refused.value.field == "event"
    assert set(rows_in(memory.root).values()) == {0}


def test_an_envelope_of_another_detail_type_is_refused(memory: Memory) -> None:
    envelope = eventbridge_event(complete_example(), detail_type="RunStarted")
    assert_refused(memory, envelope, "detail-type", tenant_id="acme")


# --- accepted, within the stated limits ------------------------------------------------------

CONTROL = "".join(map(chr, [*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0)]))


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    before=st.text(st.sampled_from(CONTROL), max_size=60),
    after=st.text(st.sampled_from(CONTROL), max_size=60),
    path=st.sampled_from(["task", "artifacts.key_findings[0]", "artifacts.approach_used"]),
)
def test_control_characters_in_text_are_stored_verbatim(
    memory: Memory, before: str, after: str, path: str
) -> None:
    # Given text full of control characters (NUL, ESC, DEL, C1 codes) in a text field
    text = f"{before}ok{after}"
    event = put(complete_example(f"ctl-{next(run_numbers)}"), path, text)
    # When consolidated
    consolidate(event, memory.ports)
    # Then it is accepted and kept as given: text is data, never interpreted
    episode = memory.ports.episodes.get("acme", "reviewer", event["run_id"], now=memory.clock())
    assert episode is not None
    stored = {
        "task": episode.task,
        "artifacts.key_findings[0]": episode.key_findings[0],
        "artifacts.approach_used": episode.approach_used,
    }
    assert stored[path] == text


def test_a_message_at_its_limit_is_accepted_and_kept_to_1000_characters(memory: Memory) -> None:
    # Given a message of exactly 200,000 characters (the contract's limit)
    event = put(complete_example(), "messages[0].content", "word " * (MAX_MESSAGE_CHARS // 5))
    # When consolidated
    consolidate(event, memory.ports)
    # Then the episode keeps it as one searchable unit of at most 1,000 characters
    episode = memory.ports.episodes.get("acme", "reviewer", "r1", now=memory.clock())
    assert episode is not None
    [unit] = [u for u in episode.units if u.kind == "message"]
    assert len(unit.text) <= memory.ports.policies.episodic.max_unit_chars


def test_every_list_at_its_limit_is_accepted_and_messages_are_bounded(memory: Memory) -> None:
    # Given 2,000 messages, and 50 facts, steps, findings, tools and patterns, as long as the
    # event's 256 KiB allow (each list at its limit of 2,000-character items would not fit)
    event = complete_example()
    event["messages"] = [
        {"role": "human", "content": f"turn {i:04} " + "w" * 44} for i in range(2_000)
    ]
    long = "y" * 300
    for path in ("key_findings", "tools_used", "reusable_patterns"):
        event["artifacts"][path] = [f"{i} {long}" for i in range(MAX_LIST_ITEMS)]
    event["artifacts"]["facts"] = [
        {"content": f"{i} {long}", "confidence": 0.9} for i in range(MAX_LIST_ITEMS)
    ]
    event["artifacts"]["procedure"]["steps"] = [f"{i} {long}" for i in range(MAX_LIST_ITEMS)]
    size = len(json.dumps(event, separators=(",", ":")).encode())
    assert MAX_EVENT_BYTES - 20_000 < size <= MAX_EVENT_BYTES
    # When consolidated
    result = summary(consolidate(event, memory.ports))
    # Then everything fits, and the episode keeps at most the units and characters allowed
    policy = memory.ports.policies.episodic
    episode = memory.ports.episodes.get("acme", "reviewer", "r1", now=memory.clock())
    assert episode is not None and result["facts_observed"] == MAX_LIST_ITEMS
    messages_ = [u for u in episode.units if u.kind == "message"]
    assert len(messages_) <= policy.max_units
    assert sum(len(u.text) for u in messages_) <= policy.max_unit_total_chars


def complete_example(run_id: str = "r1") -> Event:
    """One complete valid event, for the tests that need a specific one."""
    return {
        "tenant_id": "acme",
        "agent_id": "reviewer",
        "run_id": run_id,
        "task": "Review the vendor MSA liability cap",
        "task_type": "contract_review",
        "domain": "contracts",
        "outcome": "COMPLETED",
        "messages": [{"role": "human", "content": "Review it", "name": "requester"}],
        "artifacts": {
            "task_summary": "Reviewed the cap",
            "outcome": "COMPLETED",
            "key_findings": ["Clause 7.3 caps liability at 0.5x fees"],
            "approach_used": "Read the clause",
            "tools_used": ["pdf_reader"],
            "reusable_patterns": ["Check the cap first"],
            "facts": [{"content": "Caps below 1x fees are a red flag", "confidence": 0.9}],
            "procedure": {"title": "MSA review", "steps": ["Read clause 7.3", "Compare"]},
        },
        "procedure_feedback": {"procedure_id": "proc-1", "succeeded": True},
        "finished_at": (datetime.fromtimestamp(T0, UTC) - timedelta(days=1)).isoformat(),
    }


# --- through the agent-memory command --------------------------------------------------------


def raw_event(**fields: str) -> bytes:
    """An event's JSON text with fields given as raw JSON (which ``json.dumps`` cannot write)."""
    base = {"tenant_id": '"acme"', "agent_id": '"a"', "run_id": '"r1"', "task": '"t"'}
    return ("{" + ", ".join(f'"{k}": {v}' for k, v in {**base, **fields}.items()) + "}").encode()


CLI_CASES = {
    "invalid UTF-8 bytes": (
        raw_event().replace(b'"t"', b'"caf\xc3\x28 \xff\xfe"'),
        "is not UTF-8 text",
    ),
    "UTF-16 text": (raw_event().decode().encode("utf-16"), "is not UTF-8 text"),
    "10,000 nested arrays": (raw_event(task="[" * DEPTH + "]" * DEPTH), "nested too deeply"),
    "10,000 nested objects": (
        raw_event(extra='{"a": ' * DEPTH + "1" + "}" * DEPTH),
        "nested too deeply",
    ),
    "a 10 MB message": (
        raw_event(messages=json.dumps([{"role": "human", "content": "x" * TEN_MB}])),
        f"is more than {MAX_EVENT_BYTES:,} bytes of JSON",
    ),
    "a tenant named twice": (
        b'{"tenant_id": "victim", "tenant_id": "acme", "agent_id": "a", "run_id": "r1", '
        b'"task": "t"}',
        "tenant_id: is given twice in one object",
    ),
    "a numeric finish time": (
        raw_event(finished_at="1796032800"),
        "finished_at: Value error, must be an RFC 3339 date-time string",
    ),
    "a confidence of 1e-400": (
        raw_event(artifacts='{"facts": [{"content": "c", "confidence": 1e-400}]}'),
        "artifacts.facts[0].confidence: is not zero but reads as zero",
    ),
    "a confidence of 1e400": (
        raw_event(artifacts='{"facts": [{"content": "c", "confidence": 1e400}]}'),
        "artifacts.facts[0].confidence: is beyond the range of a 64-bit float",
    ),
    "a 5,000-digit number": (
        raw_event(artifacts='{"facts": [{"content": "c", "confidence": ' + "9" * 5_000 + "}]}"),
        "artifacts.facts[0].confidence: is beyond the range of a 64-bit float",
    ),
    "an escaped lone surrogate": (
        raw_event(task='"caf\\ud800e"'),
        "task: is not Unicode text: it holds a lone surrogate (U+D800)",
    ),
    "a NaN confidence": (
        raw_event(artifacts='{"facts": [{"content": "c", "confidence": NaN}]}'),
        "artifacts.facts[0].confidence: must be a finite number",
    ),
    "a tenant with a path": (
        raw_event(tenant_id='"../globex"'),
        "tenant_id: String should match pattern",
    ),
}


def agent_memory(
    store: Path, *args: str, stdin: bytes | None = None
) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if k != "AGENT_MEMORY_LLM"}
    return subprocess.run(
        [sys.executable, "-m", "agent_memory.cli", "--store", str(store), *args],
        input=stdin,
        capture_output=True,
        env=env,
        timeout=120,
    )


def assert_one_clear_line(done: subprocess.CompletedProcess[bytes], message: str) -> None:
    stderr = done.stderr.decode()
    assert done.returncode == 2, stderr
    assert stderr.startswith("agent-memory: error: ") and stderr.count("\n") == 1, stderr
    assert message in stderr and "Traceback" not in stderr


@pytest.mark.parametrize("case", sorted(CLI_CASES))
def test_the_command_refuses_a_hostile_file_in_one_line_and_writes_nothing(
    tmp_path: Path, case: str
) -> None:
    # Given a file a user (or a broken agent) hands to `agent-memory consolidate`
    content, message = CLI_CASES[case]
    event_file = tmp_path / "event.json"
    event_file.write_bytes(content)
    # When the command runs
    done = agent_memory(tmp_path / "store", "consolidate", str(event_file))
    # Then one clear line on stderr, exit 2, no traceback, and an empty store
    assert_one_clear_line(done, message)
    assert_nothing_written(make_memory(tmp_path / "store"), "acme")


# The command, then its peak resident memory (VmHWM: this process's own, where the rusage of a
# child spawned by a large test process counts the parent's pages too) written to argv[1].
REPORTING_PEAK = """
import re, sys
from agent_memory.cli.main import main
peak_file = sys.argv.pop(1)
code = main(sys.argv[1:])
with open("/proc/self/status") as status:
    peak = int(re.search(r"VmHWM:\\s+(\\d+) kB", status.read()).group(1)) * 1024
with open(peak_file, "w") as out:
    out.write(str(peak))
sys.exit(code)
"""
# Built when used: each is megabytes of text.
LARGE_INPUTS: dict[str, Callable[[], bytes]] = {
    "a 50 MB event": lambda: raw_event(
        messages=json.dumps([{"role": "human", "content": "x" * 199_000}] * 250)
    ),
    "a million unknown keys": lambda: raw_event(**{f"k{i}": "0" for i in range(1_000_000)}),
}


@pytest.mark.parametrize("case", sorted(LARGE_INPUTS))
def test_the_command_refuses_a_huge_event_on_stdin_before_reading_it_whole(
    tmp_path: Path, case: str
) -> None:
    # Given megabytes on stdin (the red team's 50 MB event took 1.28 GB to consolidate)
    content = LARGE_INPUTS[case]()
    assert len(content) > 10 * 1024 * 1024
    # When `agent-memory consolidate -` reads it
    env = {k: v for k, v in os.environ.items() if k != "AGENT_MEMORY_LLM"}
    peak_file = tmp_path / "peak"
    command = [sys.executable, "-c", REPORTING_PEAK, str(peak_file)]
    child = subprocess.Popen(
        [*command, "--store", str(tmp_path / "store"), "consolidate", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert child.stdin is not None and child.stderr is not None
    try:
        child.stdin.write(content)
    except BrokenPipeError:
        pass  # it stopped reading, as it should
    finally:
        child.stdin.close()
    stderr = child.stderr.read().decode()
    child.wait(timeout=120)
    # Then it is refused by the size bound, in one line, exit 2, having read ~256 KiB: the
    # process stays small (the command's own imports are ~80 MB) and nothing is written
    assert child.returncode == 2, stderr
    assert stderr == (
        f"agent-memory: error: stdin is more than {MAX_EVENT_BYTES:,} bytes of JSON; an event "
        f"is at most {MAX_EVENT_BYTES:,} bytes (EventBridge's limit for one event)\n"
    )
    assert int(peak_file.read_text()) < 200 * 1024 * 1024
    assert_nothing_written(make_memory(tmp_path / "store"), "acme")


def test_the_command_refuses_invalid_utf8_on_stdin(tmp_path: Path) -> None:
    content, message = CLI_CASES["invalid UTF-8 bytes"]
    done = agent_memory(tmp_path / "store", "consolidate", "-", stdin=content)
    assert_one_clear_line(done, message)
    assert_nothing_written(make_memory(tmp_path / "store"), "acme")


# --- through the extract Lambda --------------------------------------------------------------

LAMBDA_CASES: dict[str, tuple[Callable[[Event], Event], str]] = {
    "10,000 nested lists in the task": (lambda e: put(e, "task", nested(DEPTH, False)), "task"),
    "10,000 nested objects, unknown field": (lambda e: {**e, "x": nested(DEPTH, True)}, "x"),
    "a 10 MB message": (lambda e: put(e, "messages[0].content", "x" * TEN_MB), "event"),
    "a tenant with a path": (lambda e: put(e, "tenant_id", "../globex"), "tenant_id"),
    "a tenant with a NUL": (lambda e: put(e, "tenant_id", "acme\x00"), "tenant_id"),
    "a full-width # in the agent": (lambda e: put(e, "agent_id", "a\uff03b"), "agent_id"),
    "a NaN confidence": (
        lambda e: put(e, "artifacts.facts[0].confidence", math.nan),
        "artifacts.facts[0].confidence",
    ),
    "a boolean confidence": (
        lambda e: put(e, "artifacts.facts[0].confidence", True),
        "artifacts.facts[0].confidence",
    ),
    "a string confidence": (
        lambda e: put(e, "artifacts.facts[0].confidence", "0.9"),
        "artifacts.facts[0].confidence",
    ),
    "a lone surrogate in a step": (
        lambda e: put(e, "artifacts.procedure.steps[0]", "Read \udc00"),
        "artifacts.procedure.steps[0]",
    ),
    "no task": (lambda e: {k: v for k, v in e.items() if k != "task"}, "task"),
    "a numeric finish time": (lambda e: put(e, "finished_at", 1796032800), "finished_at"),
    "a million unknown keys": (
        lambda e: {**e, **{f"k{i}": 0 for i in range(1_000_000)}},
        "event",
    ),
    "a million unknown keys in a fact": (
        lambda e: put(e, "artifacts.facts[0]", {f"k{i}": 0 for i in range(1_000_000)}),
        "artifacts.facts[0]",
    ),
    "an infinite confidence": (
        lambda e: put(e, "artifacts.facts[0].confidence", math.inf),
        "artifacts.facts[0].confidence",
    ),
    "51 facts": (
        lambda e: put(e, "artifacts.facts", [{"content": "f", "confidence": 0.9}] * 51),
        "artifacts.facts",
    ),
}


@pytest.fixture(scope="module")
def aws() -> Iterator[AwsMemory]:
    with aws_memory(FakePiiDetector()) as memory:
        yield memory


@pytest.mark.filterwarnings("ignore:No application metrics to publish")
@pytest.mark.parametrize("envelope", [True, False], ids=["eventbridge", "detail"])
@pytest.mark.parametrize("case", sorted(LAMBDA_CASES))
def test_the_extract_lambda_refuses_a_hostile_event_naming_the_field(
    aws: AwsMemory, case: str, envelope: bool
) -> None:
    # Given a hostile event as EventBridge hands it to the workflow (or its bare detail)
    hostile, field = LAMBDA_CASES[case]
    event = wrapped(hostile(complete_example()), envelope)
    # When the extract function receives it (in-process: a 10,000-deep payload never survives
    # JSON decoding in a real Lambda runtime, so it is handed over as an object)
    from functions.extract.handler import handler

    with pytest.raises(InvalidInput) as refused:
        handler(event, LambdaContext("extract"))
    # Then the field is named and nothing reached DynamoDB or S3
    assert refused.value.field == field
    assert aws.items() == []
    assert aws.objects() == {}


@pytest.mark.filterwarnings("ignore:No application metrics to publish")
@pytest.mark.parametrize(
    "function, request_",
    [
        ("bootstrap", {"tenant_id": "acme", "agent_id": "reviewer", "task": "Review"}),
        ("procedure_review", {"action": "list", "tenant_id": "acme"}),
        ("episodes", {"action": "agents", "tenant_id": "acme"}),
    ],
)
def test_a_directly_invoked_function_refuses_a_million_keys_before_validating_them(
    aws: AwsMemory, function: str, request_: dict[str, Any]
) -> None:
    # Given a request padded with a million unknown keys (about 1 GB of validation errors once)
    hostile = {**request_, **{f"k{i}": 0 for i in range(1_000_000)}}
    module = __import__(f"functions.{function}.handler", fromlist=["handler"])
    # When the function receives it
    with pytest.raises(InvalidInput) as refused:
        module.handler(hostile, LambdaContext(function))
    # Then it is refused as a whole, before any field is validated
    assert refused.value.field == "event"
