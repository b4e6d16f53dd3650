"""``agent-memory export`` and ``forget`` hand out receipts, and forget leaves no byte behind."""

import hashlib
import json
from pathlib import Path

import pytest

from tests.e2e.test_cli import cli, write_events

pytestmark = pytest.mark.slow

TENANT = "acme-legal"


def files_naming(root: Path, needle: str) -> list[str]:
    return [
        p.relative_to(root).as_posix()
        for p in sorted(root.rglob("*"))
        if needle in p.name or (p.is_file() and needle.encode() in p.read_bytes())
    ]


@pytest.fixture
def store(tmp_path: Path) -> Path:
    # Given the demo's runs consolidated and their confirmed fact ingested into the KB index
    store = tmp_path / "store"
    for path in write_events(tmp_path):
        cli(store, "consolidate", str(path))
    cli(store, "ingest")
    return store


def test_export_prints_a_receipt_of_what_it_wrote(store: Path) -> None:
    # When the tenant is exported
    done = cli(store, "export", "--tenant", TENANT)
    # Then the receipt (on stderr) counts each kind of record written and hashes the output
    receipt = json.loads(done.stderr)
    kinds = [json.loads(line)["kind"] for line in done.stdout.splitlines()]
    assert (receipt["operation"], receipt["tenant_id"]) == ("export", TENANT)
    assert receipt["episodes"] == kinds.count("episode") == 4
    assert receipt["facts"] == kinds.count("fact") > 0
    assert receipt["procedures"] == kinds.count("procedure") > 0
    assert receipt["kb_documents"] == kinds.count("kb_document") == 1
    assert receipt["ledger_records"] == kinds.count("ledger")
    assert receipt["sha256"] == hashlib.sha256(done.stdout.encode()).hexdigest()
    assert receipt["at"].endswith("Z")


def test_forget_prints_a_receipt_and_leaves_no_byte_of_the_tenant(store: Path) -> None:
    assert files_naming(store, TENANT)
    # When the tenant is forgotten
    done = cli(store, "forget", "--tenant", TENANT, "--yes")
    # Then the receipt says what went from each store, the index rewritten at once
    receipt = json.loads(done.stdout)
    assert (receipt["operation"], receipt["tenant_id"], receipt["episodes"]) == (
        "forget",
        TENANT,
        4,
    )
    assert receipt["facts"] > 0 and receipt["procedures"] > 0 and receipt["ledger_records"] > 0
    assert (receipt["kb_documents"], receipt["files_removed"]) == (1, 2)
    assert receipt["kb_index"] == "erased" and receipt["index_generations_rewritten"] == 1
    # And locally nothing remains anywhere: no file, no folder, not a byte
    assert receipt["remains"] == []
    assert files_naming(store, TENANT) == []
