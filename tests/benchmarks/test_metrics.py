"""The benchmark metrics on tiny rankings whose values are computed by hand."""

import math
from collections.abc import Callable

import pytest

from benchmarks.metrics import (
    first_relevant_rank,
    latency_summary,
    mean_metrics,
    ndcg,
    percentile,
    question_metrics,
    recall_all,
    recall_any,
)

RANKING = ["a", "b", "c", "d", "e", "f"]


@pytest.mark.parametrize(
    ("relevant", "k", "expected"),
    [
        ({"x", "y"}, 5, 0.0),  # no relevant item retrieved at all
        ({"c", "y"}, 1, 0.0),  # one retrieved, but below the cut-off
        ({"c", "y"}, 3, 1.0),  # one retrieved within the cut-off
        ({"a", "e"}, 1, 1.0),  # two retrieved, the first at rank 1
        ({"a", "e"}, 5, 1.0),
    ],
)
def test_recall_any_counts_a_query_once_some_relevant_item_is_in_the_top_k(
    relevant: set[str], k: int, expected: float
) -> None:
    assert recall_any(RANKING, relevant, k) == expected


@pytest.mark.parametrize(
    ("relevant", "k", "expected"),
    [
        ({"x", "y"}, 5, 0.0),  # none of two retrieved
        ({"c", "y"}, 5, 0.0),  # one of two retrieved
        ({"a", "e"}, 4, 0.0),  # both retrieved, the second below the cut-off
        ({"a", "e"}, 5, 1.0),  # both within the cut-off
        ({"b"}, 5, 1.0),  # a single relevant item retrieved
    ],
)
def test_recall_all_needs_every_relevant_item_in_the_top_k(
    relevant: set[str], k: int, expected: float
) -> None:
    assert recall_all(RANKING, relevant, k) == expected


def test_recall_on_a_ranking_shorter_than_k_uses_what_there_is() -> None:
    assert recall_any(["a"], {"a"}, 10) == 1.0
    assert recall_all(["a"], {"a", "b"}, 10) == 0.0


@pytest.mark.parametrize("metric", [recall_any, recall_all])
def test_recall_refuses_a_query_without_relevant_items(metric: Callable[..., float]) -> None:
    with pytest.raises(ValueError):
        metric(RANKING, set(), 5)


def test_ndcg_of_hand_computed_rankings() -> None:
    # Relevant {b, d}: DCG = 1/log2(3) + 1/log2(5) = 0.63093 + 0.43068 = 1.06161;
    # ideal (2 relevant first) = 1/log2(2) + 1/log2(3) = 1 + 0.63093 = 1.63093; nDCG = 0.65092.
    assert ndcg(RANKING, {"b", "d"}, 10) == pytest.approx(0.650921, abs=1e-6)
    # Relevant {a}: found at rank 1, the ideal itself.
    assert ndcg(RANKING, {"a"}, 10) == pytest.approx(1.0)
    # Relevant {f, z}: only f, at rank 6: (1/log2(7)) / 1.63093 = 0.35621 / 1.63093 = 0.21841.
    assert ndcg(RANKING, {"f", "z"}, 10) == pytest.approx(0.218407, abs=1e-6)
    # The same with k = 5: f falls below the cut-off.
    assert ndcg(RANKING, {"f", "z"}, 5) == 0.0


def test_ndcg_ideal_is_capped_at_k_relevant_items() -> None:
    # 12 relevant items, ranking holds 10 of them at ranks 1-10: the ideal over min(12, 10) = 10
    # positions equals the DCG, so nDCG@10 is 1 although two relevant items are missing.
    relevant = {f"r{i}" for i in range(12)}
    ranking = [f"r{i}" for i in range(10)]
    assert ndcg(ranking, relevant, 10) == pytest.approx(1.0)


def test_ndcg_counts_a_repeated_item_once() -> None:
    # DCG = 1 (b at rank 1; its repeat at rank 2 adds nothing); ideal for 2 relevant = 1.63093.
    assert ndcg(["b", "b", "x"], {"b", "c"}, 10) == pytest.approx(1 / (1 + 1 / math.log2(3)))


@pytest.mark.parametrize(
    ("relevant", "expected"),
    [
        ({"c", "y"}, 3),  # the one relevant item retrieved
        ({"e", "b"}, 2),  # the better of two
        ({"x", "y"}, None),  # none retrieved
    ],
)
def test_first_relevant_rank_is_one_based_and_none_when_nothing_relevant_is_ranked(
    relevant: set[str], expected: int | None
) -> None:
    # Given the six-item ranking, When the first relevant rank is taken, Then it is 1-based.
    assert first_relevant_rank(RANKING, relevant) == expected


def test_question_metrics_and_their_mean() -> None:
    first = question_metrics(RANKING, {"a", "e"})
    second = question_metrics(RANKING, {"f"})
    assert first["recall_any@1"] == 1.0 and second["recall_any@1"] == 0.0
    assert first["recall_all@5"] == 1.0 and second["recall_all@5"] == 0.0
    assert second["recall_all@10"] == 1.0
    mean = mean_metrics([first, second])
    assert mean["recall_any@1"] == 0.5
    assert mean["recall_any@10"] == 1.0
    assert mean["recall_all@5"] == 0.5


def test_percentiles_interpolate_between_closest_ranks() -> None:
    values = [10.0, 1.0, 3.0, 2.0, 4.0]  # sorted: 1, 2, 3, 4, 10
    # p50: position (5 - 1) * 0.50 = 2.0 -> 3. p95: position 3.8 -> 4 + 0.8 * (10 - 4) = 8.8.
    assert percentile(values, 50) == 3.0
    assert percentile(values, 95) == pytest.approx(8.8)
    assert percentile([1.0, 2.0, 3.0, 4.0], 50) == 2.5
    assert percentile([7.0], 95) == 7.0
    summary = latency_summary(values)
    assert summary["p50"] == 3.0 and summary["p95"] == pytest.approx(8.8)
    assert summary["mean"] == 4.0


def test_percentile_refuses_no_values_and_out_of_range_q() -> None:
    with pytest.raises(ValueError):
        percentile([], 50)
    with pytest.raises(ValueError):
        percentile([1.0], 101)
