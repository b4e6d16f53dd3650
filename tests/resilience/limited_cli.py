"""``agent-memory`` in a process whose files cannot grow past a size: a full disk, for real.

``RLIMIT_FSIZE`` makes every write that would take a file past ``LIMIT`` bytes fail with
``EFBIG`` (``SIGXFSZ`` is ignored, as Python ignores it already), in SQLite, numpy and plain
Python writes alike; writes inside a file's current size still succeed, as on a disk with a
little space left. Usage::

    python -m tests.resilience.limited_cli LIMIT [agent-memory arguments...]

:func:`limited` runs one command that way; :func:`command` runs it with no limit.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[2]


def limited(limit: int | None, *args: str) -> subprocess.CompletedProcess[str]:
    """``agent-memory args`` with files limited to ``limit`` bytes (None: no limit)."""
    env = {
        k: v for k, v in os.environ.items() if k not in ("AGENT_MEMORY_LLM", "AGENT_MEMORY_HOME")
    }
    size = str(-1 if limit is None else limit)
    return subprocess.run(
        [sys.executable, "-m", "tests.resilience.limited_cli", size, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def command(*args: str) -> subprocess.CompletedProcess[str]:
    """``agent-memory args`` in a process of its own, with no limit."""
    return limited(None, *args)


def run(argv: list[str]) -> int:
    """Run ``agent-memory argv[1:]`` with files limited to ``argv[0]`` bytes (-1: no limit)."""
    limit, *args = argv
    if int(limit) >= 0:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (int(limit), resource.RLIM_INFINITY))
    from agent_memory.cli.main import main

    return main(args)


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
