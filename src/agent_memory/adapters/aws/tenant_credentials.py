"""Tenant-scoped credentials: the handler's role, assumed again with a session policy that only
reaches one tenant's keys, so a bug in a query still cannot read another tenant (DESIGN §3).
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import boto3  # type: ignore[import-untyped, unused-ignore]

from agent_memory.adapters.aws._errors import require_identifier, transient_errors

__all__ = ["MAX_POLICY_CHARS", "TenantSessions", "packed_policy", "tenant_session_policy"]

# STS: "The plaintext that you use for both inline and managed session policies can't exceed
# 2,048 characters" (AssumeRole, Policy parameter).
MAX_POLICY_CHARS = 2048
# Item actions only: every one of them names partition keys, so LeadingKeys constrains it.
# Scan and PartiQL carry no leading keys and are left out on purpose.
ITEM_ACTIONS = (
    "dynamodb:GetItem",
    "dynamodb:BatchGetItem",
    "dynamodb:Query",
    "dynamodb:PutItem",
    "dynamodb:UpdateItem",
    "dynamodb:DeleteItem",
    "dynamodb:BatchWriteItem",
    "dynamodb:ConditionCheckItem",
)
OBJECT_ACTIONS = ("s3:GetObject", "s3:PutObject", "s3:DeleteObject")

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
            "Condition": {
                "ForAllValues:StringLike": {"dynamodb:LeadingKeys": [f"{tenant}#*"]},
                "Null": {"dynamodb:LeadingKeys": "false"},
            },
        },
        {"Effect": "Allow", "Action": list(OBJECT_ACTIONS), "Resource": f"{s3}/tenants/{tenant}/*"},
        {
            "Effect": "Allow",
            "Action": "s3:ListBucket",
            "Resource": s3,
            "Condition": {"StringLike": {"s3:prefix": f"tenants/{tenant}/*"}},
        },
    ]
    if knowledge_base_arn is not None:
        _match(_KB_ARN, knowledge_base_arn, "knowledge base ARN")
        statements.append(
            {"Effect": "Allow", "Action": "bedrock:Retrieve", "Resource": knowledge_base_arn}
        )
    policy = {"Version": "2012-10-17", "Statement": statements}
    if len(packed_policy(policy)) > MAX_POLICY_CHARS:
        raise ValueError(f"session policy exceeds {MAX_POLICY_CHARS} characters: fewer tables")
    return policy


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
class _Cached:
    session: Any
    expires_at: float


class TenantSessions:
    """``boto3.Session``s scoped to one tenant each, cached until shortly before they expire.

    The role is assumed with the session policy and, unless ``tenant_tag`` is None, a session
    tag ``{tenant_tag: tenant_id}`` that the role's own policy can key on
    (``${aws:PrincipalTag/tenant_id}``; the role's trust policy must allow ``sts:TagSession``).
    A session is handed out only while it has ``refresh_margin`` seconds left (15 minutes by
    default: Lambda's longest invocation), so a handler never holds credentials that expire
    mid-call. Safe to share between threads; concurrent first calls for one tenant assume the
    role once.
    """

    def __init__(
        self,
        role_arn: str,
        *,
        table_arns: Sequence[str],
        bucket: str,
        knowledge_base_arn: str | None = None,
        sts: StsClient | None = None,
        region_name: str | None = None,
        tenant_tag: str | None = "tenant_id",
        duration_seconds: int = 3600,
        refresh_margin: float = 900.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if duration_seconds <= refresh_margin:
            raise ValueError("duration_seconds must exceed refresh_margin")
        self._role_arn = role_arn
        self._tables = tuple(table_arns)
        self._bucket = bucket
        self._kb_arn = knowledge_base_arn
        self._sts = sts if sts is not None else boto3.client("sts", region_name=region_name)
        self._region = region_name
        self._tag = tenant_tag
        self._duration = duration_seconds
        self._margin = refresh_margin
        self._clock = clock
        self._cache: dict[str, _Cached] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._locks_guard = threading.Lock()

    def session_for(self, tenant_id: str) -> Any:
        """A ``boto3.Session`` that can only reach ``tenant_id``'s data."""
        policy = tenant_session_policy(
            tenant_id, table_arns=self._tables, bucket=self._bucket, knowledge_base_arn=self._kb_arn
        )
        with self._locks_guard:
            lock = self._locks.setdefault(tenant_id, threading.Lock())
        with lock:
            cached = self._cache.get(tenant_id)
            if cached is not None and cached.expires_at - self._margin > self._clock():
                return cached.session
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
            credentials = response["Credentials"]
            session = boto3.Session(
                aws_access_key_id=credentials["AccessKeyId"],
                aws_secret_access_key=credentials["SecretAccessKey"],
                aws_session_token=credentials["SessionToken"],
                region_name=self._region,
            )
            expires_at = float(credentials["Expiration"].timestamp())
            self._cache[tenant_id] = _Cached(session, expires_at)
            return session
