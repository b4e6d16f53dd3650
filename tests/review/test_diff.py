"""The step diff a reviewer reads before approving a re-proposal."""

from agent_memory.core.model.models import Procedure, ProcedureStatus
from agent_memory.core.model.procedure_diff import (
    WordPiece,
    diff_procedures,
    format_diff,
    word_diff,
)


def procedure(
    steps: list[str], *, title: str = "MSA review", pid: str = "proc-new", status: str = "PENDING"
) -> Procedure:
    return Procedure(
        tenant_id="acme",
        task_type="contract_review",
        procedure_id=pid,
        title=title,
        steps=tuple(steps),
        status=ProcedureStatus(status),
        created_at=0.0,
        updated_at=0.0,
    )


SERVED = procedure(
    ["Read clause 7.3", "Compare the cap with annual fees", "Escalate to legal"],
    pid="proc-old",
    status="VALIDATED",
)


def kinds(old: Procedure | None, new: Procedure) -> list[tuple[str, int | None, int | None]]:
    return [(c.kind, c.old_number, c.new_number) for c in diff_procedures(old, new).changes]


def test_an_inserted_step_is_added_and_the_others_keep_their_old_numbers() -> None:
    new = procedure(
        [
            "Read clause 7.3",
            "Check indemnities",
            "Compare the cap with annual fees",
            "Escalate to legal",
        ]
    )
    assert kinds(SERVED, new) == [
        ("same", 1, 1),
        ("added", None, 2),
        ("same", 2, 3),
        ("same", 3, 4),
    ]


def test_a_dropped_step_is_removed() -> None:
    new = procedure(["Read clause 7.3", "Escalate to legal"])
    assert kinds(SERVED, new) == [("same", 1, 1), ("removed", 2, None), ("same", 3, 2)]


def test_a_reworded_step_is_changed_with_the_words_that_differ() -> None:
    new = procedure(
        ["Read clause 7.3", "Compare the cap with twice annual fees", "Escalate to legal"]
    )
    diff = diff_procedures(SERVED, new)
    changed = diff.changes[1]
    assert (changed.kind, changed.old_number, changed.new_number) == ("changed", 2, 2)
    assert changed.words == (
        WordPiece("same", "Compare the cap with"),
        WordPiece("added", "twice"),
        WordPiece("same", "annual fees"),
    )
    assert diff.summary() == "0 added, 0 removed, 1 changed, 2 unchanged"


def test_an_unrelated_replacement_is_a_removal_and_an_addition_not_an_edit() -> None:
    new = procedure(["Read clause 7.3", "Sign the contract", "Escalate to legal"])
    assert kinds(SERVED, new) == [
        ("same", 1, 1),
        ("removed", 2, None),
        ("added", None, 2),
        ("same", 3, 3),
    ]


def test_a_title_change_is_reported_even_when_the_steps_match() -> None:
    diff = diff_procedures(SERVED, procedure(list(SERVED.steps), title="Vendor MSA review"))
    assert diff.title_changed
    assert not diff.identical
    assert "title: 'MSA review' -> 'Vendor MSA review'" in format_diff(diff)


def test_the_same_steps_and_title_are_identical() -> None:
    diff = diff_procedures(SERVED, procedure(list(SERVED.steps)))
    assert diff.identical
    assert format_diff(diff).endswith("identical steps and title")


def test_with_nothing_served_every_step_is_added() -> None:
    diff = diff_procedures(None, procedure(["Read", "Sign"]))
    assert [c.kind for c in diff.changes] == ["added", "added"]
    assert not diff.title_changed
    assert "--- (no validated procedure)" in format_diff(diff)


def test_the_text_form_marks_each_line_and_the_changed_words() -> None:
    new = procedure(
        ["Read clause 7.3", "Compare the cap with twice annual fees", "Check indemnities"],
        title="Vendor MSA review",
    )
    lines = format_diff(diff_procedures(SERVED, new)).splitlines()
    assert lines[:4] == [
        "acme/contract_review",
        "--- proc-old (VALIDATED)",
        "+++ proc-new (PENDING)",
        "title: 'MSA review' -> 'Vendor MSA review'",
    ]
    assert lines[4:-1] == [
        "    1   1  Read clause 7.3",
        "~   2   2  Compare the cap with {+twice+} annual fees",
        "-   3      Escalate to legal",
        "+       3  Check indemnities",
    ]
    assert lines[-1] == "1 added, 1 removed, 1 changed, 1 unchanged; title changed"


def test_word_diff_reports_replaced_words_as_removed_then_added() -> None:
    assert word_diff("cap at 1x fees", "cap at 2x fees") == (
        WordPiece("same", "cap at"),
        WordPiece("removed", "1x"),
        WordPiece("added", "2x"),
        WordPiece("same", "fees"),
    )
