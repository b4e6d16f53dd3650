"""The human gate in front of procedural memory, made usable: diffs and a local review page."""

from agent_memory.review.diff import ProcedureDiff, StepChange, diff_procedures, format_diff
from agent_memory.review.dossier import ReviewItem, SourceRun, review_item, review_queue
from agent_memory.review.server import ReviewApp, ReviewServer

__all__ = [
    "ProcedureDiff",
    "ReviewApp",
    "ReviewItem",
    "ReviewServer",
    "SourceRun",
    "StepChange",
    "diff_procedures",
    "format_diff",
    "review_item",
    "review_queue",
]
