"""Tenant-scoped credentials: the handler's role, assumed again with a session policy that only
reaches one tenant's keys, so a bug in a query still cannot read another tenant
(docs/aws.md, "Where the tenant comes from").

A warm container serves many tenants, so what it keeps per tenant is bounded: credentials and
the few clients made from them, in a least-recently-used cache. Clients are made from the
container's one ``boto3.Session``, whose loaded service models they share: a client costs about
half a MiB and a few milliseconds, where a ``boto3.Session`` per tenant cost ~14 MiB and ~0.5 s.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import boto3  # type: ignore[import-untyped, unused-ignore]

from agent_memory.adapters.aws._errors import require_identifier, transient_errors
from agent_memory.adapters.aws.tenant_boundary import (
    ITEM_ACTIONS,
    LIST_ACTION,
    OBJECT_ACTIONS,
    item_conditions,
    list_conditions,
    tenant_prefix,
)

__all__ = [
    "DEFAULT_MAX_TENANTS",
    "MAX_POLICY_CHARS",
    "TenantCredentials",
    "TenantSessions",
    "packed_policy",
    "tenant_session_policy",
]

# STS: "The plaintext that you use for both inline and managed session policies can't exceed
# 2,048 characters" (AssumeRole, Policy parameter).
MAX_POLICY_CHARS = 2048
# Tenants whose credentials and clients a container keeps. A tenant holds two clients (DynamoDB
# and S3, ~0.5 MiB together), so 64 cost some 32 MiB, a sixteenth of the smallest function's
# 512 MB; a tenant evicted costs one AssumeRole and two clients on its next call.
DEFAULT_MAX_TENANTS = 64

_TABLE_ARN = re.compile(r"arn:(aws[a-z-]*):dynamodb:[a-z0-9-]+:\d{12}:table/[A-Za-z0-9_.-]{3,255}")
_KB_ARN = re.compile(r"arn:aws[a-z-]*:bedrock:[a-z0-9-]+:\d{12}:knowledge-base/[0-9A-Za-z]{10}")
_BUCKET = re.compile(r"[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")


def tenant_session_policy(
    tenant_id: str,
    *,
    table_arns: Sequence[str],
    bucket: str,
    knowledge_base_arn: str | None = None,
) -> dict[str, Any]:
    """The session policy that narrows a role to ``tenant_id``'s data.

    DynamoDB: item actions on the tables and their indexes, only where every partition key
    starts ``{tenant_id}#`` (``ForAllValues`` is true for a request with no keys at all, so
    ``Null: false`` also requires keys). S3: objects under ``tenants/{tenant_id}/`` and listing
    that prefix. Bedrock: ``Retrieve`` on the knowledge base, which IAM cannot narrow by tenant:
    the adapter's mandatory ``tenant_id`` metadata filter does that. The tenant id is checked
    against the RunFinished id pattern first, since a ``*`` or ``#`` in it would widen the grant.

    The tables are named one by one while the policy fits STS's 2,048 characters; past that (a
    long tenant id, long table names) they are named by their common ARN prefix. That widens no
    grant: a session's permissions are the intersection with the tenant role's, which names
    the exact tables.
    """
    tenant = require_identifier(tenant_id, "tenant_id")
    if not table_arns:
        raise ValueError("at least one table ARN is required")
    partitions = {_match(_TABLE_ARN, arn, "table ARN").group(1) for arn in table_arns}
    if len(partitions) != 1 or _BUCKET.fullmatch(bucket) is None:
        raise ValueError(f"tables must share one partition and {bucket!r} must be a bucket name")
    s3 = f"arn:{partitions.pop()}:s3:::{bucket}"
    statements: list[dict[str, Any]] = [
        {
            "Effect": "Allow",
            "Action": list(ITEM_ACTIONS),
            "Resource": [r for arn in table_arns for r in (arn, f"{arn}/index/*")],
            "Condition": item_conditions(tenant),
        },
        {
            "Effect": "Allow",
            "Action": list(OBJECT_ACTIONS),
            "Resource": f"{s3}/{tenant_prefix(tenant)}*",
        },
        {
            "Effect": "Allow",
            "Action": LIST_ACTION,
            "Resource": s3,
            "Condition": list_conditions(tenant),
        },
    ]
    if knowledge_base_arn is not None:
        _match(_KB_ARN, knowledge_base_arn, "knowledge base ARN")
        statements.append(
            {"Effect": "Allow", "Action": "bedrock:Retrieve", "Resource": knowledge_base_arn}
        )
    policy = {"Version": "2012-10-17", "Statement": statements}
    prefix = _common_prefix(table_arns)
    if len(packed_policy(policy)) > MAX_POLICY_CHARS and prefix is not None:
        statements[0]["Resource"] = f"{prefix}*"
    if len(packed_policy(policy)) > MAX_POLICY_CHARS:
        raise ValueError(f"session policy exceeds {MAX_POLICY_CHARS} characters: fewer tables")
    return policy


def _common_prefix(table_arns: Sequence[str]) -> str | None:
    """The tables' longest common ARN prefix, if it names their Region and account (it ends
    in ``:table/`` or later); else None.
    """
    # Character by character on purpose: table names are not paths.
    prefix = os.path.commonprefix(list(table_arns))  # noqa: RUF071
    return prefix if ":table/" in prefix else None


def packed_policy(policy: dict[str, Any]) -> str:
    """The policy as sent to STS: compact JSON, which is what the size limit counts."""
    return json.dumps(policy, separators=(",", ":"))


def _match(pattern: re.Pattern[str], value: str, what: str) -> re.Match[str]:
    found = pattern.fullmatch(value)
    if found is None:
        raise ValueError(f"invalid {what}: {value!r}")
    return found


def role_session_name(tenant_id: str) -> str:
    """A role session name naming the tenant (CloudTrail shows it), within STS's 64 chars."""
    name = f"am-{tenant_id}"
    if len(name) > 64:
        name = f"am-{tenant_id[:43]}-{hashlib.sha256(tenant_id.encode()).hexdigest()[:16]}"
    return name


class StsClient(Protocol):
    """The STS call this module makes."""

    def assume_role(self, **kwargs: Any) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class TenantCredentials:
    """Temporary credentials of the role assumed for one tenant."""

    access_key_id: str
    secret_access_key: str
    session_token: str
    expires_at: float

    def client_arguments(self) -> dict[str, str]:
        """The credentials as ``boto3.Session.client`` takes them."""
        return {
            "aws_access_key_id": self.access_key_id,
            "aws_secret_access_key": self.secret_access_key,
            "aws_session_token": self.session_token,
        }


class _Tenant:
    """One tenant's cache entry: its credentials and the clients made from them."""

    __slots__ = ("clients", "credentials", "lock")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.credentials: TenantCredentials | None = None
        self.clients: dict[str, Any] = {}


class TenantSessions:
    """Clients scoped to one tenant each, on credentials cached until shortly before they expire.

    The role is assumed with the session policy and, unless ``tenant_tag`` is None, a session
    tag ``{tenant_tag: tenant_id}`` that the role's own policy can key on
    (``${aws:PrincipalTag/tenant_id}``; the role's trust policy must allow ``sts:TagSession``).
    Credentials are used only while they have ``refresh_margin`` seconds left (15 minutes by
    default: Lambda's longest invocation), so a handler never holds credentials that expire
    mid-call; renewed credentials replace the tenant's clients. Clients are made from
    ``session`` (holding ``session_lock``, since a ``boto3.Session`` is not thread-safe), so they
    share its loaded service models. At most ``max_tenants`` tenants are kept, the least
    recently used evicted first: an evicted tenant's next call assumes the role again. Safe to
    share between threads; concurrent first calls for one tenant assume the role once.
    """

    def __init__(
        self,
        role_arn: str,
        *,
        table_arns: Sequence[str],
        bucket: str,
        knowledge_base_arn: str | None = None,
        session: Any | None = None,
        session_lock: threading.Lock | None = None,
        sts: StsClient | None = None,
        region_name: str | None = None,
        tenant_tag: str | None = "tenant_id",
        duration_seconds: int = 3600,
        refresh_margin: float = 900.0,
        max_tenants: int = DEFAULT_MAX_TENANTS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if duration_seconds <= refresh_margin:
            raise ValueError("duration_seconds must exceed refresh_margin")
        if max_tenants < 1:
            raise ValueError("max_tenants must be at least 1")
        self._role_arn = role_arn
        self._tables = tuple(table_arns)
        self._bucket = bucket
        self._kb_arn = knowledge_base_arn
        self._session = session if session is not None else boto3.Session(region_name=region_name)
        self._session_lock = session_lock if session_lock is not None else threading.Lock()
        self._sts = sts if sts is not None else self._session.client("sts", region_name=region_name)
        self._region = region_name
        self._tag = tenant_tag
        self._duration = duration_seconds
        self._margin = refresh_margin
        self._max_tenants = max_tenants
        self._clock = clock
        self._tenants: OrderedDict[str, _Tenant] = OrderedDict()
        self._tenants_guard = threading.Lock()

    @property
    def max_tenants(self) -> int:
        """How many tenants' credentials and clients are kept at most."""
        return self._max_tenants

    def cached_tenants(self) -> list[str]:
        """The tenants held, least recently used first."""
        with self._tenants_guard:
            return list(self._tenants)

    def client(self, tenant_id: str, service: str) -> Any:
        """A ``service`` client that can only reach ``tenant_id``'s data."""
        tenant = self._tenant(tenant_id)
        with tenant.lock:
            credentials = self._fresh_credentials(tenant_id, tenant)
            client = tenant.clients.get(service)
            if client is None:
                with self._session_lock:
                    client = self._session.client(
                        service, region_name=self._region, **credentials.client_arguments()
                    )
                tenant.clients[service] = client
            return client

    def credentials(self, tenant_id: str) -> TenantCredentials:
        """``tenant_id``'s current credentials, assuming the role if none are fresh enough."""
        tenant = self._tenant(tenant_id)
        with tenant.lock:
            return self._fresh_credentials(tenant_id, tenant)

    def _tenant(self, tenant_id: str) -> _Tenant:
        # Checked before anything is cached: a "*" or "#" in it would widen the session policy.
        require_identifier(tenant_id, "tenant_id")
        with self._tenants_guard:
            tenant = self._tenants.get(tenant_id)
            if tenant is None:
                tenant = self._tenants[tenant_id] = _Tenant()
                while len(self._tenants) > self._max_tenants:
                    self._tenants.popitem(last=False)
            else:
                self._tenants.move_to_end(tenant_id)
            return tenant

    def _fresh_credentials(self, tenant_id: str, tenant: _Tenant) -> TenantCredentials:
        """The tenant's credentials, renewed (and its clients dropped) when too close to expiry;
        the caller holds ``tenant.lock``.
        """
        current = tenant.credentials
        if current is not None and current.expires_at - self._margin > self._clock():
            return current
        policy = tenant_session_policy(
            tenant_id, table_arns=self._tables, bucket=self._bucket, knowledge_base_arn=self._kb_arn
        )
        request: dict[str, Any] = {
            "RoleArn": self._role_arn,
            "RoleSessionName": role_session_name(tenant_id),
            "Policy": packed_policy(policy),
            "DurationSeconds": self._duration,
        }
        if self._tag is not None:
            request["Tags"] = [{"Key": self._tag, "Value": tenant_id}]
        with transient_errors("sts assume_role"):
            response = self._sts.assume_role(**request)
        issued = response["Credentials"]
        tenant.credentials = TenantCredentials(
            access_key_id=issued["AccessKeyId"],
            secret_access_key=issued["SecretAccessKey"],
            session_token=issued["SessionToken"],
            expires_at=float(issued["Expiration"].timestamp()),
        )
        tenant.clients = {}
        return tenant.credentials
