"""Procedure feedback counts only from a run that was served the procedure.

Red team: an agent never served a procedure sent three ``succeeded: false`` reports; each was
counted and decay pulled the procedure. Now bootstrap hands out a signed serving receipt
(tenant, agent, procedure, time), feedback must carry it, and a receipt counts once; the
consolidation summary says why a report did not count.
"""

from __future__ import annotations

import base64
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from agent_memory.core.model import receipts
from agent_memory.core.model.policies import DAY
from agent_memory.core.tiers import procedural
from agent_memory.core.workflows.consolidation import consolidate, summary
from agent_memory.core.workflows.decay import decay
from tests.support.memory import Memory, make_memory, run_event
from tests.support.serving import feedback, serve

TENANT, AGENT, TASK_TYPE = "acme", "reviewer", "contract_review"
SCHEMA = Path(__file__).parents[2] / "src/agent_memory/schemas/run_finished.schema.json"


@pytest.fixture
def memory(tmp_path: Path) -> Memory:
    return make_memory(tmp_path)


def validated(memory: Memory, *, task_type: str = TASK_TYPE, run_id: str = "seed") -> str:
    """A procedure of ``task_type`` a run proposed and a reviewer approved; its id."""
    event = run_event(run_id, task_type=task_type)
    event["artifacts"]["procedure"] = {
        "title": f"{task_type} review",
        "steps": [f"Read the {task_type} file", "Compare the cap"],
    }
    proposed = summary(consolidate(event, memory.ports))["procedure_proposed"]
    procedural.review(
        memory.ports.procedures, proposed, approve=True, reviewer="lead", now=memory.clock()
    )
    return str(proposed)


def report(memory: Memory, run_id: str, procedure_feedback: dict[str, Any], **event: Any) -> Any:
    """Consolidate a run carrying ``procedure_feedback``; what its summary says of it."""
    run = run_event(run_id, procedure_feedback=procedure_feedback, **event)
    return summary(consolidate(run, memory.ports))["procedure_feedback"]


def record(memory: Memory, procedure_id: str) -> tuple[int, int]:
    stored = memory.ports.procedures.get(procedure_id)
    assert stored is not None
    return stored.times_applied, stored.times_succeeded


def run_decay(memory: Memory) -> Any:
    p = memory.ports
    return decay(
        p.episodes,
        p.facts,
        p.procedures,
        p.run_ledger,
        p.checkpoints,
        now=memory.clock(),
        policy=p.policies.decay,
    )


def test_an_agent_never_served_a_procedure_cannot_pull_it_with_three_failures(
    memory: Memory,
) -> None:
    # Given a validated procedure, and an agent that never bootstrapped
    procedure_id = validated(memory)
    # When it sends three failure reports on it
    said = [
        report(
            memory,
            f"mallory-{n}",
            {"procedure_id": procedure_id, "succeeded": False},
            agent_id="mallory",
        )
        for n in range(3)
    ]
    memory.clock.advance(DAY)
    flagged = run_decay(memory).procedures_flagged
    # Then none counted, each saying why, and decay leaves the procedure served
    assert [(s["counted"], s["reason"]) for s in said] == [(False, "no receipt")] * 3
    assert record(memory, procedure_id) == (0, 0)
    assert flagged == []
    assert serve(memory.ports)["procedure_id"] == procedure_id


def test_a_served_run_s_report_counts_through_bootstrap_and_consolidation(
    memory: Memory,
) -> None:
    # Given a validated procedure served to a run at bootstrap
    procedure_id = validated(memory)
    served = serve(memory.ports)
    # When the run reports that it worked
    said = report(memory, "run-1", feedback(served, True))
    # Then it counts, as one of the procedure's trial uses
    assert said == {"procedure_id": procedure_id, "counted": True, "reason": None}
    assert record(memory, procedure_id) == (1, 1)
    assert serve(memory.ports)["times_applied"] == 1


def test_the_bootstrap_reply_carries_a_receipt_the_published_schema_accepts(
    memory: Memory,
) -> None:
    # Given a validated procedure served at bootstrap
    validated(memory)
    served = serve(memory.ports)
    # When the run's event carries its receipt back
    event = run_event("run-1", procedure_feedback=feedback(served, True))
    # Then the published schema accepts it, and the receipt is within the contract's bound
    jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text())).validate(event)
    assert len(served["receipt"]) <= receipts.MAX_RECEIPT_CHARS


def test_a_redelivered_run_says_its_report_was_already_counted(memory: Memory) -> None:
    procedure_id = validated(memory)
    used = feedback(serve(memory.ports), True)
    report(memory, "run-1", used)

    again = report(memory, "run-1", used)

    assert again["reason"] == "already counted for this run"
    assert record(memory, procedure_id) == (1, 1)


def test_a_receipt_reused_by_a_second_run_counts_nothing(memory: Memory) -> None:
    # Given one serving, counted with the run it was served to
    procedure_id = validated(memory)
    used = feedback(serve(memory.ports), False)
    report(memory, "run-1", used)
    # When a second run carries the same receipt
    again = report(memory, "run-2", used)
    # Then it counts nothing
    assert (again["counted"], again["reason"]) == (False, "receipt already used")
    assert record(memory, procedure_id) == (1, 0)


def test_another_agents_receipt_counts_nothing(memory: Memory) -> None:
    # Given a procedure served to the reviewer
    procedure_id = validated(memory)
    theirs = feedback(serve(memory.ports, agent_id=AGENT), False)
    # When another agent of the tenant reports with the reviewer's receipt
    said = report(memory, "mallory-1", theirs, agent_id="mallory")
    # Then it counts nothing, and the receipt stays the reviewer's to use
    assert said["reason"] == "receipt for another agent"
    assert record(memory, procedure_id) == (0, 0)
    assert report(memory, "run-1", theirs)["counted"] is True


def test_a_receipt_for_another_procedure_counts_nothing(memory: Memory) -> None:
    # Given two validated procedures, and a run served the one of triage
    target = validated(memory)
    validated(memory, task_type="triage", run_id="seed-triage")
    served_triage = serve(memory.ports, task_type="triage")
    # When it reports on the contract-review procedure with that receipt
    said = report(
        memory,
        "run-1",
        {"procedure_id": target, "succeeded": False, "receipt": served_triage["receipt"]},
    )
    # Then nothing counts
    assert said["reason"] == "receipt for another procedure"
    assert record(memory, target) == (0, 0)


def test_a_receipt_for_another_tenant_counts_nothing(memory: Memory) -> None:
    # Given acme's procedure served to acme's reviewer
    procedure_id = validated(memory)
    acme = feedback(serve(memory.ports), False)
    # When a run of another tenant reports on it with that receipt
    said = report(memory, "x-1", acme, tenant_id="globex")
    # Then nothing counts
    assert said["reason"] == "receipt for another tenant"
    assert record(memory, procedure_id) == (0, 0)


@pytest.mark.parametrize(
    ("age_days", "counted"),
    [(29.99, True), (30.01, False)],
    ids=["within the window", "past the window"],
)
def test_a_receipt_counts_within_its_validity_window_only(
    memory: Memory, age_days: float, counted: bool
) -> None:
    # Given a receipt handed out, and the policy's 30-day window
    procedure_id = validated(memory)
    used = feedback(serve(memory.ports), True)
    assert memory.ports.policies.procedural.receipt_valid_days == 30
    # When the run's report is consolidated this long after
    memory.clock.advance(age_days * DAY)
    said = report(memory, "run-1", used)
    # Then it counts inside the window, and is refused as expired past it
    assert said["counted"] is counted
    assert said["reason"] == (None if counted else "receipt expired")
    assert record(memory, procedure_id) == (int(counted), int(counted))


def _reencoded(payload: dict[str, Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps(payload).encode()).rstrip(b"=").decode()


def _forgeries(genuine: str, other_genuine: str) -> dict[str, str]:
    """Receipts an agent could make from ones it holds, or from nothing."""
    body, signature = genuine.split(".")
    padded = body + "=" * (-len(body) % 4)
    payload = json.loads(base64.urlsafe_b64decode(padded))
    flipped = "A" if signature[0] != "A" else "B"
    return {
        "signed with another key": receipts.issue(
            b"k" * 32,
            tenant_id=payload["tenant_id"],
            agent_id=payload["agent_id"],
            procedure_id=payload["procedure_id"],
            now=payload["issued_at"],
        ),
        "signature altered": f"{body}.{flipped}{signature[1:]}",
        "payload altered": f"{_reencoded({**payload, 'nonce': 'fresh'})}.{signature}",
        "issue time moved": f"{_reencoded({**payload, 'issued_at': 9e12})}.{signature}",
        "signature of another receipt": f"{body}.{other_genuine.split('.')[1]}",
        "unsigned": f"{body}.{'A' * 43}",
    }


def test_a_forged_or_altered_receipt_counts_nothing(memory: Memory) -> None:
    # Given a procedure, and receipts made up or altered from genuine ones
    procedure_id = validated(memory)
    genuine, other = serve(memory.ports)["receipt"], serve(memory.ports)["receipt"]
    for number, (name, forged) in enumerate(_forgeries(genuine, other).items()):
        # When a run reports with one
        said = report(
            memory,
            f"forged-{number}",
            {"procedure_id": procedure_id, "succeeded": False, "receipt": forged},
        )
        # Then it is refused as invalid
        assert said["reason"] == "receipt invalid", name
    assert record(memory, procedure_id) == (0, 0)


def test_without_a_receipt_key_nothing_is_handed_out_and_nothing_counts(
    memory: Memory,
) -> None:
    # Given a deployment with no key to sign receipts with
    procedure_id = validated(memory)
    memory.ports = replace(memory.ports, receipt_key=None)
    # When a run is served the procedure and reports on it
    served = serve(memory.ports)
    said = report(memory, "run-1", feedback(served, True))
    # Then it had no receipt, and its report did not count
    assert served["receipt"] is None
    assert said["reason"] == "no receipt"
    assert record(memory, procedure_id) == (0, 0)


def test_a_report_on_a_procedure_rejected_since_its_serving_counts_nothing(
    memory: Memory,
) -> None:
    procedure_id = validated(memory)
    used = feedback(serve(memory.ports), True)
    procedural.review(
        memory.ports.procedures,
        procedure_id,
        approve=False,
        reviewer="lead",
        note="step 2 is wrong",
        now=memory.clock(),
    )

    said = report(memory, "run-1", used)

    assert said["reason"] == "procedure not validated"
    assert record(memory, procedure_id) == (0, 0)
