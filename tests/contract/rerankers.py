"""Rerankers under the contract of ``test_reranker``: one factory per adapter.

The one adapter is Bedrock's (``BedrockReranker``), whose ``Rerank`` calls are answered
in-process on a real ``bedrock-agent-runtime`` client by a stand-in model: a passage scores the
share of the query's words it holds (0 to 1, the models' scale), results best first, as the
API returns them. A reranker this project builds itself would be added here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from agent_memory.adapters.aws.bedrock_rerank import BedrockReranker
from agent_memory.core.ports import Reranker
from tests.support.botocore_answers import answer, offline_client

MODEL_ARN = "arn:aws:bedrock:eu-central-1::foundation-model/amazon.rerank-v1:0"


def words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


def overlap(query: str, passage: str) -> float:
    """The stand-in model's relevance: the share of the query's words in the passage."""
    asked = words(query)
    return len(asked & words(passage)) / len(asked) if asked else 0.0


def rerank_reply(params: dict[str, Any]) -> dict[str, Any]:
    query = params["queries"][0]["textQuery"]["text"]
    texts = [s["inlineDocumentSource"]["textDocument"]["text"] for s in params["sources"]]
    scored = sorted(enumerate(overlap(query, t) for t in texts), key=lambda p: -p[1])
    return {"results": [{"index": i, "relevanceScore": s} for i, s in scored]}


def bedrock() -> Reranker:
    client = offline_client("bedrock-agent-runtime")
    answer(client, "Rerank", rerank_reply)
    return BedrockReranker(client, MODEL_ARN)


ADAPTERS: dict[str, Callable[[], Reranker]] = {"bedrock": bedrock}
