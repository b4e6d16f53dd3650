"""Caller identity under principal-tag tenancy: signed GetCallerIdentity proofs, sent to STS.

moto runs as a real HTTP server on loopback, so a proof is signed by botocore and sent over
HTTP exactly as the Lambda sends it to STS. moto does not check SigV4 signatures: what STS
alone decides (an expired or forged signature) is answered by a stand-in ``send`` here.
"""

from __future__ import annotations

import urllib.request
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import boto3
import pytest
from moto.server import ThreadedMotoServer

from agent_memory.adapters.aws.caller_identity import (
    AUDIENCE_HEADER,
    CallerTenants,
    _post,
    identity_proof,
)
from agent_memory.core.model.errors import Forbidden

REGION = "us-east-1"
ACCOUNT = "123456789012"
AUDIENCE = "AgentMemory-Bootstrap"


@dataclass
class Sts:
    """A moto server, its endpoint, and an IAM client on it."""

    endpoint: str
    iam: Any
    sent: list[str] = field(default_factory=list)

    def client(self, service: str, **credentials: str) -> Any:
        return boto3.client(
            service,
            region_name=REGION,
            endpoint_url=self.endpoint,
            aws_access_key_id=credentials.get("key", "testing"),
            aws_secret_access_key=credentials.get("secret", "testing"),
            aws_session_token=credentials.get("token"),
        )

    def role(self, name: str, tenant: str | None) -> str:
        tags = [{"Key": "tenant_id", "Value": tenant}] if tenant else []
        role = self.iam.create_role(RoleName=name, AssumeRolePolicyDocument="{}", Tags=tags)
        return str(role["Role"]["Arn"])

    def session_of(self, role_arn: str, name: str = "agent") -> boto3.Session:
        credentials = self.client("sts").assume_role(RoleArn=role_arn, RoleSessionName=name)[
            "Credentials"
        ]
        return boto3.Session(
            aws_access_key_id=credentials["AccessKeyId"],
            aws_secret_access_key=credentials["SecretAccessKey"],
            aws_session_token=credentials["SessionToken"],
            region_name=REGION,
        )

    def proof(self, session: boto3.Session, audience: str = AUDIENCE) -> dict[str, Any]:
        return identity_proof(
            session.get_credentials(), audience=audience, region=REGION, endpoint=self.endpoint
        )

    def send(self, url: str, body: bytes, headers: Mapping[str, str]) -> tuple[int, bytes]:
        self.sent.append(url)
        return _post(url, body, headers)

    def tenants(self, **options: Any) -> CallerTenants:
        return CallerTenants(
            self.iam,
            audience=AUDIENCE,
            account=ACCOUNT,
            trusted_endpoints=(self.endpoint,),
            send=self.send,
            **options,
        )


@pytest.fixture
def sts(monkeypatch: pytest.MonkeyPatch) -> Iterator[Sts]:
    for name in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    endpoint = f"http://{host}:{port}/"
    # The server's backends live in this process: start from an empty account.
    urllib.request.urlopen(urllib.request.Request(f"{endpoint}moto-api/reset", method="POST"))
    iam = boto3.client(
        "iam",
        region_name=REGION,
        endpoint_url=endpoint,
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )
    try:
        yield Sts(endpoint, iam)
    finally:
        server.stop()


def test_the_tenant_is_the_tag_of_the_role_that_signed_the_proof(sts: Sts) -> None:
    # Given a session of a role tagged for tenant acme
    session = sts.session_of(sts.role("reviewer-agent", "acme"))
    # When its proof is checked
    tenant = sts.tenants().tenant_of(sts.proof(session))
    # Then the tenant is acme, learnt from STS over HTTP
    assert tenant == "acme"
    assert sts.sent == [sts.endpoint]


def test_an_iam_user_is_identified_by_its_own_tag(sts: Sts) -> None:
    # Given an IAM user tagged for tenant globex, with access keys
    sts.iam.create_user(UserName="batch-agent", Tags=[{"Key": "tenant_id", "Value": "globex"}])
    keys = sts.iam.create_access_key(UserName="batch-agent")["AccessKey"]
    session = boto3.Session(
        aws_access_key_id=keys["AccessKeyId"],
        aws_secret_access_key=keys["SecretAccessKey"],
        region_name=REGION,
    )
    # When / Then its proof names globex
    assert sts.tenants().tenant_of(sts.proof(session)) == "globex"


def test_a_proof_made_for_another_deployment_is_refused(sts: Sts) -> None:
    # Given a proof signed for another stack's bootstrap
    session = sts.session_of(sts.role("reviewer-agent", "acme"))
    proof = sts.proof(session, audience="OtherStack-Bootstrap")
    # When / Then it is refused before anything is sent
    with pytest.raises(Forbidden, match="another deployment"):
        sts.tenants().tenant_of(proof)
    assert sts.sent == []


def test_an_audience_header_added_after_signing_is_refused(sts: Sts) -> None:
    # Given a proof for another deployment whose audience header is rewritten afterwards
    session = sts.session_of(sts.role("reviewer-agent", "acme"))
    proof = identity_proof(
        session.get_credentials(), audience="x", region=REGION, endpoint=sts.endpoint
    )
    authorization = proof["headers"]["Authorization"].replace(f"{AUDIENCE_HEADER};", "")
    proof["headers"] = {**proof["headers"], AUDIENCE_HEADER: AUDIENCE}
    proof["headers"]["Authorization"] = authorization
    # When / Then the unsigned audience proves nothing
    with pytest.raises(Forbidden, match="must sign"):
        sts.tenants().tenant_of(proof)


@pytest.mark.parametrize(
    "url",
    [
        "http://169.254.169.254/latest/meta-data/",
        "https://sts.amazonaws.com.evil.example/",
        "https://sts.amazonaws.com:8443/",
        "http://sts.us-east-1.amazonaws.com/",
        "https://sts.us-east-1.amazonaws.com/?Action=AssumeRole",
    ],
)
def test_a_proof_is_never_sent_anywhere_but_sts(sts: Sts, url: str) -> None:
    # Given a well-signed proof whose URL points elsewhere
    session = sts.session_of(sts.role("reviewer-agent", "acme"))
    proof = {**sts.proof(session), "url": url}
    # When / Then it is refused and nothing is fetched
    with pytest.raises(Forbidden, match="STS endpoint"):
        sts.tenants().tenant_of(proof)
    assert sts.sent == []


def test_only_get_caller_identity_is_sent(sts: Sts) -> None:
    session = sts.session_of(sts.role("reviewer-agent", "acme"))
    proof = {**sts.proof(session), "body": "Action=AssumeRole&Version=2011-06-15"}
    with pytest.raises(Forbidden, match="GetCallerIdentity"):
        sts.tenants().tenant_of(proof)


def test_a_role_without_a_tenant_tag_proves_no_tenant(sts: Sts) -> None:
    session = sts.session_of(sts.role("untagged-agent", None))
    with pytest.raises(Forbidden, match="no tenant_id tag"):
        sts.tenants().tenant_of(sts.proof(session))


def test_a_proof_sts_refuses_is_forbidden() -> None:
    # Given STS answering 403, as it does for an expired or forged signature
    def refusing(url: str, body: bytes, headers: Mapping[str, str]) -> tuple[int, bytes]:
        return (
            403,
            b"<ErrorResponse><Error><Code>SignatureDoesNotMatch</Code></Error></ErrorResponse>",
        )

    session = boto3.Session(
        aws_access_key_id="AKIAEXAMPLE", aws_secret_access_key="x", region_name=REGION
    )
    proof = identity_proof(session.get_credentials(), audience=AUDIENCE, region=REGION)
    tenants = CallerTenants(object(), audience=AUDIENCE, send=refusing)
    # When / Then
    with pytest.raises(Forbidden, match="STS refused"):
        tenants.tenant_of(proof)


def test_a_role_of_another_account_is_refused(sts: Sts) -> None:
    session = sts.session_of(sts.role("reviewer-agent", "acme"))
    tenants = CallerTenants(
        sts.iam,
        audience=AUDIENCE,
        account="210987654321",
        trusted_endpoints=(sts.endpoint,),
        send=sts.send,
    )
    with pytest.raises(Forbidden, match="account 210987654321"):
        tenants.tenant_of(sts.proof(session))


def test_a_warm_container_asks_sts_once_per_proof_and_iam_once_per_role(sts: Sts) -> None:
    # Given two sessions of one tagged role, and IAM calls counted
    role = sts.role("reviewer-agent", "acme")
    first, second = (
        sts.proof(sts.session_of(role, "run-1")),
        sts.proof(sts.session_of(role, "run-2")),
    )
    calls: list[str] = []
    sts.iam.meta.events.register("before-call.iam", lambda model, **_: calls.append(model.name))
    tenants = sts.tenants()
    # When each proof is checked twice
    results = [tenants.tenant_of(p) for p in (first, first, second, second)]
    # Then STS saw each proof once, and IAM was asked for the role's tags once
    assert results == ["acme"] * 4
    assert len(sts.sent) == 2
    assert calls == ["ListRoleTags"]


def test_the_caches_are_bounded(sts: Sts) -> None:
    # Given a cache of two entries and proofs of three roles
    tenants = sts.tenants(max_entries=2)
    proofs = [sts.proof(sts.session_of(sts.role(f"agent-{n}", f"tenant-{n}"))) for n in range(3)]
    # When all three are checked, then the first again
    for proof in proofs:
        tenants.tenant_of(proof)
    tenants.tenant_of(proofs[0])
    # Then the first was evicted and sent again: four sends for three proofs
    assert len(sts.sent) == 4
