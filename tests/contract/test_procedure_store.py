"""ProcedureStore contract: proposals by id, review transitions, feedback once per run and
once per serving receipt."""

from __future__ import annotations

import contextlib
from dataclasses import replace

import pytest

from agent_memory.core.model.errors import Conflict, InvalidInput
from agent_memory.core.model.models import SOURCE_RUN_IDS_KEPT, Procedure, ProcedureStatus, Review
from agent_memory.core.ports import FeedbackCount, ProcedureStore
from tests.contract.builders import AWKWARD_TIME, DAY, NOW, all_pages, in_threads, procedure

PENDING = ProcedureStatus.PENDING
VALIDATED = ProcedureStatus.VALIDATED
REJECTED = ProcedureStatus.REJECTED
NEEDS_REVIEW = ProcedureStatus.NEEDS_REVIEW
RETIRED = ProcedureStatus.RETIRED
UNSERVED = (PENDING, NEEDS_REVIEW, REJECTED, RETIRED)


def _stored(procedures: ProcedureStore, procedure_id: str = "proc-1") -> Procedure:
    found = procedures.get(procedure_id)
    assert found is not None
    return found


def test_store_satisfies_the_port(procedures: ProcedureStore) -> None:
    assert isinstance(procedures, ProcedureStore)


def test_every_field_round_trips_exactly(procedures: ProcedureStore) -> None:
    given = procedure(
        title="Rédiger le rapport 📝",
        steps=('Gather "figures"', "", "Draft\nthen review", 'Gather "figures"'),
        status=NEEDS_REVIEW,
        created_at=AWKWARD_TIME,
        updated_at=AWKWARD_TIME + 1,
        source_run_ids=frozenset({"run-0", "run-9"}),
        times_applied=7,
        times_succeeded=5,
        last_applied_at=AWKWARD_TIME + 2,
        reviewer="reviewer@example.com",
        reviewed_at=AWKWARD_TIME + 3,
        review_note="Looks right; ünïcode note",
        revision=2,
        edited_by="editør",
        edited_at=AWKWARD_TIME + 4,
    )

    procedures.propose(given, "run-1")

    assert _stored(procedures) == replace(
        given, source_run_ids=frozenset({"run-0", "run-9", "run-1"}), proposals=3
    )


def test_propose_returns_true_and_records_the_proposing_run(procedures: ProcedureStore) -> None:
    assert procedures.propose(procedure(), "run-1") is True

    assert _stored(procedures).source_run_ids == {"run-1"}
    assert _stored(procedures).proposed_by == 1


def test_propose_of_an_existing_id_returns_false(procedures: ProcedureStore) -> None:
    procedures.propose(procedure(), "run-1")

    assert procedures.propose(procedure(), "run-2") is False


def test_propose_of_an_existing_id_only_adds_the_run(procedures: ProcedureStore) -> None:
    procedures.propose(procedure(title="first"), "run-1")
    first = _stored(procedures)

    procedures.propose(
        procedure(title="second", steps=("other",), status=VALIDATED, updated_at=NOW + DAY),
        "run-2",
    )

    assert _stored(procedures) == replace(
        first, source_run_ids=frozenset({"run-1", "run-2"}), proposals=2
    )


def test_a_run_proposing_twice_is_recorded_once(procedures: ProcedureStore) -> None:
    procedures.propose(procedure(), "run-1")
    procedures.propose(procedure(), "run-1")

    assert _stored(procedures).source_run_ids == {"run-1"}
    assert _stored(procedures).proposals == 1


def test_concurrent_proposals_of_one_id_create_it_once_and_record_every_run(
    procedures: ProcedureStore,
) -> None:
    results = in_threads(lambda i: procedures.propose(procedure(), f"run-{i}"), range(16))

    assert results.count(True) == 1
    assert _stored(procedures).source_run_ids == {f"run-{i}" for i in range(16)}
    assert _stored(procedures).proposals == 16


def test_proposing_an_id_held_by_another_tenant_never_touches_that_tenants_record(
    procedures: ProcedureStore,
) -> None:
    # Given acme's procedure
    procedures.propose(procedure(tenant_id="acme"), "run-1")
    before = procedures.get("proc-1", tenant_id="acme")
    # When globex proposes the same id (a store may refuse, or keep it apart: a tenant-scoped
    # store cannot see other tenants' keys to compare)
    with contextlib.suppress(Conflict):
        procedures.propose(procedure(tenant_id="globex"), "run-2")
    # Then acme's record is exactly as it was
    assert procedures.get("proc-1", tenant_id="acme") == before


def test_proposing_an_id_held_by_another_task_type_of_the_tenant_raises(
    procedures: ProcedureStore,
) -> None:
    procedures.propose(procedure(task_type="review"), "run-1")
    before = _stored(procedures)

    with pytest.raises(Conflict):
        procedures.propose(procedure(task_type="audit"), "run-2")

    assert _stored(procedures) == before


def test_get_of_a_missing_id_returns_none(procedures: ProcedureStore) -> None:
    assert procedures.get("nope") is None


def test_get_restricted_to_the_owning_tenant_finds_it(procedures: ProcedureStore) -> None:
    procedures.propose(procedure(tenant_id="acme"), "run-1")

    assert procedures.get("proc-1", tenant_id="acme") is not None


@pytest.mark.parametrize("other", ["acme2", "acm", "globex"])
def test_get_restricted_to_another_tenant_returns_none(
    procedures: ProcedureStore, other: str
) -> None:
    procedures.propose(procedure(tenant_id="acme"), "run-1")

    assert procedures.get("proc-1", tenant_id=other) is None


def test_for_task_type_lists_every_status_of_that_task_type_only(
    procedures: ProcedureStore,
) -> None:
    procedures.propose(procedure(procedure_id="p-pending", status=PENDING), "r")
    procedures.propose(procedure(procedure_id="p-rejected", status=REJECTED), "r")
    procedures.propose(procedure(procedure_id="p-other-type", task_type="triage"), "r")
    procedures.propose(procedure(procedure_id="p-other-tenant", tenant_id="acme2"), "r")

    listed = procedures.for_task_type("acme", "report")

    assert sorted(p.procedure_id for p in listed) == ["p-pending", "p-rejected"]


def test_list_filters_by_tenant_and_status(procedures: ProcedureStore) -> None:
    procedures.propose(procedure(procedure_id="a-pending"), "r")
    procedures.propose(procedure(procedure_id="a-validated", status=VALIDATED), "r")
    procedures.propose(procedure(procedure_id="b-pending", tenant_id="acme2"), "r")

    assert [p.procedure_id for p in procedures.list(tenant_id="acme", status=PENDING).items] == [
        "a-pending"
    ]
    assert sorted(p.procedure_id for p in procedures.list(status=PENDING).items) == [
        "a-pending",
        "b-pending",
    ]
    assert sorted(p.procedure_id for p in procedures.list(tenant_id="acme").items) == [
        "a-pending",
        "a-validated",
    ]


def test_list_pages_cover_every_procedure_once_and_end_with_cursor_none(
    procedures: ProcedureStore,
) -> None:
    for i in range(5):
        procedures.propose(procedure(procedure_id=f"proc-{i}", tenant_id=f"t{i % 2}"), "r")

    pages = all_pages(lambda c: procedures.list(limit=2, cursor=c))

    assert [len(p.items) for p in pages] == [2, 2, 1]
    assert sorted(p.procedure_id for page in pages for p in page.items) == [
        f"proc-{i}" for i in range(5)
    ]


def test_list_cursor_keeps_working_after_listed_procedures_are_forgotten(
    procedures: ProcedureStore,
) -> None:
    # Given a first page, then the tenant owning its procedures is forgotten
    for i in range(6):
        procedures.propose(procedure(procedure_id=f"proc-{i}", tenant_id=f"t{i}"), "r")
    first = procedures.list(limit=2)
    for p in first.items:
        procedures.forget(p.tenant_id)

    rest = all_pages(lambda c: procedures.list(limit=2, cursor=c or first.cursor))

    listed = {p.procedure_id for page in rest for p in page.items}
    assert listed == {f"proc-{i}" for i in range(6)} - {p.procedure_id for p in first.items}


def test_set_status_changes_a_status_in_allowed_from(procedures: ProcedureStore) -> None:
    procedures.propose(procedure(), "run-1")

    after = procedures.set_status(
        "proc-1", tenant_id="acme", status=VALIDATED, allowed_from=[PENDING], now=NOW + 5
    )

    assert after is not None
    assert (after.status, after.updated_at) == (VALIDATED, NOW + 5)
    assert (after.reviewer, after.reviewed_at, after.review_note) == (None, None, None)
    assert _stored(procedures) == after


def test_set_status_records_the_reviewer_note_and_review_time(
    procedures: ProcedureStore,
) -> None:
    procedures.propose(procedure(), "run-1")

    after = procedures.set_status(
        "proc-1",
        tenant_id="acme",
        status=REJECTED,
        allowed_from=[PENDING, NEEDS_REVIEW],
        now=NOW + 5,
        review=Review("alice", "steps are out of order"),
    )

    assert after is not None
    assert (after.status, after.reviewer, after.reviewed_at, after.review_note) == (
        REJECTED,
        "alice",
        NOW + 5,
        "steps are out of order",
    )


def test_set_status_without_a_review_keeps_the_previous_one(
    procedures: ProcedureStore,
) -> None:
    # Given a validated procedure, later flagged by decay (no reviewer)
    procedures.propose(procedure(), "run-1")
    procedures.set_status(
        "proc-1", tenant_id="acme", status=VALIDATED, allowed_from=[PENDING], now=NOW,
        review=Review("alice", "ok"),
    )  # fmt: skip

    after = procedures.set_status(
        "proc-1", tenant_id="acme", status=NEEDS_REVIEW, allowed_from=[VALIDATED], now=NOW + DAY
    )

    assert after is not None
    assert (after.reviewer, after.reviewed_at, after.review_note) == ("alice", NOW, "ok")


def test_set_status_from_a_status_not_allowed_returns_none_and_changes_nothing(
    procedures: ProcedureStore,
) -> None:
    procedures.propose(procedure(status=REJECTED), "run-1")
    before = _stored(procedures)

    after = procedures.set_status(
        "proc-1",
        tenant_id="acme",
        status=VALIDATED,
        allowed_from=[PENDING, NEEDS_REVIEW],
        now=NOW + 5,
        review=Review("alice"),
    )

    assert after is None
    assert _stored(procedures) == before


def test_set_status_with_nothing_allowed_changes_nothing(procedures: ProcedureStore) -> None:
    procedures.propose(procedure(), "run-1")

    after = procedures.set_status(
        "proc-1", tenant_id="acme", status=VALIDATED, allowed_from=[], now=NOW
    )

    assert after is None
    assert _stored(procedures).status is PENDING


def test_set_status_of_a_missing_procedure_returns_none(procedures: ProcedureStore) -> None:
    after = procedures.set_status(
        "nope", tenant_id="acme", status=VALIDATED, allowed_from=[PENDING], now=NOW
    )

    assert after is None


def test_set_status_for_another_tenant_returns_none_and_changes_nothing(
    procedures: ProcedureStore,
) -> None:
    procedures.propose(procedure(tenant_id="acme"), "run-1")

    after = procedures.set_status(
        "proc-1", tenant_id="acme2", status=VALIDATED, allowed_from=[PENDING], now=NOW
    )

    assert after is None
    assert _stored(procedures).status is PENDING


def test_concurrent_transitions_from_one_status_succeed_once(procedures: ProcedureStore) -> None:
    procedures.propose(procedure(), "run-1")

    results = in_threads(
        lambda i: procedures.set_status(
            "proc-1", tenant_id="acme", status=VALIDATED, allowed_from=[PENDING], now=NOW + i
        ),
        range(12),
    )

    assert sum(r is not None for r in results) == 1


def _report(
    procedures: ProcedureStore,
    run_id: str,
    *,
    receipt_id: str | None = None,
    succeeded: bool = True,
    now: float = NOW,
    tenant_id: str = "acme",
    procedure_id: str = "proc-1",
) -> FeedbackCount:
    """One run's report; each run carries a receipt of its own unless ``receipt_id`` says."""
    return procedures.record_feedback(
        procedure_id,
        tenant_id=tenant_id,
        run_id=run_id,
        receipt_id=receipt_id or f"receipt-of-{run_id}",
        succeeded=succeeded,
        now=now,
    )


def test_record_feedback_counts_a_success(procedures: ProcedureStore) -> None:
    procedures.propose(procedure(), "run-1")

    assert _report(procedures, "run-7", now=NOW + 3) is FeedbackCount.COUNTED

    stored = _stored(procedures)
    assert (stored.times_applied, stored.times_succeeded, stored.last_applied_at) == (
        1,
        1,
        NOW + 3,
    )


def test_record_feedback_counts_a_failure_as_an_application_only(
    procedures: ProcedureStore,
) -> None:
    procedures.propose(procedure(), "run-1")

    _report(procedures, "run-7", succeeded=False, now=NOW + 3)

    stored = _stored(procedures)
    assert (stored.times_applied, stored.times_succeeded) == (1, 0)


def test_feedback_of_a_run_counts_once(procedures: ProcedureStore) -> None:
    procedures.propose(procedure(), "run-1")
    _report(procedures, "r")
    before = _stored(procedures)

    again = _report(procedures, "r", succeeded=False, now=NOW + 1)

    assert again is FeedbackCount.RUN_COUNTED
    assert _stored(procedures) == before


def test_a_run_redelivered_with_another_receipt_still_counts_once(
    procedures: ProcedureStore,
) -> None:
    procedures.propose(procedure(), "run-1")
    _report(procedures, "r", receipt_id="first")

    again = _report(procedures, "r", receipt_id="second")

    assert again is FeedbackCount.RUN_COUNTED
    assert _stored(procedures).times_applied == 1


def test_a_receipt_counts_once_whichever_run_carries_it(procedures: ProcedureStore) -> None:
    # Given a receipt counted with one run's report
    procedures.propose(procedure(), "run-1")
    _report(procedures, "r1", receipt_id="served-once")
    before = _stored(procedures)

    # When another run reports with the same receipt
    again = _report(procedures, "r2", receipt_id="served-once", succeeded=False)

    # Then nothing changes
    assert again is FeedbackCount.RECEIPT_USED
    assert _stored(procedures) == before


def test_a_report_refused_for_its_receipt_leaves_its_run_free_to_count(
    procedures: ProcedureStore,
) -> None:
    # Given a run whose report was refused because its receipt was used
    procedures.propose(procedure(), "run-1")
    _report(procedures, "r1", receipt_id="served-once")
    _report(procedures, "r2", receipt_id="served-once")

    # When it reports again with a receipt of its own, then it counts: no dedup record was left
    assert _report(procedures, "r2", receipt_id="its-own") is FeedbackCount.COUNTED
    assert _stored(procedures).times_applied == 2


def test_concurrent_runs_sharing_one_receipt_count_it_once(procedures: ProcedureStore) -> None:
    procedures.propose(procedure(), "run-1")

    results = in_threads(
        lambda run_id: _report(procedures, run_id, receipt_id="one-serving"),
        [f"r{i}" for i in range(8)],
    )

    assert results.count(FeedbackCount.COUNTED) == 1
    assert results.count(FeedbackCount.RECEIPT_USED) == 7
    assert _stored(procedures).times_applied == 1


def test_feedback_of_distinct_runs_accumulates(procedures: ProcedureStore) -> None:
    procedures.propose(procedure(), "run-1")

    for i, succeeded in enumerate([True, False, True]):
        _report(procedures, f"r{i}", succeeded=succeeded, now=NOW + i)

    stored = _stored(procedures)
    assert (stored.times_applied, stored.times_succeeded, stored.success_rate) == (3, 2, 2 / 3)


def test_concurrent_feedback_counts_each_run_exactly_once(procedures: ProcedureStore) -> None:
    # Given ten runs each reporting three times (with its own receipt), all at once
    procedures.propose(procedure(), "run-1")
    reports = [f"r{i}" for i in range(10)] * 3

    results = in_threads(lambda run_id: _report(procedures, run_id), reports)

    stored = _stored(procedures)
    assert results.count(FeedbackCount.COUNTED) == 10
    assert (stored.times_applied, stored.times_succeeded) == (10, 10)


def test_feedback_for_a_missing_procedure_changes_nothing(procedures: ProcedureStore) -> None:
    assert _report(procedures, "r", procedure_id="nope") is FeedbackCount.NO_PROCEDURE


def test_feedback_for_another_tenant_changes_nothing(
    procedures: ProcedureStore,
) -> None:
    procedures.propose(procedure(tenant_id="acme"), "run-1")

    counted = _report(procedures, "r", tenant_id="acme2")

    assert counted is FeedbackCount.NO_PROCEDURE
    assert _stored(procedures).times_applied == 0


def test_feedback_refused_for_another_tenant_can_still_be_counted_by_the_owner(
    procedures: ProcedureStore,
) -> None:
    # Given a refused report from the wrong tenant, which must leave no dedup record behind
    procedures.propose(procedure(tenant_id="acme"), "run-1")
    _report(procedures, "r", tenant_id="acme2", receipt_id="k")

    assert _report(procedures, "r", receipt_id="k") is FeedbackCount.COUNTED


def test_export_yields_every_procedure_of_the_tenant_only(procedures: ProcedureStore) -> None:
    procedures.propose(procedure(procedure_id="p1", task_type="report"), "r")
    procedures.propose(procedure(procedure_id="p2", task_type="triage"), "r")
    procedures.propose(procedure(procedure_id="p3", tenant_id="acme2"), "r")

    exported = sorted(procedures.export("acme"), key=lambda p: p.procedure_id)

    assert exported == [_stored(procedures, "p1"), _stored(procedures, "p2")]


def test_forget_deletes_every_procedure_of_the_tenant_and_counts_them(
    procedures: ProcedureStore,
) -> None:
    procedures.propose(procedure(procedure_id="p1", task_type="report"), "r")
    procedures.propose(procedure(procedure_id="p2", task_type="triage"), "r")

    assert procedures.forget("acme") == 2
    assert list(procedures.export("acme")) == []
    assert procedures.get("p1") is None


def test_forget_leaves_lookalike_tenants_untouched(procedures: ProcedureStore) -> None:
    lookalikes = ["acme2", "acm", "acme-x", "ACME"]
    procedures.propose(procedure(procedure_id="mine", tenant_id="acme"), "r")
    for tenant in lookalikes:
        procedures.propose(procedure(procedure_id=f"p-{tenant}", tenant_id=tenant), "r")

    procedures.forget("acme")

    for tenant in lookalikes:
        assert procedures.get(f"p-{tenant}", tenant_id=tenant) is not None, tenant


def test_a_forgotten_procedure_proposed_again_starts_a_fresh_record(
    procedures: ProcedureStore,
) -> None:
    # Given a procedure with sources and counted feedback, then the tenant is forgotten
    procedures.propose(procedure(), "run-1")
    _report(procedures, "r", receipt_id="k")
    procedures.forget("acme")

    procedures.propose(procedure(), "run-2")
    counted = _report(procedures, "r", receipt_id="k")

    stored = _stored(procedures)
    assert counted is FeedbackCount.COUNTED
    assert (stored.source_run_ids, stored.proposals, stored.times_applied) == (
        frozenset({"run-2"}),
        1,
        1,
    )


def test_a_task_type_containing_the_separator_is_refused(procedures: ProcedureStore) -> None:
    with pytest.raises(InvalidInput):
        procedures.propose(procedure(task_type="report#x"), "run-1")


# --- a common procedure: more proposing runs than its log names ------------------------------


def _run(number: int) -> str:
    return f"run-{number:05d}"


def test_runs_past_the_log_are_counted_once_each_and_the_log_stays_bounded(
    procedures: ProcedureStore,
) -> None:
    # Given a procedure proposed by more distinct runs than its log names, each run delivered
    # twice (a redelivery right away, and again after later runs)
    total = SOURCE_RUN_IDS_KEPT + 30
    for number in range(total):
        procedures.propose(procedure(), _run(number))
        procedures.propose(procedure(), _run(number))
        if number >= 10:
            procedures.propose(procedure(), _run(number - 10))
    # When it is read
    stored = _stored(procedures)
    # Then every distinct run counted exactly once, and the log names the first runs only
    assert stored.proposals == stored.proposed_by == total
    assert stored.source_run_ids == frozenset(_run(i) for i in range(SOURCE_RUN_IDS_KEPT))
    # And a run past the log proposing once more changes nothing
    assert procedures.propose(procedure(), _run(total - 1)) is False
    assert _stored(procedures) == stored


def test_concurrent_proposals_past_the_log_count_exactly_once(
    procedures: ProcedureStore,
) -> None:
    # Given a procedure whose log is nearly full
    for number in range(SOURCE_RUN_IDS_KEPT - 4):
        procedures.propose(procedure(), _run(number))
    # When new runs, each delivered twice, propose it at once (filling the log on the way)
    late = [f"late-{i}" for i in range(12)] * 2
    in_threads(lambda run_id: procedures.propose(procedure(), run_id), late)
    # Then each distinct run counted once, and the log is full but no fuller
    stored = _stored(procedures)
    assert stored.proposals == SOURCE_RUN_IDS_KEPT - 4 + 12
    assert len(stored.source_run_ids) == SOURCE_RUN_IDS_KEPT


def test_a_forgotten_common_procedure_proposed_by_an_old_run_counts_from_one(
    procedures: ProcedureStore,
) -> None:
    # Given a procedure proposed past its log, then its tenant forgotten
    for number in range(SOURCE_RUN_IDS_KEPT + 3):
        procedures.propose(procedure(), _run(number))
    assert procedures.forget("acme") == 1
    # When a run counted past the log proposes it again
    assert procedures.propose(procedure(), _run(SOURCE_RUN_IDS_KEPT + 1)) is True
    # Then the procedure starts a fresh log: nothing of the forgotten one is left to count
    stored = _stored(procedures)
    assert (stored.proposals, stored.source_run_ids) == (
        1,
        frozenset({_run(SOURCE_RUN_IDS_KEPT + 1)}),
    )
    assert [p.procedure_id for p in procedures.export("acme")] == ["proc-1"]


def test_a_proposal_naming_more_runs_than_a_log_keeps_is_refused(
    procedures: ProcedureStore,
) -> None:
    # Given a proposal that names SOURCE_RUN_IDS_KEPT sources besides its proposing run
    crowded = procedure(source_run_ids=frozenset(_run(i) for i in range(SOURCE_RUN_IDS_KEPT)))
    # When it is proposed, Then it is refused and nothing is stored
    with pytest.raises(InvalidInput):
        procedures.propose(crowded, "run-new")
    assert procedures.get("proc-1") is None


def _replace(
    procedures: ProcedureStore,
    steps: tuple[str, ...] = ("Gather", "Draft carefully", "Sign"),
    *,
    revision: int = 0,
    allowed_from: tuple[ProcedureStatus, ...] = UNSERVED,
    tenant_id: str = "acme",
    now: float = NOW + DAY,
) -> Procedure | None:
    return procedures.replace_steps(
        "proc-1",
        tenant_id=tenant_id,
        title="Write it well",
        steps=steps,
        edited_by="dana",
        revision=revision,
        allowed_from=allowed_from,
        now=now,
    )


def test_replace_steps_replaces_title_and_steps_and_counts_the_revision(
    procedures: ProcedureStore,
) -> None:
    # Given a pending proposal with a track record and a review
    procedures.propose(procedure(times_applied=2, reviewer="lee", review_note="n"), "run-1")
    before = _stored(procedures)

    after = _replace(procedures, ('Gather "figures"', "", "Draft\nthen review"), now=AWKWARD_TIME)

    # Then title and steps are the edit's exactly, the editor and time recorded, the rest kept
    expected = replace(
        before,
        title="Write it well",
        steps=('Gather "figures"', "", "Draft\nthen review"),
        revision=1,
        edited_by="dana",
        edited_at=AWKWARD_TIME,
        updated_at=AWKWARD_TIME,
    )
    assert after == expected
    assert _stored(procedures) == expected


def test_replace_steps_from_a_status_not_allowed_returns_none_and_changes_nothing(
    procedures: ProcedureStore,
) -> None:
    procedures.propose(procedure(status=VALIDATED), "run-1")
    before = _stored(procedures)

    assert _replace(procedures) is None
    assert _stored(procedures) == before


def test_replace_steps_past_the_revision_read_returns_none_and_changes_nothing(
    procedures: ProcedureStore,
) -> None:
    # Given a procedure edited once (revision 1)
    procedures.propose(procedure(), "run-1")
    assert _replace(procedures, ("first edit",)) is not None
    edited = _stored(procedures)

    # When another edit, made from revision 0, is written, or one from a revision never reached
    stale = _replace(procedures, ("second edit",), revision=0)
    ahead = _replace(procedures, ("second edit",), revision=2)

    # Then neither is, and the first edit stands
    assert (stale, ahead) == (None, None)
    assert _stored(procedures) == edited
    assert _replace(procedures, ("second edit",), revision=1) is not None
    assert _stored(procedures).revision == 2


def test_replace_steps_for_another_tenant_or_a_missing_id_returns_none(
    procedures: ProcedureStore,
) -> None:
    procedures.propose(procedure(tenant_id="acme"), "run-1")
    before = _stored(procedures)

    assert _replace(procedures, tenant_id="acme2") is None
    assert (
        procedures.replace_steps(
            "proc-9",
            tenant_id="acme",
            title="t",
            steps=("s",),
            edited_by="dana",
            revision=0,
            allowed_from=UNSERVED,
            now=NOW,
        )
        is None
    )
    assert _stored(procedures) == before


def test_concurrent_edits_from_one_revision_succeed_once(procedures: ProcedureStore) -> None:
    procedures.propose(procedure(), "run-1")

    results = in_threads(lambda i: _replace(procedures, (f"edit {i}",)), range(12))

    won = [r for r in results if r is not None]
    assert len(won) == 1
    assert _stored(procedures).steps == won[0].steps


def test_an_edit_racing_an_approval_is_refused_once_the_approval_is_written(
    procedures: ProcedureStore,
) -> None:
    # Given a pending proposal approved after an editor read it
    procedures.propose(procedure(), "run-1")
    procedures.set_status(
        "proc-1", tenant_id="acme", status=VALIDATED, allowed_from=[PENDING], now=NOW
    )
    # When the edit is written: it is refused, and the steps approved are the ones served
    assert _replace(procedures) is None
    assert _stored(procedures).steps == procedure().steps


def test_the_original_steps_proposed_again_only_add_a_source_to_the_edited_procedure(
    procedures: ProcedureStore,
) -> None:
    # Given a proposal a person edited
    procedures.propose(procedure(), "run-1")
    edited = _replace(procedures, ("Edited step",))
    assert edited is not None

    # When a run proposes the original steps again (the same id)
    created = procedures.propose(procedure(), "run-2")

    # Then no second copy appears: the edited procedure only counts the run
    assert created is False
    assert _stored(procedures) == replace(
        edited, source_run_ids=frozenset({"run-1", "run-2"}), proposals=2
    )


def test_a_retired_procedure_proposed_again_stays_retired(procedures: ProcedureStore) -> None:
    procedures.propose(procedure(status=VALIDATED), "run-1")
    procedures.set_status(
        "proc-1",
        tenant_id="acme",
        status=RETIRED,
        allowed_from=[VALIDATED],
        now=NOW,
        review=Review("lee", "superseded"),
    )

    procedures.propose(procedure(), "run-2")

    assert _stored(procedures).status is RETIRED
    assert _stored(procedures).proposed_by == 2


def test_list_finds_retired_procedures_by_status(procedures: ProcedureStore) -> None:
    procedures.propose(procedure(procedure_id="proc-1", status=RETIRED), "run-1")
    procedures.propose(procedure(procedure_id="proc-2", status=VALIDATED), "run-2")

    for tenant in ("acme", None):
        listed = procedures.list(tenant_id=tenant, status=RETIRED).items
        assert [p.procedure_id for p in listed] == ["proc-1"]


def test_a_decision_held_to_the_revision_read_is_refused_after_an_edit(
    procedures: ProcedureStore,
) -> None:
    # Given a pending procedure a reviewer read at revision 0, then edited (revision 1)
    procedures.propose(procedure(), "run-1")
    assert _replace(procedures, revision=0) is not None

    # When the reviewer's approval is held to the revision they read, then to the current one
    stale = procedures.set_status(
        "proc-1",
        tenant_id="acme",
        status=ProcedureStatus.VALIDATED,
        allowed_from=[ProcedureStatus.PENDING],
        now=NOW,
        revision=0,
    )
    fresh = procedures.set_status(
        "proc-1",
        tenant_id="acme",
        status=ProcedureStatus.VALIDATED,
        allowed_from=[ProcedureStatus.PENDING],
        now=NOW,
        revision=1,
    )

    # Then the stale one changes nothing, the fresh one approves the edited steps
    assert stale is None
    assert fresh is not None and fresh.status is ProcedureStatus.VALIDATED
    assert fresh.revision == 1


def test_a_decision_at_revision_zero_holds_for_a_procedure_never_edited(
    procedures: ProcedureStore,
) -> None:
    procedures.propose(procedure(), "run-1")

    decided = procedures.set_status(
        "proc-1",
        tenant_id="acme",
        status=ProcedureStatus.REJECTED,
        allowed_from=[ProcedureStatus.PENDING],
        now=NOW,
        revision=0,
    )

    assert decided is not None and decided.status is ProcedureStatus.REJECTED
