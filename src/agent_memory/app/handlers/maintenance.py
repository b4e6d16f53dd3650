"""Scheduled and operator work: ingestion windows and the forgetting pass."""

from __future__ import annotations

from agent_memory.app.messages import Decay, Ingest, PreviewDecay
from agent_memory.app.ports import IngestionPorts, StorePorts
from agent_memory.core.workflows.decay import DecayPreview, DecayReport, decay, decay_preview
from agent_memory.core.workflows.ingestion import IngestionReport, run_ingestion


def ingest(_: Ingest, ports: IngestionPorts) -> IngestionReport:
    """Settle the previous ingestion job, then start one if any fact waits."""
    return run_ingestion(ports.facts, ports.knowledge_base, ports.checkpoints, now=ports.clock())


def run_decay(message: Decay, ports: StorePorts) -> DecayReport:
    """Apply every forgetting rule once, across all tenants."""
    return decay(
        ports.episodes,
        ports.facts,
        ports.procedures,
        ports.run_ledger,
        ports.checkpoints,
        now=ports.clock() if message.now is None else message.now,
        policy=ports.policies.decay,
    )


def preview_decay(message: PreviewDecay, ports: StorePorts) -> DecayPreview:
    """What the forgetting pass would delete and flag, read with the same rules."""
    return decay_preview(
        ports.episodes,
        ports.facts,
        ports.procedures,
        now=ports.clock() if message.now is None else message.now,
        policy=ports.policies.decay,
    )
