"""``agent-memory procedures edit`` and ``procedures retire`` from the command line, then what
bootstrap serves and what ``history`` lists.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_memory.cli.main import main
from agent_memory.core.model.models import ProcedureStatus
from tests.review.scenario import Scenario, seed, status_of
from tests.support.memory import Memory, make_memory


@pytest.fixture
def memory(tmp_path: Path) -> Memory:
    return make_memory(tmp_path / "store")


@pytest.fixture
def scenario(memory: Memory) -> Scenario:
    return seed(memory)


def run(memory: Memory, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["--store", str(memory.root), *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_edit_replaces_the_steps_from_a_file_and_approve_serves_them(
    memory: Memory, scenario: Scenario, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Given the new steps in a file, one per line (a blank line and list markers included)
    steps = tmp_path / "steps.txt"
    steps.write_text("1. Read clause 7.3\n\n2. Compare the cap with 1.5x the fees\n")
    # When a reviewer edits the pending proposal with them, then approves it
    code, out, err = run(
        memory,
        capsys,
        *("procedures", "edit", scenario.proposed_id, "--tenant", "acme"),
        *("--steps-file", str(steps), "--reviewer", "dana", "--reason", "too generous"),
    )
    assert code == 0, err
    assert "2 step(s), revision 1; still PENDING" in out
    assert run(memory, capsys, "procedures", "approve", scenario.proposed_id, "--reviewer", "lee")[
        0
    ] == (0)
    # Then the approved procedure holds the edited steps
    stored = memory.ports.procedures.get(scenario.proposed_id)
    assert stored is not None
    assert stored.steps == ("Read clause 7.3", "Compare the cap with 1.5x the fees")


def test_edit_with_repeated_steps_from_a_stale_revision_is_refused_in_one_line(
    memory: Memory, scenario: Scenario, capsys: pytest.CaptureFixture[str]
) -> None:
    edit = ("procedures", "edit", scenario.proposed_id, "--tenant", "acme", "--reviewer", "dana")
    first = run(memory, capsys, *edit, "--step", "Read", "--step", "Sign", "--reason", "r")
    assert first[0] == 0, first[2]

    code, _, err = run(memory, capsys, *edit, "--step", "Other", "--reason", "r", "--revision", "0")

    assert code == 4  # conflict: edited since the revision read
    assert "revision 1 by dana, not 0" in err and "Traceback" not in err


def test_edit_of_a_validated_procedure_is_refused_naming_what_to_do(
    memory: Memory, scenario: Scenario, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(
        memory,
        capsys,
        *("procedures", "edit", scenario.served_id, "--tenant", "acme", "--step", "x"),
        *("--reviewer", "dana", "--reason", "r"),
    )
    assert code != 0
    assert "reject or retire it, edit it, then approve it" in err


def test_retire_without_a_terminal_needs_yes_and_retires_nothing(
    memory: Memory, scenario: Scenario, capsys: pytest.CaptureFixture[str]
) -> None:
    retire = ("procedures", "retire", scenario.served_id, "--tenant", "acme")
    code, _, err = run(memory, capsys, *retire, "--reviewer", "lee", "--reason", "renumbered")

    assert code == 2
    assert "give --yes" in err
    assert status_of(memory, scenario.served_id) is ProcedureStatus.VALIDATED


def test_retire_with_yes_stops_serving_it_and_history_lists_edit_and_retire(
    memory: Memory, scenario: Scenario, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given an edit of the pending proposal, and the served procedure retired with --yes
    edit = ("procedures", "edit", scenario.proposed_id, "--tenant", "acme", "--step", "Read")
    assert run(memory, capsys, *edit, "--reviewer", "dana", "--reason", "shorter")[0] == 0
    memory.clock.advance(60)
    retire = ("procedures", "retire", scenario.served_id, "--tenant", "acme", "--yes")
    code, out, err = run(memory, capsys, *retire, "--reviewer", "lee", "--reason", "renumbered")
    assert code == 0, err
    assert f"{scenario.served_id} is RETIRED (reviewer lee)" in out
    # Then bootstrap serves no procedure for the task type
    code, out, _ = run(
        memory,
        capsys,
        *("bootstrap", "--tenant", "acme", "--agent", "reviewer", "--task", "Review the MSA"),
        *("--task-type", "contract_review", "--json"),
    )
    assert code == 0 and '"procedure": null' in out
    # And history lists both decisions, newest first
    code, out, _ = run(memory, capsys, "history", "--tenant", "acme")
    lines = [line for line in out.splitlines() if not line.startswith("    ")]
    assert f"retire procedure {scenario.served_id}  by lee" in lines[0]
    assert f"edit procedure {scenario.proposed_id}  by dana" in lines[1]


def test_an_approval_of_a_revision_no_longer_current_is_refused(
    memory: Memory, scenario: Scenario, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given the pending proposal edited once (revision 1)
    edit = ("procedures", "edit", scenario.proposed_id, "--tenant", "acme", "--step", "Only")
    code, _, err = run(memory, capsys, *edit, "--reviewer", "eve", "--reason", "shorter")
    assert code == 0, err
    # When it is approved as read at revision 0, then at revision 1
    approve = ("procedures", "approve", scenario.proposed_id, "--reviewer", "lee", "--revision")
    stale = run(memory, capsys, *approve, "0")
    fresh = run(memory, capsys, *approve, "1")
    # Then the stale approval is refused in one line, the current one approves
    assert stale[0] == 4 and "edited since you read it" in stale[2]
    assert fresh[0] == 0 and "VALIDATED" in fresh[1]
