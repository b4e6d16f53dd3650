"""The bootstrap benchmark's helpers on tiny examples whose answers are worked out by hand.

No timing is asserted anywhere: only that the arithmetic, the sizing and the baselines are right.
"""

import json
import math
from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest

from agent_memory.core.retrieval import vectors
from benchmarks import baselines, synthetic
from benchmarks import dynamodb_size as ddb
from benchmarks.bench_findings import targets
from benchmarks.bench_ranking import COLD_REPEATS, line_profile, rank_benchmark
from benchmarks.bench_storage import int8_recall_note, storage_benchmark
from benchmarks.timing import CacheEvictor, Summary, paired_ratios, percentile, ratio, time_cold


def unit_rows(count: int, dimension: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    matrix = rng.standard_normal((count, dimension)).astype(np.float32)
    return matrix / np.linalg.norm(matrix, axis=1, keepdims=True)


# ---------------------------------------------------------------- percentiles and ratios


def test_median_of_an_even_count_interpolates_between_the_middle_values():
    assert percentile([4.0, 1.0, 3.0, 2.0], 50) == 2.5


def test_p95_interpolates_between_closest_ranks():
    # rank = (5 - 1) * 0.95 = 3.8: 40 + 0.8 * (50 - 40)
    assert percentile([10.0, 20.0, 30.0, 40.0, 50.0], 95) == pytest.approx(48.0)


def test_percentile_extremes_and_single_value():
    values = [3.0, 1.0, 2.0]
    assert percentile(values, 0) == 1.0
    assert percentile(values, 100) == 3.0
    assert percentile([7.0], 95) == 7.0


def test_percentile_matches_numpy_linear_definition():
    values = list(np.random.default_rng(1).exponential(size=37))
    for q in (5, 50, 90, 95, 99):
        assert percentile(values, q) == pytest.approx(float(np.percentile(values, q)))


def test_percentile_refuses_no_values_and_out_of_range_q():
    with pytest.raises(ValueError):
        percentile([], 50)
    with pytest.raises(ValueError):
        percentile([1.0], 101)


def test_ratio_divides_and_zero_denominator_is_infinite():
    assert ratio(6.0, 3.0) == 2.0
    assert ratio(1.0, 0.0) == math.inf


def test_paired_ratios_pair_round_by_round():
    assert paired_ratios([2.0, 9.0, 1.0], [1.0, 3.0, 4.0]) == [2.0, 3.0, 0.25]
    with pytest.raises(ValueError):
        paired_ratios([1.0], [1.0, 2.0])


def test_summary_reports_median_and_scales_to_milliseconds():
    summary = Summary.of([0.001, 0.003, 0.002])
    assert summary.median == 0.002
    assert summary.count == 3
    assert summary.as_dict(1000)["median"] == 2.0
    assert summary.as_dict(1000)["min"] == 1.0


# ---------------------------------------------------------------- DynamoDB sizing


def test_significant_digits_trim_leading_and_trailing_zeroes():
    assert ddb.significant_digits(Decimal("0.00012")) == 2
    assert ddb.significant_digits(Decimal("1.500")) == 2
    assert ddb.significant_digits(Decimal("100")) == 1
    assert ddb.significant_digits(Decimal("105")) == 3
    assert ddb.significant_digits(Decimal("0")) == 1


def test_three_element_decimal_list_is_sized_as_dynamodb_bills_it():
    values = [Decimal("0.5"), Decimal("-0.125"), Decimal("0.0123456789012345")]
    # Each element: 1 (element overhead) + ceil(digits / 2) + 1 (number overhead).
    # 0.5: 1 digit -> 1 + 1 + 1 = 3; -0.125: 3 digits -> 1 + 2 + 1 = 4;
    # 0.0123456789012345: 15 digits -> 1 + 8 + 1 = 10.
    # List: len("embedding") = 9, + 3 list overhead + 3 + 4 + 10 = 29.
    assert ddb.number_list_size(values, "embedding") == 29
    assert ddb.number_list_size(values) == 20


def test_number_binary_and_string_attributes_count_their_name():
    assert ddb.number_size(Decimal("384"), "embedding_dimension") == 19 + 2 + 1
    assert ddb.binary_size(b"\x01" * 389, "embedding") == 398
    assert ddb.string_size("é", "ab") == 2 + 2


def test_decimal_list_round_trips_each_float32_value():
    row = unit_rows(1, 8)[0]
    decimals = baselines.decimal_list(row)
    assert [np.float32(float(d)) for d in decimals] == list(row)


def test_storage_sizes_int8_as_dimension_plus_five_bytes_plus_the_name():
    result = storage_benchmark(unit_rows(4, 384), "model-a", units_per_episode=2.0)
    sizes = result["bytes_per_embedding_attribute"]
    assert result["payload_bytes"]["int8_product"] == 389
    assert sizes["int8_product"] == 9 + 389
    assert sizes["float32_product"] == 9 + 1 + 4 * 384
    assert result["ratios"]["decimal_list_over_int8"] > 8
    # Summary vector + side attributes + 2 units of (389 + 4-byte length prefix).
    per_episode = result["per_episode_all_vectors"]["product_summary_plus_unit_vectors_bytes"]
    assert per_episode == 398 + result["product_side_attributes_bytes"] + 2 * 393


# ---------------------------------------------------------------- baselines


def test_reference_loop_returns_the_same_top3_as_plain_numpy():
    matrix = unit_rows(50, 16, seed=2)
    run_ids = [f"run-{i}" for i in range(50)]
    items = baselines.reference_items(run_ids, ["COMPLETED"] * 50, matrix)
    query = unit_rows(1, 16, seed=3)[0]
    reference = baselines.reference_rank(items, query.tolist(), top_k=3)
    plain = baselines.numpy_rank(matrix, run_ids, query, top_k=3)
    assert baselines.top_ids(reference) == baselines.top_ids(plain)
    assert [s for s, _ in reference] == pytest.approx([s for s, _ in plain], abs=1e-5)


def test_reference_loop_drops_items_below_the_threshold_and_prefers_completed_on_ties():
    matrix = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]], dtype=np.float32)
    items = baselines.reference_items(["a", "b", "c"], ["FAILED", "COMPLETED", "COMPLETED"], matrix)
    ranked = baselines.reference_rank(items, [1.0, 0.0], top_k=3, min_similarity=0.5)
    assert baselines.top_ids(ranked) == ["b", "a"]


def test_naive_join_rebuilds_the_same_scores_as_the_matrix():
    matrix = unit_rows(7, 12, seed=4)
    query = unit_rows(1, 12, seed=5)[0]
    scores = baselines.naive_join_scores(baselines.float32_blobs(matrix), query)
    np.testing.assert_allclose(scores, matrix @ query, rtol=1e-6)


# ---------------------------------------------------------------- synthetic data and embedders


@pytest.fixture(scope="module")
def pool() -> synthetic.SentencePool:
    sizes = {"task": 3, "summary": 4, "human": 4, "ai": 6, "finding": 4}
    return synthetic.build_pool(synthetic.HashingEmbedder(64, "bench-hashing-64"), sizes=sizes)


def test_episodes_carry_the_stated_unit_distribution(pool):
    made = synthetic.EpisodeFactory(pool, now=1_800_000_000.0).episodes(40)
    assert len(made.episodes) == 40
    assert made.summary_vectors.shape == (40, 64)
    for episode in made.episodes:
        messages = [u for u in episode.units if u.kind == "message"]
        findings = [u for u in episode.units if u.kind == "finding"]
        assert 10 <= len(messages) <= 30
        assert 1 <= len(findings) <= 3
        assert messages[0].speaker == "human"
        assert episode.embedding is not None and episode.embedding.data[0] == 0x01
    assert made.unit_count == sum(len(e.units) for e in made.episodes)


def test_projected_pool_keeps_unit_rows_in_the_new_dimension(pool):
    wide = pool.projected(256)
    assert wide.vectors.shape == (len(pool.texts), 256)
    np.testing.assert_allclose(np.linalg.norm(wide.vectors, axis=1), 1.0, rtol=1e-5)


def test_precomputed_embedder_answers_from_its_table_and_counts_misses():
    table = {"known": np.ones(4, dtype=np.float32) / 2}
    strict = synthetic.PrecomputedEmbedder(table, model_id="m", dimension=4)
    assert strict.embed_query("known") is table["known"]
    with pytest.raises(KeyError):
        strict.embed_query("unknown")
    lenient = synthetic.PrecomputedEmbedder(
        table, model_id="m", dimension=4, fallback=synthetic.HashingEmbedder(4, "m")
    )
    assert lenient.embed_documents(["known", "other words"]).shape == (2, 4)
    lenient.embed_query("other words")  # remembered: not a second miss
    assert lenient.misses == 1


def test_run_events_are_valid_run_finished_events():
    import random

    from agent_memory.core.api.contracts import parse_run_finished

    event = synthetic.run_event(3, random.Random(0))
    run = parse_run_finished(event)
    assert run.run_id == "run-0000003"
    assert run.artifacts is not None and run.artifacts.key_findings


def test_ranking_benchmark_runs_end_to_end_on_a_tiny_memory(pool):
    # Given a tiny memory, when every method ranks it, then every figure is there.
    now = 1_800_000_000.0
    made = synthetic.EpisodeFactory(pool, now=now).episodes(30)
    evictions = []
    result = rank_benchmark(
        made,
        pool,
        now=now,
        rounds=2,
        min_similarity=0.0,
        reference=True,
        langgraph=False,
        evict=lambda: evictions.append(1),
    )
    assert result["units"] == made.unit_count
    assert result["agreement"]["reference_top3_equals_numpy"] is True
    expected = {"product", "matvec", "matvec_all_vectors", "naive_join", "reference"}
    assert expected | {"product_cold", "matvec_cold"} <= set(result["time_ms"])
    assert {"reference_over_product", "product_over_matvec_cold"} <= set(result["ratios"])
    # Every cold call, of both methods in both rounds, came right after an eviction.
    assert len(evictions) == 2 * 2 * COLD_REPEATS
    assert all(row["line"].startswith("episode_index.py:") for row in result["profile"]["lines"])
    assert result["profile"]["cprofile_top"]


def _two_lines(values):
    total = sum(values)
    doubled = [2 * v for v in values]
    return total, doubled


def test_line_profile_attributes_time_to_the_traced_function_lines_only():
    rows = line_profile(lambda: _two_lines([1, 2, 3]), _two_lines.__code__, calls=1)
    sources = {row["source"] for row in rows}
    assert sources <= {
        "total = sum(values)",
        "doubled = [2 * v for v in values]",
        "return total, doubled",
    }
    assert "total = sum(values)" in sources
    assert sum(row["share"] for row in rows) == pytest.approx(1.0, abs=0.01)


# ---------------------------------------------------------------- the retrieval benchmark's figure


def test_int8_recall_note_without_a_result_file_points_to_the_retrieval_benchmark(tmp_path):
    note = int8_recall_note(tmp_path / "retrieval.json")
    assert "see retrieval benchmark" in note["note"]


def test_int8_recall_note_copies_every_int8_entry(tmp_path):
    path = Path(tmp_path / "retrieval.json")
    path.write_text(json.dumps({"encoding": {"recall lost by int8": 0.004, "other": 1}}))
    assert int8_recall_note(path)["figures"] == {"encoding.recall lost by int8": 0.004}


def test_int8_and_float32_encodings_have_the_documented_sizes():
    row = unit_rows(1, 384)[0]
    assert len(vectors.encode(row, "m").data) == 389
    assert len(vectors.encode(row, "m", encoding="float32").data) == 1 + 4 * 384


@pytest.mark.parametrize(("lost", "met"), [(0.004, True), (0.01, True), (0.0101, False)])
def test_the_int8_recall_target_is_judged_from_the_retrieval_figure(tmp_path, lost, met):
    # Given a retrieval result whose int8 pass lost `lost` recall against float32
    path = Path(tmp_path / "retrieval.json")
    path.write_text(json.dumps({"encoding": {"recall lost by int8 (float32 - int8)": lost}}))
    results = {"ranking": [], "bootstrap": [], "storage": [], "int8_recall": int8_recall_note(path)}
    # When the targets are judged
    judged = {t["target"]: t for t in targets(results)}
    # Then the recall target is met exactly when the loss is at most 0.01
    (row,) = [t for name, t in judged.items() if "within 0.01 of float32" in name]
    assert row["met"] is met
    assert row["measured"] == f"{lost:+.4f}"


def test_cold_timing_evicts_before_the_call_and_times_the_call_alone():
    # Given work that records whether the eviction ran before it
    events: list[str] = []

    # When it is timed cold
    elapsed = time_cold(lambda: events.append("work"), lambda: events.append("evict"))

    # Then the eviction came first, once, and the time is the call's alone
    assert events == ["evict", "work"]
    assert 0.0 <= elapsed < 1.0


def test_cache_evictor_writes_every_byte_of_its_buffer():
    # Given an evictor over a small buffer, when it runs twice, then every word was written twice
    evict = CacheEvictor(nbytes=4096)
    evict()
    evict()
    assert evict.buffer.nbytes == 4096
    assert (evict.buffer == 2).all()
