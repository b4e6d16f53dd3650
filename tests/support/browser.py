"""Debian's Chromium, driven by playwright (never a browser of playwright's own download)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser

CHROMIUM = next(
    (
        path
        for path in (
            os.environ.get("AGENT_MEMORY_CHROMIUM"),
            shutil.which("chromium"),
            shutil.which("chromium-browser"),
        )
        if path
    ),
    None,
)
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@contextmanager
def chromium() -> Iterator[Browser]:
    """A headless Chromium for the length of the ``with`` block."""
    from playwright.sync_api import sync_playwright

    assert CHROMIUM is not None, "no Chromium browser (apt-get install -y chromium)"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            yield launched
        finally:
            launched.close()


def require_chromium() -> ModuleType:
    """``playwright.sync_api``, or the calling test module skipped (no playwright, or no
    Chromium on this machine), saying what to install.
    """
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="the playwright package (a dev dependency) is not installed"
    )
    if CHROMIUM is None:
        pytest.skip(
            "no Chromium browser found (install it with: apt-get install -y chromium)",
            allow_module_level=True,
        )
    return sync_api


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One headless Chromium for a test module."""
    with chromium() as launched:
        yield launched
