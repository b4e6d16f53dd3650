"""The review server's flags: listed for the page's tenant, dismissed by a POST from the page
alone (its CSRF token, its tenant), never from another tenant's or a forged form.
"""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlencode

import pytest

from agent_memory.app import Application
from agent_memory.app.messages import FlagMemory, ListFlags
from agent_memory.core.workflows.consolidation import consolidate
from agent_memory.review.server import ReviewServer
from tests.review.client import Client, Reply
from tests.support.memory import Memory, run_event

FLAG_ID = "reviewer:episode:reviewer/run-1"


@pytest.fixture
def flagged(memory: Memory) -> Memory:
    # Given acme's reviewer flagging its episode of run-1
    consolidate(run_event("run-1"), memory.ports)
    Application(memory.ports).handle(FlagMemory("acme", "reviewer", "episode", "run-1", "Wrong"))
    return memory


@pytest.fixture
def acme(flagged: Memory) -> Iterator[Client]:
    with ReviewServer(Application(flagged.ports), port=0, tenant_id="acme").start() as server:
        yield Client(server.port, server.app.csrf_token)


def dismiss(client: Client, **fields: str) -> Reply:
    form = {
        "flag_id": FLAG_ID,
        "tenant_id": "acme",
        "reviewer": "legal-lead",
        "reason": "It stands",
        "csrf_token": client.csrf_token,
        **fields,
    }
    return client.request(
        "POST",
        "/dismiss",
        body=urlencode(form),
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )


def open_flags(memory: Memory) -> list[str]:
    return [f["flag_id"] for f in Application(memory.ports).handle(ListFlags("acme"))["flags"]]


def test_the_page_of_a_tenant_lists_its_open_flags(acme: Client) -> None:
    page = acme.page()
    assert f'data-flag-id="{FLAG_ID}"' in page.text and "Wrong" in page.text


def test_a_page_of_every_tenant_says_flags_are_reviewed_per_tenant(
    flagged: Memory, client: Client
) -> None:
    page = client.page()
    assert "data-flag-id" not in page.text and "one tenant at a time" in page.text


def test_a_dismissal_closes_the_flag_and_says_so(acme: Client, flagged: Memory) -> None:
    done = dismiss(acme)
    assert done.status == 303 and done.headers["location"].startswith("/?dismissed=")
    assert "Flag dismissed" in acme.page(done.headers["location"]).banner()
    assert open_flags(flagged) == []


@pytest.mark.parametrize(
    ("fields", "status"),
    [
        ({"csrf_token": "forged"}, 403),
        ({"tenant_id": "globex"}, 404),
        ({"flag_id": "reviewer:fact:other"}, 404),
        ({"reviewer": " "}, 400),
    ],
)
def test_a_forged_or_wrong_dismissal_changes_nothing(
    acme: Client, flagged: Memory, fields: dict[str, str], status: int
) -> None:
    assert dismiss(acme, **fields).status == status
    assert open_flags(flagged) == [FLAG_ID]


def test_a_page_of_every_tenant_dismisses_nothing(flagged: Memory, client: Client) -> None:
    assert dismiss(client).status == 404
    assert open_flags(flagged) == [FLAG_ID]
