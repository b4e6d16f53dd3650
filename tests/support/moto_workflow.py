"""The consolidation ASL deployed on moto, its Lambda tasks answered by the in-process handlers.

moto's Step Functions engine runs the real ``statemachines/consolidation.asl.json``; its Lambda
functions are placeholders whose invocations a test routes (by patching moto's
``LambdaSimpleBackend.invoke``) to :func:`handler_reply`.
"""

from __future__ import annotations

import importlib
import io
import json
import time
import traceback
import zipfile
from pathlib import Path
from typing import Any

import boto3

from tests.integration.aws.moto_dynamodb import REGION

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
