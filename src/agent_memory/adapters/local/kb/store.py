"""The vector index on disk: immutable generation folders and a pointer swapped atomically.

Layout under the index folder::

    CURRENT               {"generation": 7, "directory": "gen-00000007"}
    gen-00000007/
        vectors.npy       float32 (rows, dimension), unit rows, C order
        table.json        model_id, dimension and one entry per row (key, hash, text, metadata)

A writer (holding the ingestion lock) fills a hidden folder, renames it to its generation and
then replaces ``CURRENT``; readers follow ``CURRENT``, so they see one whole generation or the
next one. The previous generation is kept, so a reader in another process that has just read
``CURRENT`` can still open it, only when it holds nothing the new one lacks: a document deleted
(a forgotten tenant's, a decayed fact's) leaves no copy of its text on disk once the index
dropped it. A reader that finds its generation gone reads ``CURRENT`` again.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from agent_memory.adapters.local.files import write_atomic
from agent_memory.adapters.local.kb.documents import IndexableDocument
from agent_memory.adapters.local.kb.snapshot import IndexSnapshot
from agent_memory.core.model.errors import StoreUnavailable

FORMAT = 1
_POINTER = "CURRENT"
_PREFIX = "gen-"
_VECTORS = "vectors.npy"
_TABLE = "table.json"
_ATTEMPTS = 3


class IndexUnreadable(StoreUnavailable):
    """The index on disk is damaged or of an unknown format; the next ingestion rebuilds it."""


@dataclass(frozen=True, slots=True)
class Stamp:
    """Identity of one version of the pointer file: a replaced file never has the same one."""

    device: int
    inode: int
    mtime_ns: int
    size: int


class IndexStore:
    """Reads and writes index generations in one folder."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def stamp(self) -> Stamp | None:
        """Return the pointer's stamp (one ``stat``), or None before the first ingestion."""
        try:
            return _stamp(os.stat(self.directory / _POINTER))
        except FileNotFoundError:
            return None

    def load(self, known: IndexSnapshot | None = None) -> tuple[Stamp, IndexSnapshot] | None:
        """Read the generation ``CURRENT`` names, with the pointer's stamp; None if none.

        ``known`` is returned as is when it is that generation, to skip reading the arrays.
        """
        for _ in range(_ATTEMPTS):
            pointer = self._read_pointer()
            if pointer is None:
                return None
            stamp, generation, directory = pointer
            if known is not None and known.generation == generation:
                return stamp, known
            try:
                return stamp, _read_generation(self.directory / directory, generation)
            except FileNotFoundError:
                continue  # pruned by two newer ingestions since we read the pointer
        raise IndexUnreadable(
            f"the KB index in {self.directory} lacks files of the generation its pointer names "
            "(or they kept vanishing while read); the next ingestion rebuilds it"
        )

    def write(self, snapshot: IndexSnapshot, *, keep_previous: bool = True) -> Stamp:
        """Publish ``snapshot`` as the next generation and prune older ones (all of them unless
        ``keep_previous``); the caller holds the ingestion lock.
        """
        self.directory.mkdir(parents=True, exist_ok=True)
        previous = self._current_directory() if keep_previous else None
        building = Path(tempfile.mkdtemp(dir=self.directory, prefix=".building-"))
        _write_generation(building, snapshot)
        name = f"{_PREFIX}{snapshot.generation:08d}"
        os.rename(building, self.directory / name)
        pointer = {"generation": snapshot.generation, "directory": name}
        write_atomic(self.directory / _POINTER, json.dumps(pointer).encode())
        self._prune(keep=(name,) if previous is None else (name, previous))
        return _stamp(os.stat(self.directory / _POINTER))

    def prune(self) -> None:
        """Remove every generation but the current one (all of them without a readable
        pointer, since none can be served).
        """
        current = self._current_directory()
        self._prune(keep=() if current is None else (current,))

    def clear(self) -> None:
        """Remove the pointer and every generation: no index until the next write."""
        (self.directory / _POINTER).unlink(missing_ok=True)
        self._prune(keep=())

    def generations(self) -> int:
        """How many generation folders are on disk."""
        return sum(e.is_dir() and e.name.startswith(_PREFIX) for e in _entries(self.directory))

    def next_generation(self) -> int:
        """One more than any generation on disk, referenced or not."""
        numbers = [
            int(entry.name[len(_PREFIX) :])
            for entry in _entries(self.directory)
            if entry.name.startswith(_PREFIX) and entry.name[len(_PREFIX) :].isdigit()
        ]
        return max(numbers, default=0) + 1

    def _current_directory(self) -> str | None:
        try:
            pointer = self._read_pointer()
        except IndexUnreadable:
            return None
        return None if pointer is None else pointer[2]

    def _read_pointer(self) -> tuple[Stamp, int, str] | None:
        try:
            with open(self.directory / _POINTER, "rb") as handle:
                stamp = _stamp(os.fstat(handle.fileno()))
                raw = handle.read()
        except FileNotFoundError:
            return None
        try:
            pointer = json.loads(raw)
            generation, directory = int(pointer["generation"]), str(pointer["directory"])
        except (ValueError, KeyError, TypeError) as exc:
            raise IndexUnreadable(
                f"the KB index pointer {self.directory / _POINTER} is damaged ({_cause(exc)}); "
                "the next ingestion rebuilds the index"
            ) from exc
        if directory != f"{_PREFIX}{generation:08d}":
            raise IndexUnreadable(
                f"the KB index pointer {self.directory / _POINTER} names {directory!r}; the "
                "next ingestion rebuilds the index"
            )
        return stamp, generation, directory

    def _prune(self, keep: tuple[str, ...]) -> None:
        for entry in _entries(self.directory):
            stale_generation = entry.name.startswith(_PREFIX) and entry.name not in keep
            leftover = entry.name.startswith(".")  # a crashed writer's temporary file or folder
            if entry.is_dir() and (stale_generation or leftover):
                shutil.rmtree(entry, ignore_errors=True)
            elif leftover:
                entry.unlink(missing_ok=True)


def _write_generation(directory: Path, snapshot: IndexSnapshot) -> None:
    with open(directory / _VECTORS, "wb") as handle:
        np.save(handle, snapshot.matrix, allow_pickle=False)
        handle.flush()
        os.fsync(handle.fileno())
    table = {
        "format": FORMAT,
        "generation": snapshot.generation,
        "model_id": snapshot.model_id,
        "dimension": snapshot.dimension,
        "rows": [
            {
                "key": row.key,
                "content_hash": row.content_hash,
                "text": row.text,
                "metadata": row.metadata,
                "tenant_id": row.tenant_id,
                "domain": row.domain,
            }
            for row in snapshot.rows
        ],
    }
    with open(directory / _TABLE, "wb") as handle:
        handle.write(json.dumps(table, ensure_ascii=False).encode())
        handle.flush()
        os.fsync(handle.fileno())


def _read_generation(directory: Path, generation: int) -> IndexSnapshot:
    reading = directory / _TABLE
    try:
        table: dict[str, Any] = json.loads(reading.read_bytes())
        reading = directory / _VECTORS
        matrix = np.load(reading, allow_pickle=False)
        reading = directory
        if table["format"] != FORMAT or table["generation"] != generation:
            raise ValueError(f"unexpected format {table['format']} or generation")
        rows = [
            IndexableDocument(
                key=str(row["key"]),
                content_hash=str(row["content_hash"]),
                text=str(row["text"]),
                metadata=dict(row["metadata"]),
                tenant_id=str(row["tenant_id"]),
                domain=None if row["domain"] is None else str(row["domain"]),
            )
            for row in table["rows"]
        ]
        return IndexSnapshot(
            generation=generation,
            model_id=str(table["model_id"]),
            dimension=int(table["dimension"]),
            rows=rows,
            matrix=matrix,
        )
    except FileNotFoundError:
        raise
    except (OSError, ValueError, KeyError, TypeError, EOFError, MemoryError) as exc:
        raise IndexUnreadable(
            f"the KB index {reading} is unreadable ({_cause(exc)}); the next ingestion rebuilds it"
        ) from exc


def _cause(exc: BaseException) -> str:
    """``exc`` in one line: its type, and its message's first line."""
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0]}" if lines else type(exc).__name__


def _entries(directory: Path) -> list[Path]:
    try:
        return list(directory.iterdir())
    except FileNotFoundError:
        return []


def _stamp(status: os.stat_result) -> Stamp:
    return Stamp(status.st_dev, status.st_ino, status.st_mtime_ns, status.st_size)
