"""Errors the core raises; entry points turn them into replies, exit codes or retries."""

from __future__ import annotations


class MemoryError_(Exception):
    """Base of every error agent-memory raises on purpose."""


class InvalidInput(MemoryError_):
    """Input that breaks a contract; ``field`` names the offending field (dotted path)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class NotFound(MemoryError_):
    """A record the caller named does not exist (or is not visible to its tenant)."""


class Conflict(MemoryError_):
    """A conditional write lost: the record is not in the state the operation requires."""


class IngestionBusy(MemoryError_):
    """A knowledge-base ingestion job is already running: try again in the next window."""


class PiiDetectionFailed(MemoryError_):
    """The PII detector could not vouch for a text, so nothing may be written (fail closed)."""


class TransientError(MemoryError_):
    """A failure worth retrying with backoff (throttling, a locked database, a timeout)."""


class Forbidden(MemoryError_):
    """The caller's proven identity does not allow what it asked for (another tenant's data)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class StoreUnavailable(MemoryError_):
    """A store cannot be read or written: its files are damaged, its disk is full or failing.

    Unlike a ``TransientError``, trying again does not help until someone repairs the store;
    the message names the file and what is wrong with it, in one line.
    """
