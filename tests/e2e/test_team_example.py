"""The team example: one worker's finding reaches another worker's next run, and no other tenant."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from agent_memory.sdk import MemoryClient
from tests.support.examples import load_example

pytestmark = pytest.mark.slow

FINDING = "verifies signatures with SHA-1; it must use HMAC-SHA256"


@pytest.fixture(scope="module")
def example() -> ModuleType:
    return load_example("team_of_agents")


def test_a_workers_finding_reaches_the_other_workers_next_run(
    example: ModuleType, tmp_path: Path
) -> None:
    with MemoryClient.local(tmp_path / "store") as memory:
        # Given the security reviewer's run, with no memory yet
        review = example.run_worker(memory, "security-reviewer", run_id="run-review")
        # When the code analyst of the same team takes its task
        analysis = example.run_worker(memory, "code-analyst", run_id="run-analysis")

    # Then the reviewer started from nothing, and its run was consolidated
    assert review.memory_received() == ""
    assert review.result["episode"] == "written"
    # And the analyst's model was given the reviewer's finding, naming who learned it
    received = analysis.memory_received()
    assert FINDING in received
    assert "security-reviewer" in received
    # And a team-scoped search names each episode's author
    authors = {e["run_id"]: e["agent_id"] for e in memory_episodes(tmp_path, "code-analyst")}
    assert authors == {"run-review": "security-reviewer", "run-analysis": "code-analyst"}


def test_another_tenants_worker_sees_nothing_of_the_team(
    example: ModuleType, tmp_path: Path
) -> None:
    with MemoryClient.local(tmp_path / "store") as memory:
        # Given the security reviewer's run in tenant acme
        example.run_worker(memory, "security-reviewer", run_id="run-review")
        # When the code analyst of another tenant takes the same task on the same store
        other = example.run_worker(memory, "code-analyst", run_id="run-other", tenant_id="globex")

    # Then its model was given no memory at all
    assert other.memory_received() == ""


def memory_episodes(tmp_path: Path, agent_id: str) -> list[dict[str, object]]:
    """The episodes a team-scoped search of ``agent_id`` finds for the analyst's task."""
    with MemoryClient.local(tmp_path / "store") as memory:
        found = memory.search(
            "acme",
            agent_id,
            "payments-api webhook signature checks",
            scope="team",
            team=["security-reviewer", "code-analyst"],
        )
    return [dict(e) for e in found["episodes"]]
