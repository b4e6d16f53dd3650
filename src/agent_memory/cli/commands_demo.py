"""``agent-memory demo``: the contract-review story, end to end, in a store of its own."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    # Not subscriptable at run time; only the annotations (strings here) name it.
    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]


def register(commands: Subparsers, groups: dict[str, Subparsers]) -> None:
    """Add ``demo`` (run by the command itself: it opens a store of its own)."""
    del groups
    demo = commands.add_parser("demo", help="run the contract-review story end to end")
    demo.set_defaults(handler=None)
