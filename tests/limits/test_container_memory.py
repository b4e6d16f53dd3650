"""Memory per Lambda container: a warm container serving many tenants keeps a bounded cache.

A Lambda function has the memory it is configured with and no more
(https://docs.aws.amazon.com/lambda/latest/dg/configuration-memory.html); past it the runtime
is killed (``Runtime.OutOfMemory``) and the invocation is not retried as a function error
would be. A container lives across many invocations, each of which may be another tenant's,
and tenant credentials from AssumeRole expire (``DurationSeconds``,
https://docs.aws.amazon.com/STS/latest/APIReference/API_AssumeRole.html) and are renewed.
So what a container keeps per tenant must be bounded by a count, not by how many tenants or
renewals it has seen. moto's STS issues the credentials; its DynamoDB answers the reads.
"""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import boto3
import pytest
from botocore.client import BaseClient

from agent_memory.adapters.aws.tenant_credentials import DEFAULT_MAX_TENANTS, TenantSessions
from agent_memory.wiring.aws import AwsRuntime
from tests.integration.aws.moto_dynamodb import REGION, Tables, mocked_tables, settings_for
from tests.support.embedder import HashingEmbedder
from tests.support.fakes import FakePiiDetector
from tests.support.memory import HASHING_CALIBRATION

ACCOUNT = "123456789012"
ROLE = f"arn:aws:iam::{ACCOUNT}:role/agent-memory-tenant"
TENANTS = [f"tenant-{i:03d}" for i in range(200)]
# Past the 15-minute refresh margin of one-hour credentials.
PAST_THE_MARGIN = 3600 - 900 + 1


@dataclass
class ClockedSts:
    """moto's STS on a clock the test moves: credentials expire on that clock's timeline.

    Keeps the access key of every credential issued, by round of the test.
    """

    sts: Any
    offset: float = 0.0
    issued: list[set[str]] = field(default_factory=lambda: [set()])
    lock: threading.Lock = field(default_factory=threading.Lock)

    def clock(self) -> float:
        return time.time() + self.offset

    def assume_role(self, **request: Any) -> dict[str, Any]:
        response: dict[str, Any] = self.sts.assume_role(**request)
        credentials = response["Credentials"]
        credentials["Expiration"] += timedelta(seconds=self.offset)
        with self.lock:
            self.issued[-1].add(credentials["AccessKeyId"])
        return response

    def advance(self, seconds: float) -> None:
        self.offset += seconds
        self.issued.append(set())

    def tenant_keys(self) -> set[str]:
        return set().union(*self.issued)


@dataclass
class Container:
    runtime: AwsRuntime
    sts: ClockedSts


@pytest.fixture
def container() -> Iterator[Container]:
    with mocked_tables() as tables:
        yield _container(tables)


def _container(tables: Tables) -> Container:
    """A warm container's runtime over moto, its tenant credentials on a clock we can move."""
    session = boto3.Session(region_name=REGION)
    sts = ClockedSts(session.client("sts"))
    arns = tuple(f"arn:aws:dynamodb:{REGION}:{ACCOUNT}:table/{n}" for n in tables.names.values())
    settings = settings_for(tables.names, tenant_role_arn=ROLE, tenant_table_arns=arns)
    tenants = TenantSessions(
        ROLE,
        table_arns=arns,
        bucket=settings.kb_bucket,
        session=session,
        sts=sts,
        clock=sts.clock,
        max_tenants=DEFAULT_MAX_TENANTS,
    )
    runtime = AwsRuntime(
        settings,
        session=session,
        embedder=HashingEmbedder(),
        pii=FakePiiDetector(),
        calibrations={"test-hashing": HASHING_CALIBRATION},
        tenants=tenants,
    )
    return Container(runtime, sts)


def live(kind: type) -> list[Any]:
    """The objects of ``kind`` still alive (not weak proxies to them, which isinstance counts)."""
    gc.collect()
    return [o for o in gc.get_objects() if issubclass(type(o), kind)]


def signing_key(client: Any) -> str | None:
    credentials = getattr(client._request_signer, "_credentials", None)
    return None if credentials is None else str(credentials.access_key)


def test_a_container_serving_200_tenants_holds_at_most_its_bound(container: Container) -> None:
    # Given a warm container and the sessions that exist before it serves any tenant
    runtime, sts = container.runtime, container.sts
    sessions_before = len(live(boto3.Session))
    bound = DEFAULT_MAX_TENANTS

    def assert_bounded(served: str) -> None:
        tenant_keys = sts.tenant_keys()
        held = [signing_key(c) for c in live(BaseClient)]
        held_tenant_keys = [key for key in held if key in tenant_keys]
        assert len(live(boto3.Session)) == sessions_before, f"a session per tenant ({served})"
        assert len(held_tenant_keys) <= 2 * bound, served  # a DynamoDB and an S3 client each
        assert len(set(held_tenant_keys)) <= bound, served
        assert runtime.tenants is not None
        assert len(runtime.tenants.cached_tenants()) <= bound, served

    # When it serves 200 tenants, then the clock passes the credentials' refresh margin and it
    # serves them all again (each call builds the ports and reads with the tenant's credentials)
    for round_ in range(2):
        for i, tenant in enumerate(TENANTS):
            ports = runtime.ports(tenant)
            assert ports.procedures.for_task_type(tenant, "triage") == []
            if i == 0 or i % 50 == 49:
                assert_bounded(f"round {round_}, tenant {i}")
        sts.advance(PAST_THE_MARGIN)

    # Then every tenant assumed the role once per round (the cache holds fewer than 200, so
    # each came back evicted), and no client of a renewed credential is still held
    assert [len(keys) for keys in sts.issued] == [200, 200, 0]
    held = {signing_key(c) for c in live(BaseClient)}
    assert not held & sts.issued[0]


def test_a_refreshed_tenant_replaces_its_clients_rather_than_adding_to_them(
    container: Container,
) -> None:
    # Given a few tenants, all cached
    runtime, sts = container.runtime, container.sts
    few = TENANTS[:5]
    for tenant in few:
        runtime.ports(tenant)

    # When their credentials are renewed five times over
    for _ in range(5):
        sts.advance(PAST_THE_MARGIN)
        for tenant in few:
            runtime.ports(tenant).procedures.for_task_type(tenant, "triage")

    # Then the container holds the clients of the latest credentials only (one each: the
    # DynamoDB client; S3's is made when the knowledge base first uses it)
    held = [signing_key(c) for c in live(BaseClient)]
    tenant_keys = sts.tenant_keys()
    assert sorted(key for key in held if key in tenant_keys) == sorted(sts.issued[-1])


def test_the_runtime_builds_its_tenant_cache_on_its_own_session_with_the_default_bound() -> None:
    # Given a runtime left to build its own tenant credentials
    with mocked_tables() as tables:
        arns = tuple(
            f"arn:aws:dynamodb:{REGION}:{ACCOUNT}:table/{n}" for n in tables.names.values()
        )
        session = boto3.Session(region_name=REGION)
        runtime = AwsRuntime(
            settings_for(tables.names, tenant_role_arn=ROLE, tenant_table_arns=arns),
            session=session,
        )

        # When a tenant's client is asked for
        client = runtime.client("dynamodb", "acme")

        # Then it comes from the runtime's session (sharing its service models), is cached,
        # and the cache is bounded by the default
        assert client._loader is session._session.get_component("data_loader")
        assert runtime.client("dynamodb", "acme") is client
        assert runtime.tenants is not None
        assert runtime.tenants.max_tenants == DEFAULT_MAX_TENANTS
        assert runtime.tenants.cached_tenants() == ["acme"]


def test_a_tenant_holds_an_s3_client_only_once_its_knowledge_base_touches_s3(
    container: Container,
) -> None:
    # Given a tenant served as bootstrap serves it: its ports built, its stores read
    runtime, sts = container.runtime, container.sts
    boto3.client("s3", region_name=REGION).create_bucket(Bucket=runtime.settings.kb_bucket)
    ports = runtime.ports("acme")
    ports.procedures.for_task_type("acme", "triage")

    def tenant_services() -> list[str]:
        keys = sts.tenant_keys()
        return sorted(
            c.meta.service_model.service_name for c in live(BaseClient) if signing_key(c) in keys
        )

    # Then it holds its DynamoDB client only, until its knowledge base lists its documents
    assert tenant_services() == ["dynamodb"]
    assert list(ports.knowledge_base.document_keys("acme")) == []
    assert tenant_services() == ["dynamodb", "s3"]
