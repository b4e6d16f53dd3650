"""The consolidation state machine end to end: success, retry, catch to the dead-letter queue."""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from botocore.exceptions import ClientError

from agent_memory.core.model.errors import TransientError
from agent_memory.core.ports import PiiEntity
from tests.support.memory import run_event
from tests.workflow.conftest import Workflow, eventbridge_event

TASKS = ["extract", "scrub", "write_episode", "confirm_facts", "stage_kb_docs", "propose_procedure"]


def item_count(workflow: Workflow, table: str) -> int:
    return int(workflow.dynamodb.scan(TableName=f"agent-memory-{table}", Select="COUNT")["Count"])


def output(execution: dict[str, Any]) -> dict[str, Any]:
    return dict(json.loads(execution["output"]))


def test_a_run_is_consolidated_through_every_step_in_order(workflow: Workflow) -> None:
    # Given a RunFinished event as EventBridge delivers it
    workflow.invocations.clear()
    event = eventbridge_event(run_event("wf-ok-1", tenant_id="wf-ok"))
    # When the state machine runs it
    execution = workflow.run(event)
    # Then every Task ran once, in the ASL's order, and the run reached every store
    assert execution["status"] == "SUCCEEDED", execution
    assert workflow.invocations == TASKS
    state = output(execution)
    assert state["episode"] == {"written": True}
    assert len(state["facts"]["observed"]) == 1
    assert state["procedure"]["created"] is True
    episode = workflow.runtime.ports("wf-ok").episodes.get(
        "wf-ok", "reviewer", "wf-ok-1", now=workflow.runtime.ports(None).clock()
    )
    assert episode is not None and episode.outcome == "COMPLETED"


def test_a_fact_seen_by_three_runs_is_staged_as_a_kb_document(workflow: Workflow) -> None:
    # Three agents' runs, one redelivered, within seconds: one agent's runs would count as
    # independent confirmations only an hour apart
    runs = [("wf-kb-1", "reviewer"), ("wf-kb-2", "drafter"), ("wf-kb-2", "drafter")]
    for run_id, agent in [*runs, ("wf-kb-3", "auditor")]:
        event = run_event(run_id, tenant_id="wf-kb", agent_id=agent)
        execution = workflow.run(eventbridge_event(event))
        assert execution["status"] == "SUCCEEDED"
    assert output(execution)["kb"]["staged"]
    keys = [
        o["Key"]
        for o in workflow.s3.list_objects_v2(
            Bucket="agent-memory-kb-docs", Prefix="tenants/wf-kb/"
        )["Contents"]
    ]
    assert len(keys) == 2 and any(k.endswith(".txt.metadata.json") for k in keys)


def test_a_redelivered_event_writes_nothing_twice(workflow: Workflow) -> None:
    event = eventbridge_event(run_event("wf-dup-1", tenant_id="wf-dup"))
    first = workflow.run(event)
    second = workflow.run(event)
    assert first["status"] == second["status"] == "SUCCEEDED"
    ports = workflow.runtime.ports("wf-dup")
    [fact] = list(ports.facts.export("wf-dup"))
    assert fact.run_ids == {"reviewer/wf-dup-1"}
    assert len(list(ports.episodes.export("wf-dup"))) == 1


class GatedEmbedder:
    """Holds its first ``embed_documents`` call until ``gate`` opens: a slow WriteEpisode.
    ``holding`` is set once that call is held.
    """

    def __init__(self, inner: Any) -> None:
        self.inner, self.gate, self.holding = inner, threading.Event(), threading.Event()
        self.model_id, self.dimension = inner.model_id, inner.dimension
        self._first = threading.Lock()

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        if self._first.acquire(blocking=False):
            self.holding.set()
            self.gate.wait(timeout=30)
        return np.asarray(self.inner.embed_documents(texts), dtype=np.float32)

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        return np.asarray(self.inner.embed_query(text), dtype=np.float32)


def _failed_with(workflow: Workflow, arn: str) -> list[str]:
    return [
        e["taskFailedEventDetails"]["error"]
        for e in workflow.history(arn)
        if e["type"] == "TaskFailed"
    ]


def test_twin_deliveries_inside_one_step_both_succeed_and_write_the_run_once(
    workflow: Workflow,
) -> None:
    # Given a run delivered twice at once, the first delivery held inside WriteEpisode (its
    # episode not yet written)
    embedder = GatedEmbedder(workflow.runtime.embedder)
    workflow.runtime.embedder = embedder
    event = eventbridge_event(run_event("wf-twin-1", tenant_id="wf-twin"))
    try:
        first = workflow.start(event)
        assert embedder.holding.wait(timeout=30), "the first delivery never reached WriteEpisode"
        # When its twin runs every step meanwhile, WriteEpisode included, and then the first
        # delivery goes on
        twin = workflow.start(event)
        twin_ended = workflow.wait(twin)
        embedder.gate.set()
        first_ended = workflow.wait(first)
    finally:
        embedder.gate.set()
        workflow.runtime.embedder = embedder.inner
    # Then both succeeded without a task failing: neither waited for the other
    assert [twin_ended["status"], first_ended["status"]] == ["SUCCEEDED", "SUCCEEDED"]
    assert _failed_with(workflow, first) == _failed_with(workflow, twin) == []
    # And the twin continued from the run's recorded scrub and wrote the episode; the first
    # delivery's conditional put found it present
    assert output(twin_ended)["extracted_by"] == "ledger"
    assert output(twin_ended)["episode"] == {"written": True}
    assert output(first_ended)["episode"] == {"written": False}
    # And the stores hold the run once: one episode, the fact sighted and confirmed by it
    # once, the procedure proposed by it once
    ports = workflow.runtime.ports("wf-twin")
    assert len(list(ports.episodes.export("wf-twin"))) == 1
    [fact] = list(ports.facts.export("wf-twin"))
    assert (fact.run_ids, fact.sightings, fact.confirmations) == ({"reviewer/wf-twin-1"}, 1, 1)
    [procedure] = list(ports.procedures.export("wf-twin"))
    assert (procedure.source_run_ids, procedure.proposals) == ({"reviewer/wf-twin-1"}, 1)


class FlakyDetector:
    """Throttled on its first call, then fine."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.calls = inner, 0

    @property
    def max_chunk_chars(self) -> int:
        return int(self.inner.max_chunk_chars)

    def detect(self, text: str) -> list[PiiEntity]:
        self.calls += 1
        if self.calls == 1:
            raise TransientError("ThrottlingException: slow down")
        return list(self.inner.detect(text))


def test_a_transient_error_is_retried_and_the_run_completes(workflow: Workflow) -> None:
    # Given a PII detector that is throttled once
    flaky = FlakyDetector(workflow.pii)
    workflow.runtime.pii = flaky
    try:
        execution = workflow.run(eventbridge_event(run_event("wf-retry-1", tenant_id="wf-retry")))
    finally:
        workflow.runtime.pii = workflow.pii
    # Then the Scrub task failed once, was retried by the state machine, and the run succeeded
    assert execution["status"] == "SUCCEEDED"
    failures = [
        e
        for e in workflow.history(execution["executionArn"])
        if e["type"] in {"TaskFailed", "LambdaFunctionFailed"}
    ]
    assert len(failures) == 1 and flaky.calls == 2


def test_a_failing_run_lands_in_the_dead_letter_queue_and_replays(workflow: Workflow) -> None:
    # Given a PII detector that is down (fail closed: not retried)
    workflow.pii.fail = True
    event = eventbridge_event(run_event("wf-dlq-1", tenant_id="wf-dlq"))
    try:
        execution = workflow.run(event)
    finally:
        workflow.pii.fail = False
    # Then the execution failed, nothing was written, the run was recorded and dead-lettered
    assert execution["status"] == "FAILED"
    ports = workflow.runtime.ports("wf-dlq")
    assert list(ports.episodes.export("wf-dlq")) == []
    records = [e.value for e in ports.run_ledger.failures("wf-dlq")]
    assert [r["error"]["Error"] for r in records] == ["PiiDetectionFailed"]
    [letter] = workflow.dead_letters()
    # The dead letter names the run and its execution, and carries no event
    assert "event" not in letter["failure"]["record"]
    assert event["detail"]["task"] not in json.dumps(letter)
    assert letter["execution"] == execution["executionArn"]
    record = letter["failure"]["record"]
    assert (record["tenant_id"], record["run_id"]) == ("wf-dlq", "wf-dlq-1")
    assert record["error"]["Error"] == "PiiDetectionFailed"
    # When the run is replayed from its execution's input with the detector back
    described = workflow.sfn.describe_execution(executionArn=letter["execution"])
    replayed = workflow.run(json.loads(described["input"]))
    # Then the run is consolidated and its failure record cleared
    assert replayed["status"] == "SUCCEEDED"
    assert len(list(ports.episodes.export("wf-dlq"))) == 1
    assert list(ports.run_ledger.failures("wf-dlq")) == []


def test_an_invalid_event_is_dead_lettered_without_any_write(workflow: Workflow) -> None:
    bad = run_event("wf-bad-1", tenant_id="wf-bad")
    bad["artifacts"]["facts"] = [{"content": "x", "confidence": 7}]
    execution = workflow.run(eventbridge_event(bad))
    assert execution["status"] == "FAILED"
    retried = [e for e in workflow.history(execution["executionArn"]) if e["type"] == "TaskFailed"]
    assert len(retried) <= 1  # InvalidInput is not retried
    [letter] = workflow.dead_letters()
    assert letter["failure"]["record"]["error"]["Error"] == "InvalidInput"
    assert "artifacts.facts[0].confidence" in letter["failure"]["record"]["error"]["Cause"]
    assert list(workflow.runtime.ports("wf-bad").episodes.export("wf-bad")) == []


def test_a_tenant_session_cannot_reach_another_tenants_keys(workflow: Workflow) -> None:
    # Given the ports of tenant wf-iso, whose client is narrowed like a LeadingKeys session
    ports = workflow.runtime.ports("wf-iso")
    # When they are asked for another tenant's episode, the store is refused, as IAM would
    with pytest.raises(ClientError, match="AccessDenied"):
        ports.episodes.get("wf-ok", "reviewer", "wf-ok-1", now=0.0)
