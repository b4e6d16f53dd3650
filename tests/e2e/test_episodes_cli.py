"""``agent-memory episodes list|show``: an agent's past runs read back from the command line, the
same records the SDK reads, with what a terminal would act on shown instead.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from agent_memory.sdk import MemoryClient
from tests.e2e.test_cli_options import cli
from tests.support.embedder import HashingEmbedder
from tests.support.fakes import FakePiiDetector
from tests.support.memory import run_event

WHO = ("--tenant", "acme", "--agent", "reviewer")


@pytest.fixture
def store(tmp_path: Path) -> Path:
    """Five runs of acme's reviewer, one whose summary carries a terminal escape."""
    home = tmp_path / "home"
    with MemoryClient.local(home, embedder=HashingEmbedder(), pii=FakePiiDetector()) as memory:
        for n in range(5):
            event = run_event(f"run-{n}", finished_at=f"2026-12-0{n + 1}T09:00:00Z")
            event["artifacts"]["task_summary"] = f"Reviewed MSA {n}" + ("\x1b[2J" if n == 4 else "")
            memory.finish_run(event).wait(timeout=60)
    return home


def test_list_pages_through_every_episode_newest_first(store: Path) -> None:
    # When the episodes are listed two at a time, following the printed cursor
    runs, cursor, pages = [], None, 0
    while True:
        more = ("--cursor", cursor) if cursor else ()
        done = cli(store, "episodes", "list", *WHO, "--limit", "2", *more)
        assert done.returncode == 0, done.stderr
        pages += 1
        runs += re.findall(r"^(run-\d)\s", done.stdout, flags=re.MULTILINE)
        found = re.search(r"\(more: --cursor (\S+)\)", done.stdout)
        if found is None:
            break
        cursor = found.group(1)
    # Then every run comes once, newest first, in three pages
    assert runs == [f"run-{n}" for n in reversed(range(5))]
    assert pages == 3


def test_list_and_show_as_json_are_the_sdks_records(store: Path) -> None:
    listed = json.loads(cli(store, "episodes", "list", *WHO, "--json").stdout)
    shown = json.loads(cli(store, "episodes", "show", "run-2", *WHO, "--json").stdout)
    with MemoryClient.local(store, embedder=HashingEmbedder(), pii=FakePiiDetector()) as memory:
        assert listed == memory.list_episodes("acme", "reviewer", limit=20)
        assert shown == memory.get_episode("acme", "reviewer", "run-2")


def test_show_prints_every_field_and_no_terminal_control(store: Path) -> None:
    # When the episode whose summary holds an escape sequence is shown, and listed
    shown = cli(store, "episodes", "show", "run-4", *WHO)
    listed = cli(store, "episodes", "list", *WHO)
    # Then its fields are printed, and the escape is shown, never sent to the terminal
    assert shown.returncode == 0, shown.stderr
    assert "run-4 by reviewer, COMPLETED" in shown.stdout
    assert "findings:\n  - Clause 7.3 caps liability at 0.5x fees" in shown.stdout
    for done in (shown, listed):
        assert "\x1b" not in done.stdout and "Reviewed MSA 4" in done.stdout


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (("show", "run-9", *WHO), "run_id"),
        (("list", *WHO, "--limit", "0"), "limit"),
        (("list", "--tenant", "acme", "--agent", "bad agent"), "agent_id"),
    ],
)
def test_a_bad_request_is_a_usage_error_naming_its_field(
    store: Path, args: tuple[str, ...], field: str
) -> None:
    done = cli(store, "episodes", *args)
    assert done.returncode == 2
    assert done.stderr.startswith(f"agent-memory: error: {field}: "), done.stderr
