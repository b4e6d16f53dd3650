from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from agent_memory.adapters.local import embeddings
from agent_memory.adapters.local.embeddings import (
    CALIBRATION,
    DIMENSION,
    MAX_TOKENS,
    MODEL_ID,
    MODEL_SHA256,
    EmbeddingModelUnavailable,
    LocalEmbedder,
)
from agent_memory.core.model.calibration import calibration_for
from agent_memory.core.ports import Embedder

pytestmark = pytest.mark.slow

FILLER = (
    "The quarterly planning meeting covered hiring, the office move and the budget for the "
    "coming year, and everyone agreed to revisit the travel policy after the holidays. "
)
FACT = "The staging database password rotates every Tuesday at noon."


@pytest.fixture(scope="module")
def embedder() -> LocalEmbedder:
    return LocalEmbedder()


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.dot(a, b))


def test_is_an_embedder_and_construction_loads_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    # Given a loader that would fail if it ran
    def refuse(*_: object) -> bytes:
        raise AssertionError("loaded at construction")

    monkeypatch.setattr(embeddings, "_read_verified", refuse)
    # When an embedder is built and described
    fresh = LocalEmbedder()
    # Then it answers without loading the model
    assert isinstance(fresh, Embedder)
    assert (fresh.model_id, fresh.dimension) == (MODEL_ID, DIMENSION)


def test_model_id_carries_the_weights_digest() -> None:
    assert MODEL_ID.startswith("all-MiniLM-L6-v2/onnx-int8@")
    assert MODEL_ID.endswith(MODEL_SHA256[:12])


def test_vectors_are_float32_unit_length_with_the_declared_shape(embedder: LocalEmbedder) -> None:
    documents = embedder.embed_documents(["a deploy failed", "tomatoes need sun", "x y z"])
    query = embedder.embed_query("why did the deploy fail?")

    assert documents.shape == (3, DIMENSION) and documents.dtype == np.float32
    assert query.shape == (DIMENSION,) and query.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(documents, axis=1), 1.0, atol=1e-5)
    assert abs(float(np.linalg.norm(query)) - 1.0) < 1e-5


def test_same_text_gives_the_same_vector_in_any_call_and_batch(embedder: LocalEmbedder) -> None:
    texts = ["short", "a longer sentence about the release train", FILLER * 8, ""]
    # When the texts are embedded twice, reversed, one at a time and as queries
    first = embedder.embed_documents(texts)
    again = embedder.embed_documents(texts)
    reversed_order = embedder.embed_documents(texts[::-1])[::-1]
    one_by_one = LocalEmbedder(batch_size=1).embed_documents(texts)
    as_queries = np.stack([embedder.embed_query(t) for t in texts])
    # Then every run gives the same vectors (the model is symmetric: no query prefix)
    for other in (again, reversed_order, one_by_one, as_queries):
        np.testing.assert_allclose(other, first, atol=1e-6)


def test_paraphrases_score_above_unrelated_texts(embedder: LocalEmbedder) -> None:
    cases = [
        (
            "The deployment failed because an environment variable was missing.",
            "A missing env var broke the deploy.",
            "My grandmother grows tomatoes in her garden.",
        ),
        (
            "How do I reset my password?",
            "Steps to recover access when you forgot your account password",
            "The stock market closed higher on Friday.",
        ),
        (
            "The cat is sleeping on the sofa.",
            "A kitten naps on the couch.",
            "Quarterly revenue rose by eight percent.",
        ),
    ]
    for text, paraphrase, unrelated in cases:
        vectors = embedder.embed_documents([paraphrase, unrelated])
        query = embedder.embed_query(text)
        assert cosine(query, vectors[0]) > cosine(query, vectors[1]) + 0.2


def test_a_fact_at_the_end_of_a_long_text_still_moves_its_vector(embedder: LocalEmbedder) -> None:
    # Given a text several model windows long, with and without a fact at its very end
    filler = FILLER * 20
    assert len(filler.split()) > 2 * MAX_TOKENS
    without, with_fact = embedder.embed_documents([filler, f"{filler} {FACT}"])
    # Then the fact changed the vector (truncation would have dropped it) ...
    assert cosine(without, with_fact) < 0.99
    # ... towards a question about the fact
    query = embedder.embed_query("When does the staging database password rotate?")
    assert cosine(query, with_fact) > cosine(query, without) + 0.05


def test_empty_input_is_allowed(embedder: LocalEmbedder) -> None:
    assert embedder.embed_documents([]).shape == (0, DIMENSION)
    empty = embedder.embed_query("")
    assert empty.shape == (DIMENSION,)
    assert abs(float(np.linalg.norm(empty)) - 1.0) < 1e-5


def test_one_string_is_not_taken_for_a_list_of_characters(embedder: LocalEmbedder) -> None:
    with pytest.raises(TypeError):
        embedder.embed_documents("a whole text")


def test_concurrent_first_calls_load_once_and_match_sequential_vectors(
    embedder: LocalEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a fresh embedder whose file reads are counted
    reads: list[str] = []
    read = embeddings._read_verified

    def counting(package: str, relative: str, sha256: str) -> bytes:
        reads.append(relative)
        return read(package, relative, sha256)

    monkeypatch.setattr(embeddings, "_read_verified", counting)
    fresh = LocalEmbedder()
    texts = [f"run {i}: {FILLER[: 20 + 7 * i]}" for i in range(16)]
    # When many threads call it at once, before anything is loaded
    with ThreadPoolExecutor(max_workers=8) as pool:
        queries = list(pool.map(fresh.embed_query, texts))
        batches = list(pool.map(lambda i: fresh.embed_documents(texts[i : i + 4]), range(0, 16, 4)))
    # Then the model and tokenizer were read once, and the vectors match sequential ones
    assert len(reads) == 2
    expected = embedder.embed_documents(texts)
    np.testing.assert_allclose(np.stack(queries), expected, atol=1e-6)
    np.testing.assert_allclose(np.concatenate(batches), expected, atol=1e-6)


def test_a_weight_file_that_does_not_match_its_digest_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(embeddings, "MODEL_SHA256", "0" * 64)
    with pytest.raises(EmbeddingModelUnavailable, match="sha256"):
        LocalEmbedder().embed_query("anything")


def test_a_missing_model_package_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(embeddings, "_MODEL_FILE", ("no_such_model_package", "model.onnx"))
    with pytest.raises(EmbeddingModelUnavailable, match="no_such_model_package"):
        LocalEmbedder().embed_query("anything")


def test_the_calibration_is_found_for_this_model_id() -> None:
    found = calibration_for(MODEL_ID, {CALIBRATION.model_family: CALIBRATION})
    assert found is CALIBRATION
    assert 0.0 < found.episode_min_similarity < 1.0
    assert 0.0 < found.fact_min_score < 1.0
