"""Fakes at the model boundary: a PII detector and chat models for unit tests."""

from __future__ import annotations

import re

from langchain_core.language_models.fake_chat_models import FakeListChatModel

from agent_memory.adapters.chat import LangChainChat
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
