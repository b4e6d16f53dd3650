"""Settings of the local mode, read from the environment once, at the entry point."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from agent_memory.core.model.regions import parse_regions

HOME_VARIABLE = "AGENT_MEMORY_HOME"
LLM_VARIABLE = "AGENT_MEMORY_LLM"
REGIONS_VARIABLE = "AGENT_MEMORY_PII_REGIONS"


@dataclass(frozen=True, slots=True)
class LocalSettings:
    """Where the embedded store lives and which optional model to use.

    ``llm`` is ``provider:model`` (``ollama:llama3.1:8b``, ``bedrock:<model id>``) or None for
    the default: no LLM, consolidation uses the event's artifacts and a deterministic extractor.
    ``pii_regions`` are the countries (ISO 3166 codes) whose national phone numbers the PII
    detector reads without a country code; the text's own language and words add more.
    """

    store: Path
    llm: str | None = None
    pii_regions: tuple[str, ...] = ()

    @classmethod
    def from_environment(
        cls, store: str | Path | None = None, environ: Mapping[str, str] | None = None
    ) -> LocalSettings:
        """``store`` if given, else ``$AGENT_MEMORY_HOME``, else ``~/.agent-memory``; the LLM
        from ``$AGENT_MEMORY_LLM``, the regions from ``$AGENT_MEMORY_PII_REGIONS`` (``DE,BR``).
        """
        env = os.environ if environ is None else environ
        chosen = store or env.get(HOME_VARIABLE) or Path.home() / ".agent-memory"
        return cls(
            store=Path(chosen).expanduser(),
            llm=env.get(LLM_VARIABLE) or None,
            pii_regions=parse_regions(env.get(REGIONS_VARIABLE), field=REGIONS_VARIABLE),
        )
