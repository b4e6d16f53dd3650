"""A run is (tenant, agent, run id): two agents' runs of one id are two runs."""

from pathlib import Path

import pytest

from agent_memory.core.model.keys import parse_run_marker, run_marker
from agent_memory.core.tiers.semantic import fact_hash
from agent_memory.core.workflows.consolidation import (
    StepFailed,
    consolidate,
    consolidate_or_record,
    failed_runs,
    summary,
)
from tests.support.memory import Memory, make_memory, run_event

FACT = "Liability caps below 1x fees are a red flag"


@pytest.fixture
def memory(tmp_path: Path) -> Memory:
    return make_memory(tmp_path, stores="memory")


def test_two_agents_runs_of_the_same_id_are_both_consolidated(memory: Memory) -> None:
    # Given the reviewer's run r1, consolidated
    consolidate(run_event("r1"), memory.ports)
    # When another agent of the tenant finishes a run it also calls r1
    other = summary(consolidate(run_event("r1", agent_id="drafter"), memory.ports))
    # Then it is a run of its own: its episode is written, not found "already present"
    assert other["episode"] == "written" and other["extracted_by"] == "event"
    now = memory.clock()
    for agent in ("reviewer", "drafter"):
        assert memory.ports.episodes.get("acme", agent, "r1", now=now) is not None
        assert memory.ports.run_ledger.run("acme", agent, "r1", now=now) is not None


def test_two_agents_runs_of_the_same_id_each_count_for_a_fact_and_a_procedure(
    memory: Memory,
) -> None:
    # Given two agents whose runs share an id, and see the same fact and the same steps
    first = summary(consolidate(run_event("r1"), memory.ports))
    consolidate(run_event("r1", agent_id="drafter"), memory.ports)
    # Then the fact's log and the procedure's proposals count both runs
    fact = memory.ports.facts.get("acme", "contracts", fact_hash(FACT))
    assert fact is not None and fact.run_ids == {"reviewer/r1", "drafter/r1"}
    procedure = memory.ports.procedures.get(first["procedure_proposed"])
    assert procedure is not None and procedure.proposed_by == 2


def test_two_agents_failed_runs_of_the_same_id_are_two_records(memory: Memory) -> None:
    # Given a detector that is down
    memory.pii.fail = True
    # When two agents' runs of one id fail
    for agent in ("reviewer", "drafter"):
        with pytest.raises(StepFailed):
            consolidate_or_record(run_event("r1", agent_id=agent), memory.ports)
    # Then each waits for replay under its own key, which names its agent
    keys = sorted(r.key for r in failed_runs(memory.ports.run_ledger))
    assert keys == ["acme#failed#drafter/r1", "acme#failed#reviewer/r1"]
    assert memory.ports.run_ledger.identify(keys[0]) == ("acme", "drafter", "r1")


def test_the_failure_key_of_an_event_naming_no_run_names_no_agent(memory: Memory) -> None:
    digest = "0123456789abcdef01234567"
    key = f"_unroutable#failed#{digest}"
    assert memory.ports.run_ledger.identify(key) == ("_unroutable", None, digest)


def test_a_run_is_counted_by_a_marker_no_longer_than_a_run_id() -> None:
    # Given the longest agent and run ids, differing only in their last character
    agent, run = "a" * 128, "r" * 127
    markers = {run_marker(agent, run + last) for last in "xy"}
    # Then each is counted by its own marker, as short as the stores' item sizes assume
    assert len(markers) == 2
    assert all(len(m) <= 128 for m in markers)
    # While a short pair is counted by its name, which reads back as the pair
    assert run_marker("reviewer", "r1") == "reviewer/r1"
    assert parse_run_marker("reviewer/r1") == ("reviewer", "r1")
