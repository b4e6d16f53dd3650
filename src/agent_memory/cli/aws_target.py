"""Tenant-wide operations (export, forget, a fact's repair, flags) run against a deployed stack
from an operator's shell.

The CLI reads the stack's outputs and drives the same core over the AWS adapters, on the
caller's own credentials: data-subject export and erasure need no Lambda of their own, and
the functions' roles stay without cross-tenant delete rights.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from agent_memory.app import Application
from agent_memory.app.messages import ListRunsToReplay, RedeliveryOf
from agent_memory.cli.shared import NotSetUp
from agent_memory.core.model.run_records import FailureRecord, IncompleteRun
from agent_memory.core.model.tenant_identity import tenant_source
from agent_memory.core.workflows.consolidation import INCOMPLETE_AFTER_SECONDS
from agent_memory.sdk.errors import ConfigurationError, NotSetUpError, aws_setup_error

# Commands that work on a deployed stack; the rest run on the local store (on AWS their
# counterparts are the stack's functions and schedules).
AWS_COMMANDS = frozenset({"export", "facts", "failed", "flags", "forget", "history", "redact"})
# Receives of the dead-letter queue one replay makes at most, looking for the run's letters.
_MAX_RECEIVES = 50


class AwsCommandFailed(Exception):
    """An AWS call of the command failed (credentials, permissions, a missing resource)."""


def stack_application(stack_name: str, region: str | None) -> Application:
    """The application over the stack ``stack_name``, on the caller's credentials."""
    from agent_memory.sdk.aws import operator_application

    with aws_errors():
        return operator_application(stack_name, region=region, session=None)


@dataclass
class StackFailures:
    """The failed runs of a deployed stack: its run ledger's records, replayed by starting the
    state machine again with the run's event.

    The operator's credentials need, beyond reading the ledger table: ``states:DescribeExecution``
    (a record without its event), ``states:StartExecution`` on the state machine, and
    ``sqs:ReceiveMessage``, ``sqs:DeleteMessage`` and ``sqs:ChangeMessageVisibility`` on the
    dead-letter queue.
    """

    app: Application
    sfn: Any
    sqs: Any
    state_machine_arn: str
    queue_url: str

    def records(
        self, *, incomplete_after: float = INCOMPLETE_AFTER_SECONDS
    ) -> list[FailureRecord | IncompleteRun]:
        """Every run still to replay: the failed ones, then the incomplete ones."""
        runs = self.app.handle(ListRunsToReplay(incomplete_after))
        return [*runs.failed, *runs.incomplete]

    def replay(self, record: FailureRecord | IncompleteRun) -> str:
        """Start the state machine on the run's event; the execution's ARN.

        The execution is named after the record and its failure count (an incomplete run's,
        after its start), so replaying the same failure twice starts one execution; every
        step is idempotent per run besides. An incomplete run is redelivered by its identity:
        extract answers it from the run's record. The run's dead letters are deleted; its
        record goes when the run completes.
        """
        attempt: float
        if isinstance(record, IncompleteRun):
            event, attempt = self._redelivery(record), record.scrubbed_at
        else:
            # As the bus delivered it: under principal-tag tenancy extract reads the envelope's
            # source, and a failed run replays with the source it came with, no other.
            event, attempt = self._event(record), record.failures
        digest = hashlib.sha256(f"{record.key}#{attempt}".encode()).hexdigest()
        name = f"replay-{digest[:40]}"
        try:
            arn = str(
                self.sfn.start_execution(
                    stateMachineArn=self.state_machine_arn,
                    name=name,
                    input=json.dumps(event, ensure_ascii=False),
                )["executionArn"]
            )
        except self.sfn.exceptions.ExecutionAlreadyExists:
            arn = f"{self.state_machine_arn.replace(':stateMachine:', ':execution:')}:{name}"
        self._delete_letters(record.key)
        return arn

    def _event(self, record: FailureRecord) -> Any:
        event = record.event
        if event is None and record.execution:
            described = self.sfn.describe_execution(executionArn=record.execution)
            event = json.loads(described["input"])
        if event is None:
            raise AwsCommandFailed(
                f"{record.key}: neither the record nor its execution holds the run's event"
            )
        return event

    def _redelivery(self, entry: IncompleteRun) -> dict[str, Any]:
        """The run's identity with its tenant's source: extract accepted this run already, under
        either tenancy, and answers it from the run's record.
        """
        detail = self.app.handle(RedeliveryOf(entry.key))
        if detail is None:
            raise AwsCommandFailed(f"{entry.key}: the run's record is gone (expired?)")
        return {"source": tenant_source(str(detail["tenant_id"])), "detail": detail}

    def _delete_letters(self, key: str) -> None:
        for _ in range(_MAX_RECEIVES):
            messages = self.sqs.receive_message(
                QueueUrl=self.queue_url, MaxNumberOfMessages=10, VisibilityTimeout=30
            ).get("Messages", [])
            if not messages:
                return
            for message in messages:
                handle = message["ReceiptHandle"]
                if letter_key(message["Body"]) == key:
                    self.sqs.delete_message(QueueUrl=self.queue_url, ReceiptHandle=handle)
                else:
                    self.sqs.change_message_visibility(
                        QueueUrl=self.queue_url, ReceiptHandle=handle, VisibilityTimeout=0
                    )


def letter_key(body: str) -> str | None:
    """The failed-run key a dead-letter message names, if any."""
    try:
        letter = json.loads(body)
        return str(letter["failure"]["record"]["key"])
    except (ValueError, KeyError, TypeError):
        return None


def stack_failures(stack_name: str, region: str | None) -> StackFailures:
    """The failed runs of the stack ``stack_name``, on the caller's credentials."""
    from agent_memory.sdk.aws import stack_outputs
    from agent_memory.wiring.aws import AwsRuntime
    from agent_memory.wiring.aws_settings import AwsSettings

    with aws_errors():
        import boto3

        session = boto3.Session(region_name=region)
        outputs = stack_outputs(stack_name, region=region, session=session)
        for name in ("StateMachineArn", "DeadLetterQueueUrl"):
            if not outputs.get(name):
                raise AwsCommandFailed(f"stack {stack_name!r} has no {name} output")
        runtime = AwsRuntime(AwsSettings.from_stack_outputs(outputs), session=session)
        return StackFailures(
            app=runtime.application(None),
            sfn=session.client("stepfunctions"),
            sqs=session.client("sqs"),
            state_machine_arn=outputs["StateMachineArn"],
            queue_url=outputs["DeadLetterQueueUrl"],
        )


@contextmanager
def aws_errors() -> Iterator[None]:
    """Botocore's failures as one line the CLI can print; AWS that is not set up (no region,
    credentials or ``[aws]`` extra) as :class:`NotSetUp`, saying what to set or install.
    """
    try:
        yield
    except Exception as error:
        setup = error if isinstance(error, NotSetUpError) else aws_setup_error(error)
        if setup is not None:
            raise NotSetUp(str(setup)) from None
        if isinstance(error, ConfigurationError):
            raise AwsCommandFailed(str(error)) from None
        if not type(error).__module__.startswith("botocore"):
            raise
        from botocore.exceptions import BotoCoreError, ClientError

        if isinstance(error, ClientError):
            raise AwsCommandFailed(_client_error(error)) from None
        if isinstance(error, BotoCoreError):
            raise AwsCommandFailed(str(error)) from None
        raise


def _client_error(error: Any) -> str:
    details = error.response.get("Error", {})
    return f"{details.get('Code', 'ClientError')}: {details.get('Message', str(error))}"
