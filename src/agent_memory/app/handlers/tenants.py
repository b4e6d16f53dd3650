"""Whole-tenant operations: hand out everything a tenant holds, or delete it."""

from __future__ import annotations

from agent_memory.app.messages import ExportTenant, ForgetTenant
from agent_memory.core.ports import MemoryPorts
from agent_memory.core.workflows.tenants import ForgetReceipt, TenantExport, forget_tenant


def export_tenant(message: ExportTenant, ports: MemoryPorts) -> TenantExport:
    """The tenant's records as JSON lines, read as they are iterated, then their receipt."""
    return TenantExport(ports, message.tenant_id)


def forget(message: ForgetTenant, ports: MemoryPorts) -> ForgetReceipt:
    """Delete every record of the tenant in every store; the receipt of what was done."""
    return forget_tenant(ports, message.tenant_id, retained=message.retained)
