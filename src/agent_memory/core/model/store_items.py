"""Which episodes are items an agent's store keeps (LangGraph's ``BaseStore`` over episodes),
as opposed to the agent's runs.

An item's episode is replaced by forgetting it and reporting it again, which its agent may do;
a run's is memory the tenant learned, which only a person forgets (``ForgetRuns``). An item's
task is its JSON record, whose first key is :data:`STORE_ITEM_MARK`: scrubbing replaces spans
of text, never that opening, so the mark survives it.
"""

from __future__ import annotations

STORE_ITEM_MARK = "langgraph_item"
_OPENING = '{"' + STORE_ITEM_MARK + '":1,'


def is_store_item(task: str) -> bool:
    """Whether an episode's task is a store item's record."""
    return task.startswith(_OPENING)
