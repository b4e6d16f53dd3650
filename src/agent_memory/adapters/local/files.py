"""Atomic file writes: a reader sees the old bytes or the new ones, never a torn file.

Each write goes to a hidden temporary file in the same folder, is synced, then takes the
file's name in one step (``rename``, or ``link`` when an existing file must win), and the
folder is synced so the new name survives a power cut. A write that fails (a full disk, a
file-size limit, an I/O error) leaves the file as it was and no temporary file behind.
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from pathlib import Path

_ATTEMPTS = 3
# What ``link`` raises where the file system cannot make a second name for a file.
_NO_HARD_LINKS = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOSYS, errno.EMLINK}


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path``, replacing it whole."""
    temp_name = _synced_temporary(path, data)
    try:
        os.replace(temp_name, path)
    except BaseException:
        _discard(temp_name)
        raise
    sync_directory(path.parent)


def create_atomic(path: Path, data: bytes) -> bool:
    """Create ``path`` holding ``data`` unless it exists; whether this call created it.

    Two processes creating the same file at once: one wins, the other returns False and finds
    the winner's whole file in place.
    """
    temp_name = _synced_temporary(path, data)
    try:
        os.link(temp_name, path)
    except FileExistsError:
        return False
    except OSError as error:
        if error.errno not in _NO_HARD_LINKS:
            raise
        return _create_in_place(path, data)
    finally:
        _discard(temp_name)
    sync_directory(path.parent)
    return True


def _create_in_place(path: Path, data: bytes) -> bool:
    """:func:`create_atomic` where the file system has no hard links (FAT, some network and
    FUSE file systems): created exclusively and written in place, removed if the write fails.
    """
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return False
    _write_synced(fd, data, str(path))
    sync_directory(path.parent)
    return True


def sync_directory(directory: Path) -> None:
    """Make the folder's entries (a file just renamed into it) durable."""
    fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _synced_temporary(path: Path, data: bytes) -> str:
    """A hidden file beside ``path`` holding ``data``, synced to disk; its name."""
    fd, temp_name = _temporary_beside(path)
    _write_synced(fd, data, temp_name)
    return temp_name


def _write_synced(fd: int, data: bytes, name: str) -> None:
    """Write ``data`` to the new file ``name`` open on ``fd`` and sync it; the file is removed
    if any of it fails.
    """
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException:
        _discard(name)
        raise


def _discard(name: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(name)


def _temporary_beside(path: Path) -> tuple[int, str]:
    """A new hidden file (owner-only) in ``path``'s folder, which is made if missing."""
    for _ in range(_ATTEMPTS - 1):
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            return tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        except FileNotFoundError:
            continue  # a deletion removed the folder, empty, since mkdir: make it again
    path.parent.mkdir(parents=True, exist_ok=True)
    return tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
