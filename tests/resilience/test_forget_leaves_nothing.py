"""After ``forget``, no byte of the tenant is left in any file of the local store.

The store is read as raw bytes, file by file (the SQLite database with its ``-wal``, ``-shm``
and any journal, every generation of the KB index, the document folder, the job log), and
searched for the forgotten tenant's distinctive strings: its id, its facts' text, its episodes'
findings and its procedures' steps. SQLite keeps deleted rows in free pages and old log frames
unless told otherwise, and the KB index keeps the previous generation for readers in other
processes, so each is a place a forgotten tenant could survive.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_memory.adapters.local.sqlite_db import SqliteDatabase
from agent_memory.adapters.local.sqlite_ledger import SqliteLedger
from agent_memory.core.model.models import FactStatus
from agent_memory.core.model.requests import BootstrapRequest
from agent_memory.core.tiers import procedural
from agent_memory.core.workflows.bootstrap import bootstrap
from agent_memory.core.workflows.consolidation import consolidate
from agent_memory.core.workflows.ingestion import run_ingestion
from agent_memory.core.workflows.tenants import forget_tenant
from tests.support.memory import DAY, Memory, make_memory, run_event

FORGOTTEN, KEPT = "tenant-quetzal", "tenant-okapi"
AGENTS = ("reviewer", "drafter", "auditor")


def secrets_of(tenant: str) -> dict[str, str]:
    """Strings only this tenant's records contain, by where they are stored."""
    word = tenant.removeprefix("tenant-")
    return {
        "tenant id": tenant,
        "fact": f"The {word}bridge desk owns every indemnity escalation",
        "finding": f"Clause 7.3 was signed by the {word}ridge office",
        "step": f"Ask the {word}ward team for the signed cap",
    }


def event(tenant: str, agent: str, run_id: str) -> dict[str, object]:
    secrets = secrets_of(tenant)
    return run_event(
        run_id,
        tenant_id=tenant,
        agent_id=agent,
        artifacts={
            "task_summary": "Reviewed the vendor MSA liability cap",
            "key_findings": [secrets["finding"]],
            "facts": [{"content": secrets["fact"], "confidence": 0.9}],
            "procedure": {"title": "MSA review", "steps": ["Read clause 7.3", secrets["step"]]},
        },
    )


def learn(memory: Memory, tenant: str) -> None:
    """Runs by three agents a day apart: the fact is confirmed, the procedure proposed."""
    for number, agent in enumerate(AGENTS):
        consolidate(event(tenant, agent, f"run-{number}"), memory.ports)
        memory.clock.advance(DAY)


def ingest(memory: Memory) -> None:
    ports = memory.ports
    run_ingestion(ports.facts, ports.knowledge_base, ports.checkpoints, now=ports.clock())


def files_holding(root: Path, needle: str) -> list[str]:
    """Every file under ``root`` whose path or raw bytes contain ``needle``."""
    found = []
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root).as_posix()
        if needle in relative or (path.is_file() and needle.encode() in path.read_bytes()):
            found.append(relative)
    return found


def empty_folders(root: Path) -> list[str]:
    return [
        p.relative_to(root).as_posix()
        for p in sorted(root.rglob("*"))
        if p.is_dir() and not any(p.iterdir())
    ]


@pytest.fixture
def memory(tmp_path: Path) -> Memory:
    # Given two tenants whose facts are confirmed and in the KB index, with their procedures
    # approved, and a second ingestion (so the index has a previous generation too)
    memory = make_memory(tmp_path / "store")
    for tenant in (FORGOTTEN, KEPT):
        learn(memory, tenant)
    ingest(memory)
    for tenant in (FORGOTTEN, KEPT):
        ports = memory.ports
        for p in ports.procedures.for_task_type(tenant, "contract_review"):
            procedural.review(
                ports.procedures,
                p.procedure_id,
                approve=True,
                reviewer="lead",
                now=ports.clock(),
                tenant_id=tenant,
            )
    return memory


def test_before_forget_every_secret_is_in_the_raw_files(memory: Memory) -> None:
    # Then the search below does find what it looks for (so finding nothing later means
    # something): every secret is in some file, the fact in the KB index as well
    for name, secret in secrets_of(FORGOTTEN).items():
        assert files_holding(memory.root, secret), name
    assert any("gen-" in f for f in files_holding(memory.root, secrets_of(FORGOTTEN)["fact"]))


def test_after_forget_no_file_holds_any_byte_of_the_tenant(memory: Memory) -> None:
    # When the tenant is forgotten (and nothing else runs afterwards)
    forget_tenant(memory.ports, FORGOTTEN)
    # Then no file's path or bytes holds its id, a fact, a finding or a step
    left = {name: files_holding(memory.root, s) for name, s in secrets_of(FORGOTTEN).items()}
    assert left == {name: [] for name in left}


def test_after_forget_no_empty_folder_is_left(memory: Memory) -> None:
    assert empty_folders(memory.root) == []
    forget_tenant(memory.ports, FORGOTTEN)
    assert empty_folders(memory.root) == []


def test_after_forget_the_other_tenant_is_stored_and_served(memory: Memory) -> None:
    # When one tenant is forgotten
    forget_tenant(memory.ports, FORGOTTEN)
    # Then every secret of the other is still on disk
    for name, secret in secrets_of(KEPT).items():
        assert files_holding(memory.root, secret), name
    # And served: its fact from the KB index, its episode and its procedure
    kept = secrets_of(KEPT)
    hits = memory.ports.knowledge_base.retrieve(kept["fact"], tenant_id=KEPT, domain=None, limit=3)
    assert [h.text for h in hits] == [kept["fact"]]
    task = "Review the vendor MSA liability cap: which desk owns every indemnity escalation"
    reply = bootstrap(BootstrapRequest(KEPT, "reviewer", task, "contract_review"), memory.ports)
    assert kept["finding"] in reply["context"] and kept["step"] in reply["context"]
    assert [f["content"] for f in reply["facts"]] == [kept["fact"]]
    assert FactStatus.CONFIRMED.value in {f.status.value for f in memory.ports.facts.export(KEPT)}


def test_a_row_deleted_in_a_write_leaves_no_byte_in_the_database_file_or_its_log(
    tmp_path: Path,
) -> None:
    # Given a record written and folded into the database file, then written over in the log
    database = SqliteDatabase(tmp_path / "memory.db")
    ledger = SqliteLedger(database)
    ledger.put("acme#run#1", {"text": "the quetzal desk"}, now=0, expires_at=None)
    database.checkpoint()
    ledger.put("acme#run#1", {"text": "the quetzal office"}, now=0, expires_at=None)
    # When a write transaction deletes it
    with database.write() as conn:
        conn.execute("DELETE FROM ledger WHERE key = ?", ("acme#run#1",))
    # Then neither version is left in any of the database's files (file, -wal, -shm)
    assert files_holding(tmp_path, "quetzal") == []
    database.close()
