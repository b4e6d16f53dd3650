"""Damaged files and full disks under the local store: a read serves what it can, a write that
cannot complete says so in one line (exit 2) and leaves the run replayable, and no command ends
in a traceback.

The damage is real: bytes written into the store's files (the database, the KB index), a disk
that fills (a process whose files cannot grow, ``RLIMIT_FSIZE``), a disk that fails a sync.
"""

from __future__ import annotations

import errno
import json
import os
import random
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_memory.cli.demo_runs import TASK_TYPE, TENANT
from agent_memory.wiring.local import DATABASE_FILE, KB_FOLDER
from tests.resilience.helpers_store_faults import (
    BOOTSTRAP,
    DATABASE_DAMAGE,
    INDEX_DAMAGE,
    clean_ending,
    commands,
    demo_store,
    event_file,
    key_path,
    overwrite_table,
    run_cli,
)
from tests.resilience.limited_cli import limited
from tests.support.memory import run_event

pytestmark = pytest.mark.slow

RUN_KEY = f"{TENANT}#failed#contract-reviewer/faulty-run"


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return demo_store(tmp_path_factory.mktemp("faults") / "demo")


@pytest.fixture
def store(demo: Path, tmp_path: Path) -> Path:
    # A copy of the demo's store: episodes, an ingested fact, a validated procedure
    return Path(shutil.copytree(demo, tmp_path / "store"))


def _bootstrap(store: Path) -> tuple[dict[str, object], list[str]]:
    ran = run_cli(store, *BOOTSTRAP, "--task-type", TASK_TYPE, "--json")
    assert ran.escaped is None and ran.code == 0, ran.escaped or ran.err
    return json.loads(ran.out), ran.warnings


# --- reads serve what they can ----------------------------------------------------------------


@pytest.mark.parametrize("damage", INDEX_DAMAGE, ids=list(INDEX_DAMAGE))
def test_bootstrap_with_the_kb_index_unreadable_serves_episodes_and_the_procedure(
    store: Path, damage: str
) -> None:
    # Given what the store serves whole (the demo's episodes are named by the store's own
    # pseudonym key, so which of them pass the threshold is the store's), then its KB index
    # damaged
    whole, _ = _bootstrap(store)
    assert whole["episodes"]
    INDEX_DAMAGE[damage](store, random.Random(damage))
    # When a run bootstraps
    reply, warnings = _bootstrap(store)
    # Then the same episodes and the procedure are served, and the reply says the semantic
    # tier could not be read, naming the index
    assert reply["episodes"] == whole["episodes"]
    assert reply["procedure"] is not None
    assert reply["facts"] == []
    unavailable = reply["unavailable"]
    assert isinstance(unavailable, dict) and list(unavailable) == ["semantic"]
    assert str(Path(KB_FOLDER) / "index") in unavailable["semantic"]
    # And the command warns in one line on stderr
    [warning] = warnings
    assert "could not read semantic" in warning and "served episodic, procedural" in warning


@pytest.mark.parametrize(
    ("table", "tier", "served"),
    [
        ("episodes", "episodic", ("facts", "procedure")),
        ("procedures", "procedural", ("episodes", "facts")),
    ],
)
def test_bootstrap_with_one_table_unreadable_serves_the_other_tiers(
    store: Path, table: str, tier: str, served: tuple[str, ...]
) -> None:
    # Given one table of the database overwritten by a torn write
    overwrite_table(store, table, random.Random(table))
    # When a run bootstraps
    reply, warnings = _bootstrap(store)
    # Then the other tiers are served, and the reply names the one that could not be read
    for kind in served:
        assert reply[kind], kind
    unavailable = reply["unavailable"]
    assert isinstance(unavailable, dict) and list(unavailable) == [tier]
    assert "the store's database is damaged" in unavailable[tier]
    assert str(store / DATABASE_FILE) in unavailable[tier]
    assert len(warnings) == 1 and f"could not read {tier}" in warnings[0]


# --- a damaged database: one line, every command ----------------------------------------------


@pytest.mark.parametrize("damage", ["garbage", "emptied"])
def test_a_damaged_database_stops_every_command_in_one_line_naming_it(
    store: Path, tmp_path: Path, damage: str
) -> None:
    # Given the database damaged whole
    DATABASE_DAMAGE[damage](store, random.Random(damage))
    for args in commands(event_file(tmp_path)):
        # When any command runs on the store
        ran = run_cli(store, *args)
        # Then it stops with exit 2 and one line naming the file as damaged
        assert ran.escaped is None and ran.code == 2, (args, ran.escaped or ran.err)
        [line] = ran.errors
        assert f"the store's database is damaged: {store / DATABASE_FILE}" in line, line


@pytest.mark.parametrize("damage", INDEX_DAMAGE, ids=list(INDEX_DAMAGE))
def test_every_command_ends_cleanly_on_a_damaged_kb_index(
    store: Path, tmp_path: Path, damage: str
) -> None:
    # Given the KB index damaged
    INDEX_DAMAGE[damage](store, random.Random(damage))
    for args in commands(event_file(tmp_path)):
        # When any command runs on the store, then it succeeds or fails in one line
        problem = clean_ending(run_cli(store, *args))
        assert problem is None, problem


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    damage=st.sampled_from([*DATABASE_DAMAGE, *INDEX_DAMAGE]),
    seed=st.integers(0, 2**32 - 1),
    command=st.integers(0, len(commands(Path("event.json"))) - 1),
)
def test_no_damage_to_the_store_makes_a_command_end_in_a_traceback(
    demo: Path, tmp_path_factory: pytest.TempPathFactory, damage: str, seed: int, command: int
) -> None:
    # Given the store damaged at random (the database cut short, a page overwritten, the KB
    # index cut or garbled...)
    root = tmp_path_factory.mktemp("damaged")
    store = Path(shutil.copytree(demo, root / "store"))
    {**DATABASE_DAMAGE, **INDEX_DAMAGE}[damage](store, random.Random(seed))
    # When a command runs on it
    ran = run_cli(store, *commands(event_file(root))[command])
    # Then it succeeds, or fails in one line, naming the damaged file when it says why
    problem = clean_ending(ran)
    assert problem is None, problem
    for line in ran.errors:
        if "damaged" in line or "unreadable" in line:
            assert str(store) in line, line


# --- a full disk: one line that tells the truth, and the run is replayable --------------------


def _listed(store: Path) -> list[str]:
    ran = run_cli(store, "failed", "list", "--json", "--incomplete-after", "0")
    assert ran.code == 0, ran.err
    return [record["key"] for record in json.loads(ran.out)]


def test_consolidate_on_a_full_disk_ends_in_one_line_that_tells_the_truth_about_the_run(
    demo: Path, tmp_path: Path
) -> None:
    said: set[str] = set()
    # Files may grow to these sizes: from too small for SQLite's index to enough for the run
    for limit in range(0, 130_000, 6_500):
        store = Path(shutil.copytree(demo, tmp_path / f"store-{limit}"))
        event = event_file(tmp_path)
        # When a run is consolidated on a disk that fills
        done = limited(limit, "--store", str(store), "consolidate", str(event))
        # Then it ends without a traceback: consolidated, or one line naming the store
        assert "Traceback" not in done.stderr, (limit, done.stderr)
        if done.returncode == 0:
            said.add("consolidated")
            continue
        assert done.returncode == 2, (limit, done.stderr)
        [line] = done.stderr.splitlines()
        assert str(store) in line, (limit, line)
        # And a line saying the run is recorded for replay is true; one that says it is not
        # tells the caller to send it again
        if "recorded for replay" in line:
            said.add("recorded")
            assert RUN_KEY in _listed(store), (limit, line)
            replayed = run_cli(store, "failed", "replay")
            assert replayed.code == 0, replayed.out + replayed.err
        else:
            said.add("not recorded")
            assert "was NOT recorded: send it again" in line, (limit, line)
            resent = run_cli(store, "consolidate", str(event))
            assert resent.code == 0, resent.err
            run_cli(store, "failed", "replay", "--incomplete-after", "0")
        # And once there is space the run is consolidated, with nothing left to replay
        assert _listed(store) == [], limit
        exported = run_cli(store, "export", "--tenant", TENANT).out
        assert '"run_id": "faulty-run"' in exported, limit
    # (The sizes above meet each case: the store cannot even open, a step fails and its
    # failure is recorded, a step fails and so does its record, the run completes.)
    assert said == {"consolidated", "recorded", "not recorded"}


@pytest.mark.parametrize("limit", [0, 4_096, 50_000, 100_000])
def test_a_new_store_on_a_full_disk_refuses_in_one_line_and_works_once_there_is_space(
    tmp_path: Path, limit: int
) -> None:
    # Given no store yet, and a disk that fills during the store's first writes
    store, event = tmp_path / "new", event_file(tmp_path)
    done = limited(limit, "--store", str(store), "consolidate", str(event))
    # Then the command says in one line that the run was not recorded
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    [line] = done.stderr.splitlines()
    assert str(store) in line and "was NOT recorded" in line, line
    # And once there is space, the store opens with a whole key and takes the run
    assert run_cli(store, "consolidate", str(event)).code == 0
    assert len(key_path(store).read_bytes()) == 65


def test_bootstrap_on_a_full_disk_still_serves(store: Path) -> None:
    # When a run bootstraps where no file can grow (not even SQLite's shared-memory index)
    done = limited(0, "--store", str(store), *BOOTSTRAP, "--task-type", TASK_TYPE, "--json")
    # Then it serves every tier, reading the store as it is
    assert done.returncode == 0, done.stderr
    reply = json.loads(done.stdout)
    assert reply["episodes"] and reply["facts"] and reply["procedure"]
    assert reply["unavailable"] == {}


def _failing_syncs(under: Path, code: int) -> object:
    """``os.fsync`` failing with ``code`` for files under ``under`` (a disk that fails there)."""
    real = os.fsync

    def fsync(fd: int) -> None:
        if os.readlink(f"/proc/self/fd/{fd}").startswith(str(under)):
            raise OSError(code, os.strerror(code))
        real(fd)

    return fsync


def test_a_kb_write_the_disk_fails_ends_in_one_line_and_the_run_is_replayable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given two runs of different agents stating a fact: the third confirms it, and writes
    # its KB document
    store = tmp_path / "store"
    events = []
    for n, agent in enumerate(("reviewer-a", "reviewer-b", "reviewer-c")):
        path = tmp_path / f"run-{n}.json"
        path.write_text(json.dumps(run_event(f"run-{n}", agent_id=agent)))
        events.append(path)
    for path in events[:2]:
        assert run_cli(store, "consolidate", str(path)).code == 0
    # When the disk fails (EIO) under the KB folder as the third run is consolidated
    with monkeypatch.context() as patched:
        patched.setattr(os, "fsync", _failing_syncs(store / KB_FOLDER, errno.EIO))
        ran = run_cli(store, "consolidate", str(events[2]))
    # Then the command ends in one line naming the store and the cause, with exit 2, and the
    # run is recorded for replay
    assert ran.escaped is None and ran.code == 2, ran.escaped or ran.err
    [line] = ran.errors
    assert str(store) in line and "Input/output error" in line, line
    assert "recorded for replay" in line and "stage_kb_docs" in line, line
    assert _listed(store) == ["acme#failed#reviewer-c/run-2"]
    # And replaying it once the disk works completes it
    assert run_cli(store, "failed", "replay").code == 0
    assert _listed(store) == []


def test_replay_on_a_full_disk_stops_in_one_line_keeping_every_run(
    demo: Path, tmp_path: Path
) -> None:
    # Given a run recorded for replay after a step failed on a full disk
    store = Path(shutil.copytree(demo, tmp_path / "store"))
    event = event_file(tmp_path)
    for limit in range(33_000, 130_000, 6_500):
        done = limited(limit, "--store", str(store), "consolidate", str(event))
        if "recorded for replay" in done.stderr:
            break
        shutil.rmtree(store)
        shutil.copytree(demo, store)
    assert RUN_KEY in _listed(store)
    # When it is replayed while the disk is still full
    done = limited(limit, "--store", str(store), "failed", "replay")
    # Then the replay stops in one line (exit 2), and the run stays recorded
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    [line] = done.stderr.splitlines()
    assert str(store) in line and "stay recorded" in line, line
    assert RUN_KEY in _listed(store)
