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
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from agent_memory.cli.exit_codes import BAD_INPUT, CONFLICT, EXIT_CODES, FAILED, NOT_FOUND
from agent_memory.cli.faults import is_store_error, os_error, store_fault
from agent_memory.cli.shared import (
    PROG,
    STORE_HELP,
    StoreFailed,
    StoreMissing,
    StoreNotWritable,
    UsageError,
    stdout,
)
from agent_memory.core.model.errors import Conflict, InvalidInput, MemoryError_, NotFound

if TYPE_CHECKING:
    from agent_memory.app import Application

Command = Callable[[argparse.Namespace, "Application", TextIO], int]
# The command modules, in the order ``--help`` lists their commands; each adds its own with
# ``register(commands, groups)`` (``groups`` maps a command group to its subparsers).
COMMAND_MODULES = (
    "commands_demo",
    "commands_runs",
    "commands_memory",
    "commands_episodes",
    "commands_stats",
    "commands_decisions",
    "commands_flags",
    "commands_review",
    "commands_maintenance",
    "commands_reembed",
    "commands_mcp",
)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; the process exit code (:data:`EXIT_CODES`)."""
    parser = _parser()
    if "_ARGCOMPLETE" in os.environ:  # a shell asking for completions, not a command
        _complete(parser)
    args = parser.parse_args(argv)
    try:
        return _run(args)
    except (InvalidInput, UsageError, StoreMissing, StoreNotWritable, StoreFailed) as error:
        return _fail(str(error), BAD_INPUT)
    except NotFound as error:
        return _fail(str(error), NOT_FOUND)
    except Conflict as error:
        return _fail(str(error), CONFLICT)
    except MemoryError_ as error:
        if is_store_error(error) or _not_set_up(error):
            return _fail(_unrecorded(args, str(error)), BAD_INPUT)
        return _fail(str(error), FAILED)
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


def _not_set_up(error: MemoryError_) -> bool:
    """An SDK error saying what to install or set (an extra, an AWS region, credentials)."""
    from agent_memory.sdk.errors import NotSetUpError

    return isinstance(error, NotSetUpError)


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
        return run_demo(args.store, stdout())
    handler: Command = args.handler
    return handler(args, _local_app(args), stdout())


def _local_app(args: argparse.Namespace) -> Application:
    """The application over the store; read-only when it cannot be written and the command
    only reads.
    """
    from agent_memory.wiring.local import DATABASE_FILE, local_application
    from agent_memory.wiring.local_settings import LocalSettings

    settings = LocalSettings.from_environment(args.store)
    args.store_path = settings.store
    why = _unwritable(settings.store)
    if why is not None and not (settings.store / DATABASE_FILE).is_file():
        raise StoreNotWritable(f"no store at {settings.store}, and none can be made ({why})")
    if (_reads_only(args) or getattr(args, "status", False)) and not (
        settings.store / DATABASE_FILE
    ).is_file():
        # A mistyped --store must not leave an empty store behind for a command that only reads.
        raise StoreMissing(
            f"no store at {settings.store}; {_command_name(args)} only reads, so it makes none: "
            "check --store (or $AGENT_MEMORY_HOME), or write to it first "
            f"(`{PROG} consolidate RUN.json` or `{PROG} demo`)"
        )
    if why is not None and not _reads_only(args):
        raise StoreNotWritable(
            f"the store {settings.store} cannot be written ({why}); "
            f"{_command_name(args)} writes to it (commands that only read work)"
        )
    try:
        return local_application(settings, read_only=why is not None)
    except OSError as error:
        raise StoreNotWritable(os_error(settings.store, error)) from None
    except MemoryError_ as error:
        if not (why is None and _reads_only(args) and _disk_failed(error)):
            raise
    # The disk is full (or failing) and the command only reads: read the store as it is.
    return local_application(settings, read_only=True)


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


def _known_failure(error: Exception, args: argparse.Namespace) -> tuple[str, int] | None:
    """The one line and exit code of an expected failure; None for a bug (its traceback)."""
    from agent_memory.cli.aws_target import AwsCommandFailed
    from agent_memory.core.workflows.consolidation import StepFailed

    if isinstance(error, AwsCommandFailed):
        return str(error), FAILED
    if isinstance(error, ImportError):
        from agent_memory.sdk.errors import missing_extra

        extra = missing_extra(error)
        # An optional extra the command needs is not installed: what to install, not a trace.
        return (f"{_command_name(args)}: {extra}", BAD_INPUT) if extra is not None else None
    if isinstance(error, StepFailed):
        fault = store_fault(args, error.error)
        if fault is not None:
            # consolidate_or_record raised the step's failure: its record was written.
            return (
                f"{fault} (run {_run_id(args)} failed at {error.step}; recorded for replay: "
                f"{PROG} failed list)",
                2,
            )
        return f"{error} (recorded for replay: agent-memory failed list)", 1
    fault = store_fault(args, error)
    if fault is not None:
        return _unrecorded(args, fault), 2
    return None


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


def _complete(parser: argparse.ArgumentParser) -> None:
    try:
        import argcomplete
    except ImportError:  # the optional extra is not installed: no completions
        sys.exit(0)
    argcomplete.autocomplete(parser)


def _on_stack(args: argparse.Namespace, handler: Command) -> int:
    """Run a tenant-wide command against a deployed stack, on the caller's credentials."""
    from agent_memory.cli.aws_target import AWS_COMMANDS, aws_errors, stack_application

    if args.command not in AWS_COMMANDS:
        allowed = ", ".join(sorted(AWS_COMMANDS))
        raise UsageError(
            f"--aws-stack works with {allowed}; {args.command} runs on the local store "
            "(on AWS it is done by the stack's functions and schedules)"
        )
    if args.store:
        raise UsageError("--store and --aws-stack name two different memories: give one")
    with aws_errors():
        on_stack = getattr(args, "on_stack", None)
        if on_stack is not None:
            return int(on_stack(args, stdout()))
        app = stack_application(args.aws_stack, args.region)
        return handler(args, app, stdout())


def _fail(message: str, code: int) -> int:
    from agent_memory.core.model.visible import shown

    print(f"{PROG}: error: {shown(message)}", file=sys.stderr)
    return code


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("agent-memory")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Four-tier memory for LLM agents.",
        epilog="exit codes:\n" + "".join(f"  {code}  {what}\n" for code, what in EXIT_CODES),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version", action="version", version=f"%(prog)s {_version()}", help="print the version"
    )
    parser.add_argument("--store", metavar="DIR", help=STORE_HELP)
    parser.add_argument(
        "--aws-stack",
        metavar="NAME",
        help="run export, forget, history, failed or mcp on this deployed stack instead, with "
        "your AWS credentials",
    )
    parser.add_argument("--region", help="the stack's AWS region (default: your AWS config)")
    commands = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", help="each has its own --help"
    )

    groups: dict[str, Any] = {}
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
    """The modules of :data:`COMMAND_MODULES`, imported."""
    import importlib

    return [importlib.import_module(f"agent_memory.cli.{name}") for name in COMMAND_MODULES]


if __name__ == "__main__":
    sys.exit(main())
