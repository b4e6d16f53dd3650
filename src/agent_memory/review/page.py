"""The review view: pending procedures with their evidence and a decision form each, the
served ones with a retire form, and the tenant's open flags, in the shared frame
(:mod:`agent_memory.review.layout`, which escapes every stored value).
"""

from __future__ import annotations

from collections.abc import Sequence
from string import Template
from typing import Literal

from agent_memory.app.replies import ReviewItem, SourceRun
from agent_memory.core.api.bootstrap_reply import ProcedureView
from agent_memory.core.api.flag_page import FlagRecord
from agent_memory.core.model.models import Procedure, ProcedureStatus
from agent_memory.core.model.procedure_diff import ProcedureDiff, StepChange
from agent_memory.review.layout import Banner, render_shell
from agent_memory.review.layout import e as _e
from agent_memory.review.layout import field as _field
from agent_memory.review.layout import when as _when

DECIDE_PATH = "/decide"
EDIT_PATH = "/edit"
RETIRE_PATH = "/retire"
DISMISS_PATH = "/dismiss"


_ITEM = Template(
    """<article class="procedure" id="$anchor" data-procedure-id="$procedure_id">
  <h2>$title</h2> <span class="status $status">$status</span>
  <p class="meta"><code>$procedure_id</code> · tenant <b>$tenant</b> · task type
    <b>$task_type</b> · proposed $created · updated $updated</p>
  $flag
  <div class="grid">
    <section class="steps"><h3>Steps</h3><ol>$steps</ol></section>
    <section class="history"><h3>Success history</h3><dl class="history">$history</dl></section>
  </div>
  <section class="runs"><h3>Proposed by $run_count</h3>$runs</section>
  <section class="diff"><h3>Against the procedure served now</h3>$diff</section>
  <form class="decision" method="post" action="$action">
    <input type="hidden" name="csrf_token" value="$csrf">
    <input type="hidden" name="procedure_id" value="$procedure_id">
    <input type="hidden" name="tenant_id" value="$tenant">
    <input type="hidden" name="expected_revision" value="$revision">
    <input type="hidden" name="reviewer" value="">
    <label>Reason <span class="hint">(required to reject; kept as the review note)</span>
      <textarea name="reason" maxlength="2000" rows="2"></textarea></label>
    <button type="submit" class="approve" name="decision" value="approve">Approve</button>
    <button type="submit" class="reject" name="decision" value="reject">Reject</button>
    <p class="problem" role="alert" hidden></p>
  </form>
</article>
$edit
"""
)

# A person's edit of the steps, before approving them: the same page, one form per procedure.
_EDIT = Template(
    """<details class="edit" data-edit-id="$procedure_id">
  <summary>Edit the steps of <code>$procedure_id</code> before approving them</summary>
  <form class="repair edit" method="post" action="$action">
    <input type="hidden" name="csrf_token" value="$csrf">
    <input type="hidden" name="procedure_id" value="$procedure_id">
    <input type="hidden" name="tenant_id" value="$tenant">
    <input type="hidden" name="expected_revision" value="$revision">
    <input type="hidden" name="reviewer" value="">
    <label>Title <input type="text" name="title" maxlength="200" value="$title"></label>
    <label>Steps <span class="hint">(one per line; it stays $status and is served once
      approved)</span>
      <textarea class="steps" name="steps" rows="$rows">$steps</textarea></label>
    <label>Reason <span class="hint">(required; kept in the history)</span>
      <textarea name="reason" maxlength="2000" rows="2"></textarea></label>
    <label><input type="checkbox" name="confirm" value="yes"> Replace the steps (the
      history keeps a digest of the old ones, not their text)</label>
    <button type="submit" class="save">Save the edit</button>
    <p class="problem" role="alert" hidden></p>
  </form>
</details>"""
)

_SERVED = Template(
    """<article class="served" id="served-$anchor" data-served-id="$procedure_id">
  <h2>$title</h2> <span class="status VALIDATED">VALIDATED</span>
  <p class="meta"><code>$procedure_id</code> · tenant <b>$tenant</b> · task type
    <b>$task_type</b> · $record</p>
  <section class="steps"><h3>Steps</h3><ol>$steps</ol></section>
  <form class="repair retire" method="post" action="$action">
    <input type="hidden" name="csrf_token" value="$csrf">
    <input type="hidden" name="procedure_id" value="$procedure_id">
    <input type="hidden" name="tenant_id" value="$tenant">
    <input type="hidden" name="reviewer" value="">
    <label>Reason <span class="hint">(required; kept as the review note)</span>
      <textarea name="reason" maxlength="1000" rows="2"></textarea></label>
    <label><input type="checkbox" name="confirm" value="yes"> Retire it for good: no run is
      served it again unless a person approves it again</label>
    <button type="submit" class="retire">Retire</button>
    <p class="problem" role="alert" hidden></p>
  </form>
</article>
"""
)

_FLAG = Template(
    """<article class="flagged" data-flag-id="$flag_id">
  <p class="meta"><b>$agent</b> flagged the $kind <code>$record_id</code> · $when$run</p>
  <blockquote>$reason</blockquote>
  <form class="dismissal" method="post" action="$action" data-confirm="$confirm">
    <input type="hidden" name="csrf_token" value="$csrf">
    <input type="hidden" name="flag_id" value="$flag_id">
    <input type="hidden" name="back" value="$back">
    <input type="hidden" name="tenant_id" value="$tenant">
    <input type="hidden" name="reviewer" value="">
    <label>Reason <span class="hint">(required: why the item stands; kept in the history)</span>
      <textarea name="reason" maxlength="2000" rows="2"></textarea></label>
    <button type="submit" class="dismiss">Dismiss the flag</button>
    <p class="problem" role="alert" hidden></p>
  </form>
</article>
"""
)


def render_page(
    items: Sequence[ReviewItem],
    *,
    csrf_token: str,
    nonce: str,
    banner: Banner | None = None,
    tenant_id: str | None = None,
    served: Sequence[ProcedureView] = (),
    flags: Sequence[FlagRecord] | None = None,
) -> str:
    """The whole review page: every item with its evidence, a decision form and an edit form,
    then the ``served`` (validated) procedures, each with a retire form, then the tenant's open
    flags (``flags``; None: the page is of every tenant, whose flags are reviewed one tenant at
    a time), each with a dismissal form.
    """
    scope = f"tenant {tenant_id}" if tenant_id else "all tenants"
    count = f"{len(items)} procedure{'s' if len(items) != 1 else ''} · {scope}"
    body = (
        "".join(_item(item, csrf_token) for item in items)
        if items
        else '<p class="empty">Nothing awaits review.</p>'
    )
    if served:
        body += '<h2 class="served">Served now</h2>' + "".join(
            _served(view, csrf_token) for view in served
        )
    return render_shell(
        view="review",
        title="Procedure review",
        heading="Procedures awaiting review",
        scope=count,
        body=body + render_flags(flags, tenant_id, csrf_token),
        nonce=nonce,
        banner=banner,
    )


def _item(item: ReviewItem, csrf_token: str) -> str:
    p = item.procedure
    flag = (
        f'<p class="flag">Flagged by decay: {_e(item.flagged_because)}. Approve to serve it '
        "again, or reject it.</p>"
        if item.flagged_because
        else ""
    )
    total_runs = len(item.runs) + item.runs_not_shown
    return _ITEM.substitute(
        anchor=_e(p.procedure_id),
        procedure_id=_e(p.procedure_id),
        title=_e(p.title),
        status=_e(p.status.value),
        tenant=_e(p.tenant_id),
        task_type=_e(p.task_type),
        created=_e(_when(p.created_at)),
        updated=_e(_when(p.updated_at)),
        flag=flag,
        steps="".join(f"<li>{_e(step)}</li>" for step in p.steps),
        history=_history(item),
        run_count=_e(f"{total_runs} run{'s' if total_runs != 1 else ''}"),
        runs=_runs(item.runs, item.runs_not_shown),
        diff=_diff(item.diff, item.served_trial),
        action=DECIDE_PATH,
        csrf=_e(csrf_token),
        revision=str(p.revision),
        edit=_edit(p, csrf_token),
    )


def _edit(p: Procedure, csrf_token: str) -> str:
    # One line per step: a step's own line breaks become spaces in the form.
    lines = [" ".join(step.splitlines()) for step in p.steps]
    edited = (
        f'<p class="edited">Steps edited by {_e(p.edited_by)}, {_e(_when(p.edited_at))} '
        f"(revision {p.revision}).</p>"
        if p.edited_by
        else ""
    )
    return edited + _EDIT.substitute(
        action=EDIT_PATH,
        csrf=_e(csrf_token),
        procedure_id=_e(p.procedure_id),
        tenant=_e(p.tenant_id),
        revision=str(p.revision),
        title=_field(p.title),
        status=_e(p.status.value),
        rows=str(min(max(len(lines) + 1, 4), 20)),
        steps=_field("\n".join(lines)),
    )


def _served(view: ProcedureView, csrf_token: str) -> str:
    rate = view["success_rate"]
    record = (
        f"on trial, {view['times_applied']} use(s) so far"
        if view["trial"]
        else f"success {'—' if rate is None else f'{rate:.0%}'} over {view['times_applied']} use(s)"
    )
    return _SERVED.substitute(
        anchor=_e(view["procedure_id"]),
        procedure_id=_e(view["procedure_id"]),
        title=_e(view["title"]),
        tenant=_e(view["tenant_id"]),
        task_type=_e(view["task_type"]),
        record=_e(record),
        steps="".join(f"<li>{_e(step)}</li>" for step in view["steps"]),
        action=RETIRE_PATH,
        csrf=_e(csrf_token),
    )


def render_flags(
    flags: Sequence[FlagRecord] | None,
    tenant_id: str | None,
    csrf_token: str,
    back: Literal["review", "flags"] = "review",
) -> str:
    """The tenant's open flags, each with a dismissal form (None: the page is of every
    tenant, whose flags are reviewed one tenant at a time).
    """
    heading = '<section class="flags" id="flags"><h2>Flagged by agents</h2>'
    if flags is None or tenant_id is None:
        hint = "Flags are reviewed one tenant at a time: open this page with --tenant."
        return f'{heading}<p class="hint">{_e(hint)}</p></section>'
    if not flags:
        return f'{heading}<p class="empty">No agent has flagged anything.</p></section>'
    listed = "".join(_flag(flag, tenant_id, csrf_token, back) for flag in flags)
    return f"{heading}{listed}</section>"


def _flag(flag: FlagRecord, tenant_id: str, csrf_token: str, back: str) -> str:
    confirm = (
        f"Dismiss the flag of {flag['agent_id']} on {flag['kind']} {flag['record_id']}? "
        "That agent is served it again."
    )
    return _FLAG.substitute(
        flag_id=_e(flag["flag_id"]),
        agent=_e(flag["agent_id"]),
        kind=_e(flag["kind"]),
        record_id=_e(flag["record_id"]),
        when=_e(_when(flag["flagged_at"])),
        run=_e(f" · in run {flag['run_id']}" if flag["run_id"] else ""),
        reason=_e(flag["reason"]),
        action=DISMISS_PATH,
        confirm=_e(confirm),
        csrf=_e(csrf_token),
        tenant=_e(tenant_id),
        back=_e(back),
    )


def _rate(procedure: Procedure) -> str:
    rate = procedure.success_rate
    return "—" if rate is None else f"{rate:.0%}"


def _history(item: ReviewItem) -> str:
    p = item.procedure
    rows = [
        ("Times applied", str(p.times_applied)),
        ("Times succeeded", str(p.times_succeeded)),
        ("Success rate", _rate(p)),
        ("Trial", _trial(item)),
        ("Last applied", _when(p.last_applied_at)),
    ]
    if p.reviewer:
        note = f" ({p.review_note})" if p.review_note else ""
        rows.append(("Last review", f"{p.reviewer}, {_when(p.reviewed_at)}{note}"))
    return "".join(f"<dt>{_e(name)}</dt><dd>{_e(value)}</dd>" for name, value in rows)


def _trial(item: ReviewItem) -> str:
    if item.trial:
        return "yes: still earning its first uses"
    if item.procedure.status is ProcedureStatus.PENDING:
        return "starts when approved"
    return "no"


def _runs(runs: Sequence[SourceRun], not_shown: int) -> str:
    if not runs:
        return '<p class="hint">No run is recorded as its source.</p>'
    rows = "".join(_run_row(run) for run in runs)
    more = f'<p class="hint">… and {not_shown} more run(s).</p>' if not_shown else ""
    return (
        "<table><thead><tr><th>Run</th><th>Agent</th><th>Outcome</th><th>Summary</th>"
        f"<th>When</th></tr></thead><tbody>{rows}</tbody></table>{more}"
    )


def _run_row(run: SourceRun) -> str:
    if run.found_in == "not stored":
        summary = "(no episode or run record is stored any more)"
    else:
        summary = run.summary or ""
        if run.found_in == "run record":
            summary += " (from the run record: its episode is gone)"
        elif run.expired:
            summary += " (episode expired)"
    cells = (run.run_id, run.agent_id or "", run.outcome or "", summary, _when(run.at))
    if run.at is None:
        cells = (*cells[:4], "")
    return (
        f'<tr data-run-id="{_e(run.run_id)}">'
        + "".join(f"<td>{_e(cell)}</td>" for cell in cells)
        + "</tr>"
    )


def _diff(diff: ProcedureDiff, served_trial: bool) -> str:
    served = diff.old
    if served is None:
        return (
            '<p class="hint">No validated procedure is served for this task type: approving '
            "this one makes it the one served (as a trial).</p>"
        )
    record = (
        f"on trial, {served.times_applied} use(s) so far"
        if served_trial
        else f"success {_rate(served)} over {served.times_applied} use(s)"
    )
    header = (
        f'<p class="meta">Served now: <b>{_e(served.title)}</b> <code>'
        f"{_e(served.procedure_id)}</code> · {_e(record)} · {_e(diff.summary())}</p>"
    )
    title = (
        f"<p>Title: <del>{_e(served.title)}</del> → <ins>{_e(diff.new.title)}</ins></p>"
        if diff.title_changed
        else ""
    )
    lines = "".join(_change(change) for change in diff.changes)
    hint = (
        '<p class="hint">Approving validates it beside the served one: bootstrap serves a '
        "proven procedure before one on trial, and the newest approval among those on "
        "trial.</p>"
    )
    return f'{header}{title}<ol class="diff">{lines}</ol>{hint}'


_MARKERS = {"same": " ", "added": "+", "removed": "-", "changed": "~"}


def _change(change: StepChange) -> str:
    old = "" if change.old_number is None else str(change.old_number)
    new = "" if change.new_number is None else str(change.new_number)
    numbers = f'<span class="num">{_MARKERS[change.kind]} {old:>3} {new:>3}  </span>'
    if change.kind == "changed":
        tags = {"same": "{}", "removed": "<del>{}</del>", "added": "<ins>{}</ins>"}
        text = " ".join(tags[piece.op].format(_e(piece.text)) for piece in change.words)
    else:
        text = _e(change.new if change.new is not None else change.old or "")
    return f'<li class="{change.kind}">{numbers}{text}</li>'
