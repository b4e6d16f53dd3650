"""The JSON form of the requests the review and episodes functions take, and of their replies.

A request is parsed once, where it arrives (the SDK checks the caller's arguments with it; the
Lambda function parses what was sent), into the message the application handles. The AWS
backend writes a message back as that JSON (:func:`request_json`) and reads the reply with
:func:`reply_of`; the function wraps its handler's answer with :func:`reply_json`. The
functions' payloads are a published contract: their shapes do not change with this module.
"""

from __future__ import annotations

from typing import Any

from agent_memory.app.messages import (
    AssertFact,
    Bootstrap,
    ConsolidateRun,
    CorrectFact,
    DecideProcedure,
    EditProcedure,
    FlagMemory,
    ForgetRun,
    GetEpisode,
    GetFact,
    ListAgents,
    ListEpisodes,
    ListFacts,
    ListProcedures,
    RetireProcedure,
    RetractFact,
    SearchEpisodes,
    ShowProcedure,
)
from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.model.identifiers import checked_id
from agent_memory.core.model.models import FactStatus
from agent_memory.core.model.time_window import window_of

ProcedureMessage = (
    ListProcedures | ShowProcedure | DecideProcedure | EditProcedure | RetireProcedure
)
# A person's repair of a fact: the review function's operators only, never an agent's surface.
FactRepair = RetractFact | CorrectFact | AssertFact
ReviewMessage = ProcedureMessage | FactRepair
# What the episodes function serves: single records of a tenant's memory.
EpisodeMessage = GetEpisode | ListEpisodes | ForgetRun | ListAgents | GetFact | ListFacts
RemoteMessage = ReviewMessage | EpisodeMessage | SearchEpisodes | FlagMemory

EPISODE_ACTIONS = ("get", "list", "forget", "agents", "fact", "facts")
EPISODE_FIELDS = frozenset(
    {
        "action",
        "tenant_id",
        "agent_id",
        "run_id",
        "limit",
        "cursor",
        "domain",
        "fact_hash",
        "status",
        "since",
        "until",
    }
)
FLAG_FIELDS = frozenset(
    {"action", "tenant_id", "agent_id", "kind", "record_id", "reason", "run_id"}
)
# The most episodes one page of a listing holds.
MAX_PAGE = 100


def run_message(event: Any) -> ConsolidateRun:
    """A RunFinished event (its detail, or the EventBridge event around it) as the message that
    consolidates it; ``InvalidInput`` names the first bad field.
    """
    from agent_memory.core.api.contracts import parse_run_finished, unwrap_event

    if not isinstance(event, dict):
        raise InvalidInput("event", "must be a JSON object")
    return ConsolidateRun(event, parse_run_finished(unwrap_event(event)))


def bootstrap_message(data: object) -> Bootstrap:
    """A bootstrap request (``{"tenant_id", "agent_id", "task", "task_type", "domain",
    "scope", "team"}``) as its message; ``InvalidInput`` names a bad field.
    """
    from agent_memory.core.api.bootstrap_request import parse_bootstrap_request

    return Bootstrap(parse_bootstrap_request(data))


def search_message(data: object) -> SearchEpisodes:
    """A search request (``{"action": "search", "tenant_id", "agent_id", "query", "scope",
    "team", "limit", "units", "min_similarity", "since", "until"}``, which the bootstrap
    function takes beside its own) as its message; ``InvalidInput`` names a bad field.
    ``since`` and ``until`` are numbers of seconds since the epoch, as in a listing.
    """
    from agent_memory.core.api.episode_search import parse_search_request

    r = parse_search_request(data)
    return SearchEpisodes(
        r.tenant_id,
        r.agent_id,
        r.query,
        top_episodes=r.limit,
        top_units=r.units,
        scope=r.read_scope(),
        min_similarity=r.min_similarity,
        since=r.since,
        until=r.until,
    )


def is_search(data: object) -> bool:
    """Whether a request the bootstrap function took asks for a search."""
    return isinstance(data, dict) and data.get("action") == "search"


def is_flag(data: object) -> bool:
    """Whether a request the bootstrap function took flags a served item."""
    return isinstance(data, dict) and data.get("action") == "flag"


def flag_message(data: object) -> FlagMemory:
    """A flag (``{"action": "flag", "tenant_id", "agent_id", "kind", "record_id", "reason",
    "run_id"}``, which the bootstrap function takes beside its own: the agent flags what it was
    served where it is served) as its message; ``InvalidInput`` names a bad field.
    """
    if not isinstance(data, dict):
        raise InvalidInput("request", "must be a JSON object")
    unknown = sorted(str(k) for k in data.keys() - FLAG_FIELDS)
    if unknown:
        raise InvalidInput(unknown[0], "is not a field of a flag")
    if data.get("action") != "flag":
        raise InvalidInput("action", "must be flag")
    run_id = data.get("run_id")
    if run_id is not None:
        run_id = checked_id(_text(data, "run_id"), "run_id", "run id")
    return FlagMemory(
        checked_id(_text(data, "tenant_id"), "tenant_id", "tenant id"),
        checked_id(_text(data, "agent_id"), "agent_id", "agent id"),
        _text(data, "kind"),
        _text(data, "record_id"),
        _text(data, "reason"),
        run_id,
    )


def review_message(data: Any) -> ReviewMessage:
    """A review request (``{"action": "list"|"show"|"approve"|"reject"|"edit"|"retire",
    "tenant_id", "procedure_id", "reviewer", "reason", "status", "overrule", "steps", "title",
    "expected_revision"}``, or ``{"action": "retract"|"correct"|"assert", "tenant_id",
    "domain", "fact_hash", "content", "reviewer", "reason"}``) as its message; ``InvalidInput``
    names a bad field.
    """
    # pydantic is loaded by whoever reviews, not by every command that imports the wire.
    from agent_memory.core.api.contracts import validate
    from agent_memory.core.api.review_request import ReviewRequest

    r = validate(ReviewRequest, data)
    if r.action in ("retract", "correct", "assert"):
        return _repair(r)
    if r.action == "list":
        return ListProcedures(tenant_id=r.tenant_id, status=r.status)
    if r.procedure_id is None:
        raise InvalidInput("procedure_id", f"required to {r.action}")
    if r.action == "show":
        return ShowProcedure(r.procedure_id, tenant_id=r.tenant_id)
    if r.action == "edit":
        if r.steps is None:
            raise InvalidInput("steps", "required to edit: the procedure's new steps")
        return EditProcedure(
            r.tenant_id,
            r.procedure_id,
            tuple(r.steps),
            r.reviewer or "",
            r.reason or "",
            title=r.title,
            expected_revision=r.expected_revision,
        )
    if r.action == "retire":
        return RetireProcedure(r.tenant_id, r.procedure_id, r.reviewer or "", r.reason or "")
    return DecideProcedure(
        r.procedure_id,
        approve=r.action == "approve",
        reviewer=r.reviewer or "",
        note=r.reason,
        tenant_id=r.tenant_id,
        overrule=r.overrule,
        expected_revision=r.expected_revision,
    )


def _repair(r: Any) -> FactRepair:
    """A fact's repair: the fields its action needs are required, the others refused."""
    needs = {
        "retract": ("domain", "fact_hash"),
        "correct": ("domain", "fact_hash", "content"),
        "assert": ("domain", "content"),
    }[r.action]
    for name in ("domain", "fact_hash", "content", "reviewer"):
        if name in (*needs, "reviewer") and getattr(r, name) is None:
            raise InvalidInput(name, f"required to {r.action} a fact")
    for name in ("procedure_id", "status", "fact_hash", "content", "steps", "title"):
        if name not in needs and getattr(r, name) is not None:
            raise InvalidInput(name, f"is not a field of a request to {r.action} a fact")
    if r.expected_revision is not None:
        raise InvalidInput("expected_revision", "is a procedure's, not a fact's")
    if r.overrule:
        raise InvalidInput("overrule", "is a procedure's, not a fact's")
    if r.action == "retract":
        return RetractFact(r.tenant_id, r.domain, r.fact_hash, r.reviewer, r.reason)
    if r.action == "correct":
        return CorrectFact(r.tenant_id, r.domain, r.fact_hash, r.content, r.reviewer, r.reason)
    return AssertFact(r.tenant_id, r.domain, r.content, r.reviewer, r.reason)


def episode_message(data: object) -> EpisodeMessage:
    """An episodes request (``{"action": "get"|"list"|"forget"|"agents"|"fact"|"facts",
    "tenant_id", "agent_id", "run_id", "limit", "cursor", "domain", "fact_hash", "status",
    "since", "until"}``) as its message; ``InvalidInput`` names a bad field. A listing's
    ``since`` and ``until`` are numbers of seconds since the epoch (episodes created in
    ``[since, until)``); an ``until`` not after ``since`` is refused naming ``until``.
    """
    if not isinstance(data, dict):
        raise InvalidInput("request", "must be a JSON object")
    unknown = sorted(str(k) for k in data.keys() - EPISODE_FIELDS)
    if unknown:
        raise InvalidInput(unknown[0], "is not a field of an episode request")
    action = data.get("action")
    if action not in EPISODE_ACTIONS:
        raise InvalidInput("action", f"must be one of {', '.join(EPISODE_ACTIONS)}")
    tenant_id = checked_id(_text(data, "tenant_id"), "tenant_id", "tenant id")
    if action == "agents":
        return ListAgents(tenant_id)
    if action == "fact":
        domain = checked_id(_text(data, "domain"), "domain", "domain")
        return GetFact(tenant_id, domain, checked_id(_text(data, "fact_hash"), "fact_hash", "hash"))
    if action == "facts":
        return _facts_message(tenant_id, data)
    agent_id = checked_id(_text(data, "agent_id"), "agent_id", "agent id")
    if action == "list":
        limit = _limit(data.get("limit", MAX_PAGE))
        window = window_of(data.get("since"), data.get("until"))
        return ListEpisodes(
            tenant_id,
            agent_id,
            limit=limit,
            cursor=_cursor(data),
            since=window.since,
            until=window.until,
        )
    run_id = checked_id(_text(data, "run_id"), "run_id", "run id")
    return (GetEpisode if action == "get" else ForgetRun)(tenant_id, agent_id, run_id)


def _facts_message(tenant_id: str, data: dict[str, Any]) -> ListFacts:
    domain = data.get("domain")
    if domain is not None:
        domain = checked_id(_text(data, "domain"), "domain", "domain")
    status = data.get("status")
    if status is not None:
        choices = [s.value for s in FactStatus]
        if status not in choices:
            raise InvalidInput("status", f"must be one of {', '.join(choices)}")
        status = FactStatus(status)
    limit = _limit(data.get("limit", MAX_PAGE))
    return ListFacts(tenant_id, status, domain, limit=limit, cursor=_cursor(data))


def _cursor(data: dict[str, Any]) -> str | None:
    cursor = data.get("cursor")
    if cursor is not None and not isinstance(cursor, str):
        raise InvalidInput("cursor", "must be a string")
    return cursor


def _text(data: dict[str, Any], field: str) -> str:
    value = data.get(field)
    if not isinstance(value, str):
        raise InvalidInput(field, "is required (a string)")
    return value


def _limit(limit: object) -> int:
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_PAGE:
        raise InvalidInput("limit", f"must be a whole number from 1 to {MAX_PAGE}")
    return limit


def request_json(message: RemoteMessage) -> dict[str, Any]:
    """The message as the JSON its function takes (what :func:`review_message` or
    :func:`episode_message` reads back into it).
    """
    match message:
        case ListProcedures(tenant_id=tenant_id, status=status):
            listing: dict[str, Any] = {"action": "list", "tenant_id": tenant_id}
            return listing if status is None else {**listing, "status": status.value}
        case ShowProcedure(procedure_id=procedure_id, tenant_id=tenant_id):
            return {"action": "show", "tenant_id": tenant_id, "procedure_id": procedure_id}
        case DecideProcedure(procedure_id=p, approve=approve, reviewer=who, note=note):
            action = "approve" if approve else "reject"
            decided: dict[str, Any] = {
                "action": action,
                "tenant_id": message.tenant_id,
                "procedure_id": p,
            }
            decided |= {"reviewer": who, **({"reason": note} if note is not None else {})}
            if message.expected_revision is not None:
                decided["expected_revision"] = message.expected_revision
            return decided | ({"overrule": True} if message.overrule else {})
        case EditProcedure():
            return _edit_json(message)
        case RetireProcedure(tenant_id=tenant_id, procedure_id=p, reviewer=who, reason=why):
            retired = {"action": "retire", "tenant_id": tenant_id, "procedure_id": p}
            return retired | {"reviewer": who, "reason": why}
        case RetractFact() | CorrectFact() | AssertFact():
            return _repair_json(message)
        case ListAgents(tenant_id=tenant_id):
            return {"action": "agents", "tenant_id": tenant_id}
        case GetFact(tenant_id=tenant_id, domain=domain, fact_hash=fact_hash):
            return {
                "action": "fact",
                "tenant_id": tenant_id,
                "domain": domain,
                "fact_hash": fact_hash,
            }
        case ListFacts(tenant_id=tenant_id, status=status, domain=domain, limit=limit):
            facts: dict[str, Any] = {"action": "facts", "tenant_id": tenant_id, "limit": limit}
            if status is not None:
                facts["status"] = status.value
            if domain is not None:
                facts["domain"] = domain
            return facts if message.cursor is None else {**facts, "cursor": message.cursor}
        case ListEpisodes(tenant_id=tenant_id, agent_id=agent_id, limit=limit, cursor=cursor):
            page = {"action": "list", "tenant_id": tenant_id, "limit": limit}
            page |= {} if cursor is None else {"cursor": cursor}
            return {**page, "agent_id": agent_id, **_window_json(message.since, message.until)}
        case GetEpisode() | ForgetRun():
            action = "get" if isinstance(message, GetEpisode) else "forget"
            ids = {"tenant_id": message.tenant_id, "agent_id": message.agent_id}
            return {"action": action, **ids, "run_id": message.run_id}
        case SearchEpisodes():
            return _search_json(message)
        case FlagMemory(run_id=run_id):
            flag = {"action": "flag", "tenant_id": message.tenant_id, "agent_id": message.agent_id}
            flag |= {"kind": message.kind, "record_id": message.record_id}
            flag |= {"reason": message.reason}
            return flag if run_id is None else {**flag, "run_id": run_id}


def _edit_json(m: EditProcedure) -> dict[str, Any]:
    data: dict[str, Any] = {
        "action": "edit",
        "tenant_id": m.tenant_id,
        "procedure_id": m.procedure_id,
        "steps": list(m.steps),
        "reviewer": m.reviewer,
        "reason": m.reason,
    }
    if m.title is not None:
        data["title"] = m.title
    if m.expected_revision is not None:
        data["expected_revision"] = m.expected_revision
    return data


def _repair_json(m: FactRepair) -> dict[str, Any]:
    action = {RetractFact: "retract", CorrectFact: "correct", AssertFact: "assert"}[type(m)]
    data: dict[str, Any] = {"action": action, "tenant_id": m.tenant_id, "domain": m.domain}
    if not isinstance(m, AssertFact):
        data["fact_hash"] = m.fact_hash
    if not isinstance(m, RetractFact):
        data["content"] = m.content
    data["reviewer"] = m.actor
    return data if m.reason is None else {**data, "reason": m.reason}


def _search_json(m: SearchEpisodes) -> dict[str, Any]:
    for name in ("as_of", "query_vector"):
        if getattr(m, name) is not None:
            raise InvalidInput(name, "is not sent: the function searches now, and embeds the query")
    data: dict[str, Any] = {
        "action": "search",
        "tenant_id": m.tenant_id,
        "agent_id": m.agent_id,
        "query": m.text,
        **m.scope.as_json(),
        "limit": m.top_episodes,
        "units": m.top_units,
    }
    if m.min_similarity is not None:
        data["min_similarity"] = m.min_similarity
    return data | _window_json(m.since, m.until)


def _window_json(since: float | None, until: float | None) -> dict[str, float]:
    bounds = {"since": since, "until": until}
    return {name: moment for name, moment in bounds.items() if moment is not None}


# What each reply holds its answer under (None: the reply is the answer, with these keys).
WHOLE_REPLIES: dict[type, tuple[str, ...]] = {
    ListEpisodes: ("episodes", "cursor"),
    ListFacts: ("facts", "cursor"),
    SearchEpisodes: ("episodes", "units", "ranked_by", "left_out"),
}
REPLY_KEYS: dict[type, str | None] = {
    ListProcedures: "procedures",
    ShowProcedure: "procedure",
    DecideProcedure: "procedure",
    EditProcedure: "procedure",
    RetireProcedure: "procedure",
    GetEpisode: "episode",
    ListEpisodes: None,
    SearchEpisodes: None,
    ForgetRun: "forgotten",
    ListAgents: "agents",
    GetFact: "fact",
    ListFacts: None,
    RetractFact: "fact",
    CorrectFact: "fact",
    AssertFact: "fact",
    FlagMemory: "flag",
}


def reply_json(message: RemoteMessage, answer: Any) -> dict[str, Any]:
    """The handler's ``answer`` to ``message`` as the function replies it."""
    key = REPLY_KEYS[type(message)]
    return dict(answer) if key is None else {key: answer}


def reply_of(message: RemoteMessage, reply: dict[str, Any]) -> Any:
    """The answer in a function's reply to ``message``; ``KeyError`` names what is missing."""
    key = REPLY_KEYS[type(message)]
    if key is None:
        missing = [k for k in WHOLE_REPLIES[type(message)] if k not in reply]
        if missing:
            raise KeyError(missing[0])
        return reply
    return reply[key]
