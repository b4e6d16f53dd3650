"""One fact read back with its confirmations (``GetFact``): the same answer through the SDK's
local mode, its AWS mode (the episodes function), the CLI and the MCP server.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agent_memory.core.tiers.semantic import fact_hash
from agent_memory.sdk import InvalidInputError
from tests.e2e.test_cli_options import cli
from tests.sdk.conftest import LocalMemory, StubbedAws
from tests.sdk.test_aws_episodes import expect
from tests.support.memory import run_event

FACT = "Liability caps below 1x fees are a red flag"
HASH = fact_hash(FACT)


def confirmed_by_three_agents(local: LocalMemory) -> None:
    for agent in ("reviewer", "drafter", "auditor"):
        local.client.finish_run(run_event(f"run-{agent}", agent_id=agent)).wait()


def test_a_fact_reads_back_with_who_confirmed_it(local: LocalMemory) -> None:
    # Given a fact three agents' runs reported
    confirmed_by_three_agents(local)
    # When it is read back by its hash, as a bootstrap reply names it
    reply = local.client.bootstrap("acme", "reviewer", "liability cap", domain="contracts")
    assert [f["fact_hash"] for f in reply["facts"]] == [HASH]
    found = local.client.get_fact("acme", "contracts", HASH)
    # Then it is confirmed by three independent runs, each agent's, and served before ingestion
    assert found is not None
    assert (found["content"], found["status"]) == (FACT, "CONFIRMED")
    assert (found["confirmations"], found["sightings"]) == (3, 3)
    assert sorted(found["counted_by"]) == ["auditor", "drafter", "reviewer"]
    assert found["served_from"] == "fast path"
    # And no other tenant or domain holds it
    assert local.client.get_fact("globex", "contracts", HASH) is None
    assert local.client.get_fact("acme", "privacy", HASH) is None


def test_a_bad_hash_is_refused_naming_its_field(local: LocalMemory) -> None:
    with pytest.raises(InvalidInputError) as refused:
        local.client.get_fact("acme", "contracts", "not a hash")
    assert refused.value.field == "fact_hash"


def test_on_aws_the_episodes_function_answers(aws: StubbedAws) -> None:
    # Given the episodes function's reply to a fact request
    record = {"fact_hash": HASH, "content": FACT, "status": "PENDING", "confirmations": 1}
    request = {"action": "fact", "tenant_id": "acme", "domain": "contracts", "fact_hash": HASH}
    expect(aws, request, {"fact": record})
    # Then the client sends that request once and answers with the function's record
    assert aws.client.get_fact("acme", "contracts", HASH) == record


@pytest.mark.slow
def test_the_cli_shows_a_fact_of_the_demo(tmp_path: Path) -> None:
    # Given the demo's store, where three runs a day apart confirmed one fact
    store = tmp_path / "store"
    assert cli(store, "--store", str(store), "demo").returncode == 0
    booted = cli(
        store, "bootstrap", "--tenant", "acme-legal", "--agent", "contract-reviewer",
        "--task", "liability clause", "--domain", "contract_law", "--json",
    )  # fmt: skip
    [fact] = json.loads(booted.stdout)["facts"]
    # When it is shown, as JSON and as text
    args = ("facts", "show", fact["fact_hash"], "--tenant", "acme-legal", "--domain")
    shown = cli(store, *args, "contract_law", "--json")
    text = cli(store, *args, "contract_law")
    missing = cli(store, *args, "other_domain")
    # Then both say it is confirmed by three runs, served from the knowledge base
    record: dict[str, Any] = json.loads(shown.stdout)
    assert (record["status"], record["confirmations"]) == ("CONFIRMED", 3)
    assert record["served_from"] == "knowledge base"
    assert "confirmed by 3 independent run(s)" in text.stdout
    assert "served from the knowledge base" in text.stdout
    # And a fact the domain does not hold is not found (exit 3), naming the hash
    assert missing.returncode == 3 and "no fact '" in missing.stderr
