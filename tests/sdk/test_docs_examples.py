"""Every ``python`` block of docs/sdk.md runs as written (see the page's last section).

Unmarked blocks run in local mode on a fresh store; blocks after ``<!-- docs-test: aws -->``
run against moto, with the functions answered in-process by the core; blocks after
``<!-- docs-test: skip -->`` are only compiled.
"""

from __future__ import annotations

import json
import os
import re
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

import boto3
import pytest
from moto import mock_aws
from moto.awslambda_simple.models import LambdaSimpleBackend

from agent_memory.app import Application
from agent_memory.app.wire import reply_json, review_message
from agent_memory.core.api.bootstrap_request import parse_bootstrap_request
from agent_memory.core.ports import MemoryPorts
from agent_memory.core.workflows.bootstrap import bootstrap
from agent_memory.wiring.local import local_ports
from agent_memory.wiring.local_settings import HOME_VARIABLE, LLM_VARIABLE, LocalSettings

DOC = Path(__file__).parents[2] / "docs" / "sdk.md"
BLOCK = re.compile(
    r"(?:^<!-- docs-test: (?P<mode>aws|skip) -->\n)?^```python\n(?P<code>.*?)^```$",
    re.MULTILINE | re.DOTALL,
)
REGION = "us-east-1"
STACK_OUTPUTS = {
    "EventBusName": "agent-memory",
    "BootstrapFunctionName": "agent-memory-bootstrap",
    "ProcedureReviewFunctionName": "agent-memory-procedure-review",
}


@dataclass(frozen=True)
class Block:
    line: int
    mode: str
    code: str


def blocks() -> list[Block]:
    text = DOC.read_text(encoding="utf-8")
    return [
        Block(text.count("\n", 0, m.start("code")) + 1, m.group("mode") or "local", m.group("code"))
        for m in BLOCK.finditer(text)
    ]


def run(block: Block) -> None:
    code = compile(block.code, f"{DOC.name}:{block.line}", "exec")
    if block.mode != "skip":
        exec(code, {"__name__": "__docs__"})


def test_the_page_has_examples_of_both_modes() -> None:
    modes = [b.mode for b in blocks()]

    assert modes.count("local") >= 4 and modes.count("aws") >= 2
    assert len(modes) == DOC.read_text(encoding="utf-8").count("```python")


@pytest.fixture
def local_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(HOME_VARIABLE, str(tmp_path / "store"))
    monkeypatch.delenv(LLM_VARIABLE, raising=False)
    return tmp_path / "store"


def deployed_function(ports: MemoryPorts) -> Callable[..., bytes]:
    """``LambdaSimpleBackend.invoke`` answered by the core, as the deployed functions would."""
    handlers: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
        STACK_OUTPUTS["BootstrapFunctionName"]: lambda event: bootstrap(
            parse_bootstrap_request(event), ports
        ),
        STACK_OUTPUTS["ProcedureReviewFunctionName"]: lambda event: _review(event, ports),
    }

    def invoke(
        self: LambdaSimpleBackend,
        function_name: str,
        qualifier: str | None,
        body: Any,
        headers: Any,
        response_headers: Any,
    ) -> bytes:
        handler = handlers[function_name.rsplit(":", 1)[-1]]
        try:
            return json.dumps(handler(json.loads(body or "{}"))).encode()
        except Exception as error:
            # What the Lambda service answers for an unhandled exception.
            response_headers["x-amz-function-error"] = "Unhandled"
            return json.dumps(
                {
                    "errorType": type(error).__name__,
                    "errorMessage": str(error),
                    "stackTrace": traceback.format_tb(error.__traceback__),
                }
            ).encode()

    return invoke


@pytest.fixture
def deployed(local_store: Path) -> Iterator[None]:
    """The stack in moto: its bus, its outputs, its functions, and the agent's environment."""
    environ = {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": REGION,
        "AGENT_MEMORY_EVENT_BUS": STACK_OUTPUTS["EventBusName"],
        "AGENT_MEMORY_BOOTSTRAP_FUNCTION": STACK_OUTPUTS["BootstrapFunctionName"],
        "AGENT_MEMORY_PROCEDURE_REVIEW_FUNCTION": STACK_OUTPUTS["ProcedureReviewFunctionName"],
    }
    ports = local_ports(LocalSettings(store=local_store.parent / "deployed"))
    with (
        mock.patch.dict(os.environ, environ),
        mock_aws(config={"lambda": {"use_docker": False}}),
        mock.patch.object(LambdaSimpleBackend, "invoke", deployed_function(ports)),
    ):
        bus = {"Type": "AWS::Events::EventBus", "Properties": {"Name": "agent-memory"}}
        template = {
            "Resources": {"Bus": bus},
            "Outputs": {key: {"Value": value} for key, value in STACK_OUTPUTS.items()},
        }
        boto3.client("cloudformation", region_name=REGION).create_stack(
            StackName="AgentMemory", TemplateBody=json.dumps(template)
        )
        yield


@pytest.mark.parametrize(
    "block", [b for b in blocks() if b.mode != "aws"], ids=lambda b: f"line-{b.line}"
)
def test_local_example_runs(block: Block, local_store: Path) -> None:
    run(block)


@pytest.mark.parametrize(
    "block", [b for b in blocks() if b.mode == "aws"], ids=lambda b: f"line-{b.line}"
)
def test_aws_example_runs(block: Block, deployed: None) -> None:
    run(block)


def _review(event: dict[str, Any], ports: MemoryPorts) -> dict[str, Any]:
    """What the review function answers (its parsing, the application, its reply)."""
    message = review_message(event)
    return reply_json(message, Application(ports).handle(message))
