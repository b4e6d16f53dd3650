"""The SDK against a principal-tag deployment: a signed proof on every bootstrap, the tenant's
own source on every run, and the deployment's refusal as a typed error.
"""

from __future__ import annotations

import json
from typing import Any

import boto3
import pytest
from botocore.stub import ANY, Stubber

from agent_memory.adapters.aws.caller_identity import AUDIENCE_HEADER
from agent_memory.sdk import ForbiddenError, InvalidInputError, MemoryClient
from tests.sdk.conftest import (
    BOOTSTRAP_FUNCTION,
    BUS,
    REGION,
    accepted,
    boto_client,
    invoke_reply,
    run_event,
)
from tests.sdk.test_aws_client import REPLY


def tagged_client(events: Any, lambda_: Any) -> MemoryClient:
    session = boto3.Session(
        aws_access_key_id="ASIAEXAMPLEKEY", aws_secret_access_key="secret", region_name=REGION
    )
    return MemoryClient.aws(
        event_bus_name=BUS,
        bootstrap_function_name=f"arn:aws:lambda:{REGION}:123456789012:function:{BOOTSTRAP_FUNCTION}",
        events_client=events,
        lambda_client=lambda_,
        session=session,
        tenant_identity="principal-tag",
    )


def test_bootstrap_carries_a_proof_signed_for_the_bootstrap_function() -> None:
    # Given a client of a principal-tag deployment
    events, lambda_ = boto_client("events"), boto_client("lambda")
    client = tagged_client(events, lambda_)
    sent: list[dict[str, Any]] = []
    lambda_.meta.events.register(
        "before-parameter-build.lambda.Invoke",
        lambda params, **_: sent.append(json.loads(params["Payload"])),
    )
    with Stubber(lambda_) as stub:
        stub.add_response("invoke", invoke_reply(REPLY))
        stub.add_response("invoke", invoke_reply(REPLY))
        # When it asks for its memory twice
        for _ in range(2):
            client.bootstrap(tenant_id="acme", agent_id="reviewer", task="Review the MSA")
    # Then each request carries a SigV4-signed GetCallerIdentity naming the function by name
    proofs = [body["caller_identity"] for body in sent]
    assert proofs[0] == proofs[1]
    headers = proofs[0]["headers"]
    assert headers[AUDIENCE_HEADER] == BOOTSTRAP_FUNCTION
    assert AUDIENCE_HEADER in headers["Authorization"]
    assert proofs[0]["url"] == f"https://sts.{REGION}.amazonaws.com/"
    assert proofs[0]["body"] == "Action=GetCallerIdentity&Version=2011-06-15"


def test_runs_go_out_with_their_tenants_source() -> None:
    events, lambda_ = boto_client("events"), boto_client("lambda")
    client = tagged_client(events, lambda_)
    with Stubber(events) as stub:
        stub.add_response(
            "put_events",
            accepted(),
            {
                "Entries": [
                    {
                        "EventBusName": BUS,
                        "Source": "agent-memory.tenant.acme",
                        "DetailType": "RunFinished",
                        "Detail": ANY,
                    }
                ]
            },
        )
        client.finish_run(run_event("run-1"))
        stub.assert_no_pending_responses()


def test_a_refusal_is_a_forbidden_error_naming_the_field() -> None:
    events, lambda_ = boto_client("events"), boto_client("lambda")
    client = tagged_client(events, lambda_)
    refusal = {"errorType": "Forbidden", "errorMessage": "tenant_id: tagged for another tenant"}
    with Stubber(lambda_) as stub:
        stub.add_response("invoke", invoke_reply(refusal, function_error="Unhandled"))
        with pytest.raises(ForbiddenError) as caught:
            client.bootstrap(tenant_id="globex", agent_id="reviewer", task="Review the MSA")
    assert caught.value.field == "tenant_id"


def test_an_unknown_tenant_identity_is_refused_by_name() -> None:
    with pytest.raises(InvalidInputError, match="tenant_identity"):
        MemoryClient.aws(
            event_bus_name=BUS,
            bootstrap_function_name=BOOTSTRAP_FUNCTION,
            events_client=boto_client("events"),
            lambda_client=boto_client("lambda"),
            tenant_identity="header",
        )
