"""The tenant data role: the only holder of tenant-scoped data permissions, and only per tenant.

Tenant-scoped functions assume it with a ``tenant_id`` session tag (and a session policy that
narrows it again). Its own policy already confines every call to the tagged tenant, so a handler
that forgot its session policy still cannot reach another tenant:

- DynamoDB item actions only where every partition key starts ``${aws:PrincipalTag/tenant_id}#``
  (``dynamodb:LeadingKeys``; ``Null: false`` because ``ForAllValues`` holds for a request that
  names no key at all, so Scan and PartiQL are also left out);
- S3 objects under ``tenants/${aws:PrincipalTag/tenant_id}/``, and listing that prefix only.

Both rest on the tag being a tenant id (``ID_PATTERN`` of ``agent_memory.core.api.contracts``):
``_decay`` would reach the ledger's ``_decay#progress``, ``acm*`` (if a substituted ``*`` is
a wildcard) every tenant starting ``acm``. The trust (``aws:RequestTag``) and the role's own
policy (``aws:PrincipalTag``, by explicit Deny) both refuse any other value, as far as
``StringLike`` can say it: see :data:`TENANT_ID_SHAPES` and :data:`NOT_IN_TENANT_IDS`.
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Sequence

from aws_cdk import Duration
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_iam as iam
from aws_cdk import aws_s3 as s3
from constructs import Construct

from agent_memory.adapters.aws import dynamodb_schema as schema
from agent_memory.adapters.aws.tenant_boundary import (
    ITEM_ACTIONS,
    LIST_ACTION,
    OBJECT_ACTIONS,
    item_conditions,
    list_conditions,
    tenant_prefix,
)
from stacks.nag import acknowledge, logical_id

TENANT_TAG = "tenant_id"
TENANT = f"${{aws:PrincipalTag/{TENANT_TAG}}}"

# A tenant id matches ID_PATTERN, ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$. IAM's StringLike, with
# only "*" and "?", says it so:
# - it starts with an ASCII letter or digit: never empty, never "_" (system keys such as
#   "_decay#progress", "_FAILED#0"), never a space or a non-ASCII character;
TENANT_ID_SHAPES = tuple(f"{c}*" for c in string.ascii_letters + string.digits)
# - it holds no printable ASCII character outside [A-Za-z0-9._-], anywhere: no "#" (the key
#   separator), no "/" (S3's), no space, no "*", "?" or "$" (written ${*}, ${?}, ${$}, IAM's
#   names for the characters themselves); and it has at most 128 characters.
TENANT_ID_MAX_CHARS = 128
_ID_CHARS = string.ascii_letters + string.digits + "._-"
NOT_IN_TENANT_IDS = (
    *(
        f"*{'${' + c + '}' if c in '*?$' else c}*"
        for c in map(chr, range(0x20, 0x7F))
        if c not in _ID_CHARS
    ),
    "?" * (TENANT_ID_MAX_CHARS + 1) + "*",
)
# What IAM cannot name is a non-ASCII letter, digit or space after the first character (STS
# admits any \p{L}, \p{Z}, \p{N} in a tag; a policy holds only U+0020-U+00FF): "acme\u3000"
# passes, and reaches only keys of a tenant "acme\u3000", which cannot exist.
# Indexes whose partition key starts with the tenant (see dynamodb_schema). The cross-tenant
# ones are keyed "{LABEL}#{n}": granting them would let a tenant named like a label read them.
TENANT_KEYED_INDEXES = (
    schema.AGENT_TIME_INDEX,
    schema.TENANT_INDEX,
    schema.FAST_PATH_INDEX,
    schema.PREFIX_INDEX,
)


class TenantDataAccess(Construct):
    """The tenant data role, assumable with a ``tenant_id`` session tag by ``principals``."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        principals: Sequence[iam.IRole],
        tables: Iterable[tuple[schema.TableDesign, dynamodb.ITable]],
        bucket: s3.IBucket,
        prefix: str,
    ) -> None:
        super().__init__(scope, construct_id)
        self.role = self._build_role(principals)
        self._deny_other_tags()
        self._grant_items(list(tables))
        self._grant_objects(bucket, prefix)
        self._allow(principals)

    def _build_role(self, principals: Sequence[iam.IRole]) -> iam.Role:
        if not principals:
            raise ValueError("the tenant data role needs at least one principal")
        tag = f"aws:RequestTag/{TENANT_TAG}"
        conditions = {
            # The tag must be set, must be the only one, and must be a tenant id.
            "StringLike": {tag: list(TENANT_ID_SHAPES)},
            "StringNotLike": {tag: list(NOT_IN_TENANT_IDS)},
            "ForAllValues:StringEquals": {"aws:TagKeys": [TENANT_TAG]},
        }
        trusted = [
            iam.PrincipalWithConditions(iam.SessionTagsPrincipal(p), conditions) for p in principals
        ]
        return iam.Role(
            self,
            "Role",
            description="Tenant data: assumed per tenant, with a tenant_id session tag",
            assumed_by=iam.CompositePrincipal(*trusted),
            max_session_duration=Duration.hours(1),
        )

    def _deny_other_tags(self) -> None:
        # Again in the role's own policy, so a trust that someday admits more (or a tag set
        # some other way) still reaches nothing: Deny wins over every Allow below. Two
        # statements, since one statement's conditions must all hold (AND).
        tag = f"aws:PrincipalTag/{TENANT_TAG}"
        refusals = {
            "OnlyTenantIdsStartTheTag": {"StringNotLike": {tag: list(TENANT_ID_SHAPES)}},
            "NoTagHoldsWhatTenantIdsCannot": {"StringLike": {tag: list(NOT_IN_TENANT_IDS)}},
        }
        for sid, condition in refusals.items():
            self.role.add_to_policy(
                iam.PolicyStatement(
                    sid=sid,
                    effect=iam.Effect.DENY,
                    actions=["*"],
                    resources=["*"],
                    conditions=condition,
                )
            )

    def _allow(self, principals: Sequence[iam.IRole]) -> None:
        for principal in principals:
            principal.add_to_principal_policy(
                iam.PolicyStatement(
                    actions=["sts:AssumeRole", "sts:TagSession"], resources=[self.role.role_arn]
                )
            )

    def _grant_items(self, tables: list[tuple[schema.TableDesign, dynamodb.ITable]]) -> None:
        resources: list[str] = []
        for design, table in tables:
            names = [i.name for i in design.indexes if i.name in TENANT_KEYED_INDEXES]
            resources += [table.table_arn, *(f"{table.table_arn}/index/{n}" for n in names)]
        self.role.add_to_policy(
            iam.PolicyStatement(
                actions=list(ITEM_ACTIONS),
                resources=resources,
                conditions=item_conditions(TENANT),
            )
        )

    def _grant_objects(self, bucket: s3.IBucket, prefix: str) -> None:
        self.role.add_to_policy(
            iam.PolicyStatement(
                actions=list(OBJECT_ACTIONS),
                resources=[bucket.arn_for_objects(f"{tenant_prefix(TENANT, prefix)}*")],
            )
        )
        self.role.add_to_policy(
            iam.PolicyStatement(
                actions=[LIST_ACTION],
                resources=[bucket.bucket_arn],
                conditions=list_conditions(TENANT, prefix),
            )
        )
        acknowledge(
            self.role,
            "IAM5",
            "Objects of the tagged tenant only: the session tag fills the prefix in at run time.",
            # cdk-nag spells the policy variable ${aws:…} as <aws:…>.
            findings=[f"Resource::<{logical_id(bucket)}.Arn>/{prefix}<{TENANT[2:-1]}>/*"],
        )
