"""Every ``agent-memory --aws-stack ...`` line README.md and docs/*.md print runs as typed (its
stack name, Region and command) against a moto-backed stack of that name in that Region, and
succeeds. ``KEY`` stands for a failed run's key, as the docs say; ``mcp`` lines start a server
and are covered by ``tests/mcp/test_aws_stack.py``. A new documented line is covered without a
new test.
"""

from __future__ import annotations

import shlex

import pytest

from agent_memory.cli.main import main
from tests.infrastructure.test_documented_deploys import documented_shell_lines
from tests.integration.aws.test_cli_on_stack import _fail_a_run, moto_stack

LINES = sorted(
    {
        line
        for _, line in documented_shell_lines()
        if "--aws-stack" in line and shlex.split(line)[0].endswith("agent-memory")
    }
)


def _argv(line: str) -> list[str]:
    """The line's arguments, without the program or a shell redirection."""
    words = shlex.split(line.split(" > ", 1)[0])
    return words[1:]


def test_the_documents_print_operator_lines() -> None:
    # Guards the test below against passing on no line at all.
    assert any(" failed replay" in line for line in LINES), LINES
    assert any(" forget " in line for line in LINES), LINES


@pytest.mark.parametrize("line", [x for x in LINES if "mcp" not in _argv(x)])
def test_every_documented_cli_line_runs_on_a_stack_of_its_name_and_region(
    line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = _argv(line)
    stack = argv[argv.index("--aws-stack") + 1]
    region = argv[argv.index("--region") + 1] if "--region" in argv else "us-east-1"
    # Given a stack of the line's name in its Region, with a failed run waiting
    with moto_stack(capsys, region, stack) as cli:
        key = f"acme#failed#reviewer/{_fail_a_run(cli, 'run-failed-1')['run_id']}"
        capsys.readouterr()
        # When the line runs as typed (KEY: that run's key)
        code = main([key if word == "KEY" else word for word in argv])
        # Then it succeeds
        assert code == 0, (line, capsys.readouterr().err)
