"""Errors the SDK raises: one base class, and the core's own errors where they apply.

Every SDK error is a :class:`MemoryClientError`. The ones that mean the same as a core error
also subclass it (an :class:`InvalidInputError` is an ``InvalidInput``), so code written against
the core keeps working.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
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

    ``field`` names the offending field as a dotted path (``artifacts.facts[0].confidence``),
    the first of them: the message lists the others by path (up to 20), and says which field
    a misspelt name likely meant (``tenant: unknown field; did you mean tenant_id?``).
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


class NotSetUpError(ConfigurationError):
    """What the call needs is not installed or set up (an extra, an AWS region, credentials);
    the message says what to install or set. Retrying does not help until it is.
    """


class MissingExtraError(NotSetUpError):
    """An optional part the call needs is not installed: ``extra`` names the extra that adds
    it (the message gives the pip command, from where agent-memory was installed), ``module``
    the module that was missing.
    """

    def __init__(self, extra: str, module: str) -> None:
        from agent_memory.adapters.install import install_command

        super().__init__(
            f"this needs the [{extra}] extra ({module} is not installed): {install_command(extra)}"
        )
        self.extra = extra
        self.module = module


class MissingRegionError(NotSetUpError):
    """No AWS region is set: pass ``region=`` (``--region``), or set ``AWS_DEFAULT_REGION``."""

    def __init__(self) -> None:
        super().__init__(
            "no AWS region: give one (region=... in the SDK, --region on the command line), "
            "or set AWS_DEFAULT_REGION (or a region in your AWS profile)"
        )


class MissingCredentialsError(NotSetUpError):
    """No usable AWS credentials were found (none, or only part of a key pair)."""

    def __init__(self, detail: str) -> None:
        super().__init__(
            f"no usable AWS credentials ({detail}): set AWS_PROFILE, or AWS_ACCESS_KEY_ID with "
            "AWS_SECRET_ACCESS_KEY, or run `aws configure` (`aws sso login` for SSO)"
        )


# The extra that installs each optional top-level module a surface imports.
EXTRA_OF_MODULE = {
    "boto3": "aws",
    "botocore": "aws",
    "aws_lambda_powertools": "aws",
    "langchain_aws": "aws",
    "mcp": "mcp",
    "langgraph": "langgraph",
    "langchain_core": "langgraph",
    "strands": "strands",
}


def missing_extra(error: ImportError) -> MissingExtraError | None:
    """The :class:`MissingExtraError` of an import that failed for want of an extra; None for
    any other import error (a bug to show as it is).
    """
    name = (error.name or "").split(".", 1)[0]
    extra = EXTRA_OF_MODULE.get(name)
    return MissingExtraError(extra, name) if extra is not None else None


def aws_setup_error(error: BaseException) -> NotSetUpError | None:
    """The SDK's error for AWS that is not set up (no region, no credentials, no boto3);
    None for another error.
    """
    if isinstance(error, ImportError):
        return missing_extra(error)
    if not type(error).__module__.startswith("botocore"):
        return None
    kind = type(error).__name__
    if kind == "NoRegionError":
        return MissingRegionError()
    if kind in ("NoCredentialsError", "PartialCredentialsError"):
        return MissingCredentialsError(str(error))
    return None


@contextmanager
def aws_setup() -> Iterator[None]:
    """Raises AWS's setup failures (no region, credentials or boto3) as the SDK's errors."""
    try:
        yield
    except Exception as error:
        setup = aws_setup_error(error)
        if setup is None:
            raise
        raise setup from None


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
