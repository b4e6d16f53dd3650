"""The ingestion lock: an advisory ``flock`` so threads and processes exclude each other."""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from agent_memory.core.model.errors import IngestionBusy

_POLL_SECONDS = 0.05


@contextmanager
def ingestion_lock(path: Path, *, wait: float = 0.0) -> Iterator[None]:
    """Hold the lock at ``path`` for the block; raise ``IngestionBusy`` if anyone still holds it
    after ``wait`` seconds.

    ``flock`` belongs to the open file description, so a second ``open`` of the same file is
    refused even inside one process, and the kernel releases the lock if the holder dies.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError as exc:
                if time.monotonic() >= deadline:
                    raise IngestionBusy(
                        "a knowledge-base ingestion job is already running"
                    ) from exc
                time.sleep(_POLL_SECONDS)
        yield
    finally:
        os.close(fd)
