"""The scoped-reads benchmark end to end at its smoke-test sizes: what it counts, not its times."""

import json
from pathlib import Path

import pytest

from benchmarks import scoped_reads

pytestmark = pytest.mark.slow


def test_the_quick_run_counts_one_read_of_the_versions_per_warm_read(tmp_path: Path) -> None:
    # When the benchmark runs at its smoke-test sizes
    out = tmp_path / "scoped_reads.json"
    assert scoped_reads.main(["--quick", "--out", str(out)]) == 0
    results = json.loads(out.read_text())
    setups = results["setups"]
    # Then a warm read of one agent reads its version once, a team's its members' versions
    # in one read, and the tenant's also its roster; none reads episodes
    reads = [s["store_reads_per_warm_bootstrap"] for s in setups.values()]
    version, versions = (
        "changes_since (a version read)",
        "versions (the members' versions, one read)",
    )
    assert reads == [
        {version: 1},
        {version: 1},
        {versions: 1},
        {"agents (the tenant's roster)": 1, versions: 1},
    ]
    # And the team's index holds every member's episodes (10 x 50, plus the new runs)
    team = next(s for name, s in setups.items() if "scope team" in name)
    assert team["indexed_episodes"] >= 10 * results["per_member"]
    assert "| team of 10 x 50 (scope team) |" in out.with_suffix(".md").read_text()
