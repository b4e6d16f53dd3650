"""The bootstrap Lambda reading a team's and a tenant's episodes on moto (DynamoDB), within
the tenant boundary, and a warm container's scoped index served for version reads alone.
"""

from __future__ import annotations

from typing import Any

import pytest

from agent_memory.core.workflows import consolidation
from tests.integration.aws import test_handlers
from tests.integration.aws.test_handlers import Aws, Context, expect_retrieve, handler
from tests.support.memory import run_event

# The handler tests' moto harness: tables, bucket, tenant role and stubbed Bedrock.
aws = test_handlers.aws
TASK = "Review the vendor MSA liability cap"


@pytest.fixture
def runs(aws: Aws) -> Aws:
    """Runs of the reviewer, its team mate, an outsider, and globex's agent of the mate's name."""
    for run_id, tenant, agent, finding in [
        ("own-1", "acme", "reviewer", "Clause 7.3 caps liability at 0.5x fees"),
        ("mate-1", "acme", "security-reviewer", "The liability cap excludes data breaches"),
        ("out-1", "acme", "outsider", "The liability cap was renegotiated in 2024"),
        ("globex-1", "globex", "security-reviewer", "Globex caps liability at 2x fees"),
    ]:
        event = run_event(run_id, tenant_id=tenant, agent_id=agent, domain=None)
        event["artifacts"] = {
            "task_summary": f"Reviewed the MSA ({agent})",
            "key_findings": [finding],
        }
        consolidation.consolidate(event, aws.ports(tenant))
    return aws


def bootstrap(aws: Aws, tenant: str = "acme", **scope: Any) -> dict[str, Any]:
    expect_retrieve(aws, tenant, None, [])
    request = {"tenant_id": tenant, "agent_id": "reviewer", "task": TASK, **scope}
    reply: dict[str, Any] = handler("bootstrap")(request, Context())
    return reply


def authors(reply: dict[str, Any]) -> list[tuple[str, str]]:
    return sorted((e["agent_id"], e["run_id"]) for e in reply["episodes"])


def test_bootstrap_with_a_team_serves_the_mates_episode_with_its_author(runs: Aws) -> None:
    # When the reviewer's bootstrap names its team mate
    reply = bootstrap(runs, scope="team", team=["security-reviewer"])
    # Then its own and its mate's episodes are served, each with its author, the outsider's not
    assert authors(reply) == [("reviewer", "own-1"), ("security-reviewer", "mate-1")]
    assert "> Learned by: security-reviewer" in reply["context"]
    # And without a scope, its own alone, as before
    assert authors(bootstrap(runs)) == [("reviewer", "own-1")]


def test_bootstrap_with_the_tenant_scope_never_crosses_the_tenant(runs: Aws) -> None:
    # When acme's reviewer and globex's reviewer each read their whole tenant
    acme = bootstrap(runs, scope="tenant")
    globex = bootstrap(runs, "globex", scope="tenant")
    # Then each sees its own tenant's agents only
    assert authors(acme) == [
        ("outsider", "out-1"),
        ("reviewer", "own-1"),
        ("security-reviewer", "mate-1"),
    ]
    assert authors(globex) == [("security-reviewer", "globex-1")]
    assert "Globex" not in acme["context"]


def test_a_warm_container_serves_a_team_index_for_one_batch_read_of_versions(
    runs: Aws,
) -> None:
    # Given a record of the container's calls on the episodes table
    calls: list[str] = []

    def record(operation: str) -> Any:
        def before(params: dict[str, Any], **_: Any) -> None:
            tables = [params.get("TableName", ""), *params.get("RequestItems", {})]
            if any("episodes" in t for t in tables):
                calls.append(operation)

        return before

    events = runs.runtime.client("dynamodb", "acme").meta.events
    for operation in ("GetItem", "Query", "BatchGetItem"):
        events.register(f"before-parameter-build.dynamodb.{operation}", record(operation))
    team: dict[str, Any] = {"scope": "team", "team": ["security-reviewer", "outsider"]}
    first = bootstrap(runs, **team)
    calls.clear()
    # When the same team is read again with nothing changed
    again = bootstrap(runs, **team)
    # Then the same episodes are served for one BatchGetItem of the members' version items
    assert authors(again) == authors(first)
    assert calls == ["BatchGetItem"]
    # And once the mate writes a run, the next read reads that member's version item and
    # fetches its new episode alone, by key: no query
    event = run_event("mate-2", agent_id="security-reviewer", domain=None)
    consolidation.consolidate(event, runs.ports())
    calls.clear()
    assert ("security-reviewer", "mate-2") in authors(bootstrap(runs, **team))
    assert calls == ["BatchGetItem", "GetItem", "BatchGetItem"]
    # And the tenant scope adds one read of the tenant's roster (its shards, in one batch)
    bootstrap(runs, scope="tenant")
    calls.clear()
    bootstrap(runs, scope="tenant")
    assert calls == ["BatchGetItem", "BatchGetItem"]
