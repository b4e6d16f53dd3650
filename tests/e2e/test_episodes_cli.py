"""``agent-memory episodes list|show``: an agent's past runs read back from the command line, the
same records the SDK reads, with what a terminal would act on shown instead.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from agent_memory.adapters.local import embeddings
from agent_memory.adapters.local.embeddings import LocalModel
from agent_memory.cli.main import main
from agent_memory.core.model.policies import EpisodicPolicy, Policies
from agent_memory.sdk import MemoryClient
from tests.e2e.test_cli_options import cli
from tests.support.embedder import HashingEmbedder
from tests.support.fakes import FakePiiDetector
from tests.support.memory import HASHING_CALIBRATION, run_event

README = Path(__file__).parents[2] / "README.md"

WHO = ("--tenant", "acme", "--agent", "reviewer")


@pytest.fixture
def store(tmp_path: Path) -> Path:
    """Five runs of acme's reviewer, one whose summary carries a terminal escape, finished in
    December 2026 and kept a century (so the test does not expire with them).
    """
    home = tmp_path / "home"
    kept = Policies(episodic=EpisodicPolicy(retention_days=36_500))
    with MemoryClient.local(
        home, embedder=HashingEmbedder(), pii=FakePiiDetector(), policies=kept
    ) as memory:
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


def test_an_episode_that_does_not_exist_is_not_found(store: Path) -> None:
    # When a run the agent never had is shown
    done = cli(store, "episodes", "show", "run-9", *WHO)
    # Then it exits 3 (not found), naming the agent and the run
    assert done.returncode == 3
    assert done.stderr == "agent-memory: error: agent 'reviewer' has no episode of run 'run-9'\n"


# The lines README.md prints for listing and searching by time, run below as typed.
BY_TIME = (
    "agent-memory episodes list --tenant acme --agent reviewer "
    "--since 2026-12-02T00:00:00Z --until 2026-12-04T00:00:00Z",
    'agent-memory search "liability cap" --tenant acme --agent reviewer '
    "--since 2026-12-02T00:00:00Z",
)
MODEL = "test-hashing-256"


@pytest.fixture
def dated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Runs of acme's reviewer finished on 1 to 5 December 2026 at 09:00 UTC, kept a century
    (so the dates above stay in memory), under a registered test embedding model.
    """
    monkeypatch.setitem(
        embeddings.LOCAL_MODELS,
        MODEL,
        LocalModel(MODEL, lambda: HashingEmbedder(256, MODEL), HASHING_CALIBRATION),
    )
    home = tmp_path / "dated"
    assert main(["--store", str(home), "reembed", "--to", MODEL, "--switch"]) == 0
    kept = Policies(episodic=EpisodicPolicy(retention_days=36_500))
    embedder = HashingEmbedder(256, MODEL)
    with MemoryClient.local(
        home, embedder=embedder, pii=FakePiiDetector(), policies=kept
    ) as memory:
        for n in range(5):
            event = run_event(f"run-{n}", finished_at=f"2026-12-0{n + 1}T09:00:00Z")
            memory.finish_run(event).wait(timeout=60)
    return home


def run_line(home: Path, line: str, capsys: pytest.CaptureFixture[str], *more: str) -> str:
    """A documented command line, run as typed (plus ``more``) on ``home``."""
    assert line in " ".join(README.read_text().split()), line
    return run(home, capsys, *shlex.split(line)[1:], *more)


def run(home: Path, capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code = main(["--store", str(home), *args])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def test_the_readmes_listing_by_time_lists_the_runs_created_in_its_window(
    dated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # When the README's line lists the runs from 2 December up to 4 December
    out = run_line(dated, BY_TIME[0], capsys)
    # Then the runs of 2 and 3 December are listed, newest first, and no other
    assert re.findall(r"^(run-\d)\s", out, flags=re.MULTILINE) == ["run-2", "run-1"]


def test_the_readmes_search_by_time_ranks_only_the_runs_since(
    dated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    found = json.loads(run_line(dated, BY_TIME[1], capsys, "--json"))
    assert sorted(e["run_id"] for e in found["episodes"]) == ["run-1", "run-2", "run-3", "run-4"]


def test_a_windowed_listing_prints_its_window_with_the_cursor(
    dated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # When a window of three runs is listed two at a time, following the printed line
    window = ("--since", "2026-12-02T00:00:00Z", "--until", "2026-12-05T00:00:00Z")
    first = run(dated, capsys, "episodes", "list", *WHO, *window, "--limit", "2")
    more = re.search(r"\(more: (.+)\)", first)
    assert more is not None
    out = run(dated, capsys, "episodes", "list", *WHO, *more.group(1).split())
    # Then the next page holds the window's last run, and the listing ends
    listed = re.findall(r"^(run-\d)\s", first + out, flags=re.MULTILINE)
    assert listed == ["run-3", "run-2", "run-1"]
    assert "more:" not in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("episodes", "list", *WHO, "--since", "2 December"), "--since must be an ISO 8601 time"),
        (("episodes", "list", *WHO, "--until", "2026-12-02T00:00:00"), "--until needs a time zone"),
        (
            (
                "search",
                "cap",
                *WHO,
                "--since",
                "2026-12-02T00:00:00Z",
                "--until",
                "2026-12-01T00:00:00Z",
            ),
            "until: must be later than since",
        ),
    ],
)
def test_a_bad_bound_is_a_usage_error_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    # Given a store (an empty one: a read of a missing store is refused before its arguments)
    MemoryClient.local(tmp_path / "home", embedder=HashingEmbedder(), pii=FakePiiDetector()).close()
    code = main(["--store", str(tmp_path / "home"), *args])
    _, err = capsys.readouterr()
    assert code == 2
    assert message in err, err
