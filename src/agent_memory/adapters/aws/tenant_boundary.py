"""The tenant boundary's grants, in one place: what a tenant's session may do to items and
objects, and the conditions that keep it to the tenant's own keys.

The stack grants them to the tenant data role (with the tenant as the role's session tag) and
the adapter narrows each session with them (the tenant as a literal): the two must name the
same actions and conditions, so both build them here.
"""

from __future__ import annotations

from typing import Any

from agent_memory.core.model import keys

__all__ = [
    "ITEM_ACTIONS",
    "LIST_ACTION",
    "OBJECT_ACTIONS",
    "TENANTS_PREFIX",
    "item_conditions",
    "list_conditions",
    "tenant_prefix",
]

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
LIST_ACTION = "s3:ListBucket"
# Where a tenant's KB documents live in the bucket: tenants/{tenant}/...
TENANTS_PREFIX = keys.TENANTS_FOLDER


def item_conditions(tenant: str) -> dict[str, Any]:
    """Every partition key a request names starts with ``tenant#``, and it names one.

    ``Null: false`` because ``ForAllValues`` holds for a request that names no key at all.
    """
    return {
        "ForAllValues:StringLike": {"dynamodb:LeadingKeys": [f"{tenant}{keys.KEY_SEPARATOR}*"]},
        "Null": {"dynamodb:LeadingKeys": "false"},
    }


def tenant_prefix(tenant: str, prefix: str = TENANTS_PREFIX) -> str:
    """The tenant's folder of the bucket, ending in ``/`` (``keys.tenant_folder`` under another
    ``prefix``).
    """
    return keys.tenant_folder(tenant) if prefix == TENANTS_PREFIX else f"{prefix}{tenant}/"


def list_conditions(tenant: str, prefix: str = TENANTS_PREFIX) -> dict[str, Any]:
    """A listing stays inside the tenant's folder."""
    return {"StringLike": {"s3:prefix": f"{tenant_prefix(tenant, prefix)}*"}}
