"""One exit code per kind of outcome, as ``agent-memory --help`` and the README list them."""

import argparse
import re
from pathlib import Path

import pytest

from agent_memory.cli.exit_codes import EXIT_CODES, NOT_FOUND
from agent_memory.cli.main import _parser, main
from tests.e2e.test_cli_options import commands

README = Path(__file__).resolve().parents[2] / "README.md"
# The arguments that name one record.
ID_ARGUMENTS = frozenset({"procedure_id", "fact_hash", "run_id", "flag_id", "key"})


def _subparser(words: tuple[str, ...]) -> argparse.ArgumentParser:
    parser = _parser()
    for word in words:
        action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        parser = action.choices[word]
    return parser


def _id_commands() -> list[tuple[tuple[str, ...], list[str]]]:
    """Every command of the CLI that names a record by a positional id."""
    found = []
    for words, required in commands(_parser()):
        sub = _subparser(words)
        if any(not a.option_strings and a.dest in ID_ARGUMENTS for a in sub._actions):
            found.append((words, required))
    return found


ID_COMMANDS = _id_commands()
# An id of the right form that names nothing, by argument.
UNKNOWN = {"flag_id": "agent-x:procedure:proc-x", "fact_hash": "0" * 16}


def _naming_unknown_ids(words: tuple[str, ...], required: list[str], tmp: Path) -> list[str]:
    """``required`` with each id naming no record (and what else the command needs to run)."""
    sub = _subparser(words)
    argv = list(required)
    positional = [a for a in sub._actions if not a.option_strings]
    for i, action in enumerate(positional):
        unknown = UNKNOWN.get(action.dest, "nope-1")
        if i < len(argv) and argv[i] == "x":
            argv[i] = unknown
        else:  # optional (failed replay's key): name one
            argv.insert(i, unknown)
    if "--steps-file" in argv:
        steps = tmp / "steps.txt"
        steps.write_text("one step\n")
        argv[argv.index("--steps-file") + 1] = str(steps)
    if any("--yes" in a.option_strings for a in sub._actions):
        argv.append("--yes")
    return argv


def test_every_command_that_takes_an_id_is_enumerated() -> None:
    # Given the CLI's table of commands
    # When those naming a record by id are picked out
    names = {" ".join(words) for words, _ in ID_COMMANDS}
    # Then the reads and the decisions are among them
    assert {"procedures show", "procedures approve", "facts show", "episodes show"} <= names
    assert {"flags dismiss", "failed replay", "facts retract"} <= names


@pytest.mark.parametrize(
    ("words", "required"), ID_COMMANDS, ids=[" ".join(w) for w, _ in ID_COMMANDS]
)
def test_an_unknown_id_exits_with_the_not_found_code(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    words: tuple[str, ...],
    required: list[str],
) -> None:
    # Given a store that exists (a first write made it) and holds no record of that id
    store = tmp_path / "store"
    main(["--store", str(store), "procedures", "approve", "proc-nope", "--reviewer", "me"])
    capsys.readouterr()
    argv = _naming_unknown_ids(words, required, tmp_path)
    # When the command names the unknown id
    code = main(["--store", str(store), *words, *argv])
    # Then it exits with the not-found code, in one line
    err = capsys.readouterr().err
    assert code == NOT_FOUND, err
    assert err.startswith("agent-memory: error: ") and err.count("\n") == 1


def test_help_and_readme_list_the_same_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    # Given the CLI's table of exit codes
    # When --help is printed and the README's section is read
    with pytest.raises(SystemExit):
        main(["--help"])
    shown = capsys.readouterr().out
    section = README.read_text().split("## Exit codes", 1)[1].split("\n## ", 1)[0]
    # Then each code is in both, with the same words
    for code, what in EXIT_CODES:
        assert f"  {code}  {what}" in shown
        assert re.search(rf"^\| {code} \| {re.escape(what)} \|$", section, re.M), code
