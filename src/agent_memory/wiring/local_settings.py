"""Settings of the local mode, read from the environment once, at the entry point."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

HOME_VARIABLE = "AGENT_MEMORY_HOME"
LLM_VARIABLE = "AGENT_MEMORY_LLM"


@dataclass(frozen=True, slots=True)
class LocalSettings:
    """Where the embedded store lives and which optional model to use.

    ``llm`` is ``provider:model`` (``ollama:llama3.1:8b``, ``bedrock:<model id>``) or None for
    the default: no LLM, consolidation uses the event's artifacts and a deterministic extractor.
    """

    store: Path
    llm: str | None = None

    @classmethod
    def from_environment(
        cls, store: str | Path | None = None, environ: Mapping[str, str] | None = None
    ) -> LocalSettings:
        """``store`` if given, else ``$AGENT_MEMORY_HOME``, else ``~/.agent-memory``."""
        env = os.environ if environ is None else environ
        chosen = store or env.get(HOME_VARIABLE) or Path.home() / ".agent-memory"
        return cls(store=Path(chosen).expanduser(), llm=env.get(LLM_VARIABLE) or None)
