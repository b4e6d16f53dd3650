"""``agent-memory flags``: the flags agents raised on served memory, and people's decisions."""

from __future__ import annotations

import argparse
from datetime import UTC, datetime
from typing import TYPE_CHECKING, TextIO

from agent_memory.cli.shared import JSON_HELP, TENANT_HELP, checked_tenant, login_name, print_json

if TYPE_CHECKING:
    from agent_memory.app import Application

    # Not subscriptable at run time; only the annotations (strings here) name it.
    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]


def register(commands: Subparsers, groups: dict[str, Subparsers]) -> None:
    """Add the ``flags`` group: ``list`` and ``dismiss``."""
    flags = commands.add_parser(
        "flags",
        help="memory agents flagged as wrong, awaiting a person's decision",
        description="An agent that finds a served item wrong flags it: it is not served to "
        "that agent any more, and waits here for a person. Dismissing a flag serves the "
        "item to the agent again; both are in the tenant's history.",
    )
    actions = flags.add_subparsers(
        dest="action", required=True, metavar="ACTION", help="what to do with flags"
    )
    listing = actions.add_parser("list", help="the tenant's open flags")
    listing.add_argument("--tenant", required=True, help=TENANT_HELP)
    listing.add_argument("--limit", type=int, default=50, help="flags per page (1-100)")
    listing.add_argument("--cursor", help="continue from a page's cursor (as --json prints it)")
    listing.add_argument("--json", action="store_true", help=JSON_HELP)
    listing.set_defaults(handler=_flags_list, read_only=True)
    dismiss = actions.add_parser(
        "dismiss", help="close a flag: the item was right, its agent is served it again"
    )
    dismiss.add_argument("flag_id", help="the flag's id, as listed (agent:kind:record)")
    dismiss.add_argument("--tenant", required=True, help=TENANT_HELP)
    dismiss.add_argument(
        "--reviewer", help="who decides (recorded in the history; default: your login name)"
    )
    dismiss.add_argument("--reason", required=True, help="why the item stands (recorded)")
    dismiss.add_argument(
        "--acted",
        action="store_true",
        help="close it as acted on instead (the item was dealt with, e.g. the fact retracted)",
    )
    dismiss.set_defaults(handler=_flags_dismiss)
    groups["flags"] = actions


def _flags_list(args: argparse.Namespace, app: Application, out: TextIO) -> int:
    from agent_memory.app.messages import ListFlags
    from agent_memory.core.model.visible import one_line

    page = app.handle(ListFlags(checked_tenant(args.tenant), args.limit, args.cursor))
    if args.json:
        print_json(page, out)
        return 0
    if not page["flags"]:
        out.write("no open flags\n")
    for f in page["flags"]:
        when = datetime.fromtimestamp(f["flagged_at"], UTC).isoformat(timespec="seconds")
        run = f" in run {f['run_id']}" if f["run_id"] else ""
        out.write(one_line(f"{f['flag_id']}  {when}  {f['kind']} {f['record_id']}{run}") + "\n")
        out.write(f"    {one_line(f['reason'])}\n")
    if page["cursor"]:
        out.write(f"(more: --cursor {page['cursor']})\n")
    return 0


def _flags_dismiss(args: argparse.Namespace, app: Application, out: TextIO) -> int:
    from agent_memory.app.messages import CloseFlag
    from agent_memory.core.model.visible import one_line

    tenant = checked_tenant(args.tenant)
    reviewer = args.reviewer if args.reviewer is not None else login_name()
    closed = app.handle(
        CloseFlag(
            tenant, args.flag_id, reviewer, args.reason, "acted" if args.acted else "dismissed"
        )
    )
    if args.acted:
        said = f"{closed['flag_id']} closed as acted on"
    else:
        said = f"{closed['flag_id']} dismissed: {closed['agent_id']} is served it again"
    out.write(one_line(said) + "\n")
    return 0
