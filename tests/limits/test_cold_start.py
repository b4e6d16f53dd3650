"""Bootstrap's cold start: the read path imports nothing it does not call.

A new Lambda container imports the handler in its Init phase, which is limited to 10 seconds
(https://docs.aws.amazon.com/lambda/latest/dg/lambda-runtime-environment.html), and every
agent's first bootstrap on that container waits for it and for the first call after it.
langchain-aws (with langchain-core and langsmith) took ~0.6 s of a 1.3 s import here, for a
chat model bootstrap never builds and a Titan call that is one JSON request. Each check runs
the benchmark's child in a fresh interpreter, so modules other tests imported cannot hide an
import (``benchmarks/cold_start.py``; it serves Bedrock and Comprehend calls in-process).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from benchmarks.cold_start import WATCHED, environment

ROOT = Path(__file__).resolve().parents[2]
NOT_ON_THE_READ_PATH = ["langchain_aws", "langchain_core", "langsmith"]


def cold_start() -> dict[str, object]:
    """One fresh container: the handler imported, then called on moto (three calls)."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "cold_start.py"), "--child", "cold"],
        cwd=ROOT,
        env=environment(ROOT),
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_the_bootstrap_handler_imports_and_serves_without_langchain() -> None:
    # Given a fresh interpreter that reports which of these modules it has loaded
    assert set(NOT_ON_THE_READ_PATH) <= set(WATCHED)

    # When the handler is imported, then serves a first tenant, a second, and the first again
    result = cold_start()

    # Then neither the import nor the calls (each of which checked its reply) loaded them
    assert result["loaded_by_import"] == []
    assert result["loaded_by_first_call"] == []
