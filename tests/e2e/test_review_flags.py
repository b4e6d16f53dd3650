"""The review page's flags in a real headless Chromium: a person reads what agents flagged and
dismisses a flag, with a reason and a confirmation, by clicking.

Needs Debian's Chromium and the ``playwright`` package, as ``test_review_page.py`` does.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from agent_memory.app import Application
from agent_memory.app.messages import FlagMemory, History, ListFlags
from agent_memory.core.workflows.consolidation import consolidate
from agent_memory.review.server import ReviewServer
from tests.support.browser import browser, require_chromium
from tests.support.memory import Memory, make_memory, run_event

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Dialog, Page

sync_api = require_chromium()
__all__ = ["browser"]  # the shared fixture, used by the tests below

FLAG_ID = "reviewer:episode:reviewer/run-1"


@pytest.fixture
def memory(tmp_path: Path) -> Memory:
    # Given acme's reviewer flagging its episode of run-1, with a reason holding markup
    memory = make_memory(tmp_path / "store")
    consolidate(run_event("run-1"), memory.ports)
    Application(memory.ports).handle(
        FlagMemory("acme", "reviewer", "episode", "run-1", "<b>Wrong</b>: the cap is 2x now")
    )
    memory.clock.advance(60)
    return memory


@contextmanager
def flags_page(browser: Browser, memory: Memory, *, accept: bool) -> Iterator[tuple[Page, list]]:
    """The page of tenant acme; each confirmation asked is answered ``accept`` and kept."""
    asked: list[tuple[str, str]] = []

    def answer(dialog: Dialog) -> None:
        asked.append((dialog.type, dialog.message))
        if dialog.type == "confirm" and accept:
            dialog.accept()
        else:
            dialog.dismiss()

    with ReviewServer(Application(memory.ports), port=0, tenant_id="acme").start() as server:
        context = browser.new_context()
        try:
            page = context.new_page()
            page.set_default_timeout(10_000)
            page.on("dialog", answer)
            page.goto(server.url)
            yield page, asked
        finally:
            context.close()
    # No stored string ran as script: every dialog was the page's own confirmation
    assert all(kind == "confirm" for kind, _ in asked), asked


def open_flags(memory: Memory) -> list[str]:
    return [f["flag_id"] for f in Application(memory.ports).handle(ListFlags("acme"))["flags"]]


def test_a_person_dismisses_a_flag_with_a_reason_and_a_confirmation(
    browser: Browser, memory: Memory
) -> None:
    with flags_page(browser, memory, accept=True) as (page, asked):
        # Given the page listing the flag: who flagged what, and why (markup shown as text)
        card = page.locator(f'article.flagged[data-flag-id="{FLAG_ID}"]')
        sync_api.expect(card.locator(".meta")).to_contain_text("reviewer flagged the episode")
        sync_api.expect(card.locator("blockquote")).to_have_text("<b>Wrong</b>: the cap is 2x now")
        # When they click Dismiss with no name, then with no reason: each is asked for
        card.locator("button.dismiss").click()
        sync_api.expect(card.locator(".problem")).to_contain_text("Type your name")
        page.fill("#reviewer", "Dana Lee")
        card.locator("button.dismiss").click()
        sync_api.expect(card.locator(".problem")).to_contain_text("needs a reason")
        assert open_flags(memory) == [FLAG_ID] and asked == []
        # When they give a reason and confirm
        card.locator('textarea[name="reason"]').fill("The cap is still 0.5x")
        card.locator("button.dismiss").click()
        # Then the page confirms, the flag is closed and the history names them and why
        sync_api.expect(page.locator(".banner.ok")).to_contain_text("Flag dismissed")
        sync_api.expect(card).to_have_count(0)
        sync_api.expect(page.locator("section.flags .empty")).to_be_visible()
    assert [message for _, message in asked] == [
        "Dismiss the flag of reviewer on episode reviewer/run-1? That agent is served it again."
    ]
    assert open_flags(memory) == []
    [latest, *_] = Application(memory.ports).handle(History("acme"))["decisions"]
    assert (latest["action"], latest["actor"]) == ("dismiss", "Dana Lee")
    assert latest["reason"] == "dismissed the flag of agent:reviewer: The cap is still 0.5x"


def test_a_dismissal_not_confirmed_changes_nothing(browser: Browser, memory: Memory) -> None:
    with flags_page(browser, memory, accept=False) as (page, asked):
        card = page.locator(f'article.flagged[data-flag-id="{FLAG_ID}"]')
        page.fill("#reviewer", "Dana Lee")
        card.locator('textarea[name="reason"]').fill("The cap is still 0.5x")
        # When the person clicks Dismiss, then answers the confirmation No
        card.locator("button.dismiss").click()
        sync_api.expect(card).to_have_count(1)
    # Then they were asked, and the flag is still open
    assert len(asked) == 1
    assert open_flags(memory) == [FLAG_ID]
