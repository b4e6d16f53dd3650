"""One ingestion pass: reuse the vectors of unchanged documents, embed the rest in batches."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from agent_memory.adapters.local.kb.documents import IndexableDocument
from agent_memory.adapters.local.kb.snapshot import IndexSnapshot
from agent_memory.core.ports import Embedder


def next_snapshot(
    documents: Sequence[IndexableDocument],
    previous: IndexSnapshot | None,
    embedder: Embedder,
    *,
    generation: int,
    batch_size: int,
) -> IndexSnapshot | None:
    """Build the index of ``documents``; None if ``previous`` already is exactly that index.

    A vector is reused only when the document's content hash and the embedding model are both
    unchanged; a new model re-embeds everything, so one index never mixes vector spaces.
    """
    same_space = (
        previous is not None
        and previous.model_id == embedder.model_id
        and previous.dimension == embedder.dimension
    )
    reusable = previous if same_space else None
    if reusable is not None and reusable.holds_exactly(documents):
        return None
    vectors = np.zeros((len(documents), embedder.dimension), dtype=np.float32)
    stale: list[int] = []
    for i, document in enumerate(documents):
        kept = None if reusable is None else reusable.vector_of(document.key, document.content_hash)
        if kept is None:
            stale.append(i)
        else:
            vectors[i] = kept
    for start in range(0, len(stale), batch_size):
        batch = stale[start : start + batch_size]
        embedded = np.asarray(embedder.embed_documents([documents[i].text for i in batch]))
        if embedded.shape != (len(batch), embedder.dimension):
            raise ValueError(
                f"embedder {embedder.model_id} returned shape {embedded.shape} "
                f"for {len(batch)} texts of dimension {embedder.dimension}"
            )
        vectors[batch] = embedded
    return IndexSnapshot.build(
        generation=generation, model_id=embedder.model_id, documents=documents, vectors=vectors
    )
