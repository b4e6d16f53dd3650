"""The LangGraph example, run twice on one store: the second run starts from the first."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest
from langchain_core.messages import SystemMessage

from agent_memory.sdk import MemoryClient
from tests.support.examples import load_example

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def example() -> ModuleType:
    return load_example("contract_review_agent")


def test_second_run_is_bootstrapped_from_the_first(example: ModuleType, tmp_path: Path) -> None:
    # Given one store and the real local models
    with MemoryClient.local(tmp_path / "store") as memory:
        # When the agent reviews one contract, then another
        first = example.review_contract(memory, "Northwind MSA", run_id="run-northwind")
        second = example.review_contract(memory, "Tailspin MSA", run_id="run-tailspin")

    # Then the first run's model started with no memory
    assert not any(isinstance(m, SystemMessage) for m in first.model.received[0])
    assert first.result["episode"] == "written"
    # And the second run's first model call opened with the first run's episode
    opening = second.model.received[0]
    assert isinstance(opening[0], SystemMessage)
    context = str(opening[0].content)
    assert context.startswith("Memory from earlier runs is given between [MEMORY CONTEXT ")
    assert "\n[EPISODIC MEMORY " in context
    assert "Review the Northwind MSA for liability risk." in context
    assert "caps liability at 0.5x the annual fees" in context
    assert opening[1].content == "Review the Tailspin MSA for liability risk."


def test_working_memory_is_compressed_before_later_model_calls(
    example: ModuleType, tmp_path: Path
) -> None:
    with MemoryClient.local(tmp_path / "store") as memory:
        review = example.review_contract(memory, "Northwind MSA", run_id="run-1")

    last_call = review.model.received[-1]
    assert "[WORKING MEMORY SUMMARY" in str(last_call[0].content)
    assert "read_clause" in str(last_call[0].content)
    # The state itself was not compressed: the report carries the whole run.
    assert len(review.state["messages"]) == 6


def test_example_command_tells_the_story(
    example: ModuleType,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Given the store named by AGENT_MEMORY_HOME, as a user would set it
    monkeypatch.setenv("AGENT_MEMORY_HOME", str(tmp_path / "store"))
    monkeypatch.delenv("AGENT_MEMORY_LLM", raising=False)

    # When the command runs twice
    assert example.main(["--contract", "Northwind MSA"]) == 0
    first = capsys.readouterr().out
    assert example.main(["--contract", "Tailspin MSA"]) == 0
    second = capsys.readouterr().out

    # Then it says what memory gave each run
    assert "memory at the first model call: none yet" in first
    assert "[EPISODIC MEMORY" in second and "Northwind MSA" in second
    assert "consolidated: episode written" in second
