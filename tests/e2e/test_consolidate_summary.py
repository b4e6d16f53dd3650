"""``agent-memory consolidate`` prints where each fact stands under the tenant's rule, where a
proposed procedure waits for review, and a reused run_id with nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent_memory.cli.main import main
from agent_memory.core.tiers.semantic import fact_hash
from tests.support.memory import run_event

KEY = fact_hash("Liability caps below 1x fees are a red flag")
REVIEW = "agent-memory review --tenant acme or agent-memory procedures list --tenant acme"


def consolidate(
    store: Path, capsys: pytest.CaptureFixture[str], event: dict[str, object], *flags: str
) -> tuple[int, str]:
    path = store.parent / "event.json"
    path.write_text(json.dumps(event))
    capsys.readouterr()
    code = main(["--store", str(store), "consolidate", str(path), *flags])
    return code, capsys.readouterr().out


def test_each_run_says_where_its_fact_stands_and_why_it_did_not_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given one agent's run that reported a fact and proposed its procedure
    store = tmp_path / "store"
    code, first = consolidate(store, capsys, run_event("r1"))
    # When the same agent's next run reports the fact again at once
    _, second = consolidate(store, capsys, run_event("r2"))
    # Then the first says its count and the review, the second why it did not count
    assert code == 0
    lines = first.splitlines()
    assert (
        lines[1] == f"  fact {KEY}: 1 of 3 independent runs, not confirmed yet (this run counted)"
    )
    assert lines[2].startswith("  procedure proc-")
    assert lines[2].endswith(f"waits for a person's review (PENDING): {REVIEW}")
    said = second.splitlines()[1]
    assert said.startswith(
        f"  fact {KEY}: 1 of 3 independent runs, not confirmed yet; this run did not count "
        "(reviewer's runs count at most once every hour): reviewer's next run counts from "
    )
    assert said.endswith("another agent's run counts at once")


def test_a_reused_run_id_prints_that_nothing_was_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given run r1 consolidated
    store = tmp_path / "store"
    consolidate(store, capsys, run_event("r1"))
    # When another run is sent under r1, then the first again, then the other as JSON
    other = run_event("r1", task="Draft the renewal letter")
    code, out = consolidate(store, capsys, other)
    _, replay = consolidate(store, capsys, run_event("r1"))
    json_code, printed = consolidate(store, capsys, other, "--json")
    # Then the other is refused as a conflict (exit 4) with nothing written, and the replay
    # reported as consolidated already
    assert code == json_code == 4
    assert out == (
        "run r1: nothing written\n"
        "  nothing written: run_id r1 was already consolidated with different content (an "
        "exact replay is consolidated once; a new run needs its own run_id)\n"
    )
    assert "  run r1 was consolidated already: this exact replay wrote nothing again" in replay
    reply = json.loads(printed)
    assert reply["run_id_reused"] is True and reply["procedure_proposed"] is None
