"""``agent-memory demo``: the contract-review story, end to end, on the embedded memory."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from agent_memory.app.messages import (
    Bootstrap,
    DecideProcedure,
    FastPathFacts,
    Ingest,
    ListProcedures,
)
from agent_memory.app.wire import run_message
from agent_memory.cli import demo_runs as story
from agent_memory.core.api.bootstrap_reply import BootstrapReply
from agent_memory.core.model.models import ProcedureStatus
from agent_memory.core.model.policies import DAY
from agent_memory.core.model.requests import BootstrapRequest
from agent_memory.core.workflows.consolidation import STEP_NAMES, summary
from agent_memory.wiring.local_settings import LocalSettings

REVIEWER = "legal-lead"


@dataclass
class StoryClock:
    """The demo's consolidation clock: ``days_behind`` days before the wall clock.

    The story's past runs are consolidated a day apart, ending now, as they would have been:
    one agent's runs count as independent confirmations of a fact only an hour apart or more.
    """

    days_behind: int

    def __call__(self) -> float:
        """The time the story is at."""
        return time.time() - self.days_behind * DAY


def run_demo(store: str | None, out: TextIO) -> int:
    """Consolidate four past runs, confirm a fact, approve a procedure, bootstrap a new run.

    Uses ``store`` if given, else a fresh temporary directory (so a user's own memory is never
    touched); prints progress and, last, the memory context a new run receives.
    """
    from agent_memory.wiring.local import local_application

    root = Path(store) if store else Path(tempfile.mkdtemp(prefix="agent-memory-demo-"))
    clock = StoryClock(days_behind=len(story.PAST_RUNS) - 1)
    app = local_application(LocalSettings(store=root), clock=clock)

    def say(line: str = "") -> None:
        out.write(line + "\n")
        out.flush()

    say(f"agent-memory demo: a contract-review agent learns from its past runs (store: {root})")
    say(
        f"models: embeddings {app.ports.embedder.model_id} (local), PII detector local, "
        f"LLM {'configured' if app.ports.chat else 'none: events carry artifacts'}"
    )
    say()
    say("1. Consolidating past runs, a day apart: " + " -> ".join(STEP_NAMES))
    for event in story.PAST_RUNS:
        say("   " + _describe(summary(app.handle(run_message(event)))))
        clock.days_behind = max(clock.days_behind - 1, 0)
    redelivered = summary(app.handle(run_message(story.PAST_RUNS[1])))
    say(
        f"   {redelivered['run_id']} delivered again: episode {redelivered['episode']}, "
        "nothing counted twice"
    )
    for fact in app.handle(FastPathFacts(story.TENANT, story.DOMAIN)):
        say(
            f"   fact confirmed by {fact.confirmations} independent runs "
            f"({', '.join(sorted(fact.run_ids))}, a day apart): {fact.content[:60]}..."
        )

    request = Bootstrap(
        BootstrapRequest(story.TENANT, story.AGENT, story.NEW_TASK, story.TASK_TYPE, story.DOMAIN)
    )
    say()
    say("2. Semantic memory")
    before = app.handle(request)
    for served in before["facts"]:
        say(
            f"   served from the {served['source'].replace('_', ' ')} before ingestion: "
            f"{served['content'][:70]}..."
        )
    report = app.handle(Ingest())
    say(f"   batched KB ingestion: {report.facts_ingested} fact(s) ingested in one job")

    say()
    say("3. Procedural memory: a human gate")
    pending = [
        p for p in app.handle(ListProcedures(story.TENANT)) if p["task_type"] == story.TASK_TYPE
    ]
    for proposal in pending:
        say(
            f"   {proposal['procedure_id']} {proposal['title']!r}: {proposal['status']}, "
            f"proposed by {proposal['proposals']} runs "
            f"({', '.join(proposal['proposed_by_runs'])})"
        )
    say(f"   served before review: {before['procedure'] is not None}")
    for proposal in pending:
        if proposal["status"] != ProcedureStatus.VALIDATED:
            approved = app.handle(DecideProcedure(proposal["procedure_id"], True, REVIEWER))
            say(
                f"   {REVIEWER} approved {approved['procedure_id']}: {approved['status']} "
                "(served as a trial until it has 3 uses)"
            )

    say()
    say(f"4. A new run starts: {story.NEW_TASK!r}")
    reply = app.handle(request)
    say("   " + _found(reply))
    say()
    say(reply["context"])
    say()
    prefix = invocation()
    say("Explore this memory (from this directory, as typed):")
    for command in explore_commands(root):
        say("   " + shlex.join([*prefix, *command]))
    activate = Path(prefix[0]).parent / "activate"
    if prefix[0] != "agent-memory" and activate.is_file():
        say(f"(or run `source {shlex.quote(str(activate))}` once, then type agent-memory ...)")
    return 0 if reply["episodes"] and reply["facts"] and reply["procedure"] else 1


def invocation() -> list[str]:
    """How to call this program again from the current directory: ``agent-memory`` when that
    name on PATH is this program, else the script's path (``.venv/bin/agent-memory`` after
    ``make demo``), else ``python -m agent_memory.cli``.
    """
    script = Path(sys.argv[0])
    if script.name != "agent-memory":
        return [sys.executable, "-m", "agent_memory.cli"]
    on_path = shutil.which("agent-memory")
    if on_path is not None and Path(on_path).resolve() == script.resolve():
        return ["agent-memory"]
    relative = os.path.relpath(script.absolute())
    return [relative if not relative.startswith("..") else str(script.absolute())]


def explore_commands(store: Path) -> list[list[str]]:
    """The commands the demo suggests next, on its store (argument lists, program left out)."""
    where = ["--store", str(store)]
    return [
        [*where, "procedures", "list"],
        [
            *where,
            "bootstrap",
            "--tenant",
            story.TENANT,
            "--agent",
            story.AGENT,
            "--task",
            story.NEW_TASK,
            # As the demo's own new run asks: without them no procedure is served.
            "--task-type",
            story.TASK_TYPE,
            "--domain",
            story.DOMAIN,
        ],
        [*where, "search", story.SEARCH, "--tenant", story.TENANT, "--agent", story.AGENT],
        [*where, "stats"],
        [*where, "export", "--tenant", story.TENANT],
    ]


def _describe(result: dict[str, Any]) -> str:
    facts = f"{result['facts_observed']} fact(s) logged"
    if result["facts_confirmed"]:
        facts += f", {len(result['facts_confirmed'])} confirmed"
    procedure = result["procedure_proposed"]
    proposal = (
        "no procedure"
        if procedure is None
        else f"procedure {procedure} {'proposed' if result['procedure_created'] else 'seconded'}"
    )
    pii = ", ".join(f"{k} {v}" for k, v in sorted(result["pii_entities"].items()))
    return (
        f"{result['run_id']} {result['outcome']:<9} episode {result['episode']}; {facts}; "
        f"{proposal}; artifacts from {result['extracted_by']}"
        + (f"; PII scrubbed: {pii}" if pii else "")
    )


def _found(reply: BootstrapReply) -> str:
    t = reply["timings_ms"]
    procedure = reply["procedure"]
    return (
        f"found {len(reply['episodes'])} episode(s), {len(reply['facts'])} fact(s), "
        f"{'1 procedure' if procedure else 'no procedure'} in {t['total']:.0f} ms "
        f"(embed {t['embed']:.0f}, episodic {t['episodic']:.0f}, semantic {t['semantic']:.0f}, "
        f"procedural {t['procedural']:.0f})"
    )
