import math
from pathlib import Path

import pytest

from agent_memory.core.model.models import AGENTS_KEPT, FactCandidate, FactStatus, RunArtifacts
from agent_memory.core.model.policies import HOUR, Independence, SemanticPolicy
from agent_memory.core.tiers.semantic import (
    fact_hash,
    facts_worth_keeping,
    normalize_fact,
    observe_facts,
)
from tests.support.memory import T0, Memory, make_memory


def artifacts(outcome: str, *facts: tuple[str, float]) -> RunArtifacts:
    return RunArtifacts(
        task_summary="s",
        outcome=outcome,  # type: ignore[arg-type]
        facts=tuple(FactCandidate(c, conf) for c, conf in facts),
    )


def test_wordings_that_differ_only_in_form_share_a_hash() -> None:
    a = "Clause 7.3 usually covers liability caps."
    b = "  clause 7.3   USUALLY covers liability caps "
    c = "Clause 7.3 usually covers liability caps\u2014"
    assert normalize_fact(a) == "clause 7.3 usually covers liability caps"
    assert fact_hash(a) == fact_hash(b)
    assert fact_hash(a) != fact_hash(c.replace("7.3", "7.4"))


def test_curly_quotes_and_dashes_are_unified() -> None:
    assert fact_hash("Vendor\u2019s cap \u2013 2x") == fact_hash("vendor's cap - 2x")


def test_only_completed_runs_teach_facts() -> None:
    for outcome in ("PARTIAL", "FAILED", "UNKNOWN"):
        assert facts_worth_keeping(artifacts(outcome, ("fact", 0.99))) == []


def test_confidence_threshold_is_inclusive_at_0_7() -> None:
    kept = facts_worth_keeping(artifacts("COMPLETED", ("at", 0.7), ("below", 0.6999)))
    assert [f.content for f in kept] == ["at"]


def test_a_fact_stated_twice_in_one_run_counts_once() -> None:
    kept = facts_worth_keeping(artifacts("COMPLETED", ("Cap is 2x", 0.8), ("cap is 2x.", 0.9)))
    assert len(kept) == 1 and kept[0].confidence == 0.9


# --- independence: when a sighting counts as a confirmation ----------------------------------

RULE = Independence()


def test_the_default_policy_counts_an_agent_once_an_hour_and_trusts_agent_ids() -> None:
    # The stated defaults (README, Policies): 3 confirmations, an agent counted at most once an
    # hour, no gap across agents, and one agent enough
    policy = SemanticPolicy()
    assert (policy.confirmations, policy.min_distinct_agents) == (3, 1)
    assert (policy.independence.same_agent_gap, policy.independence.any_agent_gap) == (HOUR, 0)


def test_a_first_sighting_counts() -> None:
    assert RULE.counted({}, "a", T0) == {"a": T0}


def test_the_same_agent_counts_again_only_a_full_gap_after_its_last_counted_sighting() -> None:
    assert RULE.counted({"a": T0}, "a", T0 + HOUR - 0.001) is None
    assert RULE.counted({"a": T0}, "a", T0 + HOUR) == {"a": T0 + HOUR}


def test_a_sighting_timed_before_the_agents_last_counted_one_is_inside_the_gap() -> None:
    # Given two machines whose consolidation clocks disagree by a few seconds
    assert RULE.counted({"a": T0}, "a", T0 - 5) is None


def test_another_agent_counts_at_once_by_default() -> None:
    assert RULE.counted({"a": T0}, "b", T0) == {"a": T0, "b": T0}


def test_a_gap_across_agents_keeps_a_new_agent_name_from_counting_inside_it() -> None:
    rule = Independence(same_agent_gap=HOUR, any_agent_gap=HOUR)
    assert rule.counted({"a": T0}, "b", T0 + 1) is None
    assert rule.counted({"a": T0}, "b", T0 + HOUR) == {"a": T0, "b": T0 + HOUR}


def test_the_agents_remembered_are_the_latest_to_count() -> None:
    # Given as many agents remembered as a fact keeps, the oldest first
    full = {f"agent-{i:03d}": T0 + i for i in range(AGENTS_KEPT)}
    # When one more agent counts
    after = RULE.counted(full, "late", T0 + AGENTS_KEPT)
    # Then the agent that counted longest ago is the one let go
    assert after is not None and len(after) == AGENTS_KEPT
    assert "agent-000" not in after and after["late"] == T0 + AGENTS_KEPT


@pytest.mark.parametrize("gap", [-1.0, math.nan, math.inf])
def test_a_gap_that_is_not_a_finite_number_of_seconds_is_refused(gap: float) -> None:
    with pytest.raises(ValueError, match="finite number of seconds"):
        Independence(same_agent_gap=gap)
    with pytest.raises(ValueError, match="finite number of seconds"):
        Independence(any_agent_gap=gap)


@pytest.mark.parametrize("agents", [0, AGENTS_KEPT + 1])
def test_a_distinct_agent_minimum_a_fact_cannot_remember_is_refused(agents: int) -> None:
    with pytest.raises(ValueError, match="min_distinct_agents"):
        SemanticPolicy(min_distinct_agents=agents)


# --- the gate: which sightings promote a fact (real SQLite store, fake embedder) -------------

FACT = "Liability caps below 1x fees are a red flag"


@pytest.fixture
def memory(tmp_path: Path) -> Memory:
    return make_memory(tmp_path, stores="memory")


def see(
    memory: Memory,
    sightings: list[tuple[str, float]],
    policy: SemanticPolicy = SemanticPolicy(),
) -> FactStatus:
    """Observe FACT once per ``(agent, seconds after T0)``, each a new run; its status after."""
    for number, (agent, offset) in enumerate(sightings):
        observe_facts(
            memory.ports.facts,
            memory.ports.embedder,
            memory.ports.knowledge_base,
            tenant_id="acme",
            domain="contracts",
            agent_id=agent,
            run_id=f"r{number}",
            facts=[FactCandidate(FACT, 0.9)],
            now=T0 + offset,
            policy=policy,
        )
    fact = memory.ports.facts.get("acme", "contracts", fact_hash(FACT))
    assert fact is not None
    return fact.status


def test_one_agents_three_runs_seconds_apart_do_not_confirm_a_fact(memory: Memory) -> None:
    assert see(memory, [("a1", 0), ("a1", 3), ("a1", 6)]) is FactStatus.PENDING


def test_one_agents_three_runs_an_hour_apart_confirm_a_fact(memory: Memory) -> None:
    # The single-agent tenant still learns: its runs spread over two hours
    assert see(memory, [("a1", 0), ("a1", HOUR), ("a1", 2 * HOUR)]) is FactStatus.CONFIRMED


def test_a_burst_of_one_agent_then_spread_runs_confirms_at_the_third_counted(
    memory: Memory,
) -> None:
    burst_then_hour = [("a1", 0), ("a1", 3), ("a1", 6), ("a1", HOUR)]
    assert see(memory, burst_then_hour) is FactStatus.PENDING
    assert see(memory, [*burst_then_hour, ("a1", 2 * HOUR)]) is FactStatus.CONFIRMED


def test_three_agents_in_a_burst_confirm_a_fact(memory: Memory) -> None:
    assert see(memory, [("a1", 0), ("a2", 1), ("a3", 2)]) is FactStatus.CONFIRMED


def test_a_tenant_demanding_two_agents_is_not_satisfied_by_one_agent_spread_out(
    memory: Memory,
) -> None:
    policy = SemanticPolicy(min_distinct_agents=2)
    spread = [("a1", 0), ("a1", HOUR), ("a1", 2 * HOUR), ("a1", 3 * HOUR)]
    assert see(memory, spread, policy) is FactStatus.PENDING


def test_a_tenant_demanding_two_agents_confirms_once_a_second_agent_counts(
    memory: Memory,
) -> None:
    policy = SemanticPolicy(min_distinct_agents=2)
    assert see(memory, [("a1", 0), ("a1", HOUR), ("a2", HOUR + 1)], policy) is (
        FactStatus.CONFIRMED
    )


def test_a_tenant_trusting_no_agent_id_is_not_satisfied_by_a_burst_of_agent_names(
    memory: Memory,
) -> None:
    policy = SemanticPolicy(independence=Independence(any_agent_gap=HOUR))
    assert see(memory, [("a1", 0), ("a2", 1), ("a3", 2)], policy) is FactStatus.PENDING
