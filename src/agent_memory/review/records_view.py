"""The browser's procedures (every status: those awaiting review and those served are decided
on the review view), one procedure with its steps, its decisions and, when a person took it out
of service, the form approving it again; and the tenant's history, newest first.
"""

from __future__ import annotations

from collections.abc import Sequence

from agent_memory.core.api.bootstrap_reply import ProcedureView
from agent_memory.core.api.history_page import HistoryPage
from agent_memory.core.model.models import ProcedureStatus
from agent_memory.review.layout import (
    ActionForm,
    e,
    fields_list,
    link,
    pager,
    row,
    section,
    table,
    when,
)

PROCEDURES_PATH = "/procedures"
PROCEDURE_PATH = "/procedure"
OVERRULE_PATH = "/procedures/overrule"
HISTORY_PATH = "/history"
# The statuses a person gave a procedure to stop serving it: approving it again overrules them.
OVERRULABLE = (ProcedureStatus.REJECTED.value, ProcedureStatus.RETIRED.value)

# Each status's part of the view, and where a person acts on it.
_GROUPS = (
    (("PENDING", "NEEDS_REVIEW"), "Awaiting review", "decide on the Review view"),
    (("VALIDATED",), "Served", "retire on the Review view"),
    (("REJECTED", "RETIRED"), "Not served", ""),
)
NEEDS_TENANT = (
    "The memory browser shows one tenant at a time: start the server with --tenant "
    "(agent-memory review --tenant ID)."
)


def procedures_list(procedures: Sequence[ProcedureView]) -> str:
    """The tenant's procedures by status, each linked to where a person decides on it."""
    parts = []
    for statuses, title, act in _GROUPS:
        rows = [_procedure_row(view, act) for view in procedures if view["status"] in statuses]
        parts.append(section(title, table(_PROCEDURE_COLUMNS, rows, "None.")))
    return "".join(parts)


_PROCEDURE_COLUMNS = ("Procedure", "Status", "Task type", "Record", "Last review")


def _procedure_row(view: ProcedureView, act: str) -> str:
    served = view["status"] == ProcedureStatus.VALIDATED.value
    anchor = f"served-{view['procedure_id']}" if served else view["procedure_id"]
    title = link(PROCEDURE_PATH, view["title"], id=view["procedure_id"])
    title += f" <code>{e(view['procedure_id'])}</code>"
    if act:
        title += f' · <a href="/#{e(anchor)}">{e(act)}</a>'
    return row(
        title,
        e(view["status"]),
        e(view["task_type"]),
        e(_track_record(view)),
        e(_last_review(view)),
        procedure_id=view["procedure_id"],
    )


def _track_record(view: ProcedureView) -> str:
    rate = view["success_rate"]
    return f"{view['times_applied']} use(s), success {'—' if rate is None else f'{rate:.0%}'}"


def _last_review(view: ProcedureView) -> str:
    if not view["reviewer"]:
        return "—"
    note = f": {view['review_note']}" if view["review_note"] else ""
    return f"{view['reviewer']}, {when(view['reviewed_at'])}{note}"


def procedure_page(view: ProcedureView, decisions: str, csrf_token: str, tenant_id: str) -> str:
    """The procedure's fields and steps, its decisions (markup already escaped), then where a
    person acts on it: the "Approve again (overrule)" form when a person took it out of service,
    else a link to the Review view.
    """
    pid = view["procedure_id"]
    edited = (
        "as proposed"
        if view["edited_by"] is None
        else (f"revision {view['revision']}, last by {view['edited_by']} {when(view['edited_at'])}")
    )
    fields = [
        ("Procedure", e(view["title"])),
        ("Id", f"<code>{e(pid)}</code>"),
        ("Status", e(view["status"]) + (" (on trial)" if view["trial"] else "")),
        ("Task type", e(view["task_type"])),
        ("Record", e(_track_record(view))),
        ("Proposed by", e(f"{view['proposals']} run(s): {', '.join(view['proposed_by_runs'])}")),
        ("Last review", e(_last_review(view))),
        ("Steps edited", e(edited)),
    ]
    steps = "".join(f"<li>{e(step)}</li>" for step in view["steps"])
    shown = (
        f'<article class="record procedure-record" data-procedure-id="{e(pid)}">'
        f'{fields_list(fields)}<h3>Steps</h3><ol class="steps">{steps}</ol></article>'
        + section("Decisions", decisions)
    )
    if view["status"] not in OVERRULABLE:
        anchor = f"served-{pid}" if view["status"] == ProcedureStatus.VALIDATED.value else pid
        where = "retire it" if view["status"] == ProcedureStatus.VALIDATED.value else "decide"
        return (
            shown + f'<p class="hint"><a href="/#{e(anchor)}">{e(where)} on the Review view</a></p>'
        )
    overrule = ActionForm(
        name="overrule",
        action=OVERRULE_PATH,
        button="Approve again (overrule)",
        confirm=f"Overrule the {view['status'].lower()} decision: serve these steps again from "
        "the next bootstrap on (the history keeps both decisions)",
        hidden=(("procedure_id", pid),),
    )
    return shown + section("Approve again (overrule)", overrule.html(csrf_token, tenant_id))


def history_list(page: HistoryPage, path: str = HISTORY_PATH, **kept: str) -> str:
    """One page of decisions, newest first: who, when, what on which record, and why (its next
    page at ``path``, keeping the query ``kept``).
    """
    rows = [
        row(
            e(when(d["at"])),
            e(d["actor"]),
            e(d["action"]),
            e(f"{d['kind']} {d['record_id']}"),
            e(d["reason"] or "—"),
            decision_id=d["decision_id"],
        )
        for d in page["decisions"]
    ]
    columns = ("When", "Who", "Action", "Record", "Reason")
    listing = table(columns, rows, "No one has decided anything yet.")
    return listing + pager(path, page["cursor"], **kept)
