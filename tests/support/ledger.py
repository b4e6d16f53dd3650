"""What a store's run ledger, checkpoints and model registry hold, for tests that look at all."""

from __future__ import annotations

import time
from typing import Any

from agent_memory.core.ports import Checkpoint, MemoryPorts


def ledger_contents(ports: MemoryPorts, *, now: float | None = None) -> list[Any]:
    """Every run and failure record (expired included), saved checkpoint and the recorded
    active model: empty for a store the ledger was never written in.
    """
    at = time.time() if now is None else now
    contents: list[Any] = [(e.key, e.value) for e in ports.run_ledger.entries()]
    contents += [
        (c, state) for c in Checkpoint if (state := ports.checkpoints.load(c, now=at)) is not None
    ]
    active = ports.model_registry.active_model(now=at)
    return contents if active is None else [*contents, active]


def ledger_values(ports: MemoryPorts) -> list[dict[str, Any]]:
    """The values of every run and failure record, of every tenant (expired included)."""
    return [entry.value for entry in ports.run_ledger.entries()]
