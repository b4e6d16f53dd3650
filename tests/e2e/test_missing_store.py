"""A command that only reads, given a store that does not exist: one line, exit 2, nothing made."""

from pathlib import Path

import pytest

from agent_memory.cli.main import _parser, main
from tests.e2e.test_cli_options import commands


def _read_commands() -> list[tuple[tuple[str, ...], list[str]]]:
    """Every command of the CLI's table that only reads the store (``read_only``), and the
    options that make a writing command only read.
    """
    parser = _parser()
    found = []
    for words, required in commands(parser):
        if parser.parse_args([*words, *required]).__dict__.get("read_only"):
            found.append((words, required))
    return [*found, (("decay",), ["--dry-run"]), (("reembed",), ["--status"])]


READ_COMMANDS = _read_commands()


def test_the_table_of_read_commands_holds_the_documented_ones() -> None:
    # Given the commands the README says only read
    documented = {("stats",), ("bootstrap",), ("export",), ("search",), ("history",)}
    # When the CLI's table is read
    found = {words for words, _ in READ_COMMANDS}
    # Then each is one of them, with the listings and shows
    assert documented <= found
    assert {("episodes", "list"), ("facts", "show"), ("procedures", "show")} <= found
    assert {("flags", "list"), ("failed", "list")} <= found
    assert ("consolidate",) not in found and ("procedures", "approve") not in found
    assert ("decay",) in found and ("reembed",) in found


@pytest.mark.parametrize(
    ("words", "required"), READ_COMMANDS, ids=[" ".join(w) for w, _ in READ_COMMANDS]
)
def test_a_read_command_on_a_missing_store_makes_nothing_and_says_what_to_do(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    words: tuple[str, ...],
    required: list[str],
) -> None:
    # Given a mistyped --store (and a home that does not exist either)
    monkeypatch.setenv("AGENT_MEMORY_HOME", str(tmp_path / "home"))
    typo = tmp_path / "typo" / "store"
    # When the command runs on it
    code = main(["--store", str(typo), *words, *required])
    # Then it exits 2 with one line naming the path and what to do, and nothing is on disk
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("agent-memory: error: no store at ")
    assert str(typo) in err and "--store" in err
    assert list(tmp_path.iterdir()) == []


def test_a_write_still_makes_its_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a store that does not exist yet
    store = tmp_path / "new" / "store"
    # When a command that writes runs on it (approving an unknown procedure still opens it)
    main(["--store", str(store), "procedures", "approve", "proc-nope", "--reviewer", "me"])
    # Then the store is made
    assert (store / "memory.db").is_file()
