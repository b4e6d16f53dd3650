"""``agent-memory reembed``: move the store to another embedding model as a planned migration.

Example::

    agent-memory reembed --to all-MiniLM-L6-v2    # write the new model's vectors beside the old
    agent-memory reembed --status --coverage      # where it stands; what each model can see
    agent-memory reembed --switch                 # catch up, check calibration, switch at once
    agent-memory reembed --finish                 # drop the old model's vectors

Searches keep using the active model until ``--switch``; an interrupted run (Ctrl-C) resumes
where it stopped with ``--resume`` (or the same ``--to``). Models are named by their id in the
local registry (``adapters/local/embeddings.py``), or by a prefix only one id starts with.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any, Literal, TextIO

from agent_memory.core.model.errors import InvalidInput

if TYPE_CHECKING:
    from agent_memory.app import Application
    from agent_memory.core.ports import Embedder
    from agent_memory.core.workflows import reembed


def register(commands: Any, groups: dict[str, Any]) -> None:
    """Add the ``reembed`` command."""
    del groups
    parser = commands.add_parser(
        "reembed",
        help="move the store to another embedding model (resumable)",
        description="Move the store to another embedding model: --to MODEL writes its vectors "
        "beside the active ones, --switch makes it the model searches use, --finish drops the "
        "old vectors. Every step resumes where an interrupted one stopped.",
    )
    parser.add_argument("--to", metavar="MODEL", help="start (or resume) re-embedding with MODEL")
    parser.add_argument(
        "--switch",
        action="store_true",
        help="once re-embedded: catch up, check the calibration, make the new model active",
    )
    only = parser.add_mutually_exclusive_group()
    only.add_argument("--resume", action="store_true", help="continue the migration in progress")
    only.add_argument("--status", action="store_true", help="show where the migration stands")
    only.add_argument("--finish", action="store_true", help="after the switch: drop old vectors")
    only.add_argument("--abort", action="store_true", help="before the switch: drop new vectors")
    parser.add_argument(
        "--coverage",
        action="store_true",
        help="with --status: count the records each model's searches see (reads the whole store)",
    )
    parser.add_argument("--page-size", type=int, default=100, metavar="N", help="records a page")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.set_defaults(handler=run_reembed)


def run_reembed(args: argparse.Namespace, app: Application, out: TextIO) -> int:
    """Carry out the ``reembed`` command on the wired store; the exit code."""
    from agent_memory.adapters.local.embeddings import local_model
    from agent_memory.app.messages import MigrationStatus, Reembed
    from agent_memory.core.model.records import to_json

    if args.page_size < 1:
        raise InvalidInput("--page-size", "must be at least 1")
    if args.status:
        found = app.handle(MigrationStatus(coverage=args.coverage))
        _print(out, args.json, to_json(found), _status_lines(found))
        return 0
    if not (args.finish or args.abort or args.to or args.resume or args.switch):
        raise InvalidInput("reembed", "name a model (--to MODEL) or an action (see --help)")
    decision: Literal["begin", "finish", "abort"] | None = (
        "finish" if args.finish else "abort" if args.abort else "begin" if args.to else None
    )
    report = app.handle(
        Reembed(
            _Embedders(app.ports.embedder),
            decision,
            to=local_model(args.to).model_id if decision == "begin" else None,
            page_size=args.page_size,
            switch_when_done=args.switch,
        )
    )
    _print(out, args.json, to_json(report), _report_lines(report))
    return 0 if report.done else 1


class _Embedders:
    """Local embedders by model id: the wired one, or one built from the registry."""

    def __init__(self, wired: Embedder) -> None:
        self._built = {wired.model_id: wired}

    def __call__(self, model_id: str) -> Embedder:
        from agent_memory.adapters.local.embeddings import local_model

        if model_id not in self._built:
            self._built[model_id] = local_model(model_id).build()
        return self._built[model_id]


_NEXT = {
    "embedding": "next: agent-memory reembed --switch",
    "switching": "next: agent-memory reembed --resume",
    "switched": "searches now use the new model; next: agent-memory reembed --finish",
}


def _report_lines(report: reembed.ReembedReport) -> list[str]:
    state = "done" if report.done else f"stopped at {report.position}"
    lines = [
        f"embedding model {report.active_model_id} is active; migration to "
        f"{report.target_model_id or '-'}: {report.stage} ({state}; {report.message})"
    ]
    for kind, c in report.counts.items():
        lines.append(
            f"  {kind}: {c.seen} read, {c.embedded} re-embedded, {c.unchanged} unchanged, "
            f"{c.dropped} cleared of other models' vectors, {c.gone} gone, {c.failed} failed"
        )
    lines += [f"  failed: {key}" for key in report.failed_keys]
    if report.knowledge_base:
        lines.append(f"  knowledge base: {report.knowledge_base}")
    if report.done and report.stage in _NEXT:
        lines.append(_NEXT[report.stage])
    return lines


def _status_lines(found: reembed.ReembedStatus) -> list[str]:
    origin = "switched to" if found.active.switched_at else "default, never switched"
    lines = [f"active embedding model: {found.active.model_id} ({origin})"]
    current = found.migration
    if current is None:
        lines.append("no migration in progress")
    else:
        calibrated = "calibrated" if found.target_calibrated else "NOT calibrated: cannot switch"
        lines.append(
            f"migration to {current.target_model_id} ({calibrated}): {current.stage.value}, "
            f"pass at {current.kind}"
        )
    lines.append(f"knowledge base: {found.knowledge_base}")
    for kind, seen in (found.coverage or {}).items():
        lines.append(
            f"  {kind}: {seen.records} records, {seen.active} searchable with the active model "
            f"({seen.skipped} skipped), {seen.target} with the target's vectors"
        )
    return lines


def _print(out: TextIO, as_json: bool, data: Any, lines: list[str]) -> None:
    if as_json:
        json.dump(data, out, indent=2, sort_keys=True, ensure_ascii=False)
        out.write("\n")
    else:
        out.write("\n".join(lines) + "\n")
