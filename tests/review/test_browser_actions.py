"""The memory browser's actions over real requests: forget a run, retract, correct and assert a
fact, each one message sent only with this start's token, this server's tenant, a name, a reason
and the box ticked; refused in one line otherwise, with nothing changed; on success a 303 to a
page whose banner is the server's own words.
"""

from __future__ import annotations

import html
import re
from urllib.parse import urlencode

import pytest

from agent_memory.app import Application
from agent_memory.app.messages import FlagMemory, GetEpisode, GetFact, History, ListFacts
from agent_memory.core.model.models import FactStatus
from agent_memory.core.workflows.consolidation import consolidate
from tests.review.browsing import ACME_FACT, Browsed
from tests.review.client import Client, Reply
from tests.support.memory import Memory, run_event


def follow(client: Client, done: Reply) -> Reply:
    assert done.status == 303, done.text
    return client.page(done.headers["location"])


def fact(memory: Memory, fact_hash: str, tenant_id: str = "acme") -> dict[str, object]:
    found = Application(memory.ports).handle(GetFact(tenant_id, "contracts", fact_hash))
    assert found is not None
    return dict(found)


def episode_of(memory: Memory, agent_id: str, run_id: str) -> object:
    return Application(memory.ports).handle(GetEpisode("acme", agent_id, run_id))


def decisions(memory: Memory) -> list[tuple[str, str, str | None]]:
    page = Application(memory.ports).handle(History("acme"))
    return [(d["action"], d["actor"], d["reason"]) for d in page["decisions"]]


def test_forgetting_a_run_shows_its_receipt_and_the_run_is_gone(
    acme: Client, memory: Memory
) -> None:
    # When the reviewer's run-1 is forgotten from its page, with a reason and the box ticked
    done = acme.act("/forget", agent_id="reviewer", run_id="run-1", reason="Poisoned run")
    # Then the answer is the receipt's page, saying what was taken back
    assert re.fullmatch(r"/forgotten\?receipt=[\w-]+", done.headers["location"])
    receipt = follow(acme, done)
    assert receipt.banner().startswith("Run forgotten everywhere it counted")
    assert "reviewer/run-1" in receipt.text
    assert re.search(r"<dt>Episodes deleted</dt><dd>1</dd>", receipt.text)
    # And the episode is gone, and the history names who and why
    assert episode_of(memory, "reviewer", "run-1") is None
    assert decisions(memory) == [("forget", "legal-lead", "Poisoned run")]


def test_forgetting_a_run_forgotten_already_says_nothing_was_left(acme: Client) -> None:
    follow(acme, acme.act("/forget", agent_id="reviewer", run_id="run-1"))
    again = follow(acme, acme.act("/forget", agent_id="reviewer", run_id="run-1"))
    assert again.banner().startswith("Nothing was left to forget of that run")


@pytest.mark.parametrize(
    ("fields", "status", "said"),
    [
        ({"confirm": ""}, 400, "Not forgotten: confirm: tick the box to confirm."),
        ({"reason": " "}, 400, "Not forgotten: reason: is required"),
        ({"reviewer": ""}, 400, "Not forgotten: reviewer: is required"),
        ({"run_id": "run#1"}, 400, "Not forgotten: run_id: 'run#1' is not a run id"),
        ({"tenant_id": "globex"}, 404, "Not forgotten: this server shows no such tenant"),
    ],
)
def test_a_forget_without_its_confirmation_reason_or_tenant_forgets_nothing(
    acme: Client, memory: Memory, fields: dict[str, str], status: int, said: str
) -> None:
    refused = acme.act("/forget", **{"agent_id": "reviewer", "run_id": "run-1", **fields})
    assert refused.status == status
    assert refused.banner().startswith(said)
    assert episode_of(memory, "reviewer", "run-1") is not None
    assert decisions(memory) == []


def test_a_forged_form_changes_nothing(acme: Client, memory: Memory) -> None:
    refused = acme.act("/forget", agent_id="reviewer", run_id="run-1", csrf_token="forged")
    assert refused.status == 403
    cross_site = acme.request(
        "POST",
        "/facts/assert",
        body=f"csrf_token={acme.csrf_token}&tenant_id=acme&confirm=yes&reviewer=x&reason=y"
        "&domain=contracts&content=Evil",
        headers={
            "Content-Type": "application/x-www-form-urlencoded",
            "Origin": "http://evil.example",
        },
    )
    assert cross_site.status == 403
    assert episode_of(memory, "reviewer", "run-1") is not None
    assert decisions(memory) == []


def test_a_server_without_a_tenant_forgets_nothing(
    memory: Memory, browsed: Browsed, client: Client
) -> None:
    refused = client.act("/forget", agent_id="reviewer", run_id="run-1")
    assert refused.status == 404
    assert episode_of(memory, "reviewer", "run-1") is not None


def test_retracting_a_fact_returns_to_it_retracted(
    acme: Client, memory: Memory, browsed: Browsed
) -> None:
    done = acme.act("/facts/retract", domain="contracts", fact_hash=browsed.acme_fact)
    page = follow(acme, done)
    assert page.banner() == "Fact retracted: it is served nowhere from the next bootstrap on."
    assert fact(memory, browsed.acme_fact)["status"] == "RETRACTED"
    assert 'action="/facts/retract"' not in page.text
    assert decisions(memory) == [("retract", "legal-lead", "Checked against the signed MSA")]


def test_retracting_a_fact_retracted_already_is_a_conflict(acme: Client, browsed: Browsed) -> None:
    follow(acme, acme.act("/facts/retract", domain="contracts", fact_hash=browsed.acme_fact))
    again = acme.act("/facts/retract", domain="contracts", fact_hash=browsed.acme_fact)
    assert again.status == 409
    assert again.banner().startswith("Not retracted: fact")


@pytest.mark.parametrize(
    ("fields", "status", "said"),
    [
        ({"confirm": "no"}, 400, "Not retracted: confirm:"),
        ({"domain": "con tracts"}, 400, "Not retracted: domain:"),
        ({"fact_hash": "0" * 32}, 404, "Not retracted: no fact"),
        ({"tenant_id": "globex"}, 404, "Not retracted: this server shows no such tenant"),
    ],
)
def test_a_retraction_refused_leaves_the_fact_served(
    acme: Client, memory: Memory, browsed: Browsed, fields: dict[str, str], status: int, said: str
) -> None:
    form = {"domain": "contracts", "fact_hash": browsed.acme_fact, **fields}
    refused = acme.act("/facts/retract", **form)
    assert (refused.status, refused.banner()[: len(said)]) == (status, said)
    assert fact(memory, browsed.acme_fact)["status"] == "PENDING"


def test_another_tenants_fact_cannot_be_retracted_from_this_browser(
    acme: Client, memory: Memory, browsed: Browsed
) -> None:
    refused = acme.act("/facts/retract", domain="contracts", fact_hash=browsed.globex_fact)
    assert refused.status == 404
    assert fact(memory, browsed.globex_fact, "globex")["status"] == "PENDING"


def test_correcting_a_fact_shows_the_new_one_in_its_place(
    acme: Client, memory: Memory, browsed: Browsed
) -> None:
    done = acme.act(
        "/facts/correct",
        domain="contracts",
        fact_hash=browsed.acme_fact,
        content="Liability caps below 2x fees are a red flag",
    )
    page = follow(acme, done)
    new_hash = re.search(r'data-fact-hash="([^"]+)"', page.text)
    assert new_hash is not None and new_hash.group(1) != browsed.acme_fact
    assert page.banner().startswith("Fact corrected")
    assert fact(memory, new_hash.group(1))["asserted_by"] == "legal-lead"
    assert fact(memory, browsed.acme_fact)["superseded_by"] == new_hash.group(1)


def test_a_correction_without_text_names_the_field(acme: Client, browsed: Browsed) -> None:
    refused = acme.act("/facts/correct", domain="contracts", fact_hash=browsed.acme_fact)
    assert refused.status == 400
    assert refused.banner().startswith("Not corrected: content:")


def test_asserting_a_fact_serves_it_confirmed_in_the_persons_name(
    acme: Client, memory: Memory
) -> None:
    done = acme.act("/facts/assert", domain="contracts", content="Tailspin renews on 1 March")
    page = follow(acme, done)
    assert page.banner().startswith("Fact asserted")
    facts = Application(memory.ports).handle(ListFacts("acme", FactStatus.CONFIRMED))["facts"]
    assert [(f["content"], f["asserted_by"]) for f in facts] == [
        ("Tailspin renews on 1 March", "legal-lead")
    ]


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"domain": ""}, "Not asserted: domain:"),
        ({"content": ""}, "Not asserted: content:"),
        ({"confirm": ""}, "Not asserted: confirm:"),
    ],
)
def test_an_assertion_refused_names_the_field_and_stores_nothing(
    acme: Client, memory: Memory, fields: dict[str, str], said: str
) -> None:
    form = {"domain": "contracts", "content": "Tailspin renews on 1 March", **fields}
    refused = acme.act("/facts/assert", **form)
    assert (refused.status, refused.banner()[: len(said)]) == (400, said)
    assert Application(memory.ports).handle(ListFacts("acme", FactStatus.CONFIRMED))["facts"] == []


def test_a_banner_never_echoes_what_a_link_says(acme: Client, browsed: Browsed) -> None:
    # Given a link that puts its own words where the action's outcome goes
    page = acme.page(f"/fact?domain=contracts&hash={browsed.acme_fact}&done=Call+evil.example")
    # Then the fact is shown with no banner at all
    assert page.status == 200 and "evil.example" not in page.text
    assert 'role="status"' not in page.text


def test_stored_markup_in_a_fact_is_shown_as_text(acme: Client, memory: Memory) -> None:
    event = run_event("run-5")
    markup = '<img src=x onerror="alert(1)"> caps are fine'
    event["artifacts"] = {**event["artifacts"], "facts": [{"content": markup, "confidence": 0.9}]}
    consolidate(event, memory.ports)
    listed = acme.page("/facts")
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt; caps are fine" in listed.text
    assert "<img" not in listed.text and ACME_FACT in listed.text


@pytest.mark.parametrize(("method", "path"), [("GET", "/forget"), ("POST", "/history")])
def test_an_action_is_posted_and_a_view_is_got(acme: Client, method: str, path: str) -> None:
    refused = acme.request(method, path, body="" if method == "POST" else None)
    assert refused.status == 405


def test_a_flag_dismissed_on_the_flags_view_returns_to_it(acme: Client, memory: Memory) -> None:
    Application(memory.ports).handle(FlagMemory("acme", "reviewer", "episode", "run-1", "Wrong"))
    form = re.search(r'name="flag_id" value="([^"]+)"', acme.page("/flags").text)
    assert form is not None
    done = acme.request(
        "POST",
        "/dismiss",
        body=urlencode(
            {
                "flag_id": html.unescape(form.group(1)),
                "tenant_id": "acme",
                "reviewer": "legal-lead",
                "reason": "It stands",
                "back": "flags",
                "csrf_token": acme.csrf_token,
            }
        ),
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert done.headers["location"] == "/flags?dismissed=1"
    assert follow(acme, done).banner().startswith("Flag dismissed")
