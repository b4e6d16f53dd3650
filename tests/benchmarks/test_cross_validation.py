"""The cross-validation protocol: a value is chosen without the fold it is scored on, folds
keep every stratum spread, and a component's gain is paired per question.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from benchmarks.research.cross_validation import (
    FOLDS,
    GATES,
    bootstrap,
    cross_validate,
    episodic,
    fold_choice,
    folds,
    gates_report,
)


def row(stratum: str, dataset: str = "locomo", **objectives: float) -> dict[str, Any]:
    return {
        "dataset": dataset,
        "stratum": stratum,
        "variants": {
            key: {"objective": v, "session_recall@5": v, "turn_recall_any@10": v}
            for key, v in objectives.items()
        },
    }


@given(st.lists(st.sampled_from(["a", "b", "c"]), min_size=FOLDS, max_size=60))
def test_folds_deal_each_stratum_evenly(strata: list[str]) -> None:
    # Given rows of a few strata
    rows = [row(s) for s in strata]

    # When they are dealt into folds
    fold = folds(rows)

    # Then every stratum's rows differ by at most one between any two folds
    for stratum in set(strata):
        counts = Counter(f for f, s in zip(fold, strata, strict=True) if s == stratum)
        sizes = [counts.get(f, 0) for f in range(FOLDS)]
        assert max(sizes) - min(sizes) <= 1


def test_a_fold_is_never_chosen_on_its_own_questions() -> None:
    # Given rows where "x" wins on every fold's questions but one, which "y" wins by far
    rows = [row("s", **{"k=x": 1.0, "k=y": 0.0}) for _ in range(50)]
    fold = folds(rows)
    for r, f in zip(rows, fold, strict=True):
        if f == 0:
            r["variants"] = {key: {"objective": v} for key, v in {"k=x": 0.0, "k=y": 100.0}.items()}

    # When each fold's value is chosen
    chosen, held_out = fold_choice(rows, ["k=x", "k=y"], lambda r, k: r["variants"][k]["objective"])

    # Then fold 0 gets the other folds' choice, "x", though its own questions favour "y",
    # and every other fold, trained on fold 0 among others, gets "y"
    assert chosen == ["k=x"] + ["k=y"] * (FOLDS - 1)
    assert len(held_out) == len(rows)


def test_a_component_that_helps_everywhere_earns_its_place_and_noise_does_not() -> None:
    # Given a component whose "1" beats "0" on every question, and one that changes nothing
    rows = [
        row("s", **{"helps=0": 0.5, "helps=1": 1.0, "noise=0": 0.7, "noise=1": 0.7})
        for _ in range(40)
    ]
    components: Any = {"helps": {"0": None, "1": None}, "noise": {"0": None, "1": None}}

    # When each is cross-validated (defaults: "1")
    out = cross_validate(rows, components, defaults={"helps": "1", "noise": "1"})

    # Then only the first earns its place, with its paired gain of 0.5
    assert out["helps"]["earns_its_place"]
    assert out["helps"]["gain_over_off"]["mean"] == 0.5
    assert not out["noise"]["earns_its_place"]
    assert out["noise"]["chosen_per_fold"] == ["0"] * FOLDS  # a tie goes to "off"


@given(st.lists(st.floats(-1, 1), min_size=1, max_size=30))
def test_the_bootstrap_interval_holds_the_mean(values: list[float]) -> None:
    # Given paired differences
    # When their mean and interval are drawn
    mean, low, high = bootstrap(values)

    # Then the interval lies within the values and holds the mean
    assert min(values) - 1e-9 <= low <= mean + 1e-9
    assert mean - 1e-9 <= high <= max(values) + 1e-9


def test_a_gate_is_paired_on_evidence_served_and_on_unrelated_tasks_served() -> None:
    # Given questions whose evidence every gate serves, and unrelated tasks only "no gate" serves
    gated = []
    for i in range(20):
        r = row("s", dataset="longmemeval" if i % 2 else "locomo")
        r["served"] = {
            g: {"turn recall_any": 1.0, "session recall": 1.0, "objective": 1.0, "tokens": 900}
            for g in GATES
        }
        r["unrelated"] = {
            g: {"served": 1.0 if g == "no gate" else 0.0, "tokens": 800 if g == "no gate" else 0}
            for g in GATES
        }
        gated.append(r)

    # When the gates are reported
    out = gates_report(gated)

    # Then the default gate keeps every piece of evidence and serves no unrelated task
    default = out["gates"][out["default"]]
    assert default["paired"]["no gate"]["evidence"] == (0.0, 0.0, 0.0)
    assert default["paired"]["no gate"]["unrelated served"] == (-1.0, -1.0, -1.0)
    assert "no gate" not in out["chosen_per_fold"]
    assert out["cross-validated utility over no gate"]["mean"] == 1.0


def test_a_gate_variant_is_a_policy_the_product_accepts() -> None:
    # Given the product's default policy
    from agent_memory.core.model.policies import EpisodicPolicy

    # When each gate is applied
    # Then each is a valid policy (no gate: every run reaches the threshold)
    assert episodic(min_similarity=-1.0)(EpisodicPolicy()).min_similarity == -1.0
    for variant in GATES.values():
        assert isinstance(variant(EpisodicPolicy()), EpisodicPolicy)


def synthetic_rows(seed: int) -> list[dict[str, Any]]:
    """Rows of both datasets carrying every variant the script asks, with random 0/1 metrics."""
    import random

    from benchmarks.research.cross_validation import (
        HEADLINE,
        WRITE_VALUES,
        asked_variants,
        component_values,
    )

    rng = random.Random(seed)
    keys = {k for w in WRITE_VALUES for k, _ in asked_variants(component_values(), w)}
    names = {m for metrics in HEADLINE.values() for m in metrics}
    rows = []
    for i in range(60):
        dataset = "longmemeval" if i % 3 == 0 else "locomo"
        variants = {}
        for key in keys:
            metrics = {m: float(rng.random() < 0.8) for m in names}
            metrics["session_recall@5"] = metrics["session recall_any@5"]
            metrics["turn_recall_any@10"] = metrics["turn recall_any@10"]
            metrics["objective"] = (metrics["session_recall@5"] + metrics["turn_recall_any@10"]) / 2
            variants[key] = metrics
        served = {
            g: {"turn recall_any": 1.0, "session recall": 1.0, "objective": 1.0, "tokens": 900}
            for g in GATES
        }
        unrelated = {g: {"served": float(rng.random() < 0.5), "tokens": 500} for g in GATES}
        rows.append(
            {
                "dataset": dataset,
                "stratum": f"{dataset}/{i % 2}",
                "id": str(i),
                "variants": variants,
                "served": served,
                "unrelated": unrelated,
            }
        )
    return rows


@given(st.integers(0, 3))
def test_the_script_reports_any_rows_it_is_given(tmp_path_factory: Any, seed: int) -> None:
    import json

    from benchmarks.research.cross_validation import GRID, main

    # Given saved rows of both datasets, with every variant the script asks
    folder = tmp_path_factory.mktemp("cv")
    rows_file = folder / "rows.json"
    rows_file.write_text(json.dumps(synthetic_rows(seed)))

    # When the script rebuilds its report from them
    assert main(["--rows", str(rows_file), "--out", str(folder / "cv.json")]) == 0

    # Then the report holds the selection, its recipe a point of the grid, and the gate
    report = json.loads((folder / "cv.json").read_text())
    recipe = report["elimination"]["recipe"]
    assert set(recipe) == set(GRID) and all(recipe[c] in GRID[c] for c in GRID)
    assert len(report["elimination"]["per_fold"]) == FOLDS
    assert report["gates"]["default"] in GATES
    text = (folder / "cv.md").read_text()
    for heading in ("## The recipe, by stepwise selection", "## The gate, on what bootstrap"):
        assert heading in text


def test_a_balanced_interval_weighs_each_dataset_the_same() -> None:
    # Given 90 differences of 1 on one dataset and 10 of 0 on the other
    differences = [1.0] * 90 + [0.0] * 10
    groups = ["locomo"] * 90 + ["longmemeval"] * 10

    # When their mean is drawn pooled, and with each dataset weighing the same
    pooled = bootstrap(differences)
    balanced = bootstrap(differences, groups=groups)

    # Then pooled, the larger dataset dominates; balanced, each counts half
    assert pooled[0] == 0.9
    assert balanced == (0.5, 0.5, 0.5)
