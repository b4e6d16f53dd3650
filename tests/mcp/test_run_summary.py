"""What an MCP host reads of a recorded run (``memory://runs/{run_id}``, in-process transport):
the summary with each fact's standing, the procedure's review, and a reused run_id."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client

from agent_memory.integrations.mcp import build_server, identity_of
from tests.mcp.servers import consolidated
from tests.sdk.conftest import LocalMemory, make_local, run_event

# The SDK tests' run of the contract reviewer, with a fact, as an MCP host records it (the
# server names the tenant and agent).
_EVENT = run_event("run-1")
_EVENT["artifacts"] = {
    **_EVENT["artifacts"],
    "facts": [{"content": "A liability cap below 1x annual fees is a red flag", "confidence": 0.9}],
}
RUN: dict[str, Any] = {k: v for k, v in _EVENT.items() if k not in ("tenant_id", "agent_id")}


@pytest.fixture
def local(tmp_path: Path) -> Iterator[LocalMemory]:
    memory = make_local(tmp_path / "store")
    yield memory
    memory.client.close()


def record(local: LocalMemory, *runs: dict[str, Any]) -> list[dict[str, Any]]:
    """Record each run in one session, each read back once consolidated."""
    server = build_server(local.client, identity_of("acme", "reviewer"))

    async def scenario() -> list[dict[str, Any]]:
        statuses = []
        async with Client(server) as client:
            for run in runs:
                await client.call_tool("record_run", run)
                statuses.append(await consolidated(client, run["run_id"]))
        return statuses

    return anyio.run(scenario)


def test_a_recorded_runs_status_says_where_its_fact_and_procedure_stand(
    local: LocalMemory,
) -> None:
    # When an agent records two runs reporting the same fact at once
    first, second = record(local, RUN, {**RUN, "run_id": "run-2"})
    # Then each status holds the summary's lines: counted, then not counted and why
    assert first["status"] == "CONSOLIDATED"
    assert first["notes"][0].endswith(
        "1 of 3 independent runs, not confirmed yet (this run counted)"
    )
    assert first["procedure_review"]["where"] == (
        "agent-memory review --tenant acme or agent-memory procedures list --tenant acme"
    )
    assert second["facts"][0]["counted"] is False
    assert second["notes"][0].endswith("another agent's run counts at once")


def test_a_run_recorded_again_under_its_id_with_other_content_is_reported(
    local: LocalMemory,
) -> None:
    # When an agent records a run, then another task under the same run_id
    _, again = record(local, RUN, {**RUN, "task": "Draft the renewal letter"})
    # Then the second status says nothing was written, and why
    assert again["run_id_reused"] is True and again["procedure_proposed"] is None
    assert again["notes"][0].startswith(
        "nothing written: run_id run-1 was already consolidated with different content"
    )
