"""Where the benchmarks find their datasets: ``--data``, else ``$AGENT_MEMORY_BENCH_DATA``,
never a path outside the repository written into it."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.bench_data import ENVIRONMENT, dataset


def test_a_given_path_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENVIRONMENT, "/elsewhere")
    assert dataset("locomo", tmp_path) == tmp_path.resolve()


def test_without_one_the_environment_names_the_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENVIRONMENT, str(tmp_path))
    assert dataset("longmemeval") == (tmp_path / "longmemeval").resolve()


def test_without_either_the_exit_says_what_to_do(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENVIRONMENT, raising=False)
    with pytest.raises(SystemExit, match=f"--data.*{ENVIRONMENT}"):
        dataset("locomo")
