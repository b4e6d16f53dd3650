from __future__ import annotations

from pathlib import Path

from cfnlint.api import ManualArgs, lint_file


def test_cfn_lint_accepts_the_template(template_file: Path):
    # W3005 (redundant DependsOn) is noise in CDK output.
    matches = lint_file(template_file, ManualArgs(ignore_checks=["W3005"]))
    assert [str(m) for m in matches] == []
