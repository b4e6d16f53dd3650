"""``agent-memory facts list|show``: a tenant's facts read back from the command line, the same
records the SDK reads, with who confirmed each, when each agent counts again, and where the
knowledge base stands.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from agent_memory.core.tiers.semantic import fact_hash
from agent_memory.sdk import MemoryClient
from tests.e2e.test_cli_options import cli
from tests.support.embedder import HashingEmbedder
from tests.support.fakes import FakePiiDetector
from tests.support.memory import run_event

CONFIRMED = "Liability caps below 1x fees are a red flag"
TENANT = ("--tenant", "acme")


def open_memory(home: Path) -> MemoryClient:
    return MemoryClient.local(home, embedder=HashingEmbedder(), pii=FakePiiDetector())


@pytest.fixture
def store(tmp_path: Path) -> Path:
    """Acme's fact three agents confirmed, and four facts one run each saw (pending)."""
    home = tmp_path / "home"
    with open_memory(home) as memory:
        for agent in ("reviewer", "drafter", "auditor"):
            memory.finish_run(run_event(f"run-{agent}", agent_id=agent)).wait(timeout=60)
        for n in range(4):
            event = run_event(f"run-pending-{n}", agent_id="reviewer")
            event["artifacts"]["facts"] = [
                {"content": f"Notice periods of {n + 2} months are usual", "confidence": 0.9}
            ]
            memory.finish_run(event).wait(timeout=60)
    return home


def test_list_pages_through_every_fact_of_the_tenant(store: Path) -> None:
    # When the facts are listed two at a time, following the printed cursor
    hashes, cursor, pages = [], None, 0
    while True:
        more = ("--cursor", cursor) if cursor else ()
        done = cli(store, "facts", "list", *TENANT, "--limit", "2", *more)
        assert done.returncode == 0, done.stderr
        pages += 1
        hashes += re.findall(r"^([0-9a-f]{32})\s", done.stdout, flags=re.MULTILINE)
        found = re.search(r"\(more: --cursor (\S+)\)", done.stdout)
        if found is None:
            break
        cursor = found.group(1)
    # Then every fact comes once, in three pages
    assert len(hashes) == 5 and len(set(hashes)) == 5 and fact_hash(CONFIRMED) in hashes
    assert pages == 3


def test_list_keeps_to_a_status_and_as_json_is_the_sdks_page(store: Path) -> None:
    # When the confirmed facts are listed, as text and as JSON
    text = cli(store, "facts", "list", *TENANT, "--status", "CONFIRMED")
    pending = cli(store, "facts", "list", *TENANT, "--status", "PENDING", "--json")
    listed = json.loads(pending.stdout)
    # Then the text names the one confirmed fact, and the JSON is what the SDK reads
    assert text.returncode == 0, text.stderr
    assert f"{fact_hash(CONFIRMED)}  CONFIRMED" in text.stdout and CONFIRMED in text.stdout
    assert len(listed["facts"]) == 4 and listed["cursor"] is None
    with open_memory(store) as memory:
        assert listed == memory.list_facts("acme", status="PENDING", limit=50)


def test_show_says_who_counted_when_each_counts_again_and_where_the_kb_stands(
    store: Path,
) -> None:
    # When the confirmed fact is shown, as JSON and as text
    args = ("facts", "show", fact_hash(CONFIRMED), *TENANT, "--domain", "contracts")
    record = json.loads(cli(store, *args, "--json").stdout)
    text = cli(store, *args).stdout
    # Then each agent that counted counts again an hour after it did (the default policy),
    # and the fact, served from the fast path, has its document staged for the next ingestion
    assert sorted(record["counts_again_at"]) == ["auditor", "drafter", "reviewer"]
    for agent, at in record["counted_by"].items():
        assert record["counts_again_at"][agent] == pytest.approx(at + 3600, abs=5)
    assert (record["served_from"], record["kb_document"]) == ("fast path", "staged")
    assert "reviewer counted last at" in text and "counts again from" in text
    assert "knowledge base: document staged, awaiting the next ingestion" in text


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (("list", *TENANT, "--limit", "0"), "limit"),
        (("list", *TENANT, "--domain", "bad domain"), "domain"),
        (("list", "--tenant", "bad tenant"), "--tenant"),
    ],
)
def test_a_bad_listing_is_a_usage_error_naming_its_field(
    store: Path, args: tuple[str, ...], field: str
) -> None:
    done = cli(store, "facts", *args)
    assert done.returncode == 2 and field in done.stderr, done.stderr


# --- a person's repairs ---------------------------------------------------------------------

TWO_X = "Liability caps below 2x fees are a red flag"
THREE_X = "Liability caps below 3x fees are a red flag"
DOMAIN = ("--domain", "contracts")


def served(home: Path) -> list[str]:
    """The facts the next bootstrap serves (the CLI's own models), by hash."""
    booted = cli(
        home, "bootstrap", *TENANT, "--agent", "reviewer", "--task", "liability cap fees",
        *DOMAIN, "--json",
    )  # fmt: skip
    assert booted.returncode == 0, booted.stderr
    return [f["fact_hash"] for f in json.loads(booted.stdout)["facts"]]


@pytest.fixture
def asserted(tmp_path: Path) -> Path:
    """A store where alice asserted one fact (through the command line, its own models)."""
    home = tmp_path / "repairs"
    done = cli(home, "facts", "assert", *TENANT, *DOMAIN, "--content", TWO_X, "--reviewer", "alice")
    assert done.returncode == 0, done.stderr
    assert f"{fact_hash(TWO_X)}  CONFIRMED  contracts" in done.stdout
    return home


def test_an_asserted_fact_is_served_at_once_and_in_the_history(asserted: Path) -> None:
    assert served(asserted) == [fact_hash(TWO_X)]
    history = cli(asserted, "history", *TENANT).stdout
    assert f"assert fact contracts/{fact_hash(TWO_X)}  by alice" in history


def test_retract_asks_first_and_without_a_terminal_changes_nothing(asserted: Path) -> None:
    done = cli(asserted, "facts", "retract", fact_hash(TWO_X), *TENANT, *DOMAIN)

    assert done.returncode == 2 and "--yes" in done.stderr
    assert served(asserted) == [fact_hash(TWO_X)]


def test_retract_yes_serves_it_nowhere_and_keeps_the_decision(asserted: Path) -> None:
    # When the fact is retracted, with a reason
    done = cli(
        asserted, "facts", "retract", fact_hash(TWO_X), *TENANT, *DOMAIN,
        "--reason", "not our policy", "--yes",
    )  # fmt: skip
    # Then it is RETRACTED, the next bootstrap serves nothing, and the history names it
    assert done.returncode == 0, done.stderr
    assert f"{fact_hash(TWO_X)}  RETRACTED" in done.stdout
    assert served(asserted) == []
    history = cli(asserted, "history", *TENANT).stdout
    assert f"retract fact contracts/{fact_hash(TWO_X)}" in history and "not our policy" in history
    shown = cli(asserted, "facts", "show", fact_hash(TWO_X), *TENANT, *DOMAIN).stdout
    assert "RETRACTED" in shown and "not served" in shown


def test_correct_yes_serves_the_correction_in_the_old_facts_place(asserted: Path) -> None:
    done = cli(
        asserted, "facts", "correct", fact_hash(TWO_X), *TENANT, *DOMAIN,
        "--content", THREE_X, "--reviewer", "bob", "--yes", "--json",
    )  # fmt: skip

    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert (record["fact_hash"], record["asserted_by"]) == (fact_hash(THREE_X), "bob")
    assert served(asserted) == [fact_hash(THREE_X)]
    old = json.loads(
        cli(asserted, "facts", "show", fact_hash(TWO_X), *TENANT, *DOMAIN, "--json").stdout
    )
    assert (old["status"], old["superseded_by"]) == ("RETRACTED", fact_hash(THREE_X))


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (("assert", *TENANT, *DOMAIN, "--content", "  "), "content"),
        (("assert", *TENANT, *DOMAIN, "--content", "x" * 2001), "content"),
        (("assert", *TENANT, "--domain", "bad domain", "--content", "A fact"), "domain"),
        (("correct", fact_hash(TWO_X), *TENANT, *DOMAIN, "--content", TWO_X, "--yes"), "content"),
    ],
)
def test_a_bad_repair_is_refused_and_changes_nothing(
    asserted: Path, args: tuple[str, ...], field: str
) -> None:
    done = cli(asserted, "facts", *args)

    assert done.returncode == 2 and field in done.stderr, done.stderr
    assert served(asserted) == [fact_hash(TWO_X)]
    assert len(re.findall(r"^\S+  \w+ fact ", cli(asserted, "history", *TENANT).stdout, re.M)) == 1


def test_retracting_a_fact_that_does_not_exist_is_not_found_and_changes_nothing(
    asserted: Path,
) -> None:
    # When a hash naming no fact is retracted
    done = cli(asserted, "facts", "retract", "0" * 32, *TENANT, *DOMAIN, "--yes")
    # Then it exits 3 (not found) in one line, and the served facts are as they were
    assert done.returncode == 3 and "no fact" in done.stderr, done.stderr
    assert served(asserted) == [fact_hash(TWO_X)]
