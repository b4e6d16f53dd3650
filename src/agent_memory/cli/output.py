"""What the command prints, with every hidden character shown by name.

Commands print stored text (procedures, facts, failed runs' events); a terminal would act on the
escapes and controls such text can hold (``ESC[2K`` erases the line it is on) and show nothing of
format characters. Every command writes through :class:`VisibleOutput`, so a person reads each
character memory holds (``core/model/visible.py``), whatever the command prints.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TextIO

from agent_memory.core.model.visible import shown


class VisibleOutput:
    """A text stream that writes to ``target`` with hidden characters shown by name."""

    def __init__(self, target: TextIO) -> None:
        self._target = target

    def write(self, text: str) -> int:
        """Write ``text``, shown; the number of characters given (as ``TextIO.write``)."""
        self._target.write(shown(text))
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        """Write each of ``lines``, shown."""
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        """Flush the stream written to."""
        self._target.flush()

    def fileno(self) -> int:
        """The file descriptor of the stream written to."""
        return self._target.fileno()

    def isatty(self) -> bool:
        """Whether the stream written to is a terminal."""
        return self._target.isatty()
