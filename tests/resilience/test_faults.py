"""Faults: throttling and transient errors on every AWS call, locked SQLite writes locally.

At 20% of calls (DynamoDB, S3, Comprehend, Titan embeddings, the KB's retrieve and ingestion),
some after the call took effect, and on 20% of SQLite write transactions: every run is
consolidated by the state machine's retries or dead-lettered with its error; once the faults
stop, replaying the dead letters (failed-run records locally) completes every run; and no run
is left half-written, checked against the expectation computed from the events
(``helpers_corpus``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from agent_memory.core.model.errors import TransientError
from agent_memory.core.ports import MemoryPorts, RunEntryKind
from agent_memory.core.workflows.consolidation import consolidate_or_record, failed_runs
from agent_memory.wiring.local import DATABASE_FILE
from tests.resilience.helpers_aws import AwsHarness, aws_harness, outcomes_of
from tests.resilience.helpers_corpus import (
    Event,
    Expected,
    approve_seeded,
    episode_problems,
    expected_state,
    primer_events,
    run_events,
    seed_events,
    store_problems,
    with_receipts,
)
from tests.resilience.helpers_delivery import Outcome, deliver, schedule
from tests.resilience.helpers_faults import CONFLICT
from tests.resilience.helpers_local import (
    local_state_machine,
    lock_from_another_process,
    locked_memory,
    redeliver_unrecorded,
    replay_failed,
)
from tests.support.ledger import ledger_contents

FAULT_RATE = 0.2
# The state machine's retry waits, scaled down (see helpers_aws).
TIME_SCALE = 0.02
# The errors the faults may surface as: anything else would be a fault left unmapped.
RETRYABLE = {"TransientError"}


@dataclass
class FaultRun:
    """A corpus delivered under faults, what the first pass left, and the state after replay."""

    ports: MemoryPorts
    expected: Expected
    outcomes: list[Outcome]
    dead_letters: list[Event] = field(default_factory=list)
    failure_records: dict[str, Event] = field(default_factory=dict)
    half_written: list[str] = field(default_factory=list)
    retries: int = 0
    replays: int = 0
    left: int = 0
    faults: dict[str, int] = field(default_factory=dict)
    faults_after_effect: int = 0
    calls: dict[str, int] = field(default_factory=dict)
    seen: set[str] = field(default_factory=set)

    @property
    def failed(self) -> list[Outcome]:
        return [o for o in self.outcomes if not o.consolidated]


def _failure_records(ports: MemoryPorts) -> dict[str, Event]:
    """Every failed-run record, resolved ones (their run completed meanwhile) included."""
    return {e.key: e.value for e in ports.run_ledger.entries() if e.kind is RunEntryKind.FAILURE}


def _half_written(ports: MemoryPorts, outcomes: list[Outcome]) -> list[str]:
    """Runs no delivery completed whose episode was written nonetheless."""
    completed = {o.run_id for o in outcomes if o.consolidated}
    found = []
    for outcome in outcomes:
        if outcome.consolidated or outcome.run_id in completed:
            continue
        episodes = {e.run_id for e in ports.episodes.export(outcome.tenant_id)}
        if outcome.run_id in episodes:
            found.append(outcome.run_id)
    return sorted(set(found))


# --- the Lambda handlers on moto, under the ASL's retry policy --------------------------------


@pytest.fixture(scope="module")
def aws_faults() -> Iterator[FaultRun]:
    with aws_harness(fault_rate=FAULT_RATE, seed=5, time_scale=TIME_SCALE) as harness:
        machine = harness.state_machine()
        # Given procedures to report on and facts one sighting short of confirmation, so
        # promotions (KB retrieve, S3 documents) happen under the faults too
        seeds = [*seed_events(), *primer_events(fact_pool=3)]
        for event in seeds:
            assert machine.run(event).consolidated
        approve_seeded(harness.ports)
        events = with_receipts(run_events(36, seed=5, prefix="faults", fact_pool=3), harness.ports)
        plan = schedule(events, duplicate_share=0.3, concurrent_share=0.5, seed=5)
        # When every AWS call may fail
        calls_before = Counter(harness.faults.calls)
        seen_before = Counter(harness.faults.seen)
        harness.faults.enabled = True
        outcomes = deliver(plan, machine.run)
        harness.faults.enabled = False
        run = FaultRun(harness.ports(None), expected_state([*seeds, *events]), outcomes)
        _record_first_pass(run, harness, calls_before)
        run.retries = sum(machine.retries.values())
        # Then, the incident over, the dead letters are replayed at once: a step cut short holds
        # nothing a replay must wait for (the run ledger and the stores' conditions decide)
        run.replays, left = harness.replay_dead_letters(machine.run, list(run.dead_letters))
        run.left = len(left)
        run.seen = set(harness.faults.seen - seen_before)
        yield run


def _record_first_pass(run: FaultRun, harness: AwsHarness, calls_before: Counter[str]) -> None:
    run.dead_letters = harness.drain_dead_letters()
    run.failure_records = _failure_records(run.ports)
    run.half_written = _half_written(run.ports, run.outcomes)
    for (service, _, _, when), count in harness.faults.counts.items():
        run.faults[service] = run.faults.get(service, 0) + count
        run.faults_after_effect += count if when == "after" else 0
    run.calls = dict(harness.faults.calls - calls_before)


def test_faults_reach_every_aws_service_the_workflow_calls(aws_faults: FaultRun) -> None:
    # Then every service the runs called, from the faulty pass to the end of the replay, went
    # through the injector. (Whether a promotion's S3 and KB calls fall in the faulty pass or
    # only in the replay depends on which runs the faults stopped, so neither is required.)
    assert {"dynamodb", "s3", "comprehend", "bedrock-runtime", "bedrock-agent-runtime"} <= (
        aws_faults.seen
    )
    # And the busy services were called and hit while the faults were on
    assert {"dynamodb", "comprehend", "bedrock-runtime"} <= set(aws_faults.calls)
    assert {"dynamodb", "comprehend", "bedrock-runtime"} <= set(aws_faults.faults)
    # And some writes took effect before their reply failed (a 500 that "may have succeeded")
    assert aws_faults.faults_after_effect > 0


def test_throttled_steps_are_retried_and_some_runs_complete_at_once(aws_faults: FaultRun) -> None:
    assert aws_faults.retries > 0
    assert any(o.consolidated for o in aws_faults.outcomes)


def test_a_run_that_exhausts_its_retries_is_dead_lettered_with_its_error(
    aws_faults: FaultRun,
) -> None:
    # Then each failed delivery left one dead letter carrying the event and the error, and
    # the errors are the retryable ones the faults raise (nothing unmapped leaked through)
    assert aws_faults.failed
    letters = sorted((d["event"]["run_id"], d["error"]["Error"]) for d in aws_faults.dead_letters)
    failed = sorted((o.run_id, str(o.error and o.error["Error"])) for o in aws_faults.failed)
    assert letters == failed
    assert {error for _, error in letters} <= RETRYABLE
    # And a failed-run record for those still unfinished, with the step and the error
    for record in aws_faults.failure_records.values():
        assert record["error"]["Error"] in RETRYABLE and record["error"]["Step"]


def test_replaying_the_dead_letters_consolidates_every_run(aws_faults: FaultRun) -> None:
    # Given runs half-written when they were dead-lettered (an episode, but not every effect)
    assert aws_faults.half_written
    # Then after the replay the queue is empty and every run has its episode
    assert aws_faults.left == 0
    assert episode_problems(aws_faults.ports, aws_faults.expected) == []


def test_no_run_is_half_written_after_replay(aws_faults: FaultRun) -> None:
    # Then facts count each run once, feedback counts once, the scrubbed-artifacts records and
    # the episodes agree, and no failed-run record is left behind
    assert store_problems(aws_faults.ports, aws_faults.expected) == []


def test_a_redelivery_failing_after_its_run_completed_leaves_no_failure_record() -> None:
    with aws_harness(time_scale=TIME_SCALE) as harness:
        machine = harness.state_machine()
        event = seed_events(["acme"])[0]
        assert machine.run(event).consolidated
        # Given a redelivery whose first step is throttled through all of its retries
        for _ in range(6):
            harness.faults.force("GetItem", "ThrottlingException", 400)
        assert not machine.run(event).consolidated
        [letter] = harness.drain_dead_letters()
        # When the dead letter is replayed (extract finds the run consolidated in the ledger)
        seen = Counter(harness.faults.seen)
        assert machine.run(letter["event"]).consolidated
        # Then no failed-run record claims the run still needs replaying
        assert failed_runs(harness.ports(None).run_ledger) == []
        # And the replay read DynamoDB but called no model: no PII detector, no embedder, no
        # KB retrieve
        called = set(harness.faults.seen - seen)
        assert "dynamodb" in called
        assert not called & {"comprehend", "bedrock-runtime", "bedrock-agent-runtime"}


def test_kb_ingestion_meeting_a_running_job_waits_for_the_next_window() -> None:
    with aws_harness(fault_rate=0.5, seed=11, time_scale=TIME_SCALE) as harness:
        machine = harness.state_machine()
        # (three agents' runs, within seconds: one agent's would count once an hour)
        for number, agent in enumerate(("reviewer", "drafter", "auditor")):
            assert machine.run(_fact_run(f"kb-{number}", agent)).consolidated
        ports = harness.ports(None)
        assert ports.facts.awaiting_ingestion(limit=10).items
        ingest = harness.handler("ingest")
        # Given a knowledge base busy with another job, then refusing half of the calls to its
        # ingestion API (throttled, or another job running). A window reads the sharded
        # "awaiting ingestion" index page by page (dozens of DynamoDB requests), so DynamoDB
        # stays healthy here: its faults are the consolidation tests'.
        harness.faults.force("StartIngestionJob", *CONFLICT)
        harness.faults.services = frozenset({"bedrock-agent"})
        harness.faults.enabled = True
        # When the ingestion window runs
        first = ingest({})
        # Then it reports busy rather than failing
        assert first["status"] == "busy"
        # And later windows (some failing on a transient error) ingest everything staged
        reports, errors = _windows(harness, ingest)
        harness.faults.enabled = False
        assert ports.facts.awaiting_ingestion(limit=10).items == ()
        assert any(r["status"] == "complete" for r in reports)
        assert {type(e) for e in errors} <= {TransientError}
        assert harness.faults.injected > 1


def _windows(harness: AwsHarness, ingest: Any) -> tuple[list[Event], list[Exception]]:
    """Ingestion windows until nothing awaits ingestion (at most 30)."""
    reports: list[Event] = []
    errors: list[Exception] = []
    ports = harness.ports(None)
    for _ in range(30):
        try:
            reports.append(ingest({}))
        except Exception as error:  # the schedule simply runs the next window
            errors.append(error)
        if not ports.facts.awaiting_ingestion(limit=10).items:
            break
    return reports, errors


def _fact_run(run_id: str, agent_id: str = "reviewer") -> Event:
    return {
        "tenant_id": "acme",
        "agent_id": agent_id,
        "run_id": run_id,
        "task": "Review the vendor agreement",
        "domain": "contracts",
        "outcome": "COMPLETED",
        "artifacts": {
            "task_summary": "Reviewed the vendor agreement",
            "facts": [{"content": "Indemnity clauses deserve a second reader", "confidence": 0.9}],
        },
    }


# --- the real ASL on moto's Step Functions ----------------------------------------------------


@pytest.fixture(scope="module")
def asl_faults() -> Iterator[tuple[FaultRun, list[bool]]]:
    with aws_harness(fault_rate=FAULT_RATE, seed=9, time_scale=TIME_SCALE) as harness:
        seeds = seed_events(["acme"])
        for event in seeds:
            assert outcomes_of(harness, [harness.execute(event)])[0].consolidated
        approve_seeded(harness.ports, ["acme"])
        events = with_receipts(
            run_events(10, seed=9, tenants=("acme",), prefix="asl-faults", fact_pool=2),
            harness.ports,
        )
        calls_before = Counter(harness.faults.calls)
        seen_before = Counter(harness.faults.seen)
        harness.faults.enabled = True
        arns = [harness.execute(event, wait=False) for event in events]
        outcomes = outcomes_of(harness, arns)
        retried = [_retried(harness.history(arn)) for arn in arns]
        harness.faults.enabled = False
        run = FaultRun(harness.ports(None), expected_state([*seeds, *events]), outcomes)
        _record_first_pass(run, harness, calls_before)
        run.replays, left = harness.replay_dead_letters(
            lambda e: harness.wait(harness.execute(e, wait=False)), list(run.dead_letters)
        )
        run.left = len(left)
        run.seen = set(harness.faults.seen - seen_before)
        yield run, retried


def _retried(history: list[dict[str, Any]]) -> bool:
    """Whether a task failed and was scheduled again within the execution (Retry)."""
    types = Counter(e["type"] for e in history)
    return types["TaskFailed"] > 0 and types["TaskScheduled"] > types["TaskStateEntered"]


def test_the_state_machine_retries_failed_tasks_and_dead_letters_the_rest(
    asl_faults: tuple[FaultRun, list[bool]],
) -> None:
    run, retried = asl_faults
    # Then tasks that failed were attempted again (Retry)
    assert any(retried)
    # And every failed execution sent one letter to the dead-letter queue (Catch): naming
    # its run when RecordFailedRun recorded it, else (that task failed too) its execution
    assert len(run.dead_letters) == len(run.failed)
    recorded = [
        d["failure"]["record"]["run_id"] for d in run.dead_letters if "record" in d["failure"]
    ]
    assert set(recorded) <= {o.run_id for o in run.failed}
    assert all(d["execution"] for d in run.dead_letters)


def test_replaying_through_the_state_machine_leaves_no_run_half_written(
    asl_faults: tuple[FaultRun, list[bool]],
) -> None:
    run, _ = asl_faults
    assert run.left == 0
    assert store_problems(run.ports, run.expected) == []


# --- the embedded memory, its SQLite database locked by another writer ------------------------


@pytest.fixture(scope="module")
def local_faults(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[FaultRun, int]]:
    locked = locked_memory(tmp_path_factory.mktemp("locks"), rate=0.0, seed=3)
    memory = locked.memory
    machine = local_state_machine(memory)
    seeds = seed_events()
    for event in seeds:
        assert machine.run(event).consolidated
    approve_seeded(lambda _: memory.ports)
    events = with_receipts(run_events(150, seed=3, prefix="locks"), lambda _: memory.ports)
    plan = schedule(events, duplicate_share=0.3, concurrent_share=0.5, seed=3)
    # When a fifth of the write transactions meet another connection's write lock
    locked.database.rate = FAULT_RATE
    outcomes = deliver(plan, machine.run)
    locked.database.rate = 0.0
    run = FaultRun(memory.ports, expected_state([*seeds, *events]), outcomes)
    run.failure_records = _failure_records(memory.ports)
    run.half_written = _half_written(memory.ports, outcomes)
    run.retries = sum(machine.retries.values())
    # Then, the lock gone, the runs whose failure could not be recorded either are delivered
    # again by their caller, and `agent-memory failed replay` completes the recorded ones
    redeliver_unrecorded(machine, outcomes)
    run.replays, run.left = replay_failed(memory)
    yield run, locked.database.locked


def test_a_locked_database_raises_transient_errors_that_are_retried(
    local_faults: tuple[FaultRun, int],
) -> None:
    run, locked = local_faults
    assert locked > 0 and run.retries > 0
    assert {str(o.error and o.error["Error"]) for o in run.failed} <= {"TransientError"}


def test_a_run_that_stays_locked_out_is_recorded_with_its_error(
    local_faults: tuple[FaultRun, int],
) -> None:
    run, _ = local_faults
    assert run.failed
    # Then each failed run has a failed-run record with the error (marked resolved when the
    # run was completed meanwhile), unless another delivery of the run completed it and
    # cleared the record (a redelivery succeeding is as good as a replay)
    recorded = {r["event"]["run_id"] for r in run.failure_records.values()}
    completed = {o.run_id for o in run.outcomes if o.consolidated}
    assert {o.run_id for o in run.failed if o.recorded} - completed <= recorded
    assert all(r["error"]["Error"] == "TransientError" for r in run.failure_records.values())
    assert any(not r.get("resolved") for r in run.failure_records.values())


def test_replaying_failed_runs_leaves_no_run_half_written_locally(
    local_faults: tuple[FaultRun, int],
) -> None:
    run, _ = local_faults
    assert run.half_written  # the replay had partial runs to complete
    assert run.left == 0
    assert store_problems(run.ports, run.expected) == []


def test_a_write_lock_held_by_another_process_fails_the_run_without_writing(
    tmp_path: Path,
) -> None:
    memory = locked_memory(tmp_path, rate=0.0, seed=0).memory
    [event] = run_events(1, seed=1, tenants=("acme",))
    # Given another process holding the database's write lock
    with lock_from_another_process(str(tmp_path / DATABASE_FILE)):
        # When a run is consolidated, its writes wait busy_timeout and fail as transient
        with pytest.raises(TransientError):
            consolidate_or_record(event, memory.ports)
        # Then nothing of it was written (not even its failure record, which needs the lock
        # too: the caller holds the event and the error)
        assert list(memory.ports.episodes.export("acme")) == []
        assert ledger_contents(memory.ports) == []
    # And once the lock is released the same event consolidates completely
    consolidate_or_record(event, memory.ports)
    assert store_problems(memory.ports, expected_state([event])) == []
