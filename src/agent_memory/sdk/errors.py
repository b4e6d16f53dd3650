"""Errors the SDK raises: one base class, and the core's own errors where they apply.

Every SDK error is a :class:`MemoryClientError`. The ones that mean the same as a core error
also subclass it (an :class:`InvalidInputError` is an ``InvalidInput``), so code written against
the core keeps working.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from agent_memory.core.api.json_input import EventTooLarge
from agent_memory.core.model.errors import (
    Conflict,
    Forbidden,
    InvalidInput,
    MemoryError_,
    NotFound,
    StoreUnavailable,
)

if TYPE_CHECKING:
    from agent_memory.app import Application
    from agent_memory.app.messages import Message

R = TypeVar("R")


class MemoryClientError(MemoryError_):
    """Base of every error the SDK raises."""


class InvalidInputError(MemoryClientError, InvalidInput):
    """Input that breaks a contract, refused before anything was sent or written.

    ``field`` names the offending field as a dotted path (``artifacts.facts[0].confidence``).
    """


class EventTooLargeError(InvalidInputError):
    """The event is larger than one EventBridge PutEvents entry may be (256 KB).

    ``size`` is its size in bytes, or None when it was refused before it was measured whole
    (it is more than ``limit``).
    """

    def __init__(self, size: int | None, limit: int) -> None:
        measured = f"is {size} bytes" if size is not None else f"is more than {limit} bytes"
        super().__init__(
            "event",
            f"{measured} as a PutEvents entry; EventBridge accepts at most {limit} "
            "(send fewer or shorter messages, or pre-extracted artifacts instead)",
        )
        self.size = size
        self.limit = limit


class ConfigurationError(MemoryClientError):
    """The client cannot be set up: a missing setting, stack output or environment variable."""


class NotFoundError(MemoryClientError, NotFound):
    """A record the caller named does not exist (or is not visible to its tenant)."""


class ConflictError(MemoryClientError, Conflict):
    """The record is not in a state the operation applies to (approving an approved procedure)."""


class ForbiddenError(MemoryClientError, Forbidden):
    """The deployment refused the caller: its proven tenant is not the one it asked for."""

    def __init__(self, field: str, message: str) -> None:
        Forbidden.__init__(self, field, message)


class PublishError(MemoryClientError):
    """EventBridge did not accept the event, after the retries a transient error deserves."""

    def __init__(self, error_code: str, error_message: str, *, attempts: int) -> None:
        super().__init__(
            f"PutEvents failed after {attempts} attempt(s): {error_code}: {error_message}"
        )
        self.error_code = error_code
        self.error_message = error_message
        self.attempts = attempts


class RemoteFunctionError(MemoryClientError):
    """A Lambda function of the service failed (it raised, or could not be invoked)."""

    def __init__(self, function_name: str, error_type: str, error_message: str) -> None:
        super().__init__(f"{function_name} failed: {error_type}: {error_message}")
        self.function_name = function_name
        self.error_type = error_type
        self.error_message = error_message


class ConsolidationError(MemoryClientError):
    """A run's local consolidation failed; the run is recorded for replay under ``replay_key``.

    Replay it with ``agent-memory failed replay`` once the cause is fixed.
    """

    def __init__(self, run_id: str, step: str, cause: BaseException, replay_key: str) -> None:
        super().__init__(
            f"consolidation of run {run_id} failed at {step}: {type(cause).__name__}: {cause} "
            f"(recorded for replay as {replay_key})"
        )
        self.run_id = run_id
        self.step = step
        self.cause = cause
        self.replay_key = replay_key


class StoreUnavailableError(MemoryClientError, StoreUnavailable):
    """The local store cannot be opened: its key file or database is damaged, or its disk full
    or failing. The message names the file and what is wrong; retrying does not help until it
    is repaired.
    """


class ClientClosedError(MemoryClientError):
    """The client was closed: it accepts no more runs."""


def invalid(error: InvalidInput) -> InvalidInputError:
    """The SDK's form of a core ``InvalidInput`` (same field, same message; an event refused
    as too large before it was measured whole is an :class:`EventTooLargeError`).
    """
    if isinstance(error, InvalidInputError):
        return error
    if isinstance(error, EventTooLarge):
        return EventTooLargeError(None, error.limit)
    return InvalidInputError(error.field, error.message)


def answered(app: Application, message: Message[R]) -> R:
    """``app``'s answer to ``message``, the core's refusals raised as the SDK's errors."""
    try:
        return app.handle(message)
    except InvalidInput as error:
        raise invalid(error) from None
    except NotFound as error:
        raise NotFoundError(str(error)) from None
    except Conflict as error:
        raise ConflictError(str(error)) from None
    except Forbidden as error:
        raise ForbiddenError(error.field, error.message) from None
