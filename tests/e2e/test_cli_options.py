"""The ``agent-memory`` command's global options, as a user types them."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from agent_memory.cli.main import _parser

ROOT = Path(__file__).parents[2]
EVENT = {
    "tenant_id": "acme",
    "agent_id": "reviewer",
    "run_id": "run-1",
    "task": "Review the MSA.",
    # A run with nothing beyond its task writes no episode.
    "artifacts": {"key_findings": ["Clause 7 caps liability"]},
}


def cli(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "AGENT_MEMORY_HOME": str(home)}
    env.pop("AGENT_MEMORY_LLM", None)
    return subprocess.run(
        [sys.executable, "-m", "agent_memory.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def test_version_prints_the_package_version(tmp_path: Path) -> None:
    # Given the version the project declares
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    # When a user asks the command for its version
    done = cli(tmp_path / "home", "--version")
    # Then it prints the program and that version, exits 0, and creates no store
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"agent-memory {declared}"
    assert not (tmp_path / "home").exists()


@pytest.mark.slow
def test_store_given_after_the_subcommand_is_the_store_used(tmp_path: Path) -> None:
    # Given an event file, and $AGENT_MEMORY_HOME naming another directory
    event = tmp_path / "run.json"
    event.write_text(json.dumps(EVENT))
    chosen, home = tmp_path / "chosen", tmp_path / "home"
    # When the event is consolidated with --store after the subcommand
    done = cli(home, "consolidate", str(event), "--json", "--store", str(chosen))
    # Then the run is in the store named, and that store alone answers for it
    assert done.returncode == 0, done.stderr
    assert not home.exists()
    stats = cli(home, "stats", "--tenant", "acme", "--json", "--store", str(chosen))
    assert stats.returncode == 0, stats.stderr
    assert json.loads(stats.stdout)["episodes"]["UNKNOWN"] == 1


def commands(
    parser: argparse.ArgumentParser, words: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], list[str]]]:
    """Every command the parser runs: its words, and a value for each argument it requires."""
    subcommands = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subcommands:
        required: list[str] = []
        for action in parser._actions:
            value = str(next(iter(action.choices))) if action.choices else "x"
            if not action.option_strings and action.nargs != "?":
                required.append(value)
            elif action.required:
                required += [action.option_strings[0], value]
        for group in parser._mutually_exclusive_groups:
            if group.required:  # one of them is required: give the first
                required += [group._group_actions[0].option_strings[0], "x"]
        yield words, required
    for action in subcommands:
        for name, sub in action.choices.items():
            yield from commands(sub, (*words, name))


def test_every_command_reads_store_after_its_name_and_keeps_one_given_before() -> None:
    # Given every command of the CLI (those the commands_* modules add too)
    parser = _parser()
    found = dict(commands(parser))
    assert ("procedures", "list") in found and ("stats",) in found and ("demo",) in found
    for words, required in found.items():
        # When --store comes after the command's arguments, or only before the command
        after = parser.parse_args([*words, *required, "--store", "after"])
        before = parser.parse_args(["--store", "before", *words, *required])
        # Then the command reads the store given, wherever it was
        assert after.store == "after", words
        assert before.store == "before", words
