"""Principal-tag tenancy on the Lambda side: who may read (bootstrap) and write (extract).

Under ``TENANT_IDENTITY=principal-tag`` a bootstrap request must carry ``caller_identity``, a
signed proof (:mod:`agent_memory.adapters.aws.caller_identity`) whose signer's ``tenant_id``
tag is the request's tenant; a RunFinished event must carry its tenant's own ``source``, which
the bus policy lets only a caller tagged with that tenant put. Under ``payload`` (the
default) both are accepted as sent, and a proof, if any, is ignored.
"""

from __future__ import annotations

import threading
from typing import Any

from agent_memory.adapters.aws.caller_identity import CallerTenants
from agent_memory.core.model.tenant_identity import (
    TenantIdentity,
    check_claimed_tenant,
    check_event_source,
)
from agent_memory.wiring.aws import AwsRuntime

PROOF_FIELD = "caller_identity"

# The container's runtime and its verifier: compared by identity, so a runtime built later
# (another container's settings, a test's) never inherits an earlier one's caches.
_current: tuple[AwsRuntime, CallerTenants] | None = None
_lock = threading.Lock()


def split_proof(event: Any) -> tuple[Any, object]:
    """The request without its identity proof, and the proof (None if it has none)."""
    if not isinstance(event, dict) or PROOF_FIELD not in event:
        return event, None
    rest = {k: v for k, v in event.items() if k != PROOF_FIELD}
    return rest, event[PROOF_FIELD]


def check_caller(runtime: AwsRuntime, proof: object, tenant_id: str) -> None:
    """Under principal-tag, refuse a request for any tenant but the proven caller's."""
    if runtime.settings.tenant_identity is not TenantIdentity.PRINCIPAL_TAG:
        return
    check_claimed_tenant(tenant_id, _verifier(runtime).tenant_of(proof))


def check_source(runtime: AwsRuntime, event: Any, tenant_id: str) -> None:
    """Under principal-tag, refuse a RunFinished event not sent with its tenant's source."""
    if runtime.settings.tenant_identity is not TenantIdentity.PRINCIPAL_TAG:
        return
    source = event.get("source") if isinstance(event, dict) and "detail" in event else None
    check_event_source(source if isinstance(source, str) else None, tenant_id)


def use_verifier(runtime: AwsRuntime, verifier: CallerTenants) -> None:
    """Check ``runtime``'s callers with ``verifier`` (one built elsewhere, as in tests)."""
    global _current
    with _lock:
        _current = (runtime, verifier)


def _verifier(runtime: AwsRuntime) -> CallerTenants:
    """The container's verifier: its caches outlive invocations, as the runtime does."""
    global _current
    with _lock:
        if _current is not None and _current[0] is runtime:
            return _current[1]
        settings = runtime.settings
        if not settings.function_name:
            # Without it every proof would have to name an empty audience: fail closed.
            raise ValueError("principal-tag tenancy needs AWS_LAMBDA_FUNCTION_NAME (the audience)")
        verifier = CallerTenants(
            runtime.client("iam"), audience=settings.function_name, account=settings.caller_account
        )
        _current = (runtime, verifier)
        return verifier
