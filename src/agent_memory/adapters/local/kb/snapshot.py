"""One generation of the vector index in memory, and cosine search over it."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from agent_memory.adapters.local.kb.documents import IndexableDocument
from agent_memory.core.model.models import KbHit
from agent_memory.core.ports import FloatArray

_Span = tuple[int, int]


class IndexSnapshot:
    """Immutable rows and their unit vectors, sorted by (tenant, domain, key).

    The sort makes every tenant, and every domain within it, one contiguous block of the
    matrix, so a filtered search is a single matrix-vector product over a slice (a view, no copy).
    """

    def __init__(
        self,
        *,
        generation: int,
        model_id: str,
        dimension: int,
        rows: Sequence[IndexableDocument],
        matrix: FloatArray,
    ) -> None:
        if matrix.dtype != np.float32 or matrix.shape != (len(rows), dimension):
            raise ValueError(
                f"index matrix {matrix.dtype}{matrix.shape} does not fit "
                f"{len(rows)} rows of dimension {dimension}"
            )
        self.generation = generation
        self.model_id = model_id
        self.dimension = dimension
        self.rows = tuple(rows)
        self.matrix = np.ascontiguousarray(matrix)
        self.matrix.flags.writeable = False
        self._positions = {row.key: i for i, row in enumerate(self.rows)}
        self._tenants, self._domains = _spans(self.rows)

    @classmethod
    def build(
        cls,
        *,
        generation: int,
        model_id: str,
        documents: Sequence[IndexableDocument],
        vectors: FloatArray,
    ) -> IndexSnapshot:
        """Snapshot ``documents`` (any order); ``vectors[i]`` is the vector of ``documents[i]``."""
        order = sorted(range(len(documents)), key=lambda i: _sort_key(documents[i]))
        matrix = np.asarray(vectors, dtype=np.float32)[np.asarray(order, dtype=np.intp)]
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        unit = np.divide(matrix, norms, out=np.zeros_like(matrix), where=norms > 0)
        return cls(
            generation=generation,
            model_id=model_id,
            dimension=int(vectors.shape[1]),
            rows=[documents[i] for i in order],
            matrix=unit.astype(np.float32, copy=False),
        )

    def vector_of(self, key: str, content_hash: str) -> FloatArray | None:
        """Return the stored vector of ``key`` if it was indexed with this exact content."""
        position = self._positions.get(key)
        if position is None or self.rows[position].content_hash != content_hash:
            return None
        vector: FloatArray = self.matrix[position]
        return vector

    def holds_exactly(self, documents: Sequence[IndexableDocument]) -> bool:
        """Tell whether the index holds exactly these documents with this content."""
        return len(documents) == len(self.rows) and all(
            self.vector_of(d.key, d.content_hash) is not None for d in documents
        )

    def holds_all_of(self, other: IndexSnapshot) -> bool:
        """Tell whether every row of ``other`` is in this index with the same content."""
        return all(self.vector_of(row.key, row.content_hash) is not None for row in other.rows)

    def holds_tenant(self, tenant_id: str) -> bool:
        """Tell whether any row is the tenant's."""
        return tenant_id in self._tenants

    def without_tenant(self, tenant_id: str, *, generation: int) -> IndexSnapshot:
        """Return the index as generation ``generation`` less every row of the tenant; no
        vector is computed again (the tenant's rows are one block of the matrix, cut out).
        """
        start, stop = self._tenants.get(tenant_id, (0, 0))
        return IndexSnapshot(
            generation=generation,
            model_id=self.model_id,
            dimension=self.dimension,
            rows=self.rows[:start] + self.rows[stop:],
            matrix=np.concatenate((self.matrix[:start], self.matrix[stop:])),
        )

    def search(
        self, query: FloatArray, *, tenant_id: str, domain: str | None, limit: int
    ) -> list[KbHit]:
        """Top ``limit`` rows of the tenant (and domain) by cosine similarity, best first."""
        vector = np.asarray(query, dtype=np.float32).reshape(-1)
        if vector.shape[0] != self.dimension:
            raise ValueError(
                f"query vector has dimension {vector.shape[0]}, the index {self.dimension}"
            )
        start, stop = (
            self._tenants.get(tenant_id, (0, 0))
            if domain is None
            else self._domains.get((tenant_id, domain), (0, 0))
        )
        if stop <= start or limit <= 0:
            return []
        norm = float(np.linalg.norm(vector))
        scores = self.matrix[start:stop] @ (vector / norm if norm else vector)
        count = min(limit, stop - start)
        best = np.argpartition(-scores, count - 1)[:count] if count < stop - start else None
        candidates = np.arange(stop - start) if best is None else best
        # Equal scores keep index order (domain, then key), so results are reproducible.
        ranked = candidates[np.lexsort((candidates, -scores[candidates]))]
        return [
            KbHit(
                text=self.rows[start + i].text,
                score=float(scores[i]),
                metadata=dict(self.rows[start + i].metadata),
            )
            for i in ranked.tolist()
        ]


def _sort_key(row: IndexableDocument) -> tuple[str, bool, str, str]:
    # Rows without a domain sort first within their tenant: in its span, in no domain's span.
    return (row.tenant_id, row.domain is not None, row.domain or "", row.key)


def _spans(
    rows: Sequence[IndexableDocument],
) -> tuple[dict[str, _Span], dict[tuple[str, str], _Span]]:
    tenants: dict[str, _Span] = {}
    domains: dict[tuple[str, str], _Span] = {}
    for i, row in enumerate(rows):
        first, _ = tenants.get(row.tenant_id, (i, i))
        tenants[row.tenant_id] = (first, i + 1)
        if row.domain is not None:
            first, _ = domains.get((row.tenant_id, row.domain), (i, i))
            domains[(row.tenant_id, row.domain)] = (first, i + 1)
    return tenants, domains
