"""``agent-memory`` in a process a test can kill mid-consolidation.

The command runs as a user runs it, with one fake at the model boundary: a word-hashing
embedder, which can hold one of its calls so the process is known to be inside a step when it
is killed. Usage (the store is ``$AGENT_MEMORY_HOME``)::

    python -m tests.resilience.killable_cli HOLD_AT READY_FILE [agent-memory arguments...]

``HOLD_AT`` is which ``embed_documents`` call holds (1: write_episode's, 2: confirm_facts'; 0:
none); on reaching it, the process writes ``READY_FILE`` and sleeps until it is killed.
:func:`kill_inside_a_step` does that to one consolidation; :func:`cli` runs a command to its end.
"""

from __future__ import annotations

import functools
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from agent_memory.cli.main import main
from agent_memory.wiring import local as wiring
from tests.support.embedder import HashingEmbedder
from tests.support.memory import HASHING_CALIBRATION

ROOT = Path(__file__).parents[2]


class HoldingEmbedder(HashingEmbedder):
    """A :class:`HashingEmbedder` whose ``hold_at``-th ``embed_documents`` call never returns."""

    def __init__(self, hold_at: int, ready: Path) -> None:
        super().__init__()
        self.hold_at, self.ready = hold_at, ready

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        if self.calls + 1 == self.hold_at:
            self.ready.write_text("holding")
            while True:
                time.sleep(60)
        return super().embed_documents(texts)


def _ports(original: Any, embedder: HashingEmbedder, *args: Any, **kwargs: Any) -> Any:
    ports = original(*args, **{**kwargs, "embedder": embedder})
    return replace(ports, calibrations={**ports.calibrations, "test-hashing": HASHING_CALIBRATION})


def command(ready: Path, hold_at: int, *args: str) -> list[str]:
    """``agent-memory args`` whose embedder holds at its ``hold_at``-th call (0: never)."""
    return [sys.executable, "-m", "tests.resilience.killable_cli", str(hold_at), str(ready), *args]


def cli(store: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``agent-memory args`` on ``store``, to its end (its embedder never holds)."""
    return subprocess.run(
        command(store / "never-ready", 0, *args),
        cwd=ROOT,
        env={**os.environ, "AGENT_MEMORY_HOME": str(store)},
        capture_output=True,
        text=True,
        timeout=300,
    )


def kill_inside_a_step(store: Path, event: dict[str, Any], hold_at: int, work: Path) -> None:
    """``agent-memory consolidate`` ``event`` on ``store``, SIGKILLed while it holds at its
    ``hold_at``-th embedding (files go to the folder ``work``).
    """
    path, ready = work / f"{event['run_id']}.json", work / f"{event['run_id']}.ready"
    path.write_text(json.dumps(event))
    process = subprocess.Popen(
        command(ready, hold_at, "consolidate", str(path)),
        cwd=ROOT,
        env={**os.environ, "AGENT_MEMORY_HOME": str(store)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 120
    while not ready.exists():
        if process.poll() is not None:
            errors = process.stderr.read().decode() if process.stderr else ""
            raise AssertionError(f"the consolidation ended before the step: {errors}")
        if time.monotonic() > deadline:
            process.kill()
            raise AssertionError("the consolidation never reached the step")
        time.sleep(0.05)
    os.kill(process.pid, signal.SIGKILL)
    assert process.wait(timeout=30) == -signal.SIGKILL


def run(argv: list[str]) -> int:
    """Run ``agent-memory`` with ``argv[2:]``, its embedder holding at call ``argv[0]``."""
    hold_at, ready, *args = argv
    embedder = HoldingEmbedder(int(hold_at), Path(ready))
    wiring.local_ports = functools.partial(_ports, wiring.local_ports, embedder)
    return main(args)


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
