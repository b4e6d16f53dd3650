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
from agent_memory.core.tenant_identity import (
    TenantIdentity,
    check_claimed_tenant,
    check_event_source,
)
from agent_memory.serverless.wiring import AwsRuntime

PROOF_FIELD = "caller_identity"

_verifiers: dict[int, CallerTenants] = {}
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
    with _lock:
        _verifiers.clear()
        _verifiers[id(runtime)] = verifier


def _verifier(runtime: AwsRuntime) -> CallerTenants:
    """The container's verifier: its caches outlive invocations, as the runtime does."""
    with _lock:
        verifier = _verifiers.get(id(runtime))
        if verifier is None:
            settings = runtime.settings
            verifier = CallerTenants(
                runtime.client("iam"),
                audience=settings.function_name or "",
                account=settings.caller_account,
            )
            _verifiers.clear()
            _verifiers[id(runtime)] = verifier
        return verifier
