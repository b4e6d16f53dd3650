"""core.paging.every: a listing read to its end, one page at a time."""

from __future__ import annotations

from functools import partial

from agent_memory.core.paging import every
from agent_memory.core.ports import Page


class Numbers:
    """A listing of 0..count-1 in pages of ``limit``; records every cursor it was asked for."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.asked: list[str | None] = []

    def list(self, *, limit: int, cursor: str | None = None) -> Page[int]:
        self.asked.append(cursor)
        start = int(cursor or 0)
        end = min(start + limit, self.count)
        return Page(tuple(range(start, end)), str(end) if end < self.count else None)


def test_every_item_of_every_page_comes_in_order() -> None:
    # Given seven items in pages of three
    listing = Numbers(7)
    # When the listing is read to its end
    items = list(every(partial(listing.list, limit=3)))
    # Then all seven come in order, and each page was asked for once, from the first
    assert items == list(range(7))
    assert listing.asked == [None, "3", "6"]


def test_an_empty_listing_reads_one_page() -> None:
    listing = Numbers(0)
    assert list(every(partial(listing.list, limit=3))) == []
    assert listing.asked == [None]


def test_a_caller_that_stops_early_reads_no_further_page() -> None:
    # Given a long listing
    listing = Numbers(100)
    # When only the first two items are taken
    taken = [item for _, item in zip(range(2), every(partial(listing.list, limit=3)), strict=False)]
    # Then only the first page was read
    assert taken == [0, 1] and listing.asked == [None]
