"""Bedrock models: Titan Text Embeddings v2 (its own JSON API) and a Claude chat model (through
langchain-aws, imported only when a chat model is built: the read path never builds one).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import boto3  # type: ignore[import-untyped, unused-ignore]
import numpy as np
import numpy.typing as npt
from botocore.exceptions import ClientError  # type: ignore[import-untyped, unused-ignore]

from agent_memory.adapters.aws._errors import error_code, transient_errors
from agent_memory.core.ports import ChatModel, FloatArray

__all__ = [
    "CHAT_MODEL_ID",
    "FAST_CHAT_MODEL_ID",
    "TITAN_EMBED_V2",
    "BedrockEmbedder",
    "bedrock_chat",
]

# Bedrock model ids and inference profiles change over time: re-check these before a release
# (Bedrock user guide: "Model cards", "Supported Regions and models for inference profiles").
# Titan v2: 8,192 tokens or 50,000 characters per input; dimensions 1024 (default), 512, 256.
TITAN_EMBED_V2 = "amazon.titan-embed-text-v2:0"
TITAN_DIMENSIONS = (256, 512, 1024)
TITAN_MAX_CHARS = 50_000
# Consolidation extracts facts that persist, so quality over cost: Claude Sonnet 4.6 through
# the US cross-region inference profile. Haiku 4.5 is the cheaper choice for high volume.
CHAT_MODEL_ID = "us.anthropic.claude-sonnet-4-6"
FAST_CHAT_MODEL_ID = "us.anthropic.claude-haiku-4-5-20251001-v1:0"

# English averages ~4.7 characters per Titan token; 20,000 leaves room for denser text.
DEFAULT_PIECE_CHARS = 20_000


class BedrockEmbedder:
    """The ``Embedder`` port on Titan Text Embeddings v2: float32, L2-normalised vectors.

    Titan embeds one text per request, so a batch runs at most ``max_workers`` requests at once
    (boto3 clients are thread-safe). A text longer than ``piece_chars`` is cut into near-equal
    pieces whose vectors are averaged, weighted by length, so no part of it is dropped; a piece
    Titan still finds too long (dense text tokenises worse) is halved and retried. A blank text
    has nothing to embed: its vector is all zeros and matches nothing.
    """

    def __init__(
        self,
        client: Any | None = None,
        model_id: str = TITAN_EMBED_V2,
        *,
        dimensions: int = 1024,
        max_workers: int = 4,
        piece_chars: int = DEFAULT_PIECE_CHARS,
        region_name: str | None = None,
    ) -> None:
        if dimensions not in TITAN_DIMENSIONS:
            raise ValueError(f"dimensions must be one of {TITAN_DIMENSIONS}")
        if max_workers < 1 or not 1 <= piece_chars <= TITAN_MAX_CHARS:
            raise ValueError(f"max_workers >= 1 and piece_chars within 1..{TITAN_MAX_CHARS}")
        self._model_id = model_id
        self._dimension = dimensions
        self._max_workers = max_workers
        self._piece_chars = piece_chars
        self._client = (
            client
            if client is not None
            else boto3.client("bedrock-runtime", region_name=region_name)
        )

    @property
    def model_id(self) -> str:
        """The Bedrock model id (the core calibrates the ``amazon.titan-embed-text-v2`` family)."""
        return self._model_id

    @property
    def dimension(self) -> int:
        """The dimension asked of Titan v2 (256, 512 or 1,024)."""
        return self._dimension

    def embed_documents(self, texts: Sequence[str]) -> FloatArray:
        """Embed texts to store; shape ``(len(texts), dimension)``."""
        if isinstance(texts, str):
            raise TypeError("embed_documents takes a sequence of texts, not one string")
        pieces = [(row, piece) for row, text in enumerate(texts) for piece in self._split(text)]
        vectors = self._map(self._embed_piece, [piece for _, piece in pieces])
        sums = np.zeros((len(texts), self._dimension), dtype=np.float64)
        for (row, piece), vector in zip(pieces, vectors, strict=True):
            sums[row] += vector * len(piece)
        return _normalise(sums)

    def embed_query(self, text: str) -> FloatArray:
        """Embed a search query; Titan v2 is symmetric, so exactly like a document."""
        vector: FloatArray = self.embed_documents([text])[0]
        return vector

    def _split(self, text: str) -> list[str]:
        return [piece for piece in split_evenly(text, self._piece_chars) if piece.strip()]

    def _map(
        self, function: Callable[[str], npt.NDArray[np.float64]], items: list[str]
    ) -> list[npt.NDArray[np.float64]]:
        if self._max_workers == 1 or len(items) <= 1:
            return [function(item) for item in items]
        with ThreadPoolExecutor(min(self._max_workers, len(items))) as pool:
            return list(pool.map(function, items))

    def _embed_piece(self, piece: str) -> npt.NDArray[np.float64]:
        try:
            with transient_errors("bedrock invoke_model"):
                values = self._invoke(piece)
        except ClientError as error:
            if not _too_many_tokens(error) or len(piece) < 2:
                raise
            halves = [h for h in split_evenly(piece, -(-len(piece) // 2)) if h.strip()]
            total = np.zeros(self._dimension, dtype=np.float64)
            for half in halves:
                total += self._embed_piece(half) * len(half)
            return total / max(float(np.linalg.norm(total)), 1e-12)
        vector = np.asarray(values, dtype=np.float64)
        if vector.shape != (self._dimension,):
            raise ValueError(f"{self._model_id} returned {vector.shape}, not ({self._dimension},)")
        return vector / max(float(np.linalg.norm(vector)), 1e-12)

    def _invoke(self, text: str) -> list[float]:
        """One InvokeModel call, the request langchain-aws's ``BedrockEmbeddings`` made, without
        importing langchain-aws (~0.6 s and ~30 MiB at a cold start, for one JSON call).
        """
        # "normalize" is Titan's own request field; vectors are normalised again after averaging.
        request = {
            "inputText": text.replace(os.linesep, " "),
            "dimensions": self._dimension,
            "normalize": True,
        }
        response = self._client.invoke_model(
            body=json.dumps(request),
            modelId=self._model_id,
            accept="application/json",
            contentType="application/json",
        )
        embedding = json.loads(response["body"].read()).get("embedding")
        if embedding is None:
            raise ValueError(f"{self._model_id} returned no embedding")
        return list(embedding)


def split_evenly(text: str, size: int) -> list[str]:
    """``text`` cut into the fewest near-equal pieces of at most ``size`` characters."""
    if not text:
        return []
    count = -(-len(text) // size)
    step = -(-len(text) // count)
    return [text[i : i + step] for i in range(0, len(text), step)]


def _too_many_tokens(error: ClientError) -> bool:
    message = str(error.response.get("Error", {}).get("Message", "")).lower()
    return error_code(error) == "ValidationException" and "token" in message


def _normalise(vectors: npt.NDArray[np.float64]) -> FloatArray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    unit: FloatArray = (vectors / np.maximum(norms, 1e-12)).astype(np.float32)
    return unit


class _BedrockChat:
    """A ``ChatModel`` whose throttling surfaces as the core's ``TransientError``."""

    def __init__(self, chat: ChatModel) -> None:
        self._chat = chat

    def complete(self, system: str, user: str) -> str:
        """One system prompt and one user turn; the reply's text."""
        with transient_errors("bedrock converse"):
            return self._chat.complete(system, user)


def bedrock_chat(
    model_id: str = CHAT_MODEL_ID,
    client: Any | None = None,
    *,
    region_name: str | None = None,
    max_tokens: int = 4096,
) -> ChatModel:
    """The core's ``ChatModel`` on Bedrock's Converse API, at temperature 0.

    ``model_id`` is a model id or inference profile (``CHAT_MODEL_ID`` by default); ``client``
    is a ``bedrock-runtime`` client, created from the default credentials when omitted.
    """
    # Imported on use: no read path calls a chat model, and langchain_aws is slow to import.
    from langchain_aws import ChatBedrockConverse

    from agent_memory.adapters.chat import LangChainChat

    model = ChatBedrockConverse(
        model=model_id,
        temperature=0,
        max_tokens=max_tokens,
        client=client,
        region_name=region_name,
    )
    return _BedrockChat(LangChainChat(model))
