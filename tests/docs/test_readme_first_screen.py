"""The README's first screen: what it is, the agent loop in SDK code, and the two commands; then
installing into one's own project and the integrations, before the reference. The loop runs as
printed (tests/install runs it again from an installed wheel)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[2]
README = ROOT / "README.md"
FIRST_SCREEN = 45  # lines


def agent_loop() -> str:
    """The README's first ``python`` block."""
    blocks = re.findall(r"^```python\n(.*?)^```$", README.read_text(), re.MULTILINE | re.DOTALL)
    return blocks[0]


def h2_headings() -> list[str]:
    return re.findall(r"^## (.+)$", README.read_text(), flags=re.MULTILINE)


def test_the_first_screen_shows_the_agent_loop_and_the_two_commands() -> None:
    # Given the README's first screen
    screen = "\n".join(README.read_text().splitlines()[:FIRST_SCREEN])
    loop = agent_loop()
    # Then it holds the whole agent loop, short: bootstrap at run start, finish_run at its end
    assert f"```python\n{loop}```" in screen
    assert "\nfrom agent_memory import MemoryClient\n" in f"\n{loop}"
    assert 0 < loop.index(".bootstrap(") < loop.index(".finish_run(")
    assert len([line for line in loop.splitlines() if line.strip()]) <= 16
    # And the two commands
    assert re.search(r"^```sh\nmake demo\nmake test\n```$", screen, flags=re.MULTILINE)


def test_installing_and_the_integrations_come_before_the_reference() -> None:
    # Given the README's sections in order
    order = h2_headings()
    # Then a user reads how to install, then the integrations, before the command reference
    assert order[0] == "Quick start"
    assert order.index("Install into your own project") == 1
    assert order.index("Python SDK, MCP, LangGraph and Strands") == 2
    assert order.index("Using it locally") > 2


def test_the_agent_loop_runs_as_printed_and_remembers_the_first_run(tmp_path: Path) -> None:
    # Given the loop as printed, saved to a file in a folder of its own, and a fresh home
    script = tmp_path / "loop.py"
    script.write_text(agent_loop())
    env = {**os.environ, "HOME": str(tmp_path / "home")}
    for name in ("AGENT_MEMORY_HOME", "AGENT_MEMORY_LLM"):
        env.pop(name, None)

    def run_once() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, str(script)],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )

    # When it runs twice
    first, second = run_once(), run_once()
    # Then the first run finds nothing, and the second starts with what the first did
    assert first.returncode == 0, first.stderr
    assert second.returncode == 0, second.stderr
    assert "[MEMORY CONTEXT" not in first.stdout
    assert "> Task: Review the Tailspin MSA for liability risk" in second.stdout, second.stdout
    assert (tmp_path / "home" / ".agent-memory").is_dir()
