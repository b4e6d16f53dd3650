"""Decay at volume on SQLite: exactly the FAILED episodes older than 7 days go, an interrupted
pass resumes where it stopped, and no procedure is ever deleted.

10,000 episodes here (about 30 pages of FAILED ones to delete), to keep the suite quick;
``benchmarks/resilience.py`` runs the same scenario over 100,000. They are written directly
with ``ports.episodes.add``: mixed outcomes, ages up to 60 days, four tenants, three agents, a
few exactly on the 7-day cutoff. The expected deletions are computed independently
(``helpers_decay``).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from agent_memory.core.model.models import ProcedureStatus
from agent_memory.core.model.policies import DecayPolicy
from agent_memory.core.ports import Checkpoint, MemoryPorts
from agent_memory.core.workflows.decay import DecayReport, decay
from tests.resilience.helpers_decay import (
    TENANTS,
    Crash,
    CrashingEpisodes,
    Seeded,
    seed_episodes,
    seed_procedures,
    stored_episodes,
)
from tests.support.memory import T0, make_memory

EPISODES = 10_000
NOW = T0
PAGE = DecayPolicy().page_size


@dataclass
class Decayed:
    """A decay pass that crashed partway, then the pass that resumed it."""

    ports: MemoryPorts
    seeded: Seeded
    crashed: CrashingEpisodes
    saved_progress: dict[str, object] | None
    resumed: CrashingEpisodes
    report: DecayReport


def run(ports: MemoryPorts, episodes: CrashingEpisodes, now: float) -> DecayReport:
    return decay(
        episodes,  # type: ignore[arg-type]
        ports.facts,
        ports.procedures,
        ports.run_ledger,
        ports.checkpoints,
        now=now,
    )


@pytest.fixture(scope="module")
def decayed(tmp_path_factory: pytest.TempPathFactory) -> Decayed:
    ports = make_memory(tmp_path_factory.mktemp("decay")).ports
    seeded = seed_episodes(ports.episodes, EPISODES, now=NOW, seed=17)
    seed_procedures(ports.procedures, now=NOW, seeded=seeded)
    assert len(seeded.doomed) > 10 * PAGE
    # Given a pass that dies part of the way through the deletions, mid-page
    crashed = CrashingEpisodes(ports.episodes, deletes=len(seeded.doomed) // 2 + PAGE // 3)
    with pytest.raises(Crash):
        run(ports, crashed, NOW)
    saved = ports.checkpoints.load(Checkpoint.DECAY_PROGRESS, now=NOW)
    # When the next scheduled pass starts an hour later
    resumed = CrashingEpisodes(ports.episodes)
    report = run(ports, resumed, NOW + 3600)
    return Decayed(ports, seeded, crashed, saved, resumed, report)


def test_decay_deletes_exactly_the_failed_episodes_older_than_seven_days(
    decayed: Decayed,
) -> None:
    survivors = stored_episodes(decayed.ports)
    assert decayed.seeded.doomed <= decayed.seeded.episodes
    assert survivors == decayed.seeded.episodes - decayed.seeded.doomed


def test_an_interrupted_pass_resumes_from_its_saved_position(decayed: Decayed) -> None:
    # Then the crashed pass had saved its position, the next pass picked it up (with the
    # crashed pass's "now"), and the two deleted every doomed episode once between them
    assert decayed.saved_progress is not None and decayed.saved_progress["cursor"]
    assert decayed.report.resumed
    assert decayed.resumed.cursors[0] == decayed.saved_progress["cursor"]
    assert decayed.crashed.deleted + decayed.resumed.deleted == len(decayed.seeded.doomed)
    assert decayed.ports.checkpoints.load(Checkpoint.DECAY_PROGRESS, now=NOW) is None
    # And its report counts no deletion twice (the page under way at the crash may go uncounted)
    doomed = len(decayed.seeded.doomed)
    assert doomed - PAGE <= decayed.report.failed_episodes_deleted <= doomed


def test_decay_never_deletes_a_procedure(decayed: Decayed) -> None:
    stored = {p.procedure_id: p.status for t in TENANTS for p in decayed.ports.procedures.export(t)}
    # Then every procedure survives; the stale or failing validated ones are only flagged
    assert set(stored) == set(decayed.seeded.procedures)
    flagged = {pid for pid, status in stored.items() if status is ProcedureStatus.NEEDS_REVIEW}
    already = {
        pid for pid, s in decayed.seeded.procedures.items() if s is ProcedureStatus.NEEDS_REVIEW
    }
    assert flagged == decayed.seeded.to_flag | already


def test_a_further_pass_at_the_same_moment_deletes_nothing_more(decayed: Decayed) -> None:
    before = stored_episodes(decayed.ports)
    again = run(decayed.ports, CrashingEpisodes(decayed.ports.episodes), NOW)
    assert (again.failed_episodes_deleted, again.resumed) == (0, False)
    assert stored_episodes(decayed.ports) == before
