"""``agent-memory consolidate`` and ``failed list|replay``: runs in, and runs that failed."""

from __future__ import annotations

import argparse
from datetime import UTC, datetime
from typing import TYPE_CHECKING, TextIO

from agent_memory.cli.exit_codes import CONFLICT, OK
from agent_memory.cli.faults import store_fault
from agent_memory.cli.shared import (
    INCOMPLETE_AFTER_MINUTES,
    JSON_HELP,
    PROG,
    StoreFailed,
    print_json,
    read_json,
)
from agent_memory.core.model.errors import MemoryError_, NotFound

if TYPE_CHECKING:
    from agent_memory.app import Application
    from agent_memory.core.workflows.consolidation import RunsToReplay

    # Not subscriptable at run time; only the annotations (strings here) name it.
    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]


def register(commands: Subparsers, groups: dict[str, Subparsers]) -> None:
    """Add ``consolidate`` and ``failed``."""
    consolidate = commands.add_parser("consolidate", help="consolidate one RunFinished event")
    consolidate.add_argument("file", help="event JSON file, or - for stdin")
    consolidate.add_argument("--json", action="store_true", help="print a JSON summary")
    consolidate.set_defaults(handler=_consolidate, prepare=_read_event)

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
    failed_list.set_defaults(handler=_failed_list, read_only=True, on_stack=_failed_on_stack)
    failed_replay.set_defaults(handler=_failed_replay, on_stack=_failed_on_stack)
    groups["failed"] = failed_actions


def _read_event(args: argparse.Namespace) -> None:
    """Read and parse the event before the store is opened: a refused one creates no store."""
    from agent_memory.app.wire import run_message

    args.event = read_json(args.file)
    args.message = run_message(args.event)


def _consolidate(args: argparse.Namespace, app: Application, out: TextIO) -> int:
    from agent_memory.core.workflows.consolidation import summary

    result = summary(app.handle(args.message))
    # A run_id already used for another run is a conflict: nothing was written.
    code = CONFLICT if result["run_id_reused"] else OK
    if args.json:
        print_json(result, out)
        return code
    if result["run_id_reused"]:
        out.write(f"run {result['run_id']}: nothing written\n")
        out.writelines(f"  {line}\n" for line in result["notes"])
        return code
    out.write(
        f"run {result['run_id']} ({result['outcome']}): episode {result['episode']}; "
        f"{result['facts_observed']} fact(s) observed, {len(result['facts_confirmed'])} newly "
        f"confirmed; procedure {result['procedure_proposed'] or 'none'} proposed\n"
    )
    out.writelines(f"  {line}\n" for line in (*result["notes"], *result["not_kept"]))
    return 0


def _awaiting_replay(args: argparse.Namespace, app: Application) -> RunsToReplay:
    from agent_memory.app.messages import ListRunsToReplay

    return app.handle(ListRunsToReplay(args.incomplete_after * 60))


def _failed_list(args: argparse.Namespace, app: Application, out: TextIO) -> int:
    runs = _awaiting_replay(args, app)
    if args.json:
        print_json(runs.listed(), out)
        return 0
    if not runs.failed:
        out.write("no failed runs\n")
    for record in runs.failed:
        error = record.error if isinstance(record.error, dict) else {}
        out.write(
            f"{record.key}  failures={record.failures}  {error.get('Error')}: "
            f"{error.get('Cause')}\n"
        )
    if runs.incomplete:
        out.write(
            f"incomplete runs (started, not consolidated after {args.incomplete_after:g} "
            "min; replay completes them):\n"
        )
    for entry in runs.incomplete:
        started = datetime.fromtimestamp(entry.scrubbed_at, UTC).isoformat(timespec="seconds")
        out.write(f"{entry.key}  started={started}\n")
    return 0


def _failed_replay(args: argparse.Namespace, app: Application, out: TextIO) -> int:
    from agent_memory.app.messages import ReplayRun
    from agent_memory.core.workflows.consolidation import StepFailed, summary

    if args.key:
        keys = [args.key]
    else:
        runs = _awaiting_replay(args, app)
        keys = [r.key for r in runs.failed] + [r.key for r in runs.incomplete]
    failures = 0
    for key in keys:
        try:
            result = summary(app.handle(ReplayRun(key)))
            out.write(f"replayed {key}: episode {result['episode']}\n")
            out.writelines(f"  {line}\n" for line in result["not_kept"])
        except NotFound:
            if args.key:  # the run named is not recorded: not a replay that failed
                raise
            failures += 1
            out.write(f"replay of {key} failed again: it is no longer recorded\n")
        except (StepFailed, MemoryError_) as error:
            fault = store_fault(args, error.error if isinstance(error, StepFailed) else error)
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
            return _failed_list(args, failures.app, out)
        records = failures.records(incomplete_after=args.incomplete_after * 60)
        if args.key:
            records = [r for r in records if r.key == args.key]
            if not records:
                raise AwsCommandFailed(f"no failed or incomplete run {args.key!r}")
        for record in records:
            arn = failures.replay(record)
            out.write(f"replaying {record.key}: execution {arn}\n")
    return 0
