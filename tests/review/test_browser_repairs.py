"""The memory browser's wider repairs over real requests: forget every run of an agent, redact a
text from every record, approve again (overrule) a procedure a person took out of service; each
refused in one line, nothing changed, without this start's token, this server's tenant, a name,
a reason and the box ticked. A redacted text is never sent back: not in an address, not in a
page, not in a log line.
"""

from __future__ import annotations

import logging
import re

import pytest

from agent_memory.app import Application
from agent_memory.app.messages import DecideProcedure, GetEpisode, History, ShowProcedure
from tests.review.client import Client, Reply
from tests.review.scenario import Scenario
from tests.review.scenario import seed as seed_review
from tests.support.memory import Memory

SECRET = "Clause 7.3 caps liability"


def follow(client: Client, done: Reply) -> Reply:
    assert done.status == 303, done.text
    return client.page(done.headers["location"])


def runs_of(memory: Memory, agent_id: str, run_id: str) -> dict[str, object] | None:
    found = Application(memory.ports).handle(GetEpisode("acme", agent_id, run_id))
    return None if found is None else dict(found)


def decisions(memory: Memory, record_id: str | None = None) -> list[tuple[str, str, str]]:
    page = Application(memory.ports).handle(History("acme", record_id=record_id))
    return [(d["action"], d["kind"], d["record_id"]) for d in page["decisions"]]


# --- forget an agent --------------------------------------------------------------------------


def test_an_agents_episodes_carry_the_form_forgetting_every_run_of_it(acme: Client) -> None:
    page = acme.page("/episodes?agent=reviewer")
    form = re.search(r'<form class="repair forget-agent".*?</form>', page.text, re.S)
    assert form is not None
    assert 'action="/forget/agent"' in form.group(0)
    assert 'name="agent_id" value="reviewer"' in form.group(0)
    assert 'name="run_id"' not in form.group(0)


def test_forgetting_an_agent_forgets_each_of_its_runs_and_shows_the_receipt(
    acme: Client, memory: Memory
) -> None:
    # When every run of the reviewer is forgotten from its Episodes view
    done = acme.act("/forget/agent", agent_id="reviewer", reason="Its model was poisoned")
    # Then the answer is the receipt's page, the agent named
    assert re.fullmatch(r"/forgotten\?receipt=[\w-]+", done.headers["location"])
    receipt = follow(acme, done)
    assert receipt.banner() == (
        "Every run of reviewer forgotten everywhere it counted: the receipt is below."
    )
    assert "<h1>Agent forgotten</h1>" in receipt.text
    assert "reviewer/run-1" in receipt.text
    # And its run is gone, the other agent's kept, and the history names the agent
    assert runs_of(memory, "reviewer", "run-1") is None
    assert runs_of(memory, "checker", "run-2") is not None
    assert decisions(memory) == [("forget", "agent", "reviewer")]


def test_forgetting_an_agent_forgotten_already_says_nothing_was_left(acme: Client) -> None:
    follow(acme, acme.act("/forget/agent", agent_id="reviewer"))
    again = follow(acme, acme.act("/forget/agent", agent_id="reviewer"))
    assert again.banner().startswith("Nothing was left to forget of that agent")


@pytest.mark.parametrize(
    ("path", "fields", "status", "said"),
    [
        ("/forget/agent", {"confirm": ""}, 400, "Not forgotten: confirm: tick the box"),
        ("/forget/agent", {"reason": ""}, 400, "Not forgotten: reason: is required"),
        ("/forget/agent", {"agent_id": "rev iewer"}, 400, "Not forgotten: agent_id: "),
        ("/forget/agent", {"tenant_id": "globex"}, 404, "Not forgotten: this server shows no"),
        # A run's form sent without its run never forgets every run of the agent.
        ("/forget", {"run_id": ""}, 400, "Not forgotten: run_id: '' is not a run id"),
    ],
)
def test_an_agent_forget_refused_forgets_nothing(
    acme: Client,
    memory: Memory,
    path: str,
    fields: dict[str, str],
    status: int,
    said: str,
) -> None:
    refused = acme.act(path, **{"agent_id": "reviewer", **fields})
    assert (refused.status, refused.banner()[: len(said)]) == (status, said)
    assert runs_of(memory, "reviewer", "run-1") is not None
    assert decisions(memory) == []


def test_a_forged_agent_forget_is_refused(acme: Client, memory: Memory) -> None:
    refused = acme.act("/forget/agent", agent_id="reviewer", csrf_token="forged")
    assert refused.status == 403
    assert runs_of(memory, "reviewer", "run-1") is not None


# --- redact a text ----------------------------------------------------------------------------


def test_the_redact_view_asks_for_the_text_in_an_empty_field_browsers_do_not_keep(
    acme: Client,
) -> None:
    page = acme.page("/redact")
    field = re.search(r"<textarea name=\"text\"[^>]*>(.*?)</textarea>", page.text, re.S)
    assert field is not None and field.group(1) == ""
    assert 'autocomplete="off"' in field.group(0) and 'spellcheck="false"' in field.group(0)
    assert 'action="/redact/text"' in page.text


def test_redacting_a_text_rewrites_its_records_and_never_sends_it_back(
    acme: Client, memory: Memory, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    # When a text both agents' runs hold is redacted
    done = acme.act("/redact/text", text=SECRET, reason="A client's clause, not ours to keep")
    # Then the answer goes to the receipt by a token, the text nowhere in the address
    location = done.headers["location"]
    assert re.fullmatch(r"/redacted\?receipt=[\w-]+", location)
    receipt = follow(acme, done)
    assert receipt.banner().startswith("Text redacted from every record")
    assert re.search(r"<dt>Episodes rewritten</dt><dd>2<ul>", receipt.text)
    # And the episodes no longer hold it, the history keeps a digest, and nothing shows it
    episode = runs_of(memory, "reviewer", "run-1")
    assert episode is not None and SECRET.lower() not in str(episode).lower()
    assert decisions(memory) == [("redact", "tenant", "acme")]
    history = acme.page("/history")
    for shown in (receipt.text, history.text, location, caplog.text):
        assert SECRET.lower() not in shown.lower()


def test_redacting_a_text_no_record_holds_changes_nothing(acme: Client, memory: Memory) -> None:
    receipt = follow(acme, acme.act("/redact/text", text="Nowhere in this memory"))
    assert receipt.banner() == "No record held that text: nothing was changed."
    assert decisions(memory) == []


@pytest.mark.parametrize(
    ("fields", "status", "said"),
    [
        ({"confirm": ""}, 400, "Not redacted: confirm: tick the box"),
        ({"reason": " "}, 400, "Not redacted: reason: is required"),
        ({"reviewer": ""}, 400, "Not redacted: reviewer: is required"),
        ({"text": "abc"}, 400, "Not redacted: text: reads as 3 characters"),
        ({"text": "   "}, 400, "Not redacted: text: is blank"),
        ({"tenant_id": "globex"}, 404, "Not redacted: this server shows no such tenant"),
        ({"csrf_token": "forged"}, 403, ""),
    ],
)
def test_a_redaction_refused_rewrites_nothing_and_never_echoes_the_text(
    acme: Client, memory: Memory, fields: dict[str, str], status: int, said: str
) -> None:
    refused = acme.act("/redact/text", **{"text": SECRET, **fields})
    assert refused.status == status
    if said:
        assert refused.banner()[: len(said)] == said
    assert "location" not in refused.headers
    assert SECRET.lower() not in refused.text.lower()
    assert decisions(memory) == []
    assert "Clause 7.3" in str(runs_of(memory, "reviewer", "run-1"))


def test_a_redaction_receipt_is_not_a_forget_receipt(acme: Client) -> None:
    done = acme.act("/redact/text", text=SECRET)
    token = done.headers["location"].split("=", 1)[1]
    assert acme.page(f"/forgotten?receipt={token}").status == 404
    assert acme.page("/redacted?receipt=unknown").status == 404


# --- a procedure's page, its decisions, and approving it again ----------------------------------


@pytest.fixture
def rejected(memory: Memory) -> Scenario:
    """acme's proposal, rejected by dana."""
    scenario = seed_review(memory)
    Application(memory.ports).handle(
        DecideProcedure(scenario.proposed_id, False, "dana", "Step 3 is wrong", "acme")
    )
    memory.clock.advance(60)
    return scenario


def test_the_procedures_view_links_each_to_its_page(acme: Client, rejected: Scenario) -> None:
    listed = acme.page("/procedures")
    assert f'href="/procedure?id={rejected.proposed_id}"' in listed.text
    assert f'href="/procedure?id={rejected.served_id}"' in listed.text


def test_a_rejected_procedure_shows_its_steps_decisions_and_the_overrule_form(
    acme: Client, rejected: Scenario
) -> None:
    page = acme.page(f"/procedure?id={rejected.proposed_id}")
    assert page.status == 200
    assert "<li>Check the indemnity carve-outs</li>" in page.text
    rows = re.findall(r"<tr data-decision-id=[^>]+>(.*?)</tr>", page.text)
    assert len(rows) == 1 and "dana" in rows[0] and "Step 3 is wrong" in rows[0]
    assert 'action="/procedures/overrule"' in page.text


def test_a_served_procedure_has_no_overrule_form_but_where_to_retire_it(
    acme: Client, rejected: Scenario
) -> None:
    page = acme.page(f"/procedure?id={rejected.served_id}")
    assert 'action="/procedures/overrule"' not in page.text
    assert f'href="/#served-{rejected.served_id}"' in page.text


def test_approving_a_rejected_procedure_again_overrules_it_and_keeps_both_decisions(
    acme: Client, memory: Memory, rejected: Scenario
) -> None:
    done = acme.act("/procedures/overrule", procedure_id=rejected.proposed_id, reason="Fixed")
    page = follow(acme, done)
    assert page.banner().startswith("Procedure approved again, overruling")
    shown = Application(memory.ports).handle(ShowProcedure(rejected.proposed_id, "acme"))
    assert shown["status"] == "VALIDATED"
    actions = [a for a, _, _ in decisions(memory, rejected.proposed_id)]
    assert actions == ["approve", "reject"]
    assert page.text.count("<tr data-decision-id=") == 2


@pytest.mark.parametrize(
    ("fields", "status", "said"),
    [
        ({"confirm": ""}, 400, "Not approved again: confirm: tick the box"),
        ({"procedure_id": "proc 1"}, 400, "Not approved again: procedure_id: "),
        ({"procedure_id": "proc-0"}, 404, "Not approved again: no procedure 'proc-0'"),
        ({"tenant_id": "globex"}, 404, "Not approved again: this server shows no such tenant"),
    ],
)
def test_an_overrule_refused_leaves_the_procedure_rejected(
    acme: Client,
    memory: Memory,
    rejected: Scenario,
    fields: dict[str, str],
    status: int,
    said: str,
) -> None:
    form = {"procedure_id": rejected.proposed_id, **fields}
    refused = acme.act("/procedures/overrule", **form)
    assert (refused.status, refused.banner()[: len(said)]) == (status, said)
    shown = Application(memory.ports).handle(ShowProcedure(rejected.proposed_id, "acme"))
    assert shown["status"] == "REJECTED"


def test_a_procedure_no_person_took_out_of_service_is_not_overruled(
    acme: Client, memory: Memory, rejected: Scenario
) -> None:
    # Given the served procedure: approving it "again" would overrule no one
    refused = acme.act("/procedures/overrule", procedure_id=rejected.served_id)
    assert refused.status == 409
    assert "is VALIDATED, not rejected or retired" in refused.banner()
    assert decisions(memory, rejected.served_id) == []


def test_a_bad_procedure_id_in_the_address_names_the_field(acme: Client) -> None:
    page = acme.page("/procedure?id=proc%201")
    assert page.status == 400
    assert page.banner().startswith("Not shown: id: ")
