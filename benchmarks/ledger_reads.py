"""Ledger reads of a consolidation: how often one run's consolidation reads (and writes) the run
ledger and the clock, first time and delivered again, through the application as each mode
runs it.

Two paths, on the embedded store with its own models:

- **embedded**: one ``ConsolidateRun`` message (the CLI, the SDK's local mode);
- **step by step**: ``ExtractRun`` then one ``ContinueRun`` per later step, the state written
  to JSON and read back between steps, as the state machine carries it between its Lambda
  functions.

Each run is consolidated, then delivered again (EventBridge delivers at least once). The ledger
is wrapped by a counting ``RunLedger`` given to the application's ports (``MemoryPorts`` is
public), and so is the clock. From the repository root::

    .venv/bin/python benchmarks/ledger_reads.py --out benchmarks/results/ledger_reads.json

writes the JSON and a Markdown table beside it (``ledger_reads.md``); under a minute.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal

if __package__ in {None, ""}:  # run as a script: make ``benchmarks`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agent_memory.app import Application
from agent_memory.app.messages import ContinueRun, ExtractRun
from agent_memory.app.wire import run_message
from agent_memory.core.ports import MemoryPorts, RunLedger
from agent_memory.core.workflows.run_state import state_from_json, state_to_json
from agent_memory.wiring.local import local_ports
from agent_memory.wiring.local_settings import LocalSettings
from benchmarks.results_file import write_results

EVENTS = Path(__file__).resolve().parents[1] / "examples" / "events"
READS = ("run", "entry", "failures", "entries")
WRITES = ("start_run", "put_failure", "rewrite", "delete")
# The targets the application holds to: the run ledger is the one authority on a run, read
# this often.
MAX_READS_FIRST_TIME = 3
MAX_READS_REDELIVERY = 2


class CountingLedger:
    """A ``RunLedger`` that counts each call before passing it on."""

    def __init__(self, inner: RunLedger, counts: Counter[str]) -> None:
        self._inner = inner
        self._counts = counts

    def __getattr__(self, name: str) -> Any:
        member = getattr(self._inner, name)
        if name not in READS + WRITES:
            return member

        def counted(*args: Any, **kwargs: Any) -> Any:
            self._counts[name] += 1
            result = member(*args, **kwargs)
            # A listing counts once, however many records it yields.
            return list(result) if isinstance(result, Iterator) else result

        return counted


def counting(ports: MemoryPorts, counts: Counter[str]) -> MemoryPorts:
    """``ports`` whose ledger and clock count their calls into ``counts``."""
    clock = ports.clock

    def counted_clock() -> float:
        counts["clock"] += 1
        return clock()

    ledger: Any = CountingLedger(ports.run_ledger, counts)
    return replace(ports, run_ledger=ledger, clock=counted_clock)


def embedded(app: Application, event: dict[str, Any]) -> None:
    """The run consolidated by one message."""
    app.handle(run_message(event))


# The steps after extract as ``ContinueRun`` names them, in the state machine's order (the
# core's ``AFTER_EXTRACT``, which holds plain strings).
STEPS: tuple[
    Literal["scrub", "write_episode", "confirm_facts", "stage_kb_docs", "propose_procedure"], ...
] = ("scrub", "write_episode", "confirm_facts", "stage_kb_docs", "propose_procedure")


def step_by_step(app: Application, event: dict[str, Any]) -> None:
    """The run consolidated as the state machine does: a message per step, JSON between."""
    state = state_to_json(app.handle(ExtractRun(run_message(event).run)))
    for step in STEPS:
        state = state_to_json(app.handle(ContinueRun(step, state_from_json(state))))


PATHS: dict[str, Callable[[Application, dict[str, Any]], None]] = {
    "embedded": embedded,
    "step by step": step_by_step,
}


def measure(ports: MemoryPorts, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """For each path and event: the counts of a first delivery and of a second."""
    rows = []
    for number, (path, consolidate) in enumerate(PATHS.items()):
        for event in events:
            # A run id of its own per path, so each path's first delivery is a first one.
            event = {**event, "run_id": f"{event['run_id']}-{number}"}
            row: dict[str, Any] = {"path": path, "run_id": event["run_id"]}
            for delivery in ("first_time", "redelivery"):
                counts: Counter[str] = Counter()
                consolidate(Application(counting(ports, counts)), event)
                row[delivery] = {
                    "ledger_reads": sum(counts[n] for n in READS),
                    "ledger_writes": sum(counts[n] for n in WRITES),
                    "clock_reads": counts["clock"],
                    "calls": dict(sorted(counts.items())),
                }
            rows.append(row)
    return rows


def report(result: dict[str, Any]) -> str:
    """The Markdown table of ``result``."""
    lines = [
        f"Ledger reads of one consolidation ({result['date']}; targets: at most "
        f"{MAX_READS_FIRST_TIME} first time, {MAX_READS_REDELIVERY} delivered again).",
        "",
        "| path | run | first time: reads / writes / clock | delivered again: reads / writes / "
        "clock |",
        "|---|---|---|---|",
    ]
    for row in result["rows"]:
        first, again = row["first_time"], row["redelivery"]
        lines.append(
            f"| {row['path']} | {row['run_id']} | {first['ledger_reads']} / "
            f"{first['ledger_writes']} / {first['clock_reads']} | {again['ledger_reads']} / "
            f"{again['ledger_writes']} / {again['clock_reads']} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Measure, write the results; 1 if a count is past its target."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/ledger_reads.json"))
    args = parser.parse_args(argv)
    events = [json.loads(p.read_text()) for p in sorted(EVENTS.glob("*.json"))]
    with tempfile.TemporaryDirectory(prefix="ledger-reads-") as store:
        ports = local_ports(LocalSettings(store=Path(store)))
        rows = measure(ports, events)
    result = {
        "date": dt.date.today().isoformat(),
        "targets": {"first_time": MAX_READS_FIRST_TIME, "redelivery": MAX_READS_REDELIVERY},
        "rows": rows,
    }
    write_results(args.out, result, report(result))
    print(report(result))
    within = all(
        r["first_time"]["ledger_reads"] <= MAX_READS_FIRST_TIME
        and r["redelivery"]["ledger_reads"] <= MAX_READS_REDELIVERY
        for r in rows
    )
    return 0 if within else 1


if __name__ == "__main__":
    sys.exit(main())
