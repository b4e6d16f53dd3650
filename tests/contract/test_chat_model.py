"""The ``ChatModel`` contract: every test runs once per adapter in ``chat_models.ADAPTERS``.

The core asks a chat model for one thing: the reply text to one system prompt and one user
turn (extraction and summaries). What the model answers is the model's; what the adapter must
do is deliver both texts whole, in their roles, and hand back the reply as one string.
"""

from __future__ import annotations

import pytest

from agent_memory.core.ports import ChatModel
from tests.contract.chat_models import ADAPTERS, echoed


@pytest.fixture(params=sorted(ADAPTERS))
def chat(request: pytest.FixtureRequest) -> ChatModel:
    return ADAPTERS[request.param]()


def test_adapter_satisfies_the_chat_model_port(chat: ChatModel) -> None:
    assert isinstance(chat, ChatModel)


def test_the_system_prompt_and_the_user_turn_reach_the_model_in_their_roles(
    chat: ChatModel,
) -> None:
    # Given a system prompt and one user turn
    system, user = "Extract the run's facts as JSON.", "The cap is 0.5x fees (clause 7.3)."
    # When the model is asked
    reply = chat.complete(system, user)
    # Then it saw exactly those two messages, each in its role, and its whole reply comes back
    assert reply == echoed(system, user)


def test_the_reply_is_one_string_even_when_the_model_answers_in_parts(chat: ChatModel) -> None:
    reply = chat.complete("s", "u")
    assert isinstance(reply, str) and reply == echoed("s", "u")


def test_long_and_unicode_texts_arrive_whole(chat: ChatModel) -> None:
    # Given a user turn of 20,000 characters, with text outside ASCII
    user = ("Zoë paid 1 200 € — 東京 " * 1_000)[:20_000]
    # Then it reaches the model unchanged
    assert chat.complete("Summarise.", user) == echoed("Summarise.", user)
