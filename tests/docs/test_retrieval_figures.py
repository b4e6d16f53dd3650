"""The retrieval headline in benchmarks/README.md is the cross-validation's, and the product's
defaults are the recipe and gate it kept (``benchmarks/research/cross_validation.py``).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from agent_memory.core.model.policies import EpisodicPolicy, RankingPolicy
from benchmarks.research.cross_validation import TIME_HINTS, default_gate

ROOT = Path(__file__).parents[2]
RESULTS = ROOT / "benchmarks" / "results" / "cross_validation.json"
SECTIONS = {"longmemeval": "## Retrieval on LongMemEval_S", "locomo": "## Retrieval on LoCoMo"}


def result() -> dict[str, Any]:
    return json.loads(RESULTS.read_text())


def section(heading: str) -> str:
    text = (ROOT / "benchmarks" / "README.md").read_text()
    start = text.index(heading + "\n")
    end = text.find("\n## ", start + len(heading))
    return text[start : end if end >= 0 else None]


@pytest.mark.parametrize("dataset", sorted(SECTIONS))
def test_the_readme_headline_is_the_cross_validated_figures(dataset: str) -> None:
    # Given the cross-validation's figures for a dataset
    figures = result()["elimination"]["figures"][dataset]
    # When the README's section for that dataset is read
    text = section(SECTIONS[dataset])
    # Then its headline table prints each figure with its interval, as the results hold it
    printed = 0
    for metric, figure in figures.items():
        if metric == "questions" or not isinstance(figure, dict):
            continue
        cv = figure["cross-validated"]
        cell = f"{cv['mean']:.3f} [{cv['low']:.3f}, {cv['high']:.3f}]"
        row = re.search(rf"^\| {re.escape(metric)} \| ([^|]+) \|", text, re.MULTILINE)
        if row is None:
            continue  # a metric the headline leaves to the results page
        assert row.group(1).strip() == cell, metric
        printed += 1
    assert printed >= 3
    assert f"cross-validated, {figures['questions']} dev questions" in text


def test_the_readme_headline_prints_every_turn_and_session_recall() -> None:
    # Given the README's two retrieval sections
    # When their headline tables are read
    # Then both print turn recall_any@10 and session recall_any@5 cross-validated
    for heading in SECTIONS.values():
        text = section(heading)
        for metric in ("turn recall_any@10", "session recall_any@5"):
            assert re.search(rf"^\| {re.escape(metric)} \| \d\.\d{{3}} \[", text, re.MULTILINE)


def test_the_product_defaults_are_the_recipe_the_cross_validation_kept() -> None:
    # Given the recipe the stepwise selection kept, on every question
    kept = result()["elimination"]["recipe"]
    ranking, episodic = RankingPolicy(), EpisodicPolicy()
    # When the product's default policy is read
    defaults = {
        "dense": ranking.dense,
        "standing": ranking.standing,
        "embedded_context": episodic.embedded_context,
        "neighbour_window": episodic.neighbour_window,
        "speaker": ranking.speaker,
    }
    # Then each component is at the value kept, the time hints scaled together
    assert defaults == {name: kept[name] for name in defaults}
    assert {n: getattr(ranking, n) for n in TIME_HINTS} == {
        n: w * kept["time"] for n, w in TIME_HINTS.items()
    }


def test_the_default_gate_is_the_one_most_folds_chose() -> None:
    # Given the gate each fold chose on what bootstrap serves
    chosen = Counter(result()["gates"]["chosen_per_fold"])
    # When the product's default gate is named
    # Then it is the most chosen one
    assert default_gate() == chosen.most_common(1)[0][0]
