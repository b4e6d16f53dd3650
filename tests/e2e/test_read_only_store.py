"""A store the user cannot write: one clear line for the commands that write, and the commands
that only read still work; a refused event creates no store at all.

Root ignores file modes, so as root the store is made read-only for one process by a read-only
bind mount in a mount namespace of its own (``unshare -m``): the read-only file system SQLite
and the CLI really meet, and that os.access reports even to root. Elsewhere ``chmod`` does it.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from agent_memory.cli.demo_runs import AGENT, NEW_TASK, TENANT

pytestmark = pytest.mark.slow

COMMAND = [sys.executable, "-m", "agent_memory.cli"]
EVENT = {"tenant_id": "acme", "agent_id": "reviewer", "run_id": "run-9", "task": "Review it."}


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {
        k: v for k, v in os.environ.items() if k not in ("AGENT_MEMORY_LLM", "AGENT_MEMORY_HOME")
    }
    return subprocess.run(
        [*COMMAND, *args], capture_output=True, text=True, env=env, timeout=180, cwd=cwd
    )


def _read_only_prefix(store: Path) -> list[str]:
    if os.geteuid() != 0:
        return []
    if shutil.which("unshare") is None:
        pytest.skip("root ignores file modes and there is no unshare for a read-only mount")
    probe = subprocess.run(
        ["unshare", "-m", "sh", "-c", 'mount --bind -o ro "$0" "$0"', str(store)],
        capture_output=True,
        text=True,
    )
    if probe.returncode != 0:
        pytest.skip(f"root ignores file modes and a read-only bind mount failed: {probe.stderr}")
    # The mount exists only in the child's namespace, for as long as it runs.
    return ["unshare", "-m", "sh", "-c", 'mount --bind -o ro "$0" "$0" && shift && exec "$@"']


def read_only(store: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``agent-memory --store store args`` in a process that cannot write ``store``."""
    env = {
        k: v for k, v in os.environ.items() if k not in ("AGENT_MEMORY_LLM", "AGENT_MEMORY_HOME")
    }
    prefix = _read_only_prefix(store)
    argv = [*COMMAND, "--store", str(store), *args]
    if prefix:
        argv = [*prefix, str(store), "_", *argv]
    return subprocess.run(argv, capture_output=True, text=True, env=env, timeout=180)


def _chmod_tree(root: Path, writable: bool) -> None:
    for path in [root, *root.rglob("*")]:
        mode = path.stat().st_mode
        bits = stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH
        path.chmod(mode | stat.S_IWUSR if writable else mode & ~bits)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    # Given a store holding the demo's memory, then closed
    root = tmp_path_factory.mktemp("read-only") / "store"
    done = run("--store", str(root), "demo")
    assert done.returncode == 0, done.stderr
    if os.geteuid() != 0:
        _chmod_tree(root, writable=False)
    yield root
    if os.geteuid() != 0:
        _chmod_tree(root, writable=True)


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def assert_one_line_naming(done: subprocess.CompletedProcess[str], store: Path) -> None:
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("agent-memory: error: ") and str(store) in lines[0]


@pytest.mark.parametrize(
    "args",
    [
        ("consolidate", "EVENT"),
        ("ingest",),
        ("decay",),
        ("forget", "--tenant", TENANT, "--yes"),
        ("procedures", "approve", "proc-x", "--reviewer", "legal-lead"),
        ("demo",),
    ],
    ids=lambda a: a[0],
)
def test_a_writing_command_on_a_read_only_store_fails_in_one_line_naming_it(
    store: Path, tmp_path: Path, args: tuple[str, ...]
) -> None:
    event = tmp_path / "run.json"
    event.write_text(json.dumps(EVENT))
    before = snapshot(store)
    # When a command that writes is run on a store this process cannot write
    done = read_only(store, *[str(event) if a == "EVENT" else a for a in args])
    # Then one line names the store and says why, the exit code is 2, and nothing changed
    assert_one_line_naming(done, store)
    assert "cannot be written" in done.stderr and "read-only" in done.stderr
    assert snapshot(store) == before


def test_read_only_commands_work_on_a_read_only_store(store: Path) -> None:
    before = snapshot(store)
    procedure_id = json.loads(read_only(store, "procedures", "list", "--json").stdout)[0][
        "procedure_id"
    ]
    booted = read_only(
        store, "bootstrap", "--tenant", TENANT, "--agent", AGENT, "--task", NEW_TASK,
        "--domain", "contract_law", "--json",
    )  # fmt: skip
    fact_hash = json.loads(booted.stdout)["facts"][0]["fact_hash"]
    commands = [
        ("export", "--tenant", TENANT),
        ("bootstrap", "--tenant", TENANT, "--agent", AGENT, "--task", NEW_TASK),
        ("search", "liability cap", "--tenant", TENANT, "--agent", AGENT),
        ("episodes", "list", "--tenant", TENANT, "--agent", AGENT),
        ("episodes", "show", "run-0001", "--tenant", TENANT, "--agent", AGENT),
        ("history", "--tenant", TENANT),
        ("procedures", "list"),
        ("procedures", "show", procedure_id),
        ("procedures", "diff", procedure_id),
        ("facts", "contested", "--tenant", TENANT),
        ("facts", "show", fact_hash, "--tenant", TENANT, "--domain", "contract_law"),
        ("failed", "list"),
        ("stats",),
        ("decay", "--dry-run"),
    ]
    # When each command that only reads runs on the store this process cannot write
    results = {" ".join(args[:2]): read_only(store, *args) for args in commands}
    assert len(results) == len(commands)
    # Then each one works, and the store is as it was, file for file
    for name, done in results.items():
        assert done.returncode == 0, f"{name}: {done.stderr}"
    assert "[END MEMORY CONTEXT" in results["bootstrap --tenant"].stdout
    assert procedure_id in results["procedures list"].stdout
    assert "run-0001" in results["search liability cap"].stdout
    assert "run-0001" in results["episodes list"].stdout
    assert "run-0001 by" in results["episodes show"].stdout
    exported = [json.loads(line)["kind"] for line in results["export --tenant"].stdout.splitlines()]
    assert "episode" in exported and "procedure" in exported
    assert snapshot(store) == before


def test_a_read_only_store_is_read_as_the_writable_one_is(store: Path) -> None:
    # When the tenant is exported from the read-only store and from a writable copy of it
    copy = store.parent / "copy"
    shutil.copytree(store, copy)
    if os.geteuid() != 0:
        _chmod_tree(copy, writable=True)
    from_read_only = read_only(store, "export", "--tenant", TENANT)
    from_writable = run("--store", str(copy), "export", "--tenant", TENANT)
    # Then both give the same records
    assert from_read_only.returncode == from_writable.returncode == 0, from_read_only.stderr
    assert from_read_only.stdout == from_writable.stdout


@pytest.mark.parametrize("command", ["consolidate", "stats"])
def test_a_store_under_a_file_fails_in_one_line_naming_it(tmp_path: Path, command: str) -> None:
    # Given a store path whose parent is a file, not a directory
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    event = tmp_path / "run.json"
    event.write_text(json.dumps(EVENT))
    store = blocker / "store"
    # When a command (one that writes, one that reads) is run on it
    args = [str(event)] if command == "consolidate" else []
    done = run("--store", str(store), command, *args)
    # Then one line names the path that is not a directory, exit code 2
    assert_one_line_naming(done, blocker)
    assert "not a directory" in done.stderr


@pytest.mark.parametrize(
    "content",
    ['{"tenant_id": "acme"', json.dumps({**EVENT, "run_id": "bad/id"}), json.dumps([1, 2])],
    ids=["invalid JSON", "failed validation", "not an object"],
)
def test_a_rejected_event_creates_no_store(tmp_path: Path, content: str) -> None:
    # Given an event file the contract refuses, and a store that does not exist yet
    event = tmp_path / "run.json"
    event.write_text(content)
    store = tmp_path / "store"
    # When it is consolidated
    done = run("--store", str(store), "consolidate", str(event))
    # Then it is refused in one line with exit 2, and no store directory or file was created
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert not store.exists()


def test_a_read_only_store_includes_the_writes_a_killed_writer_left_in_its_log(
    store: Path,
) -> None:
    # Given a copy of the store whose last write (every procedure deleted) sits only in its
    # write-ahead log, as a writer killed before closing leaves it
    copy = store.parent / "killed-writer"
    shutil.copytree(store, copy)
    if os.geteuid() != 0:
        _chmod_tree(copy, writable=True)
    writer = (
        "import os, sqlite3, sys\n"
        "db = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "db.execute('PRAGMA journal_mode=WAL'); db.execute('PRAGMA wal_autocheckpoint=0')\n"
        "db.execute('DELETE FROM procedures')\n"
        "os._exit(0)\n"
    )
    subprocess.run([sys.executable, "-c", writer, str(copy / "memory.db")], check=True)
    assert (copy / "memory.db-wal").stat().st_size > 0
    if os.geteuid() != 0:
        _chmod_tree(copy, writable=False)
    # When its procedures are listed by a process that cannot write it
    done = read_only(copy, "procedures", "list")
    # Then the log's write is seen: no procedure is left
    assert done.returncode == 0, done.stderr
    assert done.stdout == "no procedures\n"
    if os.geteuid() != 0:
        _chmod_tree(copy, writable=True)
