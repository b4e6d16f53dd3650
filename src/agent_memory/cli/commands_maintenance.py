"""``agent-memory ingest`` and ``decay``: the scheduled work, run now."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any, TextIO

from agent_memory.cli.shared import (
    JSON_HELP,
    parse_time,
    print_json,
)

if TYPE_CHECKING:
    from agent_memory.app import Application

    # Not subscriptable at run time; only the annotations (strings here) name it.
    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]


def register(commands: Subparsers, groups: dict[str, Subparsers]) -> None:
    """Add ``ingest`` and ``decay``."""
    ingest = commands.add_parser("ingest", help="run the batched KB ingestion now")
    ingest.add_argument("--json", action="store_true", help=JSON_HELP)
    ingest.set_defaults(handler=_ingest)

    decay_ = commands.add_parser("decay", help="apply the forgetting rules now")
    decay_.add_argument("--now", help="ISO 8601 time to decay as of (default: now)")
    decay_.add_argument(
        "--dry-run",
        action="store_true",
        help="list what would be deleted or flagged, per tier, and change nothing",
    )
    decay_.add_argument("--json", action="store_true", help=JSON_HELP)
    decay_.set_defaults(handler=_decay)


def _ingest(args: argparse.Namespace, app: Application, out: TextIO) -> int:
    from agent_memory.app.messages import Ingest
    from agent_memory.core.model.records import to_json

    report = app.handle(Ingest())
    if args.json:
        print_json(to_json(report), out)
    else:
        out.write(
            f"ingestion {report.status}: {report.facts_ingested} fact(s) now served by the "
            f"knowledge base, {report.facts_waiting} waiting\n"
        )
    return 0


def _decay(args: argparse.Namespace, app: Application, out: TextIO) -> int:
    from agent_memory.app.messages import Decay, PreviewDecay
    from agent_memory.core.model.records import to_json

    now = parse_time(args.now) if args.now else None
    if args.dry_run:
        preview = app.handle(PreviewDecay(now))
        if args.json:
            print_json({"dry_run": True, **to_json(preview)}, out)
        else:
            out.writelines(line + "\n" for line in _preview_lines(preview))
        return 0
    report = app.handle(Decay(now))
    if args.json:
        print_json(to_json(report), out)
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
