"""The generated word, place and country-name lists, read from the package's ``data`` files.

Each file opens with ``#`` lines saying where it comes from and under which licence; the
generators that write them live outside the package (``tools/pii_lists/``).
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files


@cache
def read_list(name: str) -> str:
    """The body of ``data/<name>.txt``: its text without the comment lines."""
    text = files(__package__).joinpath("data", f"{name}.txt").read_text(encoding="utf-8")
    return "\n".join(line for line in text.splitlines() if not line.startswith("#"))
