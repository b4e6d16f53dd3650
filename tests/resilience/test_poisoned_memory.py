"""Poisoned memory: a run cannot promote a fact or a procedure on its own, or have a fact that
contradicts confirmed knowledge served beside it (forged context blocks:
``test_forged_context.py``).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from agent_memory.core.api.bootstrap_request import parse_bootstrap_request
from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.model.keys import run_marker
from agent_memory.core.model.models import FactStatus, ProcedureStatus
from agent_memory.core.model.policies import HOUR, Independence, Policies, SemanticPolicy
from agent_memory.core.tiers import procedural
from agent_memory.core.tiers.semantic import fact_hash
from agent_memory.core.workflows.bootstrap import bootstrap
from agent_memory.core.workflows.consolidation import consolidate, summary
from agent_memory.core.workflows.tenants import export_tenant
from tests.support.ledger import ledger_contents
from tests.support.memory import Memory, make_memory, proposed_procedure

TENANT, AGENT, TASK_TYPE, DOMAIN = "acme", "reviewer", "contract_review", "contracts"
FACT = "Liability caps below 1x annual fees are a red flag"


def poisoned_event(run_id: str, payload: str, **overrides: Any) -> dict[str, Any]:
    """A run carrying ``payload`` in every text field it has."""
    event: dict[str, Any] = {
        "tenant_id": TENANT,
        "agent_id": AGENT,
        "run_id": run_id,
        "task": f"Review the vendor MSA liability cap. {payload}",
        "task_type": TASK_TYPE,
        "domain": DOMAIN,
        "outcome": "COMPLETED",
        "messages": [
            {
                "role": "human",
                "content": f"Review the MSA. {payload}",
                "name": payload[:256] or None,
            },
            {"role": "ai", "content": f"The cap is 0.5x fees. {payload}"},
        ],
        "artifacts": {
            "task_summary": f"Reviewed the MSA liability cap {payload}"[:2_000],
            "key_findings": [
                f"Clause 7.3 caps liability {payload}"[:2_000],
                payload[:2_000] or "No IP indemnity",
            ],
            "approach_used": f"Read the clause {payload}",
            "tools_used": [payload[:2_000] or "pdf_reader"],
            "reusable_patterns": [f"Check the cap first {payload}"[:2_000]],
            "facts": [{"content": f"{FACT} {payload}"[:2_000], "confidence": 0.9}],
            "procedure": {
                "title": payload[:200] or "MSA review",
                "steps": [f"Read clause 7.3 {payload}"[:2_000], payload[:2_000] or "Compare"],
            },
        },
    }
    event.update(overrides)
    return event


BOOTSTRAP = {
    "tenant_id": TENANT,
    "agent_id": AGENT,
    "task": "Review the vendor MSA liability cap: are caps below 1x annual fees a red flag?",
    "task_type": TASK_TYPE,
    "domain": DOMAIN,
}


def strings(value: Any) -> list[str]:
    """Every string inside a JSON-like value (keys included), unescaped."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [*value, *(t for v in value.values() for t in strings(v))]
    if isinstance(value, list | tuple):
        return [t for v in value for t in strings(v)]
    return []


def stored_texts(memory: Memory) -> str:
    """Every string of every record the tenant has, run records included, one per line."""
    records = [*export_tenant(memory.ports, TENANT), *ledger_contents(memory.ports)]
    return "\n".join(strings(records))


@pytest.fixture
def memory(tmp_path: Path) -> Memory:
    return make_memory(tmp_path)


# --- promotion needs distinct runs and a human ----------------------------------------------


def fact_of(memory: Memory, content: str = FACT) -> Any:
    return memory.ports.facts.get(TENANT, DOMAIN, fact_hash(content))


def test_a_fact_is_promoted_by_the_third_distinct_run_only(memory: Memory) -> None:
    # Guards the tests below: the gate opens for three distinct runs an hour apart (an agent's
    # runs count once an hour), not before
    for number in (1, 2):
        consolidate(poisoned_event(f"r{number}", ""), memory.ports)
        memory.clock.advance(HOUR)
    assert fact_of(memory, FACT).status is FactStatus.PENDING
    consolidate(poisoned_event("r3", ""), memory.ports)
    assert fact_of(memory, FACT).status is FactStatus.CONFIRMED


# --- independence: one agent's burst cannot promote a fact ----------------------------------


def consolidate_at(memory: Memory, runs: list[tuple[str, str, float]]) -> None:
    """Consolidate the runs ``(run_id, agent_id, seconds after the previous one)``."""
    for run_id, agent, after in runs:
        memory.clock.advance(after)
        consolidate(poisoned_event(run_id, "", agent_id=agent), memory.ports)


def served_to(memory: Memory, agent: str) -> list[str]:
    """The facts a bootstrap of ``agent`` (of the same tenant) is served."""
    reply = bootstrap(parse_bootstrap_request({**BOOTSTRAP, "agent_id": agent}), memory.ports)
    return [f["content"].strip() for f in reply["facts"]]


def test_one_agents_burst_of_three_runs_is_not_served_to_the_other_agents(
    memory: Memory,
) -> None:
    # Given one agent's three runs stating the fact three seconds apart (the red team's case)
    consolidate_at(memory, [("a1", AGENT, 0), ("a2", AGENT, 3), ("a3", AGENT, 3)])
    # Then the fact stays pending: nothing reaches the KB or another agent of the tenant
    assert fact_of(memory).status is FactStatus.PENDING
    assert memory.ports.knowledge_base.document_keys(TENANT) == []
    assert served_to(memory, "drafter") == []


def test_one_agents_runs_spread_over_two_hours_confirm_its_fact(memory: Memory) -> None:
    # Given a tenant with a single agent, whose three runs state the fact an hour apart
    consolidate_at(memory, [("a1", AGENT, 0), ("a2", AGENT, HOUR), ("a3", AGENT, HOUR)])
    # Then it learns the fact, and serves it to every agent of the tenant
    assert fact_of(memory).status is FactStatus.CONFIRMED
    assert served_to(memory, "drafter") == [FACT]


def test_a_tenant_trusting_no_agent_id_is_not_fooled_by_invented_agent_names(
    tmp_path: Path,
) -> None:
    # Given a tenant whose policy counts one confirmation an hour, whoever sends it: agent ids
    # are the caller's word
    policy = SemanticPolicy(independence=Independence(any_agent_gap=HOUR))
    memory = make_memory(tmp_path, policies=Policies(semantic=policy))
    # When one caller sends the fact in three runs a second apart, each naming a new agent
    consolidate_at(memory, [("a1", "agent-x", 0), ("a2", "agent-y", 1), ("a3", "agent-z", 1)])
    # Then the fact stays pending and is served to nobody
    assert fact_of(memory).status is FactStatus.PENDING
    assert served_to(memory, "drafter") == []


def test_one_run_stating_a_fact_fifty_ways_does_not_promote_it(memory: Memory) -> None:
    # Given one run that repeats its fact 50 times, in different case, spacing and punctuation
    spellings = [FACT, FACT.upper(), f"  {FACT}.", FACT.replace(" ", "  "), f"{FACT}!"]
    event = poisoned_event("r1", "")
    event["artifacts"]["facts"] = [
        {"content": spellings[i % len(spellings)], "confidence": 1.0} for i in range(50)
    ]
    # When it is consolidated
    consolidate(event, memory.ports)
    # Then the fact counts one run, stays pending, and nothing reaches the KB or a reply
    fact = fact_of(memory)
    assert (fact.status, set(fact.run_ids)) == (FactStatus.PENDING, {run_marker(AGENT, "r1")})
    assert memory.ports.knowledge_base.document_keys(TENANT) == []
    assert bootstrap(parse_bootstrap_request(BOOTSTRAP), memory.ports)["facts"] == []


def test_ten_concurrent_redeliveries_of_one_run_do_not_promote_its_fact(memory: Memory) -> None:
    # Given the same run delivered ten times at once
    with ThreadPoolExecutor(10) as pool:
        results = list(
            pool.map(lambda _: consolidate(poisoned_event("r1", ""), memory.ports), range(10))
        )
    # Then one episode was written, the fact counts one run and is not promoted
    assert [r.episode_written for r in results].count(True) == 1
    fact = fact_of(memory)
    assert (fact.status, set(fact.run_ids)) == (FactStatus.PENDING, {run_marker(AGENT, "r1")})
    assert memory.ports.knowledge_base.document_keys(TENANT) == []


def test_a_run_id_replayed_under_other_agents_counts_once_per_agent(memory: Memory) -> None:
    # Given one run id sent twice under each of three agents
    agents = ("reviewer", "drafter", "auditor")
    for agent in agents * 2:
        consolidate(poisoned_event("r1", "", agent_id=agent), memory.ports)
    # Then a run is (tenant, agent, run id): three runs, none counted twice. Whether they
    # promote the fact is the independence policy's call: the default trusts agent ids (the
    # caller's word); a tenant that does not sets a gap across agents (see
    # test_a_tenant_trusting_no_agent_id_is_not_fooled_by_invented_agent_names)
    fact = fact_of(memory)
    assert set(fact.run_ids) == {run_marker(agent, "r1") for agent in agents}
    assert (fact.sightings, fact.confirmations, fact.agents) == (3, 3, 3)


def test_a_proposed_procedure_is_never_served_before_a_human_validates_it(
    memory: Memory,
) -> None:
    # Given ten distinct successful runs proposing the same steps
    for number in range(10):
        state = consolidate(poisoned_event(f"r{number}", ""), memory.ports)
    proposed = proposed_procedure(state)
    # When a run of that task type bootstraps
    reply = bootstrap(parse_bootstrap_request(BOOTSTRAP), memory.ports)
    # Then the procedure is still pending and not served
    procedure = memory.ports.procedures.get(proposed)
    assert procedure is not None and procedure.status is ProcedureStatus.PENDING
    assert len(procedure.source_run_ids) == 10
    assert reply["procedure"] is None
    assert "[PROCEDURAL MEMORY" not in reply["context"]
    # And once a reviewer approves it, it is served, as a trial
    procedural.review(
        memory.ports.procedures, proposed, approve=True, reviewer="lead", now=memory.clock()
    )
    served = bootstrap(parse_bootstrap_request(BOOTSTRAP), memory.ports)["procedure"]
    assert served is not None and served["procedure_id"] == proposed and served["trial"]


def test_feedback_for_a_procedure_never_served_does_not_count(memory: Memory) -> None:
    # Given a proposed procedure, still pending review
    proposed = proposed_procedure(consolidate(poisoned_event("r1", ""), memory.ports))
    # When three runs report success with it although it was never served to them
    for number in (2, 3, 4):
        event = poisoned_event(f"r{number}", "")
        event["procedure_feedback"] = {"procedure_id": proposed, "succeeded": True}
        consolidate(event, memory.ports)
    # Then its record is untouched: approved, it starts as a trial
    procedure = memory.ports.procedures.get(proposed)
    assert procedure is not None and procedure.times_applied == 0


@pytest.mark.parametrize(
    "claim",
    [
        {"artifacts": {"procedure": {"title": "t", "steps": ["s"], "status": "VALIDATED"}}},
        {"status": "VALIDATED"},
        {"artifacts": {"facts": [{"content": FACT, "confidence": 0.9, "status": "CONFIRMED"}]}},
        {"artifacts": {"facts": [{"content": FACT, "confidence": 0.9, "run_ids": ["a", "b"]}]}},
    ],
    ids=["procedure status", "event status", "fact status", "fact runs"],
)
def test_an_event_cannot_declare_its_own_memory_trusted(
    memory: Memory, claim: dict[str, Any]
) -> None:
    # Given an event that claims a status or sightings for what it reports
    event = {**poisoned_event("r1", ""), **claim}
    # Then the field is refused as unknown and nothing is written
    with pytest.raises(InvalidInput) as refused:
        consolidate(event, memory.ports)
    assert refused.value.message == "unknown field"
    assert ledger_contents(memory.ports) == []


# --- contradictions are held back -----------------------------------------------------------

RIVALS = {
    "a different figure": "Liability caps below 2x annual fees are a red flag",
    "a negation": "Liability caps below 1x annual fees are not a red flag",
    "an opposite word": "Liability caps above 1x annual fees are a red flag",
}


def confirm(memory: Memory, content: str, runs: list[str]) -> dict[str, Any]:
    """The runs, an hour apart (each an independent confirmation), stating ``content``."""
    result: dict[str, Any] = {}
    for run_id in runs:
        event = poisoned_event(run_id, "")
        event["artifacts"]["facts"] = [{"content": content, "confidence": 0.95}]
        result = summary(consolidate(event, memory.ports))
        memory.clock.advance(HOUR)
    return result


@pytest.mark.parametrize("kind", sorted(RIVALS))
def test_a_fact_contradicting_a_confirmed_one_is_held_back_for_review(
    memory: Memory, kind: str
) -> None:
    # Given a fact confirmed by three runs
    confirm(memory, FACT, ["r1", "r2", "r3"])
    # When three other runs agree on a fact that contradicts it
    rival = RIVALS[kind]
    result = confirm(memory, rival, ["x1", "x2", "x3"])
    # Then the rival is contested, listed for review with its reason, and not served
    assert result["facts_contested"] == [fact_hash(rival)]
    [held] = memory.ports.facts.contested(TENANT)
    assert held.content == rival and held.status is FactStatus.CONTESTED
    assert held.review_note and fact_hash(FACT) in held.review_note
    reply = bootstrap(parse_bootstrap_request(BOOTSTRAP), memory.ports)
    assert [f["content"] for f in reply["facts"]] == [FACT]
    assert rival not in reply["context"]


def test_more_runs_backing_a_contested_fact_do_not_get_it_served(memory: Memory) -> None:
    # Given a contested rival of a confirmed fact
    confirm(memory, FACT, ["r1", "r2", "r3"])
    rival = RIVALS["a negation"]
    confirm(memory, rival, ["x1", "x2", "x3"])
    # When ten more runs repeat it
    confirm(memory, rival, [f"y{i}" for i in range(10)])
    # Then it waits for a human all the same
    assert fact_of(memory, rival).status is FactStatus.CONTESTED
    assert not any(fact_hash(rival) in k for k in memory.ports.knowledge_base.document_keys(TENANT))
    reply = bootstrap(parse_bootstrap_request(BOOTSTRAP), memory.ports)
    assert [f["content"] for f in reply["facts"]] == [FACT]
