"""An execution that ends without its Catch (aborted here; timed out alike) leaves its run
half-done: the incomplete listing finds it on DynamoDB, the status-change rule's input makes it
a failed run, and replaying it completes the run once.
"""

from __future__ import annotations

import importlib
import json
import time
from typing import Any

from agent_memory.core.tiers.semantic import fact_hash
from agent_memory.core.workflows.consolidation import (
    INCOMPLETE_AFTER_SECONDS,
    runs_to_replay,
)
from tests.resilience.helpers_kill import stopped_mid_step
from tests.support.lambda_context import LambdaContext
from tests.support.memory import run_event
from tests.workflow.conftest import Workflow, eventbridge_event

TENANT = "wf-abort"
FACT = "Liability caps below 1x fees are a red flag"


def record_failure(payload: dict[str, Any]) -> Any:
    handler = importlib.import_module("functions.record_failure.handler").handler
    return handler(payload, LambdaContext("record_failure"))


def test_an_aborted_execution_is_found_recorded_and_replayed_once(workflow: Workflow) -> None:
    # Given a run whose execution was stopped in WriteEpisode
    event = eventbridge_event(run_event("wf-abort-1", tenant_id=TENANT))
    stopped = stopped_mid_step(
        workflow.runtime, workflow.sfn, lambda: workflow.start(event), workflow.wait
    )
    arn = stopped["executionArn"]
    # Then its Catch did not run: no RecordFailedRun, no dead letter, and no episode. (AWS
    # says ABORTED; moto says FAILED, with the dying task's error. The rule matches both.)
    assert stopped["status"] in {"ABORTED", "FAILED"}
    states = [
        e["stateEnteredEventDetails"]["name"]
        for e in workflow.history(arn)
        if "stateEnteredEventDetails" in e
    ]
    assert "WriteEpisode" in states and "RecordFailedRun" not in states
    assert workflow.dead_letters() == []
    ports = workflow.runtime.ports(None)
    assert list(ports.episodes.export(TENANT)) == []
    # Then, once no execution could still be working on it, the DynamoDB ledger lists it
    later = time.time() + INCOMPLETE_AFTER_SECONDS
    runs = runs_to_replay(ports.run_ledger, now=later)
    key = f"{TENANT}#run#reviewer/wf-abort-1"
    assert key in [entry.key for entry in runs.incomplete]
    assert not [r for r in runs.failed if r.key.startswith(f"{TENANT}#")]
    # When Step Functions reports the abort, and the rule hands the recorder what the
    # infrastructure tests show it renders from that event
    payload = {"execution": arn, "error": {"Error": stopped["status"], "Cause": "ended early"}}
    record_failure(payload)
    # Then the run is a failed run, read back from its execution, listed once
    runs = runs_to_replay(ports.run_ledger, now=later)
    [failed] = [r for r in runs.failed if r.key.startswith(f"{TENANT}#")]
    assert failed.key == f"{TENANT}#failed#reviewer/wf-abort-1" and failed.failures == 1
    assert failed.event == event and key not in [e.key for e in runs.incomplete]
    # And the same report delivered again counts no second failure
    record_failure(payload)
    again = ports.run_ledger.entry(failed.key, now=time.time())
    assert again is not None and again.value["failures"] == 1
    # When it is replayed from its execution's input (as `failed replay` does on a stack)
    described = workflow.sfn.describe_execution(executionArn=arn)
    assert workflow.run(json.loads(described["input"]))["status"] == "SUCCEEDED"
    # Then the run is whole: one episode, its fact counted once, nothing left to replay
    assert len(list(ports.episodes.export(TENANT))) == 1
    fact = ports.facts.get(TENANT, "contracts", fact_hash(FACT))
    assert fact is not None and fact.run_ids == {"reviewer/wf-abort-1"}
    runs = runs_to_replay(ports.run_ledger, now=later)
    mine = [r for r in (*runs.failed, *runs.incomplete) if r.key.startswith(f"{TENANT}#")]
    assert mine == []
