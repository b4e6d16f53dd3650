"""The embedded SQLite database: one file in WAL mode, one connection per thread."""

from __future__ import annotations

import contextlib
import re
import sqlite3
import struct
import threading
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from agent_memory.adapters.local.sqlite_codec import tenant_key_range
from agent_memory.adapters.local.sqlite_schema import MIGRATIONS, SCHEMA_VERSION
from agent_memory.core.model.errors import MemoryError_, StoreUnavailable, TransientError

_SQLITE_BUSY = 5
_SQLITE_LOCKED = 6
_SQLITE_IOERR = 10
_SQLITE_CORRUPT = 11
_SQLITE_FULL = 13
_SQLITE_NOTADB = 26
_DELETE = re.compile(r"\s*DELETE\b", re.IGNORECASE)
# What decoding a garbled row's values raises (JSON, UTF-8, a wrong type or shape).
_UNDECODABLE = (ValueError, TypeError, KeyError, IndexError, AttributeError, struct.error)
T = TypeVar("T")
V = TypeVar("V")
# The tables that hold memory (the schema's own bookkeeping aside).
_MEMORY_TABLES = ("episodes", "facts", "procedures", "ledger")


def is_lock_error(exc: sqlite3.Error) -> bool:
    """Whether ``exc`` means another connection holds a lock we waited on in vain."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF in (_SQLITE_BUSY, _SQLITE_LOCKED)
    message = str(exc).lower()
    return "locked" in message or "busy" in message


def _primary_code(exc: sqlite3.Error) -> int | None:
    code = getattr(exc, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(code, int) else None


class StoreUnreadable(StoreUnavailable):
    """A database opened read-only is missing, unreadable or of another schema version, or
    one opened to write is of a newer one.
    """


class DatabaseDamaged(StoreUnavailable):
    """The database file is not a database, or is malformed (cut short, overwritten)."""


class DatabaseFailed(StoreUnavailable):
    """The disk under the database failed it: full, over a file-size limit, an I/O error."""


def translated(path: str, exc: sqlite3.Error) -> MemoryError_ | None:
    """The error ``exc`` means, for entry points to report in one line: a lock waited on in
    vain (``TransientError``), a damaged file or a failing disk (``StoreUnavailable``); None
    for any other (a refused write, a bug), which stays as it is.
    """
    code = _primary_code(exc)
    if isinstance(exc, sqlite3.OperationalError) and is_lock_error(exc):
        return TransientError(f"database busy: {exc}")
    if code in (_SQLITE_CORRUPT, _SQLITE_NOTADB):
        return DatabaseDamaged(
            f"the store's database is damaged: {path}: {exc} (restore it from a backup of the "
            "store)"
        )
    if code == _SQLITE_FULL:
        return DatabaseFailed(f"the store's database {path} cannot grow: the disk is full ({exc})")
    if code == _SQLITE_IOERR:
        name = getattr(exc, "sqlite_errorname", "SQLITE_IOERR")
        return DatabaseFailed(
            f"the store's database {path} failed: {exc} ({name}: the disk is full, over a "
            "file-size limit or failing)"
        )
    return None


class _ThreadConnection(sqlite3.Connection):
    """A connection that can be weakly referenced, so a finished thread's one is released.

    It also notes when a statement deleted rows (``deleted``), so the write transaction that
    ran it can fold the log into the file afterwards (see :meth:`SqliteDatabase.write`).
    """

    deleted = False

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        cursor = super().execute(sql, parameters)
        if cursor.rowcount > 0 and _DELETE.match(sql):
            self.deleted = True
        return cursor

    def executemany(self, sql: str, parameters: Any, /) -> sqlite3.Cursor:
        cursor = super().executemany(sql, parameters)
        if cursor.rowcount > 0 and _DELETE.match(sql):
            self.deleted = True
        return cursor


class SqliteDatabase:
    """One SQLite file shared by the local stores; safe to use from many threads.

    Each thread gets its own connection (``sqlite3`` connections must not be shared), all in WAL
    mode so readers never block the single writer. Writers that need read-modify-write use
    :meth:`write`, which takes the write lock up front (``BEGIN IMMEDIATE``) and waits up to
    ``busy_timeout`` for it; a lock still held after that raises ``TransientError``.
    The parent directory is created if missing.

    ``read_only`` opens an existing file for reading only, creating and migrating nothing
    (a store on a read-only disk, or one the user may not write): see :meth:`_open`.
    """

    def __init__(
        self, path: str | Path, *, busy_timeout: float = 5.0, read_only: bool = False
    ) -> None:
        self._path = str(path)
        self._read_only = read_only
        self._busy_timeout_ms = int(busy_timeout * 1000)
        self._local = threading.local()
        # Weak, so a connection lives exactly as long as its thread's local storage.
        self._all: weakref.WeakSet[sqlite3.Connection] = weakref.WeakSet()
        self._all_lock = threading.Lock()
        self._closed = False
        if read_only:
            self._check_readable()
            return
        Path(self._path).parent.mkdir(parents=True, exist_ok=True)
        try:
            self._migrate()
        except BaseException:
            self.close()
            raise

    @property
    def path(self) -> str:
        """Return the database file's path."""
        return self._path

    def connection(self) -> sqlite3.Connection:
        """Return the calling thread's connection, opened on first use."""
        if self._closed:
            raise RuntimeError("database is closed")
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._open()
            self._local.conn = conn
            with self._all_lock:
                self._all.add(conn)
        return conn

    def tenant_rows(
        self, select: str, *, table: str, sort_key: str, tenant_id: str, batch: int = 500
    ) -> Iterator[sqlite3.Row]:
        """Every row of ``select`` belonging to the tenant, in (pk, ``sort_key``) order.

        ``table`` is the alias (or name) whose ``pk`` and ``tenant_id`` columns are meant. Reads
        in batches without holding a transaction between them, so the caller may write (even
        delete the rows) while iterating.
        """
        low, high = tenant_key_range(tenant_id)
        pk, second = f"{table}.pk", f"{table}.{sort_key}"
        after: tuple[str, ...] = ()
        while True:
            keyset = f" AND ({pk}, {second}) > (?, ?)" if after else ""
            rows = self.fetchall(
                f"{select} WHERE {pk} >= ? AND {pk} < ? AND {table}.tenant_id = ?{keyset} "
                f"ORDER BY {pk}, {second} LIMIT ?",
                (low, high, tenant_id, *after, batch),
            )
            yield from rows
            if len(rows) < batch:
                return
            after = (rows[-1]["pk"], rows[-1][sort_key])

    def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        """Run one read statement (a consistent snapshot on its own) and return its rows."""
        with self._faults():
            return self.connection().execute(sql, params).fetchall()

    def fetchone(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        """Run one read statement and return its first row, if any."""
        rows = self.fetchall(sql, params)
        return rows[0] if rows else None

    def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one write statement atomically; the number of rows it changed."""
        with self.write() as conn:
            return conn.execute(sql, params).rowcount

    @contextmanager
    def read(self) -> Iterator[sqlite3.Connection]:
        """Open a read transaction: the statements run in it see one snapshot."""
        conn = self.connection()
        if conn.in_transaction:
            raise RuntimeError("transactions do not nest")
        with self._faults():
            conn.execute("BEGIN DEFERRED")
            try:
                yield conn
            except BaseException:
                self._roll_back(conn)
                raise
            if conn.in_transaction:
                conn.execute("COMMIT")

    @contextmanager
    def write(self, *, erases: bool = False) -> Iterator[sqlite3.Connection]:
        """Open a transaction holding the write lock from its start; commit unless it raises.

        A transaction that deleted rows is followed by a checkpoint: ``secure_delete`` zeroes
        them only in the new versions of their pages, written to the log, while the database
        file (and older log frames) keep the old versions until the log is folded back. So is
        one that ``erases`` text it overwrites (a redaction).
        """
        conn = self.connection()
        if conn.in_transaction:
            raise RuntimeError("write transactions do not nest")
        with self._faults():
            if isinstance(conn, _ThreadConnection):
                conn.deleted = erases
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException:
                self._roll_back(conn)
                raise
        if isinstance(conn, _ThreadConnection) and conn.deleted:
            conn.deleted = False
            self.checkpoint()

    def _roll_back(self, conn: sqlite3.Connection) -> None:
        """End a failed transaction; a connection that cannot (its disk failed) is dropped, so
        the thread's next statement starts on a new one rather than inside the old transaction.
        """
        if not conn.in_transaction:
            return
        try:
            conn.execute("ROLLBACK")
        except sqlite3.Error:
            self._local.conn = None
            with self._all_lock:
                self._all.discard(conn)
            with contextlib.suppress(sqlite3.Error):
                conn.close()

    @contextmanager
    def _faults(self) -> Iterator[None]:
        """SQLite's errors as the errors they mean (:func:`translated`)."""
        try:
            yield
        except sqlite3.Error as exc:
            meaning = translated(self._path, exc)
            if meaning is None:
                raise
            raise meaning from exc

    def decoded(self, kind: str, decode: Callable[[V], T], stored: V) -> T:
        """``decode(stored)``, a ``kind`` as the file holds it; ``DatabaseDamaged`` naming the
        file when its bytes decode to no such record (SQLite keeps no checksum of a row's
        content, so a damaged page can hand back garbled values).
        """
        try:
            return decode(stored)
        except _UNDECODABLE as exc:
            cause = " ".join(str(exc).split()[:30])
            raise DatabaseDamaged(
                f"the store's database is damaged: {self._path}: a stored {kind} cannot be read "
                f"({type(exc).__name__}: {cause}) (restore it from a backup of the store)"
            ) from exc

    def holds_memory(self) -> bool:
        """Whether any episode, fact, procedure or run record is stored."""
        return any(
            self.fetchone(f"SELECT 1 FROM {table} LIMIT 1") is not None for table in _MEMORY_TABLES
        )

    def schema_version(self) -> int:
        """Return the schema version recorded in the file."""
        row = self.fetchone("SELECT MAX(version) AS version FROM schema_version")
        return int(row["version"]) if row is not None and row["version"] is not None else 0

    def close(self) -> None:
        """Close every connection this object opened (call once worker threads are done)."""
        self._closed = True
        with self._all_lock:
            connections = list(self._all)
            self._all.clear()
        for conn in connections:
            conn.close()

    def __enter__(self) -> SqliteDatabase:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _open(self) -> sqlite3.Connection:
        with self._faults():
            if self._read_only:
                return self._open_read_only()
            # isolation_level=None: transactions are begun explicitly, never implicitly;
            # timeout is SQLite's busy_timeout, how long to wait for another writer's lock.
            conn = sqlite3.connect(
                self._path,
                timeout=self._busy_timeout_ms / 1000,
                isolation_level=None,
                # Each connection stays on its thread; this only lets close() run elsewhere.
                check_same_thread=False,
                factory=_ThreadConnection,
            )
            try:
                conn.row_factory = sqlite3.Row
                conn.execute("PRAGMA journal_mode = WAL")
                # NORMAL is durable across application crashes in WAL mode, which is what we
                # need.
                conn.execute("PRAGMA synchronous = NORMAL")
                conn.execute("PRAGMA foreign_keys = OFF")
                # Deleted records (forgotten tenants, replayed raw events) are zeroed, not left
                # in free pages; write() then checkpoints so the file holds the zeroed pages.
                conn.execute("PRAGMA secure_delete = ON")
            except BaseException:
                conn.close()
                raise
        return conn

    def _open_read_only(self) -> sqlite3.Connection:
        # A WAL database is read with its -shm index, which SQLite must create when missing:
        # a directory that cannot hold one is read as an immutable file instead. That is exact
        # only without a -wal file (a writer's last commits can sit there after a crash or
        # while it runs), so then the read is refused rather than made from a stale file.
        uri = Path(self._path).resolve().as_uri()
        try:
            return self._connect_read_only(f"{uri}?mode=ro")
        except sqlite3.OperationalError as error:
            if _holds_frames(Path(f"{self._path}-wal")):
                raise StoreUnreadable(
                    f"cannot read {self._path} read-only: its -wal file holds writes not yet "
                    f"in the database, and there is no -shm index beside it ({error})"
                ) from error
        return self._connect_read_only(f"{uri}?immutable=1")

    def _connect_read_only(self, uri: str) -> sqlite3.Connection:
        conn = sqlite3.connect(
            uri, uri=True, isolation_level=None, check_same_thread=False, factory=_ThreadConnection
        )
        conn.row_factory = sqlite3.Row
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            conn.execute("PRAGMA query_only = ON")
        except BaseException:
            conn.close()
            raise
        return conn

    def _check_readable(self) -> None:
        if not Path(self._path).is_file():
            raise StoreUnreadable(f"{self._path} does not exist")
        try:
            version = self.schema_version()
        except StoreUnavailable:
            self.close()
            raise
        except sqlite3.DatabaseError as error:
            self.close()
            raise StoreUnreadable(f"cannot read {self._path}: {error}") from error
        if version != SCHEMA_VERSION:
            self.close()
            raise StoreUnreadable(
                f"{self._path} has schema version {version}; this code reads "
                f"{SCHEMA_VERSION} (open it once where it can be written, to migrate it)"
            )

    def checkpoint(self) -> None:
        """Fold the write-ahead log into the database and empty it, so deleted content no
        longer lingers in old log frames; a busy reader just makes it partial.
        """
        with self._faults():
            self.connection().execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def _migrate(self) -> None:
        with self.write() as conn:
            conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
            current = int(row[0]) if row[0] is not None else 0
            if current > SCHEMA_VERSION:
                raise StoreUnreadable(
                    f"{self._path} has schema version {current}; this code knows "
                    f"{SCHEMA_VERSION} (it was written by a newer agent-memory)"
                )
            for version in range(current + 1, SCHEMA_VERSION + 1):
                for statement in MIGRATIONS[version]:
                    conn.execute(statement)
                conn.execute("INSERT INTO schema_version (version) VALUES (?)", (version,))


def _holds_frames(wal: Path) -> bool:
    """Whether a write-ahead log may hold commits (one left empty by a failed open holds none)."""
    try:
        return wal.stat().st_size > 0
    except FileNotFoundError:
        return False
