"""What finish_run(...).wait() says locally: each fact's standing under the tenant's rule, the
procedure's review, and a reused run_id reported with nothing written."""

from __future__ import annotations

from typing import Any

from tests.sdk.conftest import LocalMemory, run_event

FACT = {"content": "A liability cap below 1x annual fees is a red flag", "confidence": 0.9}


def with_fact(run_id: str, **overrides: Any) -> dict[str, Any]:
    event = run_event(run_id, **overrides)
    event["artifacts"]["facts"] = [FACT]
    return event


def test_one_agent_reporting_a_fact_three_times_is_told_why_it_is_not_confirmed(
    local: LocalMemory,
) -> None:
    # Given one agent that reports the same fact in three runs, one after the other
    results = [local.client.finish_run(with_fact(f"run-{n}")).wait(timeout=30) for n in range(1, 4)]
    # Then none confirms it, and each says how far it is and why the later runs did not count
    assert [r["facts_confirmed"] for r in results] == [[], [], []]
    first, *later = results
    assert first["facts"][0]["counted"] is True
    assert "1 of 3 independent runs, not confirmed yet (this run counted)" in first["notes"][0]
    for result in later:
        [fact] = result["facts"]
        assert fact["counted"] is False and fact["confirmations"] == 1
        assert fact["counts_again_at"] > fact["seen_at"]
        assert "this run did not count" in result["notes"][0]
        assert "reviewer's next run counts from " in result["notes"][0]
        assert result["notes"][0].endswith("another agent's run counts at once")
    # And the procedure waits for a person's review, named where
    assert first["procedure_review"]["where"] == (
        "agent-memory review --tenant acme or agent-memory procedures list --tenant acme"
    )


def test_a_reused_run_id_is_reported_and_an_exact_replay_is_marked(local: LocalMemory) -> None:
    # Given a run finished
    local.client.finish_run(with_fact("run-1")).wait(timeout=30)
    # When the same event is sent again, then another run under the same run_id
    replay = local.client.finish_run(with_fact("run-1")).wait(timeout=30)
    other = local.client.finish_run(
        with_fact("run-1", task="Draft the Northwind renewal letter")
    ).wait(timeout=30)
    # Then the replay is marked already consolidated, and the other run wrote nothing
    assert replay["already_consolidated"] is True and replay["run_id_reused"] is False
    assert other["run_id_reused"] is True and other["episode"] == "not written"
    assert other["procedure_proposed"] is None
    assert other["notes"] == [
        "nothing written: run_id run-1 was already consolidated with different content (an "
        "exact replay is consolidated once; a new run needs its own run_id)"
    ]
    episode = local.client.get_episode("acme", "reviewer", "run-1")
    assert episode is not None and episode["task"] == "Review the Northwind MSA liability cap"
