"""The review server over real HTTP on loopback, with a real local memory behind it."""

import re

import pytest

from agent_memory.app import Application
from agent_memory.core.model.models import ProcedureStatus
from agent_memory.review.server import MAX_FORM_BYTES, ReviewServer, allowed_hosts
from tests.review.client import Client
from tests.review.scenario import Scenario, consolidate_run, status_of
from tests.support.memory import Memory

EVIL_TITLE = "<script>alert('title')</script>"
EVIL_STEP = "<img src=x onerror=alert('step')> & \"quoted\""
EVIL_SUMMARY = "</td><script>alert('summary')</script>"


def test_the_page_lists_a_pending_procedure_with_its_evidence(
    client: Client, scenario: Scenario
) -> None:
    page = client.page()
    assert page.status == 200
    assert page.headers["content-type"] == "text/html; charset=utf-8"
    article = _article(page.text, scenario.proposed_id)
    for shown in (
        "Vendor MSA review",
        "PENDING",
        "acme",
        "contract_review",
        "<li>Check the indemnity carve-outs</li>",
        'data-run-id="run-002"',
        "Found a cap at 0.5x fees",
        "checker",
        "COMPLETED",
        "Times applied",
        "starts when approved",
        scenario.served_id,
        "<ins>twice the</ins>",
        "<del>MSA review</del>",
    ):
        assert shown in article, shown
    assert scenario.served_id not in re.findall(r'data-procedure-id="([^"]+)"', page.text)


def test_stored_html_and_script_are_shown_as_text(memory: Memory, client: Client) -> None:
    # Given a run that proposed markup as its procedure and summary
    proposed = consolidate_run(
        memory, "run-666", title=EVIL_TITLE, steps=[EVIL_STEP], summary=EVIL_SUMMARY
    )
    # When the page is loaded
    page = client.page()
    # Then every stored string is escaped, and only the page's own script may run
    article = _article(page.text, proposed)
    assert "&lt;script&gt;alert(&#x27;title&#x27;)&lt;/script&gt;" in article
    assert "&lt;img src=x onerror=alert(&#x27;step&#x27;)&gt; &amp; &quot;quoted&quot;" in article
    assert "&lt;/td&gt;&lt;script&gt;alert(&#x27;summary&#x27;)&lt;/script&gt;" in article
    assert "<script" not in article and "<img" not in article
    nonce = re.search(r"script-src 'nonce-([^']+)'", page.headers["content-security-policy"])
    assert nonce is not None
    assert page.text.count("<script") == page.text.count(f'<script nonce="{nonce.group(1)}">') == 1


def test_each_page_carries_the_server_s_csrf_token_and_a_fresh_nonce(
    client: Client, scenario: Scenario
) -> None:
    first, second = client.page(), client.page()
    assert f'name="csrf_token" value="{client.csrf_token}"' in first.text
    policies = {first.headers["content-security-policy"], second.headers["content-security-policy"]}
    assert len(policies) == 2
    assert first.headers["x-frame-options"] == "DENY"
    assert first.headers["x-content-type-options"] == "nosniff"


def test_approving_validates_the_procedure_and_records_the_reviewer(
    memory: Memory, client: Client, scenario: Scenario
) -> None:
    reply = client.decide(scenario.proposed_id, "approve", reviewer="  Dana Lee ")
    assert reply.status == 303
    assert reply.headers["location"] == f"/?decided={scenario.proposed_id}"
    approved = memory.ports.procedures.get(scenario.proposed_id)
    assert approved is not None
    assert (approved.status, approved.reviewer) == (ProcedureStatus.VALIDATED, "Dana Lee")
    after = client.page(reply.headers["location"])
    assert "is now VALIDATED (reviewer: Dana Lee)" in after.banner()
    assert f'data-procedure-id="{scenario.proposed_id}"' not in after.text


def test_rejecting_records_the_reason_as_the_review_note(
    memory: Memory, client: Client, scenario: Scenario
) -> None:
    reply = client.decide(scenario.proposed_id, "reject", reason="step 2 doubles the cap")
    assert reply.status == 303
    rejected = memory.ports.procedures.get(scenario.proposed_id)
    assert rejected is not None
    assert (rejected.status, rejected.reviewer, rejected.review_note) == (
        ProcedureStatus.REJECTED,
        "legal-lead",
        "step 2 doubles the cap",
    )


@pytest.mark.parametrize("token", ["", "forged-token"])
def test_a_post_without_the_csrf_token_changes_nothing(
    memory: Memory, client: Client, scenario: Scenario, token: str
) -> None:
    reply = client.decide(scenario.proposed_id, "approve", csrf_token=token)
    assert reply.status == 403
    assert "reload the page" in reply.text
    assert client.csrf_token not in reply.text
    assert status_of(memory, scenario.proposed_id) is ProcedureStatus.PENDING


def test_a_post_from_another_origin_is_refused(
    memory: Memory, client: Client, scenario: Scenario
) -> None:
    reply = client.decide(
        scenario.proposed_id, "approve", headers={"Origin": "http://evil.example"}
    )
    assert reply.status == 403
    assert status_of(memory, scenario.proposed_id) is ProcedureStatus.PENDING


def test_a_request_for_another_host_name_is_refused(client: Client, scenario: Scenario) -> None:
    # A DNS-rebinding page reaches the server under its own name: it must not read the token.
    reply = client.request("GET", "/", headers={"Host": "evil.example:8765"})
    assert reply.status == 421
    assert client.csrf_token not in reply.text


def test_a_rejection_without_a_reason_is_refused_with_a_message(
    memory: Memory, client: Client, scenario: Scenario
) -> None:
    reply = client.decide(scenario.proposed_id, "reject", reason="   ")
    assert reply.status == 400
    assert "a rejection needs a reason" in reply.banner()
    assert status_of(memory, scenario.proposed_id) is ProcedureStatus.PENDING


def test_a_decision_without_a_reviewer_is_refused(
    memory: Memory, client: Client, scenario: Scenario
) -> None:
    reply = client.decide(scenario.proposed_id, "approve", reviewer=" ")
    assert reply.status == 400
    assert "reviewer: must be 1-128 characters" in reply.banner()
    assert status_of(memory, scenario.proposed_id) is ProcedureStatus.PENDING


def test_deciding_twice_reports_the_conflict(client: Client, scenario: Scenario) -> None:
    assert client.decide(scenario.proposed_id, "approve").status == 303
    again = client.decide(scenario.proposed_id, "approve", reviewer="someone-else")
    assert again.status == 409
    assert "is VALIDATED; cannot set VALIDATED" in again.banner()
    assert "Someone may have decided it already" in again.banner()


def test_an_unknown_procedure_is_reported_as_not_found(client: Client, scenario: Scenario) -> None:
    reply = client.decide("proc-000000000000000000000000", "approve")
    assert reply.status == 404
    assert "no procedure 'proc-000000000000000000000000'" in reply.banner()


def test_a_procedure_of_another_tenant_cannot_be_decided_under_this_one(
    memory: Memory, client: Client, scenario: Scenario
) -> None:
    reply = client.decide(scenario.proposed_id, "approve", tenant_id="globex")
    assert reply.status == 404
    assert status_of(memory, scenario.proposed_id) is ProcedureStatus.PENDING


def test_a_server_for_one_tenant_shows_and_decides_only_its_procedures(
    memory: Memory, scenario: Scenario
) -> None:
    other = consolidate_run(memory, "run-900", title="NDA", steps=["Read"], tenant_id="globex")
    with ReviewServer(Application(memory.ports), port=0, tenant_id="globex").start() as server:
        client = Client(server.port, server.app.csrf_token)
        page = client.page()
        assert f'data-procedure-id="{other}"' in page.text
        assert scenario.proposed_id not in page.text
        assert client.decide(scenario.proposed_id, "approve").status == 404
    assert status_of(memory, scenario.proposed_id) is ProcedureStatus.PENDING


def test_an_empty_queue_says_so(client: Client) -> None:
    assert "Nothing awaits review." in client.page().text


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [("GET", "/decide", 405), ("POST", "/", 405), ("GET", "/admin", 404), ("PUT", "/", 405)],
)
def test_other_routes_and_methods_are_refused(
    client: Client, method: str, path: str, status: int
) -> None:
    assert client.request(method, path).status == status


def test_a_form_that_is_not_urlencoded_is_refused(client: Client, scenario: Scenario) -> None:
    reply = client.request(
        "POST", "/decide", body="{}", headers={"Content-Type": "application/json"}
    )
    assert reply.status == 415


def test_an_oversized_form_is_refused(client: Client) -> None:
    # Past the largest edit's form (50 steps of 2,000 characters, form-encoded): refused on
    # its declared length, before a byte of it is read
    reply = client.request(
        "POST",
        "/decide",
        body=b"reason=x",
        headers={
            "Content-Type": "application/x-www-form-urlencoded",
            "Content-Length": str(MAX_FORM_BYTES + 1),
        },
    )
    assert reply.status == 413


def test_the_server_listens_on_loopback_by_default(memory: Memory) -> None:
    with ReviewServer(Application(memory.ports), port=0) as server:
        assert server.url == f"http://127.0.0.1:{server.port}/"
        assert server.app.allowed_hosts == frozenset(
            f"{name}:{server.port}" for name in ("127.0.0.1", "localhost", "[::1]")
        )


def test_a_server_on_every_interface_accepts_any_host_name() -> None:
    assert allowed_hosts("0.0.0.0", 8765) is None
    assert allowed_hosts("192.0.2.7", 8765) == frozenset({"192.0.2.7:8765"})


def _article(page: str, procedure_id: str) -> str:
    start = page.index(f'<article class="procedure" id="{procedure_id}"')
    return page[start : page.index("</article>", start)]


def test_a_retirement_not_confirmed_on_the_page_changes_nothing(
    client: Client, memory: Memory, scenario: Scenario
) -> None:
    reply = client.repair("/retire", procedure_id=scenario.served_id, reason="renumbered")

    assert reply.status == 400
    assert "tick the box to confirm" in reply.banner()
    assert status_of(memory, scenario.served_id) is ProcedureStatus.VALIDATED


def test_an_edit_from_a_revision_someone_replaced_is_refused_with_the_reason(
    client: Client, memory: Memory, scenario: Scenario
) -> None:
    # Given a first edit saved from revision 0
    first = {"procedure_id": scenario.proposed_id, "reason": "clearer", "confirm": "yes"}
    saved = client.repair("/edit", **first, steps="Read clause 7.3\nSign", expected_revision="0")
    assert saved.status == 303
    # When a second editor saves from the revision 0 they read
    again = client.repair("/edit", **first, steps="Other", expected_revision="0")
    # Then it is refused as a conflict naming the first edit, which stands
    assert again.status == 409
    assert "revision 1 by legal-lead, not 0" in again.banner()
    stored = memory.ports.procedures.get(scenario.proposed_id)
    assert stored is not None and stored.steps == ("Read clause 7.3", "Sign")


def test_an_edit_with_too_many_steps_is_refused_naming_the_steps(
    client: Client, memory: Memory, scenario: Scenario
) -> None:
    steps = "\n".join(f"step {n}" for n in range(51))
    reply = client.repair(
        "/edit", procedure_id=scenario.proposed_id, reason="r", confirm="yes", steps=steps
    )
    assert reply.status == 400
    assert "steps: must hold 1-50 steps" in reply.banner()
    assert status_of(memory, scenario.proposed_id) is ProcedureStatus.PENDING
