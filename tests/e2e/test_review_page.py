"""The review page in a real headless Chromium: a reviewer approves and rejects by clicking.

Needs Debian's Chromium (``apt-get install -y chromium``) and the ``playwright`` package, which
drives it; ``playwright install`` is never needed (it would download a browser of its own).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from agent_memory.app import Application
from agent_memory.core.model.models import ProcedureStatus
from agent_memory.review.server import ReviewServer
from tests.review.scenario import (
    PROPOSED_STEPS,
    SERVED_STEPS,
    Scenario,
    consolidate_run,
    seed,
    status_of,
)
from tests.support.browser import browser, require_chromium
from tests.support.memory import Memory, make_memory

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Dialog, Page

sync_api = require_chromium()
__all__ = ["browser"]  # the shared fixture, used by the tests below


@pytest.fixture
def memory(tmp_path: Path) -> Memory:
    return make_memory(tmp_path / "store")


@pytest.fixture
def scenario(memory: Memory) -> Scenario:
    return seed(memory)


@contextmanager
def review_page(browser: Browser, memory: Memory) -> Iterator[Page]:
    """The review page of ``memory`` in a fresh browser context; fails if a dialog opened."""
    dialogs: list[str] = []

    def dismiss(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    with ReviewServer(Application(memory.ports), port=0).start() as server:
        context = browser.new_context()
        try:
            page = context.new_page()
            page.set_default_timeout(10_000)
            page.on("dialog", dismiss)
            page.goto(server.url)
            yield page
        finally:
            context.close()
    assert dialogs == [], f"a stored string ran as script: {dialogs}"


@pytest.fixture
def page(browser: Browser, memory: Memory, scenario: Scenario) -> Iterator[Page]:
    with review_page(browser, memory) as opened:
        yield opened


def test_a_reviewer_approves_a_pending_procedure_in_the_browser(
    page: Page, memory: Memory, scenario: Scenario
) -> None:
    # Given the page showing the pending re-proposal, its runs and its diff
    card = page.locator(f'article[data-procedure-id="{scenario.proposed_id}"]')
    sync_api.expect(card.locator("h2")).to_have_text("Vendor MSA review")
    sync_api.expect(card.locator('tr[data-run-id="run-003"]')).to_contain_text("checker")
    sync_api.expect(card.locator("ol.diff li.added")).to_contain_text("indemnity carve-outs")
    # When the reviewer types a name and clicks Approve
    page.fill("#reviewer", "Dana Lee")
    card.locator("button.approve").click()
    # Then the page confirms, and the store holds the procedure VALIDATED by that reviewer
    sync_api.expect(page.locator(".banner.ok")).to_contain_text("is now VALIDATED")
    sync_api.expect(card).to_have_count(0)
    approved = memory.ports.procedures.get(scenario.proposed_id)
    assert approved is not None
    assert (approved.status, approved.reviewer) == (ProcedureStatus.VALIDATED, "Dana Lee")


def test_the_page_asks_for_a_name_and_a_reason_before_rejecting(
    page: Page, memory: Memory, scenario: Scenario
) -> None:
    card = page.locator(f'article[data-procedure-id="{scenario.proposed_id}"]')
    # Given no reviewer name: clicking Reject asks for it and sends nothing
    card.locator("button.reject").click()
    sync_api.expect(card.locator(".problem")).to_contain_text("Type your name as reviewer")
    # Given a name but no reason: it asks for the reason
    page.fill("#reviewer", "Dana Lee")
    card.locator("button.reject").click()
    sync_api.expect(card.locator(".problem")).to_contain_text("A rejection needs a reason")
    assert status_of(memory, scenario.proposed_id) is ProcedureStatus.PENDING
    # When a reason is typed and Reject clicked again
    card.locator('textarea[name="reason"]').fill("Twice the fees is too generous")
    card.locator("button.reject").click()
    # Then the procedure is rejected with that reason as the review note
    sync_api.expect(page.locator(".banner.ok")).to_contain_text("is now REJECTED")
    rejected = memory.ports.procedures.get(scenario.proposed_id)
    assert rejected is not None
    assert (rejected.status, rejected.reviewer, rejected.review_note) == (
        ProcedureStatus.REJECTED,
        "Dana Lee",
        "Twice the fees is too generous",
    )


def test_stored_markup_shows_as_text_and_never_runs(
    browser: Browser, memory: Memory, scenario: Scenario
) -> None:
    # Given a procedure whose title and step are markup with scripts
    proposed = consolidate_run(
        memory,
        "run-666",
        title="<img src=x onerror=alert(1)>Evil",
        steps=["<script>alert(2)</script> then sign"],
        task_type="nda_review",
    )
    # When the page is loaded
    with review_page(browser, memory) as page:
        card = page.locator(f'article[data-procedure-id="{proposed}"]')
        # Then the browser shows the text itself, and no script ran (no dialog opened)
        sync_api.expect(card.locator("h2")).to_have_text("<img src=x onerror=alert(1)>Evil")
        sync_api.expect(card.locator("section.steps li")).to_have_text(
            "<script>alert(2)</script> then sign"
        )
        assert card.locator("img, section.steps script").count() == 0


def test_a_reviewer_edits_the_steps_of_a_pending_procedure_then_approves_them(
    page: Page, memory: Memory, scenario: Scenario
) -> None:
    # Given the pending proposal's edit form, opened, holding its steps one per line
    card = page.locator(f'article[data-procedure-id="{scenario.proposed_id}"]')
    edit = page.locator(f'details.edit[data-edit-id="{scenario.proposed_id}"]')
    edit.locator("summary").click()
    steps = edit.locator("form.edit textarea.steps")
    sync_api.expect(steps).to_have_value("\n".join(PROPOSED_STEPS))
    # When the reviewer replaces step 2, gives a reason, confirms and saves
    page.fill("#reviewer", "Dana Lee")
    edited = [PROPOSED_STEPS[0], "Compare the cap with 1.5x the annual fees", *PROPOSED_STEPS[2:]]
    steps.fill("\n".join(edited))
    edit.locator('textarea[name="reason"]').fill("Twice the fees is too generous")
    edit.locator('input[name="confirm"]').check()
    edit.locator("button.save").click()
    # Then the page says it was edited and still awaits approval, the store holds the new steps
    sync_api.expect(page.locator(".banner.ok")).to_contain_text("edited by Dana Lee (revision 1)")
    stored = memory.ports.procedures.get(scenario.proposed_id)
    assert stored is not None
    assert (stored.status, stored.steps) == (ProcedureStatus.PENDING, tuple(edited))
    # When it is approved from the same page
    card.locator("button.approve").click()
    # Then the approved procedure is the edited one
    sync_api.expect(page.locator(".banner.ok")).to_contain_text("is now VALIDATED")
    approved = memory.ports.procedures.get(scenario.proposed_id)
    assert approved is not None
    assert (approved.status, approved.steps) == (ProcedureStatus.VALIDATED, tuple(edited))


def test_a_reviewer_retires_a_served_procedure_once_they_confirm(
    page: Page, memory: Memory, scenario: Scenario
) -> None:
    # Given the procedure served now, listed with a retire form
    card = page.locator(f'article.served[data-served-id="{scenario.served_id}"]')
    sync_api.expect(card.locator("section.steps li")).to_have_count(len(SERVED_STEPS))
    page.fill("#reviewer", "Dana Lee")
    card.locator('textarea[name="reason"]').fill("Clause 7.3 was renumbered")
    # When Retire is clicked without confirming, the page asks and nothing changes
    card.locator("button.retire").click()
    sync_api.expect(card.locator(".problem")).to_contain_text("Tick the box to confirm")
    assert status_of(memory, scenario.served_id) is ProcedureStatus.VALIDATED
    # When the box is ticked and Retire clicked again
    card.locator('input[name="confirm"]').check()
    card.locator("button.retire").click()
    # Then it is retired, with the reason, and no longer listed as served
    sync_api.expect(page.locator(".banner.ok")).to_contain_text("is now RETIRED")
    sync_api.expect(card).to_have_count(0)
    retired = memory.ports.procedures.get(scenario.served_id)
    assert retired is not None
    assert (retired.status, retired.reviewer, retired.review_note) == (
        ProcedureStatus.RETIRED,
        "Dana Lee",
        "Clause 7.3 was renumbered",
    )
