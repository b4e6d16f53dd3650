"""How the commands tell a store that refused or failed from a bug: one line, not a traceback."""

from __future__ import annotations

import argparse
import errno
from pathlib import Path

from agent_memory.core.model.errors import MemoryError_

# What a file write or read meets when the disk is full, over a size limit or failing.
_DISK_FAULTS = frozenset({errno.ENOSPC, errno.EFBIG, errno.EIO, errno.EDQUOT})


def os_error(store: Path, error: OSError) -> str:
    """The one line of an OS error met using the store."""
    where = error.filename or store
    return f"cannot use the store {store}: {where}: {error.strerror or error}"


def is_store_error(error: MemoryError_) -> bool:
    """A store that cannot be used as it is: damaged, unreadable, its disk full or failing."""
    from agent_memory.core.model.errors import StoreUnavailable

    return isinstance(error, StoreUnavailable)


def store_fault(args: argparse.Namespace, error: BaseException) -> str | None:
    """The one line of a store that refused or failed a write or a read; None for another
    error.
    """
    import sqlite3

    if isinstance(error, MemoryError_) and is_store_error(error):
        return str(error)
    if isinstance(error, OSError | sqlite3.OperationalError) and _write_refused(error):
        return _write_refused_line(args, error)
    store = getattr(args, "store_path", None) or args.store
    if isinstance(error, OSError) and (
        error.errno in _DISK_FAULTS or _in_store(store, error.filename)
    ):
        return os_error(Path(store or "."), error)
    return None


def _in_store(store: str | Path | None, filename: object) -> bool:
    """Whether ``filename`` is one of the store's files (a file where a folder belongs...)."""
    if store is None or not isinstance(filename, str | Path):
        return False
    return Path(filename).resolve().is_relative_to(Path(store).resolve())


def _write_refused(error: BaseException) -> bool:
    import errno
    import sqlite3

    if isinstance(error, sqlite3.OperationalError):
        return "readonly" in str(error) or "unable to open" in str(error)
    refused = (errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOTDIR)
    return isinstance(error, OSError) and error.errno in refused


def _write_refused_line(args: argparse.Namespace, error: BaseException) -> str:
    store = getattr(args, "store_path", None) or args.store
    if store is None:  # not the local store (a deployed stack): the error names what refused
        return f"cannot write: {error}"
    if isinstance(error, OSError):
        return os_error(Path(store), error)
    return f"the store {store} cannot be written ({error})"
