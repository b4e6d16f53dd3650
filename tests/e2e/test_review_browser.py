"""The memory browser in a real headless Chromium: a person finds a run's episode and forgets
it, then retracts, asserts and corrects facts, forgets an agent and redacts a text, and reads each
decision in the history, all by clicking.

Needs Debian's Chromium and the ``playwright`` package, as ``test_review_page.py`` does.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from agent_memory.app import Application
from agent_memory.app.messages import GetEpisode, GetFact, ListFacts
from agent_memory.core.model.models import FactStatus
from agent_memory.review.server import ReviewServer
from tests.review.browsing import ACME_FACT, Browsed, seed
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
def browsed(memory: Memory) -> Browsed:
    return seed(memory)


@pytest.fixture
def page(browser: Browser, memory: Memory, browsed: Browsed) -> Iterator[Page]:
    """The browser of tenant acme, the reviewer's name typed; fails if any dialog opened."""
    dialogs: list[str] = []

    def dismiss(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    with ReviewServer(Application(memory.ports), port=0, tenant_id="acme").start() as server:
        context = browser.new_context()
        try:
            opened = context.new_page()
            opened.set_default_timeout(10_000)
            opened.on("dialog", dismiss)
            opened.goto(server.url)
            opened.fill("#reviewer", "Dana Lee")
            yield opened
        finally:
            context.close()
    assert dialogs == [], f"a dialog opened: {dialogs}"


def test_a_person_finds_a_run_and_forgets_it_with_a_reason_and_a_confirmation(
    page: Page, memory: Memory
) -> None:
    expect = sync_api.expect
    # Given the Episodes view, the reviewer agent picked
    page.click("nav.views a[data-view=episodes]")
    page.get_by_role("link", name="reviewer", exact=True).click()
    expect(page.locator("tr[data-run-id=run-1]")).to_contain_text("Reviewed the vendor MSA")
    # When they search its episodes and open the run found
    page.fill("input[name=q]", "liability cap")
    page.click("form.search button")
    expect(page.locator("h2").first).to_contain_text("matching “liability cap”")
    page.click("tr[data-run-id=run-1] a")
    expect(page.locator("article.episode")).to_contain_text("Clause 7.3 caps liability")
    # When they click Forget with a reason but without ticking the box: asked, nothing sent
    form = page.locator("form.forget")
    form.locator("textarea[name=reason]").fill("Poisoned by a prompt injection")
    form.locator("button").click()
    expect(form.locator(".problem")).to_contain_text("Tick the box to confirm")
    assert Application(memory.ports).handle(GetEpisode("acme", "reviewer", "run-1")) is not None
    # When they tick it and click again
    form.locator("input[name=confirm]").check()
    form.locator("button").click()
    # Then the receipt says what was taken back, and the run is gone
    expect(page.locator(".banner.ok")).to_contain_text("Run forgotten everywhere it counted")
    expect(page.locator("article.receipt")).to_contain_text("reviewer/run-1")
    assert Application(memory.ports).handle(GetEpisode("acme", "reviewer", "run-1")) is None
    # And the History view lists the decision: who, what, why
    page.click("nav.views a[data-view=history]")
    expect(page.locator("tbody tr")).to_have_count(1)
    expect(page.locator("tbody tr")).to_contain_text("Dana Lee")
    expect(page.locator("tbody tr")).to_contain_text("Poisoned by a prompt injection")


def test_a_person_retracts_asserts_and_corrects_facts_then_reads_the_history(
    page: Page, memory: Memory, browsed: Browsed
) -> None:
    expect = sync_api.expect
    app = Application(memory.ports)
    # Given the Facts view listing acme's fact
    page.click("nav.views a[data-view=facts]")
    page.click(f"tr[data-fact-hash='{browsed.acme_fact}'] a")
    expect(page.locator("article.fact")).to_contain_text("Confirmations")
    # When they retract it with a reason and the box ticked
    retract = page.locator("form.retract")
    retract.locator("textarea[name=reason]").fill("Our policy changed")
    retract.locator("input[name=confirm]").check()
    retract.locator("button").click()
    # Then it is retracted
    expect(page.locator(".banner.ok")).to_contain_text("Fact retracted")
    retracted = app.handle(GetFact("acme", "contracts", browsed.acme_fact))
    assert retracted is not None and retracted["status"] == "RETRACTED"
    memory.clock.advance(60)
    # When they assert one of their own from the Facts view
    page.click("nav.views a[data-view=facts]")
    assert_form = page.locator("form.assert")
    assert_form.locator("button").click()
    expect(assert_form.locator(".problem")).to_contain_text("Name the fact's domain")
    assert_form.locator("input[name=domain]").fill("contracts")
    assert_form.locator("textarea[name=content]").fill("Caps below 2x fees need legal")
    assert_form.locator("textarea[name=reason]").fill("New policy")
    assert_form.locator("input[name=confirm]").check()
    assert_form.locator("button").click()
    expect(page.locator(".banner.ok")).to_contain_text("Fact asserted")
    memory.clock.advance(60)
    # When they correct it on its page
    correct = page.locator("form.correct")
    correct.locator("textarea[name=content]").fill("Caps below 3x fees need legal")
    correct.locator("textarea[name=reason]").fill("Typo in the multiple")
    correct.locator("input[name=confirm]").check()
    correct.locator("button").click()
    # Then the page is the new fact's, and only it is confirmed
    expect(page.locator(".banner.ok")).to_contain_text("Fact corrected")
    expect(page.locator("article.fact")).to_contain_text("Caps below 3x fees need legal")
    confirmed = app.handle(ListFacts("acme", FactStatus.CONFIRMED))["facts"]
    assert [f["content"] for f in confirmed] == ["Caps below 3x fees need legal"]
    # And the History lists each decision, newest first, with who and why
    page.click("nav.views a[data-view=history]")
    rows = page.locator("tbody tr")
    expect(rows).to_have_count(3)
    for row, (action, why) in enumerate(
        [("correct", "Typo in the multiple"), ("assert", "New policy"), ("retract", "policy")]
    ):
        expect(rows.nth(row)).to_contain_text(action)
        expect(rows.nth(row)).to_contain_text(why)
        expect(rows.nth(row)).to_contain_text("Dana Lee")
    assert ACME_FACT not in page.content()


def test_a_person_forgets_an_agent_then_redacts_a_text_it_never_sees_again(
    page: Page, memory: Memory
) -> None:
    expect = sync_api.expect
    app = Application(memory.ports)
    secret = "Clause 7.3 caps liability"
    # Given the checker's Episodes view
    page.click("nav.views a[data-view=episodes]")
    page.get_by_role("link", name="checker", exact=True).click()
    # When they forget every run of it with a reason and the box ticked
    forget = page.locator("form.forget-agent")
    forget.locator("textarea[name=reason]").fill("Its model was poisoned")
    forget.locator("input[name=confirm]").check()
    forget.locator("button").click()
    # Then the receipt names its run, and the run is gone
    expect(page.locator(".banner.ok")).to_contain_text("Every run of checker forgotten")
    expect(page.locator("article.receipt")).to_contain_text("checker/run-2")
    assert app.handle(GetEpisode("acme", "checker", "run-2")) is None
    memory.clock.advance(60)
    # When they redact a text the reviewer's run holds, first without a reason
    page.click("nav.views a[data-view=redact]")
    redact = page.locator("form.redact")
    redact.locator("textarea[name=text]").fill(secret)
    redact.locator("button").click()
    expect(redact.locator(".problem")).to_contain_text("Say why")
    redact.locator("textarea[name=reason]").fill("A client's clause, not ours to keep")
    redact.locator("input[name=confirm]").check()
    redact.locator("button").click()
    # Then the receipt counts what was rewritten, and neither it nor its address holds the text
    expect(page.locator(".banner.ok")).to_contain_text("Text redacted from every record")
    expect(page.locator("article.redaction")).to_contain_text("Episodes rewritten")
    assert secret.lower() not in page.content().lower() and "Clause" not in page.url
    episode = app.handle(GetEpisode("acme", "reviewer", "run-1"))
    assert episode is not None and episode["key_findings"] == ["[REDACTED] at 0.5x fees"]
    # And the History lists both decisions, newest first
    page.click("nav.views a[data-view=history]")
    rows = page.locator("tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("redact")
    expect(rows.nth(1)).to_contain_text("agent checker")
