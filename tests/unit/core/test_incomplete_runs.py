"""Runs that started and never finished (a crash between steps) are found, listed and completed
by replay; a consolidated run's redelivery calls no model.
"""

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from agent_memory.core.tiers.semantic import fact_hash
from agent_memory.core.workflows.consolidation import (
    INCOMPLETE_AFTER_SECONDS,
    consolidate,
    failed_runs,
    record_failure,
    replay,
    runs_to_replay,
    summary,
)
from tests.support.embedder import HashingEmbedder
from tests.support.memory import Memory, make_memory, run_event

FACT = "Liability caps below 1x fees are a red flag"
KEY = "acme#run#reviewer/r1"  # the run's record, what replay lists it under


class Killed(BaseException):
    """The process died here (not an error any step or recorder sees)."""


class DyingEmbedder(HashingEmbedder):
    """Dies on its ``dies_on``-th call of ``embed_documents``: write_episode makes the first,
    confirm_facts the second.
    """

    def __init__(self, dies_on: int) -> None:
        super().__init__()
        self.dies_on = dies_on

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        if self.calls + 1 == self.dies_on:
            self.calls += 1
            raise Killed
        return super().embed_documents(texts)


class CountingChat:
    """A chat model that counts its calls and replies with the same artifacts each time."""

    def __init__(self) -> None:
        self.calls = 0

    def complete(self, system: str, user: str) -> str:
        self.calls += 1
        return (
            '{"task_summary": "Reviewed the cap", "outcome": "COMPLETED", "key_findings": '
            f'["Cap is 0.5x fees"], "facts": [{{"content": "{FACT}", "confidence": 0.9}}]}}'
        )


@pytest.fixture
def memory(tmp_path: Path) -> Memory:
    return make_memory(tmp_path, stores="memory")


def crash(memory: Memory, dies_on: int) -> None:
    """Consolidate run r1 in a process that dies in the step making the ``dies_on``-th call."""
    dying = replace(memory.ports, embedder=DyingEmbedder(dies_on))
    with pytest.raises(Killed):
        consolidate(run_event("r1"), dying)


def test_a_run_that_died_mid_consolidation_is_listed_as_incomplete_after_the_bound(
    memory: Memory,
) -> None:
    # Given a run whose process died in write_episode, after scrub recorded it
    crash(memory, dies_on=1)
    # Then it is not listed while an execution could still be working on it
    memory.clock.advance(INCOMPLETE_AFTER_SECONDS - 1)
    early = runs_to_replay(memory.ports.run_ledger, now=memory.clock())
    assert early.incomplete == [] and early.failed == []
    # And once the bound has passed it is listed as incomplete, naming the run
    memory.clock.advance(1)
    [entry] = runs_to_replay(memory.ports.run_ledger, now=memory.clock()).incomplete
    assert (entry.key, entry.tenant_id, entry.agent_id, entry.run_id) == (
        KEY,
        "acme",
        "reviewer",
        "r1",
    )


@pytest.mark.parametrize(
    ("dies_on", "left"),
    [(1, "a run record and no episode"), (2, "an episode with its fact uncounted")],
)
def test_replay_completes_an_incomplete_run_writing_each_record_once(
    memory: Memory, dies_on: int, left: str
) -> None:
    # Given a run that died half-done (`left`)
    crash(memory, dies_on)
    memory.clock.advance(INCOMPLETE_AFTER_SECONDS)
    # When it is replayed from the incomplete listing
    [entry] = runs_to_replay(memory.ports.run_ledger, now=memory.clock()).incomplete
    result = summary(replay(entry.key, memory.ports))
    # Then the run is complete: one episode, its fact counted once, its procedure proposed
    assert result["procedure_proposed"] is not None
    assert len(list(memory.ports.episodes.export("acme"))) == 1
    fact = memory.ports.facts.get("acme", "contracts", fact_hash(FACT))
    assert fact is not None and fact.run_ids == {"reviewer/r1"} and fact.sightings == 1
    # And nothing is left to replay, even much later
    memory.clock.advance(INCOMPLETE_AFTER_SECONDS)
    later = runs_to_replay(memory.ports.run_ledger, now=memory.clock())
    assert later.incomplete == [] and later.failed == []


def test_a_run_with_a_failure_record_is_listed_as_failed_only(memory: Memory) -> None:
    # Given a run that died mid-consolidation, whose failure was also recorded
    crash(memory, dies_on=1)
    record_failure({"event": run_event("r1"), "error": {"Error": "Killed"}}, memory.ports)
    memory.clock.advance(INCOMPLETE_AFTER_SECONDS)
    # Then it is listed once, as the failed run it is
    runs = runs_to_replay(memory.ports.run_ledger, now=memory.clock())
    assert [r.key for r in runs.failed] == ["acme#failed#reviewer/r1"]
    assert runs.incomplete == []


def test_one_execution_reported_twice_counts_one_failure(memory: Memory) -> None:
    # Given a failure recorded by an execution's Catch
    payload = {"event": run_event("r1"), "error": {"Error": "X"}, "execution": "arn:exec:1"}
    record_failure(payload, memory.ports)
    # When the same execution's end is reported again (its status-change event)
    again = record_failure({**payload, "error": {"Error": "FAILED"}}, memory.ports)
    # Then it is still one failure, with the step's own error
    assert again.repeated
    assert again.record.failures == 1 and again.record.error == {"Error": "X"}
    # While a later execution's failure counts
    later = record_failure({**payload, "execution": "arn:exec:2"}, memory.ports)
    assert later.record.failures == 2


def test_a_repeated_report_resolves_a_failure_whose_run_was_consolidated_since(
    memory: Memory,
) -> None:
    # Given a run one delivery consolidated, and a failure record its twin's Catch wrote
    # without checking the run (its check failed after the write)
    consolidate(run_event("r1"), memory.ports)
    payload = {"event": run_event("r1"), "error": {"Error": "X"}, "execution": "arn:exec:1"}
    ledger = memory.ports.run_ledger
    written = {
        **payload,
        "key": ledger.failure_key("acme", "reviewer", "r1"),
        "failed_at": memory.clock(),
        "failures": 1,
    }
    ledger.put_failure("acme", "reviewer", "r1", written, now=memory.clock(), expires_at=None)
    assert [r.key for r in failed_runs(ledger, "acme")] == ["acme#failed#reviewer/r1"]
    # When the same execution's end is reported again (its Catch retried, or its
    # status-change event)
    again = record_failure({**payload, "error": {"Error": "FAILED"}}, memory.ports)
    # Then the failure is resolved, and nothing is left to replay
    assert again.record.resolved and again.repeated
    assert failed_runs(ledger, "acme") == []


def test_a_consolidated_runs_redelivery_calls_no_model(tmp_path: Path) -> None:
    # Given a run with messages only, consolidated with a chat model and an embedder
    chat = CountingChat()
    memory = make_memory(tmp_path, chat=chat, stores="memory")
    event = run_event(
        "r1",
        messages=[{"role": "human", "content": f"Review it. Unit {n}."} for n in range(40)],
    )
    del event["artifacts"]
    consolidate(event, memory.ports)
    assert chat.calls > 0 and memory.embedder.calls > 0
    chat.calls = memory.embedder.calls = 0
    # When it is redelivered
    again = summary(consolidate(event, memory.ports))
    # Then it is answered without a single model call
    assert again["episode"] == "already present"
    assert (chat.calls, memory.embedder.calls) == (0, 0)


def test_an_incomplete_runs_written_episode_is_not_embedded_again(memory: Memory) -> None:
    # Given a run that died in confirm_facts, after its episode was written
    crash(memory, dies_on=2)
    memory.clock.advance(INCOMPLETE_AFTER_SECONDS)
    # When it is replayed
    replay(KEY, memory.ports)
    # Then only confirm_facts called the embedder (its facts), not write_episode again
    assert memory.embedder.calls == 1
