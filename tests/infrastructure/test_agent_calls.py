"""Every AWS call the SDK's AWS backend makes on an agent's behalf is granted by the agent policy
the stack outputs (``AgentPolicyArn``), the one docs/aws.md tells a deployer to attach: the SDK
is driven through its public API on offline clients, each call it makes is turned into the IAM
requests AWS authorizes (``tests/support/iam_check.py``) and evaluated against that policy.

IAM's evaluation logic:
https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic.html;
DescribeStacks is authorized on the stack's ARN
(https://docs.aws.amazon.com/service-authorization/latest/reference/list_awscloudformation.html).
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from botocore.response import StreamingBody

from agent_memory.sdk import MemoryClient
from stacks.memory_stack import MemoryStack
from tests.infrastructure.helpers import Resources, logical_id
from tests.infrastructure.test_call_coverage import SETTINGS
from tests.sdk.test_aws_client import REPLY
from tests.support.aws_calls import template_of
from tests.support.botocore_answers import answer, offline_client
from tests.support.iam_check import (
    ACCOUNT,
    Deployment,
    Policy,
    Request,
    Tables,
    Template,
    requests_for,
)

REGION = "us-east-1"
STACK = "AgentMemory"
NAMES = {"bus": "AgentMemory-events", "bootstrap": "AgentMemory-Bootstrap"}
NAMES |= {"episodes": "AgentMemory-Episodes", "review": "AgentMemory-Review"}


def _function_arn(name: str) -> str:
    return f"arn:aws:lambda:{REGION}:{ACCOUNT}:function:{name}"


class RecordingSession:
    """A boto3 session whose clients answer offline and record each call's parameters."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, dict[str, Any]]] = []

    def client(self, service: str, region_name: str | None = None, **_: Any) -> Any:
        client = offline_client(service)

        def record(params: dict[str, Any], model: Any, **__: Any) -> None:
            self.calls.append((service, model.name, json.loads(json.dumps(params, default=str))))

        client.meta.events.register("before-parameter-build", record)
        for operation, respond in _ANSWERS.get(service, {}).items():
            answer(client, operation, respond)
        return client


def _outputs(_: dict[str, Any]) -> dict[str, Any]:
    outputs = {
        "EventBusName": NAMES["bus"],
        "BootstrapFunctionName": NAMES["bootstrap"],
        "EpisodesFunctionName": NAMES["episodes"],
        "ProcedureReviewFunctionName": NAMES["review"],
    }
    return {
        "Stacks": [
            {
                "StackName": STACK,
                "CreationTime": "2026-01-01T00:00:00Z",
                "StackStatus": "CREATE_COMPLETE",
                "Outputs": [{"OutputKey": k, "OutputValue": v} for k, v in outputs.items()],
            }
        ]
    }


SEARCH_REPLY = {
    "episodes": [],
    "units": [],
    "ranked_by": None,
    "left_out": {"episodes": 0, "units": 0},
}


FLAG_REPLY = {
    "flag": {
        "flag_id": "reviewer:episode:reviewer/run-1",
        "agent_id": "reviewer",
        "kind": "episode",
        "record_id": "reviewer/run-1",
        "reason": "Wrong cap",
        "flagged_at": 1.0,
        "run_id": None,
    }
}


def _invoked(params: dict[str, Any]) -> dict[str, Any]:
    request = json.loads(params["Payload"])
    replies = {"agents": {"agents": ["reviewer"]}, "search": SEARCH_REPLY, "flag": FLAG_REPLY}
    reply = replies.get(request.get("action"), REPLY)
    body = json.dumps(reply).encode()
    return {"StatusCode": 200, "Payload": StreamingBody(io.BytesIO(body), len(body))}


_ANSWERS = {
    "cloudformation": {"DescribeStacks": _outputs},
    "events": {
        "PutEvents": lambda params: {
            "FailedEntryCount": 0,
            "Entries": [{"EventId": "evt-1"} for _ in params["Entries"]],
        }
    },
    "lambda": {"Invoke": _invoked},
}


def agent_policy(stack: MemoryStack, resources: Resources) -> Policy:
    """The stack's agent policy, resolved for a deployment whose physical names are NAMES."""
    template: Template = template_of(stack, resources)
    bindings = {
        logical_id(stack.consolidation.bus): {
            "Ref": NAMES["bus"],
            "Arn": f"arn:aws:events:{REGION}:{ACCOUNT}:event-bus/{NAMES['bus']}",
        },
        **{
            logical_id(stack.functions[name]): {
                "Ref": NAMES[name],
                "Arn": _function_arn(NAMES[name]),
            }
            for name in ("bootstrap", "episodes", "review")
            if name in stack.functions.functions
        },
    }
    policy_id = logical_id(stack.agent_access.policy)
    return template.managed_policy(policy_id, Deployment(SETTINGS, REGION), bindings)


def agent_requests(session: RecordingSession) -> list[Request]:
    return [
        request
        for service, operation, params in session.calls
        for request in requests_for(service, operation, params, region=REGION, tables=Tables({}))
    ]


@pytest.fixture
def session() -> RecordingSession:
    # Given an agent using the SDK's AWS backend as the README shows: from the stack's name,
    # then a run reported, memory asked for and searched, an item flagged, and its tenant's
    # agents named
    session = RecordingSession()
    client = MemoryClient.aws_from_stack(STACK, region=REGION, session=session)
    client.finish_run(
        {
            "tenant_id": "acme",
            "agent_id": "reviewer",
            "run_id": "run-1",
            "task": "Review the Northwind MSA",
            "outcome": "COMPLETED",
        }
    ).wait()
    client.bootstrap("acme", "reviewer", "Review the Northwind MSA")
    client.search_episodes("acme", "reviewer", "liability cap")
    client.flag_memory("acme", "reviewer", "episode", "run-1", "Wrong cap")
    client.list_agents("acme")
    client.close()
    return session


def test_the_agent_makes_the_calls_the_docs_name(session: RecordingSession) -> None:
    # Guards the test below against passing on no call at all
    made = {(service, operation) for service, operation, _ in session.calls}
    assert made >= {
        ("cloudformation", "DescribeStacks"),
        ("events", "PutEvents"),
        ("lambda", "Invoke"),
    }


def test_every_call_of_the_agent_is_granted_by_the_agent_policy(
    stack: MemoryStack, resources: Resources, session: RecordingSession
) -> None:
    policy = agent_policy(stack, resources)
    # When each call is checked against the policy the docs tell a deployer to attach
    refused = [r for r in agent_requests(session) if not policy.decide(r, {})[0]]
    # Then none is refused (before: DescribeStacks, which aws_from_stack makes first)
    assert refused == []


def test_the_agent_policy_grants_no_other_functions_or_buses(
    stack: MemoryStack, resources: Resources
) -> None:
    policy = agent_policy(stack, resources)
    # Given calls an agent must not make: the review function, another bus, another stack
    forbidden = [
        Request.of("lambda:InvokeFunction", _function_arn(NAMES["review"])),
        Request.of(
            "events:PutEvents",
            f"arn:aws:events:{REGION}:{ACCOUNT}:event-bus/default",
            {"events:detail-type": ("RunFinished",), "events:source": ("agent-memory.sdk",)},
        ),
        Request.of(
            "cloudformation:DescribeStacks",
            f"arn:aws:cloudformation:{REGION}:{ACCOUNT}:stack/Other/0000",
        ),
    ]
    # Then the policy refuses each
    assert [r for r in forbidden if policy.decide(r, {})[0]] == []
