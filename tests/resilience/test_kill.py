"""``kill -9`` mid-consolidation: the half-done run is listed by ``failed list`` and completed by
``failed replay``, each of its records written once.

The CLI runs in a real subprocess (``killable_cli``: the command with a fake embedder that holds
inside a step), killed with SIGKILL while it holds: a run record and no episode (held in
write_episode), or an episode with its fact uncounted (held in confirm_facts).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from agent_memory.adapters.ledger_records import run_key
from agent_memory.core.tiers.semantic import fact_hash
from agent_memory.core.workflows.consolidation import runs_to_replay
from agent_memory.wiring.local import local_ports
from agent_memory.wiring.local_settings import LocalSettings
from tests.resilience.killable_cli import cli, kill_inside_a_step
from tests.support.embedder import HashingEmbedder
from tests.support.memory import run_event

FACT = "Liability caps below 1x fees are a red flag"
KEY = run_key("acme", "reviewer", "kill-1")


@pytest.mark.parametrize(
    ("hold_at", "left"),
    [(1, "a run record and no episode"), (2, "an episode with its fact uncounted")],
)
def test_a_killed_consolidation_is_listed_and_replay_completes_it_once(
    tmp_path: Path, hold_at: int, left: str
) -> None:
    # Given a consolidation killed with SIGKILL inside a step, leaving `left`
    store = tmp_path / "store"
    kill_inside_a_step(store, run_event("kill-1"), hold_at, tmp_path)
    # When the operator lists the runs awaiting replay, counting any run started and not
    # finished as incomplete (--incomplete-after 0: the process is known to be dead)
    listed = cli(store, "failed", "list", "--incomplete-after", "0")
    # Then the half-done run is named (before, this said only "no failed runs")
    assert listed.returncode == 0, listed.stderr
    assert f"{KEY}  started=" in listed.stdout
    # When it is replayed
    replayed = cli(store, "failed", "replay", "--incomplete-after", "0")
    # Then the run is completed, with its episode written once and its fact counted once
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert f"replayed {KEY}" in replayed.stdout
    ports = local_ports(LocalSettings(store=store), embedder=HashingEmbedder())
    assert [e.run_id for e in ports.episodes.export("acme")] == ["kill-1"]
    fact = ports.facts.get("acme", "contracts", fact_hash(FACT))
    assert fact is not None and fact.sightings == 1 and fact.run_ids == {"reviewer/kill-1"}
    # And nothing is left to replay
    runs = runs_to_replay(ports.run_ledger, now=time.time(), incomplete_after=0)
    assert (runs.failed, runs.incomplete) == ([], [])
