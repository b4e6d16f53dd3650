"""Tenant-scoped credentials: the session policy (pure) and assume_role on moto.

moto records the session policy but does not enforce it, so these tests check what is asked of
STS, not what AWS would then refuse.
"""

from __future__ import annotations

import gc
import threading
import time
import weakref
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import boto3
import pytest
from botocore.stub import Stubber
from moto import mock_aws
from moto.sts.models import sts_backends

from agent_memory.adapters.aws.tenant_credentials import (
    MAX_POLICY_CHARS,
    TenantSessions,
    packed_policy,
    tenant_session_policy,
)
from agent_memory.core.model.errors import InvalidInput, TransientError

REGION = "us-east-1"
ACCOUNT = "123456789012"
ROLE = f"arn:aws:iam::{ACCOUNT}:role/agent-memory-tenant"
EPISODES = f"arn:aws:dynamodb:{REGION}:{ACCOUNT}:table/agent-memory-episodes"
FACTS = f"arn:aws:dynamodb:{REGION}:{ACCOUNT}:table/agent-memory-facts"
KB = f"arn:aws:bedrock:{REGION}:{ACCOUNT}:knowledge-base/KBABCDE123"
BUCKET = "agent-memory-kb-documents"


pytestmark = pytest.mark.usefixtures("stub_credentials")


def policy(tenant: str = "acme", **options: Any) -> dict[str, Any]:
    arguments: dict[str, Any] = {"table_arns": [EPISODES, FACTS], "bucket": BUCKET}
    return tenant_session_policy(tenant, **{**arguments, **options})


# --- the session policy ---------------------------------------------------------------------


def test_policy_narrows_every_grant_to_the_tenant() -> None:
    assert policy("acme", knowledge_base_arn=KB) == {
        "Version": "2012-10-17",
        "Statement": [
            {
                "Effect": "Allow",
                "Action": [
                    "dynamodb:GetItem",
                    "dynamodb:BatchGetItem",
                    "dynamodb:Query",
                    "dynamodb:PutItem",
                    "dynamodb:UpdateItem",
                    "dynamodb:DeleteItem",
                    "dynamodb:BatchWriteItem",
                    "dynamodb:ConditionCheckItem",
                ],
                "Resource": [EPISODES, f"{EPISODES}/index/*", FACTS, f"{FACTS}/index/*"],
                "Condition": {
                    "ForAllValues:StringLike": {"dynamodb:LeadingKeys": ["acme#*"]},
                    "Null": {"dynamodb:LeadingKeys": "false"},
                },
            },
            {
                "Effect": "Allow",
                "Action": ["s3:GetObject", "s3:PutObject", "s3:DeleteObject"],
                "Resource": f"arn:aws:s3:::{BUCKET}/tenants/acme/*",
            },
            {
                "Effect": "Allow",
                "Action": "s3:ListBucket",
                "Resource": f"arn:aws:s3:::{BUCKET}",
                "Condition": {"StringLike": {"s3:prefix": "tenants/acme/*"}},
            },
            {"Effect": "Allow", "Action": "bedrock:Retrieve", "Resource": KB},
        ],
    }


def test_requests_without_leading_keys_are_not_granted() -> None:
    # ForAllValues holds vacuously for a request with no keys (a Scan): Null must rule it out
    dynamodb = policy()["Statement"][0]

    assert dynamodb["Condition"]["Null"] == {"dynamodb:LeadingKeys": "false"}
    assert not {"dynamodb:Scan", "dynamodb:PartiQLSelect", "dynamodb:*"} & set(dynamodb["Action"])


def test_knowledge_base_is_left_out_when_none_is_given() -> None:
    actions = [statement["Action"] for statement in policy()["Statement"]]

    assert "bedrock:Retrieve" not in actions


def test_s3_resources_follow_the_tables_partition() -> None:
    china = "arn:aws-cn:dynamodb:cn-north-1:123456789012:table/agent-memory-facts"

    objects = policy(table_arns=[china])["Statement"][1]

    assert objects["Resource"] == f"arn:aws-cn:s3:::{BUCKET}/tenants/acme/*"


@pytest.mark.parametrize("tenant", ["*", "acme*", "acme#", "ac#me", "a/b", "", "acme\n", "ac?me"])
def test_tenant_ids_that_would_widen_the_grant_are_refused(tenant: str) -> None:
    with pytest.raises(InvalidInput):
        policy(tenant)


@pytest.mark.parametrize(
    "options",
    [
        {"table_arns": [f"arn:aws:dynamodb:{REGION}:{ACCOUNT}:table/*"]},
        {"table_arns": []},
        {"bucket": "*"},
        {"bucket": "kb/tenants"},
        {"knowledge_base_arn": f"arn:aws:bedrock:{REGION}:{ACCOUNT}:knowledge-base/*"},
    ],
)
def test_wildcard_or_malformed_resources_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        policy(**options)


def test_largest_tenant_policy_fits_the_session_policy_limit() -> None:
    # Given the longest tenant id and the stack's four tables with long names
    tables = [
        f"arn:aws:dynamodb:ap-southeast-2:{ACCOUNT}:table/agent-memory-production-{name}-table"
        for name in ("episodes", "facts", "procedures", "idempotency-ledger")
    ]

    packed = packed_policy(policy("t" * 128, table_arns=tables, knowledge_base_arn=KB))

    assert len(packed) <= MAX_POLICY_CHARS


def test_a_policy_past_the_limit_names_the_tables_by_their_common_prefix() -> None:
    # Given eight long table names of one stack
    tables = [f"arn:aws:dynamodb:{REGION}:{ACCOUNT}:table/{'t' * 100}-{i}" for i in range(8)]
    # When the policy is built, then it fits by naming their common prefix
    narrowed = policy(table_arns=tables)
    assert len(packed_policy(narrowed)) <= MAX_POLICY_CHARS
    assert narrowed["Statement"][0]["Resource"] == (
        f"arn:aws:dynamodb:{REGION}:{ACCOUNT}:table/{'t' * 100}-*"
    )


def test_a_policy_that_cannot_fit_is_refused() -> None:
    # Given tables in eight Regions: no common prefix names them
    regions = [f"xx-test-{i}" for i in range(8)]
    tables = [f"arn:aws:dynamodb:{r}:{ACCOUNT}:table/{'t' * 150}" for r in regions]

    with pytest.raises(ValueError, match="2048"):
        policy(table_arns=tables)


# --- assume_role (moto) ---------------------------------------------------------------------


@pytest.fixture
def sts() -> Iterator[Any]:
    with mock_aws():
        yield boto3.client("sts", region_name=REGION)


def sessions(sts: Any, **options: Any) -> TenantSessions:
    return TenantSessions(
        ROLE,
        table_arns=[EPISODES, FACTS],
        bucket=BUCKET,
        knowledge_base_arn=KB,
        sts=sts,
        region_name=REGION,
        **options,
    )


def assumed_policy(access_key: str) -> str:
    role = sts_backends[ACCOUNT]["aws"].get_assumed_role_from_access_key(access_key)
    assert role is not None
    return str(role.policy)


def access_key(client: Any) -> str:
    """The access key a boto3 client signs with."""
    return str(client._request_signer._credentials.access_key)


def test_client_acts_as_the_assumed_role(sts: Any) -> None:
    client = sessions(sts).client("acme", "sts")

    identity = client.get_caller_identity()

    assert identity["Arn"] == f"arn:aws:sts::{ACCOUNT}:assumed-role/agent-memory-tenant/am-acme"


def test_session_policy_is_passed_to_sts(sts: Any) -> None:
    credentials = sessions(sts).credentials("acme")

    assert assumed_policy(credentials.access_key_id) == packed_policy(
        policy("acme", knowledge_base_arn=KB)
    )


class RecordingSts:
    """Passes calls to moto's STS and keeps each request."""

    def __init__(self, sts: Any) -> None:
        self.sts = sts
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()

    def assume_role(self, **request: Any) -> dict[str, Any]:
        with self.lock:
            self.requests.append(request)
        time.sleep(0.05)  # widens the window in which concurrent callers could race
        response: dict[str, Any] = self.sts.assume_role(**request)
        return response


def test_tenant_is_passed_as_a_session_tag_the_role_policy_keys_on(sts: Any) -> None:
    recording = RecordingSts(sts)

    sessions(recording).credentials("acme")

    assert recording.requests[0]["Tags"] == [{"Key": "tenant_id", "Value": "acme"}]


def test_session_tag_can_be_left_out(sts: Any) -> None:
    recording = RecordingSts(sts)

    sessions(recording, tenant_tag=None).credentials("acme")

    assert "Tags" not in recording.requests[0]


def test_longest_tenant_id_fits_the_role_session_name(sts: Any) -> None:
    # moto enforces STS's 64-character limit on role session names
    client = sessions(sts).client("t" * 128, "sts")

    assert "t" * 40 in client.get_caller_identity()["Arn"]


def test_clients_are_cached_per_tenant_and_service(sts: Any) -> None:
    tenants = sessions(sts)

    first, again, other = (tenants.client(t, "dynamodb") for t in ("acme", "acme", "globex"))
    s3 = tenants.client("acme", "s3")

    assert first is again
    assert other is not first
    assert access_key(s3) == access_key(first)
    assert "globex#*" in assumed_policy(access_key(other))


def test_credentials_are_renewed_shortly_before_they_expire(sts: Any) -> None:
    # Given a clock we can move: credentials last an hour, renewal starts 15 minutes before
    offset = [0.0]
    tenants = sessions(sts, clock=lambda: time.time() + offset[0])
    first = tenants.client("acme", "dynamodb")

    offset[0] = 3600 - 900 - 60
    still = tenants.client("acme", "dynamodb")
    offset[0] = 3600 - 900 + 60
    renewed = tenants.client("acme", "dynamodb")

    assert still is first
    assert renewed is not first
    assert access_key(renewed) != access_key(first)


def test_renewed_credentials_replace_the_tenants_clients(sts: Any) -> None:
    # Given a tenant with two clients on credentials about to be renewed
    offset = [0.0]
    tenants = sessions(sts, clock=lambda: time.time() + offset[0])
    old = [tenants.client("acme", service) for service in ("dynamodb", "s3")]

    # When its credentials are renewed and one client is asked for again
    offset[0] = 3600
    tenants.client("acme", "dynamodb")

    # Then the old clients are no longer held, not even the one not yet asked for again
    held = weakref.WeakSet(old)
    del old
    gc.collect()
    assert len(held) == 0


def test_least_recently_used_tenants_are_evicted_and_assume_the_role_again(sts: Any) -> None:
    # Given room for two tenants, acme used after globex
    recording = RecordingSts(sts)
    tenants = sessions(recording, max_tenants=2)
    tenants.client("globex", "dynamodb")
    tenants.client("acme", "dynamodb")
    tenants.client("globex", "dynamodb")

    # When a third tenant is served
    tenants.client("initech", "dynamodb")

    # Then acme, the least recently used, is forgotten, and assumes the role on its next call
    assert tenants.cached_tenants() == ["globex", "initech"]
    tenants.client("acme", "dynamodb")
    assert [r["RoleSessionName"] for r in recording.requests] == [
        "am-globex",
        "am-acme",
        "am-initech",
        "am-acme",
    ]


def test_tenant_clients_are_made_from_the_given_session(sts: Any) -> None:
    # Clients share the session's loaded service models rather than loading their own.
    base = boto3.Session(region_name=REGION)
    client = sessions(sts, session=base).client("acme", "dynamodb")

    assert client._loader is base._session.get_component("data_loader")


def test_concurrent_first_calls_assume_the_role_once(sts: Any) -> None:
    recording = RecordingSts(sts)
    tenants = sessions(recording)

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda tenant: tenants.client(tenant, "dynamodb"), ["acme"] * 8))

    assert len(recording.requests) == 1
    assert all(client is results[0] for client in results)


def test_invalid_tenant_never_reaches_sts_nor_the_cache() -> None:
    # The stub has no responses queued: any call would raise.
    with Stubber(boto3.client("sts", region_name=REGION)) as stub:
        tenants = sessions(stub.client)
        with pytest.raises(InvalidInput):
            tenants.client("acme*", "dynamodb")

    assert tenants.cached_tenants() == []


def test_throttled_assume_role_is_transient() -> None:
    with Stubber(boto3.client("sts", region_name=REGION)) as stub:
        stub.add_client_error("assume_role", "Throttling", "Rate exceeded", 400)

        with pytest.raises(TransientError):
            sessions(stub.client).client("acme", "dynamodb")
