"""The four tables on moto, created from ``dynamodb_schema``, for contract and integration tests."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from unittest import mock

import boto3
from moto import mock_aws

from agent_memory.adapters.aws.dynamodb_schema import TABLES, TableDesign
from agent_memory.wiring.aws import AwsRuntime
from agent_memory.wiring.aws_settings import AwsSettings
from tests.support.embedder import HashingEmbedder
from tests.support.fakes import FakePiiDetector
from tests.support.memory import HASHING_CALIBRATION

REGION = "us-east-1"
ACCOUNT = "123456789012"  # moto's default account
FAKE_CREDENTIALS = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_SECURITY_TOKEN": "testing",
    "AWS_SESSION_TOKEN": "testing",
    "AWS_DEFAULT_REGION": REGION,
}


class SerializedClient:
    """A DynamoDB client whose requests run one at a time.

    DynamoDB applies each request to an item atomically; moto does not (and rolls a failed
    transaction back by restoring a copy of the whole table, undoing other threads' writes).
    One lock around each request gives the concurrency tests the service's semantics; clients
    of one table (a tenant's session each, say) share theirs by passing the same ``lock``.
    """

    def __init__(self, client: Any, lock: threading.Lock | None = None) -> None:
        self._client = client
        self._lock = lock or threading.Lock()

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._client, name)
        if not callable(attribute):
            return attribute

        def call(*args: Any, **kwargs: Any) -> Any:
            with self._lock:
                return attribute(*args, **kwargs)

        return call


@dataclass(frozen=True)
class Tables:
    """A mocked DynamoDB client and the name of each table, by logical name."""

    client: Any
    names: dict[str, str]

    def name(self, design: TableDesign) -> str:
        return self.names[design.logical_name]


def create_tables(client: Any, prefix: str = "agent-memory-") -> dict[str, str]:
    """Create every table of the schema (on-demand, TTL enabled); their names."""
    names = {}
    for design in TABLES:
        name = f"{prefix}{design.logical_name}"
        client.create_table(**design.create_table_request(name))
        if design.ttl_attribute is not None:
            client.update_time_to_live(
                TableName=name,
                TimeToLiveSpecification={"Enabled": True, "AttributeName": design.ttl_attribute},
            )
        names[design.logical_name] = name
    return names


@contextmanager
def mocked_tables() -> Iterator[Tables]:
    """Fresh tables in a fresh moto account, with fake credentials and no network."""
    with mock.patch.dict(os.environ, FAKE_CREDENTIALS), mock_aws():
        client = SerializedClient(boto3.client("dynamodb", region_name=REGION))
        yield Tables(client=client, names=create_tables(client))


def settings_for(tables: dict[str, str], **overrides: Any) -> AwsSettings:
    """Lambda settings over moto ``tables`` (a stubbed KB by default)."""
    fields: dict[str, Any] = {
        "episodes_table": tables["episodes"],
        "facts_table": tables["facts"],
        "procedures_table": tables["procedures"],
        "ledger_table": tables["ledger"],
        "kb_bucket": "kb-docs",
        "knowledge_base_id": "KB12345678",
        "kb_data_source_id": "DS12345678",
    }
    return AwsSettings(**{**fields, **overrides})


def tenant_access(tables: Iterable[str], name: str = "agent-memory-tenant-data") -> dict[str, Any]:
    """Settings for tenant-scoped credentials as deployed: a tenant role on moto's IAM, which
    the runtime assumes per tenant with the session policy over ``tables``. moto evaluates no
    policy; the session's check of every handler call (tests/support/aws_calls.py) does.
    """
    trust = {"Version": "2012-10-17", "Statement": []}
    role = boto3.client("iam", region_name=REGION).create_role(
        RoleName=name, AssumeRolePolicyDocument=json.dumps(trust)
    )
    arns = tuple(f"arn:aws:dynamodb:{REGION}:{ACCOUNT}:table/{table}" for table in tables)
    return {"tenant_role_arn": role["Role"]["Arn"], "tenant_table_arns": arns}


def fresh_runtime(settings: AwsSettings) -> AwsRuntime:
    """A fresh Lambda container's runtime over ``settings``, with fakes at the model boundary."""
    return AwsRuntime(
        settings,
        session=boto3.Session(region_name=REGION),
        embedder=HashingEmbedder(),
        pii=FakePiiDetector(),
        calibrations={"test-hashing": HASHING_CALIBRATION},
    )
