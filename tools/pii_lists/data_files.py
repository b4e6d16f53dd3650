"""Writing the package's generated lists: a ``#`` header (provenance, licence), then the body."""

from __future__ import annotations

import textwrap
from pathlib import Path

DATA = Path(__file__).parents[2] / "src/agent_memory/adapters/local/pii/data"


def wrapped(values: set[str], separator: str = " ") -> str:
    """``values`` sorted, joined by ``separator``, wrapped at 99 columns."""
    return textwrap.fill(separator.join(sorted(values)), width=99, break_long_words=False)


def data_file(header: str, body: str) -> str:
    """The text of a data file: each line of ``header`` as a comment, then ``body``."""
    comments = "".join(f"# {line}\n" if line else "#\n" for line in header.strip().splitlines())
    return comments + body.strip("\n") + "\n"


def write(files: dict[str, str], folder: Path = DATA) -> None:
    """Write each ``name: text`` as ``folder/name``."""
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
