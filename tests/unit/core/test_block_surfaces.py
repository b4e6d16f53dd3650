"""The block's instructions name only what the surface reading it lets the model do."""

from __future__ import annotations

from dataclasses import replace

import pytest

from agent_memory.core.api.bootstrap_request import parse_bootstrap_request
from agent_memory.core.model import markers
from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.model.requests import SURFACES, BootstrapRequest, Surface
from agent_memory.core.tiers import procedural
from agent_memory.core.workflows.bootstrap import bootstrap
from agent_memory.core.workflows.consolidation import consolidate, summary
from tests.support.memory import Memory, make_memory, run_event

REQUEST = BootstrapRequest(
    "acme", "reviewer", "Review the vendor MSA liability cap", "contract_review", "contracts"
)
# What each surface's model is told to do with the procedure's result, and what it never sees.
TOLD: dict[Surface, tuple[str, ...]] = {
    "sdk": ("report the result as procedure_feedback, with the reply's procedure.receipt",),
    "mcp": ("procedure_succeeded", "record_run", "report_procedure_result", "flag_memory"),
    "langgraph": ("the application reports whether it worked when the run finishes",),
    "strands": ("whether it worked is reported with the run's outcome",),
}
NEVER_SEEN = ("receipt", "procedure_feedback")


@pytest.fixture(scope="module")
def memory(tmp_path_factory: pytest.TempPathFactory) -> Memory:
    """A store with an approved procedure for the request's task type."""
    memory = make_memory(tmp_path_factory.mktemp("surfaces"), stores="memory")
    result = summary(consolidate(run_event("r1"), memory.ports))
    procedural.review(
        memory.ports.procedures,
        result["procedure_proposed"],
        approve=True,
        reviewer="ana",
        now=memory.clock(),
    )
    return memory


def report_line(memory: Memory, surface: Surface) -> str:
    """The procedure section's last line, as the block served to ``surface`` shows it."""
    reply = bootstrap(replace(REQUEST, surface=surface), memory.ports)
    assert reply["procedure"] is not None
    [section] = [
        s for s in markers.parse(reply["context"]).sections if s.kind == markers.PROCEDURAL
    ]
    line = section.lines[-1]
    assert line.startswith(f"(procedure_id: {reply['procedure']['procedure_id']}; ")
    return line


def test_every_surface_has_its_own_words() -> None:
    # Given every surface the core knows
    # When the words of each are listed
    # Then each surface has its own
    assert set(SURFACES) == set(TOLD)


@pytest.mark.parametrize("surface", SURFACES)
def test_the_block_tells_each_surface_what_it_can_do(memory: Memory, surface: Surface) -> None:
    # Given a validated procedure for the task type
    # When the block is served to the surface
    line = report_line(memory, surface)
    # Then it says what that surface does with the result, and nothing of another's
    assert all(words in line for words in TOLD[surface]), line
    if surface != "sdk":
        assert not any(word in line for word in NEVER_SEEN), line
    others = {w for s, told in TOLD.items() if s != surface for w in told} - set(TOLD[surface])
    assert not any(words in line for words in others), line


def test_the_block_of_a_request_without_a_surface_keeps_the_sdks_words(memory: Memory) -> None:
    # Given a bootstrap request as the SDK and the bootstrap function send it (no surface)
    request = parse_bootstrap_request(REQUEST.as_json())
    # When it is served, then its block speaks of the event's fields
    assert request.surface == "sdk"
    assert TOLD["sdk"][0] in report_line(memory, request.surface)


@pytest.mark.parametrize("surface", SURFACES)
def test_the_surface_travels_with_the_request(surface: Surface) -> None:
    # Given a request of the surface
    request = replace(REQUEST, surface=surface)
    # When it is sent as JSON and parsed again (the SDK to the bootstrap function)
    parsed = parse_bootstrap_request(request.as_json())
    # Then it names the same surface
    assert parsed == request


def test_an_unknown_surface_is_refused_naming_it() -> None:
    # When a request names a surface the core does not know
    with pytest.raises(InvalidInput) as refused:
        parse_bootstrap_request({**REQUEST.as_json(), "surface": "telegram"})
    # Then it is refused, naming the field
    assert refused.value.field == "surface"
