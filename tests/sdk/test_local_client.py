"""MemoryClient in local mode: the embedded core, with consolidation in the background."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from agent_memory.core.ports import PiiEntity
from agent_memory.core.workflows.consolidation import failed_runs
from agent_memory.sdk import (
    ClientClosedError,
    ConflictError,
    ConsolidationError,
    EventTooLargeError,
    InvalidInputError,
    MemoryClient,
    NotFoundError,
)
from agent_memory.sdk.events import MAX_DETAIL_BYTES
from agent_memory.wiring.local_settings import HOME_VARIABLE
from tests.sdk.conftest import LocalMemory, make_local, run_event
from tests.support.embedder import HashingEmbedder
from tests.support.fakes import FakePiiDetector
from tests.support.ledger import ledger_contents


class GatedPii(FakePiiDetector):
    """A PII detector that holds every call until the test opens the gate."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = threading.Event()

    def detect(self, text: str) -> list[PiiEntity]:
        assert self.gate.wait(10), "the test never opened the gate"
        return super().detect(text)


class BrokenChat:
    """A chat model whose service is down."""

    def complete(self, system: str, user: str) -> str:
        raise ConnectionError("model endpoint unreachable")


def test_finished_run_is_consolidated_and_wait_returns_the_summary(local: LocalMemory) -> None:
    handle = local.client.finish_run(run_event("run-1"))

    result = handle.wait(timeout=30)

    assert result["status"] == "CONSOLIDATED"
    assert (result["run_id"], result["tenant_id"]) == ("run-1", "acme")
    assert result["episode"] == "written"
    assert result["procedure_created"] is True
    assert handle.done() and handle.event_id is None


def test_consolidation_runs_in_the_background(tmp_path: Path) -> None:
    # Given a store whose PII detector holds every call
    pii = GatedPii()
    memory = make_local(tmp_path, pii=pii)
    try:
        # When a run is finished
        handle = memory.client.finish_run(run_event("run-1"))
        # Then finish_run has returned while the consolidation waits
        assert not handle.done()
        with pytest.raises(TimeoutError):
            handle.wait(timeout=0.05)
        pii.gate.set()
        assert handle.wait(timeout=30)["episode"] == "written"
    finally:
        pii.gate.set()
        memory.client.close()


def test_second_run_is_bootstrapped_from_the_first(local: LocalMemory) -> None:
    local.client.finish_run(run_event("run-1")).wait(timeout=30)

    reply = local.client.bootstrap(
        "acme", "reviewer", "Review the Tailspin MSA liability cap", task_type="contract_review"
    )

    assert "[EPISODIC MEMORY" in reply["context"]
    assert "Clause 7.3 caps liability" in reply["context"]
    assert [e["run_id"] for e in reply["episodes"]] == ["run-1"]
    assert reply["procedure"] is None  # proposed, not yet validated by a human
    assert reply["timings_ms"]["total"] > 0


def test_nothing_remembered_yet_gives_an_empty_context(local: LocalMemory) -> None:
    reply = local.client.bootstrap("acme", "reviewer", "Review the Tailspin MSA")

    assert reply["context"] == ""
    assert reply["episodes"] == [] and reply["facts"] == []


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"run_id": "run/1"}, "run_id"),
        ({"tenant_id": "a#b"}, "tenant_id"),
        ({"task": "   "}, "task"),
        ({"outcome": "DONE"}, "outcome"),
        ({"surprise": 1}, "surprise"),
        (
            {"artifacts": {"facts": [{"content": "Caps below 1x are red", "confidence": 2}]}},
            "artifacts.facts[0].confidence",
        ),
    ],
)
def test_invalid_event_is_refused_before_anything_is_written(
    local: LocalMemory, overrides: dict[str, Any], field: str
) -> None:
    with pytest.raises(InvalidInputError) as refused:
        local.client.finish_run({**run_event("run-1"), **overrides})

    assert refused.value.field == field
    local.client.close()
    ports = local.ports()
    assert ledger_contents(ports) == []
    assert ports.episodes.recent("acme", "reviewer", now=ports.clock(), limit=10).items == ()


def test_a_run_the_bus_would_refuse_is_refused_locally_too(local: LocalMemory) -> None:
    # Given a run past the SDK's 255 KiB detail (the AWS backend cannot send it)
    messages = [{"role": "ai", "content": "x" * 150_000} for _ in range(2)]
    # When it is reported to the local memory
    with pytest.raises(EventTooLargeError) as refused:
        local.client.finish_run(run_event("run-1", messages=messages))
    # Then it is refused as the AWS backend refuses it, and nothing is written
    assert refused.value.limit == MAX_DETAIL_BYTES
    local.client.close()
    assert ledger_contents(local.ports()) == []


def test_a_million_unknown_keys_are_refused_before_any_field_is_validated(
    local: LocalMemory,
) -> None:
    # Given an event with a million unknown keys (validated one by one: ~1 GB of errors)
    event = {**run_event("run-1"), **{f"k{i}": 0 for i in range(1_000_000)}}
    # Then the SDK refuses the object whole, naming it
    with pytest.raises(InvalidInputError) as refused:
        local.client.finish_run(event)
    assert refused.value.field == "event"
    assert "at most 64" in refused.value.message


def test_missing_required_field_is_named(local: LocalMemory) -> None:
    with pytest.raises(InvalidInputError) as refused:
        local.client.finish_run(tenant_id="acme", agent_id="reviewer", task="Review the MSA")

    assert refused.value.field == "run_id"


def test_event_can_be_a_mapping_keyword_fields_or_an_eventbridge_event(
    local: LocalMemory,
) -> None:
    envelope = {"detail-type": "RunFinished", "source": "acme", "detail": run_event("run-1")}

    first = local.client.finish_run(envelope)
    second = local.client.finish_run(run_event("run-2"), outcome="FAILED")
    third = local.client.finish_run(**run_event("run-3"))

    assert first.wait(timeout=30)["outcome"] == "COMPLETED"
    assert second.wait(timeout=30)["outcome"] == "FAILED"  # keyword fields win
    assert third.wait(timeout=30)["episode"] == "written"


def test_invalid_bootstrap_request_names_the_field(local: LocalMemory) -> None:
    with pytest.raises(InvalidInputError) as refused:
        local.client.bootstrap("acme", "reviewer", "Review", task_type="contract review")

    assert refused.value.field == "task_type"


def test_failed_step_is_raised_by_wait_and_recorded_for_replay(tmp_path: Path) -> None:
    # Given a store whose PII detector is down (scrub fails closed)
    pii = FakePiiDetector()
    pii.fail = True
    memory = make_local(tmp_path, pii=pii)

    # When a run is finished and waited for
    with pytest.raises(ConsolidationError) as failed:
        memory.client.finish_run(run_event("run-1")).wait(timeout=30)
    memory.client.close()

    # Then the error names the step, and the run waits for replay under its key
    assert failed.value.step == "scrub"
    assert failed.value.replay_key == "acme#failed#reviewer/run-1"
    assert [r.key for r in failed_runs(memory.ports().run_ledger)] == [failed.value.replay_key]


def test_failed_extraction_is_recorded_for_replay_too(tmp_path: Path) -> None:
    memory = make_local(tmp_path, chat=BrokenChat())
    event = run_event("run-1", messages=[{"role": "human", "content": "Review the MSA"}])
    del event["artifacts"]

    with pytest.raises(ConsolidationError) as failed:
        memory.client.finish_run(event).wait(timeout=30)
    memory.client.close()

    assert failed.value.step == "extract"
    assert isinstance(failed.value.cause, ConnectionError)
    recorded = failed_runs(memory.ports().run_ledger)
    assert [r.error["Step"] for r in recorded] == ["extract"]


def test_close_finishes_queued_runs_and_refuses_new_ones(tmp_path: Path) -> None:
    memory = make_local(tmp_path)
    handles = [memory.client.finish_run(run_event(f"run-{i}")) for i in range(3)]

    memory.client.close()

    assert all(h.done() for h in handles)
    with pytest.raises(ClientClosedError):
        memory.client.finish_run(run_event("run-4"))


def test_context_manager_closes_the_client(tmp_path: Path) -> None:
    with make_local(tmp_path).client as client:
        handle = client.finish_run(run_event("run-1"))
    assert handle.done()


def test_default_store_is_agent_memory_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(HOME_VARIABLE, str(tmp_path / "home"))

    with MemoryClient.local(embedder=HashingEmbedder(), pii=FakePiiDetector()) as client:
        assert client.mode == "local"

    assert (tmp_path / "home" / "memory.db").exists()


def approved(local: LocalMemory) -> str:
    """A proposed procedure a reviewer validated; its id."""
    local.client.finish_run(run_event("run-1")).wait(timeout=30)
    [proposed] = local.client.list_procedures("acme", status="PENDING")
    local.client.approve_procedure("acme", proposed["procedure_id"], reviewer="legal-lead")
    return proposed["procedure_id"]


def served(client: MemoryClient, agent_id: str = "reviewer") -> Any:
    reply = client.bootstrap(
        "acme", agent_id, "Review the Tailspin MSA", task_type="contract_review"
    )
    assert reply["procedure"] is not None
    return reply["procedure"]


def test_procedure_feedback_is_counted_once_per_run(local: LocalMemory) -> None:
    # Given a validated procedure, served to a run at its bootstrap
    procedure_id = approved(local)
    assert served(local.client)["procedure_id"] == procedure_id

    # When the run reports on it, and the same run reports again
    first = local.client.record_procedure_result(
        "acme", "reviewer", "run-2", procedure_id, True, task="Review the MSA"
    ).wait(timeout=30)
    again = local.client.record_procedure_result(
        "acme", "reviewer", "run-2", procedure_id, True, task="Review the MSA"
    ).wait(timeout=30)

    # Then it counted once
    assert first["procedure_feedback"] == {
        "procedure_id": procedure_id,
        "counted": True,
        "reason": None,
    }
    assert not (again["procedure_feedback"] or {}).get("counted")
    shown = local.client.get_procedure("acme", procedure_id)
    assert (shown["times_applied"], shown["times_succeeded"]) == (1, 1)


def test_a_finished_run_carries_its_bootstraps_receipt_without_being_given_it(
    local: LocalMemory,
) -> None:
    # Given a run bootstrapped with the client and served a procedure
    procedure_id = approved(local)
    served(local.client)
    # When it finishes reporting on the procedure, naming only its id
    result = local.client.finish_run(
        run_event("run-2", procedure_feedback={"procedure_id": procedure_id, "succeeded": True})
    ).wait(timeout=30)
    # Then the client added the receipt, and the report counted
    assert result["procedure_feedback"]["counted"] is True  # type: ignore[index]


def test_two_runs_served_at_once_each_count_with_a_receipt_of_their_own(
    local: LocalMemory,
) -> None:
    # Given two runs of one agent bootstrapped before either finished
    procedure_id = approved(local)
    served(local.client)
    served(local.client)
    # When both report on the procedure, and then a third that was never bootstrapped
    reports = [
        local.client.record_procedure_result(
            "acme", "reviewer", run_id, procedure_id, False, task="Review the MSA"
        ).wait(timeout=30)["procedure_feedback"]
        for run_id in ("run-2", "run-3", "run-4")
    ]
    # Then the two served runs count, and the third, with no receipt left, does not
    assert [(r["counted"], r["reason"]) for r in reports] == [  # type: ignore[index]
        (True, None),
        (True, None),
        (False, "no receipt"),
    ]


def test_a_report_from_an_agent_never_served_is_sent_and_not_counted(local: LocalMemory) -> None:
    # Given a procedure served to the reviewer only
    procedure_id = approved(local)
    served(local.client, "reviewer")
    # When another agent of the tenant reports on it
    result = local.client.record_procedure_result(
        "acme", "intern", "run-2", procedure_id, False, task="Review the MSA"
    ).wait(timeout=30)
    # Then the run is consolidated, and its report not counted
    assert result["procedure_feedback"] == {
        "procedure_id": procedure_id,
        "counted": False,
        "reason": "no receipt",
    }
    assert local.client.get_procedure("acme", procedure_id)["times_applied"] == 0


def test_a_receipt_handed_out_elsewhere_counts_when_passed(local: LocalMemory) -> None:
    # Given a receipt one process was handed at bootstrap
    procedure_id = approved(local)
    receipt = served(local.client)["receipt"]
    # When another client (another process) reports the run with it
    with MemoryClient.local(
        local.store, embedder=HashingEmbedder(), pii=FakePiiDetector()
    ) as elsewhere:
        result = elsewhere.record_procedure_result(
            "acme", "reviewer", "run-2", procedure_id, True, task="Review the MSA", receipt=receipt
        ).wait(timeout=30)
    # Then it counts
    assert result["procedure_feedback"]["counted"] is True  # type: ignore[index]


def test_procedure_review_goes_through_the_human_gate(local: LocalMemory) -> None:
    local.client.finish_run(run_event("run-1")).wait(timeout=30)
    [proposed] = local.client.list_procedures("acme")
    procedure_id = proposed["procedure_id"]

    rejected = local.client.reject_procedure(
        "acme", procedure_id, reviewer="legal-lead", reason="step 2 is vague"
    )

    assert rejected["status"] == "REJECTED"
    assert rejected["review_note"] == "step 2 is vague"
    with pytest.raises(ConflictError):
        local.client.reject_procedure("acme", procedure_id, reviewer="legal-lead", reason="again")
    with pytest.raises(NotFoundError):
        local.client.get_procedure("other-tenant", procedure_id)
    with pytest.raises(InvalidInputError) as refused:
        local.client.reject_procedure("acme", procedure_id, reviewer="legal-lead", reason=" ")
    assert refused.value.field == "reason"
