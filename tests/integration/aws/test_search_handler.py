"""The ``bootstrap`` Lambda answering a search (``"action": "search"``) on moto: the scope's
episodes ranked in full, within the request's tenant (and, under principal-tag tenancy, only
the proven caller's), with the grants bootstrap has (the session's call recorder checks each
call against the stack's).
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from agent_memory.core.model.errors import Forbidden, InvalidInput
from tests.integration.aws import test_principal_tag_tenancy, test_scoped_bootstrap
from tests.integration.aws.test_handlers import Aws, Context, handler
from tests.integration.aws.test_principal_tag_tenancy import Callers

aws = test_scoped_bootstrap.aws
runs = test_scoped_bootstrap.runs
callers = test_principal_tag_tenancy.callers


def search(tenant: str = "acme", **fields: Any) -> dict[str, Any]:
    request = {"action": "search", "tenant_id": tenant, "agent_id": "reviewer", **fields}
    reply: dict[str, Any] = handler("bootstrap")({"query": "liability cap", **request}, Context())
    return reply


def authors(reply: dict[str, Any]) -> list[tuple[str, str]]:
    return sorted((e["agent_id"], e["run_id"]) for e in reply["episodes"])


def test_a_search_ranks_the_scopes_episodes_and_nothing_of_another_tenant(runs: Aws) -> None:
    # When acme's reviewer searches alone, with its mate, and across its tenant
    alone, team = search(), search(scope="team", team=["security-reviewer"])
    tenant = search(scope="tenant")
    # Then each reads its scope, every episode with its author and its units
    assert authors(alone) == [("reviewer", "own-1")]
    assert authors(team) == [("reviewer", "own-1"), ("security-reviewer", "mate-1")]
    assert authors(tenant) == [
        ("outsider", "out-1"),
        ("reviewer", "own-1"),
        ("security-reviewer", "mate-1"),
    ]
    assert all(e["units"] for e in tenant["episodes"])
    # And the reply is a search's, not a bootstrap's: no block, nothing left out
    assert sorted(tenant) == ["episodes", "left_out", "ranked_by", "units"]
    assert tenant["left_out"] == {"episodes": 0, "units": 0}
    # And globex's reader of the tenant sees globex's run alone
    assert authors(search("globex", scope="tenant")) == [("security-reviewer", "globex-1")]


def test_a_search_within_a_window_ranks_only_the_runs_created_in_it(runs: Aws) -> None:
    # Given the scope's runs, created just now
    an_hour_ago = time.time() - 3600
    # When the tenant is searched from an hour ago on, and up to an hour ago
    since, until = (
        search(scope="tenant", since=an_hour_ago),
        search(scope="tenant", until=an_hour_ago),
    )
    # Then the first window holds every run of the tenant, the second none
    assert [run for _, run in authors(since)] == ["out-1", "own-1", "mate-1"]
    assert until["episodes"] == [] and until["units"] == []


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"limit": 0}, "limit"),
        ({"query": "  "}, "query"),
        ({"task": "liability"}, "task"),
        ({"scope": "team"}, "team"),
        ({"since": "2026-05-01"}, "since"),
        ({"since": 10.0, "until": 10.0}, "until"),
    ],
)
def test_a_bad_search_is_refused_naming_the_field(
    aws: Aws, fields: dict[str, Any], field: str
) -> None:
    with pytest.raises(InvalidInput) as refused:
        search(**fields)
    assert refused.value.field == field


def test_under_principal_tag_a_caller_searches_its_own_tenant_only(
    runs: Aws, callers: Callers
) -> None:
    # Given a caller whose role is tagged acme
    proof = callers.proof_of("acme-agent", "acme")
    # When it searches globex's memory, then its own
    with pytest.raises(Forbidden, match="tenant_id"):
        search("globex", caller_identity=proof)
    found = search("acme", caller_identity=proof)
    # Then globex's is refused and its own is served
    assert authors(found) == [("reviewer", "own-1")]
