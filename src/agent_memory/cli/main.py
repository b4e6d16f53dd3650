"""The ``agent-memory`` command: the embedded memory from a shell.

Example::

    agent-memory demo
    agent-memory consolidate run.json --json
    agent-memory bootstrap --tenant acme --agent reviewer --task "Review the MSA" --json
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import pkgutil
import sys
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from agent_memory.cli.aws_target import (
    AWS_COMMANDS,
    AwsCommandFailed,
    aws_errors,
    stack_failures,
    stack_ports,
)
from agent_memory.core import procedural, semantic
from agent_memory.core.bootstrap import bootstrap, parse_bootstrap_request
from agent_memory.core.consolidation import (
    INCOMPLETE_AFTER_SECONDS,
    RunsToReplay,
    StepFailed,
    consolidate_or_record,
    replay,
    runs_to_replay,
    summary,
)
from agent_memory.core.decay import decay
from agent_memory.core.errors import InvalidInput, MemoryError_
from agent_memory.core.ingestion import request_ingestion, run_ingestion
from agent_memory.core.json_input import read_json_stream
from agent_memory.core.models import Procedure, ProcedureStatus
from agent_memory.core.ports import MemoryPorts
from agent_memory.core.records import to_json
from agent_memory.core.tenants import Retention, TenantExport, forget_tenant
from agent_memory.settings import LocalSettings

PROG = "agent-memory"
Command = Callable[[argparse.Namespace, MemoryPorts, TextIO], int]


class UsageError(Exception):
    """A mistake in how the command was called (bad file, bad JSON, bad date)."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; the process exit code (0 ok, 1 failed, 2 bad input)."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        if args.aws_stack:
            return _on_stack(args, args.handler)
        if args.command == "demo":
            from agent_memory.cli.demo import run_demo

            return run_demo(args.store, sys.stdout)
        handler: Command = args.handler
        settings = LocalSettings.from_environment(args.store)
        from agent_memory.wiring import local_ports

        return handler(args, local_ports(settings), sys.stdout)
    except (InvalidInput, UsageError) as error:
        return _fail(str(error), 2)
    except AwsCommandFailed as error:
        return _fail(str(error), 1)
    except StepFailed as failure:
        return _fail(f"{failure} (recorded for replay: agent-memory failed list)", 1)
    except MemoryError_ as error:
        return _fail(str(error), 1)
    except KeyboardInterrupt:
        return _fail("interrupted", 130)
    except BrokenPipeError:
        # The reader left (`| head`): stop quietly, and keep Python's exit flush from failing.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


def _on_stack(args: argparse.Namespace, handler: Command) -> int:
    """Run a tenant-wide command against a deployed stack, on the caller's credentials."""
    if args.command not in AWS_COMMANDS:
        allowed = ", ".join(sorted(AWS_COMMANDS))
        raise UsageError(
            f"--aws-stack works with {allowed}; {args.command} runs on the local store "
            "(on AWS it is done by the stack's functions and schedules)"
        )
    if args.store:
        raise UsageError("--store and --aws-stack name two different memories: give one")
    if args.command == "failed":
        return _failed_on_stack(args, sys.stdout)
    ports = stack_ports(args.aws_stack, args.region)
    with aws_errors():
        return handler(args, ports, sys.stdout)


def _fail(message: str, code: int) -> int:
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return code


STORE_HELP = "memory directory (default: $AGENT_MEMORY_HOME, else ~/.agent-memory)"


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("agent-memory")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description="Four-tier memory for LLM agents.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    parser.add_argument("--store", metavar="DIR", help=STORE_HELP)
    parser.add_argument(
        "--aws-stack",
        metavar="NAME",
        help="run export, forget or failed on this deployed stack instead, with your AWS "
        "credentials",
    )
    parser.add_argument("--region", help="the stack's AWS region (default: your AWS config)")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    demo = commands.add_parser("demo", help="run the contract-review story end to end")
    demo.set_defaults(handler=None)

    consolidate = commands.add_parser("consolidate", help="consolidate one RunFinished event")
    consolidate.add_argument("file", help="event JSON file, or - for stdin")
    consolidate.add_argument("--json", action="store_true", help="print a JSON summary")
    consolidate.set_defaults(handler=_consolidate)

    boot = commands.add_parser("bootstrap", help="memory context for a task about to start")
    boot.add_argument("--tenant", required=True)
    boot.add_argument("--agent", required=True)
    boot.add_argument("--task", required=True)
    boot.add_argument("--task-type")
    boot.add_argument("--domain")
    boot.add_argument("--json", action="store_true", help="print the whole reply as JSON")
    boot.set_defaults(handler=_bootstrap)

    ingest = commands.add_parser("ingest", help="run the batched KB ingestion now")
    ingest.add_argument("--json", action="store_true")
    ingest.set_defaults(handler=_ingest)

    procedures = commands.add_parser("procedures", help="review procedural memory")
    actions = procedures.add_subparsers(dest="action", required=True, metavar="ACTION")
    listing = actions.add_parser("list", help="list procedures")
    listing.add_argument("--tenant")
    listing.add_argument("--status", choices=[s.value for s in ProcedureStatus])
    listing.add_argument("--json", action="store_true")
    listing.set_defaults(handler=_procedures_list)
    show = actions.add_parser("show", help="show one procedure")
    show.add_argument("procedure_id")
    show.add_argument("--json", action="store_true")
    show.set_defaults(handler=_procedures_show)
    approve = actions.add_parser("approve", help="validate a procedure")
    approve.add_argument("procedure_id")
    approve.add_argument("--reviewer", required=True)
    approve.set_defaults(handler=_procedures_approve)
    reject = actions.add_parser("reject", help="reject a procedure")
    reject.add_argument("procedure_id")
    reject.add_argument("--reviewer", required=True)
    reject.add_argument("--reason", required=True)
    reject.set_defaults(handler=_procedures_reject)

    facts = commands.add_parser("facts", help="review facts held back as contradictions")
    fact_actions = facts.add_subparsers(dest="action", required=True, metavar="ACTION")
    contested = fact_actions.add_parser("contested", help="facts held back for review")
    contested.add_argument("--tenant", required=True)
    contested.add_argument("--json", action="store_true")
    contested.set_defaults(handler=_facts_contested)
    resolve = fact_actions.add_parser("resolve", help="decide on a contested fact")
    resolve.add_argument("fact_hash")
    resolve.add_argument("--tenant", required=True)
    resolve.add_argument("--domain", required=True)
    resolve.add_argument("--keep", required=True, choices=["new", "old", "both"])
    resolve.set_defaults(handler=_facts_resolve)

    decay_ = commands.add_parser("decay", help="apply the forgetting rules now")
    decay_.add_argument("--now", help="ISO 8601 time to decay as of (default: now)")
    decay_.add_argument("--json", action="store_true")
    decay_.set_defaults(handler=_decay)

    export = commands.add_parser(
        "export", help="every record of a tenant as JSON lines (its receipt on stderr)"
    )
    export.add_argument("--tenant", required=True)
    export.set_defaults(handler=_export)

    forget = commands.add_parser(
        "forget", help="delete every record of a tenant; prints a JSON receipt"
    )
    forget.add_argument("--tenant", required=True)
    forget.set_defaults(handler=_forget)

    failed = commands.add_parser(
        "failed", help="runs whose consolidation failed or never finished (a crash)"
    )
    failed_actions = failed.add_subparsers(dest="action", required=True, metavar="ACTION")
    failed_list = failed_actions.add_parser("list", help="list failed and incomplete runs")
    failed_list.add_argument("--json", action="store_true")
    failed_replay = failed_actions.add_parser(
        "replay", help="consolidate failed runs again and complete incomplete ones"
    )
    failed_replay.add_argument("key", nargs="?", help="one run's key, as listed (default: all)")
    for action in (failed_list, failed_replay):
        action.add_argument(
            "--incomplete-after",
            type=float,
            metavar="MINUTES",
            default=INCOMPLETE_AFTER_SECONDS / 60,
            help="a run started this long ago and not consolidated is incomplete "
            f"(default: {INCOMPLETE_AFTER_SECONDS // 60}, the state machine's timeout)",
        )
    failed_list.set_defaults(handler=_failed_list)
    failed_replay.set_defaults(handler=_failed_replay)
    groups = {"procedures": actions, "facts": fact_actions, "failed": failed_actions}
    for module in _command_modules():
        module.register(commands, groups)
    for subcommands in (commands, *groups.values()):
        for command in subcommands.choices.values():
            # --store after the command too; unset there, it leaves the one given before alone.
            command.add_argument(
                "--store", metavar="DIR", default=argparse.SUPPRESS, help=STORE_HELP
            )
    return parser


def _command_modules() -> list[Any]:
    """The ``agent_memory.cli.commands_*`` modules: each adds its commands with
    ``register(commands, groups)``, where ``groups`` maps a command group to its subparsers.
    """
    import agent_memory.cli as package

    return [
        importlib.import_module(f"{package.__name__}.{info.name}")
        for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name)
        if info.name.startswith("commands_")
    ]


def _read_json(source: str) -> Any:
    # Bytes, decoded by the strict reader: a C locale would let stdin turn bad bytes into lone
    # surrogates. At most one byte past the event bound is read, from a file or from stdin.
    try:
        if source == "-":
            return read_json_stream(sys.stdin.buffer)
        with Path(source).open("rb") as stream:
            return read_json_stream(stream)
    except OSError as error:
        raise UsageError(f"cannot read {source}: {error.strerror or error}") from None
    except InvalidInput as error:
        if error.field != "event":
            raise
        raise UsageError(f"{'stdin' if source == '-' else source} {error.message}") from None


def _print_json(value: Any, out: TextIO) -> None:
    json.dump(value, out, indent=2, sort_keys=True, ensure_ascii=False)
    out.write("\n")


def _consolidate(args: argparse.Namespace, ports: MemoryPorts, out: TextIO) -> int:
    result = summary(consolidate_or_record(_read_json(args.file), ports))
    if args.json:
        _print_json(result, out)
        return 0
    out.write(
        f"run {result['run_id']} ({result['outcome']}): episode {result['episode']}; "
        f"{result['facts_observed']} fact(s) observed, {len(result['facts_confirmed'])} newly "
        f"confirmed; procedure {result['procedure_proposed'] or 'none'} proposed\n"
    )
    return 0


def _bootstrap(args: argparse.Namespace, ports: MemoryPorts, out: TextIO) -> int:
    request = parse_bootstrap_request(
        {
            "tenant_id": args.tenant,
            "agent_id": args.agent,
            "task": args.task,
            **({"task_type": args.task_type} if args.task_type else {}),
            **({"domain": args.domain} if args.domain else {}),
        }
    )
    reply = bootstrap(request, ports)
    if args.json:
        _print_json(reply, out)
    else:
        out.write((reply["context"] or "(no relevant memory yet)") + "\n")
    return 0


def _ingest(args: argparse.Namespace, ports: MemoryPorts, out: TextIO) -> int:
    report = run_ingestion(ports.facts, ports.knowledge_base, ports.ledger, now=ports.clock())
    if args.json:
        _print_json(to_json(report), out)
    else:
        out.write(
            f"ingestion {report.status}: {report.facts_ingested} fact(s) now served by the "
            f"knowledge base, {report.facts_waiting} waiting\n"
        )
    return 0


def _procedures_list(args: argparse.Namespace, ports: MemoryPorts, out: TextIO) -> int:
    status = ProcedureStatus(args.status) if args.status else None
    found: list[Procedure] = []
    cursor = None
    while True:
        page = ports.procedures.list(tenant_id=args.tenant, status=status, cursor=cursor)
        found.extend(page.items)
        if page.cursor is None:
            break
        cursor = page.cursor
    if args.json:
        _print_json([procedural.procedure_view(p) for p in found], out)
        return 0
    if not found:
        out.write("no procedures\n")
    for p in found:
        rate = "-" if p.success_rate is None else f"{p.success_rate:.0%}"
        out.write(
            f"{p.procedure_id}  {p.status.value:<12} {p.tenant_id}/{p.task_type}  "
            f"{p.title!r}  steps={len(p.steps)} runs={p.proposed_by} "
            f"applied={p.times_applied} success={rate}\n"
        )
    return 0


def _procedures_show(args: argparse.Namespace, ports: MemoryPorts, out: TextIO) -> int:
    found = ports.procedures.get(args.procedure_id)
    if found is None:
        raise InvalidInput("procedure_id", f"no procedure {args.procedure_id!r}")
    if args.json:
        _print_json(procedural.procedure_view(found), out)
        return 0
    data = procedural.procedure_view(found)
    out.write(
        f"{data['procedure_id']}  {data['status']}  {data['tenant_id']}/{data['task_type']}\n"
    )
    out.write(f"{data['title']}\n")
    out.writelines(f"  {i}. {step}\n" for i, step in enumerate(found.steps, 1))
    # The store names the first runs only: the count says how many proposed it.
    named = ", ".join(data["proposed_by_runs"])
    more = found.proposed_by - len(data["proposed_by_runs"])
    out.write(
        f"proposed by {found.proposed_by} runs: {named}{f' and {more} more' if more else ''}\n"
    )
    return 0


def _procedures_approve(args: argparse.Namespace, ports: MemoryPorts, out: TextIO) -> int:
    updated = procedural.decide(ports, args.procedure_id, approve=True, reviewer=args.reviewer)
    out.write(f"{updated.procedure_id} is VALIDATED (reviewer {updated.reviewer})\n")
    return 0


def _procedures_reject(args: argparse.Namespace, ports: MemoryPorts, out: TextIO) -> int:
    updated = procedural.decide(
        ports, args.procedure_id, approve=False, reviewer=args.reviewer, note=args.reason
    )
    out.write(f"{updated.procedure_id} is REJECTED (reviewer {updated.reviewer})\n")
    return 0


def _facts_contested(args: argparse.Namespace, ports: MemoryPorts, out: TextIO) -> int:
    found = ports.facts.contested(_tenant(args.tenant))
    if args.json:
        _print_json(
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


def _facts_resolve(args: argparse.Namespace, ports: MemoryPorts, out: TextIO) -> int:
    removed = semantic.resolve_contested(
        ports.facts,
        ports.knowledge_base,
        tenant_id=_tenant(args.tenant),
        domain=args.domain,
        fact_hash=args.fact_hash,
        keep=args.keep,
        now=ports.clock(),
    )
    if removed:
        # The KB index must drop what was removed, now rather than at the next window.
        request_ingestion(ports.ledger, now=ports.clock())
    run_ingestion(ports.facts, ports.knowledge_base, ports.ledger, now=ports.clock())
    out.write(f"kept {args.keep}; removed {', '.join(removed) or 'nothing'}\n")
    return 0


def _decay(args: argparse.Namespace, ports: MemoryPorts, out: TextIO) -> int:
    now = _parse_time(args.now) if args.now else ports.clock()
    report = decay(
        ports.episodes,
        ports.facts,
        ports.procedures,
        ports.ledger,
        now=now,
        policy=ports.policies.decay,
    )
    if args.json:
        _print_json(to_json(report), out)
        return 0
    out.write(
        f"deleted {report.failed_episodes_deleted} failed episode(s), purged "
        f"{report.expired_episodes_purged} expired, expired {report.pending_facts_expired} "
        f"unconfirmed fact(s), flagged {len(report.procedures_flagged)} procedure(s)\n"
    )
    for flagged in report.procedures_flagged:
        out.write(f"  flagged {flagged['procedure_id']}: {flagged['reason']}\n")
    return 0


def _parse_time(text: str) -> float:
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise UsageError(f"--now must be an ISO 8601 time, not {text!r}") from None
    if moment.tzinfo is None:
        raise UsageError("--now needs a time zone, e.g. 2026-12-01T00:00:00Z")
    return moment.timestamp()


def _tenant(tenant: str) -> str:
    parse_bootstrap_request({"tenant_id": tenant, "agent_id": "x", "task": "x"})
    return tenant


def _export(args: argparse.Namespace, ports: MemoryPorts, out: TextIO) -> int:
    export = TenantExport(ports, _tenant(args.tenant))
    for line in export:
        out.write(line + "\n")
    # The records are the output; the receipt goes beside them, where a terminal shows it.
    _print_json(export.receipt.as_json(), sys.stderr)
    return 0


def _forget(args: argparse.Namespace, ports: MemoryPorts, out: TextIO) -> int:
    retained: tuple[Retention, ...] = ()
    if args.aws_stack:
        from agent_memory.adapters.aws.retention import AWS_RETENTION

        retained = AWS_RETENTION
    receipt = forget_tenant(ports, _tenant(args.tenant), retained=retained)
    _print_json(receipt.as_json(), out)
    return 0


def _awaiting_replay(args: argparse.Namespace, ports: MemoryPorts) -> RunsToReplay:
    return runs_to_replay(
        ports.ledger, now=ports.clock(), incomplete_after=args.incomplete_after * 60
    )


def _failed_list(args: argparse.Namespace, ports: MemoryPorts, out: TextIO) -> int:
    runs = _awaiting_replay(args, ports)
    if args.json:
        failed = [{k: v for k, v in r.items() if k != "event"} for r in runs.failed]
        _print_json([*failed, *runs.incomplete], out)
        return 0
    if not runs.failed:
        out.write("no failed runs\n")
    for record in runs.failed:
        error = record.get("error") or {}
        out.write(
            f"{record['key']}  failures={record['failures']}  {error.get('Error')}: "
            f"{error.get('Cause')}\n"
        )
    if runs.incomplete:
        out.write(
            f"incomplete runs (started, not consolidated after {args.incomplete_after:g} "
            "min; replay completes them):\n"
        )
    for entry in runs.incomplete:
        started = datetime.fromtimestamp(entry["scrubbed_at"], UTC).isoformat(timespec="seconds")
        out.write(f"{entry['key']}  started={started}\n")
    return 0


def _failed_replay(args: argparse.Namespace, ports: MemoryPorts, out: TextIO) -> int:
    if args.key:
        keys = [args.key]
    else:
        runs = _awaiting_replay(args, ports)
        keys = [r["key"] for r in (*runs.failed, *runs.incomplete)]
    failures = 0
    for key in keys:
        try:
            result = summary(replay(key, ports))
            out.write(f"replayed {key}: episode {result['episode']}\n")
        except (StepFailed, MemoryError_) as error:
            failures += 1
            out.write(f"replay of {key} failed again: {error}\n")
    return 1 if failures else 0


def _failed_on_stack(args: argparse.Namespace, out: TextIO) -> int:
    """``failed list|replay`` on a deployed stack: a replay starts the state machine again."""
    failures = stack_failures(args.aws_stack, args.region)
    with aws_errors():
        if args.action == "list":
            return _failed_list(args, failures.ports, out)
        records = failures.records(incomplete_after=args.incomplete_after * 60)
        if args.key:
            records = [r for r in records if r["key"] == args.key]
            if not records:
                raise AwsCommandFailed(f"no failed or incomplete run {args.key!r}")
        for record in records:
            arn = failures.replay(record)
            out.write(f"replaying {record['key']}: execution {arn}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
