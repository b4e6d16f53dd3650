"""The store's key (``pseudonym.key``) is written whole and checked at every open.

Names are stored as pseudonyms keyed by it and serving receipts are signed with a key derived
from it: an empty or cut key would store names under a key anyone can guess and count receipts
forged with it, and a new key would orphan every pseudonym stored. So a key file that is not a
key stops every command with one line naming it (exit 2) and the SDK with ``StoreUnavailable``,
and nothing replaces it.
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_memory.adapters.local.sqlite_db import SqliteDatabase
from agent_memory.core.model.errors import StoreUnavailable
from agent_memory.sdk import MemoryClient, StoreUnavailableError
from agent_memory.wiring.local import DATABASE_FILE, local_ports, pseudonym_key
from agent_memory.wiring.local_settings import LocalSettings
from tests.resilience.helpers_store_faults import (
    BOOTSTRAP,
    KEY_DAMAGE,
    demo_store,
    event_file,
    key_path,
    run_cli,
)
from tests.support.embedder import HashingEmbedder

pytestmark = pytest.mark.slow

HEX = "0123456789abcdef"


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return demo_store(tmp_path_factory.mktemp("key") / "demo")


@pytest.fixture
def store(demo: Path, tmp_path: Path) -> Path:
    # A copy of the demo's store, to damage
    return Path(shutil.copytree(demo, tmp_path / "store"))


def test_a_new_store_writes_its_key_whole_as_hexadecimal_for_its_owner_only(
    tmp_path: Path,
) -> None:
    # When a command that writes opens a store that does not exist yet (one that only reads
    # makes none)
    store = tmp_path / "new"
    assert run_cli(store, "ingest").code == 0
    # Then its key is 64 hexadecimal characters and a newline, readable by its owner only,
    # and no temporary file is left beside it
    written = key_path(store).read_bytes()
    assert len(written) == 65 and written.endswith(b"\n")
    assert set(written[:-1].decode()) <= set(HEX)
    assert stat.S_IMODE(key_path(store).stat().st_mode) == 0o600
    assert sorted(p.name for p in store.iterdir() if p.name.startswith(".")) == []


@pytest.mark.parametrize("damage", KEY_DAMAGE, ids=list(KEY_DAMAGE))
@pytest.mark.parametrize("command", ["bootstrap", "consolidate", "stats"])
def test_a_key_file_that_is_not_a_key_stops_the_command_in_one_line(
    store: Path, tmp_path: Path, damage: str, command: str
) -> None:
    # Given the store's key file damaged
    content, problem = KEY_DAMAGE[damage]
    key_path(store).write_bytes(content)
    args = {
        "bootstrap": BOOTSTRAP,
        "consolidate": ("consolidate", str(event_file(tmp_path))),
        "stats": ("stats",),
    }[command]
    # When a command opens the store
    ran = run_cli(store, *args)
    # Then it stops with one line naming the key file and what is wrong with it
    assert ran.escaped is None and ran.code == 2, ran.err
    [line] = ran.errors
    assert str(key_path(store)) in line and problem in line, line
    # And the file is left as it was: no new key orphans the names stored with the old one
    assert key_path(store).read_bytes() == content


def test_the_sdk_refuses_a_damaged_key_with_an_exception_naming_it(store: Path) -> None:
    # Given a key cut short
    key_path(store).write_bytes(b"0123")
    # When the SDK opens the store, then it raises its own error (a core one too), naming the file
    with pytest.raises(StoreUnavailableError, match=r"pseudonym\.key is damaged: it holds 4"):
        MemoryClient.local(store)


def test_a_store_holding_memory_without_its_key_is_refused_not_given_a_new_one(
    store: Path,
) -> None:
    # Given a store holding memory whose key file was lost
    key_path(store).unlink()
    # When a command opens it
    ran = run_cli(store, "stats")
    # Then it stops in one line saying the key is missing, and makes no new one
    assert ran.code == 2, ran.err
    [line] = ran.errors
    assert f"{key_path(store)} is missing, but the store holds memory" in line
    assert not key_path(store).exists()


def _interrupting_fdopen(real: Any) -> Any:
    """``os.fdopen`` whose files opened on a ``pseudonym.key`` path write half of what they
    are given, then fail as a full disk fails.
    """

    class HalfWriter:
        def __init__(self, handle: Any) -> None:
            self._handle = handle

        def write(self, data: bytes) -> int:
            self._handle.write(data[: len(data) // 2])
            self._handle.flush()
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        def __getattr__(self, name: str) -> Any:
            return getattr(self._handle, name)

        def __enter__(self) -> HalfWriter:
            return self

        def __exit__(self, *exc: object) -> None:
            self._handle.close()

    def fdopen(fd: int, *args: Any, **kwargs: Any) -> Any:
        handle = real(fd, *args, **kwargs)
        if "pseudonym.key" in os.readlink(f"/proc/self/fd/{fd}"):
            return HalfWriter(handle)
        return handle

    return fdopen


def test_a_key_write_the_disk_cuts_short_leaves_no_key_and_the_next_open_makes_a_whole_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a store whose database was made but whose key was never written
    store = tmp_path / "store"
    SqliteDatabase(store / DATABASE_FILE).close()
    # When the disk fills half-way through writing the key
    with monkeypatch.context() as patched:
        patched.setattr(os, "fdopen", _interrupting_fdopen(os.fdopen))
        ran = run_cli(store, "consolidate", str(event_file(tmp_path)))
    # Then the command stops in one line naming the key file, saying nothing was written
    assert ran.escaped is None and ran.code == 2, ran.err
    [line] = ran.errors
    assert str(key_path(store)) in line and "No space left on device" in line, line
    # And no key, whole or partial, and no temporary file is left
    assert sorted(p.name for p in store.iterdir()) == [DATABASE_FILE]
    # And once there is space, the next command writes a whole key
    assert run_cli(store, "stats").code == 0
    assert len(key_path(store).read_bytes()) == 65


def test_processes_opening_a_new_store_at_once_all_use_the_one_key_written(
    tmp_path: Path,
) -> None:
    for attempt in range(40):
        # Given a new store that eight threads open at the same moment
        store = tmp_path / f"store-{attempt}"
        store.mkdir()
        start = threading.Barrier(8)
        keys: list[bytes] = []
        threads = [
            threading.Thread(target=_open_at_once, args=(store, start, keys)) for _ in range(8)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        # Then every one read the same whole key
        assert len(keys) == 8 and len(set(keys)) == 1, (attempt, keys)
        assert len(keys[0]) == 32, (attempt, keys)


def _open_at_once(store: Path, start: threading.Barrier, keys: list[bytes]) -> None:
    start.wait()
    keys.append(pseudonym_key(store))


# Key file contents: whole keys in both formats, and damaged ones of every kind.
_VALID_HEX = st.binary(min_size=32, max_size=32).map(lambda b: b.hex().encode())
_KEY_FILES = st.one_of(
    _VALID_HEX,
    _VALID_HEX.map(lambda b: b + b"\n"),
    _VALID_HEX.map(lambda b: b.upper()),
    st.binary(min_size=32, max_size=32),
    _VALID_HEX.flatmap(lambda b: st.integers(0, len(b) - 1).map(lambda n: b[:n])),
    _VALID_HEX.flatmap(lambda b: st.binary(min_size=1, max_size=40).map(lambda x: b + x)),
    st.binary(max_size=130),
    st.text(HEX + "g \n", max_size=130).map(str.encode),
)


def _is_whole_key(content: bytes) -> bytes | None:
    """The key in ``content`` if it is one as written (64 hexadecimal digits), else None."""
    text = content.removesuffix(b"\n").removesuffix(b"\r")  # a line's end, of either system
    hex_digits = b"0123456789abcdefABCDEF"
    if len(text) == 64 and all(c in hex_digits for c in text):
        return bytes.fromhex(text.decode())
    return None


@pytest.fixture(scope="module")
def empty_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    store = tmp_path_factory.mktemp("empty") / "store"
    local_ports(LocalSettings(store=store), embedder=HashingEmbedder())
    yield store


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(content=_KEY_FILES)
def test_a_store_opens_with_its_whole_key_or_not_at_all(empty_store: Path, content: bytes) -> None:
    # Given any content in the key file
    key_path(empty_store).write_bytes(content)
    whole = _is_whole_key(content)
    # When the store is opened
    try:
        ports = local_ports(LocalSettings(store=empty_store), embedder=HashingEmbedder())
    except StoreUnavailable as refused:
        # Then a key file that is no key is refused, naming the file, in one line
        assert whole is None, f"a whole key was refused: {refused}"
        assert str(key_path(empty_store)) in str(refused) and "\n" not in str(refused)
        assert key_path(empty_store).read_bytes() == content
        return
    # Or the key memory uses is exactly the key the file holds
    assert whole is not None, f"{content!r} was taken for a key"
    assert ports.pseudonym_key == whole
