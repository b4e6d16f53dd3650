"""Which tenant a caller may act for, when a deployment takes the tenant from who calls.

Two modes. ``payload`` (the default) trusts the ``tenant_id`` a caller sends: for deployments
where every caller is the operator's own code. ``principal-tag`` trusts only the caller's
identity: the ``tenant_id`` tag of its IAM role. A bootstrap request then carries a signed
proof of identity (verified by an adapter), and a RunFinished event's ``source`` must be the
tenant's own source, which the bus policy lets only a caller tagged with that tenant send.
The core decides; proving who called is the adapters' work.
"""

from __future__ import annotations

from enum import StrEnum

from agent_memory.core.model.errors import Forbidden, InvalidInput

# EventBridge sources of RunFinished events under principal-tag identity: the bus policy
# allows ``agent-memory.tenant.${aws:PrincipalTag/tenant_id}`` and nothing else.
TENANT_SOURCE_PREFIX = "agent-memory.tenant."
TENANT_TAG = "tenant_id"


class TenantIdentity(StrEnum):
    """Where a request's tenant comes from."""

    PAYLOAD = "payload"
    PRINCIPAL_TAG = "principal-tag"

    @classmethod
    def parse(cls, value: str | None, *, field: str = "tenant_identity") -> TenantIdentity:
        """The mode named by ``value`` (empty: ``payload``); anything else names ``field``."""
        text = (value or cls.PAYLOAD.value).strip()
        try:
            return cls(text)
        except ValueError:
            allowed = ", ".join(m.value for m in cls)
            raise InvalidInput(field, f"must be one of {allowed}, not {text!r}") from None


def tenant_source(tenant_id: str) -> str:
    """The EventBridge ``source`` a tenant's RunFinished events carry under principal-tag."""
    return f"{TENANT_SOURCE_PREFIX}{tenant_id}"


def check_claimed_tenant(claimed: str, proven: str) -> str:
    """``proven``, if the request's ``claimed`` tenant is the caller's own; else Forbidden."""
    if claimed != proven:
        raise Forbidden("tenant_id", f"the caller is tagged for another tenant than {claimed!r}")
    return proven


def check_event_source(source: str | None, tenant_id: str) -> None:
    """Refuse an event whose ``source`` is not the tenant's own (see :func:`tenant_source`).

    The bus policy already refuses such a PutEvents; this check keeps a misconfigured bus, or
    an event started by hand without its envelope, from writing as another tenant.
    """
    if source is None:
        raise Forbidden("source", "an event must arrive through the bus with its envelope")
    if source != tenant_source(tenant_id):
        raise Forbidden("source", f"must be {tenant_source(tenant_id)!r} for tenant {tenant_id!r}")
