"""Nothing of a run is dropped unsaid: what a limit on the write path leaves out is named in the
consolidation summary's ``not_kept``, and "written" is said only of what was written.

Each limit is tried at its edge (retention, the units budget, a unit's length, the state's
size, parts without text, facts and procedures a run may not teach); a generated property holds
every human and AI message of any run to be stored as a unit or named as not kept.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_memory.core.model.policies import EpisodicPolicy, Policies
from agent_memory.core.workflows import consolidation
from agent_memory.core.workflows.consolidation import consolidate, extract, summary
from agent_memory.core.workflows.run_state import state_from_json, state_to_json
from tests.support.fakes import fake_chat
from tests.support.memory import DAY, T0, Memory, make_memory, run_event


@pytest.fixture
def memory(tmp_path: Path) -> Memory:
    return make_memory(tmp_path, stores="memory")


def iso(moment: float) -> str:
    return datetime.fromtimestamp(moment, UTC).isoformat().replace("+00:00", "Z")


def stored_units(memory: Memory, run_id: str) -> dict[int, str]:
    episode = memory.ports.episodes.get("acme", "reviewer", run_id, now=memory.clock())
    assert episode is not None
    return {u.seq: u.text for u in episode.units if u.kind == "message"}


def named(lines: list[str], phrase: str) -> set[int]:
    """The message positions the not-kept lines containing ``phrase`` name."""
    found: set[int] = set()
    for line in lines:
        if phrase not in line:
            continue
        match = re.search(r"messages? ([\d, -]+?)(?::| not| \()", line)
        assert match, line
        for span in match.group(1).split(", "):
            first, _, last = span.partition("-")
            found.update(range(int(first), int(last or first) + 1))
    return found


# --- retention --------------------------------------------------------------------------------


def test_a_run_finished_past_retention_is_reported_not_kept_and_not_written(
    memory: Memory,
) -> None:
    # Given a run that finished 91 days before it is consolidated (episodes are kept 90)
    event = run_event("old-1", finished_at=iso(T0 - 91 * DAY))
    # When it is consolidated
    result = summary(consolidate(event, memory.ports))
    # Then no episode is said written or stored, and the reply says why; its fact and
    # procedure are still kept
    assert result["episode"] == "not kept"
    assert any("episode not kept" in line and "90 days" in line for line in result["not_kept"])
    assert memory.ports.episodes.get("acme", "reviewer", "old-1", now=memory.clock()) is None
    assert result["facts_observed"] == 1 and result["procedure_proposed"]


def test_a_redelivered_run_past_retention_is_still_not_kept(memory: Memory) -> None:
    # Given a run past retention, consolidated once
    event = run_event("old-2", finished_at=iso(T0 - 200 * DAY))
    consolidate(event, memory.ports)
    # When it is delivered again
    again = summary(consolidate(event, memory.ports))
    # Then the reply still says the episode is not kept (not "already present")
    assert again["episode"] == "not kept"
    assert any("episode not kept" in line for line in again["not_kept"])


def test_a_failed_run_older_than_decay_keeps_is_reported_not_kept(memory: Memory) -> None:
    # Given a FAILED run that finished 8 days ago (decay deletes those after 7)
    event = run_event("failed-old", outcome="FAILED", finished_at=iso(T0 - 8 * DAY))
    # When it is consolidated
    result = summary(consolidate(event, memory.ports))
    # Then its episode is reported not kept, and none is stored
    assert result["episode"] == "not kept"
    assert any("FAILED" in line and "7 days" in line for line in result["not_kept"])
    assert memory.ports.episodes.get("acme", "reviewer", "failed-old", now=memory.clock()) is None


def test_a_run_within_retention_is_written_and_reports_nothing(memory: Memory) -> None:
    # Given a run that finished 89 days ago
    event = run_event("recent", finished_at=iso(T0 - 89 * DAY))
    # When it is consolidated, Then it is written and nothing is reported
    result = summary(consolidate(event, memory.ports))
    assert result["episode"] == "written" and result["not_kept"] == []


def test_a_finish_time_in_the_future_is_reported_as_redated(memory: Memory) -> None:
    # Given a run whose finish time is a day after the consolidation clock
    event = run_event("future", finished_at=iso(T0 + DAY))
    # When it is consolidated, Then it is written, and the reply says it is dated now
    result = summary(consolidate(event, memory.ports))
    assert result["episode"] == "written"
    assert any("dated when it was consolidated" in line for line in result["not_kept"])


# --- messages as searchable units -------------------------------------------------------------


def conversation(
    count: int, text: str = "turn {i} about the liability cap"
) -> list[dict[str, Any]]:
    return [
        {"role": "human" if i % 2 == 0 else "ai", "content": text.format(i=i)} for i in range(count)
    ]


def test_messages_over_the_units_budget_are_named_not_kept(memory: Memory) -> None:
    # Given a run of 1,000 messages (the contract allows 2,000; a run keeps 300 units)
    event = run_event("long-run", messages=conversation(1_000))
    # When it is consolidated
    result = summary(consolidate(event, memory.ports))
    # Then message 0 and messages 701-999 are units, and the reply names 1-700 as not kept
    assert sorted(stored_units(memory, "long-run")) == [0, *range(701, 1_000)]
    assert named(result["not_kept"], "a run keeps at most") == set(range(1, 701))
    assert any("300 units" in line for line in result["not_kept"])


def test_a_message_longer_than_a_unit_is_named_as_cut(memory: Memory) -> None:
    # Given a run whose second message is longer than a unit holds (4,000 characters)
    messages = conversation(3)
    messages[1]["content"] = "x" * 5_000
    result = summary(consolidate(run_event("cut", messages=messages), memory.ports))
    # Then its unit holds its first 4,000 characters, and the reply says so
    assert stored_units(memory, "cut")[1] == "x" * 4_000
    assert named(result["not_kept"], "past their first 4,000 characters") == {1}


def test_tool_and_system_messages_are_counted_as_not_searchable(memory: Memory) -> None:
    # Given a run with a system prompt and a tool's answer
    messages = [
        {"role": "system", "content": "You review contracts."},
        {"role": "human", "content": "Check clause 7."},
        {"role": "ai", "content": "calling", "tool_calls": ["c1"]},
        {"role": "tool", "content": "7: net 30", "tool_call_id": "c1"},
    ]
    # When it is consolidated, Then the reply counts them as not kept as units
    result = summary(consolidate(run_event("tools", messages=messages), memory.ports))
    assert "1 system message, 1 tool message not kept as searchable units" in " ".join(
        result["not_kept"]
    )


def test_units_dropped_to_fit_the_step_state_are_named(memory: Memory) -> None:
    # Given a run of 4-byte characters whose units would pass the 200 KiB state bound
    event = run_event("wide", messages=conversation(38, "📨" * 1_500 + " {i}"))
    # When it is consolidated
    result = summary(consolidate(event, memory.ports))
    # Then every message is a unit or named as not kept for the state's bound
    stored = set(stored_units(memory, "wide"))
    dropped = named(result["not_kept"], "200 KiB")
    assert dropped and stored | dropped == set(range(38)) and not stored & dropped


def test_parts_without_text_are_reported_in_the_summary(memory: Memory) -> None:
    # Given Responses-style parts beside an image
    message = {
        "role": "user",
        "content": [
            {"type": "input_text", "text": "What does clause 7.3 cap?"},
            {"type": "input_image", "image_url": "https://example.com/p4.png"},
        ],
    }
    # When the run is consolidated
    result = summary(consolidate(run_event("parts", messages=[message]), memory.ports))
    # Then the text is a searchable unit and the image is reported not kept
    assert stored_units(memory, "parts") == {0: "What does clause 7.3 cap?"}
    assert result["not_kept"] == [
        "1 'input_image' content part not kept (message 0): only text, refusal, tool-use and "
        "tool-result parts are kept"
    ]


# --- facts and procedures ---------------------------------------------------------------------


def test_facts_and_a_procedure_a_run_may_not_teach_are_reported(memory: Memory) -> None:
    # Given a PARTIAL run with a fact and a procedure
    result = summary(consolidate(run_event("partial", outcome="PARTIAL"), memory.ports))
    # Then neither is kept, and the reply says why
    assert (
        "1 fact not kept: only COMPLETED runs teach facts (this run is PARTIAL)"
        in (result["not_kept"])
    )
    assert any("procedure not proposed" in line for line in result["not_kept"])


def test_an_unsure_fact_and_a_procedure_without_task_type_are_reported(memory: Memory) -> None:
    # Given a completed run whose fact is below the confidence bar and that names no task type
    event = run_event("unsure")
    del event["task_type"]
    event["artifacts"]["facts"][0]["confidence"] = 0.5
    # When it is consolidated, Then both are reported
    result = summary(consolidate(event, memory.ports))
    assert "1 fact not kept: confidence below 0.7" in result["not_kept"]
    assert "procedure not proposed: the event names no task_type" in result["not_kept"]


def test_what_a_model_reply_holds_past_the_contract_is_cut_and_reported(tmp_path: Path) -> None:
    # Given a chat model that answers 60 findings and a procedure with a blank step
    reply = json.dumps(
        {
            "task_summary": "Reviewed",
            "outcome": "COMPLETED",
            "key_findings": [f"finding {i}" for i in range(60)],
            "procedure": {"title": "Review", "steps": ["Read", "  "]},
        }
    )
    memory = make_memory(tmp_path, chat=fake_chat(reply), stores="memory")
    event = run_event("model", messages=[{"role": "human", "content": "Review the MSA"}])
    del event["artifacts"]
    # When the run is consolidated
    state = consolidate(event, memory.ports)
    result = summary(state)
    # Then the first 50 findings and the step are kept, and what was not is reported
    assert len(state.artifacts.key_findings) == 50 and state.procedure is not None
    assert any("last 10 items of key_findings" in line for line in result["not_kept"])
    assert any("1 blank step" in line for line in result["not_kept"])


# --- one reply on every surface ---------------------------------------------------------------


def test_the_state_between_lambda_steps_carries_what_is_not_kept(memory: Memory) -> None:
    # Given a run past retention with an image part, consolidated step by step through the
    # JSON state the state machine carries between its Lambda tasks
    message = {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "x"}}]}
    event = run_event("steps", messages=[message], finished_at=iso(T0 - 100 * DAY))
    data = state_to_json(extract(event, memory.ports))
    for name in consolidation.AFTER_EXTRACT:
        data = state_to_json(consolidation.STEPS[name](state_from_json(data), memory.ports))
    # When its summary is built from the last state
    result = summary(state_from_json(data))
    # Then it says what the in-process summary says
    assert data["episode"] == {"written": False, "expired": True}
    assert result["episode"] == "not kept"
    assert any("'image_url' content part" in line for line in data["not_kept"])
    assert any("episode not kept" in line for line in data["not_kept"])


# --- the property -----------------------------------------------------------------------------

SMALL = Policies(episodic=EpisodicPolicy(max_units=5, max_unit_chars=40, max_unit_total_chars=150))
_RUNS = iter(range(10**9))

messages = st.lists(
    st.builds(
        lambda role, text: {"role": role, "content": text},
        st.sampled_from(["human", "ai", "user", "assistant", "tool", "system"]),
        st.text(st.sampled_from("ab \n"), max_size=80),
    ),
    max_size=25,
)


@pytest.fixture(scope="module")
def small_memory(tmp_path_factory: pytest.TempPathFactory) -> Memory:
    return make_memory(tmp_path_factory.mktemp("small"), policies=SMALL, stores="memory")


@settings(
    max_examples=120,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(run=messages)
def test_every_human_and_ai_message_is_stored_or_named_not_kept(
    small_memory: Memory, run: list[dict[str, Any]]
) -> None:
    # Given any run, under a small units budget (5 units, 40 characters, 150 in all)
    run_id = f"prop-{next(_RUNS)}"
    # When it is consolidated
    result = summary(consolidate(run_event(run_id, messages=run), small_memory.ports))
    # Then each human or ai message with text is a unit holding it whole, a unit holding its
    # first 40 characters and named as cut, or named as not kept; nothing else is a unit
    units = stored_units(small_memory, run_id)
    unsearched = named(result["not_kept"], "a run keeps at most")
    cut = named(result["not_kept"], "past their first")
    for seq, message in enumerate(run):
        text = message["content"].strip()
        if message["role"] in {"tool", "system"} or not text:
            assert seq not in units
        elif seq in units:
            assert units[seq] == (text[:40] if seq in cut else text)
            assert (seq in cut) == (len(text) > 40)
        else:
            assert seq in unsearched


def test_the_run_record_never_carries_the_messages_not_kept_lines_twice(memory: Memory) -> None:
    # Given a run with an image part, consolidated twice
    message = {"role": "user", "content": [{"type": "image", "source": {}}]}
    event = run_event("twice", messages=[message])
    first = summary(consolidate(event, memory.ports))
    again = summary(consolidate(event, memory.ports))
    # Then both replies name the part once
    assert first["not_kept"] == again["not_kept"]
    assert sum("'image'" in line for line in again["not_kept"]) == 1
