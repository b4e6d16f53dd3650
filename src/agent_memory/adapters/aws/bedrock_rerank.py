"""The ``Reranker`` port on Bedrock's Rerank API (``bedrock-agent-runtime``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agent_memory.adapters.aws._errors import transient_errors

__all__ = ["AMAZON_RERANK", "BedrockReranker"]

# Bedrock's own reranker; Cohere Rerank 3.5 (cohere.rerank-v3-5:0) is the other choice. Both run
# in a few Regions only (Bedrock user guide, "Supported Regions and models for reranking").
AMAZON_RERANK = "amazon.rerank-v1:0"
# The Rerank request's limits: sources per call, and characters per query or document.
MAX_SOURCES = 1_000
MAX_TEXT_CHARS = 32_000


class BedrockReranker:
    """Scores passages against a query with a Bedrock reranker model, in as few calls as the
    API allows. A blank passage cannot be sent; it scores 0, the bottom of the models' 0-1
    relevance scale. Throttling and service faults raise ``TransientError``.
    """

    def __init__(self, client: Any, model_arn: str) -> None:
        if not model_arn.startswith("arn:") or "/" not in model_arn:
            raise ValueError(f"model_arn must be a model ARN, not {model_arn!r}")
        self._client = client
        self._model_arn = model_arn

    @property
    def model_id(self) -> str:
        """The model id at the end of the ARN (``amazon.rerank-v1:0``)."""
        return self._model_arn.rsplit("/", 1)[1]

    def scores(self, query: str, passages: Sequence[str]) -> list[float]:
        """One relevance score per passage, in their order."""
        if isinstance(passages, str):
            raise TypeError("scores takes a sequence of passages, not one string")
        scores = [0.0] * len(passages)
        sent = [i for i, passage in enumerate(passages) if passage.strip()]
        for first in range(0, len(sent), MAX_SOURCES):
            batch = sent[first : first + MAX_SOURCES]
            found = self._rerank(query, [passages[i] for i in batch])
            for position, score in found.items():
                scores[batch[position]] = score
        return scores

    def _rerank(self, query: str, passages: list[str]) -> dict[int, float]:
        """Scores by position in ``passages``; every position must come back."""
        request: dict[str, Any] = {
            "queries": [{"type": "TEXT", "textQuery": {"text": query[:MAX_TEXT_CHARS]}}],
            "sources": [
                {
                    "type": "INLINE",
                    "inlineDocumentSource": {
                        "type": "TEXT",
                        "textDocument": {"text": passage[:MAX_TEXT_CHARS]},
                    },
                }
                for passage in passages
            ],
            "rerankingConfiguration": {
                "type": "BEDROCK_RERANKING_MODEL",
                "bedrockRerankingConfiguration": {
                    "modelConfiguration": {"modelArn": self._model_arn},
                    "numberOfResults": len(passages),
                },
            },
        }
        found: dict[int, float] = {}
        while True:
            with transient_errors("bedrock rerank"):
                reply = self._client.rerank(**request)
            found.update((int(r["index"]), float(r["relevanceScore"])) for r in reply["results"])
            if not reply.get("nextToken"):
                break
            request["nextToken"] = reply["nextToken"]
        if sorted(found) != list(range(len(passages))):
            raise ValueError(
                f"{self.model_id} scored positions {sorted(found)} of {len(passages)} passages"
            )
        return found
