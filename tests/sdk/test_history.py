"""A tenant's history (``History``): every decision people made about its memory, recorded by
the operation that made it and read back newest first through the SDK, the CLI and export.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent_memory.sdk import ConflictError, InvalidInputError
from tests.e2e.test_cli_options import cli
from tests.sdk.conftest import LocalMemory, make_local, run_event
from tests.support.fakes import FakePiiDetector


def proposed(local: LocalMemory, run_id: str, task_type: str) -> str:
    local.client.finish_run(run_event(run_id, task_type=task_type)).wait(timeout=30)
    [found] = local.client.list_procedures("acme", status="PENDING")
    return str(found["procedure_id"])


def test_each_review_is_in_the_history_newest_first(local: LocalMemory) -> None:
    # Given one procedure approved, then another rejected with a reason
    first = proposed(local, "run-1", "contract_review")
    local.client.approve_procedure("acme", first, reviewer="legal-lead")
    second = proposed(local, "run-2", "nda_review")
    local.client.reject_procedure("acme", second, reviewer="counsel", reason="Skips clause 9")
    # When the tenant's history is read
    page = local.client.history("acme")
    # Then both decisions are there, the latest first, each with who and why
    assert [(d["action"], d["record_id"], d["actor"]) for d in page["decisions"]] == [
        ("reject", second, "counsel"),
        ("approve", first, "legal-lead"),
    ]
    assert page["decisions"][0]["reason"] == "Skips clause 9"
    assert page["cursor"] is None
    # And no other tenant's history holds them
    assert local.client.history("globex")["decisions"] == []


def test_the_history_keeps_a_reviewers_name_scrubbed(tmp_path: Path) -> None:
    # Given a reviewer who signs with their full name, which the detector knows
    local = make_local(tmp_path / "store", pii=FakePiiDetector(names=("Jane Doe",)))
    procedure = proposed(local, "run-1", "contract_review")
    local.client.reject_procedure("acme", procedure, reviewer="Jane Doe", reason="Ask Jane Doe")
    # Then the history names them only as the stored procedure does
    [decision] = local.client.history("acme")["decisions"]
    assert "Jane" not in json.dumps(decision)
    assert decision["actor"] == local.client.get_procedure("acme", procedure)["reviewer"]
    local.client.close()


def test_a_long_history_pages_back_whole(local: LocalMemory) -> None:
    # Given 7 procedures, each approved by another reviewer
    for n in range(7):
        procedure = proposed(local, f"run-{n}", f"task-{n}")
        local.client.approve_procedure("acme", procedure, reviewer=f"reviewer-{n}")
    # When the history is read 3 at a time
    actors, cursor = [], None
    while True:
        page = local.client.history("acme", limit=3, cursor=cursor)
        actors += [d["actor"] for d in page["decisions"]]
        cursor = page["cursor"]
        if cursor is None:
            break
    # Then each decision comes once, the latest first
    assert actors == [f"reviewer-{n}" for n in reversed(range(7))]


@pytest.mark.parametrize(
    ("arguments", "field"),
    [({"limit": 0}, "limit"), ({"limit": 101}, "limit"), ({"cursor": "globex#x"}, "cursor")],
)
def test_a_bad_page_request_is_refused_naming_its_field(
    local: LocalMemory, arguments: dict[str, object], field: str
) -> None:
    with pytest.raises(InvalidInputError) as refused:
        local.client.history("acme", **arguments)  # type: ignore[arg-type]
    assert refused.value.field == field


@pytest.mark.slow
def test_the_cli_lists_exports_and_forgets_the_history(tmp_path: Path) -> None:
    # Given the demo's store, and a procedure of it rejected from the command line
    store = tmp_path / "store"
    assert cli(store, "--store", str(store), "demo").returncode == 0
    listed = json.loads(cli(store, "procedures", "list", "--json").stdout)
    procedure = listed[0]["procedure_id"]
    rejected = cli(
        store, "procedures", "reject", procedure, "--reviewer", "legal-lead", "--reason", "Stale"
    )
    assert rejected.returncode == 0, rejected.stderr
    # When the history is shown, as text and as JSON, and the tenant exported
    text = cli(store, "history", "--tenant", "acme-legal")
    page = json.loads(cli(store, "history", "--tenant", "acme-legal", "--json").stdout)
    exported = cli(store, "export", "--tenant", "acme-legal")
    # Then the rejection is the latest decision, in both forms and in the export
    latest = page["decisions"][0]
    assert (latest["action"], latest["record_id"], latest["actor"]) == (
        "reject",
        procedure,
        "legal-lead",
    )
    assert f"reject procedure {procedure}  by legal-lead" in text.stdout
    kinds = [json.loads(line)["kind"] for line in exported.stdout.splitlines()]
    assert kinds.count("decision") == len(page["decisions"])
    assert json.loads(exported.stderr)["decisions"] == len(page["decisions"])
    # And forgetting the tenant forgets its history, counted in the receipt
    forgot = cli(store, "forget", "--tenant", "acme-legal", "--yes")
    assert json.loads(forgot.stdout)["decisions"] == len(page["decisions"])
    assert "no decisions" in cli(store, "history", "--tenant", "acme-legal").stdout


def test_approving_a_rejected_procedure_needs_an_explicit_overrule(local: LocalMemory) -> None:
    # Given a procedure a person rejected
    procedure = proposed(local, "run-1", "contract_review")
    local.client.reject_procedure("acme", procedure, reviewer="counsel", reason="Skips clause 9")
    # When another person approves it without saying it overrules the rejection
    with pytest.raises(ConflictError, match="rejected by counsel"):
        local.client.approve_procedure("acme", procedure, reviewer="legal-lead")
    # Then it stays rejected, the rejection intact and nothing added to the history
    kept = local.client.get_procedure("acme", procedure)
    assert (kept["status"], kept["reviewer"]) == ("REJECTED", "counsel")
    assert len(local.client.history("acme")["decisions"]) == 1
    # When they approve it saying so
    approved = local.client.approve_procedure(
        "acme", procedure, reviewer="legal-lead", overrule=True
    )
    # Then it is validated, and the history holds both decisions, the approval naming the other
    assert approved["status"] == "VALIDATED"
    latest, first = local.client.history("acme")["decisions"]
    assert (first["action"], first["actor"], first["reason"]) == (
        "reject",
        "counsel",
        "Skips clause 9",
    )
    assert (latest["action"], latest["actor"]) == ("approve", "legal-lead")
    assert latest["reason"] == "overrules the rejection by counsel: Skips clause 9"


@pytest.mark.slow
def test_the_cli_approves_a_rejected_procedure_only_when_told_to_overrule(tmp_path: Path) -> None:
    # Given the demo's store, its procedure rejected from the command line
    store = tmp_path / "store"
    assert cli(store, "--store", str(store), "demo").returncode == 0
    procedure = json.loads(cli(store, "procedures", "list", "--json").stdout)[0]["procedure_id"]
    decide = ("procedures", "reject", procedure, "--reviewer", "counsel", "--reason", "Stale")
    assert cli(store, *decide).returncode == 0
    # When it is approved without, then with, --overrule
    approve = ("procedures", "approve", procedure, "--reviewer", "legal-lead")
    refused = cli(store, *approve)
    overruled = cli(store, *approve, "--overrule")
    # Then the first is refused in one line naming the rejection and the flag's field
    assert refused.returncode != 0
    assert "rejected by counsel" in refused.stderr and "(overrule)" in refused.stderr
    assert "Traceback" not in refused.stderr
    # And the second validates it
    assert overruled.returncode == 0, overruled.stderr
    assert f"{procedure} is VALIDATED" in overruled.stdout


def test_one_records_decisions_are_read_back_alone_and_shown_with_it(local: LocalMemory) -> None:
    # Given a procedure rejected, then approved overruling it, among 120 other decisions
    target = proposed(local, "run-0", "contract_review")
    local.client.reject_procedure("acme", target, reviewer="counsel", reason="Skips clause 9")
    for n in range(1, 121):
        other = proposed(local, f"run-{n}", f"task-{n}")
        local.client.approve_procedure("acme", other, reviewer=f"reviewer-{n}")
    local.client.approve_procedure("acme", target, reviewer="lead", overrule=True)
    # When its history is asked for, one decision a page
    first = local.client.history("acme", record_id=target, limit=1)
    second = local.client.history("acme", record_id=target, limit=1, cursor=first["cursor"])
    # Then its two decisions come back alone, newest first, and the listing ends
    assert [d["action"] for d in first["decisions"] + second["decisions"]] == [
        "approve",
        "reject",
    ]
    assert second["cursor"] is None
    # And `procedures show` lists them under the procedure
    local.client.close()
    shown = cli(local.store.parent, "--store", str(local.store), "procedures", "show", target)
    assert shown.returncode == 0, shown.stderr
    after = shown.stdout.split("decisions:\n", 1)[1]
    assert after.index("approve procedure") < after.index("reject procedure")
    assert "Skips clause 9" in after
