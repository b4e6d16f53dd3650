"""A run_id reused for a different run is reported and writes nothing; an exact replay stays
idempotent and is marked as already consolidated."""

import copy
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_memory.core.api.contracts import parse_run_finished
from agent_memory.core.model.run_records import RunRecord
from agent_memory.core.tiers.semantic import fact_hash
from agent_memory.core.workflows.consolidation import (
    AFTER_EXTRACT,
    STEPS,
    consolidate,
    content_digest,
    extract,
    redelivery_event,
    summary,
)
from agent_memory.core.workflows.redaction import redact_text
from agent_memory.core.workflows.tenants import export_tenant
from tests.support.memory import Memory, make_memory, run_event

REUSED = (
    "nothing written: run_id r1 was already consolidated with different content (an exact "
    "replay is consolidated once; a new run needs its own run_id)"
)


@pytest.fixture
def memory(tmp_path: Path) -> Memory:
    return make_memory(tmp_path, stores="memory")


def stored(memory: Memory) -> list[Any]:
    return sorted(map(repr, export_tenant(memory.ports, "acme")))


def test_a_reused_run_id_with_other_content_is_reported_and_writes_nothing(
    memory: Memory,
) -> None:
    # Given run r1 consolidated
    consolidate(run_event("r1"), memory.ports)
    before = stored(memory)
    # When another run arrives under the same run_id, with another fact and procedure
    other = run_event("r1", task="Draft the renewal letter")
    other["artifacts"]["facts"] = [{"content": "Renewals need 60 days notice", "confidence": 0.9}]
    other["artifacts"]["procedure"] = {"title": "Renewal", "steps": ["Check the notice period"]}
    memory.clock.advance(60)
    result = summary(consolidate(other, memory.ports))
    # Then the summary says nothing was written and why, and no store changed
    assert result["run_id_reused"] is True and result["already_consolidated"] is False
    assert result["notes"] == [REUSED]
    assert result["episode"] == "not written"
    assert result["procedure_proposed"] is None and result["facts_observed"] == 0
    assert result["facts"] == [] and result["procedure_review"] is None
    assert stored(memory) == before
    assert (
        memory.ports.facts.get("acme", "contracts", fact_hash("Renewals need 60 days notice"))
        is None
    )


def test_an_exact_replay_is_marked_already_consolidated(memory: Memory) -> None:
    # Given run r1 consolidated
    consolidate(run_event("r1"), memory.ports)
    before = stored(memory)
    # When the same event arrives again
    memory.clock.advance(60)
    again = summary(consolidate(run_event("r1"), memory.ports))
    # Then it is marked as a replay, not a reuse, and nothing changed
    assert again["already_consolidated"] is True and again["run_id_reused"] is False
    assert REUSED not in again["notes"]
    assert stored(memory) == before


def test_the_run_record_keeps_the_events_content_digest(memory: Memory) -> None:
    # Given a run consolidated
    event = run_event("r1")
    consolidate(event, memory.ports)
    # Then its ledger record keeps the digest of its content as validated
    entry = memory.ports.run_ledger.run("acme", "reviewer", "r1", now=memory.clock())
    assert entry is not None
    digest = RunRecord.read(entry.value).digest
    assert digest == content_digest(parse_run_finished(event))
    assert digest != content_digest(parse_run_finished(run_event("r1", task="Other")))


def test_a_redacted_run_record_keeps_no_digest_and_takes_any_content_for_a_replay(
    memory: Memory,
) -> None:
    # Given a run whose task held a codename, then redacted from every record
    event = run_event("r1", task="Review the Bluebird MSA liability cap")
    consolidate(event, memory.ports)
    redact_text(memory.ports, "acme", "Bluebird", actor="dpo", reason="a leaked codename")
    # Then its record keeps no digest a guess at the codename could be checked against
    entry = memory.ports.run_ledger.run("acme", "reviewer", "r1", now=memory.clock())
    assert entry is not None and "digest" not in json.dumps(entry.value)
    assert "Bluebird" not in json.dumps(entry.value)
    # And the run's id answers as a replay from then on, writing nothing
    again = summary(consolidate(event, memory.ports))
    assert again["already_consolidated"] is True and again["run_id_reused"] is False


def test_two_deliveries_racing_with_different_content_write_the_first_only(
    memory: Memory,
) -> None:
    # Given two events of run r1 with different content, both extracted before either is
    # recorded (two deliveries at once)
    first = extract(run_event("r1"), memory.ports)
    second = extract(run_event("r1", task="Draft the renewal letter"), memory.ports)
    # When the first is scrubbed (and recorded) before the second
    first = STEPS["scrub"](first, memory.ports)
    for name in AFTER_EXTRACT:
        second = STEPS[name](second, memory.ports)
    # Then the second learns the id is taken and writes nothing
    said = summary(second)
    assert said["run_id_reused"] is True and said["episode"] == "not written"
    assert said["notes"][0].startswith("nothing written: run_id r1 was already recorded")
    assert memory.ports.episodes.get("acme", "reviewer", "r1", now=memory.clock()) is None


# One change to the event's content, anywhere a run's content is: the task, the outcome, a
# fact, a finding, the procedure, the feedback, the finish time, the messages.
def _change(event: dict[str, Any], field: str, text: str) -> dict[str, Any]:
    changed = copy.deepcopy(event)
    artifacts = changed["artifacts"]
    if field == "task":
        changed["task"] = f"{changed['task']} {text}"
    elif field == "outcome":
        changed["outcome"] = "PARTIAL"
    elif field == "fact":
        artifacts["facts"][0]["content"] = f"{artifacts['facts'][0]['content']} {text}"
    elif field == "confidence":
        artifacts["facts"][0]["confidence"] = 0.95
    elif field == "finding":
        artifacts["key_findings"].append(text)
    elif field == "step":
        artifacts["procedure"]["steps"].append(text)
    elif field == "finished_at":
        changed["finished_at"] = "2026-12-01T10:00:00Z"
    elif field == "messages":
        changed["messages"] = [{"role": "human", "content": text}]
    elif field == "domain":
        changed["domain"] = "procurement"
    return changed


FIELDS = st.sampled_from(
    [
        "task",
        "outcome",
        "fact",
        "confidence",
        "finding",
        "step",
        "finished_at",
        "messages",
        "domain",
    ]
)
TEXT = st.text(
    alphabet=st.characters(categories=("L", "N"), max_codepoint=0x2FF), min_size=1, max_size=20
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(field=FIELDS, text=TEXT, replays=st.integers(min_value=1, max_value=3))
def test_any_change_is_reported_and_an_exact_replay_never_is(
    field: str, text: str, replays: int
) -> None:
    with tempfile.TemporaryDirectory() as root:
        # Given a run consolidated
        memory = make_memory(Path(root), stores="memory")
        event = run_event("r1")
        consolidate(copy.deepcopy(event), memory.ports)
        # When it is replayed exactly, then sent again with one change
        replayed = [
            summary(consolidate(copy.deepcopy(event), memory.ports)) for _ in range(replays)
        ]
        changed = summary(consolidate(_change(event, field, text), memory.ports))
        # Then no replay is reported as a reuse, and the changed event always is
        assert all(r["already_consolidated"] and not r["run_id_reused"] for r in replayed)
        assert changed["run_id_reused"] is True and changed["notes"] == [REUSED]


def test_an_incomplete_runs_redelivery_completes_it_and_is_no_reuse(memory: Memory) -> None:
    # Given a run whose process died after scrub recorded it (its task holding an email)
    event = run_event("r1", task="Review the MSA sent by jane@example.com")
    recorded = extract(event, memory.ports)
    STEPS["scrub"](recorded, memory.ports)
    entry = memory.ports.run_ledger.run("acme", "reviewer", "r1", now=memory.clock())
    assert entry is not None
    # When the event replaying an incomplete run on AWS is delivered (identity, scrubbed task)
    result = summary(consolidate(redelivery_event(RunRecord.read(entry.value)), memory.ports))
    # Then it completes the recorded run rather than being reported as another run
    assert result["run_id_reused"] is False and result["episode"] == "written"
    assert result["procedure_proposed"] is not None
    # And the original event, sent again, is still its replay
    again = summary(consolidate(event, memory.ports))
    assert again["already_consolidated"] is True and again["run_id_reused"] is False
