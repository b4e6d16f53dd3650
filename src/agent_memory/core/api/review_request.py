"""The review operation's contract: list, show, approve, reject, edit or retire a procedure,
or retract, correct or assert a fact, with the reviewer.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from agent_memory.core.api.contracts import Identifier
from agent_memory.core.model.models import ProcedureStatus


class ReviewRequest(BaseModel):
    """One review operation on the tenant's procedures or facts."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    action: Literal[
        "list", "show", "approve", "reject", "edit", "retire", "retract", "correct", "assert"
    ]
    tenant_id: Identifier
    procedure_id: Identifier | None = None
    # A fact's repair: the fact (its domain and hash) and a person's text for it.
    domain: Identifier | None = None
    fact_hash: Identifier | None = None
    content: str | None = None
    reviewer: str | None = None
    reason: str | None = None
    status: ProcedureStatus | None = None
    # Approving a REJECTED or RETIRED procedure overrules that person: it must be asked for.
    overrule: bool = False
    # An edit's steps and title (None: kept), and the revision the editor read (None: any).
    steps: list[str] | None = None
    title: str | None = None
    expected_revision: Annotated[int, Field(ge=0)] | None = None
