"""Open flags as plain JSON: what ``flags`` answers on every surface."""

# No ``from __future__ import annotations`` here: TypedDict needs evaluated annotations.
from typing import TypedDict, cast

from agent_memory.core.model.flags import Flag
from agent_memory.core.ports import Page


class FlagRecord(TypedDict):
    """One flag: ``agent_id`` reported the item (``kind``, ``record_id``) wrong, why
    (``reason``), when (``flagged_at``, seconds since the epoch), in run ``run_id`` if named.
    """

    flag_id: str
    agent_id: str
    kind: str
    record_id: str
    reason: str
    flagged_at: float
    run_id: str | None


class FlagPage(TypedDict):
    """Open flags; ``cursor`` is None on the last page."""

    flags: list[FlagRecord]
    cursor: str | None


def flag_page(page: Page[Flag]) -> FlagPage:
    """The page's JSON form."""
    return {"flags": [flag_record(f) for f in page.items], "cursor": page.cursor}


def flag_record(flag: Flag) -> FlagRecord:
    """The flag's JSON form: as it is stored."""
    return cast(FlagRecord, flag.as_json())
