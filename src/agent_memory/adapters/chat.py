"""Chat models for extraction and summarising, through LangChain (optional: the ``llm`` extra)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agent_memory.core.model.errors import InvalidInput

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel


class LangChainChat:
    """The core's ``ChatModel`` port over any LangChain chat model."""

    def __init__(self, model: BaseChatModel) -> None:
        self._model = model

    def complete(self, system: str, user: str) -> str:
        """One system prompt and one user turn; the reply's text.

        The reply is streamed: a client's read timeout then bounds the wait for each part, not
        for the whole completion, so a long extraction is not cut off (and paid for again) by a
        timeout sized for one call. A model that cannot stream answers in one part.
        """
        from langchain_core.messages import HumanMessage, SystemMessage

        texts: list[str] = []
        try:
            for part in self._model.stream(
                [SystemMessage(content=system), HumanMessage(content=user)]
            ):
                texts.append(_text(part))
        except ValueError as error:
            # LangChain's word for a stream that ended with no part at all: an empty reply.
            if texts or _NO_PARTS not in str(error):
                raise
        return "".join(texts)


_NO_PARTS = "No generation chunks were returned"


def _text(message: Any) -> str:
    """A message's (or message chunk's) text, whichever LangChain version made it."""
    text = message.text
    if isinstance(text, str):
        return str(text)
    content = message.content
    return content if isinstance(content, str) else ""


def chat_from_spec(spec: str, **options: Any) -> LangChainChat:
    """A chat model from ``provider:model``: ``bedrock:<model id or inference profile>`` or
    ``ollama:<model>`` (e.g. ``ollama:llama3.1:8b``), at temperature 0.
    """
    provider, _, model = spec.partition(":")
    if not model:
        raise InvalidInput("llm", "expected provider:model, e.g. ollama:llama3.1:8b")
    if provider == "bedrock":
        try:
            from langchain_aws import ChatBedrockConverse
        except ImportError:
            from agent_memory.adapters.install import install_command

            raise InvalidInput("llm", f"bedrock needs: {install_command('aws')}") from None
        return LangChainChat(ChatBedrockConverse(model=model, temperature=0, **options))
    if provider == "ollama":
        try:
            from langchain_ollama import ChatOllama
        except ImportError:
            raise InvalidInput("llm", "ollama needs: pip install langchain-ollama") from None
        return LangChainChat(ChatOllama(model=model, temperature=0, format="json", **options))
    raise InvalidInput("llm", f"unknown provider {provider!r} (bedrock, ollama)")
