"""Timeouts nest: an AWS call ends inside its Lambda, and a Lambda inside its Task.

A client that outlives its function turns a slow call into a killed sandbox
(``Sandbox.Timedout``, https://docs.aws.amazon.com/lambda/latest/dg/troubleshooting-invocation.html#troubleshooting-timeouts);
a function that outlives its Task's ``TimeoutSeconds`` turns it into ``States.Timeout`` while
the function still writes (https://docs.aws.amazon.com/step-functions/latest/dg/concepts-error-handling.html).
botocore's timeouts and retry modes:
https://botocore.amazonaws.com/v1/documentation/api/latest/reference/config.html and
https://docs.aws.amazon.com/sdkref/latest/guide/feature-retry-behavior.html.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any
from unittest import mock

import aws_cdk as cdk
import botocore.loaders
import botocore.session
import pytest
from aws_cdk.assertions import Template

from agent_memory.wiring import aws as wiring
from agent_memory.wiring.aws_client_config import max_backoff
from stacks.consolidation import STEP_FUNCTIONS, substitution_name
from stacks.functions import LLM_EXTRACT_TIMEOUT_SECONDS, SPECS
from stacks.memory_stack import MemoryStack
from tests.infrastructure.helpers import Resources, invoked_functions, logical_id

# Every service a function's runtime makes a client for.
SERVICES = (
    "dynamodb",
    "s3",
    "bedrock-runtime",
    "bedrock-agent",
    "bedrock-agent-runtime",
    "comprehend",
    "secretsmanager",
    "sts",
)
# botocore's legacy retry mode, its default: 5 attempts, 11 for DynamoDB.
_LEGACY_ATTEMPTS = {"dynamodb": 11}


@pytest.fixture(scope="module")
def llm_stack(context: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> MemoryStack:
    """The stack with a chat model, whose extract function gets the LLM's longer timeout."""
    app = cdk.App(
        context={**context, "chatModelId": "us.anthropic.claude-sonnet-4-6"},
        outdir=str(tmp_path_factory.mktemp("cdk.out.llm")),
    )
    return MemoryStack(app, "AgentMemoryLlm")


def _attempts(service: str, retries: dict[str, Any] | None) -> int:
    if not retries or retries.get("mode", "legacy") == "legacy":
        return _LEGACY_ATTEMPTS.get(service, 5)
    if "total_max_attempts" in retries:
        return int(retries["total_max_attempts"])
    return int(retries.get("max_attempts", 2)) + 1


def worst_call_seconds(service: str, client: Any) -> float:
    """The longest one call of ``client`` can take: every attempt connecting and reading to
    its timeout, plus standard mode's longest backoffs between them."""
    config = client.meta.config
    attempts = _attempts(service, config.retries)
    return attempts * (config.connect_timeout + config.read_timeout) + max_backoff(attempts)


def _environment(function: dict[str, Any]) -> dict[str, str]:
    """The function's environment as Lambda would set it; references become placeholders."""
    variables = function["Properties"]["Environment"]["Variables"]
    return {k: v if isinstance(v, str) else f"placeholder-{k}" for k, v in variables.items()}


_LOADER = botocore.loaders.create_loader()
_get_session = botocore.session.get_session


def _session_sharing_models(*args: Any, **kwargs: Any) -> botocore.session.Session:
    """A botocore session as usual, on one loader of service models (loading them anew for
    every client made here would take most of this module's time)."""
    session = _get_session(*args, **kwargs)
    session.register_component("data_loader", _LOADER)
    return session


def _runtime_clients(environment: dict[str, str]) -> dict[str, Any]:
    """The clients the function's runtime makes, built as a cold start builds them."""
    env = {**environment, "AWS_DEFAULT_REGION": "us-east-1", "AWS_ACCESS_KEY_ID": "x"}
    env["AWS_SECRET_ACCESS_KEY"] = "x"
    with (
        mock.patch.dict(os.environ, env),
        mock.patch.object(wiring, "_current", None),
        mock.patch.object(botocore.session, "get_session", _session_sharing_models),
    ):
        runtime = wiring.runtime()
        return {service: runtime.client(service) for service in SERVICES}


def _resources(stack: MemoryStack) -> Resources:
    return dict(Template.from_stack(stack).to_json()["Resources"])


def _functions(stack: MemoryStack) -> dict[str, dict[str, Any]]:
    resources = _resources(stack)
    return {spec.name: resources[logical_id(stack.functions[spec.name])] for spec in SPECS}


@pytest.mark.parametrize("with_llm", [False, True], ids=["no-llm", "llm"])
def test_every_aws_call_ends_inside_its_lambda(
    stack: MemoryStack, llm_stack: MemoryStack, with_llm: bool
) -> None:
    # Given every function of the stack, with and without a chat model
    functions = _functions(llm_stack if with_llm else stack)
    for name, function in functions.items():
        timeout = function["Properties"]["Timeout"]
        # When its runtime makes its clients, from the environment the stack gives it
        clients = _runtime_clients(_environment(function))
        # Then one call of any of them, retries and backoff included, ends before the function
        for service, client in clients.items():
            assert worst_call_seconds(service, client) < timeout, (name, service, timeout)
    if with_llm:
        assert functions["extract"]["Properties"]["Timeout"] == LLM_EXTRACT_TIMEOUT_SECONDS


@pytest.mark.parametrize("with_llm", [False, True], ids=["no-llm", "llm"])
def test_every_lambda_ends_inside_its_task(
    stack: MemoryStack, llm_stack: MemoryStack, with_llm: bool
) -> None:
    # Given the state machine's Lambda tasks and the functions they invoke
    chosen = llm_stack if with_llm else stack
    resources = _resources(chosen)
    functions = {s.name: resources[logical_id(chosen.functions[s.name])] for s in SPECS}
    machine = resources[logical_id(chosen.consolidation.state_machine)]["Properties"]
    states = json.loads(machine["DefinitionString"])["States"]
    by_placeholder = {f"${{{substitution_name(n)}}}": n for n in STEP_FUNCTIONS}
    tasks = {by_placeholder[p]: s for p, s in invoked_functions(states).items()}
    # Then every step has its task, and each task waits longer than its function may run
    assert set(tasks) == set(STEP_FUNCTIONS)
    for name, task in tasks.items():
        lambda_timeout = functions[name]["Properties"]["Timeout"]
        assert lambda_timeout < task["TimeoutSeconds"], (name, lambda_timeout)


def test_a_timed_out_function_is_retried_by_every_lambda_task(stack: MemoryStack) -> None:
    """Lambda reports a function that ran out of time as ``Sandbox.Timedout``; Step Functions'
    guide files function timeouts under ``Lambda.Unknown``
    (https://docs.aws.amazon.com/step-functions/latest/dg/bp-lambda-serviceexception.html).
    """
    # Given every Lambda task of the ASL
    definition = Path(__file__).parents[2] / "statemachines" / "consolidation.asl.json"
    states = json.loads(definition.read_text())["States"]
    tasks = list(invoked_functions(states).values())
    assert len(tasks) == len(STEP_FUNCTIONS)
    for task in tasks:
        # Then its retrier of Lambda's own errors also retries a timed-out function
        [retrier] = [r for r in task["Retry"] if "Lambda.ServiceException" in r["ErrorEquals"]]
        assert {"Sandbox.Timedout", "Lambda.Unknown"} <= set(retrier["ErrorEquals"])
