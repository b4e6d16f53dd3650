"""Debian's Chromium, driven by playwright (never a browser of playwright's own download)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

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
