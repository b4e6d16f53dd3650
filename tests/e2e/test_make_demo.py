"""``make demo`` on a fresh machine says what it is doing before each step, and lets pip show
its progress through the minute the install takes.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]


def planned(tmp_path: Path, target: str) -> list[str]:
    """The commands ``make target`` would run for a virtual environment not yet made."""
    if shutil.which("make") is None:
        pytest.skip("no make")
    done = subprocess.run(
        ["make", "-n", target, f"VENV={tmp_path / 'fresh-venv'}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


@pytest.mark.parametrize("target", ["demo", "test"])
def test_each_install_step_is_announced_and_pip_shows_its_progress(
    tmp_path: Path, target: str
) -> None:
    # When make plans the target on a machine without the virtual environment
    lines = planned(tmp_path, target)
    installs = [i for i, line in enumerate(lines) if "pip install" in line and " -e " in line]
    # Then the install of agent-memory is preceded by a line saying what it does and how long
    # it takes, and pip is not silenced
    assert installs, lines
    for i in installs:
        assert lines[i - 1].startswith("echo ") and "installing agent-memory" in lines[i - 1]
        assert "minute" in lines[i - 1]
        assert "--quiet" not in lines[i] and " -q" not in lines[i]
    # And creating the environment is announced before it starts
    venv = next(i for i, line in enumerate(lines) if " -m venv " in line)
    assert lines[venv - 1].startswith("echo ") and "virtual environment" in lines[venv - 1]


def test_the_demo_itself_is_announced(tmp_path: Path) -> None:
    lines = planned(tmp_path, "demo")
    run = next(i for i, line in enumerate(lines) if line.endswith("agent-memory demo"))
    assert lines[run - 1].startswith("echo ") and "demo" in lines[run - 1]
