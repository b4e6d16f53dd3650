"""Atomic file writes: a reader sees the old bytes or the new ones, never a torn file."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

_ATTEMPTS = 3


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` via a synced temporary file and ``os.replace``."""
    fd, temp_name = _temporary_beside(path)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp_name, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp_name)
        raise


def _temporary_beside(path: Path) -> tuple[int, str]:
    """A new hidden file in ``path``'s folder, which is made if missing."""
    for _ in range(_ATTEMPTS - 1):
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            return tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        except FileNotFoundError:
            continue  # a deletion removed the folder, empty, since mkdir: make it again
    path.parent.mkdir(parents=True, exist_ok=True)
    return tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
