"""Where the benchmark datasets are: outside the repository, never copied into it.

A script takes ``--data``; without it, the dataset's folder under ``$AGENT_MEMORY_BENCH_DATA``
(a folder holding ``locomo/`` and ``longmemeval/``, fetched as ``benchmarks/README.md`` says).
"""

from __future__ import annotations

import os
from pathlib import Path

ENVIRONMENT = "AGENT_MEMORY_BENCH_DATA"


def dataset(name: str, given: Path | str | None = None) -> Path:
    """``given`` if any, else ``$AGENT_MEMORY_BENCH_DATA/<name>``; a clear exit without either."""
    if given:
        return Path(given).resolve()
    root = os.environ.get(ENVIRONMENT)
    if not root:
        raise SystemExit(
            f"no {name} data: pass --data, or set {ENVIRONMENT} to the folder holding {name}/"
        )
    return (Path(root) / name).resolve()
