"""At-least-once delivery: a RunFinished event delivered again, concurrently with its first
delivery or after it completed, changes nothing the first delivery did not.

Three paths, each fed the same kind of seeded corpus with about 30% of the runs redelivered
(half of those as 2-3 simultaneous deliveries, half after the first delivery finished):
``local`` (``consolidate`` on a real SQLite memory), ``aws-handlers`` (the Lambda handlers on
moto's DynamoDB and S3, driven with the ASL's retry policy) and ``aws-state-machine`` (the real
ASL on moto's Step Functions). The expectation is computed from the events alone
(``helpers_corpus``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from agent_memory.core.ports import MemoryPorts
from agent_memory.core.workflows.consolidation import consolidate
from tests.resilience.helpers_aws import aws_harness, outcomes_of
from tests.resilience.helpers_corpus import (
    FACTS,
    TENANTS,
    Event,
    Expected,
    approve_seeded,
    episode_problems,
    expected_state,
    fact_problems,
    ledger_problems,
    primer_events,
    procedure_problems,
    run_events,
    seed_events,
    with_receipts,
)
from tests.resilience.helpers_delivery import Outcome, Schedule, deliver, schedule
from tests.support.memory import make_memory

# Runs per path (moto's DynamoDB costs ~5 ms a request) and how the corpus is drawn: the small
# state-machine corpus uses one tenant and two facts per domain, so some fact still reaches
# three distinct runs.
CORPUS: dict[str, tuple[int, dict[str, Any]]] = {
    "local": (400, {}),
    "aws-handlers": (60, {"fact_pool": 4}),
    "aws-state-machine": (20, {"tenants": ("acme",), "fact_pool": 2}),
}
DUPLICATE_SHARE = 0.3
CONCURRENT_SHARE = 0.5


@dataclass
class Delivered:
    """A corpus delivered at least once on one path, and what came of it."""

    ports: MemoryPorts
    expected: Expected
    plan: Schedule
    outcomes: list[Outcome]
    dead_letters: int = 0


def _deliver(
    path: str, process: Callable[[Event], Outcome], ports_of: Callable[[str | None], MemoryPorts]
) -> Delivered:
    count, corpus = CORPUS[path]
    tenants = corpus.get("tenants", TENANTS)
    # Primers leave the facts one agent short of confirmation, so runs confirm them (and stage
    # their KB documents) while being delivered again and at once
    pool = corpus.get("fact_pool", len(FACTS["contracts"]))
    seeds = [*seed_events(tenants), *primer_events(tenants, fact_pool=pool)]
    for event in seeds:
        assert process(event).consolidated
    approve_seeded(ports_of, tenants)
    events = with_receipts(run_events(count, seed=len(path), prefix=path, **corpus), ports_of)
    plan = schedule(
        events, duplicate_share=DUPLICATE_SHARE, concurrent_share=CONCURRENT_SHARE, seed=7
    )
    _check_plan(plan)
    outcomes = deliver(plan, process)
    return Delivered(ports_of(None), expected_state([*seeds, *events]), plan, outcomes)


def _check_plan(plan: Schedule) -> None:
    """The schedule must exercise both kinds of redelivery, feedback included."""
    later = [d.event for d in plan.later]
    concurrent = [d.event for d in plan.first if d.copies > 1]
    assert later and concurrent
    assert any("procedure_feedback" in e for e in later)
    assert any("procedure_feedback" in e for e in concurrent)


@pytest.fixture(scope="module", params=sorted(CORPUS))
def delivered(request: pytest.FixtureRequest, tmp_path_factory: Any) -> Iterator[Delivered]:
    path = request.param
    if path == "local":
        memory = make_memory(tmp_path_factory.mktemp("delivery"))

        def consolidate_locally(event: Event) -> Outcome:
            return Outcome(event["tenant_id"], event["run_id"], consolidate(event, memory.ports))

        yield _deliver(path, consolidate_locally, lambda _: memory.ports)
        return
    # Twins wait for each other through the state machine's backoff: scaled down less than
    # elsewhere, so a loaded machine's slow step is still waited out.
    with aws_harness(time_scale=0.1) as harness:
        if path == "aws-handlers":
            process = harness.state_machine().run
        else:

            def process(event: Event) -> Outcome:
                [outcome] = outcomes_of(harness, [harness.execute(event, wait=False)])
                return outcome

        result = _deliver(path, process, harness.ports)
        result.dead_letters = len(harness.drain_dead_letters())
        yield result


def test_every_delivery_ends_consolidated_and_none_is_dead_lettered(delivered: Delivered) -> None:
    # Given runs delivered 1-3 times, some copies at the same moment
    # Then every delivery succeeded: a copy that met its twin in progress waited, not failed
    failed = [(o.run_id, o.error) for o in delivered.outcomes if not o.consolidated]
    assert failed == []
    assert len(delivered.outcomes) == delivered.plan.sent
    assert delivered.dead_letters == 0


def test_each_run_has_exactly_one_episode(delivered: Delivered) -> None:
    assert episode_problems(delivered.ports, delivered.expected) == []


def test_fact_confirmations_count_distinct_runs_only(delivered: Delivered) -> None:
    # Then each fact's run set is the set of COMPLETED runs stating it, so confirmation
    # (3 agents, as the corpus is consolidated within the hour) and KB staging happened
    # exactly where the events say
    assert fact_problems(delivered.ports, delivered.expected) == []
    assert any(len(agents) >= 3 for agents in delivered.expected.fact_agents.values())


def test_procedure_feedback_counts_once_per_run(delivered: Delivered) -> None:
    # Then times_applied / times_succeeded equal the distinct runs reporting on the procedure,
    # although many of those reports were delivered twice or three times
    assert procedure_problems(delivered.ports, delivered.expected) == []
    assert sum(len(v) for v in delivered.expected.feedback.values()) > 0


def test_the_scrubbed_run_record_and_the_episode_agree(delivered: Delivered) -> None:
    # Then one scrubbed-artifacts record per run (the first delivery's), the episode built
    # from it, and no failure record left behind
    assert ledger_problems(delivered.ports, delivered.expected) == []
