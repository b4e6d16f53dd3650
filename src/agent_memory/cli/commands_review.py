"""Review commands: ``procedures diff`` and ``review``, the local review page.

Example::

    agent-memory procedures diff proc-… [--against proc-…]
    agent-memory review --open            # http://127.0.0.1:8765/ until Ctrl+C
    agent-memory review --tenant acme --port 0   # the memory browser of one tenant
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TextIO

from agent_memory.core.model.errors import InvalidInput

# The review server's defaults, here so that building the parser imports no server code (a
# test holds them to agent_memory.review.server's).
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765

if TYPE_CHECKING:
    from agent_memory.app import Application
    from agent_memory.app.replies import ProcedureComparison

    # Not subscriptable at run time; only the annotations (strings here) name it.
    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]


def register(commands: Subparsers, groups: Mapping[str, Subparsers]) -> None:
    """Add ``procedures diff`` and ``review`` to the ``agent-memory`` command."""
    diff = groups["procedures"].add_parser(
        "diff", help="compare a procedure with the one served for its task type"
    )
    diff.add_argument("procedure_id", help="the procedure's id, as listed")
    diff.add_argument(
        "--against",
        metavar="ID",
        help="compare with this procedure (same tenant) instead of the one served",
    )
    diff.add_argument("--json", action="store_true", help="print the diff as JSON")
    diff.set_defaults(handler=procedures_diff, read_only=True)

    review = commands.add_parser(
        "review", help="review procedures, browse and repair memory, in a web page"
    )
    review.add_argument(
        "--host", default=DEFAULT_HOST, help=f"address to listen on (default {DEFAULT_HOST})"
    )
    review.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"0 for any free one ({DEFAULT_PORT})"
    )
    review.add_argument(
        "--tenant",
        help="this tenant's memory only: the views beyond Review (episodes, facts, history) "
        "need one",
    )
    review.add_argument("--open", action="store_true", help="open the page in a browser")
    review.set_defaults(handler=serve_review)


def procedures_diff(args: argparse.Namespace, app: Application, out: TextIO) -> int:
    """Print how a procedure differs, step by step, from the served one (or ``--against``)."""
    from agent_memory.app.messages import CompareProcedure
    from agent_memory.core.model.procedure_diff import format_diff
    from agent_memory.core.model.visible import json_text

    compared = app.handle(CompareProcedure(args.procedure_id, args.against))
    if args.json:
        out.write(json_text(_diff_json(compared), indent=2, sort_keys=True) + "\n")
        return 0
    procedure, against = compared.procedure, compared.against
    scope = f"{procedure.tenant_id}/{procedure.task_type}"
    if not args.against and compared.served_itself:
        out.write(
            f"{procedure.procedure_id} is itself the procedure served for {scope}; "
            + (
                "comparing with the one that would be served without it\n"
                if against is not None
                else "nothing else is validated (compare with --against ID)\n"
            )
        )
    elif against is None:
        out.write(f"no validated procedure is served for {scope}: every step is new\n")
    out.write(format_diff(compared.diff) + "\n")
    return 0


def serve_review(args: argparse.Namespace, app: Application, out: TextIO) -> int:
    """Serve the review page until interrupted."""
    import webbrowser

    from agent_memory.core.model.identifiers import ID_PATTERN
    from agent_memory.review.server import ReviewServer, is_loopback

    if args.tenant is not None and not re.fullmatch(ID_PATTERN, args.tenant):
        raise InvalidInput("tenant", f"not a valid identifier: {args.tenant!r}")
    if not 0 <= args.port <= 65535:
        raise InvalidInput("port", "must be 0-65535")
    try:
        server = ReviewServer(app, host=args.host, port=args.port, tenant_id=args.tenant)
    except OSError as error:
        raise InvalidInput(
            "port", f"cannot listen on {args.host}:{args.port}: {error.strerror or error}"
        ) from None
    if not is_loopback(args.host):
        print(
            f"warning: listening on {args.host}: anyone who can reach it can approve procedures"
            + (" and forget or rewrite this tenant's memory" if args.tenant else ""),
            file=sys.stderr,
        )
    try:
        with server:
            out.write(f"reviewing {_scope(args.tenant)} at {server.url} (Ctrl+C to stop)\n")
            out.flush()
            if args.open:
                webbrowser.open(server.url)
            server.serve_forever()
    except KeyboardInterrupt:
        out.write("stopped\n")
    return 0


def _scope(tenant: str | None) -> str:
    return f"tenant {tenant}'s memory" if tenant else "procedures of every tenant"


def _diff_json(compared: ProcedureComparison) -> dict[str, Any]:
    diff = compared.diff
    return {
        "procedure": compared.procedure_view,
        "against": compared.against_view,
        "title_changed": diff.title_changed,
        "identical": diff.identical,
        "summary": diff.summary(),
        "changes": [
            {
                "kind": c.kind,
                "old_number": c.old_number,
                "new_number": c.new_number,
                "old": c.old,
                "new": c.new,
                **({"words": [[w.op, w.text] for w in c.words]} if c.words else {}),
            }
            for c in diff.changes
        ],
    }
