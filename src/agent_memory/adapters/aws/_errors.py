"""How AWS failures reach the core: throttling and service outages become ``TransientError``.

botocore already retries these with backoff; what still fails after its retries is raised as
``TransientError`` so entry points (and Step Functions' Retry) can try again later. Every other
failure is re-raised unchanged: it is a bug or a misconfiguration, not something to wait out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

from botocore.exceptions import (  # type: ignore[import-untyped, unused-ignore]
    BotoCoreError,
    ClientError,
    HTTPClientError,
)
from botocore.exceptions import (  # type: ignore[import-untyped, unused-ignore]
    ConnectionError as BotoConnectionError,
)

from agent_memory.core.api.contracts import ID_PATTERN
from agent_memory.core.model.errors import InvalidInput, TransientError

# botocore's own throttling list (retries/standard.py) plus the services' transient faults.
THROTTLING_CODES = frozenset(
    {
        "Throttling",
        "ThrottlingException",
        "ThrottledException",
        "RequestThrottledException",
        "TooManyRequestsException",
        "ProvisionedThroughputExceededException",
        "RequestLimitExceeded",
        "BandwidthLimitExceeded",
        "LimitExceededException",
        "RequestThrottled",
        "SlowDown",
    }
)
TRANSIENT_CODES = frozenset(
    {
        "RequestTimeout",
        "RequestTimeoutException",
        "PriorRequestNotComplete",
        "InternalError",
        "InternalFailure",
        "InternalServerException",
        "InternalServerError",
        "ServiceUnavailable",
        "ServiceUnavailableException",
        "BadGatewayException",
        "DependencyFailedException",
        "ModelNotReadyException",
        "ModelTimeoutException",
    }
)


def error_code(error: BaseException) -> str:
    """The AWS error code of a ``ClientError`` ("" for anything else)."""
    if isinstance(error, ClientError):
        return str(error.response.get("Error", {}).get("Code", ""))
    return ""


def is_transient(error: BaseException) -> bool:
    """True for throttling, 5xx faults and connection failures: worth retrying later."""
    if isinstance(error, BotoConnectionError | HTTPClientError):
        return True
    if not isinstance(error, ClientError):
        return False
    status = error.response.get("ResponseMetadata", {}).get("HTTPStatusCode", 0)
    code = error_code(error)
    return code in THROTTLING_CODES or code in TRANSIENT_CODES or status == 429 or status >= 500


@contextmanager
def transient_errors(operation: str) -> Iterator[None]:
    """Raise ``TransientError`` (chained) for transient AWS failures inside the block."""
    try:
        yield
    except (ClientError, BotoCoreError) as error:
        if is_transient(error):
            reason = error_code(error) or type(error).__name__
            raise TransientError(f"{operation}: {reason}") from error
        raise


_IDENTIFIER = re.compile(ID_PATTERN)


def require_identifier(value: str, field: str) -> str:
    """``value`` if it matches the RunFinished identifier pattern, else ``InvalidInput``.

    Adapters build S3 prefixes, key conditions and IAM grants from identifiers, where a ``/``,
    ``#``, ``*`` or a trailing newline would widen what they reach.
    """
    if not isinstance(value, str) or _IDENTIFIER.fullmatch(value) is None:
        raise InvalidInput(field, f"must match {ID_PATTERN}")
    return value
