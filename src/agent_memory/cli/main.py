# PYTHON_ARGCOMPLETE_OK (the marker argcomplete looks for: completion is an optional extra)
"""The ``agent-memory`` command: the embedded memory from a shell.

Example::

    agent-memory demo
    agent-memory consolidate run.json --json
    agent-memory bootstrap --tenant acme --agent reviewer --task "Review the MSA" --json

Modules are imported by the command that needs them, so ``--help``, ``--version`` and the
commands that load no model start in a fraction of a second.
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, cast

from agent_memory.core.model.errors import InvalidInput, MemoryError_
from agent_memory.core.model.models import ProcedureStatus

if TYPE_CHECKING:
    from agent_memory.core.model.models import Retention
    from agent_memory.core.ports import MemoryPorts
    from agent_memory.core.workflows.consolidation import RunsToReplay

PROG = "agent-memory"
Command = Callable[[argparse.Namespace, "MemoryPorts", TextIO], int]
# The state machine's timeout (core.workflows.consolidation.INCOMPLETE_AFTER_SECONDS, which a
# test holds this to): here as a literal so that building the parser imports no consolidation code.
INCOMPLETE_AFTER_MINUTES = 30
# What a file write or read meets when the disk is full, over a size limit or failing.
_DISK_FAULTS = frozenset({errno.ENOSPC, errno.EFBIG, errno.EIO, errno.EDQUOT})


class UsageError(Exception):
    """A mistake in how the command was called (bad file, bad JSON, bad date)."""


class StoreNotWritable(Exception):
    """The store cannot be written (a read-only disk, a file in its path, no permission)."""


class StoreFailed(Exception):
    """The store failed a command part way; the message says what is kept."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; the process exit code (0 ok, 1 failed, 2 bad input)."""
    parser = _parser()
    if "_ARGCOMPLETE" in os.environ:  # a shell asking for completions, not a command
        _complete(parser)
    args = parser.parse_args(argv)
    try:
        return _run(args)
    except (InvalidInput, UsageError, StoreNotWritable, StoreFailed) as error:
        return _fail(str(error), 2)
    except MemoryError_ as error:
        if _is_store_error(error):
            return _fail(_unrecorded(args, str(error)), 2)
        return _fail(str(error), 1)
    except KeyboardInterrupt:
        return _fail("interrupted", 130)
    except BrokenPipeError:
        # The reader left (`| head`): stop quietly, and keep Python's exit flush from failing.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except Exception as error:
        known = _known_failure(error, args)
        if known is None:
            raise
        return _fail(*known)


def _run(args: argparse.Namespace) -> int:
    serve = getattr(args, "serve", None)
    if serve is not None:
        # A command that opens its own memory (a MemoryClient, local or on the stack).
        return int(serve(args))
    if args.aws_stack:
        return _on_stack(args, args.handler)
    prepare = getattr(args, "prepare", None)
    if prepare is not None:
        # Before the store is opened: input refused here creates no store.
        prepare(args)
    if args.command == "demo":
        from agent_memory.cli.demo import run_demo

        why = _unwritable(Path(args.store)) if args.store else None
        if why is not None:
            raise StoreNotWritable(
                f"the store {args.store} cannot be written ({why}); the demo writes to it"
            )
        return run_demo(args.store, _stdout())
    handler: Command = args.handler
    return handler(args, _local_ports(args), _stdout())


def _stdout() -> TextIO:
    """Standard output, every hidden character shown by name (``cli/output.py``)."""
    from agent_memory.cli.output import VisibleOutput

    return cast(TextIO, VisibleOutput(sys.stdout))


def _local_ports(args: argparse.Namespace) -> MemoryPorts:
    """The store's ports; read-only ones when it cannot be written and the command only reads."""
    from agent_memory.wiring.local import DATABASE_FILE, local_ports
    from agent_memory.wiring.local_settings import LocalSettings

    settings = LocalSettings.from_environment(args.store)
    args.store_path = settings.store
    why = _unwritable(settings.store)
    if why is not None and not (settings.store / DATABASE_FILE).is_file():
        raise StoreNotWritable(f"no store at {settings.store}, and none can be made ({why})")
    if why is not None and not _reads_only(args):
        raise StoreNotWritable(
            f"the store {settings.store} cannot be written ({why}); "
            f"{_command_name(args)} writes to it (commands that only read work)"
        )
    try:
        return local_ports(settings, read_only=why is not None)
    except OSError as error:
        raise StoreNotWritable(_os_error(settings.store, error)) from None
    except MemoryError_ as error:
        if not (why is None and _reads_only(args) and _disk_failed(error)):
            raise
    # The disk is full (or failing) and the command only reads: read the store as it is.
    return local_ports(settings, read_only=True)


def _disk_failed(error: BaseException) -> bool:
    from agent_memory.adapters.local.sqlite_db import DatabaseFailed

    return isinstance(error, DatabaseFailed)


def _reads_only(args: argparse.Namespace) -> bool:
    return bool(getattr(args, "read_only", False) or getattr(args, "dry_run", False))


def _command_name(args: argparse.Namespace) -> str:
    action = getattr(args, "action", None)
    return f"`{PROG} {args.command}{f' {action}' if action else ''}`"


def _unwritable(store: Path) -> str | None:
    """Why the store cannot be written (the first path that refuses), or None if it can."""
    existing = store
    while not existing.exists() and existing.parent != existing:
        existing = existing.parent
    if not existing.is_dir():
        return f"{existing} is not a directory"
    # os.access sees a read-only file system even for root, who ignores the modes.
    if not os.access(existing, os.W_OK | os.X_OK):
        return f"{existing} is read-only"
    from agent_memory.wiring.local import DATABASE_FILE

    database = store / DATABASE_FILE
    if database.exists() and not os.access(database, os.W_OK):
        return f"{database} is read-only"
    return None


def _os_error(store: Path, error: OSError) -> str:
    where = error.filename or store
    return f"cannot use the store {store}: {where}: {error.strerror or error}"


def _is_store_error(error: MemoryError_) -> bool:
    """A store that cannot be used as it is: damaged, unreadable, its disk full or failing."""
    from agent_memory.core.model.errors import StoreUnavailable

    return isinstance(error, StoreUnavailable)


def _known_failure(error: Exception, args: argparse.Namespace) -> tuple[str, int] | None:
    """The one line and exit code of an expected failure; None for a bug (its traceback)."""
    from agent_memory.cli.aws_target import AwsCommandFailed
    from agent_memory.core.workflows.consolidation import StepFailed

    if isinstance(error, AwsCommandFailed):
        return str(error), 1
    if isinstance(error, StepFailed):
        fault = _store_fault(args, error.error)
        if fault is not None:
            # consolidate_or_record raised the step's failure: its record was written.
            return (
                f"{fault} (run {_run_id(args)} failed at {error.step}; recorded for replay: "
                f"{PROG} failed list)",
                2,
            )
        return f"{error} (recorded for replay: agent-memory failed list)", 1
    fault = _store_fault(args, error)
    if fault is not None:
        return _unrecorded(args, fault), 2
    return None


def _store_fault(args: argparse.Namespace, error: BaseException) -> str | None:
    """The one line of a store that refused or failed a write or a read; None for another
    error.
    """
    import sqlite3

    if isinstance(error, MemoryError_) and _is_store_error(error):
        return str(error)
    if isinstance(error, OSError | sqlite3.OperationalError) and _write_refused(error):
        return _write_refused_line(args, error)
    store = getattr(args, "store_path", None) or args.store
    if isinstance(error, OSError) and (
        error.errno in _DISK_FAULTS or _in_store(store, error.filename)
    ):
        return _os_error(Path(store or "."), error)
    return None


def _in_store(store: str | Path | None, filename: object) -> bool:
    """Whether ``filename`` is one of the store's files (a file where a folder belongs...)."""
    if store is None or not isinstance(filename, str | Path):
        return False
    return Path(filename).resolve().is_relative_to(Path(store).resolve())


def _unrecorded(args: argparse.Namespace, line: str) -> str:
    """``line``, saying that the run ``consolidate`` was given was not recorded: the store
    failed before the run, or its failure, could be recorded.
    """
    if args.command != "consolidate":
        return line
    return f"{line}; run {_run_id(args)} was NOT recorded: send it again once the store is fixed"


def _run_id(args: argparse.Namespace) -> str:
    from agent_memory.core.api.contracts import unwrap_event

    event = getattr(args, "event", None)
    detail = unwrap_event(event) if isinstance(event, dict) else None
    run_id = detail.get("run_id") if isinstance(detail, dict) else None
    return str(run_id) if run_id is not None else "?"


def _write_refused(error: BaseException) -> bool:
    import errno
    import sqlite3

    if isinstance(error, sqlite3.OperationalError):
        return "readonly" in str(error) or "unable to open" in str(error)
    refused = (errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOTDIR)
    return isinstance(error, OSError) and error.errno in refused


def _write_refused_line(args: argparse.Namespace, error: BaseException) -> str:
    store = getattr(args, "store_path", None) or args.store
    if store is None:  # not the local store (a deployed stack): the error names what refused
        return f"cannot write: {error}"
    if isinstance(error, OSError):
        return _os_error(Path(store), error)
    return f"the store {store} cannot be written ({error})"


def _complete(parser: argparse.ArgumentParser) -> None:
    try:
        import argcomplete
    except ImportError:  # the optional extra is not installed: no completions
        sys.exit(0)
    argcomplete.autocomplete(parser)


def _on_stack(args: argparse.Namespace, handler: Command) -> int:
    """Run a tenant-wide command against a deployed stack, on the caller's credentials."""
    from agent_memory.cli.aws_target import AWS_COMMANDS, aws_errors, stack_ports

    if args.command not in AWS_COMMANDS:
        allowed = ", ".join(sorted(AWS_COMMANDS))
        raise UsageError(
            f"--aws-stack works with {allowed}; {args.command} runs on the local store "
            "(on AWS it is done by the stack's functions and schedules)"
        )
    if args.store:
        raise UsageError("--store and --aws-stack name two different memories: give one")
    if args.command == "failed":
        return _failed_on_stack(args, _stdout())
    ports = stack_ports(args.aws_stack, args.region)
    with aws_errors():
        return handler(args, ports, _stdout())


def _fail(message: str, code: int) -> int:
    from agent_memory.core.model.visible import shown

    print(f"{PROG}: error: {shown(message)}", file=sys.stderr)
    return code


STORE_HELP = "memory directory (default: $AGENT_MEMORY_HOME, else ~/.agent-memory)"
TENANT_HELP = "the tenant id"
JSON_HELP = "print JSON instead of text"


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("agent-memory")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description="Four-tier memory for LLM agents.")
    parser.add_argument(
        "--version", action="version", version=f"%(prog)s {_version()}", help="print the version"
    )
    parser.add_argument("--store", metavar="DIR", help=STORE_HELP)
    parser.add_argument(
        "--aws-stack",
        metavar="NAME",
        help="run export, forget, failed or mcp on this deployed stack instead, with your AWS "
        "credentials",
    )
    parser.add_argument("--region", help="the stack's AWS region (default: your AWS config)")
    commands = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", help="each has its own --help"
    )

    demo = commands.add_parser("demo", help="run the contract-review story end to end")
    demo.set_defaults(handler=None)

    consolidate = commands.add_parser("consolidate", help="consolidate one RunFinished event")
    consolidate.add_argument("file", help="event JSON file, or - for stdin")
    consolidate.add_argument("--json", action="store_true", help="print a JSON summary")
    consolidate.set_defaults(handler=_consolidate, prepare=_read_event)

    boot = commands.add_parser("bootstrap", help="memory context for a task about to start")
    boot.add_argument("--tenant", required=True, help=TENANT_HELP)
    boot.add_argument("--agent", required=True, help="the agent id")
    boot.add_argument("--task", required=True, help="the task, in words (what is searched for)")
    boot.add_argument("--task-type", help="the task type, to serve its validated procedure")
    boot.add_argument("--domain", help="the domain, to serve its facts")
    boot.add_argument(
        "--scope",
        choices=("agent", "team", "tenant"),
        default="agent",
        help="whose past runs are read: this agent's (default), a team's, or the tenant's",
    )
    boot.add_argument(
        "--team", help="with --scope team: the other agents of the team, comma-separated"
    )
    boot.add_argument("--json", action="store_true", help="print the whole reply as JSON")
    boot.set_defaults(handler=_bootstrap, read_only=True)

    ingest = commands.add_parser("ingest", help="run the batched KB ingestion now")
    ingest.add_argument("--json", action="store_true", help=JSON_HELP)
    ingest.set_defaults(handler=_ingest)

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
    approve.set_defaults(handler=_procedures_approve)
    reject = actions.add_parser("reject", help="reject a procedure")
    reject.add_argument("procedure_id", help="the procedure's id, as listed")
    reject.add_argument("--reviewer", required=True, help="who rejects (recorded)")
    reject.add_argument("--reason", required=True, help="why (recorded)")
    reject.set_defaults(handler=_procedures_reject)

    facts = commands.add_parser("facts", help="review facts held back as contradictions")
    fact_actions = facts.add_subparsers(
        dest="action", required=True, metavar="ACTION", help="what to do with facts"
    )
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
    resolve.set_defaults(handler=_facts_resolve)

    decay_ = commands.add_parser("decay", help="apply the forgetting rules now")
    decay_.add_argument("--now", help="ISO 8601 time to decay as of (default: now)")
    decay_.add_argument(
        "--dry-run",
        action="store_true",
        help="list what would be deleted or flagged, per tier, and change nothing",
    )
    decay_.add_argument("--json", action="store_true", help=JSON_HELP)
    decay_.set_defaults(handler=_decay)

    export = commands.add_parser(
        "export", help="every record of a tenant as JSON lines (its receipt on stderr)"
    )
    export.add_argument("--tenant", required=True, help=TENANT_HELP)
    export.set_defaults(handler=_export, read_only=True)

    forget = commands.add_parser(
        "forget",
        help="delete every record of a tenant; prints a JSON receipt",
        description="Delete every record of a tenant. Asks first on a terminal; elsewhere "
        "(a script, a pipe) it needs --yes.",
    )
    forget.add_argument("--tenant", required=True, help=TENANT_HELP)
    forget.add_argument(
        "--yes", "-y", action="store_true", help="do not ask: delete (needed without a terminal)"
    )
    forget.set_defaults(handler=_forget)

    failed = commands.add_parser(
        "failed", help="runs whose consolidation failed or never finished (a crash)"
    )
    failed_actions = failed.add_subparsers(
        dest="action", required=True, metavar="ACTION", help="what to do with failed runs"
    )
    failed_list = failed_actions.add_parser("list", help="list failed and incomplete runs")
    failed_list.add_argument("--json", action="store_true", help=JSON_HELP)
    failed_replay = failed_actions.add_parser(
        "replay", help="consolidate failed runs again and complete incomplete ones"
    )
    failed_replay.add_argument("key", nargs="?", help="one run's key, as listed (default: all)")
    for action in (failed_list, failed_replay):
        action.add_argument(
            "--incomplete-after",
            type=float,
            metavar="MINUTES",
            default=INCOMPLETE_AFTER_MINUTES,
            help="a run started this long ago and not consolidated is incomplete "
            f"(default: {INCOMPLETE_AFTER_MINUTES}, the state machine's timeout)",
        )
    failed_list.set_defaults(handler=_failed_list, read_only=True)
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
    import importlib
    import pkgutil

    import agent_memory.cli as package

    return [
        importlib.import_module(f"{package.__name__}.{info.name}")
        for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name)
        if info.name.startswith("commands_")
    ]


def _read_json(source: str) -> Any:
    from agent_memory.core.api.json_input import read_json_stream

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
    from agent_memory.core.model.visible import json_text

    # Exact: a hidden character is a JSON escape, which reads back as itself.
    out.write(json_text(value, indent=2, sort_keys=True) + "\n")


def _read_event(args: argparse.Namespace) -> None:
    """Read and check the event before the store is opened: a refused one creates no store."""
    from agent_memory.core.api.contracts import parse_run_finished, unwrap_event

    args.event = _read_json(args.file)
    parse_run_finished(unwrap_event(args.event))


def _consolidate(args: argparse.Namespace, ports: MemoryPorts, out: TextIO) -> int:
    from agent_memory.core.workflows.consolidation import consolidate_or_record, summary

    result = summary(consolidate_or_record(args.event, ports))
    if args.json:
        _print_json(result, out)
        return 0
    out.write(
        f"run {result['run_id']} ({result['outcome']}): episode {result['episode']}; "
        f"{result['facts_observed']} fact(s) observed, {len(result['facts_confirmed'])} newly "
        f"confirmed; procedure {result['procedure_proposed'] or 'none'} proposed\n"
    )
    out.writelines(f"  {line}\n" for line in result["not_kept"])
    return 0


def _bootstrap(args: argparse.Namespace, ports: MemoryPorts, out: TextIO) -> int:
    from agent_memory.core.workflows.bootstrap import bootstrap, parse_bootstrap_request

    request = parse_bootstrap_request(
        {
            "tenant_id": args.tenant,
            "agent_id": args.agent,
            "task": args.task,
            **({"task_type": args.task_type} if args.task_type else {}),
            **({"domain": args.domain} if args.domain else {}),
            **({"scope": args.scope} if args.scope != "agent" else {}),
            **({"team": _names(args.team)} if args.team is not None else {}),
        }
    )
    reply = bootstrap(request, ports)
    unavailable = reply.get("unavailable") or {}
    if unavailable:
        read = [tier for tier in ("episodic", "semantic", "procedural") if tier not in unavailable]
        why = "; ".join(f"{tier}: {reason}" for tier, reason in unavailable.items())
        print(
            f"{PROG}: warning: served {', '.join(read) or 'nothing'} only; could not read {why}",
            file=sys.stderr,
        )
    if args.json:
        _print_json(reply, out)
    else:
        out.write((reply["context"] or "(no relevant memory yet)") + "\n")
    return 0


def _names(listed: str) -> list[str]:
    """``a, b,c`` as ``["a", "b", "c"]``."""
    return [name.strip() for name in listed.split(",") if name.strip()]


def _ingest(args: argparse.Namespace, ports: MemoryPorts, out: TextIO) -> int:
    from agent_memory.core.model.records import to_json
    from agent_memory.core.workflows.ingestion import run_ingestion

    report = run_ingestion(ports.facts, ports.knowledge_base, ports.checkpoints, now=ports.clock())
    if args.json:
        _print_json(to_json(report), out)
    else:
        out.write(
            f"ingestion {report.status}: {report.facts_ingested} fact(s) now served by the "
            f"knowledge base, {report.facts_waiting} waiting\n"
        )
    return 0


def _procedures_list(args: argparse.Namespace, ports: MemoryPorts, out: TextIO) -> int:
    from agent_memory.core.model.visible import json_text
    from agent_memory.core.tiers import procedural
    from agent_memory.core.workflows.review import list_procedures

    status = ProcedureStatus(args.status) if args.status else None
    found = list_procedures(ports, tenant_id=args.tenant, status=status)
    if args.json:
        _print_json([procedural.procedure_view(p) for p in found], out)
        return 0
    if not found:
        out.write("no procedures\n")
    for p in found:
        rate = "-" if p.success_rate is None else f"{p.success_rate:.0%}"
        out.write(
            f"{p.procedure_id}  {p.status.value:<12} {p.tenant_id}/{p.task_type}  "
            f"{json_text(p.title)}  steps={len(p.steps)} runs={p.proposed_by} "
            f"applied={p.times_applied} success={rate}\n"
        )
    return 0


def _procedures_show(args: argparse.Namespace, ports: MemoryPorts, out: TextIO) -> int:
    from agent_memory.core.model.visible import one_line
    from agent_memory.core.tiers import procedural

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
    # As the memory block shows them: each stored text on its one line, hidden characters named.
    out.write(f"Procedure: {one_line(data['title'])}\n")
    out.writelines(f"  {i}. {one_line(step)}\n" for i, step in enumerate(found.steps, 1))
    # The store names the first runs only: the count says how many proposed it.
    named = ", ".join(data["proposed_by_runs"])
    more = found.proposed_by - len(data["proposed_by_runs"])
    out.write(
        f"proposed by {found.proposed_by} runs: {named}{f' and {more} more' if more else ''}\n"
    )
    return 0


def _procedures_approve(args: argparse.Namespace, ports: MemoryPorts, out: TextIO) -> int:
    from agent_memory.core.tiers import procedural

    updated = procedural.decide(ports, args.procedure_id, approve=True, reviewer=args.reviewer)
    out.write(f"{updated.procedure_id} is VALIDATED (reviewer {updated.reviewer})\n")
    return 0


def _procedures_reject(args: argparse.Namespace, ports: MemoryPorts, out: TextIO) -> int:
    from agent_memory.core.tiers import procedural

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
    from agent_memory.core.workflows.review import resolve_contested_fact

    removed = resolve_contested_fact(
        ports,
        tenant_id=_tenant(args.tenant),
        domain=args.domain,
        fact_hash=args.fact_hash,
        keep=args.keep,
    )
    out.write(f"kept {args.keep}; removed {', '.join(removed) or 'nothing'}\n")
    return 0


def _decay(args: argparse.Namespace, ports: MemoryPorts, out: TextIO) -> int:
    from agent_memory.core.model.records import to_json
    from agent_memory.core.workflows.decay import decay, decay_preview

    now = _parse_time(args.now) if args.now else ports.clock()
    if args.dry_run:
        preview = decay_preview(
            ports.episodes, ports.facts, ports.procedures, now=now, policy=ports.policies.decay
        )
        if args.json:
            _print_json({"dry_run": True, **to_json(preview)}, out)
        else:
            out.writelines(line + "\n" for line in _preview_lines(preview))
        return 0
    report = decay(
        ports.episodes,
        ports.facts,
        ports.procedures,
        ports.run_ledger,
        ports.checkpoints,
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


def _preview_lines(preview: Any) -> list[str]:
    lines = ["dry run, nothing changed; decay would now:"]
    lines.append(f"  delete {len(preview.failed_episodes)} failed episode(s)")
    lines += [
        f"    {e['tenant_id']}/{e['agent_id']}/{e['run_id']}" for e in preview.failed_episodes
    ]
    lines.append(f"  expire {len(preview.pending_facts)} unconfirmed fact(s)")
    lines += [f"    {f['tenant_id']}/{f['domain']}/{f['fact_hash']}" for f in preview.pending_facts]
    lines.append(f"  flag {len(preview.procedures_flagged)} procedure(s) for review")
    lines += [
        f"    {p['tenant_id']}/{p['procedure_id']}: {p['reason']}"
        for p in preview.procedures_flagged
    ]
    lines.append("  and purge expired records (already hidden from every read)")
    return lines


def _parse_time(text: str) -> float:
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise UsageError(f"--now must be an ISO 8601 time, not {text!r}") from None
    if moment.tzinfo is None:
        raise UsageError("--now needs a time zone, e.g. 2026-12-01T00:00:00Z")
    return moment.timestamp()


def _tenant(tenant: str) -> str:
    from agent_memory.core.model.identifiers import checked_id

    return checked_id(tenant, "--tenant", "tenant id")


def _export(args: argparse.Namespace, ports: MemoryPorts, out: TextIO) -> int:
    from agent_memory.core.workflows.tenants import TenantExport

    export = TenantExport(ports, _tenant(args.tenant))
    for line in export:
        out.write(line + "\n")
    # The records are the output; the receipt goes beside them, where a terminal shows it.
    _print_json(export.receipt.as_json(), sys.stderr)
    return 0


def _forget(args: argparse.Namespace, ports: MemoryPorts, out: TextIO) -> int:
    from agent_memory.core.workflows.tenants import forget_tenant

    tenant = _tenant(args.tenant)
    where = f"stack {args.aws_stack}" if args.aws_stack else f"store {args.store_path}"
    if not args.yes and not _confirmed(f"delete every record of tenant {tenant!r} in the {where}?"):
        print(f"{PROG}: nothing deleted", file=sys.stderr)
        return 1
    retained: tuple[Retention, ...] = ()
    if args.aws_stack:
        from agent_memory.adapters.aws.retention import AWS_RETENTION

        retained = AWS_RETENTION
    receipt = forget_tenant(ports, tenant, retained=retained)
    _print_json(receipt.as_json(), out)
    counts = (receipt.episodes, receipt.facts, receipt.procedures, receipt.kb_documents)
    if not any((*counts, receipt.ledger_records)):
        print(f"{PROG}: tenant {tenant!r} had nothing to forget", file=sys.stderr)
    return 0


def _confirmed(question: str) -> bool:
    """The user's yes on a terminal; without one, a refusal that names --yes."""
    if not sys.stdin.isatty():
        raise UsageError(f"{question.rstrip('?')}: no terminal to confirm on; give --yes")
    print(f"{question} [y/N] ", end="", file=sys.stderr, flush=True)
    try:
        answer = sys.stdin.readline()
    except KeyboardInterrupt:
        answer = ""
    return answer.strip().lower() in ("y", "yes")


def _awaiting_replay(args: argparse.Namespace, ports: MemoryPorts) -> RunsToReplay:
    from agent_memory.core.workflows.consolidation import runs_to_replay

    return runs_to_replay(
        ports.run_ledger, now=ports.clock(), incomplete_after=args.incomplete_after * 60
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
    from agent_memory.core.workflows.consolidation import StepFailed, replay, summary

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
            out.writelines(f"  {line}\n" for line in result["not_kept"])
        except (StepFailed, MemoryError_) as error:
            fault = _store_fault(args, error.error if isinstance(error, StepFailed) else error)
            if fault is not None:
                # Every run left stays as it was recorded: stop rather than fail each in turn.
                raise StoreFailed(
                    f"{fault} (replay of {key} failed; it and the runs not replayed yet stay "
                    f"recorded: {PROG} failed list)"
                ) from None
            failures += 1
            out.write(f"replay of {key} failed again: {error}\n")
    return 1 if failures else 0


def _failed_on_stack(args: argparse.Namespace, out: TextIO) -> int:
    """``failed list|replay`` on a deployed stack: a replay starts the state machine again."""
    from agent_memory.cli.aws_target import AwsCommandFailed, aws_errors, stack_failures

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
