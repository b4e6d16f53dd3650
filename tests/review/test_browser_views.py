"""The memory browser's views over real requests: what one tenant's memory holds, episode by
episode and fact by fact, its procedures and its history; stored text escaped with its hidden
characters named; nothing of another tenant, and nothing at all without ``--tenant``.
"""

from __future__ import annotations

import html
import re

import pytest

from agent_memory.app import Application
from agent_memory.app.messages import History, RetractFact
from agent_memory.core.workflows.consolidation import consolidate
from agent_memory.review.layout import VIEWS
from tests.review.browsing import ACME_FACT, GLOBEX_FACT, Browsed
from tests.review.client import Client
from tests.review.scenario import seed as seed_review
from tests.support.memory import Memory, run_event


def text_of(page: str) -> str:
    """The page's visible text, roughly: tags, styles and scripts dropped, entities read."""
    page = re.sub(r"<(style|script)[^>]*>.*?</\1>", "", page, flags=re.S)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


@pytest.mark.parametrize(("view", "path", "label"), VIEWS)
def test_each_view_is_in_the_navigation_marked_as_the_current_one(
    acme: Client, view: str, path: str, label: str
) -> None:
    page = acme.page(path)
    assert page.status == 200
    assert f'<a href="{path}" data-view="{view}" aria-current="page">{label}</a>' in page.text
    assert page.text.count('aria-current="page"') == 1


def test_views_run_under_the_nonce_policy_with_no_inline_handler(acme: Client) -> None:
    page = acme.page("/facts")
    nonce = re.search(r'<script nonce="([^"]+)">', page.text)
    assert nonce is not None
    assert f"script-src 'nonce-{nonce.group(1)}'" in page.headers["content-security-policy"]
    assert not re.search(r"<[^>]+\son[a-z]+=", page.text)


def test_the_episodes_view_lists_the_tenants_agents_then_one_agents_episodes(
    acme: Client,
) -> None:
    # Given acme's reviewer and checker (and globex's buyer) with one episode each
    agents = acme.page("/episodes")
    assert "Agents: checker · reviewer" in text_of(agents.text)
    # When the reviewer's episodes are opened
    listed = acme.page("/episodes?agent=reviewer")
    # Then its run is listed, linked to its page
    assert listed.status == 200
    assert 'href="/episode?agent=reviewer&amp;run=run-1"' in listed.text
    assert "run-2" not in listed.text


def test_an_agents_episodes_come_a_page_at_a_time_newest_first(
    acme: Client, memory: Memory
) -> None:
    # Given 21 more runs of the reviewer, one a minute
    for number in range(10, 31):
        memory.clock.advance(60)
        consolidate(run_event(f"run-{number}"), memory.ports)
    # When the first page is opened, then the next one by its link
    first = acme.page("/episodes?agent=reviewer")
    following = re.search(r'<a href="([^"]+)" rel="next">', first.text)
    assert following is not None
    second = acme.page(html.unescape(following.group(1)))
    # Then the first holds the 20 newest, the second the rest, and no third page is offered
    runs = [re.findall(r'data-run-id="([^"]+)"', page.text) for page in (first, second)]
    assert runs[0] == [f"run-{n}" for n in range(30, 10, -1)]
    assert runs[1] == ["run-10", "run-1"]
    assert 'rel="next"' not in second.text


def test_a_search_lists_the_agents_episodes_and_findings_matching_the_query(
    acme: Client,
) -> None:
    found = acme.page("/episodes/search?agent=reviewer&q=liability+cap")
    assert found.status == 200
    assert 'data-run-id="run-1"' in found.text
    assert "Clause 7.3 caps liability at 0.5x fees" in text_of(found.text)


def test_a_search_without_a_query_names_the_field(acme: Client) -> None:
    refused = acme.page("/episodes/search?agent=reviewer&q=")
    assert refused.status == 400
    assert refused.banner().startswith("Not shown: query:")


def test_an_episode_shows_every_field_with_markup_as_text_and_hidden_characters_named(
    acme: Client, memory: Memory
) -> None:
    # Given a run whose task holds markup and a zero-width space
    task = "<script>alert(1)</script> Review\u200bthe cap"
    consolidate(run_event("run-7", task=task), memory.ports)
    # When its page is opened
    page = acme.page("/episode?agent=reviewer&run=run-7")
    # Then the markup is text, the hidden character is named, and every field is there
    assert page.status == 200
    assert "&lt;script&gt;alert(1)&lt;/script&gt; Review⟨U+200B⟩the cap" in page.text
    assert "<script>alert" not in page.text
    shown = text_of(page.text)
    for label in ("Task type contract_review", "Domain contracts", "Findings Clause 7.3"):
        assert label in shown
    assert 'action="/forget"' in page.text


@pytest.mark.parametrize(
    ("query", "status", "said"),
    [
        ("agent=reviewer&run=run-404", 404, "Not shown: agent 'reviewer' has no episode"),
        ("agent=reviewer&run=run%23x", 400, "Not shown: run_id:"),
        ("agent=buyer&run=run-9", 404, "Not shown: agent 'buyer' has no episode"),
    ],
)
def test_an_episode_not_of_this_tenant_or_not_stored_is_not_shown(
    acme: Client, query: str, status: int, said: str
) -> None:
    page = acme.page(f"/episode?{query}")
    assert page.status == status
    assert page.banner().startswith(said)
    assert "Pay Globex" not in page.text


def test_the_facts_view_lists_the_tenants_facts_of_the_status_chosen(
    acme: Client, memory: Memory, browsed: Browsed
) -> None:
    # Given acme's fact retracted
    Application(memory.ports).handle(RetractFact("acme", "contracts", browsed.acme_fact, "dana"))
    # Then it is listed as RETRACTED, not as PENDING, and globex's fact never
    retracted = acme.page("/facts?status=RETRACTED")
    pending = acme.page("/facts?status=PENDING")
    assert f'data-fact-hash="{browsed.acme_fact}"' in retracted.text
    assert f'data-fact-hash="{browsed.acme_fact}"' not in pending.text
    assert GLOBEX_FACT not in acme.page("/facts").text + retracted.text


def test_a_bad_status_or_cursor_names_the_field(acme: Client) -> None:
    assert acme.page("/facts?status=LOST").banner().startswith("Not shown: status:")
    refused = acme.page("/facts?cursor=zzz")
    assert (refused.status, refused.banner()[:18]) == (400, "Not shown: cursor:")


def test_a_fact_shows_its_agents_runs_and_knowledge_base_state(
    acme: Client, browsed: Browsed
) -> None:
    page = acme.page(f"/fact?domain=contracts&hash={browsed.acme_fact}")
    shown = text_of(page.text)
    assert page.status == 200
    assert f"Fact {ACME_FACT} Status PENDING" in shown
    assert "Confirmations 2 independent" in shown
    assert re.search(r"Agents checker: last counted .+ reviewer: last counted", shown)
    assert "Runs checker/run-2, reviewer/run-1" in shown
    assert "Served from not served Knowledge-base document none" in shown
    assert 'action="/facts/retract"' in page.text and 'action="/facts/correct"' in page.text


def test_another_tenants_fact_is_not_found_on_this_tenants_browser(
    acme: Client, browsed: Browsed
) -> None:
    page = acme.page(f"/fact?domain=contracts&hash={browsed.globex_fact}")
    assert page.status == 404
    assert GLOBEX_FACT not in page.text


def test_the_procedures_view_groups_them_by_status_with_where_to_decide(
    acme: Client, memory: Memory
) -> None:
    # Given acme's served procedure and its pending re-proposal
    scenario = seed_review(memory)
    page = acme.page("/procedures")
    awaiting, served, _ = page.text.split("<h2>")[1:]
    assert f'data-procedure-id="{scenario.proposed_id}"' in awaiting
    assert f'href="/#{scenario.proposed_id}"' in awaiting
    assert f'href="/#served-{scenario.served_id}"' in served


def test_the_history_lists_each_decision_newest_first(
    acme: Client, memory: Memory, browsed: Browsed
) -> None:
    # Given acme's fact retracted by dana, then the run-2 forgotten by lee
    app = Application(memory.ports)
    app.handle(RetractFact("acme", "contracts", browsed.acme_fact, "dana", "Wrong cap"))
    memory.clock.advance(60)
    acme.act("/forget", agent_id="checker", run_id="run-2", reviewer="lee", reason="Poisoned")
    # When the history is opened
    rows = re.findall(r'<tr data-decision-id="[^"]+">(.*?)</tr>', acme.page("/history").text)
    # Then each decision is a row, newest first: when, who, what, on which record, why
    assert [text_of(r).split(" UTC ", 1)[1].strip() for r in rows] == [
        "lee forget run checker/run-2 Poisoned",
        f"dana retract fact contracts/{browsed.acme_fact} Wrong cap",
    ]
    assert len(app.handle(History("acme"))["decisions"]) == 2


def test_without_a_tenant_every_browser_view_says_it_needs_one_and_shows_nothing(
    memory: Memory, browsed: Browsed, client: Client
) -> None:
    for _, path, _ in VIEWS[1:]:
        page = client.page(path)
        assert page.status == 200
        assert "start the server with --tenant" in page.text
        assert "checker" not in page.text and ACME_FACT not in page.text


def test_a_fact_lists_its_own_decisions_newest_first(
    acme: Client, memory: Memory, browsed: Browsed
) -> None:
    # Given acme's fact retracted by dana, and another record's decision by lee
    Application(memory.ports).handle(
        RetractFact("acme", "contracts", browsed.acme_fact, "dana", "Wrong cap")
    )
    acme.act("/forget", agent_id="checker", run_id="run-2", reviewer="lee", reason="Poisoned")
    # When the fact's page is opened
    page = acme.page(f"/fact?domain=contracts&hash={browsed.acme_fact}")
    # Then its decisions are listed, and only its own
    rows = re.findall(r'<tr data-decision-id="[^"]+">(.*?)</tr>', page.text)
    assert [text_of(r).split(" UTC ", 1)[1].strip() for r in rows] == [
        f"dana retract fact contracts/{browsed.acme_fact} Wrong cap"
    ]
