"""``agent-memory episodes list|show``: an agent's past runs as memory holds them.

Example::

    agent-memory episodes list --tenant acme --agent reviewer
    agent-memory episodes list --tenant acme --agent reviewer --since 2026-05-01T00:00:00Z
    agent-memory episodes show run-0001 --tenant acme --agent reviewer --json
"""

from __future__ import annotations

import argparse
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TextIO, TypeVar

from agent_memory.cli.shared import (
    JSON_HELP,
    TENANT_HELP,
    print_json,
    window_arguments,
    window_fields,
)

if TYPE_CHECKING:
    from agent_memory.app import Application
    from agent_memory.core.api.episode_record import EpisodeRecord

    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]

M = TypeVar("M")


def register(commands: Subparsers, groups: dict[str, Subparsers]) -> None:
    """Add ``episodes list`` and ``episodes show``."""
    episodes = commands.add_parser("episodes", help="an agent's past runs as memory holds them")
    actions = episodes.add_subparsers(
        dest="action", required=True, metavar="ACTION", help="what to do with episodes"
    )
    listing = actions.add_parser("list", help="the agent's episodes, newest first")
    _who(listing)
    listing.add_argument("--limit", type=int, default=20, help="episodes per page (1-100)")
    listing.add_argument("--cursor", help="continue from a page's cursor (as printed)")
    window_arguments(listing, "episodes")
    listing.add_argument("--json", action="store_true", help=JSON_HELP)
    listing.set_defaults(handler=_list, read_only=True)
    show = actions.add_parser("show", help="one episode, every field as stored")
    show.add_argument("run_id", help="the run's id, as listed")
    _who(show)
    show.add_argument("--json", action="store_true", help=JSON_HELP)
    show.set_defaults(handler=_show, read_only=True)
    groups["episodes"] = actions


def _who(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tenant", required=True, help=TENANT_HELP)
    parser.add_argument("--agent", required=True, help="the agent id")


def _request(args: argparse.Namespace, action: str, **fields: Any) -> dict[str, Any]:
    """The episodes request the command line makes, parsed as the episodes function parses it."""
    return {"action": action, "tenant_id": args.tenant, "agent_id": args.agent, **fields}


def _parsed(kind: type[M], request: dict[str, Any]) -> M:
    """The request parsed as the episodes function parses it, into the message ``kind``."""
    from agent_memory.app.wire import episode_message

    message = episode_message(request)
    assert isinstance(message, kind)
    return message


def _list(args: argparse.Namespace, app: Application, out: TextIO) -> int:
    from agent_memory.app.messages import ListEpisodes
    from agent_memory.core.model.visible import one_line

    fields: dict[str, Any] = {"limit": args.limit}
    if args.cursor is not None:
        fields["cursor"] = args.cursor
    fields |= window_fields(args)
    page = app.handle(_parsed(ListEpisodes, _request(args, "list", **fields)))
    if args.json:
        print_json(page, out)
        return 0
    if not page["episodes"]:
        out.write("no episodes\n")
    for episode in page["episodes"]:
        day = _day(episode["created_at"])
        summary = one_line(episode["task_summary"])
        out.write(f"{one_line(episode['run_id'])}  {day}  {episode['outcome']:<9}  {summary}\n")
    if page["cursor"]:
        # The same window with the cursor: a cursor continues the listing it came from.
        more = f"--cursor {page['cursor']}"
        more += "".join(
            f" --{n} {getattr(args, n)}" for n in ("since", "until") if getattr(args, n)
        )
        out.write(f"(more: {more})\n")
    return 0


def _show(args: argparse.Namespace, app: Application, out: TextIO) -> int:
    from agent_memory.app.messages import GetEpisode
    from agent_memory.core.model.errors import NotFound

    found = app.handle(_parsed(GetEpisode, _request(args, "get", run_id=args.run_id)))
    if found is None:
        raise NotFound(f"agent {args.agent!r} has no episode of run {args.run_id!r}")
    if args.json:
        print_json(found, out)
        return 0
    write_episode(found, out)
    return 0


def write_episode(episode: EpisodeRecord, out: TextIO) -> None:
    """Every field of a stored episode, as a person reads it (hidden characters shown)."""
    from agent_memory.core.model.visible import one_line

    out.write(
        f"{one_line(episode['run_id'])} by {episode['agent_id']}, {episode['outcome']}, "
        f"stored {_day(episode['created_at'])}, kept until {_day(episode['expires_at'])}\n"
    )
    scalars = (
        ("task", episode["task"]),
        ("summary", episode["task_summary"]),
        ("task type", episode["task_type"]),
        ("domain", episode["domain"]),
        ("approach", episode["approach_used"]),
    )
    for label, value in scalars:
        if value:
            out.write(f"{label}: {one_line(value)}\n")
    lists = (
        ("findings", episode["key_findings"]),
        ("tools", episode["tools_used"]),
        ("patterns", episode["reusable_patterns"]),
    )
    for label, values in lists:
        if values:
            out.write(f"{label}:\n")
            out.writelines(f"  - {one_line(value)}\n" for value in values)


def _day(moment: float) -> str:
    return datetime.fromtimestamp(moment, UTC).date().isoformat()
