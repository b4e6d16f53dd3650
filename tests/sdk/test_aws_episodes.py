"""MemoryClient's single-episode operations on a deployed stack: each one invocation of the
stack's episodes function (behind a Stubber), checked before it is sent.
"""

from __future__ import annotations

import json
from typing import Any

import boto3
import pytest
from botocore.stub import Stubber

from agent_memory.adapters.aws.caller_identity import AUDIENCE_HEADER
from agent_memory.sdk import (
    ConfigurationError,
    ForbiddenError,
    InvalidInputError,
    MemoryClient,
    RemoteFunctionError,
)
from tests.sdk.conftest import (
    BOOTSTRAP_FUNCTION,
    BUS,
    EPISODES_FUNCTION,
    REGION,
    StubbedAws,
    boto_client,
    invoke_reply,
)
from tests.sdk.test_aws_client import FakeSession

EPISODE = {"run_id": "run-1", "agent_id": "reviewer", "task": "Review the MSA"}


def expect(aws: StubbedAws, request: dict[str, Any], reply: object, **options: Any) -> None:
    """The episodes function invoked with ``request`` exactly, answering ``reply``."""
    aws.lambda_.add_response(
        "invoke",
        invoke_reply(reply, **options),
        {
            "FunctionName": EPISODES_FUNCTION,
            "InvocationType": "RequestResponse",
            "Payload": json.dumps(request).encode(),
        },
    )


def test_each_operation_is_one_invocation_of_the_episodes_function(aws: StubbedAws) -> None:
    # Given the function's replies to a read, a page, a forget and the agents
    who = {"tenant_id": "acme", "agent_id": "reviewer"}
    expect(aws, {"action": "get", **who, "run_id": "run-1"}, {"episode": EPISODE})
    page = {"episodes": [EPISODE], "cursor": "c2"}
    expect(aws, {"action": "list", "tenant_id": "acme", "limit": 1, **who}, page)
    expect(aws, {"action": "forget", **who, "run_id": "run-1"}, {"forgotten": True})
    expect(aws, {"action": "agents", "tenant_id": "acme"}, {"agents": ["reviewer"]})
    # When the client is asked for each, then each answers with the function's reply
    assert aws.client.get_episode("acme", "reviewer", "run-1") == EPISODE
    assert aws.client.list_episodes("acme", "reviewer", limit=1) == page
    assert aws.client.forget_run("acme", "reviewer", "run-1") is True
    assert aws.client.list_agents("acme") == ["reviewer"]


def test_a_page_asked_for_by_cursor_sends_it(aws: StubbedAws) -> None:
    request = {"action": "list", "tenant_id": "acme", "limit": 100, "cursor": "c2"}
    expect(aws, {**request, "agent_id": "reviewer"}, {"episodes": [], "cursor": None})
    assert aws.client.list_episodes("acme", "reviewer", cursor="c2")["cursor"] is None


def test_a_bad_request_is_refused_before_invoking(aws: StubbedAws) -> None:
    # Then each names its field, and nothing is invoked (no response is queued)
    with pytest.raises(InvalidInputError) as refused:
        aws.client.get_episode("acme", "reviewer", "run 1")
    assert refused.value.field == "run_id"
    with pytest.raises(InvalidInputError) as refused:
        aws.client.list_episodes("acme", "reviewer", limit=0)
    assert refused.value.field == "limit"
    with pytest.raises(InvalidInputError) as refused:
        aws.client.list_agents("acme/x")
    assert refused.value.field == "tenant_id"


def test_the_functions_refusal_names_the_field(aws: StubbedAws) -> None:
    error = {"errorType": "InvalidInput", "errorMessage": "cursor: is not a cursor of a page"}
    request = {"action": "list", "tenant_id": "acme", "limit": 100, "cursor": "bogus"}
    expect(aws, {**request, "agent_id": "reviewer"}, error, function_error="Unhandled")
    with pytest.raises(InvalidInputError) as refused:
        aws.client.list_episodes("acme", "reviewer", cursor="bogus")
    assert refused.value.field == "cursor"


def test_a_reply_without_its_result_is_an_error(aws: StubbedAws) -> None:
    expect(aws, {"action": "agents", "tenant_id": "acme"}, {"episodes": []})
    with pytest.raises(RemoteFunctionError, match="no agents"):
        aws.client.list_agents("acme")


def test_a_stack_without_the_episodes_function_says_what_is_missing() -> None:
    # Given a client of a stack deployed before the episodes function (no such output)
    client = MemoryClient.aws(
        event_bus_name=BUS,
        bootstrap_function_name=BOOTSTRAP_FUNCTION,
        events_client=boto_client("events"),
        lambda_client=boto_client("lambda"),
    )
    # Then each single-episode operation names the setting and the output
    with pytest.raises(ConfigurationError, match="EpisodesFunctionName") as refused:
        client.get_episode("acme", "reviewer", "run-1")
    assert "episodes_function_name" in str(refused.value)


def _stack(outputs: dict[str, str]) -> dict[str, Any]:
    return {
        "StackName": "AgentMemory",
        "CreationTime": "2026-01-01T00:00:00Z",
        "StackStatus": "CREATE_COMPLETE",
        "Outputs": [{"OutputKey": k, "OutputValue": v} for k, v in outputs.items()],
    }


@pytest.mark.parametrize("deployed", [True, False])
def test_the_stack_outputs_name_the_episodes_function_if_it_has_one(deployed: bool) -> None:
    # Given a stack's outputs, with or without EpisodesFunctionName
    outputs = {"EventBusName": BUS, "BootstrapFunctionName": BOOTSTRAP_FUNCTION}
    if deployed:
        outputs["EpisodesFunctionName"] = "AgentMemory-Episodes"
    cloudformation = boto_client("cloudformation")
    with Stubber(cloudformation) as stub:
        stub.add_response("describe_stacks", {"Stacks": [_stack(outputs)]})
        # When a client is configured from them
        client = MemoryClient.aws_from_stack(session=FakeSession(cloudformation=cloudformation))
    # Then it invokes that function, or knows it has none
    backend: Any = client._backend
    assert backend.episodes_function_name == ("AgentMemory-Episodes" if deployed else None)


def test_the_environment_names_the_episodes_function() -> None:
    environ = {
        "AGENT_MEMORY_EVENT_BUS": BUS,
        "AGENT_MEMORY_BOOTSTRAP_FUNCTION": BOOTSTRAP_FUNCTION,
        "AGENT_MEMORY_EPISODES_FUNCTION": "AgentMemory-Episodes",
    }
    client = MemoryClient.aws_from_env(environ, session=FakeSession())
    backend: Any = client._backend
    assert backend.episodes_function_name == "AgentMemory-Episodes"


def tagged_client(lambda_: Any) -> MemoryClient:
    session = boto3.Session(
        aws_access_key_id="ASIAEXAMPLEKEY", aws_secret_access_key="secret", region_name=REGION
    )
    return MemoryClient.aws(
        event_bus_name=BUS,
        bootstrap_function_name=BOOTSTRAP_FUNCTION,
        episodes_function_name=f"arn:aws:lambda:{REGION}:123456789012:function:{EPISODES_FUNCTION}",
        events_client=boto_client("events"),
        lambda_client=lambda_,
        session=session,
        tenant_identity="principal-tag",
    )


def test_under_principal_tag_each_request_carries_a_proof_for_the_episodes_function() -> None:
    # Given a client of a principal-tag deployment
    lambda_ = boto_client("lambda")
    client = tagged_client(lambda_)
    sent: list[dict[str, Any]] = []
    lambda_.meta.events.register(
        "before-parameter-build.lambda.Invoke",
        lambda params, **_: sent.append(json.loads(params["Payload"])),
    )
    with Stubber(lambda_) as stub:
        stub.add_response("invoke", invoke_reply({"episode": None}))
        forbidden = {"errorType": "Forbidden", "errorMessage": "tenant_id: not the caller's"}
        stub.add_response("invoke", invoke_reply(forbidden, function_error="Unhandled"))
        # When it reads a run, then asks for another tenant's agents
        assert client.get_episode("acme", "reviewer", "run-1") is None
        with pytest.raises(ForbiddenError) as refused:
            client.list_agents("globex")
    # Then each request carries a proof naming the episodes function (not bootstrap)
    headers = [body["caller_identity"]["headers"] for body in sent]
    assert [h[AUDIENCE_HEADER] for h in headers] == [EPISODES_FUNCTION] * 2
    assert sent[0]["run_id"] == "run-1"
    # And the deployment's refusal names the field
    assert refused.value.field == "tenant_id"
