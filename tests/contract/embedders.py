"""Embedders under the contract of ``test_embedder``: one factory per adapter.

A factory returns the embedder and two facts of its model the contract needs: the least cosine
between a text embedded as a document and as a query (``min_self_cosine``), and a length past
which a text spans more than one of its windows (``window_chars``). A model that is slow to load
is built once (``functools.cache``) and its factory marked ``slow``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import pytest

from agent_memory.adapters.aws.bedrock_models import BedrockEmbedder
from agent_memory.adapters.local.embeddings import MAX_TOKENS, LocalEmbedder
from agent_memory.core.ports import Embedder
from tests.support.fake_titan import titan_client


@dataclass(frozen=True)
class EmbedderUnderTest:
    embedder: Embedder
    min_self_cosine: float
    window_chars: int


EmbedderFactory = Callable[[], EmbedderUnderTest]


@cache
def local() -> EmbedderUnderTest:
    # MiniLM is symmetric (no query prefix); a token is at least one character.
    return EmbedderUnderTest(LocalEmbedder(), min_self_cosine=0.9, window_chars=MAX_TOKENS * 8)


def bedrock() -> EmbedderUnderTest:
    # Titan v2 is symmetric too; a small piece size, so long texts are split without being huge.
    embedder = BedrockEmbedder(titan_client(), piece_chars=1_000)
    return EmbedderUnderTest(embedder, min_self_cosine=0.9, window_chars=1_000)


ADAPTERS: dict[str, EmbedderFactory] = {"local": local, "bedrock": bedrock}
MARKS: dict[str, tuple[pytest.MarkDecorator, ...]] = {"local": (pytest.mark.slow,)}
