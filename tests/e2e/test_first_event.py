"""The examples a new user copies: the README's event, ``examples/events``, and the
``examples/FIRST_EVENT.md`` walk-through, run as typed through the real ``agent-memory`` command.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).parents[2]
WALK_THROUGH = ROOT / "examples" / "FIRST_EVENT.md"
EVENTS = sorted((ROOT / "examples" / "events").glob("*.json"))


def fenced(markdown: str, language: str) -> list[str]:
    """The bodies of the Markdown code blocks fenced as ``language``, in order."""
    return re.findall(rf"^```{language}\n(.*?)^```$", markdown, flags=re.MULTILINE | re.DOTALL)


def user_env(home: Path) -> dict[str, str]:
    # A new user's shell: no store chosen, no model configured, a home of its own.
    env = {**os.environ, "HOME": str(home)}
    for name in ("AGENT_MEMORY_HOME", "AGENT_MEMORY_LLM", "VIRTUAL_ENV"):
        env.pop(name, None)
    return env


def test_the_readmes_example_event_consolidates_as_pasted(tmp_path: Path) -> None:
    # Given the README's RunFinished example, pasted as it is into a file
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("### The RunFinished event") :]
    event = tmp_path / "run.json"
    event.write_text(fenced(section, "json")[0])
    # When a user consolidates it into a fresh store
    done = subprocess.run(
        [sys.executable, "-m", "agent_memory.cli", "consolidate", str(event)],
        capture_output=True,
        text=True,
        env={**user_env(tmp_path), "AGENT_MEMORY_HOME": str(tmp_path / "store")},
        timeout=120,
    )
    # Then it is consolidated: an episode, its fact observed, its procedure proposed
    assert done.returncode == 0, done.stderr
    assert "episode written; 1 fact(s) observed" in done.stdout
    assert re.search(r"procedure proc-[0-9a-f]{24} proposed", done.stdout)


def test_the_walk_through_consolidates_every_sample_event() -> None:
    # Given the sample events shipped in examples/events (at least the three it describes)
    commands = "\n".join(fenced(WALK_THROUGH.read_text(), "sh"))
    assert len(EVENTS) >= 3
    # Then the walk-through consolidates each of them, so the test below runs every one
    for event in EVENTS:
        assert f"agent-memory consolidate examples/events/{event.name}" in commands


def test_every_command_of_the_walk_through_runs_as_typed(tmp_path: Path) -> None:
    # Given a checkout after `make demo`: the examples and a .venv holding agent-memory
    # (this test's own environment, whose source tree is on PYTHONPATH)
    if sys.prefix == sys.base_prefix:
        pytest.skip("the walk-through activates a virtual environment; this Python is not one")
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    (checkout / "examples").symlink_to(ROOT / "examples")
    (checkout / ".venv").symlink_to(sys.prefix)
    markdown = WALK_THROUGH.read_text()
    # When a user's shell runs every command of the page, in order, from the checkout's root
    script = "set -euo pipefail\n" + "\n".join(fenced(markdown, "sh"))
    done = subprocess.run(
        ["bash", "-c", script],
        cwd=checkout,
        capture_output=True,
        text=True,
        env=user_env(tmp_path / "home"),
        timeout=600,
    )
    # Then every command succeeds, and prints each line the page shows (… stands for any text)
    assert done.returncode == 0, done.stderr
    for block in fenced(markdown, "text"):
        for line in filter(str.strip, block.splitlines()):
            pattern = ".*".join(re.escape(part) for part in line.strip().split("…"))
            printed = re.search(rf"^\s*{pattern}\s*$", done.stdout, flags=re.MULTILINE)
            assert printed, f"not printed: {line}\n{done.stdout}"
    # And the walk-through kept to its own store, then removed it
    assert not (tmp_path / "home" / ".agent-memory").exists()
    assert not (checkout / "my-first-memory").exists()
