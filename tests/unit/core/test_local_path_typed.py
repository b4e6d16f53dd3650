"""One RunFinished event crosses the local path as typed values: it is validated once, and no
step turns a dict back into dataclasses (decoding the run state is for the Lambda edge).
"""

from pathlib import Path

import pytest

from agent_memory.core.api.contracts import RunFinishedEvent
from agent_memory.core.workflows.consolidation import consolidate
from tests.support.memory import make_memory, proposed_procedure, run_event
from tests.support.typed_path import count_validations, forbid_codecs


def test_a_run_is_consolidated_locally_without_a_json_round_trip(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given the embedded memory, every decoder of the run state refused, and validation counted
    memory = make_memory(tmp_path)
    called = forbid_codecs(monkeypatch)
    validations = count_validations(monkeypatch)
    # When one RunFinished event is consolidated in-process, every step in the ASL's order
    state = consolidate(run_event("run-1"), memory.ports)
    # Then every tier was written from typed state
    ports = memory.ports
    assert ports.episodes.get("acme", "reviewer", "run-1", now=ports.clock()) is not None
    assert state.facts is not None and len(state.facts.observed) == 1
    assert ports.procedures.get(proposed_procedure(state)) is not None
    # And the event was validated once, and nothing was decoded
    assert validations == [RunFinishedEvent]
    assert called == []


def test_the_guard_sees_a_codec_called(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Given the codecs refused as above
    called = forbid_codecs(monkeypatch)
    from agent_memory.core.workflows import run_state

    # When one is called, as the Lambda edge calls it
    with pytest.raises(AssertionError):
        run_state.state_from_json({})
    # Then the guard saw it: the test above cannot pass by patching nothing
    assert called == ["state_from_json"]
