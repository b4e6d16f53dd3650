"""AsyncMemoryClient: the same behaviour as coroutines, blocking work kept off the event loop."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from botocore.stub import ANY

from agent_memory.sdk import (
    AsyncMemoryClient,
    AsyncRunHandle,
    InvalidInputError,
    PublishError,
    RemoteFunctionError,
)
from tests.sdk.conftest import (
    StubbedAws,
    accepted,
    failed_entry,
    invoke_reply,
    make_local,
    run_event,
)
from tests.sdk.test_local_client import GatedPii


def test_local_round_trip(tmp_path: Path) -> None:
    async def scenario() -> tuple[dict[str, Any], str]:
        async with AsyncMemoryClient(make_local(tmp_path).client) as memory:
            handle = await memory.finish_run(run_event("run-1"))
            result = await handle.wait(timeout=30)
            reply = await memory.bootstrap("acme", "reviewer", "Review the Tailspin MSA cap")
            return dict(result), reply["context"]

    result, context = asyncio.run(scenario())

    assert result["status"] == "CONSOLIDATED" and result["episode"] == "written"
    assert "Clause 7.3 caps liability" in context


def test_search_and_scoped_bootstrap_are_coroutines_too(tmp_path: Path) -> None:
    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        async with AsyncMemoryClient(make_local(tmp_path).client) as memory:
            # Given a consolidated run of the reviewer
            await (await memory.finish_run(run_event("run-1"))).wait(timeout=30)
            # When another agent of its team searches, and the reviewer bootstraps scoped
            found = await memory.search(
                "acme", "drafter", "Tailspin MSA liability cap", scope="team", team=["reviewer"]
            )
            reply = await memory.bootstrap(
                "acme", "reviewer", "Review the Tailspin MSA cap", scope="tenant"
            )
            return dict(found), dict(reply)

    found, reply = asyncio.run(scenario())

    # Then both read through the sync client, the episode naming its author
    assert [(e["run_id"], e.get("agent_id")) for e in found["episodes"]] == [("run-1", "reviewer")]
    assert [e["run_id"] for e in reply["episodes"]] == ["run-1"]


def test_invalid_event_is_refused(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with AsyncMemoryClient(make_local(tmp_path).client) as memory:
            await memory.finish_run(run_event("run 1"))

    with pytest.raises(InvalidInputError) as refused:
        asyncio.run(scenario())

    assert refused.value.field == "run_id"


def test_wait_timeout_leaves_the_consolidation_running(tmp_path: Path) -> None:
    # Given a consolidation held up by its PII detector
    pii = GatedPii()
    memory = AsyncMemoryClient(make_local(tmp_path, pii=pii).client)

    async def scenario() -> AsyncRunHandle:
        handle = await memory.finish_run(run_event("run-1"))
        # When the wait times out
        with pytest.raises(TimeoutError):
            await handle.wait(timeout=0.05)
        return handle

    try:
        handle = asyncio.run(scenario())
        # Then the consolidation was not cancelled: it completes once unblocked
        pii.gate.set()
        assert handle.sync.wait(timeout=30)["episode"] == "written"
    finally:
        pii.gate.set()
        memory.close()


def test_event_loop_is_free_while_memory_works(tmp_path: Path) -> None:
    pii = GatedPii()
    memory = AsyncMemoryClient(make_local(tmp_path, pii=pii).client)

    async def scenario() -> str:
        # The bootstrap blocks in its thread on the gate, which the loop itself opens.
        async def open_gate() -> None:
            await asyncio.sleep(0.05)
            pii.gate.set()

        reply, _ = await asyncio.gather(
            memory.bootstrap("acme", "reviewer", "Review the MSA"), open_gate()
        )
        return reply["context"]

    try:
        assert asyncio.run(scenario()) == ""
    finally:
        pii.gate.set()
        memory.close()


def test_aws_put_is_retried_off_the_loop(aws: StubbedAws) -> None:
    aws.events.add_response("put_events", failed_entry("ThrottlingException"), {"Entries": ANY})
    aws.events.add_response("put_events", accepted("evt-7"), {"Entries": ANY})
    memory = AsyncMemoryClient(aws.client)

    async def scenario() -> dict[str, Any]:
        handle = await memory.finish_run(run_event("run-1"))
        return dict(await handle.wait())

    assert asyncio.run(scenario())["event_id"] == "evt-7"
    assert aws.sleeps == [0.1]


def test_aws_errors_surface_from_the_coroutines(aws: StubbedAws) -> None:
    aws.events.add_client_error("put_events", "AccessDeniedException", http_status_code=400)
    error = {"errorType": "Runtime.ExitError", "errorMessage": "process exited"}
    aws.lambda_.add_response("invoke", invoke_reply(error, function_error="Unhandled"))
    memory = AsyncMemoryClient(aws.client)

    with pytest.raises(PublishError):
        asyncio.run(memory.finish_run(run_event("run-1")))
    with pytest.raises(RemoteFunctionError, match=r"Runtime\.ExitError"):
        asyncio.run(memory.bootstrap("acme", "reviewer", "Review the MSA"))


def test_procedure_feedback_and_review_are_coroutines_too(tmp_path: Path) -> None:
    async def scenario() -> tuple[int, int]:
        async with AsyncMemoryClient(make_local(tmp_path).client) as memory:
            await (await memory.finish_run(run_event("run-1"))).wait(timeout=30)
            [proposed] = await memory.list_procedures("acme", status="PENDING")
            procedure_id = proposed["procedure_id"]
            await memory.approve_procedure("acme", procedure_id, reviewer="legal-lead")
            # The run is served the procedure: its report counts with that serving's receipt
            await memory.bootstrap(
                "acme", "reviewer", "Review the MSA", task_type="contract_review"
            )
            handle = await memory.record_procedure_result(
                "acme", "reviewer", "run-2", procedure_id, False, task="Review the MSA"
            )
            await handle.wait(timeout=30)
            shown = await memory.get_procedure("acme", procedure_id)
            return shown["times_applied"], shown["times_succeeded"]

    assert asyncio.run(scenario()) == (1, 0)
