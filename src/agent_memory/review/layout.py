"""The review server's shared page: the frame of every view (header, reviewer name, the views'
navigation, a banner), its CSS and JS, and the escaping every value goes through.

Everything shown comes from memory that runs wrote, so every value goes through
:func:`html.escape`, each hidden character shown by name (``core/model/visible.py``); the pages
also run under a nonce-only Content-Security-Policy, so markup that slipped through could not
run a script anyway, and no element carries an inline event handler.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from html import escape
from string import Template
from typing import Literal
from urllib.parse import urlencode

from agent_memory.core.model.visible import one_line

# The views, in the navigation's order: (name, path, label).
VIEWS = (
    ("review", "/", "Review"),
    ("episodes", "/episodes", "Episodes"),
    ("facts", "/facts", "Facts"),
    ("procedures", "/procedures", "Procedures"),
    ("flags", "/flags", "Flags"),
    ("history", "/history", "History"),
    ("redact", "/redact", "Redact"),
)


@dataclass(frozen=True, slots=True)
class Banner:
    """A message above the view: what an action did, or why it did not happen."""

    kind: Literal["ok", "error"]
    text: str


CSS = """
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
nav.views { display: flex; flex-wrap: wrap; gap: .2rem; max-width: 72rem;
  margin: .8rem auto 0; padding: 0 1.5rem; }
nav.views a { padding: .3rem .8rem; border: 1px solid var(--line); border-radius: 6px;
  text-decoration: none; color: inherit; background: var(--card); }
nav.views a[aria-current=page] { border-color: var(--ok); font-weight: 600; }
section.view h2 { font-size: 1.1rem; margin: 1.2rem 0 .5rem; }
article.record { background: var(--card); border: 1px solid var(--line); border-radius: 8px;
  padding: 1rem 1.25rem; margin: 1rem 0; }
dl.fields { display: grid; grid-template-columns: max-content minmax(0, 1fr);
  gap: .25rem 1rem; margin: 0; }
dl.fields dt { color: var(--muted); }
dl.fields dd { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
dl.fields ul { margin: 0; padding-left: 1.1rem; }
form.search { display: flex; flex-wrap: wrap; gap: .5rem; align-items: flex-end; }
form.search input[type=search] { flex: 1 1 20rem; font: inherit; padding: .3rem .5rem; }
p.pager a { font-weight: 600; }
button.danger { background: transparent; border-color: var(--bad); color: var(--bad);
  align-self: flex-start; }
td a, dd a { overflow-wrap: anywhere; }
"""

JS = """
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
      var missing = Array.prototype.find.call(
        form.querySelectorAll("[data-required]"),
        function (field) { return !field.value.trim(); }
      );
      if (missing) {
        refuse(event, form, missing.dataset.required, missing);
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

_SHELL = Template(
    """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>$title · agent-memory</title>
<style nonce="$nonce">$css</style>
</head>
<body>
<header class="top">
  <div>
    <h1>$heading</h1>
    <p class="scope">$scope</p>
  </div>
  <label class="reviewer">Reviewer
    <input id="reviewer" autocomplete="name" maxlength="128" placeholder="your name">
  </label>
</header>
<nav class="views" aria-label="Views">$nav</nav>
<noscript><p class="banner error">This page needs JavaScript to carry your reviewer name
into a decision.</p></noscript>
$banner
<main>
$body
</main>
<script nonce="$nonce">$js</script>
</body>
</html>
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


def render_shell(
    *,
    view: str,
    title: str,
    heading: str,
    scope: str,
    body: str,
    nonce: str,
    banner: Banner | None = None,
) -> str:
    """A whole page: the frame around ``body`` (markup already escaped), ``view`` marked as
    the current one in the navigation.
    """
    return _SHELL.substitute(
        title=e(title),
        nonce=e(nonce),
        css=CSS,
        js=JS,
        heading=e(heading),
        scope=e(scope),
        nav=_nav(view),
        banner=banner_html(banner),
        body=body,
    )


def render_error(title: str, message: str) -> str:
    """A bare page for a refused request (no form, no token)."""
    return _ERROR.substitute(title=e(title), message=e(message))


def e(value: object) -> str:
    """Stored text as the memory block shows it: one line, each hidden character by name, so
    a person reads every character an agent would be served; escaped for HTML.
    """
    return escape(one_line(str(value)), quote=True)


def field(value: str) -> str:
    """A form field's value: escaped, but not made one line (it is sent back as shown)."""
    return escape(value, quote=True)


def when(timestamp: float | None) -> str:
    """A moment as a person reads it, in UTC."""
    if timestamp is None:
        return "never"
    return datetime.fromtimestamp(timestamp, UTC).strftime("%Y-%m-%d %H:%M UTC")


def banner_html(banner: Banner | None) -> str:
    """The banner's markup (empty without one)."""
    if banner is None:
        return ""
    role = "status" if banner.kind == "ok" else "alert"
    return f'<p class="banner {banner.kind}" role="{role}">{e(banner.text)}</p>'


def _nav(current: str) -> str:
    links = []
    for name, path, label in VIEWS:
        marked = ' aria-current="page"' if name == current else ""
        links.append(f'<a href="{path}" data-view="{name}"{marked}>{label}</a>')
    return "".join(links)


_ACTION = Template(
    """<form class="repair $name" method="post" action="$action">
  <input type="hidden" name="csrf_token" value="$csrf">
  <input type="hidden" name="tenant_id" value="$tenant">
  <input type="hidden" name="reviewer" value="">
  $hidden$fields
  <label>Reason <span class="hint">(required; kept in the history)</span>
    <textarea name="reason" maxlength="2000" rows="2"
      data-required="Say why: the history keeps the reason."></textarea></label>
  <label><input type="checkbox" name="confirm" value="yes"> $confirm</label>
  <button type="submit" class="danger">$button</button>
  <p class="problem" role="alert" hidden></p>
</form>"""
)


@dataclass(frozen=True, slots=True)
class ActionForm:
    """A form that changes memory: a reason, a confirmation box, this start's CSRF token and
    the page's tenant, then one POST (the page's JS asks for the reviewer's name, the reason
    and the box first; the server checks them again).
    """

    name: str
    action: str
    button: str
    confirm: str
    hidden: tuple[tuple[str, str], ...] = ()
    fields: str = ""

    def html(self, csrf_token: str, tenant_id: str) -> str:
        """The form's markup (``fields`` is markup already escaped)."""
        hidden = "".join(
            f'<input type="hidden" name="{e(name)}" value="{field(value)}">\n  '
            for name, value in self.hidden
        )
        return _ACTION.substitute(
            name=e(self.name),
            action=e(self.action),
            csrf=e(csrf_token),
            tenant=e(tenant_id),
            hidden=hidden,
            fields=self.fields,
            confirm=e(self.confirm),
            button=e(self.button),
        )


def pager(path: str, cursor: str | None, **kept: str) -> str:
    """A link to the next page (none on the last one), keeping the listing's other fields."""
    if cursor is None:
        return ""
    query = urlencode({**{k: v for k, v in kept.items() if v}, "cursor": cursor})
    return f'<p class="pager"><a href="{e(path)}?{e(query)}" rel="next">Next page</a></p>'


def link(path: str, text: str, **query: str) -> str:
    """A link to a view of this server, its query built from ``query`` (escaped)."""
    return f'<a href="{e(path)}?{e(urlencode(query))}">{e(text)}</a>'


def fields_list(rows: list[tuple[str, str]]) -> str:
    """Label and value pairs (values markup already escaped) as a definition list."""
    cells = "".join(f"<dt>{e(label)}</dt><dd>{value}</dd>" for label, value in rows)
    return f'<dl class="fields">{cells}</dl>'


def table(headers: tuple[str, ...], rows: list[str], empty: str) -> str:
    """A table of ``rows`` (each a ``<tr>`` already escaped), or the ``empty`` notice."""
    if not rows:
        return f'<p class="empty">{e(empty)}</p>'
    head = "".join(f"<th>{e(h)}</th>" for h in headers)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def row(*cells: str, **data: str) -> str:
    """A table row of cells already escaped; ``data`` become ``data-*`` attributes."""
    attributes = "".join(f' data-{k.replace("_", "-")}="{e(v)}"' for k, v in data.items())
    return f"<tr{attributes}>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"


def section(title: str, body: str) -> str:
    """A titled part of a view (``body`` already escaped)."""
    return f'<section class="view"><h2>{e(title)}</h2>{body}</section>'
