"""The answers of handlers that are not a record of the core's: a review item, a comparison,
a failure recorded. Messages name them as their reply types; surfaces present them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from agent_memory.core.api.bootstrap_reply import ProcedureView
from agent_memory.core.model.models import Procedure
from agent_memory.core.model.procedure_diff import ProcedureDiff
from agent_memory.core.model.run_records import FailureRecord

RunSource = Literal["episode", "run record", "not stored"]


@dataclass(frozen=True, slots=True)
class SourceRun:
    """A run that proposed the procedure, as far as memory still knows it."""

    run_id: str
    found_in: RunSource
    agent_id: str | None = None
    summary: str | None = None
    outcome: str | None = None
    at: float | None = None
    expired: bool = False


@dataclass(frozen=True, slots=True)
class ReviewItem:
    """One procedure awaiting a decision, with its evidence and the diff to the served one."""

    procedure: Procedure
    trial: bool
    served: Procedure | None
    diff: ProcedureDiff
    runs: tuple[SourceRun, ...]
    runs_not_shown: int = 0
    served_trial: bool = False
    flagged_because: str | None = None


@dataclass(frozen=True, slots=True)
class ProcedureComparison:
    """A procedure beside another: the one served for its task type (None: none is), or the
    one asked for; ``served_itself``: the procedure is the one served now, so ``against`` is
    what would be served without it. Each also as its JSON view.
    """

    procedure: Procedure
    against: Procedure | None
    diff: ProcedureDiff
    served_itself: bool
    procedure_view: ProcedureView
    against_view: ProcedureView | None


@dataclass(frozen=True, slots=True)
class FailureRecorded:
    """A failed run's record, the run it names (``(tenant_id, agent_id, run_id)``, None if its
    key names none), and whether this report repeated an earlier one of the same execution.
    """

    record: FailureRecord
    identity: tuple[str, str | None, str] | None
    repeated: bool = False
