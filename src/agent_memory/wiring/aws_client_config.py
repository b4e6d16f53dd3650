"""Timeouts and retries of every AWS client a function makes, sized to the function's own timeout.

botocore's defaults (60 s connect, 60 s read, 5 attempts; 11 for DynamoDB) let one slow call
outlive a 15 s or 30 s Lambda, which then dies with ``Sandbox.Timedout`` instead of failing the
call as transient. Here one call, every attempt and the backoff between them included, ends
within :data:`CALL_SHARE` of the function's timeout, so a failed call surfaces as an error the
state machine's retriers know; the Task's own ``TimeoutSeconds`` is longer than the function's
(``tests/infrastructure/test_timeouts.py`` checks that every layer nests inside the next).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import boto3
import botocore.session
from botocore.config import Config

from agent_memory.wiring.aws_settings import AwsSettings

# Share of the function's timeout one AWS call may take in the worst case; the rest is for the
# function's own work and its other calls.
CALL_SHARE = 0.8
# One retry in the client: the state machine retries a failed step again, with backoff.
ATTEMPTS = 2
MAX_CONNECT_SECONDS = 5
# botocore's own read timeout: no call of these functions needs longer.
MAX_READ_SECONDS = 60
# Standard mode waits at most 2**(n-1) s (jittered, capped at 20 s) before retry n.
_STANDARD_MAX_BACKOFF = 20.0


@dataclass(frozen=True, slots=True)
class ClientBudget:
    """How long one AWS call may take: per attempt, attempts, and in the worst case."""

    connect_seconds: int
    read_seconds: int
    attempts: int

    @property
    def worst_case_seconds(self) -> float:
        """Every attempt connecting and reading to its timeout, plus the longest backoffs."""
        return self.attempts * (self.connect_seconds + self.read_seconds) + max_backoff(
            self.attempts
        )

    def config(self) -> Config:
        """The botocore ``Config`` of these limits (standard retry mode)."""
        return Config(
            connect_timeout=self.connect_seconds,
            read_timeout=self.read_seconds,
            retries={"mode": "standard", "total_max_attempts": self.attempts},
        )


def max_backoff(attempts: int) -> float:
    """The longest total wait standard retry mode can add to ``attempts`` attempts."""
    return sum(min(2.0**retry, _STANDARD_MAX_BACKOFF) for retry in range(attempts - 1))


def budget_for(timeout_seconds: int | None) -> ClientBudget:
    """The limits of one call in a function that times out after ``timeout_seconds``.

    None (an operator's shell, no Lambda around it): botocore's own read timeout, a short
    connect timeout and three attempts.
    """
    if timeout_seconds is None:
        return ClientBudget(connect_seconds=10, read_seconds=MAX_READ_SECONDS, attempts=3)
    connect = max(1, min(MAX_CONNECT_SECONDS, timeout_seconds // 10))
    share = CALL_SHARE * timeout_seconds - max_backoff(ATTEMPTS)
    read = min(MAX_READ_SECONDS, math.floor(share / ATTEMPTS) - connect)
    if read < 1:
        raise ValueError(f"a {timeout_seconds} s function leaves no time for an AWS call")
    return ClientBudget(connect_seconds=connect, read_seconds=read, attempts=ATTEMPTS)


def client_config(settings: AwsSettings) -> Config:
    """The botocore ``Config`` of every client of a function with these settings."""
    return budget_for(settings.timeout_seconds).config()


def configured_session(settings: AwsSettings, *, region_name: str | None = None) -> boto3.Session:
    """A boto3 session whose every client (tenant-scoped ones included) has
    :func:`client_config`'s timeouts and retries, unless a client asks for others.
    """
    core = botocore.session.get_session()
    core.set_default_client_config(client_config(settings))
    return boto3.Session(botocore_session=core, region_name=region_name)
