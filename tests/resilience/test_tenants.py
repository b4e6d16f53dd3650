"""Tenant isolation at volume: look-alike tenants never see each other, and forgetting one
removes all of it and nothing of the others.

Six tenants whose ids are prefixes of each other or differ by a separator or by case
(``acme``, ``acme-eu``, ``acme.eu``, ``acme_eu``, ``acm``, ``ACME``) hold the same runs: same
agent ids, run ids, domains, task types and texts, but for one codeword per tenant and the
runs' times (``helpers_tenants``). 10,000 seeded bootstrap and search queries run on the
embedded memory; a subset runs through the Lambda handler on DynamoDB, with every tenant's
client under emulated ``dynamodb:LeadingKeys`` and a knowledge base that ignores its filter.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from agent_memory.adapters.local.kb.store import IndexStore
from agent_memory.app import Application
from agent_memory.app.messages import SearchEpisodes
from agent_memory.core.model.requests import BootstrapRequest
from agent_memory.core.workflows.bootstrap import bootstrap
from agent_memory.core.workflows.ingestion import run_ingestion
from agent_memory.core.workflows.tenants import export_tenant, forget_tenant
from agent_memory.wiring.local import DATABASE_FILE, KB_FOLDER
from tests.resilience.helpers_aws import AwsHarness, aws_harness
from tests.resilience.helpers_tenants import (
    TENANTS,
    Auditor,
    Owned,
    owned_by,
    populate,
    random_queries,
    reply_leaks,
    search_leaks,
    sqlite_rows_of,
)
from tests.support.memory import Memory, make_memory

QUERIES = 10_000
AWS_TENANTS = ("acme", "acme-eu", "acm")
AWS_QUERIES = 100


@dataclass
class QueryRun:
    """What the queries returned, checked record by record."""

    checked: int = 0
    leaks: list[str] = field(default_factory=list)
    returned: dict[str, int] = field(default_factory=dict)
    queries: int = 0


def run_queries(
    memory: Memory, owned: dict[str, Owned], queries: list[dict[str, Any]], auditor: Auditor
) -> QueryRun:
    ports = auditor.wrap(memory.ports)
    run = QueryRun()
    for q in queries:
        tenant, agent = q["tenant_id"], q["agent_id"]
        if q["kind"] == "bootstrap":
            request = BootstrapRequest(tenant, agent, q["task"], q["task_type"], q["domain"])
            checked, leaks = reply_leaks(bootstrap(request, ports), tenant, agent, owned)
        else:
            result = Application(ports).handle(
                SearchEpisodes(tenant, agent, q["task"], top_episodes=3)
            )
            checked, leaks = search_leaks(result, tenant, agent, owned)
        run.checked += checked
        run.leaks += leaks
        run.queries += 1
    run.returned = dict(auditor.returned)
    return run


@pytest.fixture(scope="module")
def queried(tmp_path_factory: pytest.TempPathFactory) -> tuple[QueryRun, Auditor]:
    memory = make_memory(tmp_path_factory.mktemp("tenants"))
    populate(lambda _: memory.ports, TENANTS)
    owned = owned_by(memory.ports, TENANTS)
    auditor = Auditor()
    queries = random_queries(QUERIES, seed=21, tenants=TENANTS)
    return run_queries(memory, owned, queries, auditor), auditor


def test_ten_thousand_queries_return_nothing_of_another_tenant_or_agent(
    queried: tuple[QueryRun, Auditor],
) -> None:
    run, _ = queried
    # Then every episode, fact and procedure returned is the asking tenant's (episodes: the
    # asking agent's), and no reply mentions another tenant's codeword
    assert run.leaks == []
    assert run.queries == QUERIES
    assert run.checked > QUERIES  # the replies were not empty


def test_no_store_hands_a_tenant_scoped_read_another_tenants_record(
    queried: tuple[QueryRun, Auditor],
) -> None:
    run, auditor = queried
    # Then not even before the core's own filters did a store or the KB return a foreign record
    assert auditor.foreign == []
    assert {"episode", "fact", "procedure", "kb hit"} <= {k for k, n in run.returned.items() if n}


# --- forget ------------------------------------------------------------------------------------


@dataclass
class Snapshot:
    """Everything stored of one tenant, as comparable values."""

    records: list[str]
    kb_documents: list[str]
    index_rows: list[str]
    sqlite_rows: dict[str, int]


def snapshot(memory: Memory, tenant_id: str) -> Snapshot:
    ports = memory.ports
    loaded = IndexStore(memory.root / KB_FOLDER / "index").load()
    rows = [] if loaded is None else [r.key for r in loaded[1].rows if r.tenant_id == tenant_id]
    return Snapshot(
        records=sorted(json.dumps(r, sort_keys=True) for r in export_tenant(ports, tenant_id)),
        kb_documents=ports.knowledge_base.document_keys(tenant_id),
        index_rows=sorted(rows),
        sqlite_rows=sqlite_rows_of(Path(memory.root) / DATABASE_FILE, tenant_id),
    )


@pytest.fixture
def populated(tmp_path: Path) -> Memory:
    memory = make_memory(tmp_path)
    populate(lambda _: memory.ports, TENANTS, runs_per_agent=4)
    return memory


def test_forget_removes_every_record_of_the_tenant_in_every_store(populated: Memory) -> None:
    # Given a tenant with episodes, facts (ingested and not), procedures, ledger records and
    # KB documents in the bucket and in the index
    before = snapshot(populated, "acme")
    assert before.kb_documents and before.index_rows
    assert all(before.sqlite_rows[t] for t in ("episodes", "facts", "procedures", "ledger"))
    # When it is forgotten
    forget_tenant(populated.ports, "acme")
    # Then nothing of it is left: not a record, a document, an index row or a database row
    after = snapshot(populated, "acme")
    assert after.records == [] and after.kb_documents == [] and after.index_rows == []
    assert set(after.sqlite_rows.values()) == {0}
    # And a new run of the tenant starts from nothing
    reply = bootstrap(
        BootstrapRequest("acme", "reviewer", "Review the vendor agreement", "contract_review"),
        populated.ports,
    )
    assert (reply["context"], reply["episodes"], reply["facts"]) == ("", [], [])


def test_forget_leaves_every_look_alike_tenant_untouched(populated: Memory) -> None:
    others = [t for t in TENANTS if t != "acme"]
    before = {t: snapshot(populated, t) for t in others}
    forget_tenant(populated.ports, "acme")
    assert {t: snapshot(populated, t) for t in others} == before


# --- the AWS path: DynamoDB under LeadingKeys, a KB that ignores its filter ----------------------


@pytest.fixture(scope="module")
def aws_world() -> Iterator[AwsHarness]:
    with aws_harness() as harness:
        populate(harness.ports, AWS_TENANTS, runs_per_agent=3)
        yield harness


def test_through_dynamodb_under_leading_keys_no_query_crosses_tenants(
    aws_world: AwsHarness,
) -> None:
    harness = aws_world
    owned = owned_by(harness.ports(None), AWS_TENANTS)
    # Given a knowledge base that answers with every tenant's documents, whatever the filter
    harness.served.honour_filter = False
    handler = harness.handler("bootstrap")
    checked, leaks = 0, []
    # When the bootstrap Lambda serves queries of look-alike tenants (every DynamoDB request
    # of a tenant's session checked against its leading key: a foreign key raises AccessDenied)
    for q in random_queries(AWS_QUERIES, seed=5, tenants=AWS_TENANTS):
        request = {k: q[k] for k in ("tenant_id", "agent_id", "task", "task_type", "domain")}
        reply = handler({k: v for k, v in request.items() if v is not None})
        found, wrong = reply_leaks(reply, q["tenant_id"], q["agent_id"], owned)
        checked, leaks = checked + found, leaks + wrong
    # Then nothing of another tenant came back, although the KB offered it
    assert leaks == []
    assert checked > AWS_QUERIES
    assert harness.served.offered_foreign > 0
    assert sum(g.checked for g in harness.runtime.guarded) > 0


def test_forget_on_dynamodb_and_s3_spares_tenants_sharing_its_prefix(
    aws_world: AwsHarness,
) -> None:
    harness = aws_world
    jobs = harness.ports(None)

    def stored(tenant: str) -> list[str]:
        return sorted(json.dumps(r, sort_keys=True) for r in export_tenant(jobs, tenant))

    # Given every staged fact ingested (forget starts an ingestion, which would otherwise
    # mark the other tenants' waiting facts ingested: its normal work, not a change to them)
    run_ingestion(jobs.facts, jobs.knowledge_base, jobs.checkpoints, now=jobs.clock())
    before = {t: stored(t) for t in AWS_TENANTS}
    assert all(before.values())
    # When the operator forgets tenant acme (a cross-tenant job: the function's own role)
    forget_tenant(jobs, "acme")
    # Then every table and the bucket lost acme's records, and acme-eu and acm kept theirs
    assert stored("acme") == []
    assert [k for k, _, _ in harness.served.documents() if k.startswith("tenants/acme/")] == []
    assert {t: stored(t) for t in AWS_TENANTS[1:]} == {t: before[t] for t in AWS_TENANTS[1:]}
