"""A deterministic embedder for tests: word features hashed into a fixed-size unit vector.

Texts that share words get a positive cosine, texts that share none get about zero, so tests can
reason about similarity without loading a model.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

_WORD = re.compile(r"[a-z0-9]+")


class HashingEmbedder:
    """Bag of words hashed into ``dimension`` buckets with a sign, then L2-normalised."""

    def __init__(self, dimension: int = 256, model_id: str = "test-hashing-256") -> None:
        self._dimension = dimension
        self._model_id = model_id
        self.calls = 0

    @property
    def model_id(self) -> str:
        return self._model_id

    @property
    def dimension(self) -> int:
        return self._dimension

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        self.calls += 1
        return (
            np.stack([self._embed(t) for t in texts])
            if texts
            else np.zeros((0, self._dimension), dtype=np.float32)
        )

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        self.calls += 1
        return self._embed(text)

    def _embed(self, text: str) -> npt.NDArray[np.float32]:
        vector = np.zeros(self._dimension, dtype=np.float32)
        for word in _WORD.findall(text.lower()):
            digest = hashlib.blake2b(word.encode(), digest_size=8).digest()
            bucket = int.from_bytes(digest[:4], "little") % self._dimension
            sign = 1.0 if digest[4] & 1 else -1.0
            vector[bucket] += sign
        norm = float(np.linalg.norm(vector))
        return vector / norm if norm else vector


class RecordingEmbedder(HashingEmbedder):
    """A hashing embedder that remembers every text it embedded for storage, in order."""

    def __init__(self, dimension: int = 256, model_id: str = "test-hashing-256") -> None:
        super().__init__(dimension, model_id)
        self.embedded: list[str] = []

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        self.embedded.extend(texts)
        return super().embed_documents(texts)
