"""Reading a paginated listing to its end: the one cursor-draining loop."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Protocol, TypeVar

if TYPE_CHECKING:
    from agent_memory.core.ports import Page

T = TypeVar("T")


class Listing(Protocol[T]):
    """One page of a listing, after ``cursor`` (a port's listing method with its other
    arguments bound, e.g. ``functools.partial(store.list_all, limit=100)``).
    """

    def __call__(self, *, cursor: str | None) -> Page[T]:
        """The page after ``cursor`` (the first page for None)."""
        ...


def every(listing: Listing[T]) -> Iterator[T]:
    """Every item of a listing, page after page, from the first page until one comes back
    without a cursor. Pages are read as items are consumed: a caller that stops early reads
    no further page.
    """
    cursor: str | None = None
    while True:
        page = listing(cursor=cursor)
        yield from page.items
        if page.cursor is None:
            return
        cursor = page.cursor
