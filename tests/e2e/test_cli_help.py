"""The ``agent-memory`` command explains itself and starts cold without loading what it does not
use: every option has help, completion works, and commands that need no model import none.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from agent_memory.cli import commands_review
from agent_memory.cli.demo_runs import AGENT, NEW_TASK, TENANT
from agent_memory.cli.main import _parser
from agent_memory.cli.shared import INCOMPLETE_AFTER_MINUTES
from agent_memory.core.workflows.consolidation import INCOMPLETE_AFTER_SECONDS
from agent_memory.review import server

ROOT = Path(__file__).parents[2]
# What a command that loads no model must not import: the model runtime, the PII and credential
# detectors and their name lists.
MODEL_MODULES = (
    "onnxruntime",
    "tokenizers",
    "detect_secrets",
    "agent_memory.adapters.local.pii.detector",
    "agent_memory.adapters.secrets",
    "agent_memory.adapters.credentials.detector",
    "credsweeper",
    "yaml",
)


def _actions(
    parser: argparse.ArgumentParser, path: tuple[str, ...]
) -> Iterator[tuple[str, argparse.Action | str, str | None]]:
    for action in parser._actions:
        yield " ".join(path), action, action.help
        if isinstance(action, argparse._SubParsersAction):
            helped = {choice.dest: choice.help for choice in action._choices_actions}
            for name, sub in action.choices.items():
                yield " ".join(path), name, helped.get(name)
                yield from _actions(sub, (*path, name))


def test_every_command_and_option_has_help() -> None:
    # When the parser is walked, every command of every group and every option of each
    missing = [
        f"{where}: {what if isinstance(what, str) else what.option_strings or what.dest}"
        for where, what, text in _actions(_parser(), ("agent-memory",))
        if not text or text == argparse.SUPPRESS
    ]
    # Then each one says what it is for
    assert missing == []


def test_parser_defaults_written_as_literals_are_the_ones_they_stand_for() -> None:
    # The parser states these without importing their modules; they must not drift.
    assert INCOMPLETE_AFTER_MINUTES * 60 == INCOMPLETE_AFTER_SECONDS
    assert (commands_review.DEFAULT_HOST, commands_review.DEFAULT_PORT) == (
        server.DEFAULT_HOST,
        server.DEFAULT_PORT,
    )


def loaded_after(*argv: str, store: Path | None = None) -> tuple[int, set[str]]:
    """Run ``main(argv)`` in a fresh interpreter; its exit code and the modules it imported."""
    script = (
        "import json, sys\n"
        "from agent_memory.cli.main import main\n"
        "try:\n"
        "    code = main(sys.argv[1:])\n"
        "except SystemExit as stop:\n"
        "    code = stop.code\n"
        "sys.stdout.flush()\n"
        "sys.stderr.write('\\n' + json.dumps([code, sorted(sys.modules)]))\n"
    )
    env = {
        k: v for k, v in os.environ.items() if k not in ("AGENT_MEMORY_LLM", "AGENT_MEMORY_HOME")
    }
    done = subprocess.run(
        [sys.executable, "-c", script, *(["--store", str(store)] if store else []), *argv],
        capture_output=True,
        text=True,
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=180,
    )
    code, modules = json.loads(done.stderr.strip().splitlines()[-1])
    return code, set(modules)


@pytest.mark.parametrize("argv", [["--help"], ["--version"], ["procedures", "--help"]])
def test_help_and_version_import_no_numpy_pydantic_or_model(argv: list[str]) -> None:
    # When help or the version is asked for
    code, modules = loaded_after(*argv)
    # Then it answers without importing numpy, pydantic, consolidation or any model code
    assert code == 0
    heavy = {"numpy", "pydantic", "agent_memory.core.workflows.consolidation", *MODEL_MODULES}
    assert heavy & modules == set()


@pytest.fixture(scope="module")
def demo_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("cold") / "store"
    code, _ = loaded_after("demo", store=root)
    assert code == 0
    return root


@pytest.mark.slow
@pytest.mark.parametrize(
    "argv",
    [
        ["export", "--tenant", TENANT],
        ["procedures", "list"],
        ["facts", "contested", "--tenant", TENANT],
        ["failed", "list"],
        ["stats"],
        ["decay", "--dry-run"],
        ["forget", "--tenant", TENANT, "--yes"],
    ],
    ids=lambda a: " ".join(a[:2]),
)
def test_commands_that_need_no_model_load_none(
    demo_store: Path, tmp_path: Path, argv: list[str]
) -> None:
    # Given a store holding the demo's memory
    store = tmp_path / "store"
    shutil.copytree(demo_store, store)
    # When a command that embeds and scrubs nothing runs
    code, modules = loaded_after(*argv, store=store)
    # Then it works without importing the model runtime or the detectors
    assert code == 0
    assert set(MODEL_MODULES) & modules == set()


@pytest.mark.slow
def test_bootstrap_does_load_the_model_it_needs(demo_store: Path) -> None:
    # The check above can see a model load: bootstrap embeds the task and scrubs it.
    code, modules = loaded_after(
        "bootstrap", "--tenant", TENANT, "--agent", AGENT, "--task", NEW_TASK, store=demo_store
    )
    assert code == 0
    assert {"onnxruntime", "agent_memory.adapters.local.pii.detector"} <= modules


def complete(line: str, tmp_path: Path) -> list[str]:
    """What argcomplete offers for ``line``, as the shell hook asks for it."""
    pytest.importorskip("argcomplete")
    out = tmp_path / "completions"
    env = {
        **os.environ,
        "_ARGCOMPLETE": "1",
        "_ARGCOMPLETE_IFS": "\n",
        "COMP_LINE": line,
        "COMP_POINT": str(len(line)),
        "_ARGCOMPLETE_STDOUT_FILENAME": str(out),
    }
    done = subprocess.run(
        [sys.executable, "-m", "agent_memory.cli"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return sorted(w.strip() for w in out.read_text().split("\n")) if out.exists() else []


def test_completion_offers_commands_actions_and_options(tmp_path: Path) -> None:
    # When the shell asks what can follow a partial command line
    # Then commands, a group's actions and a command's options are offered
    assert complete("agent-memory proc", tmp_path) == ["procedures"]
    assert {"list", "show", "approve", "reject", "diff"} <= set(
        complete("agent-memory procedures ", tmp_path)
    )
    assert "--yes" in complete("agent-memory forget --", tmp_path)


def test_the_console_script_module_carries_the_completion_marker() -> None:
    # register-python-argcomplete completes only scripts whose module says it may, near its top
    head = (ROOT / "src/agent_memory/cli/main.py").read_bytes()[:1024]
    assert b"PYTHON_ARGCOMPLETE_OK" in head


@pytest.mark.slow
@pytest.mark.parametrize(
    "argv", [["export", "--tenant", TENANT], ["procedures", "list"]], ids=lambda a: a[0]
)
def test_reading_records_imports_no_event_contracts(
    demo_store: Path, tmp_path: Path, argv: list[str]
) -> None:
    # Given a store holding the demo's memory
    store = tmp_path / "store"
    shutil.copytree(demo_store, store)
    # When records are read out, no event is validated: pydantic is not imported for it
    code, modules = loaded_after(*argv, store=store)
    assert code == 0
    assert {"pydantic", "agent_memory.core.api.contracts"} & modules == set()
