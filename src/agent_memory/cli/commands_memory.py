"""``agent-memory bootstrap``, ``search``, ``export``, ``forget`` and ``redact``: what memory
serves and holds.
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from typing import TYPE_CHECKING, TextIO

from agent_memory.cli.shared import (
    PROG,
    TENANT_HELP,
    UsageError,
    checked_tenant,
    confirmed,
    login_name,
    names,
    print_json,
    window_arguments,
    window_fields,
)

if TYPE_CHECKING:
    from agent_memory.app import Application
    from agent_memory.core.api.episode_search import EpisodeSearch
    from agent_memory.core.model.models import Retention

    # Not subscriptable at run time; only the annotations (strings here) name it.
    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]


def register(commands: Subparsers, groups: dict[str, Subparsers]) -> None:
    """Add ``bootstrap``, ``search``, ``export``, ``forget`` and ``redact``."""
    boot = commands.add_parser("bootstrap", help="memory context for a task about to start")
    boot.add_argument("--tenant", required=True, help=TENANT_HELP)
    boot.add_argument("--agent", required=True, help="the agent id")
    boot.add_argument("--task", required=True, help="the task, in words (what is searched for)")
    boot.add_argument("--task-type", help="the task type, to serve its validated procedure")
    boot.add_argument("--domain", help="the domain, to serve its facts")
    _reader_arguments(boot)
    boot.add_argument("--json", action="store_true", help="print the whole reply as JSON")
    boot.set_defaults(handler=_bootstrap, read_only=True)

    search = commands.add_parser(
        "search",
        help="past runs ranked against a query, best first",
        description="Past runs (episodes) and their messages and findings ranked against "
        "QUERY as bootstrap ranks them, in full: no threshold unless --min-similarity.",
    )
    search.add_argument("query", help="what to look for, in words")
    search.add_argument("--tenant", required=True, help=TENANT_HELP)
    search.add_argument("--agent", required=True, help="the agent id")
    _reader_arguments(search)
    search.add_argument("--limit", type=int, default=10, help="episodes at most (default 10)")
    search.add_argument(
        "--units", type=int, default=10, help="messages and findings at most (default 10)"
    )
    search.add_argument(
        "--min-similarity", type=float, help="leave out what is less similar (-1 to 1)"
    )
    window_arguments(search, "runs")
    search.add_argument("--json", action="store_true", help="print the whole reply as JSON")
    search.set_defaults(handler=_search, read_only=True)

    export = commands.add_parser(
        "export", help="every record of a tenant as JSON lines (its receipt on stderr)"
    )
    export.add_argument("--tenant", required=True, help=TENANT_HELP)
    export.set_defaults(handler=_export, read_only=True)

    forget = commands.add_parser(
        "forget",
        help="delete a tenant, one agent's runs or one run everywhere it counted; prints a "
        "JSON receipt",
        description="Delete every record of a tenant; or, with --agent, every run of that "
        "agent everywhere it counted (episodes, sightings of facts, proposals and feedback "
        "on procedures), or with --run too, one run. A fact no longer confirmed stops being "
        "served. Recorded in the history (who, why; never the content). Asks first on a "
        "terminal; elsewhere (a script, a pipe) it needs --yes.",
    )
    forget.add_argument("--tenant", required=True, help=TENANT_HELP)
    forget.add_argument("--agent", help="forget this agent's runs only (all, or --run)")
    forget.add_argument("--run", help="with --agent: forget this one run")
    forget.add_argument(
        "--reviewer", help="who decides, as the history records it (default: your login name)"
    )
    forget.add_argument("--reason", help="why, as the history records it")
    forget.add_argument(
        "--yes", "-y", action="store_true", help="do not ask: delete (needed without a terminal)"
    )
    forget.set_defaults(handler=_forget)

    redact = commands.add_parser(
        "redact",
        help="replace a text (a secret the PII scrubber missed) in every record of a tenant; "
        "prints a JSON receipt",
        description="Replace TEXT by [REDACTED] in every record of the tenant that holds it, "
        "in any case and in look-alike characters: episodes (re-embedded), facts and their "
        "knowledge-base documents, procedures, the run ledger, flags and the history. "
        "Recorded in the history with a keyed digest of the text, never the text. Give "
        "--text - to read the text from standard input (hidden on a terminal), so the secret "
        "stays out of your shell history. Asks first on a terminal; elsewhere it needs --yes.",
    )
    redact.add_argument("--tenant", required=True, help=TENANT_HELP)
    redact.add_argument(
        "--text",
        required=True,
        help="the text to replace, at least 4 characters; '-' reads it from standard input "
        "(recommended: it stays out of your shell history)",
    )
    redact.add_argument(
        "--reviewer", help="who decides, as the history records it (default: your login name)"
    )
    redact.add_argument("--reason", help="why, as the history records it")
    redact.add_argument(
        "--yes", "-y", action="store_true", help="do not ask: redact (needed without a terminal)"
    )
    redact.set_defaults(handler=_redact)


def _reader_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--scope",
        choices=("agent", "team", "tenant"),
        default="agent",
        help="whose past runs are read: this agent's (default), a team's, or the tenant's",
    )
    parser.add_argument(
        "--team", help="with --scope team: the other agents of the team, comma-separated"
    )


def _reader(args: argparse.Namespace) -> dict[str, object]:
    """The request's reader fields from the command line."""
    return {
        "tenant_id": args.tenant,
        "agent_id": args.agent,
        **({"scope": args.scope} if args.scope != "agent" else {}),
        **({"team": names(args.team)} if args.team is not None else {}),
    }


def _bootstrap(args: argparse.Namespace, app: Application, out: TextIO) -> int:
    from agent_memory.app.wire import bootstrap_message

    message = bootstrap_message(
        {
            **_reader(args),
            "task": args.task,
            **({"task_type": args.task_type} if args.task_type else {}),
            **({"domain": args.domain} if args.domain else {}),
        }
    )
    reply = app.handle(message)
    unavailable = reply.get("unavailable") or {}
    if unavailable:
        read = [tier for tier in ("episodic", "semantic", "procedural") if tier not in unavailable]
        why = "; ".join(f"{tier}: {reason}" for tier, reason in unavailable.items())
        print(
            f"{PROG}: warning: served {', '.join(read) or 'nothing'} only; could not read {why}",
            file=sys.stderr,
        )
    if args.json:
        print_json(reply, out)
    else:
        out.write((reply["context"] or "(no relevant memory yet)") + "\n")
    return 0


def _search(args: argparse.Namespace, app: Application, out: TextIO) -> int:
    from agent_memory.app.wire import search_message

    request = {"action": "search", **_reader(args), "query": args.query}
    request |= {"limit": args.limit, "units": args.units}
    if args.min_similarity is not None:
        request["min_similarity"] = args.min_similarity
    request |= window_fields(args)
    found = app.handle(search_message(request))
    if args.json:
        print_json(found, out)
        return 0
    write_search(found, out)
    return 0


def write_search(found: EpisodeSearch, out: TextIO) -> None:
    """A search's episodes as a person reads them: each with its best units, then what was
    left out.
    """
    from agent_memory.core.model.visible import one_line

    if not found["episodes"]:
        out.write("no episodes\n")
    for episode in found["episodes"]:
        day = datetime.fromtimestamp(episode["created_at"], UTC).date().isoformat()
        out.write(
            f"{episode['similarity']:.2f}  {episode['run_id']}  {episode['agent_id']}  {day}  "
            f"{episode['outcome']}\n  {one_line(episode['task_summary'])}\n"
        )
        for unit in episode["units"]:
            said = f"{unit['speaker']}: " if unit["speaker"] else f"{unit['kind']}: "
            out.write(f"    {unit['similarity']:.2f}  {one_line(said + unit['text'])}\n")
    left_out = found["left_out"]
    if left_out["episodes"] or left_out["units"]:
        out.write(
            f"({left_out['episodes']} episode(s) and {left_out['units']} unit(s) left out: the "
            "reply's size limit)\n"
        )
    if found["ranked_by"]:
        out.write(f"(ranked by {found['ranked_by']})\n")


def _export(args: argparse.Namespace, app: Application, out: TextIO) -> int:
    from agent_memory.app.messages import ExportTenant

    export = app.handle(ExportTenant(checked_tenant(args.tenant)))
    for line in export:
        out.write(line + "\n")
    # The records are the output; the receipt goes beside them, where a terminal shows it.
    print_json(export.receipt.as_json(), sys.stderr)
    return 0


def _forget(args: argparse.Namespace, app: Application, out: TextIO) -> int:
    from agent_memory.app.messages import ForgetTenant

    tenant = checked_tenant(args.tenant)
    where = f"stack {args.aws_stack}" if args.aws_stack else f"store {args.store_path}"
    if args.agent is not None or args.run is not None:
        return _forget_runs(args, app, out, where)
    if not args.yes and not confirmed(f"delete every record of tenant {tenant!r} in the {where}?"):
        print(f"{PROG}: nothing deleted", file=sys.stderr)
        return 1
    retained: tuple[Retention, ...] = ()
    if args.aws_stack:
        from agent_memory.adapters.aws.retention import AWS_RETENTION

        retained = AWS_RETENTION
    receipt = app.handle(ForgetTenant(tenant, retained))
    print_json(receipt.as_json(), out)
    counts = (receipt.episodes, receipt.facts, receipt.procedures, receipt.kb_documents)
    if not any((*counts, receipt.ledger_records, receipt.decisions)):
        print(f"{PROG}: tenant {tenant!r} had nothing to forget", file=sys.stderr)
    return 0


def _forget_runs(args: argparse.Namespace, app: Application, out: TextIO, where: str) -> int:
    from agent_memory.app.messages import ForgetRuns
    from agent_memory.core.model.identifiers import checked_id

    if args.agent is None:
        raise UsageError("--run names a run of an agent: give --agent too")
    tenant = checked_tenant(args.tenant)
    agent = checked_id(args.agent, "--agent", "agent id")
    run = None if args.run is None else checked_id(args.run, "--run", "run id")
    what = f"run {run!r} of agent {agent!r}" if run else f"every run of agent {agent!r}"
    question = f"forget {what} of tenant {tenant!r} everywhere it counted, in the {where}?"
    if not args.yes and not confirmed(question):
        print(f"{PROG}: nothing forgotten", file=sys.stderr)
        return 1
    actor = args.reviewer if args.reviewer is not None else login_name()
    receipt = app.handle(ForgetRuns(tenant, agent, run, actor, args.reason))
    print_json(receipt.as_json(), out)
    if not receipt.found:
        print(f"{PROG}: {what} had nothing to forget", file=sys.stderr)
    return 0


def _redact(args: argparse.Namespace, app: Application, out: TextIO) -> int:
    from agent_memory.app.messages import RedactText

    tenant = checked_tenant(args.tenant)
    text = _secret_text(args.text)
    where = f"stack {args.aws_stack}" if args.aws_stack else f"store {args.store_path}"
    question = f"replace the text in every record of tenant {tenant!r} in the {where}?"
    if not args.yes and not confirmed(question):
        print(f"{PROG}: nothing redacted", file=sys.stderr)
        return 1
    actor = args.reviewer if args.reviewer is not None else login_name()
    receipt = app.handle(RedactText(tenant, text, actor, args.reason))
    print_json(receipt.as_json(), out)
    if not receipt.found:
        print(f"{PROG}: no record of tenant {tenant!r} holds the text", file=sys.stderr)
    return 0


def _secret_text(given: str) -> str:
    """The text to redact: as given, or (``-``) read from standard input, unechoed on a
    terminal; one trailing line end is not part of it.
    """
    if given != "-":
        return given
    if sys.stdin.isatty():
        import getpass

        return getpass.getpass("text to redact (not shown): ")
    text = sys.stdin.readline()
    return text[:-1] if text.endswith("\n") else text
