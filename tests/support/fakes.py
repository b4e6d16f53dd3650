"""Fakes at the model boundary: a PII detector, chat models and a reranker for unit tests."""

from __future__ import annotations

import re
from collections.abc import Sequence

from langchain_core.language_models.fake_chat_models import FakeListChatModel

from agent_memory.adapters.chat import LangChainChat
from agent_memory.core.model.errors import TransientError
from agent_memory.core.ports import PiiEntity

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")


class FakePiiDetector:
    """Finds emails and a fixed list of names; can be told to fail.

    Records the length of every text it was given, so tests can check chunking.
    """

    def __init__(
        self, names: tuple[str, ...] = ("Jane Doe",), max_chunk_chars: int = 5_000
    ) -> None:
        self.names = names
        self._max = max_chunk_chars
        self.fail = False
        self.calls: list[int] = []

    @property
    def max_chunk_chars(self) -> int:
        return self._max

    def detect(self, text: str) -> list[PiiEntity]:
        if self.fail:
            raise ConnectionError("detector unavailable")
        if len(text) > self._max:
            raise ValueError(f"text of {len(text)} chars exceeds {self._max}")
        self.calls.append(len(text))
        found = [PiiEntity("EMAIL", m.start(), m.end()) for m in _EMAIL.finditer(text)]
        for name in self.names:
            found += [PiiEntity("NAME", m.start(), m.end()) for m in re.finditer(name, text)]
        return found


def fake_chat(*replies: str) -> LangChainChat:
    """A chat model that answers with ``replies`` in turn (LangChain's own fake)."""
    return LangChainChat(FakeListChatModel(responses=list(replies)))


class WordReranker:
    """Scores a passage by how often it says ``word`` (case-insensitive): a stand-in for a
    cross-encoder that knows which passages answer the query. Records every call; can be told
    it is unavailable (``TransientError``, as the adapters raise for throttling).
    """

    def __init__(self, word: str, model_id: str = "fake-reranker") -> None:
        self.word = word.lower()
        self._model_id = model_id
        self.unavailable = False
        self.calls: list[tuple[str, list[str]]] = []

    @property
    def model_id(self) -> str:
        return self._model_id

    def scores(self, query: str, passages: Sequence[str]) -> list[float]:
        if self.unavailable:
            raise TransientError("reranker throttled")
        self.calls.append((query, list(passages)))
        return [float(p.lower().count(self.word)) for p in passages]
