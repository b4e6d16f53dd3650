"""Titan Text Embeddings v2's ``InvokeModel`` answered in-process, deterministically.

Titan is a model: its vectors are not this project's to test. The fake answers on a real
``bedrock-runtime`` client (``tests.support.botocore_answers``) in Titan v2's request and
response shapes: ``inputText`` (1..50,000 characters), ``dimensions`` (256, 512 or 1024),
``normalize``; ``{"embedding", "embeddingsByType", "inputTextTokenCount"}`` back.
https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-titan-embed-text.html

What it guarantees: the same text always gets the same vector, texts sharing words get a
positive cosine (word features hashed, as ``tests.support.embedder``), and a text without any
latin word or digit still gets a vector (hashed from its characters).
"""

from __future__ import annotations

import hashlib
import io
import json
from typing import Any

import numpy as np
from botocore.response import StreamingBody

from tests.support.botocore_answers import Answer, ServiceError, answer, offline_client
from tests.support.embedder import HashingEmbedder

MODEL_PREFIX = "amazon.titan-embed-text-v2"
DIMENSIONS = (256, 512, 1024)
MAX_INPUT_CHARS = 50_000
# Titan returns vectors of this length when asked not to normalise (any non-unit length will do).
RAW_LENGTH = 3.0


def titan_client() -> Any:
    """A ``bedrock-runtime`` client whose ``invoke_model`` embeds as the fake Titan v2 does."""
    client = offline_client("bedrock-runtime")
    answer(client, "InvokeModel", invoke_model())
    return client


def invoke_model() -> Answer:
    """Titan v2's ``InvokeModel``, to answer on any ``bedrock-runtime`` client
    (``tests.support.botocore_answers.answer``).
    """
    embedders = {size: HashingEmbedder(dimension=size) for size in DIMENSIONS}

    def embed(params: dict[str, Any]) -> dict[str, Any]:
        if not params["modelId"].startswith(MODEL_PREFIX):
            raise ServiceError("ValidationException", "this fake is Titan Text Embeddings v2")
        request = json.loads(params["body"])
        text, size = request.get("inputText", ""), request.get("dimensions", 1024)
        if not 1 <= len(text) <= MAX_INPUT_CHARS:
            raise ServiceError("ValidationException", "Malformed input request: inputText length")
        if size not in DIMENSIONS:
            raise ServiceError("ValidationException", "Malformed input request: dimensions")
        vector = embedders[size].embed_query(text).astype(np.float64)
        if not vector.any():
            seed = int.from_bytes(hashlib.blake2b(text.encode()).digest()[:8], "little")
            vector = np.random.default_rng(seed).standard_normal(size)
        vector /= np.linalg.norm(vector)
        if not request.get("normalize", True):
            vector *= RAW_LENGTH
        values = vector.tolist()
        body = json.dumps(
            {
                "embedding": values,
                "embeddingsByType": {"float": values},
                "inputTextTokenCount": len(text.split()),
            }
        ).encode()
        return {
            "body": StreamingBody(io.BytesIO(body), len(body)),
            "contentType": "application/json",
        }

    return embed
