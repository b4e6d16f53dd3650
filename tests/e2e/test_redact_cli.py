"""``agent-memory redact``: a text read from standard input (out of the shell history),
replaced in every record of the tenant, its receipt printed; refused without a terminal unless
--yes; the README's line runs as typed.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

from tests.sdk.conftest import make_local
from tests.sdk.test_forget_runs import stored_bytes
from tests.support.memory import run_event

SECRET = "Bluefin Harbor"


def cli(home: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "AGENT_MEMORY_HOME": str(home)}
    env.pop("AGENT_MEMORY_LLM", None)
    return subprocess.run(
        [sys.executable, "-m", "agent_memory.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def a_store_naming_the_secret(tmp_path: Path) -> Path:
    local = make_local(tmp_path / "store")
    event = run_event("run-7")
    event["task"] = f"Review the cap for the {SECRET} desk"
    local.client.finish_run(event).wait(timeout=30)
    local.client.close()
    return local.store


def test_the_text_read_from_stdin_is_redacted_and_the_receipt_printed(tmp_path: Path) -> None:
    # Given a store whose run named the secret
    store = a_store_naming_the_secret(tmp_path)
    args = ("--store", str(store), "redact", "--tenant", "acme", "--text", "-")

    # When it is redacted without --yes, then with it, the text piped in
    unconfirmed = cli(tmp_path, *args, stdin=f"{SECRET}\n")
    done = cli(tmp_path, *args, "--yes", "--reviewer", "dpo", stdin=f"{SECRET}\n")

    # Then the first is refused naming --yes, the second prints the receipt
    assert unconfirmed.returncode == 2 and "--yes" in unconfirmed.stderr
    assert done.returncode == 0, done.stderr
    receipt = json.loads(done.stdout)
    assert receipt["operation"] == "redact" and receipt["episodes"] == ["reviewer/run-7"]
    assert SECRET not in done.stdout + done.stderr
    assert SECRET.encode() not in stored_bytes(store)
    # And the history shows the decision
    history = cli(tmp_path, "--store", str(store), "history", "--tenant", "acme", "--json")
    [decision] = json.loads(history.stdout)["decisions"]
    assert (decision["action"], decision["actor"]) == ("redact", "dpo")


def test_a_too_short_text_is_refused_naming_text(tmp_path: Path) -> None:
    store = a_store_naming_the_secret(tmp_path)

    refused = cli(
        tmp_path, "--store", str(store), "redact", "--tenant", "acme", "--text", "Blu", "--yes"
    )

    assert refused.returncode == 2 and "text" in refused.stderr
    assert SECRET.encode() in stored_bytes(store)


def test_the_readmes_redact_line_runs_as_typed(tmp_path: Path) -> None:
    # Given a store holding the secret, and the README's line
    from tests.infrastructure.test_documented_deploys import documented_shell_lines

    [line] = [
        typed for _, typed in documented_shell_lines() if typed.startswith("agent-memory redact")
    ]
    store = a_store_naming_the_secret(tmp_path)
    # When it runs as typed, the secret piped in
    done = cli(tmp_path, "--store", str(store), *shlex.split(line)[1:], stdin=SECRET)
    # Then the secret is gone
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["episodes"] == ["reviewer/run-7"]
