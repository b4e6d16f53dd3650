"""A consolidation step's input read once into the run's state, or refused naming its field."""

from __future__ import annotations

from typing import Any

import pytest

from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.workflows.consolidation import extract
from agent_memory.core.workflows.run_state import state_to_json
from agent_memory.serverless.parsing import parse_step_state
from tests.support.memory import make_memory, run_event


@pytest.fixture(scope="module")
def state(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """What extract hands the next step, as the state machine carries it."""
    memory = make_memory(tmp_path_factory.mktemp("state"), stores="memory")
    return state_to_json(extract(run_event("r1"), memory.ports))


def test_a_steps_state_reads_back_as_it_was_written(state: dict[str, Any]) -> None:
    assert state_to_json(parse_step_state(state)) == state


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda s: [], "state"),
        (lambda s: {k: v for k, v in s.items() if k != "run"}, "run"),
        (lambda s: {**s, "run": {**s["run"], "tenant_id": "a#b"}}, "run.tenant_id"),
        (lambda s: {**s, "run": {**s["run"], "agent_id": None}}, "run.agent_id"),
        (lambda s: {**s, "run": {**s["run"], "run_id": "../r1"}}, "run.run_id"),
        (lambda s: {**s, "run": {**s["run"], "task": 5}}, "run.task"),
        (lambda s: {**s, "artifacts": "none"}, "artifacts"),
        (lambda s: {**s, "artifacts": {}}, "state"),
        (lambda s: {**s, "units": [{"kind": "message"}]}, "state"),
    ],
)
def test_a_state_no_step_wrote_is_refused_naming_its_field(
    state: dict[str, Any], change: Any, field: str
) -> None:
    with pytest.raises(InvalidInput) as refused:
        parse_step_state(change(state))
    assert refused.value.field == field


def test_an_object_no_json_could_carry_is_refused_first(state: dict[str, Any]) -> None:
    huge = {**state, "extra": {str(i): i for i in range(100_000)}}
    with pytest.raises(InvalidInput):
        parse_step_state(huge)
