"""The consolidation ASL deployed on moto, its Lambda tasks answered by the in-process handlers.

moto's Step Functions engine runs the real ``statemachines/consolidation.asl.json``; its Lambda
functions are placeholders whose invocations :func:`moto_with_handlers` routes (by patching
moto's ``LambdaSimpleBackend.invoke``) to :func:`handler_reply`. The workflow suite and the
resilience harness both run on this.
"""

from __future__ import annotations

import importlib
import io
import json
import os
import time
import traceback
import uuid
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

import boto3
from moto import mock_aws
from moto.awslambda_simple.models import LambdaSimpleBackend

from tests.integration.aws.moto_dynamodb import FAKE_CREDENTIALS, REGION
from tests.support.lambda_context import LambdaContext

ASL = Path(__file__).parents[2] / "statemachines" / "consolidation.asl.json"
# ASL placeholder -> the function folder serving it.
TASK_FUNCTIONS = {
    "ExtractFunctionArn": "extract",
    "ScrubFunctionArn": "scrub",
    "WriteEpisodeFunctionArn": "write_episode",
    "ConfirmFactsFunctionArn": "confirm_facts",
    "StageKbDocsFunctionArn": "stage_kb_docs",
    "ProposeProcedureFunctionArn": "propose_procedure",
    "RecordFailureFunctionArn": "record_failure",
}


# The environment the handlers' Powertools read, beside moto's fake credentials.
LAMBDA_ENVIRONMENT = {
    **FAKE_CREDENTIALS,
    "POWERTOOLS_TRACE_DISABLED": "true",
    "POWERTOOLS_METRICS_NAMESPACE": "AgentMemory",
    "POWERTOOLS_SERVICE_NAME": "agent-memory",
}

# Names of the state machines deployed, latest last: the call check binds the template's
# state machine to the one a handler's calls belong to.
DEPLOYED_MACHINES: list[str] = []


def deploy_consolidation(queue_url: str, *, prefix: str = "") -> tuple[Any, str]:
    """The state machine on moto, every placeholder substituted: its client and ARN."""
    iam = boto3.client("iam", region_name=REGION)
    role = iam.create_role(
        RoleName=f"{prefix}consolidation",
        AssumeRolePolicyDocument=json.dumps({"Version": "2012-10-17"}),
    )["Role"]["Arn"]
    awslambda = boto3.client("lambda", region_name=REGION)
    definition = ASL.read_text()
    for placeholder, name in TASK_FUNCTIONS.items():
        arn = awslambda.create_function(
            FunctionName=f"{prefix}{name}",
            Runtime="python3.12",
            Role=role,
            Handler="handler.handler",
            Code={"ZipFile": _placeholder_zip()},
        )["FunctionArn"]
        definition = definition.replace(f"${{{placeholder}}}", arn)
    definition = definition.replace("${DeadLetterQueueUrl}", queue_url)
    assert "${" not in definition
    sfn = boto3.client("stepfunctions", region_name=REGION)
    machine = sfn.create_state_machine(
        name=f"{prefix}consolidation", definition=definition, roleArn=role
    )
    DEPLOYED_MACHINES.append(f"{prefix}consolidation")
    return sfn, str(machine["stateMachineArn"])


@contextmanager
def moto_with_handlers(invocations: list[str] | None = None) -> Iterator[None]:
    """A moto account whose Step Functions run state machines and whose Lambda invocations
    run the in-process handlers; the name of each function invoked is appended to
    ``invocations``.
    """
    with (
        mock.patch.dict(os.environ, LAMBDA_ENVIRONMENT),
        mock_aws(
            config={
                "stepfunctions": {"execute_state_machine": True},
                "lambda": {"use_docker": False},
            }
        ),
        mock.patch.object(LambdaSimpleBackend, "invoke", route_to_handlers(invocations)),
    ):
        yield


def route_to_handlers(
    invocations: list[str] | None = None,
    around: Callable[[str, Callable[[], bytes]], bytes] | None = None,
) -> Callable[..., bytes]:
    """moto's Lambda invoke, calling the in-process handler as the Lambda service would; with
    ``around``, the call is made by ``around(function, call)`` (a meter timing it)."""

    def invoke(
        self: LambdaSimpleBackend,
        function_name: str,
        qualifier: str | None,
        body: Any,
        headers: Any,
        response_headers: Any,
    ) -> bytes:
        name = handler_name(function_name)
        if invocations is not None:
            invocations.append(name)

        def call() -> bytes:
            return handler_reply(name, body, response_headers, LambdaContext(name))

        return call() if around is None else around(name, call)

    return invoke


def handler_name(function_name: str) -> str:
    """The ``functions/`` folder a deployed function's name or ARN runs: the name without the
    prefix :func:`deploy_consolidation` gave it."""
    return function_name.rsplit(":", 1)[-1].split("-", 1)[-1]


def start_execution(sfn: Any, machine: str, event: Any) -> str:
    """Start an execution of state machine ``machine`` on ``event``; its ARN."""
    arn: str = sfn.start_execution(
        stateMachineArn=machine, name=f"run-{uuid.uuid4().hex[:16]}", input=json.dumps(event)
    )["executionArn"]
    return arn


def handler_reply(name: str, body: Any, response_headers: Any, context: Any) -> bytes:
    """Run ``functions/<name>/handler.py`` on ``body`` and answer as the Lambda service does,
    an unhandled exception included."""
    module = importlib.import_module(f"functions.{name}.handler")
    event = json.loads(body) if body else {}
    try:
        result = module.handler(event, context)
    except Exception as error:
        response_headers["x-amz-function-error"] = "Unhandled"
        return json.dumps(
            {
                "errorMessage": str(error),
                "errorType": type(error).__name__,
                "stackTrace": traceback.format_tb(error.__traceback__),
            }
        ).encode()
    return json.dumps(result).encode()


def _placeholder_zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("handler.py", "def handler(event, context):\n    return event\n")
    return buffer.getvalue()


def wait_for_execution(sfn: Any, arn: str, *, timeout: float, poll: float = 0.02) -> dict[str, Any]:
    """The description of execution ``arn`` once it has ended; fails after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        described: dict[str, Any] = sfn.describe_execution(executionArn=arn)
        if described["status"] != "RUNNING":
            return described
        time.sleep(poll)
    raise AssertionError(f"execution {arn} still running after {timeout}s")


def wait_until_none_running(
    sfn: Any, machine: str, *, timeout: float = 10.0, poll: float = 0.02
) -> None:
    """Wait up to ``timeout`` s for state machine ``machine`` to have no execution running,
    so none outlives the moto account it runs in.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        running = sfn.list_executions(stateMachineArn=machine, statusFilter="RUNNING")
        if not running["executions"]:
            return
        time.sleep(poll)
