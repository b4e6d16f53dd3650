from dataclasses import replace

from agent_memory.core.model.models import Procedure, ProcedureStatus
from agent_memory.core.tiers.procedural import (
    format_procedure,
    is_trial,
    normalize_step,
    procedure_id,
    procedure_view,
    select_procedure,
    wilson_lower_bound,
)


def procedure(
    pid: str,
    status: ProcedureStatus,
    applied: int = 0,
    succeeded: int = 0,
    reviewed_at: float | None = None,
) -> Procedure:
    return Procedure(
        tenant_id="t",
        task_type="contract_review",
        procedure_id=pid,
        title=f"title {pid}",
        steps=("Read", "Check"),
        status=status,
        created_at=0.0,
        updated_at=0.0,
        times_applied=applied,
        times_succeeded=succeeded,
        reviewer="ana",
        reviewed_at=reviewed_at,
    )


def test_numbering_and_bullets_do_not_change_a_procedure_id() -> None:
    a = procedure_id("t", "review", ("1. Read clause 7.3", "2) Compare caps"))
    b = procedure_id("t", "review", ("- read clause 7.3", "Step 2: compare  caps"))
    assert a == b
    assert normalize_step("Step 10 - Sign") == "Sign"


def test_procedure_ids_are_per_tenant_and_task_type() -> None:
    steps = ("Read", "Sign")
    ids = {
        procedure_id("t1", "a", steps),
        procedure_id("t2", "a", steps),
        procedure_id("t1", "b", steps),
    }
    assert len(ids) == 3


def test_pending_rejected_and_flagged_procedures_are_never_served() -> None:
    candidates = [
        procedure("p1", ProcedureStatus.PENDING),
        procedure("p2", ProcedureStatus.REJECTED, 10, 10),
        procedure("p3", ProcedureStatus.NEEDS_REVIEW, 10, 10),
    ]
    assert select_procedure(candidates) is None


def test_a_freshly_validated_procedure_is_served_as_a_trial() -> None:
    fresh = procedure("p1", ProcedureStatus.VALIDATED)
    assert select_procedure([fresh]) == fresh
    assert is_trial(fresh)
    assert any("Trial" in line for line in format_procedure(fresh).shown_lines())


def test_trial_ends_at_three_uses() -> None:
    assert is_trial(procedure("p", ProcedureStatus.VALIDATED, applied=2))
    assert not is_trial(procedure("p", ProcedureStatus.VALIDATED, applied=3))


def test_a_proven_procedure_beats_a_trial_one() -> None:
    proven = procedure("proven", ProcedureStatus.VALIDATED, 5, 4)
    trial = procedure("trial", ProcedureStatus.VALIDATED, 1, 1, reviewed_at=99.0)
    assert select_procedure([trial, proven]) == proven


def test_a_long_record_beats_a_short_perfect_one() -> None:
    long = procedure("long", ProcedureStatus.VALIDATED, 20, 18)
    short = procedure("short", ProcedureStatus.VALIDATED, 3, 3)
    assert select_procedure([short, long]) == long
    assert wilson_lower_bound(18, 20) > wilson_lower_bound(3, 3)


def test_success_rate_is_computed_at_read() -> None:
    assert procedure("p", ProcedureStatus.VALIDATED, 4, 3).success_rate == 0.75
    assert procedure("p", ProcedureStatus.VALIDATED).success_rate is None
    lines = format_procedure(procedure("p", ProcedureStatus.VALIDATED, 4, 3)).shown_lines()
    assert "(Success rate: 75% over 4 uses)" in lines


def test_a_procedure_s_view_counts_every_proposing_run_beyond_those_it_names() -> None:
    # Given a procedure that names two runs and counted 40 (the store names its first few)
    common = replace(
        procedure("p", ProcedureStatus.PENDING),
        source_run_ids=frozenset({"run-b", "run-a"}),
        proposals=40,
    )
    # When it is shown
    view = procedure_view(common)
    # Then the view names the runs it has and counts them all
    assert (view["proposed_by_runs"], view["proposals"]) == (["run-a", "run-b"], 40)
    # And a record built without the count counts the runs it names
    assert procedure_view(replace(common, proposals=0))["proposals"] == 2
