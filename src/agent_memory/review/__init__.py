"""The human gate in front of procedural memory, made usable: a local review page."""

from agent_memory.review.server import ReviewApp, ReviewServer

__all__ = ["ReviewApp", "ReviewServer"]
