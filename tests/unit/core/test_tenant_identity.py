"""Tenant from the caller's identity: the core's decisions (proving identity is an adapter's)."""

from __future__ import annotations

import pytest

from agent_memory.core.model.errors import Forbidden, InvalidInput
from agent_memory.core.model.tenant_identity import (
    TenantIdentity,
    check_claimed_tenant,
    check_event_source,
    tenant_source,
)


def test_the_default_mode_trusts_the_payload() -> None:
    assert TenantIdentity.parse(None) is TenantIdentity.PAYLOAD
    assert TenantIdentity.parse(" principal-tag ") is TenantIdentity.PRINCIPAL_TAG


def test_an_unknown_mode_names_its_setting() -> None:
    with pytest.raises(InvalidInput, match="TENANT_IDENTITY: must be one of payload"):
        TenantIdentity.parse("header", field="TENANT_IDENTITY")


def test_a_caller_may_ask_only_for_its_own_tenant() -> None:
    # Given a caller proven to be of tenant acme
    assert check_claimed_tenant("acme", "acme") == "acme"
    # When it asks for globex, then it is refused, naming the field
    with pytest.raises(Forbidden, match="tenant_id"):
        check_claimed_tenant("globex", "acme")


def test_an_event_must_carry_its_tenants_own_source() -> None:
    check_event_source(tenant_source("acme"), "acme")
    with pytest.raises(Forbidden, match=r"agent-memory\.tenant\.acme"):
        check_event_source(tenant_source("globex"), "acme")
    # A tenant id that extends another's is not that tenant's source
    with pytest.raises(Forbidden):
        check_event_source(tenant_source("acme-evil"), "acme")


def test_an_event_without_its_envelope_proves_nothing() -> None:
    with pytest.raises(Forbidden, match="envelope"):
        check_event_source(None, "acme")
