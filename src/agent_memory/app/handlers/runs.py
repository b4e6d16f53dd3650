"""The write path: consolidate a finished run, keep a failed one, replay what failed."""

from __future__ import annotations

from typing import Any

from agent_memory.app.messages import (
    ConsolidateRun,
    ContinueRun,
    ExtractRun,
    ListRunsToReplay,
    RecordFailure,
    RedeliveryOf,
    ReplayRun,
)
from agent_memory.app.replies import FailureRecorded
from agent_memory.core.model.run_records import RunRecord
from agent_memory.core.ports import MemoryPorts
from agent_memory.core.workflows import consolidation
from agent_memory.core.workflows.consolidation import RunsToReplay
from agent_memory.core.workflows.run_state import RunState


def consolidate_run(message: ConsolidateRun, ports: MemoryPorts) -> RunState:
    """Every step on the run; a step that fails records the run for replay, then raises
    ``StepFailed``. Invalid input raises ``InvalidInput`` and records nothing.
    """
    return consolidation.consolidate_or_record(dict(message.event), ports, run=message.run)


def extract_run(message: ExtractRun, ports: MemoryPorts) -> RunState:
    """The state machine's first step: the run distilled (no write happens here)."""
    return consolidation.extract_run(message.run, ports)


def continue_run(message: ContinueRun, ports: MemoryPorts) -> RunState:
    """One later step of the state machine on the run's state."""
    return consolidation.STEPS[message.step](message.state, ports)


def record_failure(message: RecordFailure, ports: MemoryPorts) -> FailureRecorded:
    """Keep the failed run replayable."""
    payload = {"event": message.event, "error": message.error, "execution": message.execution}
    kept = consolidation.record_failure(payload, ports)
    identity = ports.run_ledger.identify(kept.record.key)
    return FailureRecorded(kept.record, identity, repeated=kept.repeated)


def runs_to_replay(message: ListRunsToReplay, ports: MemoryPorts) -> RunsToReplay:
    """Every run of every tenant awaiting replay, found in one pass over the ledger."""
    return consolidation.runs_to_replay(
        ports.run_ledger, now=ports.clock(), incomplete_after=message.incomplete_after
    )


def redelivery_of(message: RedeliveryOf, ports: MemoryPorts) -> dict[str, Any] | None:
    """The detail that completes the incomplete run kept under the key."""
    entry = ports.run_ledger.entry(message.key, now=ports.clock())
    return None if entry is None else consolidation.redelivery_event(RunRecord.read(entry.value))


def replay_run(message: ReplayRun, ports: MemoryPorts) -> RunState:
    """Complete one failed or incomplete run (``NotFound`` if none has that key)."""
    return consolidation.replay(message.key, ports)
