"""After ``make demo``, the commands the demo prints work as typed, from the repository root, in
a shell where ``agent-memory`` is not on PATH (nobody activated the virtual environment).
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).parents[2]
SCRIPT = Path(sys.executable).parent / "agent-memory"


def shell_env() -> dict[str, str]:
    """The user's environment before activation: the venv's bin is not on PATH."""
    path = os.pathsep.join(
        p for p in os.environ.get("PATH", "").split(os.pathsep) if Path(p) != SCRIPT.parent
    )
    env = {k: v for k, v in os.environ.items() if k not in ("AGENT_MEMORY_LLM", "VIRTUAL_ENV")}
    return {**env, "PATH": path}


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """The demo run as ``make demo`` runs it (the venv's script, from the root); its store and
    the lines it printed.
    """
    if not SCRIPT.exists():
        pytest.skip(f"no agent-memory script beside {sys.executable}")
    typed = os.path.relpath(SCRIPT.absolute(), ROOT)
    store = tmp_path_factory.mktemp("demo") / "store"
    done = subprocess.run(
        [typed, "--store", str(store), "demo"],
        cwd=ROOT,
        env=shell_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return store, done.stdout.splitlines()


def printed_commands(lines: list[str]) -> list[str]:
    start = next(i for i, line in enumerate(lines) if line.startswith("Explore this memory"))
    return [line.strip() for line in lines[start + 1 :] if line.startswith("   ")]


def run_as_typed(command: str) -> subprocess.CompletedProcess[str]:
    """Run a printed command as a person pastes it, from the repository's root."""
    return subprocess.run(
        shlex.split(command),
        cwd=ROOT,
        env=shell_env(),
        capture_output=True,
        text=True,
        timeout=180,
    )


def test_the_demo_prints_commands_to_explore_its_store(demo: tuple[Path, list[str]]) -> None:
    store, lines = demo
    commands = printed_commands(lines)
    # Then it suggests listing, bootstrapping and exporting, on its own store
    assert len(commands) >= 3
    assert all(shlex.quote(str(store)) in command for command in commands)


def test_each_printed_command_runs_as_typed(demo: tuple[Path, list[str]]) -> None:
    _, lines = demo
    commands = printed_commands(lines)
    assert commands, lines[-5:]
    # When each printed command is run as typed, from the root, without activating the venv
    for command in commands:
        done = run_as_typed(command)
        # Then it works and prints something
        assert done.returncode == 0, f"{command}: {done.stderr}"
        assert done.stdout.strip(), command


def test_the_printed_activation_line_puts_agent_memory_on_path(
    demo: tuple[Path, list[str]],
) -> None:
    store, lines = demo
    activation = next(line for line in lines if "`source " in line)
    source = activation[activation.index("`") + 1 : activation.rindex("`")]
    # When the printed activation is sourced, and agent-memory typed by its name
    done = subprocess.run(
        ["bash", "-c", f"{source} && agent-memory --store {shlex.quote(str(store))} stats"],
        cwd=ROOT,
        env=shell_env(),
        capture_output=True,
        text=True,
        timeout=180,
    )
    # Then the command is found and runs
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("memory of every tenant")


def section(lines: list[str], header: str) -> list[str]:
    """The quoted lines of the context block's section whose header starts with ``header``
    (none without that section).
    """
    start = next((i for i, line in enumerate(lines) if line.startswith(header)), len(lines))
    quoted: list[str] = []
    for line in lines[start + 1 :]:
        if not line.startswith(">"):
            break
        quoted.append(line)
    return quoted


def test_the_printed_bootstrap_serves_what_the_demos_new_run_was_served(
    demo: tuple[Path, list[str]],
) -> None:
    _, lines = demo
    # Given the bootstrap command the demo printed, and the procedure and fact it served
    command = next(c for c in printed_commands(lines) if " bootstrap " in c)
    procedure = section(lines, "[PROCEDURAL MEMORY ")[:1]
    fact = section(lines, "[SEMANTIC MEMORY ")[:1]
    assert procedure[0].startswith("> Procedure: ") and fact[0].startswith("> - ")
    # When it is run as typed, against the demo's store
    done = run_as_typed(command)
    # Then its block shows the same procedure and the same fact
    assert done.returncode == 0, f"{command}: {done.stderr}"
    shown = done.stdout.splitlines()
    assert section(shown, "[PROCEDURAL MEMORY ")[:1] == procedure, done.stdout
    assert fact[0] in section(shown, "[SEMANTIC MEMORY "), done.stdout
