from pathlib import Path

import pytest

from agent_memory.core.model.models import ProcedureStatus
from agent_memory.core.model.policies import HOUR, DecayPolicy
from agent_memory.core.ports import Checkpoint
from agent_memory.core.tiers import procedural
from agent_memory.core.tiers.semantic import fact_hash
from agent_memory.core.workflows.consolidation import consolidate, summary
from agent_memory.core.workflows.decay import decay, decay_preview
from tests.support.memory import DAY, Memory, make_memory, run_event
from tests.support.serving import feedback, serve


@pytest.fixture
def memory(tmp_path: Path) -> Memory:
    return make_memory(tmp_path, stores="memory")


def run_decay(memory: Memory, page_size: int = 100):  # type: ignore[no-untyped-def]
    p = memory.ports
    return decay(
        p.episodes,
        p.facts,
        p.procedures,
        p.run_ledger,
        p.checkpoints,
        now=memory.clock(),
        policy=DecayPolicy(page_size=page_size),
    )


def test_failed_episodes_older_than_seven_days_are_deleted(memory: Memory) -> None:
    consolidate(run_event("failed-old", outcome="FAILED"), memory.ports)
    consolidate(run_event("ok-old"), memory.ports)
    memory.clock.advance(7 * DAY - 1)
    consolidate(run_event("failed-new", outcome="FAILED"), memory.ports)
    memory.clock.advance(2)
    report = run_decay(memory)
    assert report.failed_episodes_deleted == 1
    remaining = {e.run_id for e in memory.ports.episodes.export("acme")}
    assert remaining == {"ok-old", "failed-new"}


def test_decay_follows_every_page(memory: Memory) -> None:
    for i in range(25):
        consolidate(run_event(f"f{i}", outcome="FAILED"), memory.ports)
    memory.clock.advance(8 * DAY)
    assert run_decay(memory, page_size=4).failed_episodes_deleted == 25
    assert list(memory.ports.episodes.export("acme")) == []


def test_unconfirmed_facts_expire_after_thirty_days_unseen(memory: Memory) -> None:
    consolidate(run_event("r1"), memory.ports)
    memory.clock.advance(30 * DAY + 1)
    assert run_decay(memory).pending_facts_expired == 1
    assert (
        memory.ports.facts.get(
            "acme", "contracts", fact_hash("Liability caps below 1x fees are a red flag")
        )
        is None
    )


def test_a_recent_sighting_keeps_a_pending_fact(memory: Memory) -> None:
    consolidate(run_event("r1"), memory.ports)
    memory.clock.advance(20 * DAY)
    consolidate(run_event("r2"), memory.ports)
    memory.clock.advance(20 * DAY)
    assert run_decay(memory).pending_facts_expired == 0


def test_confirmed_facts_never_expire(memory: Memory) -> None:
    # Given a fact confirmed by three runs of the agent, an hour apart
    for run_id in ("r1", "r2", "r3"):
        consolidate(run_event(run_id), memory.ports)
        memory.clock.advance(HOUR)
    memory.clock.advance(365 * DAY)
    assert run_decay(memory).pending_facts_expired == 0


def approved(memory: Memory) -> str:
    pid = summary(consolidate(run_event("r1"), memory.ports))["procedure_proposed"]
    procedural.review(
        memory.ports.procedures, pid, approve=True, reviewer="ana", now=memory.clock()
    )
    return str(pid)


def test_unused_procedures_are_flagged_not_deleted(memory: Memory) -> None:
    pid = approved(memory)
    memory.clock.advance(60 * DAY + 1)
    report = run_decay(memory)
    assert [f["procedure_id"] for f in report.procedures_flagged] == [pid]
    procedure = memory.ports.procedures.get(pid)
    assert procedure is not None and procedure.status is ProcedureStatus.NEEDS_REVIEW


def test_failing_procedures_are_flagged_after_three_uses(memory: Memory) -> None:
    approved(memory)
    for i, ok in enumerate((True, False, False)):
        used = feedback(serve(memory.ports), ok)
        consolidate(run_event(f"use{i}", procedure_feedback=used), memory.ports)
        if i == 1:
            assert run_decay(memory).procedures_flagged == []  # two uses: not yet judged
    report = run_decay(memory)
    assert report.procedures_flagged[0]["reason"] == "success rate 33% after 3 uses"


def test_a_good_recently_used_procedure_is_left_alone(memory: Memory) -> None:
    approved(memory)
    for i in range(3):
        used = feedback(serve(memory.ports), i != 0)
        consolidate(run_event(f"use{i}", procedure_feedback=used), memory.ports)
    memory.clock.advance(59 * DAY)
    assert run_decay(memory).procedures_flagged == []


def test_expired_episodes_are_purged(memory: Memory) -> None:
    consolidate(run_event("r1"), memory.ports)
    memory.clock.advance(91 * DAY)
    assert run_decay(memory).expired_episodes_purged == 1


def test_run_records_are_purged_when_they_expire(memory: Memory) -> None:
    consolidate(run_event("r1"), memory.ports)
    memory.clock.advance(89 * DAY)
    assert run_decay(memory).expired_ledger_records_purged == 0
    memory.clock.advance(2 * DAY)
    assert run_decay(memory).expired_ledger_records_purged == 1


class CrashingEpisodes:
    """An episode store that dies after ``allowed`` deletes, like a Lambda hitting its timeout."""

    def __init__(self, inner: object, allowed: int) -> None:
        self.inner, self.allowed = inner, allowed

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)

    def delete(self, tenant_id: str, agent_id: str, run_id: str) -> bool:
        if self.allowed == 0:
            raise TimeoutError("task timed out")
        self.allowed -= 1
        return bool(self.inner.delete(tenant_id, agent_id, run_id))  # type: ignore[attr-defined]


def test_an_interrupted_pass_resumes_where_it_stopped(memory: Memory) -> None:
    # Given 25 old FAILED episodes and a pass that dies after 9 deletions
    for i in range(25):
        consolidate(run_event(f"f{i}", outcome="FAILED"), memory.ports)
    memory.clock.advance(8 * DAY)
    p = memory.ports
    with pytest.raises(TimeoutError):
        decay(
            CrashingEpisodes(p.episodes, 9),
            p.facts,
            p.procedures,
            p.run_ledger,
            p.checkpoints,
            now=memory.clock(),
            policy=DecayPolicy(page_size=4),
        )
    # When the next invocation runs an hour later
    memory.clock.advance(3600)
    report = run_decay(memory, page_size=4)
    # Then it resumed and finished the job (the page under way at the crash may go uncounted)
    assert report.resumed
    assert 25 - 4 < report.failed_episodes_deleted <= 25
    assert list(memory.ports.episodes.export("acme")) == []
    # And the next pass starts fresh
    assert not run_decay(memory).resumed


def test_a_preview_follows_every_page_names_what_decay_then_does_and_writes_nothing(
    memory: Memory,
) -> None:
    # Given failed episodes over several pages and an unconfirmed fact, all past their time
    for i in range(9):
        consolidate(run_event(f"f{i}", outcome="FAILED"), memory.ports)
    consolidate(run_event("r1"), memory.ports)
    memory.clock.advance(31 * DAY)
    p = memory.ports
    before = list(p.episodes.export("acme")), list(p.facts.export("acme"))
    # When decay is previewed, three records a page
    preview = decay_preview(
        p.episodes, p.facts, p.procedures, now=memory.clock(), policy=DecayPolicy(page_size=3)
    )
    # Then it names each one, and nothing was written: no record, no progress kept
    assert sorted(e["run_id"] for e in preview.failed_episodes) == [f"f{i}" for i in range(9)]
    assert [f["domain"] for f in preview.pending_facts] == ["contracts"]
    assert (list(p.episodes.export("acme")), list(p.facts.export("acme"))) == before
    assert p.checkpoints.load(Checkpoint.DECAY_PROGRESS, now=memory.clock()) is None
    # And a pass then does exactly that
    report = run_decay(memory, page_size=3)
    assert report.failed_episodes_deleted == len(preview.failed_episodes)
    assert report.pending_facts_expired == len(preview.pending_facts)
