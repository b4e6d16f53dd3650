"""Tenant-wide operations (export, forget) run against a deployed stack from an operator's shell.

The CLI reads the stack's outputs and drives the same core over the AWS adapters, on the
caller's own credentials: data-subject export and erasure need no Lambda of their own, and
the functions' roles stay without cross-tenant delete rights.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from agent_memory.core.ports import MemoryPorts

# Commands that work on a deployed stack; the rest run on the local store (on AWS their
# counterparts are the stack's functions and schedules).
AWS_COMMANDS = frozenset({"export", "forget"})


class AwsCommandFailed(Exception):
    """An AWS call of the command failed (credentials, permissions, a missing resource)."""


def stack_ports(stack_name: str, region: str | None) -> MemoryPorts:
    """The core's ports over the stack ``stack_name``, on the caller's credentials."""
    from agent_memory.sdk.aws import stack_outputs
    from agent_memory.serverless.settings import AwsSettings
    from agent_memory.serverless.wiring import AwsRuntime

    with aws_errors():
        import boto3

        session = boto3.Session(region_name=region)
        outputs = stack_outputs(stack_name, region=region, session=session)
        return AwsRuntime(AwsSettings.from_stack_outputs(outputs), session=session).ports(None)


@contextmanager
def aws_errors() -> Iterator[None]:
    """Botocore's failures as one line the CLI can print."""
    from botocore.exceptions import BotoCoreError, ClientError

    from agent_memory.sdk.errors import ConfigurationError

    try:
        yield
    except ConfigurationError as error:
        raise AwsCommandFailed(str(error)) from None
    except ClientError as error:
        raise AwsCommandFailed(_client_error(error)) from None
    except BotoCoreError as error:
        raise AwsCommandFailed(str(error)) from None


def _client_error(error: Any) -> str:
    details = error.response.get("Error", {})
    return f"{details.get('Code', 'ClientError')}: {details.get('Message', str(error))}"
