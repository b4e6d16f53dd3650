"""Tenant-wide operations: hand out everything a tenant holds, delete it, forget one run
(or one agent's runs) everywhere it counted, or redact a text from every record.
"""

from __future__ import annotations

from agent_memory.app.messages import ExportTenant, ForgetRuns, ForgetTenant, RedactText
from agent_memory.core.ports import MemoryPorts
from agent_memory.core.workflows import forgetting, redaction
from agent_memory.core.workflows.forgetting import RunsForgotten
from agent_memory.core.workflows.redaction import TextRedacted
from agent_memory.core.workflows.tenants import ForgetReceipt, TenantExport, forget_tenant


def export_tenant(message: ExportTenant, ports: MemoryPorts) -> TenantExport:
    """The tenant's records as JSON lines, read as they are iterated, then their receipt."""
    return TenantExport(ports, message.tenant_id)


def forget(message: ForgetTenant, ports: MemoryPorts) -> ForgetReceipt:
    """Delete every record of the tenant in every store; the receipt of what was done."""
    return forget_tenant(ports, message.tenant_id, retained=message.retained)


def forget_runs(message: ForgetRuns, ports: MemoryPorts) -> RunsForgotten:
    """Forget one run of an agent, or all its runs, everywhere it counted; the receipt."""
    m = message
    return forgetting.forget_runs(
        ports, m.tenant_id, m.agent_id, m.run_id, actor=m.actor, reason=m.reason
    )


def redact(message: RedactText, ports: MemoryPorts) -> TextRedacted:
    """Replace a text in every record of the tenant that holds it; the receipt."""
    m = message
    return redaction.redact_text(
        ports, m.tenant_id, m.text, actor=m.actor, reason=m.reason, replacement=m.replacement
    )
