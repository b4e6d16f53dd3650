"""The consolidation summary says where each reported fact stands under the tenant's rule, and
where a proposed procedure waits for a person."""

import math
from datetime import UTC, datetime
from pathlib import Path

import pytest

from agent_memory.core.api.fact_record import fact_record
from agent_memory.core.model.policies import HOUR, Independence, Policies, SemanticPolicy
from agent_memory.core.tiers.procedural import review
from agent_memory.core.tiers.semantic import fact_hash
from agent_memory.core.workflows.consolidation import consolidate, review_where, summary
from tests.support.memory import Memory, make_memory, run_event

FACT = "Liability caps below 1x fees are a red flag"
KEY = fact_hash(FACT)


def instant(moment: float) -> str:
    when = datetime.fromtimestamp(math.ceil(moment), UTC).isoformat(timespec="seconds")
    return when.replace("+00:00", "Z")


@pytest.fixture
def memory(tmp_path: Path) -> Memory:
    return make_memory(tmp_path, stores="memory")


def test_one_agents_runs_within_the_hour_say_why_they_do_not_count(memory: Memory) -> None:
    # Given the reviewer's first run reported the fact
    first = summary(consolidate(run_event("r1"), memory.ports))
    counted_at = memory.clock()
    # When its next two runs report it again within the hour
    memory.clock.advance(60)
    second = summary(consolidate(run_event("r2"), memory.ports))
    memory.clock.advance(60)
    third = summary(consolidate(run_event("r3"), memory.ports))
    # Then the first counted (1 of 3), and the others say when the reviewer counts again and
    # that another agent's run counts at once
    [fact] = first["facts"]
    assert (fact["fact_hash"], fact["confirmations"], fact["needed"]) == (KEY, 1, 3)
    assert fact["counted"] is True and fact["status"] == "PENDING"
    assert f"fact {KEY}: 1 of 3 independent runs, not confirmed yet" in first["notes"][0]
    for later in (second, third):
        [fact] = later["facts"]
        assert fact["counted"] is False and fact["confirmations"] == 1
        assert fact["counts_again_at"] == counted_at + HOUR
        assert fact["others_count_from"] == fact["seen_at"]
        said = later["notes"][0]
        assert "1 of 3 independent runs, not confirmed yet; this run did not count" in said
        assert f"reviewer's next run counts from {instant(counted_at + HOUR)}," in said
        assert said.endswith("another agent's run counts at once")


def test_the_time_an_agent_counts_again_is_the_one_facts_show_gives(memory: Memory) -> None:
    # Given a run that counted and a run of the same agent soon after that did not
    consolidate(run_event("r1"), memory.ports)
    memory.clock.advance(600)
    again = summary(consolidate(run_event("r2"), memory.ports))
    # When the fact is read back as facts show reads it
    stored = memory.ports.facts.get("acme", "contracts", KEY)
    assert stored is not None
    shown = fact_record(stored, memory.ports.policies.semantic.independence)
    # Then the summary's time is the one facts show gives for the agent
    assert again["facts"][0]["counts_again_at"] == shown["counts_again_at"]["reviewer"]


def test_another_agents_run_counts_and_the_third_confirms_now(memory: Memory) -> None:
    # Given the reviewer's run counted
    consolidate(run_event("r1"), memory.ports)
    # When two other agents report the fact a second apart
    memory.clock.advance(1)
    second = summary(consolidate(run_event("r2", agent_id="drafter"), memory.ports))
    memory.clock.advance(1)
    third = summary(consolidate(run_event("r3", agent_id="auditor"), memory.ports))
    # Then each counted, and the third run's fact is confirmed now
    assert second["facts"][0]["counted"] is True
    assert "2 of 3 independent runs, not confirmed yet (this run counted)" in second["notes"][0]
    assert third["facts"][0]["confirmed_now"] is True
    assert (
        third["notes"][0]
        == f"fact {KEY}: 3 of 3 independent runs, confirmed now (this run counted)"
    )
    assert third["facts_confirmed"] == [KEY]


def test_a_gap_across_agents_says_when_another_agents_run_counts(tmp_path: Path) -> None:
    # Given a tenant whose rule holds every agent back ten minutes after any counted run, and
    # wants two agents
    policy = SemanticPolicy(
        confirmations=2,
        min_distinct_agents=2,
        independence=Independence(same_agent_gap=HOUR, any_agent_gap=600),
    )
    memory = make_memory(tmp_path, stores="memory", policies=Policies(semantic=policy))
    consolidate(run_event("r1"), memory.ports)
    counted_at = memory.clock()
    # When the same agent reports the fact again a minute later
    memory.clock.advance(60)
    again = summary(consolidate(run_event("r2"), memory.ports))
    # Then another agent's run counts only from the end of the gap, and the agents are counted
    [fact] = again["facts"]
    assert fact["others_count_from"] == counted_at + 600
    assert "1 of 2 independent runs from 1 of 2 agents" in again["notes"][0]
    assert "another agent's run counts from " in again["notes"][0]
    assert not again["notes"][0].endswith("at once")


def test_a_proposed_procedure_says_it_waits_for_review_and_where(memory: Memory) -> None:
    # Given a run that proposed its procedure
    result = summary(consolidate(run_event("r1"), memory.ports))
    # Then the summary says it waits for a person's review, and where they review it
    pending = result["procedure_review"]
    assert pending["status"] == "PENDING" and pending["waits_for_review"] is True
    assert pending["where"] == (
        "agent-memory review --tenant acme or agent-memory procedures list --tenant acme"
    )
    assert result["notes"][-1] == (
        f"procedure {result['procedure_proposed']} waits for a person's review (PENDING): "
        + review_where("acme")
    )
    # And on AWS it names the stack's review function
    assert (
        "ProcedureReviewFunctionName"
        in summary(consolidate(run_event("r1"), memory.ports), review="aws")["procedure_review"][
            "where"
        ]
    )


def test_a_procedure_approved_already_does_not_wait(memory: Memory) -> None:
    # Given a procedure a person approved
    first = summary(consolidate(run_event("r1"), memory.ports))
    review(
        memory.ports.procedures,
        first["procedure_proposed"],
        approve=True,
        reviewer="lead",
        now=memory.clock(),
    )
    # When another run proposes the same steps
    again = summary(consolidate(run_event("r2"), memory.ports))
    # Then its summary says it is approved, not waiting
    assert again["procedure_review"]["waits_for_review"] is False
    assert "was approved by a person already" in again["notes"][-1]


def test_a_run_without_facts_or_procedure_says_nothing_of_them(memory: Memory) -> None:
    # Given a run that reports neither a fact nor a procedure
    event = run_event("r1")
    event["artifacts"]["facts"] = []
    del event["artifacts"]["procedure"]
    # When it is consolidated
    result = summary(consolidate(event, memory.ports))
    # Then the summary has no fact standings and no review
    assert result["facts"] == [] and result["procedure_review"] is None
    assert result["notes"] == []
