"""The state machine's output holds the run's summary: each fact's standing under the tenant's
rule, where the proposed procedure waits for review on AWS, and a reused run_id with nothing
written (moto's Step Functions, DynamoDB and S3)."""

from __future__ import annotations

import json
from typing import Any

from tests.support.memory import run_event
from tests.workflow.conftest import Workflow, eventbridge_event


def summary_of(workflow: Workflow, detail: dict[str, Any]) -> dict[str, Any]:
    execution = workflow.run(eventbridge_event(detail))
    assert execution["status"] == "SUCCEEDED", execution
    said: dict[str, Any] = json.loads(execution["output"])["summary"]
    return said


def test_one_agents_runs_say_why_they_do_not_count_and_where_to_review(
    workflow: Workflow,
) -> None:
    # Given one agent's run that reported a fact and proposed its procedure
    first = summary_of(workflow, run_event("wf-sum-1", tenant_id="wf-sum"))
    # When the same agent's next run reports the fact again at once
    second = summary_of(workflow, run_event("wf-sum-2", tenant_id="wf-sum"))
    # Then the first counted, the second says why not, and review is the stack's function
    assert first["facts"][0]["counted"] is True
    assert "1 of 3 independent runs, not confirmed yet (this run counted)" in first["notes"][0]
    assert second["facts"][0]["counted"] is False
    assert "this run did not count" in second["notes"][0]
    assert second["notes"][0].endswith("another agent's run counts at once")
    review = first["procedure_review"]
    assert review["waits_for_review"] is True
    assert review["where"] == (
        "the stack's procedure-review function (ProcedureReviewFunctionName) with "
        '{"action": "list", "tenant_id": "wf-sum", "status": "PENDING"}'
    )


def test_a_reused_run_id_is_reported_and_writes_nothing(workflow: Workflow) -> None:
    # Given a run consolidated on the stack
    tenant = "wf-reuse"
    summary_of(workflow, run_event("wf-reuse-1", tenant_id=tenant))
    ports = workflow.runtime.ports(tenant)
    procedures = sorted(p.procedure_id for p in ports.procedures.export(tenant))
    # When the same event arrives again (a new envelope), then another run under its id
    replay = summary_of(workflow, run_event("wf-reuse-1", tenant_id=tenant))
    other = run_event("wf-reuse-1", tenant_id=tenant, task="Draft the renewal letter")
    other["artifacts"]["procedure"] = {"title": "Renewal", "steps": ["Check the notice"]}
    reused = summary_of(workflow, other)
    # Then the replay is marked, the other run is reported, and no store took it
    assert replay["already_consolidated"] is True and replay["run_id_reused"] is False
    assert reused["run_id_reused"] is True and reused["procedure_proposed"] is None
    assert reused["notes"] == [
        "nothing written: run_id wf-reuse-1 was already consolidated with different content "
        "(an exact replay is consolidated once; a new run needs its own run_id)"
    ]
    assert sorted(p.procedure_id for p in ports.procedures.export(tenant)) == procedures
    episode = ports.episodes.get(tenant, "reviewer", "wf-reuse-1", now=ports.clock())
    assert episode is not None and episode.task == "Review the vendor MSA liability cap"
