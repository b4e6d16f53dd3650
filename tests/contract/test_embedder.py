"""The ``Embedder`` contract: every test runs once per embedder in ``embedders.ADAPTERS``.

Covered: the local ONNX MiniLM (built once per session, marked ``slow``) and Titan v2 on Bedrock
(``InvokeModel`` answered at the botocore boundary by a deterministic fake,
``tests/support/fake_titan.py``). What is asserted is what the core relies on: shapes, dtype,
unit length, determinism, batch order, and a query near the document of the same text; never
the quality of a model.

To put a new embedder under the contract, add a factory to ``ADAPTERS`` in
``tests/contract/embedders.py`` (and its marks to ``MARKS`` if it is slow to load).
"""

from __future__ import annotations

import numpy as np
import pytest

from agent_memory.core.ports import Embedder, FloatArray
from tests.contract.builders import in_threads
from tests.contract.embedders import ADAPTERS, MARKS, EmbedderUnderTest

TEXTS = [
    "The deploy failed because an environment variable was missing.",
    "Invoices are issued on the first business day of the month.",
    "Backups of the ledger database run nightly at two.",
    "The staging password rotates every Tuesday at noon.",
]


@pytest.fixture(params=[pytest.param(name, marks=MARKS.get(name, ())) for name in sorted(ADAPTERS)])
def under_test(request: pytest.FixtureRequest) -> EmbedderUnderTest:
    return ADAPTERS[request.param]()


@pytest.fixture
def embedder(under_test: EmbedderUnderTest) -> Embedder:
    return under_test.embedder


def cosine(a: FloatArray, b: FloatArray) -> float:
    return float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))


def assert_unit_rows(vectors: FloatArray) -> None:
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=-1), 1.0, atol=1e-5)


def test_embedder_satisfies_the_port_with_a_stable_identity(embedder: Embedder) -> None:
    assert isinstance(embedder, Embedder)
    assert isinstance(embedder.model_id, str) and embedder.model_id
    assert isinstance(embedder.dimension, int) and embedder.dimension > 0
    # The id names a vector space stored beside every vector: embedding does not change it.
    before = (embedder.model_id, embedder.dimension)
    embedder.embed_documents(TEXTS[:1])
    assert (embedder.model_id, embedder.dimension) == before


def test_documents_are_one_float32_unit_row_each(embedder: Embedder) -> None:
    vectors = embedder.embed_documents(TEXTS)

    assert vectors.shape == (len(TEXTS), embedder.dimension)
    assert vectors.dtype == np.float32
    assert_unit_rows(vectors)


def test_no_documents_give_an_empty_matrix_of_the_dimension(embedder: Embedder) -> None:
    vectors = embedder.embed_documents([])

    assert vectors.shape == (0, embedder.dimension)
    assert vectors.dtype == np.float32


def test_a_blank_text_is_a_unit_row_or_zeros_never_nan(embedder: Embedder) -> None:
    # Given texts with nothing to embed beside one with words
    vectors = embedder.embed_documents(["", "   \n\t", TEXTS[0]])
    # Then every row is finite float32, a blank one either a unit vector or all zeros
    assert vectors.dtype == np.float32 and np.isfinite(vectors).all()
    norms = np.linalg.norm(vectors, axis=-1)
    assert all(abs(n - 1.0) < 1e-5 or n == 0.0 for n in norms[:2])
    assert abs(norms[2] - 1.0) < 1e-5


def test_a_query_is_one_float32_unit_vector(embedder: Embedder) -> None:
    vector = embedder.embed_query(TEXTS[0])

    assert vector.shape == (embedder.dimension,)
    assert vector.dtype == np.float32
    assert_unit_rows(vector)


def test_the_same_text_gets_the_same_vector(embedder: Embedder) -> None:
    np.testing.assert_allclose(
        embedder.embed_query(TEXTS[1]), embedder.embed_query(TEXTS[1]), atol=1e-6
    )
    np.testing.assert_allclose(
        embedder.embed_documents(TEXTS), embedder.embed_documents(TEXTS), atol=1e-6
    )


def test_a_batch_keeps_the_order_of_its_texts(embedder: Embedder) -> None:
    # Given each text embedded alone
    alone = np.stack([embedder.embed_documents([text])[0] for text in TEXTS])
    # When they are embedded as one batch, in reverse order
    batch = embedder.embed_documents(TEXTS[::-1])[::-1]
    # Then row i is text i's vector (a batch may round differently from a single call)
    similarity = batch @ alone.T
    assert similarity.argmax(axis=1).tolist() == list(range(len(TEXTS)))
    assert similarity.diagonal().min() > 0.99


def test_a_query_is_near_the_document_of_the_same_text(under_test: EmbedderUnderTest) -> None:
    embedder = under_test.embedder
    documents = embedder.embed_documents(TEXTS)

    for i, text in enumerate(TEXTS):
        query = embedder.embed_query(text)
        assert cosine(query, documents[i]) > under_test.min_self_cosine
        # and nearer its own text than any other
        assert int(np.argmax(documents @ query)) == i


def test_one_embedder_answers_concurrent_callers_as_it_answers_one(embedder: Embedder) -> None:
    # Given each text embedded alone
    alone = [embedder.embed_query(text) for text in TEXTS]
    # When the same embedder is asked for them from eight threads at once, several times over
    together = in_threads(embedder.embed_query, TEXTS * 4)
    # Then each answer is the one given alone
    for got, expected in zip(together, alone * 4, strict=True):
        np.testing.assert_allclose(got, expected, atol=1e-6)


def test_one_string_is_refused_not_embedded_letter_by_letter(embedder: Embedder) -> None:
    with pytest.raises(TypeError):
        embedder.embed_documents(TEXTS[0])  # a str is a Sequence[str] to the type checker


def test_text_in_any_script_is_embedded(embedder: Embedder) -> None:
    vectors = embedder.embed_documents(["東京の天気は晴れ", "👋🏽🙂", "cafe\u0301 crème brûlée"])

    assert vectors.shape == (3, embedder.dimension)
    assert np.isfinite(vectors).all()
    assert_unit_rows(vectors)


def test_a_text_longer_than_one_window_is_embedded_whole(under_test: EmbedderUnderTest) -> None:
    # Given two long texts of one length that share their first window and differ only after
    # it (one length, so an adapter that cuts windows by length cuts both alike)
    embedder = under_test.embedder
    head = repeated(TEXTS[0] + " " + TEXTS[1], under_test.window_chars)
    size = under_test.window_chars // 2
    tails = [repeated(text, size)[:size] for text in TEXTS[2:]]
    # When they are embedded
    first, second = embedder.embed_documents([f"{head} {tail}" for tail in tails])
    # Then each is one unit vector, and its end counts in it: a model that kept only the first
    # window would give both the same vector
    assert_unit_rows(np.stack([first, second]))
    assert cosine(first, second) < 0.99


def repeated(text: str, length: int) -> str:
    """``text`` repeated, whole, until it is at least ``length`` characters long."""
    return " ".join([text] * (length // len(text) + 1))
