"""A store's files damaged as a disk or a crash damages them, and the CLI run on it in process.

:func:`demo_store` fills a store with the demo's memory (every tier, and a KB index);
the ``damage_*`` functions write bytes into its files (garbage over the whole database, a
database cut short, one page overwritten, the KB index's files cut short); :func:`run_cli`
runs ``agent-memory`` on it and tells whether the command ended with an exit code or escaped
with a traceback. Nothing here imports a fake: the damage is on disk, where the code meets it.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import shutil
import sqlite3
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from agent_memory.cli.demo import run_demo
from agent_memory.cli.demo_runs import AGENT, DOMAIN, NEW_TASK, TASK_TYPE, TENANT
from agent_memory.cli.exit_codes import EXIT_CODES
from agent_memory.cli.main import main
from agent_memory.wiring.local import DATABASE_FILE, KB_FOLDER, PSEUDONYM_KEY_FILE
from tests.support.memory import run_event

PAGE = 4096
INDEX = Path(KB_FOLDER) / "index"
BOOTSTRAP = ("bootstrap", "--tenant", TENANT, "--agent", AGENT, "--task", NEW_TASK)


def demo_store(store: Path) -> Path:
    """``store`` holding the demo's memory: episodes, a confirmed fact ingested into the KB
    index, a validated procedure; the database folded into one file (no -wal left).
    """
    assert run_demo(str(store), io.StringIO()) == 0
    with contextlib.closing(sqlite3.connect(store / DATABASE_FILE)) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return store


def event_file(folder: Path, run_id: str = "faulty-run") -> Path:
    """A RunFinished event (every step writes) in a file of ``folder``."""
    path = folder / f"{run_id}.json"
    path.write_text(json.dumps(run_event(run_id, tenant_id=TENANT, agent_id=AGENT)))
    return path


def commands(event: Path) -> list[tuple[str, ...]]:
    """Every command that opens the local store, each once (the servers aside)."""
    return [
        (*BOOTSTRAP, "--task-type", TASK_TYPE, "--domain", DOMAIN),
        ("consolidate", str(event)),
        ("ingest",),
        ("procedures", "list"),
        ("procedures", "show", "proc-0"),
        ("procedures", "diff", "proc-0"),
        ("procedures", "approve", "proc-0", "--reviewer", "lead"),
        ("procedures", "reject", "proc-0", "--reviewer", "lead", "--reason", "no"),
        ("facts", "contested", "--tenant", TENANT),
        ("facts", "resolve", "0" * 16, "--tenant", TENANT, "--domain", DOMAIN, "--keep", "new"),
        ("decay", "--dry-run"),
        ("decay",),
        ("export", "--tenant", TENANT),
        ("failed", "list"),
        ("failed", "replay"),
        ("stats",),
        ("reembed", "--status"),
        ("forget", "--tenant", "another-tenant", "--yes"),
    ]


@dataclass(frozen=True)
class Ran:
    """How one command ended: its exit code, or the traceback of what escaped it."""

    args: tuple[str, ...]
    code: int | None
    out: str
    err: str
    escaped: str | None = None

    @property
    def errors(self) -> list[str]:
        """The lines the command printed on stderr as ``agent-memory: error: ...``."""
        return [line for line in self.err.splitlines() if line.startswith("agent-memory: error:")]

    @property
    def warnings(self) -> list[str]:
        """Its ``agent-memory: warning: ...`` lines."""
        return [line for line in self.err.splitlines() if "agent-memory: warning:" in line]


def run_cli(store: Path, *args: str) -> Ran:
    """``agent-memory --store store args`` in this process."""
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["--store", str(store), *args])
    except BaseException:
        return Ran(args, None, out.getvalue(), err.getvalue(), traceback.format_exc())
    return Ran(args, code, out.getvalue(), err.getvalue())


def clean_ending(ran: Ran) -> str | None:
    """What is wrong with how ``ran`` ended, or None: it must succeed (0), or fail in one line
    (with one of the documented exit codes), never escape with a traceback.
    """
    if ran.escaped is not None:
        return f"{' '.join(ran.args)}: traceback\n{ran.escaped}"
    if ran.code == 0:
        return None
    if ran.code not in {code for code, _ in EXIT_CODES if code} or len(ran.errors) != 1:
        return f"{' '.join(ran.args)}: exit {ran.code}, stderr {ran.err!r}"
    return None


# --- damage -----------------------------------------------------------------------------------


def table_pages(store: Path, table: str) -> int:
    """The page number (1-based) of ``table``'s root in the store's database."""
    with contextlib.closing(sqlite3.connect(store / DATABASE_FILE)) as conn:
        (root,) = conn.execute(
            "SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
        ).fetchone()
    return int(root)


def overwrite_page(store: Path, page: int, rng: random.Random) -> None:
    """Random bytes over page ``page`` (1-based) of the database, as a torn write leaves it."""
    path = store / DATABASE_FILE
    data = bytearray(path.read_bytes())
    start = (page - 1) * PAGE
    data[start : start + PAGE] = rng.randbytes(PAGE)
    path.write_bytes(bytes(data))


def overwrite_table(store: Path, table: str, rng: random.Random) -> None:
    """Random bytes over the root page of ``table``: that table alone is unreadable."""
    overwrite_page(store, table_pages(store, table), rng)


def garble_database(store: Path, rng: random.Random) -> None:
    """Random bytes over the whole database file."""
    path = store / DATABASE_FILE
    path.write_bytes(rng.randbytes(path.stat().st_size))


def cut_database(store: Path, rng: random.Random) -> None:
    """The database cut short at a random length (at least one byte)."""
    path = store / DATABASE_FILE
    data = path.read_bytes()
    path.write_bytes(data[: rng.randrange(1, len(data))])


def empty_database(store: Path, rng: random.Random) -> None:
    """The database cut to nothing (a file SQLite would take for a new, empty one)."""
    del rng
    (store / DATABASE_FILE).write_bytes(b"")


def random_page(store: Path, rng: random.Random) -> None:
    """Random bytes over one page of the database, chosen at random."""
    pages = (store / DATABASE_FILE).stat().st_size // PAGE
    overwrite_page(store, rng.randrange(1, pages + 1), rng)


DATABASE_DAMAGE: dict[str, Callable[[Path, random.Random], None]] = {
    "garbage": garble_database,
    "cut short": cut_database,
    "emptied": empty_database,
    "a random page overwritten": random_page,
}


def index_file(store: Path, name: str) -> Path:
    """The served KB index generation's file ``name`` (``vectors.npy``, ``table.json``)."""
    directory: str = json.loads((store / INDEX / "CURRENT").read_text())["directory"]
    return store / INDEX / directory / name


def cut_file(path: Path, rng: random.Random) -> None:
    """``path`` cut short at a random length (possibly nothing)."""
    data = path.read_bytes()
    path.write_bytes(data[: rng.randrange(0, len(data))])


def garble_file(path: Path, rng: random.Random) -> None:
    """Random bytes over ``path``, at its length."""
    path.write_bytes(rng.randbytes(max(1, path.stat().st_size)))


INDEX_DAMAGE: dict[str, Callable[[Path, random.Random], None]] = {
    "vectors cut short": lambda s, r: cut_file(index_file(s, "vectors.npy"), r),
    "vectors garbled": lambda s, r: garble_file(index_file(s, "vectors.npy"), r),
    "table cut short": lambda s, r: cut_file(index_file(s, "table.json"), r),
    "table garbled": lambda s, r: garble_file(index_file(s, "table.json"), r),
    "vectors deleted": lambda s, r: index_file(s, "vectors.npy").unlink(),
    "pointer garbled": lambda s, r: garble_file(s / INDEX / "CURRENT", r),
    "index folder a file": lambda s, r: _file_in_place_of(s / INDEX),
}


def _file_in_place_of(folder: Path) -> None:
    """A file where ``folder`` belongs (a restore gone wrong)."""
    shutil.rmtree(folder)
    folder.write_text("not a folder\n")


def key_path(store: Path) -> Path:
    """The store's key file."""
    return store / PSEUDONYM_KEY_FILE


# Key files that are not a key, each with what the refusal must say about it.
KEY_DAMAGE: dict[str, tuple[bytes, str]] = {
    "empty": (b"", "empty"),
    "a newline only": (b"\n", "empty"),
    "cut to 3 characters": (b"3f9", "3 hexadecimal characters"),
    "cut to 63 characters": (b"a" * 63 + b"\n", "63 hexadecimal characters"),
    "cut to 32 characters": (b"0123456789abcdef" * 2, "32 hexadecimal characters"),
    "65 characters": (b"b" * 65, "65 hexadecimal characters"),
    "two keys": (b"c" * 128 + b"\n", "128 hexadecimal characters"),
    "64 characters, not hexadecimal": (b"g" * 64 + b"\n", "not a hexadecimal digit"),
    "a word in it": (b"a" * 30 + b"oops" + b"a" * 30, "character 31 is not"),
    "31 bytes": (bytes(range(200, 231)), "31 bytes"),
    "33 bytes": (bytes(range(200, 233)), "33 bytes"),
}
