"""Commands that delete confirm first: ``forget`` asks on a terminal (or needs ``--yes``), and
``decay --dry-run`` shows what a pass would take, changing nothing.
"""

from __future__ import annotations

import json
import os
import pty
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from agent_memory.cli.demo_runs import TENANT

pytestmark = pytest.mark.slow

# Far enough ahead that every rule applies to the demo's memory.
LATER = "2030-01-01T00:00:00Z"


def _env() -> dict[str, str]:
    return {
        k: v for k, v in os.environ.items() if k not in ("AGENT_MEMORY_LLM", "AGENT_MEMORY_HOME")
    }


def cli(store: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The command with no terminal: stdin is /dev/null, as in a script or a pipe."""
    return subprocess.run(
        [sys.executable, "-m", "agent_memory.cli", "--store", str(store), *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=_env(),
        timeout=180,
    )


def on_a_terminal(store: Path, answer: str, *args: str) -> subprocess.CompletedProcess[str]:
    """The command with a terminal as stdin, on which the user types ``answer``."""
    controller, terminal = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "agent_memory.cli", "--store", str(store), *args],
        stdin=terminal,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(),
    )
    os.close(terminal)
    os.write(controller, answer.encode() + b"\n")
    out, err = process.communicate(timeout=180)
    os.close(controller)
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def records(store: Path) -> list[str]:
    """Every row of the database, as SQL."""
    with closing(sqlite3.connect(store / "memory.db")) as db:
        return list(db.iterdump())


@pytest.fixture(scope="module")
def demo_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("destructive") / "demo"
    done = cli(root, "demo")
    assert done.returncode == 0, done.stderr
    return root


@pytest.fixture
def store(demo_store: Path, tmp_path: Path) -> Path:
    # Given a store holding the demo's memory (a copy per test)
    copy = tmp_path / "store"
    shutil.copytree(demo_store, copy)
    return copy


def test_forget_without_a_terminal_and_without_yes_refuses_in_one_line(store: Path) -> None:
    before = records(store)
    # When forget runs from a script, without --yes
    done = cli(store, "forget", "--tenant", TENANT)
    # Then it refuses in one line naming --yes, exit 2, and every record is still there
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "--yes" in lines[0] and TENANT in lines[0], done.stderr
    assert done.stdout == ""
    assert records(store) == before


def test_forget_on_a_terminal_asks_and_a_no_deletes_nothing(store: Path) -> None:
    before = records(store)
    # When forget runs on a terminal and the user answers no
    done = on_a_terminal(store, "n", "forget", "--tenant", TENANT)
    # Then it asked, naming the tenant and the store, and deleted nothing
    assert f"delete every record of tenant {TENANT!r} in the store {store}? [y/N]" in done.stderr
    assert done.returncode == 1 and "nothing deleted" in done.stderr
    assert records(store) == before


def test_forget_on_a_terminal_deletes_once_the_user_says_yes(store: Path) -> None:
    # When forget runs on a terminal and the user answers yes
    done = on_a_terminal(store, "y", "forget", "--tenant", TENANT)
    # Then the tenant is forgotten and its receipt printed
    assert done.returncode == 0, done.stderr
    receipt = json.loads(done.stdout)
    assert (receipt["tenant_id"], receipt["episodes"]) == (TENANT, 4)
    exported = cli(store, "export", "--tenant", TENANT)
    assert exported.stdout == ""


def test_forget_says_when_the_tenant_had_nothing(store: Path) -> None:
    # When a tenant the store never held is forgotten
    done = cli(store, "forget", "--tenant", "nobody-here", "--yes")
    # Then the receipt counts nothing, and a line says there was nothing to forget
    assert done.returncode == 0, done.stderr
    receipt = json.loads(done.stdout)
    assert receipt["episodes"] == receipt["facts"] == receipt["procedures"] == 0
    assert "tenant 'nobody-here' had nothing to forget" in done.stderr


def test_forget_of_a_tenant_with_records_does_not_say_it_had_nothing(store: Path) -> None:
    done = cli(store, "forget", "--tenant", TENANT, "--yes")
    assert done.returncode == 0, done.stderr
    assert "nothing" not in done.stderr


def test_decay_dry_run_lists_what_would_go_and_changes_nothing(store: Path) -> None:
    before_records = records(store)
    before_files = {p: p.read_bytes() for p in store.rglob("*") if p.is_file()}
    # When decay is dry-run as of a time when every rule applies
    dry = cli(store, "decay", "--dry-run", "--now", LATER, "--json")
    # Then it lists, per tier, the ids a pass would delete or flag
    assert dry.returncode == 0, dry.stderr
    preview = json.loads(dry.stdout)
    assert preview["dry_run"] is True
    assert preview["pending_facts"] and preview["procedures_flagged"]
    assert all(f["tenant_id"] == TENANT and f["fact_hash"] for f in preview["pending_facts"])
    # And the store is record for record, and file for file, what it was
    assert records(store) == before_records
    assert {p: p.read_bytes() for p in store.rglob("*") if p.is_file()} == before_files
    # And a real pass at that time then does exactly what the dry run listed
    done = cli(store, "decay", "--now", LATER, "--json")
    report = json.loads(done.stdout)
    assert report["failed_episodes_deleted"] == len(preview["failed_episodes"])
    assert report["pending_facts_expired"] == len(preview["pending_facts"])
    assert report["procedures_flagged"] == preview["procedures_flagged"]


def test_decay_dry_run_as_text_names_each_id(store: Path) -> None:
    preview = json.loads(cli(store, "decay", "--dry-run", "--now", LATER, "--json").stdout)
    # When the dry run prints text
    done = cli(store, "decay", "--dry-run", "--now", LATER)
    # Then it says nothing changed, counts each tier, and names every id
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("dry run, nothing changed")
    assert f"expire {len(preview['pending_facts'])} unconfirmed fact(s)" in done.stdout
    for fact in preview["pending_facts"]:
        assert fact["fact_hash"] in done.stdout
    for flagged in preview["procedures_flagged"]:
        assert flagged["procedure_id"] in done.stdout
