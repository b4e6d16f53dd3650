"""``agent-memory procedures`` and ``facts``: people decide on procedures and contested facts."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TextIO

from agent_memory.cli.shared import (
    JSON_HELP,
    PROG,
    TENANT_HELP,
    checked_tenant,
    confirmed,
    login_name,
    print_json,
)
from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.model.models import FactStatus, ProcedureStatus

# The decisions ``procedures show`` lists under a procedure (``history --record`` pages the rest).
MAX_HISTORY_SHOWN = 20

if TYPE_CHECKING:
    from agent_memory.app import Application
    from agent_memory.core.api.history_page import DecisionRecord

    # Not subscriptable at run time; only the annotations (strings here) name it.
    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]


def register(commands: Subparsers, groups: dict[str, Subparsers]) -> None:
    """Add the ``procedures`` and ``facts`` groups and their actions."""
    procedures = commands.add_parser("procedures", help="review procedural memory")
    actions = procedures.add_subparsers(
        dest="action", required=True, metavar="ACTION", help="what to do with procedures"
    )
    listing = actions.add_parser("list", help="list procedures")
    listing.add_argument("--tenant", help="one tenant (default: every tenant)")
    listing.add_argument(
        "--status", choices=[s.value for s in ProcedureStatus], help="only procedures in it"
    )
    listing.add_argument("--json", action="store_true", help=JSON_HELP)
    listing.set_defaults(handler=_procedures_list, read_only=True)
    show = actions.add_parser("show", help="show one procedure")
    show.add_argument("procedure_id", help="the procedure's id, as listed")
    show.add_argument("--json", action="store_true", help=JSON_HELP)
    show.set_defaults(handler=_procedures_show, read_only=True)
    approve = actions.add_parser("approve", help="validate a procedure")
    approve.add_argument("procedure_id", help="the procedure's id, as listed")
    approve.add_argument("--reviewer", required=True, help="who approves (recorded)")
    approve.add_argument(
        "--overrule",
        action="store_true",
        help="approve a procedure a person rejected or retired (both decisions stay in the "
        "history)",
    )
    _read_revision(approve)
    approve.set_defaults(handler=_procedures_approve)
    reject = actions.add_parser("reject", help="reject a procedure")
    reject.add_argument("procedure_id", help="the procedure's id, as listed")
    reject.add_argument("--reviewer", required=True, help="who rejects (recorded)")
    reject.add_argument("--reason", required=True, help="why (recorded)")
    _read_revision(reject)
    reject.set_defaults(handler=_procedures_reject)
    edit = actions.add_parser(
        "edit",
        help="replace the steps of a procedure not served yet (before approving it)",
        description="Replace the steps (and --title) of a PENDING, NEEDS_REVIEW, REJECTED or "
        "RETIRED procedure; it keeps its id and status, and is served once approved. A "
        "VALIDATED one is served as it is: reject or retire it first.",
    )
    edit.add_argument("procedure_id", help="the procedure's id, as listed")
    edit.add_argument("--tenant", required=True, help=TENANT_HELP)
    steps = edit.add_mutually_exclusive_group(required=True)
    steps.add_argument(
        "--steps-file",
        metavar="FILE",
        help="the new steps, one per line (blank lines skipped; - reads standard input)",
    )
    steps.add_argument(
        "--step", action="append", metavar="TEXT", help="one new step (repeat, in order)"
    )
    edit.add_argument("--title", help="a new title (default: keep it)")
    edit.add_argument(
        "--revision",
        type=int,
        metavar="N",
        help="the revision you read (procedures show); refused if someone edited it since",
    )
    edit.add_argument("--reviewer", required=True, help="who edits (recorded)")
    edit.add_argument("--reason", required=True, help="why (recorded in the history)")
    edit.set_defaults(handler=_procedures_edit)
    retire = actions.add_parser(
        "retire",
        help="take a served procedure out of service for good",
        description="Retire a VALIDATED (or NEEDS_REVIEW) procedure: no bootstrap serves it "
        "again and runs proposing it again do not bring it back; approving it again takes "
        "--overrule. On a terminal it asks first; elsewhere (a script, a pipe) it needs --yes.",
    )
    retire.add_argument("procedure_id", help="the procedure's id, as listed")
    retire.add_argument("--tenant", required=True, help=TENANT_HELP)
    retire.add_argument("--reviewer", required=True, help="who retires it (recorded)")
    retire.add_argument("--reason", required=True, help="why (recorded)")
    retire.add_argument(
        "--yes", "-y", action="store_true", help="do not ask: retire (needed without a terminal)"
    )
    retire.set_defaults(handler=_procedures_retire)
    groups["procedures"] = actions

    facts = commands.add_parser(
        "facts", help="read a fact; review those held back as contradictions"
    )
    fact_actions = facts.add_subparsers(
        dest="action", required=True, metavar="ACTION", help="what to do with facts"
    )
    list_facts = fact_actions.add_parser("list", help="the tenant's facts, a page at a time")
    list_facts.add_argument("--tenant", required=True, help=TENANT_HELP)
    list_facts.add_argument(
        "--status", choices=[s.value for s in FactStatus], help="only facts in it"
    )
    list_facts.add_argument("--domain", help="only the facts of this domain")
    list_facts.add_argument("--limit", type=int, default=50, help="facts per page (1-100)")
    list_facts.add_argument("--cursor", help="continue from a page's cursor (as printed)")
    list_facts.add_argument("--json", action="store_true", help=JSON_HELP)
    list_facts.set_defaults(handler=_facts_list, read_only=True)
    show_fact = fact_actions.add_parser("show", help="one fact with its confirmations")
    show_fact.add_argument("fact_hash", help="the fact's hash, as a reply or a listing names it")
    show_fact.add_argument("--tenant", required=True, help=TENANT_HELP)
    show_fact.add_argument("--domain", required=True, help="the fact's domain")
    show_fact.add_argument("--json", action="store_true", help=JSON_HELP)
    show_fact.set_defaults(handler=_facts_show, read_only=True)
    contested = fact_actions.add_parser("contested", help="facts held back for review")
    contested.add_argument("--tenant", required=True, help=TENANT_HELP)
    contested.add_argument("--json", action="store_true", help=JSON_HELP)
    contested.set_defaults(handler=_facts_contested, read_only=True)
    resolve = fact_actions.add_parser("resolve", help="decide on a contested fact")
    resolve.add_argument("fact_hash", help="the contested fact's hash, as listed")
    resolve.add_argument("--tenant", required=True, help=TENANT_HELP)
    resolve.add_argument("--domain", required=True, help="the fact's domain, as listed")
    resolve.add_argument(
        "--keep",
        required=True,
        choices=["new", "old", "both"],
        help="which side of the contradiction to keep",
    )
    resolve.add_argument(
        "--reviewer", help="who decides (recorded in the history; default: your login name)"
    )
    resolve.set_defaults(handler=_facts_resolve)
    retract = fact_actions.add_parser(
        "retract", help="retract a fact: served nowhere from the next bootstrap on"
    )
    _fact_key(retract)
    _signed(retract, asks=True)
    retract.set_defaults(handler=_facts_retract)
    correct = fact_actions.add_parser(
        "correct", help="put your text in a fact's place (the old one is retracted)"
    )
    _fact_key(correct)
    correct.add_argument("--content", required=True, help="the fact as it should read")
    _signed(correct, asks=True)
    correct.set_defaults(handler=_facts_correct)
    assert_ = fact_actions.add_parser(
        "assert", help="a fact of your own, confirmed and served at once"
    )
    assert_.add_argument("--tenant", required=True, help=TENANT_HELP)
    assert_.add_argument("--domain", required=True, help="the fact's domain")
    assert_.add_argument("--content", required=True, help="the fact's text")
    _signed(assert_, asks=False)
    assert_.set_defaults(handler=_facts_assert)
    groups["facts"] = fact_actions

    history = commands.add_parser(
        "history",
        help="every decision people made about a tenant's memory, newest first",
        description="The tenant's history: who decided what about which record, when and why "
        "(for removed content its digest, never the content).",
    )
    history.add_argument("--tenant", required=True, help=TENANT_HELP)
    history.add_argument("--limit", type=int, default=50, help="decisions per page (1-100)")
    history.add_argument("--cursor", help="continue from a page's cursor (as --json prints it)")
    history.add_argument(
        "--record", help="only the decisions about this record (a procedure id, domain/hash, ...)"
    )
    history.add_argument("--json", action="store_true", help=JSON_HELP)
    history.set_defaults(handler=_history, read_only=True)


def _read_revision(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--revision",
        type=int,
        help="the revision of the steps you read (procedures show --json): refused if "
        "someone edited them since",
    )


def _fact_key(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("fact_hash", help="the fact's hash, as listed")
    parser.add_argument("--tenant", required=True, help=TENANT_HELP)
    parser.add_argument("--domain", required=True, help="the fact's domain, as listed")


def _signed(parser: argparse.ArgumentParser, *, asks: bool) -> None:
    parser.add_argument(
        "--reviewer", help="who decides (recorded in the history; default: your login name)"
    )
    parser.add_argument("--reason", help="why (recorded in the history)")
    parser.add_argument("--json", action="store_true", help=JSON_HELP)
    if asks:
        parser.add_argument(
            "--yes", action="store_true", help="do not ask first (asks on a terminal without it)"
        )


def _procedures_list(args: argparse.Namespace, app: Application, out: TextIO) -> int:
    from agent_memory.app.messages import ListProcedures
    from agent_memory.core.model.visible import json_text

    status = ProcedureStatus(args.status) if args.status else None
    found = app.handle(ListProcedures(tenant_id=args.tenant, status=status))
    if args.json:
        print_json(found, out)
        return 0
    if not found:
        out.write("no procedures\n")
    for p in found:
        rate = "-" if p["success_rate"] is None else f"{p['success_rate']:.0%}"
        out.write(
            f"{p['procedure_id']}  {p['status']:<12} {p['tenant_id']}/{p['task_type']}  "
            f"{json_text(p['title'])}  steps={len(p['steps'])} runs={p['proposals']} "
            f"applied={p['times_applied']} success={rate}\n"
        )
    return 0


def _procedures_show(args: argparse.Namespace, app: Application, out: TextIO) -> int:
    from agent_memory.app.messages import History, ShowProcedure
    from agent_memory.core.model.visible import one_line

    data = app.handle(ShowProcedure(args.procedure_id))
    if args.json:
        print_json(data, out)
        return 0
    out.write(
        f"{data['procedure_id']}  {data['status']}  {data['tenant_id']}/{data['task_type']}\n"
    )
    # As the memory block shows them: each stored text on its one line, hidden characters named.
    out.write(f"Procedure: {one_line(data['title'])}\n")
    out.writelines(f"  {i}. {one_line(step)}\n" for i, step in enumerate(data["steps"], 1))
    # The store names the first runs only: the count says how many proposed it.
    named = ", ".join(data["proposed_by_runs"])
    more = data["proposals"] - len(data["proposed_by_runs"])
    out.write(
        f"proposed by {data['proposals']} runs: {named}{f' and {more} more' if more else ''}\n"
    )
    # Its decision history: who approved, rejected, edited or retired it, and why.
    decided = app.handle(History(data["tenant_id"], MAX_HISTORY_SHOWN, None, args.procedure_id))
    out.write("decisions:\n" if decided["decisions"] else "decisions: none yet\n")
    write_decisions(decided["decisions"], out, indent="  ")
    if decided["cursor"]:
        out.write(f"  (more: history --tenant {data['tenant_id']} --record {args.procedure_id})\n")
    return 0


def _procedures_approve(args: argparse.Namespace, app: Application, out: TextIO) -> int:
    return _decide(args, app, out, approve=True)


def _procedures_reject(args: argparse.Namespace, app: Application, out: TextIO) -> int:
    return _decide(args, app, out, approve=False)


def _decide(args: argparse.Namespace, app: Application, out: TextIO, *, approve: bool) -> int:
    from agent_memory.app.messages import DecideProcedure

    note = None if approve else args.reason
    overrule = approve and args.overrule
    decided = app.handle(
        DecideProcedure(
            args.procedure_id, approve, args.reviewer, note, None, overrule, args.revision
        )
    )
    out.write(
        f"{decided['procedure_id']} is {decided['status']} (reviewer {decided['reviewer']})\n"
    )
    return 0


def _procedures_edit(args: argparse.Namespace, app: Application, out: TextIO) -> int:
    from agent_memory.app.messages import EditProcedure

    tenant = checked_tenant(args.tenant)
    steps = tuple(args.step) if args.step is not None else _steps_file(args.steps_file)
    edited = app.handle(
        EditProcedure(
            tenant,
            args.procedure_id,
            steps,
            args.reviewer,
            args.reason,
            title=args.title,
            expected_revision=args.revision,
        )
    )
    out.write(
        f"{edited['procedure_id']} edited: {len(edited['steps'])} step(s), revision "
        f"{edited['revision']}; still {edited['status']} (served once approved)\n"
    )
    return 0


def _steps_file(path: str) -> tuple[str, ...]:
    """The steps of ``--steps-file``, one per line, blank lines skipped."""
    from pathlib import Path

    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise InvalidInput("--steps-file", f"cannot be read: {error}") from None
    return tuple(line for line in text.splitlines() if line.strip())


def _procedures_retire(args: argparse.Namespace, app: Application, out: TextIO) -> int:
    from agent_memory.app.messages import RetireProcedure

    tenant = checked_tenant(args.tenant)
    question = f"retire procedure {args.procedure_id!r} of tenant {tenant!r} for good?"
    if not args.yes and not confirmed(question):
        print(f"{PROG}: nothing retired", file=sys.stderr)
        return 1
    retired = app.handle(RetireProcedure(tenant, args.procedure_id, args.reviewer, args.reason))
    out.write(
        f"{retired['procedure_id']} is {retired['status']} (reviewer {retired['reviewer']}); "
        "no bootstrap serves it from now on\n"
    )
    return 0


def _facts_contested(args: argparse.Namespace, app: Application, out: TextIO) -> int:
    from agent_memory.app.messages import ListContestedFacts

    found = app.handle(ListContestedFacts(checked_tenant(args.tenant)))
    if args.json:
        print_json(
            [
                {
                    "fact_hash": f.fact_hash,
                    "domain": f.domain,
                    "content": f.content,
                    # The log names its first runs only; the count covers every one.
                    "runs": f.runs,
                    "reason": f.review_note,
                }
                for f in found
            ],
            out,
        )
        return 0
    if not found:
        out.write("no contested facts\n")
    for fact in found:
        out.write(f"{fact.fact_hash}  {fact.domain}  {fact.content!r}\n    {fact.review_note}\n")
    return 0


def _facts_list(args: argparse.Namespace, app: Application, out: TextIO) -> int:
    from agent_memory.app.messages import ListFacts
    from agent_memory.app.wire import episode_message
    from agent_memory.core.model.visible import one_line

    # Parsed as the episodes function parses the same request.
    request: dict[str, Any] = {"action": "facts", "tenant_id": checked_tenant(args.tenant)}
    for name in ("status", "domain", "limit", "cursor"):
        if getattr(args, name) is not None:
            request[name] = getattr(args, name)
    message = episode_message(request)
    assert isinstance(message, ListFacts)
    page = app.handle(message)
    if args.json:
        print_json(page, out)
        return 0
    if not page["facts"]:
        out.write("no facts\n")
    for fact in page["facts"]:
        out.write(
            f"{fact['fact_hash']}  {fact['status']:<10} {fact['domain']}  "
            f"confirmations={fact['confirmations']} runs={fact['sightings']}  "
            f"{one_line(fact['content'])}\n"
        )
    if page["cursor"]:
        out.write(f"(more: --cursor {page['cursor']})\n")
    return 0


def _facts_show(args: argparse.Namespace, app: Application, out: TextIO) -> int:
    from agent_memory.app.messages import GetFact
    from agent_memory.core.model.errors import NotFound
    from agent_memory.core.model.visible import one_line

    found = app.handle(GetFact(checked_tenant(args.tenant), args.domain, args.fact_hash))
    if found is None:
        raise NotFound(f"no fact {args.fact_hash!r} in domain {args.domain!r}")
    if args.json:
        print_json(found, out)
        return 0
    where = f"served from the {found['served_from']}" if found["served_from"] else "not served"
    out.write(f"{found['fact_hash']}  {found['status']}  {found['domain']}  ({where})\n")
    out.write(f"  {one_line(found['content'])}\n")
    # The store names its first runs only: the count says how many saw it.
    more = found["sightings"] - len(found["run_ids"])
    out.write(
        f"  confirmed by {found['confirmations']} independent run(s) of "
        f"{found['sightings']} that saw it: {', '.join(found['run_ids'])}"
        f"{f' and {more} more' if more > 0 else ''}\n"
    )
    again = found["counts_again_at"]
    for agent, at in sorted(found["counted_by"].items()):
        out.write(
            f"  {agent} counted last at {_moment(at)}; counts again from {_moment(again[agent])}\n"
        )
    document = found["kb_document"]
    out.write(
        "  knowledge base: "
        + {
            None: "no document",
            "staged": "document staged, awaiting the next ingestion",
            "ingested": "document ingested",
        }[document]
        + "\n"
    )
    if found["review_note"]:
        out.write(f"  note: {one_line(found['review_note'])}\n")
    return 0


def _moment(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).isoformat(timespec="seconds")


def _history(args: argparse.Namespace, app: Application, out: TextIO) -> int:
    from agent_memory.app.messages import History

    tenant = checked_tenant(args.tenant)
    page = app.handle(History(tenant, args.limit, args.cursor, args.record))
    if args.json:
        print_json(page, out)
        return 0
    if not page["decisions"]:
        out.write("no decisions\n")
    write_decisions(page["decisions"], out)
    if page["cursor"]:
        out.write(f"(more: --cursor {page['cursor']})\n")
    return 0


def write_decisions(decisions: Sequence[DecisionRecord], out: TextIO, indent: str = "") -> None:
    """Decisions as a person reads them: when, what, about which record, by whom, and why."""
    from agent_memory.core.model.visible import one_line

    for d in decisions:
        when = datetime.fromtimestamp(d["at"], UTC).isoformat(timespec="seconds")
        line = f"{when}  {d['action']} {d['kind']} {d['record_id']}  by {d['actor']}"
        out.write(indent + one_line(line) + "\n")
        if d["reason"]:
            out.write(f"{indent}    {one_line(d['reason'])}\n")


def _facts_resolve(args: argparse.Namespace, app: Application, out: TextIO) -> int:
    from agent_memory.app.messages import ResolveFact

    tenant = checked_tenant(args.tenant)
    reviewer = args.reviewer if args.reviewer is not None else login_name()
    removed = app.handle(ResolveFact(tenant, args.domain, args.fact_hash, args.keep, reviewer))
    out.write(f"kept {args.keep}; removed {', '.join(removed) or 'nothing'}\n")
    return 0


def _repair(args: argparse.Namespace, app: Application, out: TextIO, action: str) -> int:
    """The repair as the review function parses the same request; asks first on a terminal
    before taking a fact out of service (``--yes``: it does not).
    """
    from agent_memory.app.wire import FactRepair, review_message
    from agent_memory.core.model.visible import one_line

    tenant = checked_tenant(args.tenant)
    request: dict[str, Any] = {"action": action, "tenant_id": tenant, "domain": args.domain}
    if action != "assert":
        request["fact_hash"] = args.fact_hash
    if action != "retract":
        request["content"] = args.content
    request["reviewer"] = args.reviewer if args.reviewer is not None else login_name()
    if args.reason is not None:
        request["reason"] = args.reason
    message = review_message(request)
    assert isinstance(message, FactRepair)
    if action != "assert" and not args.yes:
        where = f"stack {args.aws_stack}" if args.aws_stack else "this store"
        question = f"{action} fact {args.fact_hash} of {tenant}/{args.domain} in {where}?"
        if not confirmed(question):
            print(f"{PROG}: nothing changed", file=sys.stderr)
            return 1
    record = app.handle(message)
    if args.json:
        print_json(record, out)
        return 0
    out.write(f"{record['fact_hash']}  {record['status']}  {record['domain']}\n")
    out.write(f"  {one_line(record['content'])}\n")
    if action == "correct":
        out.write(f"  in place of {args.fact_hash}, now RETRACTED\n")
    return 0


def _facts_retract(args: argparse.Namespace, app: Application, out: TextIO) -> int:
    return _repair(args, app, out, "retract")


def _facts_correct(args: argparse.Namespace, app: Application, out: TextIO) -> int:
    return _repair(args, app, out, "correct")


def _facts_assert(args: argparse.Namespace, app: Application, out: TextIO) -> int:
    return _repair(args, app, out, "assert")
