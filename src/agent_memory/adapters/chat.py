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
        """One system prompt and one user turn; the reply's text."""
        from langchain_core.messages import HumanMessage, SystemMessage

        reply = self._model.invoke([SystemMessage(content=system), HumanMessage(content=user)])
        return reply.text if isinstance(reply.text, str) else str(reply.content)


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
            raise InvalidInput("llm", "bedrock needs: pip install 'agent-memory[aws]'") from None
        return LangChainChat(ChatBedrockConverse(model=model, temperature=0, **options))
    if provider == "ollama":
        try:
            from langchain_ollama import ChatOllama
        except ImportError:
            raise InvalidInput("llm", "ollama needs: pip install langchain-ollama") from None
        return LangChainChat(ChatOllama(model=model, temperature=0, format="json", **options))
    raise InvalidInput("llm", f"unknown provider {provider!r} (bedrock, ollama)")
