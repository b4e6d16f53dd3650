"""The ledger-reads benchmark: what one consolidation reads of the run ledger, on both paths."""

import json
from pathlib import Path

from agent_memory.core.workflows.consolidation import AFTER_EXTRACT
from benchmarks import ledger_reads


def test_a_consolidation_reads_the_ledger_twice_and_a_redelivery_once(tmp_path: Path) -> None:
    # When the benchmark consolidates each sample run, then delivers it again, on both paths
    out = tmp_path / "ledger_reads.json"
    assert ledger_reads.main(["--out", str(out)]) == 0
    rows = json.loads(out.read_text())["rows"]
    # Then a first delivery reads the run's record twice (extract, then the last step to mark
    # it complete) and a redelivery once (extract finds it complete), whichever the path
    assert {r["path"] for r in rows} == {"embedded", "step by step"}
    assert {r["first_time"]["ledger_reads"] for r in rows} == {2}
    assert {r["redelivery"]["ledger_reads"] for r in rows} == {1}
    # And a redelivery writes nothing but the (idempotent) removal of a failure record
    assert {r["redelivery"]["calls"].get("delete") for r in rows} == {1}
    assert {r["redelivery"]["ledger_writes"] for r in rows} == {1}


def test_the_step_by_step_path_runs_the_state_machines_steps_in_order() -> None:
    assert ledger_reads.STEPS == AFTER_EXTRACT
