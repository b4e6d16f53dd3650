"""A person repairs a procedure through the application: edits its steps before approving it,
retires it once served; both recorded in the tenant's history.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent_memory.app import Application
from agent_memory.app.messages import (
    Bootstrap,
    DecideProcedure,
    EditProcedure,
    History,
    RetireProcedure,
)
from agent_memory.core.api.contracts import MAX_ITEM_CHARS, MAX_LIST_ITEMS, ProcedureModel
from agent_memory.core.model.decisions import digest
from agent_memory.core.model.errors import Conflict, InvalidInput, NotFound, PiiDetectionFailed
from agent_memory.core.model.models import ProcedureStatus
from agent_memory.core.model.requests import BootstrapRequest
from agent_memory.core.tiers import procedural, procedure_repair
from agent_memory.core.workflows.consolidation import consolidate, summary
from tests.review.scenario import PROPOSED_STEPS, SERVED_STEPS, Scenario, consolidate_run, seed
from tests.support.memory import Memory, make_memory, run_event
from tests.support.serving import feedback, serve

REQUEST = BootstrapRequest(
    "acme", "reviewer", "Review the vendor MSA liability cap", "contract_review", "contracts"
)
EDITED = ("Read clause 7.3", "Compare the cap with 1.5x the annual fees", "Escalate to legal")


@pytest.fixture
def memory(tmp_path: Path) -> Memory:
    return make_memory(tmp_path)


@pytest.fixture
def app(memory: Memory) -> Application:
    return Application(memory.ports)


@pytest.fixture
def scenario(memory: Memory) -> Scenario:
    return seed(memory)


def _edit(scenario: Scenario, steps: tuple[str, ...] = EDITED, **fields: object) -> EditProcedure:
    message = {
        "tenant_id": "acme",
        "procedure_id": scenario.proposed_id,
        "steps": steps,
        "reviewer": "dana",
        "reason": "twice the fees is too generous",
        **fields,
    }
    return EditProcedure(**message)  # type: ignore[arg-type]


def _served_steps(app: Application) -> list[str] | None:
    served = app.handle(Bootstrap(REQUEST))["procedure"]
    return None if served is None else served["steps"]


def test_an_edited_proposal_once_approved_is_served_with_the_edited_steps(
    app: Application, scenario: Scenario
) -> None:
    # Given a pending proposal a person edits
    edited = app.handle(_edit(scenario, ("1. Read clause 7.3", *EDITED[1:])))
    # Then it keeps its id and status, its steps normalised as a proposal's, one revision on
    assert (edited["procedure_id"], edited["status"]) == (scenario.proposed_id, "PENDING")
    assert (edited["steps"], edited["revision"], edited["edited_by"]) == (list(EDITED), 1, "dana")
    # When it is approved
    app.handle(DecideProcedure(scenario.proposed_id, True, "lee", tenant_id="acme"))
    # Then bootstrap serves the edited steps (the newest approval on trial)
    assert _served_steps(app) == list(EDITED)


def test_an_edit_is_in_the_history_with_a_digest_of_the_replaced_steps_never_the_steps(
    app: Application, scenario: Scenario
) -> None:
    app.handle(_edit(scenario))

    (decision,) = app.handle(History("acme"))["decisions"]
    assert (decision["action"], decision["kind"], decision["record_id"]) == (
        "edit",
        "procedure",
        scenario.proposed_id,
    )
    assert decision["actor"] == "dana"
    assert decision["reason"] == "twice the fees is too generous (revision 1)"
    replaced = json.dumps(["Vendor MSA review", *PROPOSED_STEPS], ensure_ascii=False)
    assert decision["digest"] == digest(replaced)
    assert "twice the annual fees" not in json.dumps(decision)


def test_editing_a_validated_procedure_is_refused_and_it_stays_served_as_approved(
    app: Application, scenario: Scenario
) -> None:
    with pytest.raises(Conflict, match="reject or retire it, edit it, then approve it"):
        app.handle(_edit(scenario, procedure_id=scenario.served_id))

    assert _served_steps(app) == SERVED_STEPS
    assert app.handle(History("acme"))["decisions"] == []


def test_an_edit_from_a_revision_no_longer_current_is_refused_naming_the_other_editor(
    app: Application, scenario: Scenario
) -> None:
    # Given two people who read revision 0; the first saves an edit
    app.handle(_edit(scenario, expected_revision=0))
    # When the second saves theirs from revision 0
    with pytest.raises(Conflict, match="revision 1 by dana, not 0"):
        app.handle(_edit(scenario, ("Other steps",), reviewer="lee", expected_revision=0))
    # Then the first edit stands
    kept = app.handle(DecideProcedure(scenario.proposed_id, True, "lee", tenant_id="acme"))
    assert kept["steps"] == list(EDITED)


def test_an_edit_of_an_approved_proposal_made_meanwhile_is_refused(
    app: Application, scenario: Scenario
) -> None:
    app.handle(DecideProcedure(scenario.proposed_id, True, "lee", tenant_id="acme"))

    with pytest.raises(Conflict, match="VALIDATED"):
        app.handle(_edit(scenario, expected_revision=0))


@pytest.mark.parametrize(
    ("steps", "field", "why"),
    [
        ((), "steps", "1-50 steps"),
        (tuple(f"step {n}" for n in range(MAX_LIST_ITEMS + 1)), "steps", "1-50 steps"),
        (("Read", "  "), "steps", "step 2 is blank"),
        (("Read", "x" * (MAX_ITEM_CHARS + 1)), "steps", "step 2 holds more than"),
        ((*PROPOSED_STEPS,), "steps", "nothing to edit"),
    ],
    ids=["none", "one-too-many", "blank", "one-too-long", "unchanged"],
)
def test_bad_steps_are_refused_naming_the_field_and_nothing_is_written(
    app: Application,
    memory: Memory,
    scenario: Scenario,
    steps: tuple[str, ...],
    field: str,
    why: str,
) -> None:
    before = memory.ports.procedures.get(scenario.proposed_id)
    with pytest.raises(InvalidInput, match=why) as refused:
        app.handle(_edit(scenario, steps))
    assert refused.value.field == field
    assert memory.ports.procedures.get(scenario.proposed_id) == before
    assert app.handle(History("acme"))["decisions"] == []


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"title": " "}, "title"),
        ({"title": "t" * 201}, "title"),
        ({"reviewer": " "}, "reviewer"),
        ({"reason": ""}, "reason"),
    ],
)
def test_a_bad_title_reviewer_or_reason_is_refused_naming_it(
    app: Application, scenario: Scenario, fields: dict[str, str], field: str
) -> None:
    with pytest.raises(InvalidInput) as refused:
        app.handle(_edit(scenario, **fields))
    assert refused.value.field == field


def test_an_edit_at_the_bounds_of_a_proposal_is_accepted(
    app: Application, scenario: Scenario
) -> None:
    widest = tuple(f"{n:02d}" + "x" * (MAX_ITEM_CHARS - 2) for n in range(MAX_LIST_ITEMS))
    edited = app.handle(_edit(scenario, widest, title="t" * 200))
    assert len(edited["steps"]) == MAX_LIST_ITEMS
    assert all(len(step) == MAX_ITEM_CHARS for step in edited["steps"])


def test_the_bounds_of_an_edit_are_the_bounds_of_a_proposal() -> None:
    steps = ProcedureModel.model_json_schema()["properties"]["steps"]
    title = ProcedureModel.model_json_schema()["properties"]["title"]
    assert (steps["maxItems"], steps["items"]["maxLength"], title["maxLength"]) == (
        procedure_repair.MAX_STEPS,
        procedure_repair.MAX_STEP_CHARS,
        procedure_repair.MAX_TITLE_CHARS,
    )


def test_edited_steps_editor_and_reason_are_scrubbed_like_stored_text(
    app: Application, memory: Memory, scenario: Scenario
) -> None:
    edited = app.handle(
        _edit(
            scenario,
            ("Read clause 7.3", "Ask jane.doe@example.com"),
            reason="per jane.doe@example.com",
        )
    )
    assert edited["steps"][1] == "Ask [EMAIL]"
    (decision,) = app.handle(History("acme"))["decisions"]
    assert decision["reason"] == "per [EMAIL] (revision 1)"
    assert b"jane.doe@example.com" not in (memory.root / "memory.db").read_bytes()


def test_a_failing_detector_edits_nothing(
    app: Application, memory: Memory, scenario: Scenario
) -> None:
    before = memory.ports.procedures.get(scenario.proposed_id)
    memory.pii.fail = True
    with pytest.raises(PiiDetectionFailed):
        app.handle(_edit(scenario))
    assert memory.ports.procedures.get(scenario.proposed_id) == before


def test_a_run_proposing_the_original_steps_again_does_not_resurrect_them(
    app: Application, memory: Memory, scenario: Scenario
) -> None:
    # Given an edited, approved proposal
    app.handle(_edit(scenario))
    app.handle(DecideProcedure(scenario.proposed_id, True, "lee", tenant_id="acme"))
    # When a run proposes the original steps again
    again = consolidate_run(memory, "run-009", title="Vendor MSA review", steps=PROPOSED_STEPS)
    # Then it names the same procedure, which only counts the run: no second copy to review
    assert again == scenario.proposed_id
    stored = memory.ports.procedures.get(again)
    assert stored is not None and stored.steps == EDITED and stored.proposed_by == 3
    assert len(memory.ports.procedures.for_task_type("acme", "contract_review")) == 2


def test_a_retired_procedure_is_never_served_again_nor_brought_back_by_a_run(
    app: Application, memory: Memory, scenario: Scenario
) -> None:
    # Given the served procedure retired by a person
    retired = app.handle(
        RetireProcedure("acme", scenario.served_id, "lee", "clause 7.3 was renumbered")
    )
    assert (retired["status"], retired["reviewer"]) == ("RETIRED", "lee")
    # Then the next bootstrap serves no procedure (the other one is pending)
    assert _served_steps(app) is None
    # And a run proposing the same steps again only counts as a source
    consolidate_run(memory, "run-010", title="MSA review", steps=SERVED_STEPS)
    stored = memory.ports.procedures.get(scenario.served_id)
    assert stored is not None and stored.status is ProcedureStatus.RETIRED
    assert _served_steps(app) is None
    # And the history keeps the retirement with its reason
    (decision,) = app.handle(History("acme"))["decisions"]
    assert (decision["action"], decision["actor"], decision["reason"]) == (
        "retire",
        "lee",
        "clause 7.3 was renumbered",
    )


def test_approving_a_retired_procedure_needs_an_explicit_overrule(
    app: Application, memory: Memory, scenario: Scenario
) -> None:
    app.handle(RetireProcedure("acme", scenario.served_id, "lee", "renumbered"))
    memory.clock.advance(60)

    with pytest.raises(Conflict, match=r"retired by lee .*overrules that retirement"):
        app.handle(DecideProcedure(scenario.served_id, True, "dana", tenant_id="acme"))
    approved = app.handle(
        DecideProcedure(scenario.served_id, True, "dana", tenant_id="acme", overrule=True)
    )

    assert approved["status"] == "VALIDATED"
    latest = app.handle(History("acme"))["decisions"][0]
    assert latest["reason"] == "overrules the retirement by lee: renumbered"
    assert _served_steps(app) == SERVED_STEPS


def test_a_retired_procedure_can_be_edited_and_served_again_only_by_an_overruling_approval(
    app: Application, scenario: Scenario
) -> None:
    app.handle(RetireProcedure("acme", scenario.served_id, "lee", "renumbered"))
    edited = app.handle(_edit(scenario, ("Read clause 8.1",), procedure_id=scenario.served_id))
    assert edited["status"] == "RETIRED"
    assert _served_steps(app) is None

    app.handle(DecideProcedure(scenario.served_id, True, "dana", tenant_id="acme", overrule=True))

    assert _served_steps(app) == ["Read clause 8.1"]


@pytest.mark.parametrize("status", ["pending", "rejected", "retired"])
def test_only_a_served_procedure_can_be_retired(
    app: Application, scenario: Scenario, status: str
) -> None:
    target = scenario.served_id if status == "retired" else scenario.proposed_id
    if status == "rejected":
        app.handle(DecideProcedure(target, False, "lee", "no", tenant_id="acme"))
    if status == "retired":
        app.handle(RetireProcedure("acme", target, "lee", "old"))
    with pytest.raises(Conflict, match="cannot set RETIRED"):
        app.handle(RetireProcedure("acme", target, "lee", "again"))


def test_a_retirement_needs_a_reason_and_a_known_procedure_of_the_tenant(
    app: Application, scenario: Scenario
) -> None:
    with pytest.raises(InvalidInput, match="a retirement needs a reason"):
        app.handle(RetireProcedure("acme", scenario.served_id, "lee", " "))
    with pytest.raises(NotFound):
        app.handle(RetireProcedure("globex", scenario.served_id, "lee", "old"))
    assert _served_steps(app) == SERVED_STEPS


def test_a_report_on_a_procedure_retired_after_it_was_served_says_it_is_retired(
    app: Application, memory: Memory, scenario: Scenario
) -> None:
    # Given a run served the procedure, which a person retires before the run reports on it
    served = serve(memory.ports)
    app.handle(RetireProcedure("acme", scenario.served_id, "lee", "renumbered"))
    # When the run's report arrives with its receipt
    event = run_event("run-late", procedure_feedback=feedback(served, False))
    said = summary(consolidate(event, memory.ports))["procedure_feedback"]
    # Then it is not counted, and the answer says the procedure is retired
    assert (said["counted"], said["reason"]) == (False, procedural.RETIRED)
    assert "retired" in said["reason"]
    stored = memory.ports.procedures.get(scenario.served_id)
    assert stored is not None and stored.times_applied == 0
