"""The cost figures docs/aws.md and benchmarks/README.md print are the cost benchmark's.

Each table row is rebuilt from ``benchmarks/results/aws_cost.json`` by the benchmark's own
formatting, and each figure of the prose around it is checked against the same file, so a new
run of ``benchmarks/aws_cost.py`` that moves a figure fails here until the page is updated.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from benchmarks.aws_cost import SUMMARY_HEADER, markdown, summary_rows, table, target_rows

ROOT = Path(__file__).parents[2]
RESULTS = ROOT / "benchmarks" / "results" / "aws_cost.json"
PAGES = (ROOT / "docs" / "aws.md", ROOT / "benchmarks" / "README.md")


@pytest.fixture(scope="module")
def result() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(RESULTS.read_text())
    return loaded


def section(page: Path, heading: str) -> str:
    """The text of ``page`` under ``heading``, up to the next heading of its level."""
    text = page.read_text()
    start = text.index(heading)
    following = text.find("\n## ", start + len(heading))
    return text[start : following if following >= 0 else None]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_each_page_prints_the_measured_table(page: Path, result: dict[str, Any]) -> None:
    # Given the table the benchmark's results make
    expected = "\n".join(table(SUMMARY_HEADER, summary_rows(result)))
    # Then the page prints it, row for row
    assert expected in page.read_text()


def test_the_benchmarks_readme_prints_the_targets_as_measured(result: dict[str, Any]) -> None:
    expected = "\n".join(table(["", "target", "measured", ""], target_rows(result)))
    assert expected in (ROOT / "benchmarks" / "README.md").read_text()
    assert all(row[-1] == "met" for row in target_rows(result))


def test_the_results_report_is_the_one_its_json_makes(result: dict[str, Any]) -> None:
    assert RESULTS.with_suffix(".md").read_text() == markdown(result)


def ratio(result: dict[str, Any], *path: str) -> float:
    """How many times the Comprehend configuration's figure at ``path`` is the default's."""
    figures = []
    for config in ("comprehend", "local"):
        value: Any = result["configurations"][config]
        for key in path:
            value = value[key]
        figures.append(float(value))
    return figures[0] / figures[1]


def test_the_prose_figures_are_the_measured_ones(result: dict[str, Any]) -> None:
    aws = section(ROOT / "docs" / "aws.md", "## What it costs")
    readme = section(ROOT / "benchmarks" / "README.md", "## What it costs on AWS")
    run = round(ratio(result, "runs", "typical", "usd"))
    bootstrap = round(ratio(result, "bootstrap", "warm", "usd"))
    # Comprehend multiplies a run's and a bootstrap's cost by the measured ratios
    assert f"a run's cost by about {run} and a bootstrap's by about {bootstrap}" in aws
    flowing = " ".join(readme.split())
    said = f"about {run} times what it costs now, and a bootstrap about {bootstrap} times"
    assert said in flowing
    # The extraction models add what the setting table says they add
    choices = {row["value"]: row["typical_run_usd"] for row in result["choices"]}
    base = result["configurations"]["local"]["runs"]["typical"]["usd"]
    nova = choices["amazon.nova-micro-v1:0"] - base
    haiku = choices["us.anthropic.claude-haiku-4-5-20251001-v1:0"] - base
    assert f"Nova Micro adds about ${nova:.4f} a run" in aws
    assert f"Claude Haiku 4.5 about ${haiku:.4f}" in aws
    # The run's transitions and the stack's alarms are the ones measured and synthesized
    default = result["configurations"]["local"]
    transitions = default["runs"]["typical"]["state_transitions"]
    assert f"Standard's {transitions:.0f} state transitions" in aws
    assert f"{default['stack']['alarm_metrics']} alarms ($0.10 each)" in aws
    assert re.search(r"\$3 to every month", readme)
