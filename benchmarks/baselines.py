"""What the product's episodic ranking is compared with: the reference design's per-item loop,
LangGraph's ``InMemoryStore``, and the memory-bandwidth floor (one matrix-vector product).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float32]
Ranked = list[tuple[float, str]]


# ---------------------------------------------------------------------------- reference design


def decimal_list(vector: Sequence[float] | FloatArray) -> list[Decimal]:
    """A vector as the reference stores it in DynamoDB and boto3 returns it: one ``Decimal``
    per value, from the float's shortest round-trip text (``Decimal(repr(x))``, 16-17 digits
    for a float32 value widened to a Python float).
    """
    return [Decimal(repr(float(x))) for x in np.asarray(vector, dtype=np.float32).tolist()]


def reference_items(
    run_ids: Sequence[str], outcomes: Sequence[str], matrix: FloatArray
) -> list[dict[str, Any]]:
    """Episode items shaped as the reference's ``table.query`` returns them."""
    return [
        {"run_id": run_id, "outcome": outcome, "embedding": decimal_list(row)}
        for run_id, outcome, row in zip(run_ids, outcomes, matrix, strict=True)
    ]


def _reference_cosine(a: Sequence[float], b: Sequence[Decimal]) -> float:
    # The reference's helper, converting per item; ``dtype=float`` is the one change it needs:
    # a list of Decimal becomes an object array, and float * Decimal raises TypeError.
    x, y = np.array(a), np.array(b, dtype=np.float64)
    return float(np.dot(x, y) / (np.linalg.norm(x) * np.linalg.norm(y) + 1e-9))


def reference_rank(
    items: Sequence[Mapping[str, Any]],
    query: Sequence[float],
    *,
    top_k: int = 3,
    min_similarity: float = -1.0,
) -> Ranked:
    """The reference article's retrieval loop: cosine per item in Python, keep those at or
    above ``min_similarity``, sort by (similarity, COMPLETED) descending, take ``top_k``.
    """
    scored = []
    for item in items:
        stored = item.get("embedding")
        if not stored:
            continue
        similarity = _reference_cosine(query, stored)
        if similarity >= min_similarity:
            scored.append((similarity, item))
    scored.sort(key=lambda pair: (pair[0], pair[1].get("outcome") == "COMPLETED"), reverse=True)
    return [(similarity, str(item["run_id"])) for similarity, item in scored[:top_k]]


# ---------------------------------------------------------------------------- floors


def numpy_rank(
    matrix: FloatArray, run_ids: Sequence[str], query: FloatArray, *, top_k: int = 3
) -> Ranked:
    """Plain numpy ranking: one matrix-vector product over unit rows, then the top ``top_k``."""
    scores = matrix @ np.asarray(query, dtype=matrix.dtype)
    order = np.argsort(-scores, kind="stable")[:top_k]
    return [(float(scores[i]), run_ids[i]) for i in order]


def float32_blobs(matrix: FloatArray) -> list[bytes]:
    """Each row as little-endian float32 bytes, as a store keeps one blob per episode."""
    return [row.astype("<f4").tobytes() for row in matrix]


def naive_join_scores(blobs: Sequence[bytes], query: FloatArray) -> FloatArray:
    """Rebuild the matrix from the stored blobs for this one query, then multiply."""
    matrix = np.stack([np.frombuffer(blob, dtype="<f4") for blob in blobs])
    scores: FloatArray = matrix @ query
    return scores


# ---------------------------------------------------------------------------- LangGraph


def langgraph_store(
    texts: Sequence[str],
    vectors: FloatArray,
    extra: Sequence[Mapping[str, Any]],
    *,
    namespace: tuple[str, ...],
    query_vectors: Mapping[str, FloatArray],
    batch: int = 2_000,
) -> Any:
    """A LangGraph ``InMemoryStore`` holding one item per text, indexed on ``summary``.

    Its ``embed`` function answers from the precomputed vectors (as Python float lists, like a
    LangChain embedder), so no model runs when it indexes or searches.
    """
    from langgraph.store.base import PutOp
    from langgraph.store.memory import InMemoryStore

    table: dict[str, FloatArray] = dict(zip(texts, vectors, strict=True))
    table.update(query_vectors)

    def embed(batch_texts: Sequence[str]) -> list[list[float]]:
        return [table[text].tolist() for text in batch_texts]

    store = InMemoryStore(
        index={"dims": int(vectors.shape[1]), "embed": embed, "fields": ["summary"]}
    )
    for start in range(0, len(texts), batch):
        store.batch(
            PutOp(namespace, f"ep-{i}", {"summary": texts[i], **extra[i]})
            for i in range(start, min(start + batch, len(texts)))
        )
    return store


def langgraph_search(store: Any, namespace: tuple[str, ...], text: str, limit: int = 3) -> Ranked:
    """``store.search(namespace, query=text, limit=limit)`` as (score, run id) pairs."""
    return [
        (float(hit.score), str(hit.value["run_id"]))
        for hit in store.search(namespace, query=text, limit=limit)
    ]


def top_ids(ranked: Ranked) -> list[str]:
    """The ids of a ranking, best first."""
    return [run_id for _, run_id in ranked]
