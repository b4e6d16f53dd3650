"""Stored vectors: encodings, their round trips, and stacking by model."""

import numpy as np
import pytest

from agent_memory.core.retrieval import vectors


def unit(seed: int, dim: int = 384) -> np.ndarray:
    v = np.random.default_rng(seed).standard_normal(dim).astype(np.float32)
    return v / np.linalg.norm(v)


def test_float32_encoding_round_trips_exactly() -> None:
    v = unit(1)
    stored = vectors.encode(v, "m", encoding="float32")
    assert np.array_equal(vectors.decode(stored), v)
    assert len(stored.data) == 1 + 4 * 384


def test_int8_encoding_is_compact_and_keeps_cosine() -> None:
    a, b = unit(1), unit(2)
    stored = vectors.encode(a, "m")
    assert len(stored.data) == 1 + 4 + 384
    assert abs(float(vectors.decode(stored) @ b) - float(a @ b)) < 0.01
    assert float(vectors.decode(stored) @ a) == pytest.approx(1.0, abs=0.01)


def test_non_finite_embedding_is_refused() -> None:
    with pytest.raises(ValueError, match="non-finite"):
        vectors.encode(np.array([np.nan, 1.0], dtype=np.float32), "m")


def test_stack_skips_vectors_of_another_model() -> None:
    rows = [vectors.encode(unit(1), "m"), vectors.encode(unit(2), "other"), None]
    matrix, usable = vectors.stack(rows, "m", 384)
    assert usable.tolist() == [True, False, False]
    assert matrix.flags["C_CONTIGUOUS"] and not matrix[1].any()
