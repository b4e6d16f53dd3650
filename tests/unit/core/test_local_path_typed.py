"""One RunFinished event crosses the local path as typed values: it is validated once, and no
step turns a dict back into dataclasses (decoding the run state is for the Lambda edge).
"""

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agent_memory.core.api import contracts
from agent_memory.core.api.contracts import RunFinishedEvent
from agent_memory.core.workflows.consolidation import consolidate
from tests.support.memory import make_memory, proposed_procedure, run_event

# Every function that builds domain values back from JSON; the local path calls none. (It does
# write JSON: the run's record in the ledger, and the state's size against Step Functions' limit.)
CODECS = (
    "state_from_json",
    "unit_from_json",
    "run_from_state",
    "artifacts_from_json",
)


def forbid_codecs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Replace each decoder, wherever a module of agent_memory holds it, by one that records its
    call and fails; the names called."""
    called: list[str] = []

    def refusing(name: str) -> Callable[..., Any]:
        def refuse(*args: Any, **kwargs: Any) -> Any:
            called.append(name)
            raise AssertionError(f"{name} called on the local path")

        return refuse

    for module in [m for n, m in sys.modules.items() if n.startswith("agent_memory")]:
        for name in CODECS:
            if hasattr(module, name):
                monkeypatch.setattr(module, name, refusing(name))
    return called


def test_a_run_is_consolidated_locally_without_a_json_round_trip(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given the embedded memory, every decoder of the run state refused, and validation counted
    memory = make_memory(tmp_path)
    called = forbid_codecs(monkeypatch)
    validations: list[type] = []
    original = contracts.validate

    def counted(model: type[Any], data: dict[str, Any]) -> Any:
        validations.append(model)
        return original(model, data)

    monkeypatch.setattr(contracts, "validate", counted)
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
