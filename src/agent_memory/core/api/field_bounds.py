"""Limits of a RunFinished event's single fields; the whole event is bounded by
``json_input.MAX_EVENT_BYTES``.
"""

from __future__ import annotations

MAX_TASK_CHARS = 8_000
MAX_MESSAGE_CHARS = 200_000
MAX_MESSAGES = 2_000
MAX_ITEM_CHARS = 2_000
MAX_LIST_ITEMS = 50
