"""The review operation's contract: list, show, approve or reject a procedure, or retract,
correct or assert a fact, with the reviewer.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from agent_memory.core.api.contracts import Identifier
from agent_memory.core.model.models import ProcedureStatus


class ReviewRequest(BaseModel):
    """One review operation on the tenant's procedures or facts."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    action: Literal["list", "show", "approve", "reject", "retract", "correct", "assert"]
    tenant_id: Identifier
    procedure_id: Identifier | None = None
    # A fact's repair: the fact (its domain and hash) and a person's text for it.
    domain: Identifier | None = None
    fact_hash: Identifier | None = None
    content: str | None = None
    reviewer: str | None = None
    reason: str | None = None
    status: ProcedureStatus | None = None
    # Approving a REJECTED procedure overrules that rejection: it must be asked for.
    overrule_rejection: bool = False
