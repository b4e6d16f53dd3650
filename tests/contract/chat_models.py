"""Chat models under the contract of ``test_chat_model``: one factory per adapter.

Every adapter runs over the same stand-in model at its own boundary: a LangChain chat model
for ``LangChainChat`` (local and Ollama mode), Bedrock's ``ConverseStream`` (the adapter
streams) answered in-process on a real ``bedrock-runtime`` client for ``bedrock_chat``. The
stand-in replies with what it was given (``system=...;user=...``), so the contract sees what
reached the model.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from agent_memory.adapters.aws.bedrock_models import bedrock_chat
from agent_memory.adapters.chat import LangChainChat
from agent_memory.core.ports import ChatModel
from tests.support.botocore_answers import answer, converse_stream, offline_client


def echoed(system: str, user: str) -> str:
    """What the stand-in model replies to one system prompt and one user turn."""
    return f"system={system};user={user}"


class EchoChatModel(BaseChatModel):
    """A LangChain chat model replying with the system prompt and user turns it was sent."""

    @property
    def _llm_type(self) -> str:
        return "echo"

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        system = [str(m.content) for m in messages if isinstance(m, SystemMessage)]
        users = [str(m.content) for m in messages if isinstance(m, HumanMessage)]
        reply = echoed(" | ".join(system), " | ".join(users))
        if len(messages) != len(system) + len(users):
            reply += ";other messages"
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=reply))])


def langchain() -> ChatModel:
    return LangChainChat(EchoChatModel())


def converse_reply(params: dict[str, Any]) -> dict[str, Any]:
    """Bedrock ``Converse``'s answer (its documented shape) from the stand-in model."""
    system = " | ".join(block["text"] for block in params.get("system", []))
    turns = params["messages"]
    users = [b["text"] for m in turns if m["role"] == "user" for b in m["content"]]
    reply = echoed(system, " | ".join(users))
    if any(m["role"] != "user" for m in turns):
        reply += ";other messages"
    # Two text blocks: a reply may come in parts, which the adapter joins.
    half = len(reply) // 2
    return {
        "output": {
            "message": {
                "role": "assistant",
                "content": [{"text": reply[:half]}, {"text": reply[half:]}],
            }
        },
        "stopReason": "end_turn",
        "usage": {"inputTokens": 1, "outputTokens": 1, "totalTokens": 2},
        "metrics": {"latencyMs": 1},
    }


def converse_stream_reply(params: dict[str, Any]) -> dict[str, Any]:
    """Bedrock ``ConverseStream``'s answer: the same reply, its blocks as the stream's parts."""
    [message] = [converse_reply(params)["output"]["message"]]
    return converse_stream([block["text"] for block in message["content"]])


def bedrock() -> ChatModel:
    client = offline_client("bedrock-runtime")
    answer(client, "Converse", converse_reply)
    answer(client, "ConverseStream", converse_stream_reply)
    return bedrock_chat(client=client)


ADAPTERS: dict[str, Callable[[], ChatModel]] = {"langchain": langchain, "bedrock": bedrock}
