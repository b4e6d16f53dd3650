"""The review page: HTML, CSS and JS templates, filled with escaped stored text.

Everything shown comes from memory that runs wrote, so every value goes through
:func:`html.escape`, each hidden character shown by name (``core/model/visible.py``); the page
also runs under a nonce-only Content-Security-Policy, so markup
that slipped through could not run a script anyway.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from html import escape
from string import Template
from typing import Literal

from agent_memory.app.replies import ReviewItem, SourceRun
from agent_memory.core.api.bootstrap_reply import ProcedureView
from agent_memory.core.api.flag_page import FlagRecord
from agent_memory.core.model.models import Procedure, ProcedureStatus
from agent_memory.core.model.procedure_diff import ProcedureDiff, StepChange
from agent_memory.core.model.visible import one_line

DECIDE_PATH = "/decide"
EDIT_PATH = "/edit"
RETIRE_PATH = "/retire"
DISMISS_PATH = "/dismiss"


@dataclass(frozen=True, slots=True)
class Banner:
    """A message above the list: what a decision did, or why it did not happen."""

    kind: Literal["ok", "error"]
    text: str


_CSS = """
:root { color-scheme: light dark; --ok: #1a7f37; --bad: #cf222e; --muted: #6e7781;
  --line: #d0d7de; --add: #dafbe1; --del: #ffebe9; --card: #ffffff; --bg: #f6f8fa; }
@media (prefers-color-scheme: dark) { :root { --line: #30363d; --add: #12361f; --del: #42191b;
  --card: #161b22; --bg: #0d1117; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, sans-serif; background: var(--bg); }
header.top { position: sticky; top: 0; z-index: 1; display: flex; flex-wrap: wrap; gap: 1rem;
  align-items: center; justify-content: space-between; padding: .8rem 1.5rem;
  background: var(--card); border-bottom: 1px solid var(--line); }
header.top h1 { font-size: 1.2rem; margin: 0; }
header.top .scope { color: var(--muted); margin: 0; }
label.reviewer input { font: inherit; padding: .3rem .5rem; width: 16rem; }
main { max-width: 72rem; margin: 0 auto; padding: 1rem 1.5rem 3rem; }
.banner { max-width: 72rem; margin: 1rem auto 0; padding: .6rem 1rem; border-radius: 6px;
  border: 1px solid; }
.banner.ok { border-color: var(--ok); color: var(--ok); }
.banner.error { border-color: var(--bad); color: var(--bad); }
.empty { color: var(--muted); font-size: 1.1rem; }
article.procedure, article.served { background: var(--card); border: 1px solid var(--line);
  border-radius: 8px; padding: 1rem 1.25rem; margin: 1rem 0; }
article h2 { margin: 0 .5rem 0 0; font-size: 1.15rem; display: inline; }
article h3 { font-size: .95rem; margin: 1rem 0 .4rem; text-transform: uppercase;
  letter-spacing: .04em; color: var(--muted); }
.meta, .hint { color: var(--muted); margin: .3rem 0; }
.status { font-size: .75rem; font-weight: 600; padding: .1rem .45rem; border-radius: 999px;
  border: 1px solid var(--line); vertical-align: middle; }
.status.NEEDS_REVIEW { border-color: var(--bad); color: var(--bad); }
.flag { color: var(--bad); }
.grid { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 0 2rem; }
@media (max-width: 800px) { .grid { grid-template-columns: minmax(0, 1fr); } }
dl.history { display: grid; grid-template-columns: max-content auto; gap: .15rem 1rem;
  margin: 0; }
dl.history dt { color: var(--muted); }
dl.history dd { margin: 0; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; }
th, td { text-align: left; vertical-align: top; padding: .25rem .5rem;
  border-bottom: 1px solid var(--line); }
ol.diff { list-style: none; padding: 0; margin: 0; font-family: ui-monospace, monospace;
  font-size: .88rem; }
ol.diff li { padding: .15rem .5rem; white-space: pre-wrap; }
ol.diff .num { color: var(--muted); }
ol.diff li.added { background: var(--add); }
ol.diff li.removed { background: var(--del); }
ins { background: var(--add); text-decoration: none; }
del { background: var(--del); }
form.decision { display: flex; flex-wrap: wrap; gap: .6rem; align-items: flex-end;
  margin-top: 1rem; padding-top: 1rem; border-top: 1px solid var(--line); }
form.decision label { flex: 1 1 24rem; }
form.decision textarea { display: block; width: 100%; min-height: 2.6rem; font: inherit; }
button { font: inherit; padding: .45rem 1.1rem; border-radius: 6px; cursor: pointer;
  border: 1px solid var(--line); }
button.approve { background: var(--ok); border-color: var(--ok); color: #fff; }
button.reject { background: transparent; border-color: var(--bad); color: var(--bad); }
.problem { flex-basis: 100%; color: var(--bad); margin: 0; }
details.edit { margin: -.6rem 0 1rem; padding: .6rem 1.25rem; background: var(--card);
  border: 1px solid var(--line); border-radius: 0 0 8px 8px; }
form.repair { display: flex; flex-direction: column; gap: .5rem; margin-top: .6rem; }
form.repair textarea, form.repair input[type=text] { width: 100%; font: inherit; }
form.repair textarea.steps { min-height: 8rem; font-family: ui-monospace, monospace; }
button.retire { background: transparent; border-color: var(--bad); color: var(--bad);
  align-self: flex-start; }
button.save { align-self: flex-start; }
.edited { color: var(--muted); }
section.flags h2 { font-size: 1.1rem; margin: 1.5rem 0 .5rem; }
article.flagged { background: var(--card); border: 1px solid var(--bad); border-radius: 8px;
  padding: .8rem 1.25rem; margin: .8rem 0; }
article.flagged blockquote { margin: .4rem 0; white-space: pre-wrap; }
button.dismiss { background: transparent; border-color: var(--muted); }
/* Stored text keeps its spaces: what is shown is what an agent is served. */
article h2, .steps li, dl.history dd, td, .meta b, ins, del { white-space: pre-wrap; }
"""

_JS = """
(function () {
  "use strict";
  var reviewer = document.getElementById("reviewer");
  var KEY = "agent-memory.reviewer";
  try {
    if (!reviewer.value) { reviewer.value = localStorage.getItem(KEY) || ""; }
    reviewer.addEventListener("input", function () {
      localStorage.setItem(KEY, reviewer.value.trim());
    });
  } catch (ignored) { /* storage may be disabled: the name is then typed each time */ }
  function refuse(event, form, message, field) {
    event.preventDefault();
    var problem = form.querySelector(".problem");
    problem.textContent = message;
    problem.hidden = false;
    field.focus();
  }
  // A page restored from the back/forward cache would keep its disabled buttons.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) { window.location.reload(); }
  });
  document.querySelectorAll("form.decision").forEach(function (form) {
    form.querySelectorAll("button").forEach(function (button) {
      button.addEventListener("click", function () { form.dataset.decision = button.value; });
    });
    form.addEventListener("submit", function (event) {
      var decision = event.submitter ? event.submitter.value : form.dataset.decision;
      if (decision !== "approve" && decision !== "reject") {
        event.preventDefault();
        return;
      }
      var name = reviewer.value.trim();
      if (!name) {
        refuse(event, form, "Type your name as reviewer (top right) first.", reviewer);
        return;
      }
      var reason = form.elements.namedItem("reason");
      if (decision === "reject" && !reason.value.trim()) {
        refuse(event, form, "A rejection needs a reason: say what is wrong.", reason);
        return;
      }
      form.elements.namedItem("reviewer").value = name;
      // Disabled buttons are left out of the submission, so the choice travels in a field.
      form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
      var chosen = document.createElement("input");
      chosen.type = "hidden";
      chosen.name = "decision";
      chosen.value = decision;
      form.appendChild(chosen);
    });
  });
  // An edit or a retirement: a name, a reason and the confirmation box, then one submission.
  document.querySelectorAll("form.repair").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      var name = reviewer.value.trim();
      if (!name) {
        refuse(event, form, "Type your name as reviewer (top right) first.", reviewer);
        return;
      }
      var steps = form.elements.namedItem("steps");
      if (steps && !steps.value.trim()) {
        refuse(event, form, "Give at least one step, one per line.", steps);
        return;
      }
      var reason = form.elements.namedItem("reason");
      if (!reason.value.trim()) {
        refuse(event, form, "Say why: the history keeps the reason.", reason);
        return;
      }
      var confirmed = form.elements.namedItem("confirm");
      if (!confirmed.checked) {
        refuse(event, form, "Tick the box to confirm.", confirmed);
        return;
      }
      form.elements.namedItem("reviewer").value = name;
      form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    });
  });
  document.querySelectorAll("form.dismissal").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      var name = reviewer.value.trim();
      if (!name) {
        refuse(event, form, "Type your name as reviewer (top right) first.", reviewer);
        return;
      }
      var reason = form.elements.namedItem("reason");
      if (!reason.value.trim()) {
        refuse(event, form, "A dismissal needs a reason: say why the item stands.", reason);
        return;
      }
      if (!window.confirm(form.dataset.confirm)) {
        event.preventDefault();
        return;
      }
      form.elements.namedItem("reviewer").value = name;
      form.querySelector("button").disabled = true;
    });
  });
})();
"""

_PAGE = Template(
    """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Procedure review · agent-memory</title>
<style nonce="$nonce">$css</style>
</head>
<body>
<header class="top">
  <div>
    <h1>Procedures awaiting review</h1>
    <p class="scope">$scope</p>
  </div>
  <label class="reviewer">Reviewer
    <input id="reviewer" autocomplete="name" maxlength="128" placeholder="your name">
  </label>
</header>
<noscript><p class="banner error">This page needs JavaScript to carry your reviewer name
into a decision.</p></noscript>
$banner
<main>
$items
$flags
</main>
<script nonce="$nonce">$js</script>
</body>
</html>
"""
)

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

_ERROR = Template(
    """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>$title · agent-memory</title></head>
<body><h1>$title</h1><p>$message</p><p><a href="/">Back to the review list</a></p></body>
</html>
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
    return _PAGE.substitute(
        nonce=_e(nonce),
        css=_CSS,
        js=_JS,
        scope=_e(count),
        banner=_banner(banner),
        items=body,
        flags=_flags(flags, tenant_id, csrf_token),
    )


def render_error(title: str, message: str) -> str:
    """A bare page for a refused request (no form, no token)."""
    return _ERROR.substitute(title=_e(title), message=_e(message))


def _e(value: object) -> str:
    # Stored text as the memory block shows it: one line, each hidden character by name, so the
    # reviewer reads every character an agent would be served.
    return escape(one_line(str(value)), quote=True)


def _banner(banner: Banner | None) -> str:
    if banner is None:
        return ""
    role = "status" if banner.kind == "ok" else "alert"
    return f'<p class="banner {banner.kind}" role="{role}">{_e(banner.text)}</p>'


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
        edit=_edit(p, csrf_token),
    )


def _field(value: str) -> str:
    # A form field's value is sent back as it is shown: escaped, but not made one line.
    return escape(value, quote=True)


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


def _flags(flags: Sequence[FlagRecord] | None, tenant_id: str | None, csrf_token: str) -> str:
    heading = '<section class="flags"><h2>Flagged by agents</h2>'
    if flags is None or tenant_id is None:
        hint = "Flags are reviewed one tenant at a time: open this page with --tenant."
        return f'{heading}<p class="hint">{_e(hint)}</p></section>'
    if not flags:
        return f'{heading}<p class="empty">No agent has flagged anything.</p></section>'
    return heading + "".join(_flag(flag, tenant_id, csrf_token) for flag in flags) + "</section>"


def _flag(flag: FlagRecord, tenant_id: str, csrf_token: str) -> str:
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
    )


def _when(timestamp: float | None) -> str:
    if timestamp is None:
        return "never"
    return datetime.fromtimestamp(timestamp, UTC).strftime("%Y-%m-%d %H:%M UTC")


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
