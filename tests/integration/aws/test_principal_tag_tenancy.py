"""Principal-tag tenancy through the real handlers on moto: a caller of tenant A can neither
read nor write tenant B, whatever its payload says.

IAM is moto's (roles with a ``tenant_id`` tag); STS's answer to a proof is a stand-in
``send`` returning the signer's ARN, since the HTTP round trip to STS is tested on a moto
server in ``test_caller_identity.py``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import boto3
import pytest

from agent_memory.adapters.aws.caller_identity import CallerTenants, identity_proof
from agent_memory.core.model.errors import Forbidden
from agent_memory.core.model.tenant_identity import TenantIdentity, tenant_source
from agent_memory.core.workflows import consolidation
from agent_memory.serverless import caller_tenancy
from tests.integration.aws import test_handlers
from tests.integration.aws.moto_dynamodb import REGION
from tests.integration.aws.test_handlers import Aws, Context, expect_retrieve, handler
from tests.support.memory import run_event
from tests.workflow.conftest import eventbridge_event

# The handler tests' moto harness: tables, bucket, tenant role and stubbed Bedrock.
aws = test_handlers.aws
AUDIENCE = "AgentMemory-Bootstrap"
ACCOUNT = "123456789012"


class Callers:
    """Roles tagged per tenant, and what STS says of each proof's signer."""

    def __init__(self) -> None:
        self.iam = boto3.client("iam", region_name=REGION)
        self.signers: dict[str, str] = {}

    def proof_of(self, role_name: str, tenant: str) -> dict[str, Any]:
        self.iam.create_role(
            RoleName=role_name,
            AssumeRolePolicyDocument="{}",
            Tags=[{"Key": "tenant_id", "Value": tenant}],
        )
        session = boto3.Session(
            aws_access_key_id=f"ASIA{role_name.upper()[:12]}",
            aws_secret_access_key="secret",
            aws_session_token="token",
            region_name=REGION,
        )
        proof = identity_proof(session.get_credentials(), audience=AUDIENCE, region=REGION)
        arn = f"arn:aws:sts::{ACCOUNT}:assumed-role/{role_name}/run-1"
        self.signers[proof["headers"]["Authorization"]] = arn
        return proof

    def send(self, url: str, body: bytes, headers: Mapping[str, str]) -> tuple[int, bytes]:
        arn = self.signers[headers["Authorization"]]
        return (
            200,
            f"<GetCallerIdentityResponse><Arn>{arn}</Arn></GetCallerIdentityResponse>".encode(),
        )


@pytest.fixture
def callers(aws: Aws) -> Callers:
    # Given a deployment whose tenant comes from the caller's role tag
    aws.runtime.settings = dataclasses.replace(
        aws.runtime.settings,
        tenant_identity=TenantIdentity.PRINCIPAL_TAG,
        function_name=AUDIENCE,
        caller_account=ACCOUNT,
    )
    found = Callers()
    verifier = CallerTenants(found.iam, audience=AUDIENCE, account=ACCOUNT, send=found.send)
    caller_tenancy.use_verifier(aws.runtime, verifier)
    return found


def request(tenant: str, proof: dict[str, Any] | None) -> dict[str, Any]:
    body: dict[str, Any] = {"tenant_id": tenant, "agent_id": "reviewer", "task": "Review the MSA"}
    if proof is not None:
        body["caller_identity"] = proof
    return body


def test_a_caller_of_tenant_a_cannot_read_tenant_b(aws: Aws, callers: Callers) -> None:
    # Given a run of tenant globex in memory, and a caller whose role is tagged acme
    consolidation.consolidate(run_event("g1", tenant_id="globex"), aws.ports("globex"))
    proof = callers.proof_of("acme-agent", "acme")
    # When that caller asks bootstrap for globex's memory
    with pytest.raises(Forbidden, match="tenant_id"):
        handler("bootstrap")(request("globex", proof), Context())
    # Then nothing is served; asking for its own tenant works and shows nothing of globex
    expect_retrieve(aws, "acme", None, [])
    reply = handler("bootstrap")(request("acme", proof), Context())
    assert reply["episodes"] == []


def test_a_bootstrap_without_a_proof_is_refused(aws: Aws, callers: Callers) -> None:
    with pytest.raises(Forbidden, match="caller_identity"):
        handler("bootstrap")(request("acme", None), Context())


def test_a_caller_reads_its_own_tenant_with_its_proof(aws: Aws, callers: Callers) -> None:
    # Given acme's run in memory
    consolidation.consolidate(run_event("a1", tenant_id="acme"), aws.ports("acme"))
    # When acme's caller asks with its proof
    expect_retrieve(aws, "acme", None, [])
    reply = handler("bootstrap")(request("acme", callers.proof_of("acme-agent", "acme")), Context())
    # Then its episode is served
    assert [e["run_id"] for e in reply["episodes"]] == ["a1"]


def test_a_run_sent_with_another_tenants_source_is_not_written(aws: Aws, callers: Callers) -> None:
    # Given an event for globex put with acme's source (the bus policy would refuse it first),
    # as the rule hands it over: the detail and its source
    event = {"source": tenant_source("acme"), "detail": run_event("g1", tenant_id="globex")}
    # When extract receives it, then it is refused before anything is read or written
    with pytest.raises(Forbidden, match="source"):
        handler("extract")(event, Context())
    assert aws.ports("globex").episodes.get("globex", "reviewer", "g1", now=0) is None


def test_a_run_with_its_tenants_source_is_consolidated(aws: Aws, callers: Callers) -> None:
    event = {"source": tenant_source("acme"), "detail": run_event("a1", tenant_id="acme")}
    state = handler("extract")(event, Context())
    assert state["run"]["tenant_id"] == "acme"


def test_a_whole_envelope_with_its_tenants_source_is_consolidated(
    aws: Aws, callers: Callers
) -> None:
    # Given the full EventBridge event (a replay of an archived event, say)
    event = eventbridge_event(run_event("a2", tenant_id="acme"))
    event["source"] = tenant_source("acme")
    state = handler("extract")(event, Context())
    assert state["run"]["run_id"] == "a2"


def test_a_bare_detail_proves_no_tenant(aws: Aws, callers: Callers) -> None:
    # Given a RunFinished detail without the bus's envelope (an execution started by hand)
    with pytest.raises(Forbidden, match="envelope"):
        handler("extract")(run_event("a1", tenant_id="acme"), Context())


def test_payload_mode_ignores_a_proof(aws: Aws) -> None:
    # Given the default mode, a request that carries a proof anyway is served as sent
    expect_retrieve(aws, "acme", None, [])
    reply = handler("bootstrap")(request("acme", {"url": "x"}), Context())
    assert reply["episodes"] == []


def test_a_runtime_without_its_function_name_refuses_every_proof(aws: Aws) -> None:
    # Given principal-tag tenancy on a runtime that does not know its own name (the audience)
    aws.runtime.settings = dataclasses.replace(
        aws.runtime.settings, tenant_identity=TenantIdentity.PRINCIPAL_TAG, function_name=None
    )
    # When a request arrives, then no proof can be checked: it fails closed
    with pytest.raises(ValueError, match="AWS_LAMBDA_FUNCTION_NAME"):
        handler("bootstrap")(request("acme", {"url": "x"}), Context())
