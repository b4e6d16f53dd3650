"""``agent-memory stats``: what memory holds, per tier and status (the nightly gauges, locally).

Example::

    agent-memory stats
    agent-memory stats --tenant acme --json
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, TextIO

from agent_memory.core.model.errors import InvalidInput

if TYPE_CHECKING:
    from agent_memory.app import Application
    from agent_memory.core.workflows.stats import MemoryStats

# argparse exports no public name for the subparsers' type.
SubParsers = argparse._SubParsersAction


def register(
    commands: SubParsers[argparse.ArgumentParser],
    groups: Mapping[str, SubParsers[argparse.ArgumentParser]],
) -> None:
    """Add ``stats`` to the ``agent-memory`` commands."""
    del groups
    stats = commands.add_parser("stats", help="count what memory holds, per tier and status")
    stats.add_argument("--tenant", help="one tenant (default: every tenant)")
    stats.add_argument("--json", action="store_true", help="print the figures as JSON")
    stats.set_defaults(handler=_stats, read_only=True)


def _stats(args: argparse.Namespace, app: Application, out: TextIO) -> int:
    from agent_memory.app.messages import Stats
    from agent_memory.core.model.identifiers import ID_PATTERN
    from agent_memory.core.model.records import to_json

    tenant = args.tenant
    if tenant is not None and not re.fullmatch(ID_PATTERN, tenant):
        raise InvalidInput("--tenant", f"{tenant!r} is not a tenant id")
    stats = app.handle(Stats(tenant))
    if args.json:
        json.dump(to_json(stats), out, indent=2, sort_keys=True)
        out.write("\n")
    else:
        out.writelines(line + "\n" for line in report_lines(stats))
    return 0


def report_lines(stats: MemoryStats) -> list[str]:
    """The figures as a short table, one line per tier plus the runs awaiting replay."""
    scope = f"tenant {stats.tenant_id}" if stats.tenant_id else "every tenant"
    moment = datetime.fromtimestamp(stats.at, UTC).strftime("%Y-%m-%d %H:%M UTC")
    procedures = {
        status: f"{n} ({stats.procedures_on_trial} on trial)" if status == "VALIDATED" else n
        for status, n in stats.procedures.items()
    }
    awaiting = f"awaiting ingestion {stats.facts_awaiting_ingestion}"
    rows = [
        ("episodes", stats.episodes, _breakdown(stats.episodes)),
        ("facts", stats.facts, f"{_breakdown(stats.facts)}; {awaiting}"),
        ("procedures", stats.procedures, _breakdown(procedures)),
    ]
    lines = [f"memory of {scope}, {moment}"]
    lines += [f"{name:<12}{sum(counts.values()):>6}   {detail}" for name, counts, detail in rows]
    if stats.failed_runs is not None:
        replay = "awaiting replay (agent-memory failed list)"
        lines.append(f"{'failed runs':<12}{stats.failed_runs:>6}   {replay}")
    return lines


def _breakdown(counts: Mapping[str, object]) -> str:
    return ", ".join(f"{name} {n}" for name, n in counts.items())
