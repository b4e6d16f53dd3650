"""The memory browser: the review server's views of what one tenant's memory holds (episodes,
facts, procedures, flags, history) and the actions that repair it: one run, one agent, one fact
or one procedure at a time, or one text redacted from every record.

Each view reads through one or two application queries; each action is one application message,
posted from the view with a reason and a ticked confirmation box (the server checks both), and
answered with a 303 to a page whose banner is the server's own text. The browser is of the
tenant the server was started for (``--tenant``) and no other: without one, each view says so,
and every action is refused unless the form names that tenant.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import urlencode

from agent_memory.app import Application
from agent_memory.app.messages import (
    AssertFact,
    CorrectFact,
    DecideProcedure,
    ForgetRuns,
    GetEpisode,
    GetFact,
    History,
    ListAgents,
    ListEpisodes,
    ListFacts,
    ListFlags,
    ListProcedures,
    RedactText,
    RetractFact,
    ShowProcedure,
)
from agent_memory.app.wire import episode_message, search_message
from agent_memory.core.api.episode_record import EpisodePage, EpisodeRecord
from agent_memory.core.api.fact_record import FactPage, FactRecord
from agent_memory.core.model.decisions import fact_record_id
from agent_memory.core.model.errors import Conflict, InvalidInput, NotFound, TransientError
from agent_memory.core.model.identifiers import checked_id
from agent_memory.core.workflows.forgetting import RunsForgotten
from agent_memory.core.workflows.redaction import TextRedacted
from agent_memory.review.episodes_view import (
    EPISODE_PATH,
    EPISODES_PATH,
    FORGET_AGENT_PATH,
    FORGET_PATH,
    RECEIPT_PATH,
    SEARCH_PATH,
    episode_page,
    episodes_list,
    receipt_page,
    search_form,
    search_results,
)
from agent_memory.review.facts_view import (
    ASSERT_PATH,
    CORRECT_PATH,
    FACT_PATH,
    FACTS_PATH,
    RETRACT_PATH,
    fact_page,
    facts_list,
)
from agent_memory.review.http import Response, html, query_fields, redirect
from agent_memory.review.layout import Banner, render_shell, section
from agent_memory.review.page import render_flags
from agent_memory.review.records_view import (
    HISTORY_PATH,
    NEEDS_TENANT,
    OVERRULABLE,
    OVERRULE_PATH,
    PROCEDURE_PATH,
    PROCEDURES_PATH,
    history_list,
    procedure_page,
    procedures_list,
)
from agent_memory.review.redaction_view import (
    REDACT_PATH,
    REDACT_VIEW_PATH,
    REDACTED_PATH,
    redact_form,
    redaction_receipt,
)

FLAGS_PATH = "/flags"
VIEW_PATHS = (
    EPISODES_PATH,
    SEARCH_PATH,
    EPISODE_PATH,
    RECEIPT_PATH,
    FACTS_PATH,
    FACT_PATH,
    PROCEDURES_PATH,
    PROCEDURE_PATH,
    FLAGS_PATH,
    HISTORY_PATH,
    REDACT_VIEW_PATH,
    REDACTED_PATH,
)
ACTION_PATHS = (
    FORGET_PATH,
    FORGET_AGENT_PATH,
    RETRACT_PATH,
    CORRECT_PATH,
    ASSERT_PATH,
    OVERRULE_PATH,
    REDACT_PATH,
)
EPISODES_PER_PAGE = 20
FACTS_PER_PAGE = 50
DECISIONS_PER_PAGE = 50
# The most open flags a view lists at once (``agent-memory flags list`` pages through more).
MAX_FLAGS_SHOWN = 100
# Receipts of runs forgotten and texts redacted since the server started, the latest kept
# for their page.
MAX_RECEIPTS = 32

# What each action did, as its failure says it did not (``Not retracted: ...``).
_DONE = {
    FORGET_PATH: "forgotten",
    FORGET_AGENT_PATH: "forgotten",
    RETRACT_PATH: "retracted",
    CORRECT_PATH: "corrected",
    ASSERT_PATH: "asserted",
    OVERRULE_PATH: "approved again",
    REDACT_PATH: "redacted",
}
# The banner a fact's page shows after an action: the server's words, never the request's.
_FACT_BANNERS = {
    "retracted": "Fact retracted: it is served nowhere from the next bootstrap on.",
    "corrected": "Fact corrected: this is your text, confirmed and served in the old one's place.",
    "asserted": "Fact asserted: confirmed in your name and served from the next bootstrap on.",
}
_OVERRULED = (
    "Procedure approved again, overruling the decision that took it out of service: it is "
    "served from the next bootstrap on, and the history keeps both decisions."
)
# A kept receipt: what it is of (``run``, ``agent`` or ``redaction``), and what it says.
Receipt = tuple[str, RunsForgotten | TextRedacted]

Build = Callable[[str], str]
M = TypeVar("M")


class Browser:
    """The views and actions of one tenant's memory (``tenant_id`` None: views say the server
    needs one, actions are refused).
    """

    def __init__(self, memory: Application, tenant_id: str | None, csrf_token: str) -> None:
        self.memory = memory
        self.tenant_id = tenant_id
        self.csrf_token = csrf_token
        self._receipts: OrderedDict[str, Receipt] = OrderedDict()
        self._lock = threading.Lock()

    # --- views --------------------------------------------------------------------------------

    def view(self, path: str, query: str) -> Response:
        """The page at ``path`` for ``query``'s fields."""
        q = query_fields(query)
        if path == EPISODES_PATH:
            return self._show("episodes", "Episodes", lambda t: self._episodes(t, q))
        if path == SEARCH_PATH:
            return self._show("episodes", "Episodes", lambda t: self._search(t, q))
        if path == EPISODE_PATH:
            return self._show("episodes", "Episode", lambda t: self._episode(t, q))
        if path == RECEIPT_PATH:
            return self._receipt_view(q.get("receipt", ""))
        if path == FACTS_PATH:
            return self._show("facts", "Facts", lambda t: self._facts(t, q))
        if path == FACT_PATH:
            done = _FACT_BANNERS.get(q.get("done", ""))
            said = Banner("ok", done) if done else None
            return self._show("facts", "Fact", lambda t: self._fact(t, q), said)
        if path == PROCEDURES_PATH:
            return self._show("procedures", "Procedures", self._procedures)
        if path == PROCEDURE_PATH:
            overruled = Banner("ok", _OVERRULED) if q.get("done") == "overruled" else None
            return self._show("procedures", "Procedure", lambda t: self._procedure(t, q), overruled)
        if path == FLAGS_PATH:
            dismissed = Banner("ok", "Flag dismissed: its agent is served the item again.")
            shown = dismissed if "dismissed" in q else None
            return self._show("flags", "Flags", self._flags, shown)
        if path == HISTORY_PATH:
            return self._show("history", "History", lambda t: self._history(t, q))
        if path == REDACT_VIEW_PATH:
            return self._show("redact", "Redact", self._redact_form)
        if path == REDACTED_PATH:
            return self._redacted_view(q.get("receipt", ""))
        raise ValueError(f"not a view of the browser: {path!r}")

    def _show(
        self,
        view: str,
        heading: str,
        build: Build,
        banner: Banner | None = None,
        status: str = "200 OK",
    ) -> Response:
        """The view ``build`` makes for the tenant, framed; a failure to build it is the banner
        (unless one is given: an action's failure, shown over the view it came from).
        """
        tenant = self.tenant_id
        body = f'<p class="empty">{NEEDS_TENANT}</p>'
        if tenant is not None:
            try:
                body = build(tenant)
            except (InvalidInput, NotFound, TransientError) as error:
                failed_status, said = _failure(error, "Not shown")
                banner = banner if banner and banner.kind == "error" else Banner("error", said)
                status = status if status != "200 OK" else failed_status
                body = ""
        nonce = secrets.token_urlsafe(16)
        scope = f"tenant {tenant}" if tenant else "no tenant: start the server with --tenant"
        page = render_shell(
            view=view,
            title=heading,
            heading=heading,
            scope=scope,
            body=body,
            nonce=nonce,
            banner=banner,
        )
        return html(status, page, nonce)

    def _episodes(self, tenant: str, q: dict[str, str]) -> str:
        agents = self.memory.handle(ListAgents(tenant))
        agent = q.get("agent")
        shown = search_form(agents, agent)
        if agent is None:
            return shown
        request = {"action": "list", "tenant_id": tenant, "agent_id": agent}
        fields = {"limit": EPISODES_PER_PAGE, **({"cursor": q["cursor"]} if "cursor" in q else {})}
        page: EpisodePage = self.memory.handle(_parsed(ListEpisodes, request | fields))
        return shown + episodes_list(agent, page, self.csrf_token, tenant)

    def _search(self, tenant: str, q: dict[str, str]) -> str:
        agent, text = q.get("agent", ""), q.get("q", "")
        request = {"action": "search", "tenant_id": tenant, "agent_id": agent, "query": text}
        found = self.memory.handle(search_message(request))
        agents = self.memory.handle(ListAgents(tenant))
        return search_form(agents, agent, text) + search_results(agent, text, found)

    def _episode(self, tenant: str, q: dict[str, str]) -> str:
        agent, run = q.get("agent", ""), q.get("run", "")
        request = {"action": "get", "tenant_id": tenant, "agent_id": agent, "run_id": run}
        found: EpisodeRecord | None = self.memory.handle(_parsed(GetEpisode, request))
        if found is None:
            raise NotFound(f"agent {agent!r} has no episode of run {run!r}")
        return episode_page(found, self.csrf_token, tenant)

    def _receipt_view(self, name: str) -> Response:
        kept = self._kept(name)
        receipt = kept[1] if kept is not None else None
        if kept is None or not isinstance(receipt, RunsForgotten):
            return self._no_receipt("episodes", "Run forgotten", "every run forgotten")
        agent = kept[0] == "agent"
        if not receipt.found:
            said = "Nothing was left to forget of that run: it was forgotten already."
            if agent:
                said = "Nothing was left to forget of that agent: its runs were forgotten already."
        elif agent:
            said = f"Every run of {receipt.agent_id} forgotten everywhere it counted: the receipt "
            said += "is below."
        else:
            said = "Run forgotten everywhere it counted: the receipt is below."
        heading = "Agent forgotten" if agent else "Run forgotten"
        shown = Banner("ok", said)
        return self._show("episodes", heading, lambda t: receipt_page(receipt), shown)

    def _redacted_view(self, name: str) -> Response:
        kept = self._kept(name)
        receipt = kept[1] if kept is not None else None
        if not isinstance(receipt, TextRedacted):
            return self._no_receipt("redact", "Text redacted", "every redaction")
        said = "Text redacted from every record of this tenant that held it: the receipt is below."
        if not receipt.found:
            said = "No record held that text: nothing was changed."
        shown = Banner("ok", said)
        return self._show("redact", "Text redacted", lambda t: redaction_receipt(receipt), shown)

    def _no_receipt(self, view: str, heading: str, listed: str) -> Response:
        said = (
            "No such receipt: this server keeps the latest ones since it started (the "
            f"History view lists {listed})."
        )
        missing = Banner("error", said)
        return self._show(view, heading, _nothing, missing, "404 Not Found")

    def _facts(self, tenant: str, q: dict[str, str]) -> str:
        status = q.get("status") or None
        request: dict[str, Any] = {"action": "facts", "tenant_id": tenant}
        request |= {"limit": FACTS_PER_PAGE, **({"status": status} if status else {})}
        request |= {"cursor": q["cursor"]} if "cursor" in q else {}
        page: FactPage = self.memory.handle(_parsed(ListFacts, request))
        return facts_list(page, status, self.csrf_token, tenant)

    def _fact(self, tenant: str, q: dict[str, str]) -> str:
        domain, fact_hash = q.get("domain", ""), q.get("hash", "")
        request = {"action": "fact", "tenant_id": tenant, "domain": domain, "fact_hash": fact_hash}
        found: FactRecord | None = self.memory.handle(_parsed(GetFact, request))
        if found is None:
            raise NotFound(f"no fact {fact_hash!r} in domain {domain!r}")
        domain, fact_hash = found["domain"], found["fact_hash"]
        decisions = self._decisions(
            tenant, fact_record_id(domain, fact_hash), q, FACT_PATH, domain=domain, hash=fact_hash
        )
        return fact_page(found, self.csrf_token, tenant) + section("Decisions", decisions)

    def _procedures(self, tenant: str) -> str:
        return procedures_list(self.memory.handle(ListProcedures(tenant)))

    def _procedure(self, tenant: str, q: dict[str, str]) -> str:
        procedure_id = checked_id(q.get("id", ""), "id", "procedure id")
        found = self.memory.handle(ShowProcedure(procedure_id, tenant_id=tenant))
        decisions = self._decisions(tenant, procedure_id, q, PROCEDURE_PATH, id=procedure_id)
        return procedure_page(found, decisions, self.csrf_token, tenant)

    def _decisions(
        self, tenant: str, record: str, q: dict[str, str], path: str, **kept: str
    ) -> str:
        """One page of the decisions about one record, its next page at ``path``."""
        limit, cursor = DECISIONS_PER_PAGE, q.get("cursor")
        page = self.memory.handle(History(tenant, limit, cursor, record_id=record))
        return history_list(page, path, **kept)

    def _redact_form(self, tenant: str) -> str:
        return redact_form(self.csrf_token, tenant)

    def _flags(self, tenant: str) -> str:
        flags = self.memory.handle(ListFlags(tenant, MAX_FLAGS_SHOWN))["flags"]
        return render_flags(flags, tenant, self.csrf_token, back="flags")

    def _history(self, tenant: str, q: dict[str, str]) -> str:
        page = self.memory.handle(History(tenant, DECISIONS_PER_PAGE, q.get("cursor")))
        return history_list(page)

    # --- actions ------------------------------------------------------------------------------

    def act(self, path: str, form: dict[str, str]) -> Response:
        """One action posted from a view (its CSRF token and origin checked already): the
        tenant, the confirmation box, then one message; a 303 to its result, or the view it
        came from with a banner saying why nothing changed.
        """
        done = _DONE[path]
        tenant = self.tenant_id
        if tenant is None or form.get("tenant_id") != tenant:
            said = f"Not {done}: this server shows no such tenant's memory."
            return self._back(path, form, Banner("error", said), "404 Not Found")
        if form.get("confirm") != "yes":
            said = f"Not {done}: confirm: tick the box to confirm."
            return self._back(path, form, Banner("error", said), "400 Bad Request")
        try:
            return redirect(self._done(path, tenant, form))
        except (InvalidInput, NotFound, Conflict, TransientError) as error:
            status, said = _failure(error, f"Not {done}")
            return self._back(path, form, Banner("error", said), status)

    def _done(self, path: str, tenant: str, form: dict[str, str]) -> str:
        """Carry out the action; where its result is shown (never anything the form said but
        the ids it named: a redacted text goes nowhere but into its message).
        """
        reviewer, reason = form.get("reviewer", ""), form.get("reason", "")
        if not reviewer.strip():
            raise InvalidInput("reviewer", "is required: type your name as reviewer (top right)")
        if not reason.strip():
            raise InvalidInput("reason", "is required: say why (the history keeps it)")
        if path in (FORGET_PATH, FORGET_AGENT_PATH):
            agent = checked_id(form.get("agent_id", ""), "agent_id", "agent id")
            run = None
            if path == FORGET_PATH:
                run = checked_id(form.get("run_id", ""), "run_id", "run id")
            forgotten = self.memory.handle(ForgetRuns(tenant, agent, run, reviewer, reason))
            kept = self._keep(("run" if run else "agent", forgotten))
            return f"{RECEIPT_PATH}?{urlencode({'receipt': kept})}"
        if path == REDACT_PATH:
            text = form.get("text", "")
            redacted = self.memory.handle(RedactText(tenant, text, reviewer, reason))
            return f"{REDACTED_PATH}?{urlencode({'receipt': self._keep(('redaction', redacted))})}"
        if path == OVERRULE_PATH:
            return self._overrule(tenant, form, reviewer, reason)
        return self._repair_fact(path, tenant, form, reviewer, reason)

    def _overrule(self, tenant: str, form: dict[str, str], reviewer: str, reason: str) -> str:
        """Approve again a procedure a person rejected or retired (and only such a one)."""
        procedure_id = checked_id(form.get("procedure_id", ""), "procedure_id", "procedure id")
        before = self.memory.handle(ShowProcedure(procedure_id, tenant_id=tenant))
        if before["status"] not in OVERRULABLE:
            raise Conflict(
                f"procedure {procedure_id!r} is {before['status']}, not rejected or retired: "
                "there is no decision to overrule (decide on it on the Review view)"
            )
        self.memory.handle(
            DecideProcedure(procedure_id, True, reviewer, reason, tenant, overrule=True)
        )
        return f"{PROCEDURE_PATH}?{urlencode({'id': procedure_id, 'done': 'overruled'})}"

    def _repair_fact(
        self, path: str, tenant: str, form: dict[str, str], reviewer: str, reason: str
    ) -> str:
        domain = checked_id(form.get("domain", ""), "domain", "domain")
        if path == ASSERT_PATH:
            fact = self.memory.handle(
                AssertFact(tenant, domain, form.get("content", ""), reviewer, reason)
            )
        else:
            fact_hash = checked_id(form.get("fact_hash", ""), "fact_hash", "hash")
            if path == RETRACT_PATH:
                fact = self.memory.handle(RetractFact(tenant, domain, fact_hash, reviewer, reason))
            else:
                content = form.get("content", "")
                fact = self.memory.handle(
                    CorrectFact(tenant, domain, fact_hash, content, reviewer, reason)
                )
        where = {"domain": fact["domain"], "hash": fact["fact_hash"], "done": _DONE[path]}
        return f"{FACT_PATH}?{urlencode(where)}"

    def _keep(self, receipt: Receipt) -> str:
        """A new name for the receipt, kept among the latest few for its page."""
        name = secrets.token_urlsafe(16)
        with self._lock:
            self._receipts[name] = receipt
            while len(self._receipts) > MAX_RECEIPTS:
                self._receipts.popitem(last=False)
        return name

    def _kept(self, name: str) -> Receipt | None:
        with self._lock:
            return self._receipts.get(name)

    def _back(self, path: str, form: dict[str, str], banner: Banner, status: str) -> Response:
        """The view an action's form was on, with the banner saying why nothing changed (the
        Redact view's form empty again: the text is never sent back).
        """
        if path == FORGET_PATH:
            q = {"agent": form.get("agent_id", ""), "run": form.get("run_id", "")}
            return self._show("episodes", "Episode", lambda t: self._episode(t, q), banner, status)
        if path == FORGET_AGENT_PATH:
            q = {"agent": form.get("agent_id", "")}
            return self._show(
                "episodes", "Episodes", lambda t: self._episodes(t, q), banner, status
            )
        if path == REDACT_PATH:
            return self._show("redact", "Redact", self._redact_form, banner, status)
        if path == OVERRULE_PATH:
            q = {"id": form.get("procedure_id", "")}
            return self._show(
                "procedures", "Procedure", lambda t: self._procedure(t, q), banner, status
            )
        if path == ASSERT_PATH:
            return self._show("facts", "Facts", lambda t: self._facts(t, {}), banner, status)
        q = {"domain": form.get("domain", ""), "hash": form.get("fact_hash", "")}
        return self._show("facts", "Fact", lambda t: self._fact(t, q), banner, status)


def _failure(error: Exception, failed: str) -> tuple[str, str]:
    """The status and the one line that say why ``failed``."""
    if isinstance(error, InvalidInput):
        return "400 Bad Request", f"{failed}: {error}."
    if isinstance(error, NotFound):
        return "404 Not Found", f"{failed}: {error}."
    if isinstance(error, Conflict):
        return "409 Conflict", f"{failed}: {error}. Someone may have changed it meanwhile."
    return "503 Service Unavailable", f"{failed}: memory is busy; retry."


def _nothing(tenant: str) -> str:
    return ""


def _parsed(kind: type[M], request: dict[str, Any]) -> M:
    """The view's query parsed as the episodes function parses one, into the message ``kind``
    (``InvalidInput`` names a bad field).
    """
    message = episode_message(request)
    assert isinstance(message, kind)
    return message
