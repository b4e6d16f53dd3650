"""``agent-memory stats`` as a user runs it, on a store filled through the CLI (real models)."""

import json
from pathlib import Path

import pytest

from tests.e2e.test_cli import cli
from tests.support.memory import run_event

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three acme runs of three agents confirming one fact (consolidated within seconds: one
    agent's runs would count once an hour), and one FAILED run of globex."""
    root = tmp_path_factory.mktemp("stats")
    events = [run_event(f"run-{i}", agent_id=f"reviewer-{i}") for i in (1, 2, 3)]
    events.append(run_event("g-1", tenant_id="globex", outcome="FAILED"))
    for event in events:
        path = root / f"{event['run_id']}.json"
        path.write_text(json.dumps(event))
        cli(root / "store", "consolidate", str(path))
    return root / "store"


def test_stats_json_counts_every_tier_across_tenants(store: Path) -> None:
    figures = json.loads(cli(store, "stats", "--json").stdout)

    assert figures["tenant_id"] is None
    assert figures["episodes"] == {"COMPLETED": 3, "PARTIAL": 0, "FAILED": 1, "UNKNOWN": 0}
    assert figures["facts"] == {"PENDING": 0, "CONFIRMED": 1, "CONTESTED": 0, "RETRACTED": 0}
    assert figures["facts_awaiting_ingestion"] == 1
    assert figures["procedures"] == {
        "PENDING": 1,
        "VALIDATED": 0,
        "REJECTED": 0,
        "NEEDS_REVIEW": 0,
        "RETIRED": 0,
    }
    assert (figures["procedures_on_trial"], figures["failed_runs"]) == (0, 0)


def test_stats_json_of_a_tenant_counts_only_its_memory(store: Path) -> None:
    figures = json.loads(cli(store, "stats", "--tenant", "globex", "--json").stdout)

    assert figures["tenant_id"] == "globex"
    assert figures["episodes"]["FAILED"] == 1
    assert sum(figures["episodes"].values()) == 1
    assert sum(figures["facts"].values()) == sum(figures["procedures"].values()) == 0


def test_stats_prints_one_line_per_tier(store: Path) -> None:
    out = cli(store, "stats").stdout.splitlines()

    assert out[0].startswith("memory of every tenant, ")
    assert [line.split()[:2] for line in out[1:]] == [
        ["episodes", "4"],
        ["facts", "1"],
        ["procedures", "1"],
        ["failed", "runs"],
    ]
    assert "awaiting ingestion 1" in out[2]


def test_stats_refuses_a_malformed_tenant_with_nothing_on_stdout(store: Path) -> None:
    done = cli(store, "stats", "--tenant", "acme#x", ok=False)

    assert done.returncode == 2
    assert done.stdout == ""
    assert "--tenant" in done.stderr
