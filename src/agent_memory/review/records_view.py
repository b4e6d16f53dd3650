"""The browser's procedures (every status: those awaiting review and those served are decided
on the review view) and the tenant's history, newest first.
"""

from __future__ import annotations

from collections.abc import Sequence

from agent_memory.core.api.bootstrap_reply import ProcedureView
from agent_memory.core.api.history_page import HistoryPage
from agent_memory.core.model.models import ProcedureStatus
from agent_memory.review.layout import e, pager, row, section, table, when

PROCEDURES_PATH = "/procedures"
HISTORY_PATH = "/history"

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
    title = e(view["title"]) + f" <code>{e(view['procedure_id'])}</code>"
    if act:
        title += f' · <a href="/#{e(anchor)}">{e(act)}</a>'
    rate = view["success_rate"]
    record = f"{view['times_applied']} use(s), success {'—' if rate is None else f'{rate:.0%}'}"
    review = "—"
    if view["reviewer"]:
        note = f": {view['review_note']}" if view["review_note"] else ""
        review = f"{view['reviewer']}, {when(view['reviewed_at'])}{note}"
    return row(
        title,
        e(view["status"]),
        e(view["task_type"]),
        e(record),
        e(review),
        procedure_id=view["procedure_id"],
    )


def history_list(page: HistoryPage) -> str:
    """One page of decisions, newest first: who, when, what on which record, and why."""
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
    return listing + pager(HISTORY_PATH, page["cursor"])
