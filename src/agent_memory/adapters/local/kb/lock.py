"""The ingestion lock: an advisory ``flock`` so threads and processes exclude each other."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from agent_memory.core.errors import IngestionBusy


@contextmanager
def ingestion_lock(path: Path) -> Iterator[None]:
    """Hold the lock at ``path`` for the block; raise ``IngestionBusy`` if anyone holds it.

    ``flock`` belongs to the open file description, so a second ``open`` of the same file is
    refused even inside one process, and the kernel releases the lock if the holder dies.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            raise IngestionBusy("a knowledge-base ingestion job is already running") from exc
        yield
    finally:
        os.close(fd)
