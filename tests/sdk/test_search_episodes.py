"""A search of past runs (``SearchEpisodes``): the same ranking through the SDK's local mode,
its AWS mode (the bootstrap function), the CLI, and the request each surface sends.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent_memory.app.messages import SearchEpisodes
from agent_memory.app.wire import request_json, search_message
from agent_memory.core.api.contracts import NOT_BLANK
from agent_memory.core.model.scope import AGENT_SCOPE, TENANT_SCOPE, team_scope
from agent_memory.sdk import InvalidInputError
from tests.e2e.test_cli_options import cli
from tests.sdk.conftest import (
    BOOTSTRAP_FUNCTION,
    TEST_POLICIES,
    LocalMemory,
    StubbedAws,
    invoke_reply,
    make_local,
    run_event,
)

TOPICS = {
    "cap": "Clause 7.3 caps liability at 0.5x annual fees",
    "gdpr": "The data processing addendum names no sub-processors",
    "renewal": "The MSA renews every year unless cancelled 90 days before",
}


def three_runs(local: LocalMemory, agent: str = "reviewer") -> None:
    for run_id, finding in TOPICS.items():
        event = run_event(run_id, agent_id=agent, task=f"Review the MSA: {run_id}")
        event["artifacts"] = {"key_findings": [finding]}
        local.client.finish_run(event).wait()


def test_a_search_ranks_every_matching_run_best_first(local: LocalMemory) -> None:
    # Given three runs of the reviewer about three topics
    three_runs(local)
    # When one topic is searched for
    found = local.client.search_episodes("acme", "reviewer", "liability caps and fees")
    # Then the run about it ranks first, the others after it (no threshold cuts them)
    runs = [e["run_id"] for e in found["episodes"]]
    assert runs[0] == "cap" and sorted(runs) == sorted(TOPICS)
    similarities = [e["similarity"] for e in found["episodes"]]
    assert similarities == sorted(similarities, reverse=True)
    # And its finding is among the ranked units, each naming its run and author
    assert any(u["text"] == TOPICS["cap"] and u["run_id"] == "cap" for u in found["units"])
    assert {u["agent_id"] for u in found["units"]} == {"reviewer"}
    assert found["left_out"] == {"episodes": 0, "units": 0}


def test_limits_and_a_threshold_narrow_the_ranking(local: LocalMemory, tmp_path: Path) -> None:
    three_runs(local)
    # When at most one episode and two units are asked for
    narrow = local.client.search_episodes("acme", "reviewer", "liability caps", limit=1, units=2)
    # Then that many come back
    assert (len(narrow["episodes"]), len(narrow["units"])) == (1, 2)
    # And bootstrap's relevance gate, at a similarity no run reaches, lets no run through,
    # whatever words the query shares with one (the default gate is by meaning alone)
    unrelated = "zebra migration patterns"
    assert len(local.client.search_episodes("acme", "reviewer", unrelated)["episodes"]) == 3
    for query in (unrelated, "sub-processors"):
        gated = local.client.search_episodes("acme", "reviewer", query, min_similarity=0.99)
        assert (gated["episodes"], gated["units"]) == ([], [])
    # And a memory whose policy opens the gate by words lets through the run that holds them
    episodic = replace(TEST_POLICIES.episodic, min_word_share=0.5)
    opened = make_local(tmp_path / "worded", policies=replace(TEST_POLICIES, episodic=episodic))
    try:
        three_runs(opened)
        worded = opened.client.search_episodes(
            "acme", "reviewer", "sub-processors", min_similarity=0.99
        )
        assert [e["run_id"] for e in worded["episodes"]] == ["gdpr"]
        assert {u["run_id"] for u in worded["units"]} == {"gdpr"}
        none = opened.client.search_episodes("acme", "reviewer", unrelated, min_similarity=0.99)
        assert none["episodes"] == []
    finally:
        opened.client.close()


def test_a_team_search_reads_the_mates_runs_and_no_other_tenants(local: LocalMemory) -> None:
    # Given runs of the reviewer's mate, and of an agent of the same name in another tenant
    three_runs(local, agent="mate")
    local.client.finish_run(run_event("globex-1", tenant_id="globex", agent_id="mate")).wait()
    # When the reviewer searches alone, with its team, and with the whole tenant
    alone = local.client.search_episodes("acme", "reviewer", "liability caps")
    team = local.client.search_episodes(
        "acme", "reviewer", "liability caps", scope="team", team=["mate"]
    )
    tenant = local.client.search_episodes("acme", "reviewer", "liability caps", scope="tenant")
    # Then alone it has nothing, with its team and its tenant the mate's runs, never globex's
    assert alone["episodes"] == []
    for found in (team, tenant):
        assert {(e["agent_id"], e["run_id"]) for e in found["episodes"]} == {
            ("mate", run) for run in TOPICS
        }


def test_a_reply_too_large_to_send_says_what_it_left_out(tmp_path: Path) -> None:
    # Given a deployment whose replies may hold 64 KiB, and runs of 20 KB findings each
    policies = replace(TEST_POLICIES, max_reply_bytes=65_536)
    local = make_local(tmp_path / "store", policies=policies)
    for n in range(6):
        event = run_event(f"long-{n}")
        findings = [f"liability cap {n}.{k} " + "fees " * 380 for k in range(10)]
        event["artifacts"] = {"key_findings": findings}
        local.client.finish_run(event).wait()
    # When all of them are searched for
    found = local.client.search_episodes("acme", "reviewer", "liability cap fees")
    # Then the reply fits, keeps the best first, and counts what it left out
    assert len(json.dumps(found)) <= 65_536
    assert found["episodes"] and found["left_out"]["episodes"] > 0
    assert len(found["episodes"]) + found["left_out"]["episodes"] == 6
    local.client.close()


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({"limit": 0}, "limit"),
        ({"units": 101}, "units"),
        ({"limit": True}, "limit"),
        ({"min_similarity": 2.0}, "min_similarity"),
        ({"scope": "team"}, "team"),
        ({"scope": "everyone"}, "scope"),
    ],
)
def test_bad_arguments_are_refused_naming_their_field(
    local: LocalMemory, arguments: dict[str, Any], field: str
) -> None:
    with pytest.raises(InvalidInputError) as refused:
        local.client.search_episodes("acme", "reviewer", "caps", **arguments)
    assert refused.value.field == field


def test_a_blank_query_is_refused_in_words(local: LocalMemory) -> None:
    with pytest.raises(InvalidInputError) as refused:
        local.client.search_episodes("acme", "reviewer", " \t")
    assert (refused.value.field, refused.value.message) == (
        "query",
        "must hold something besides whitespace",
    )


def test_on_aws_the_bootstrap_function_answers(aws: StubbedAws) -> None:
    # Given the bootstrap function's reply to a search request
    reply = {
        "episodes": [],
        "units": [],
        "ranked_by": None,
        "left_out": {"episodes": 0, "units": 0},
    }
    request = {
        "action": "search",
        "tenant_id": "acme",
        "agent_id": "reviewer",
        "query": "liability caps",
        "scope": "team",
        "team": ["mate"],
        "limit": 3,
        "units": 10,
    }
    aws.lambda_.add_response(
        "invoke",
        invoke_reply(reply),
        {
            "FunctionName": BOOTSTRAP_FUNCTION,
            "InvocationType": "RequestResponse",
            "Payload": json.dumps(request).encode(),
        },
    )
    # When the client searches with its team
    found = aws.client.search_episodes(
        "acme", "reviewer", "liability caps", scope="team", team=["mate"], limit=3
    )
    # Then it sent that request once and answers with the function's reply
    assert found == reply
    aws.lambda_.assert_no_pending_responses()


_IDS = st.from_regex(r"[a-z][a-z0-9-]{0,11}", fullmatch=True)
_SCOPES = st.one_of(
    st.just(AGENT_SCOPE),
    st.just(TENANT_SCOPE),
    st.lists(_IDS, min_size=1, max_size=4).map(team_scope),
)


@given(
    tenant=_IDS,
    agent=_IDS,
    text=st.text(min_size=1, max_size=200).filter(lambda t: re.search(NOT_BLANK, t) is not None),
    top=st.integers(1, 100),
    units=st.integers(1, 100),
    scope=_SCOPES,
    threshold=st.none() | st.floats(-1.0, 1.0),
)
def test_a_search_sent_to_a_function_reads_back_as_itself(
    tenant: str,
    agent: str,
    text: str,
    top: int,
    units: int,
    scope: Any,
    threshold: float | None,
) -> None:
    # Given any search a surface could ask for
    message = SearchEpisodes(
        tenant, agent, text, top_episodes=top, top_units=units, scope=scope,
        min_similarity=threshold,
    )  # fmt: skip
    # When the function reads the request the backend wrote, as JSON
    sent = json.loads(json.dumps(request_json(message)))
    # Then it is the same search
    assert search_message(sent) == message


@pytest.mark.slow
def test_the_cli_searches_the_demo(tmp_path: Path) -> None:
    # Given the demo's store
    store = tmp_path / "store"
    assert cli(store, "--store", str(store), "demo").returncode == 0
    args = ("search", "liability cap", "--tenant", "acme-legal", "--agent", "contract-reviewer")
    # When it is searched, as JSON and as text, and with a bad limit
    as_json = cli(store, *args, "--json")
    text = cli(store, *args, "--limit", "1")
    bad = cli(store, *args, "--limit", "0")
    # Then both name the demo's runs, best first, and the bad limit is a usage error naming it
    found = json.loads(as_json.stdout)
    assert found["episodes"] and found["left_out"] == {"episodes": 0, "units": 0}
    best = found["episodes"][0]
    assert best["run_id"] in text.stdout and f"{best['similarity']:.2f}" in text.stdout
    assert bad.returncode == 2 and "limit" in bad.stderr
