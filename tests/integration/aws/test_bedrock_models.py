"""Bedrock models: Titan embeddings and the Claude chat model on stubbed ``bedrock-runtime``.

Exact requests are checked with Stubber; batching and splitting with a fake client that counts
what it is sent. Nothing reaches an endpoint.
"""

from __future__ import annotations

import io
import json
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import boto3
import numpy as np
import pytest
from botocore.exceptions import ClientError
from botocore.response import StreamingBody
from botocore.stub import Stubber

from agent_memory.adapters.aws.bedrock_models import (
    CHAT_MODEL_ID,
    TITAN_EMBED_V2,
    BedrockEmbedder,
    bedrock_chat,
)
from agent_memory.core.model.calibration import DEFAULT_CALIBRATIONS, TITAN_V2, calibration_for
from agent_memory.core.model.errors import TransientError
from agent_memory.core.ports import ChatModel, Embedder
from tests.support.botocore_answers import (
    ServiceError,
    answer,
    converse_stream,
    offline_client,
)

REGION = "us-east-1"
DIM = 1024


pytestmark = pytest.mark.usefixtures("stub_credentials")


@pytest.fixture
def runtime() -> Iterator[Stubber]:
    with Stubber(boto3.client("bedrock-runtime", region_name=REGION)) as stubber:
        yield stubber
        stubber.assert_no_pending_responses()


class JsonBody:
    """Matches a JSON request body by content, whatever its key order."""

    def __init__(self, expected: dict[str, Any]) -> None:
        self.expected = expected

    def __eq__(self, other: object) -> bool:
        return isinstance(other, str | bytes) and json.loads(other) == self.expected

    def __hash__(self) -> int:
        return 0


def titan_response(vector: list[float]) -> dict[str, Any]:
    data = json.dumps({"embedding": vector, "inputTextTokenCount": 3}).encode()
    return {"body": StreamingBody(io.BytesIO(data), len(data)), "contentType": "application/json"}


def titan_request(text: str, dimensions: int = DIM) -> dict[str, Any]:
    return {
        "body": JsonBody({"inputText": text, "dimensions": dimensions, "normalize": True}),
        "modelId": TITAN_EMBED_V2,
        "accept": "application/json",
        "contentType": "application/json",
    }


def unit(index: int) -> np.ndarray:
    vector = np.zeros(DIM)
    vector[index] = 1.0
    return vector


class FakeTitan:
    """A ``bedrock-runtime`` stand-in: records inputs, tracks concurrency, refuses long texts."""

    def __init__(
        self,
        vector_for: Callable[[str], np.ndarray],
        *,
        token_limit_chars: int | None = None,
        delay: float = 0.0,
    ) -> None:
        self.vector_for = vector_for
        self.token_limit_chars = token_limit_chars
        self.delay = delay
        self.texts: list[str] = []
        self.active = 0
        self.peak = 0
        self.lock = threading.Lock()

    def invoke_model(self, *, body: str, modelId: str, **_: Any) -> dict[str, Any]:
        text = json.loads(body)["inputText"]
        with self.lock:
            self.texts.append(text)
            self.active += 1
            self.peak = max(self.peak, self.active)
        try:
            time.sleep(self.delay)
            if self.token_limit_chars is not None and len(text) > self.token_limit_chars:
                error = {"Code": "ValidationException", "Message": "Too many input tokens."}
                raise ClientError({"Error": error}, "InvokeModel")
            return titan_response(self.vector_for(text).tolist())
        finally:
            with self.lock:
                self.active -= 1


# --- embeddings -----------------------------------------------------------------------------


def test_embedder_satisfies_the_port_and_has_the_titan_calibration() -> None:
    embedder = BedrockEmbedder(FakeTitan(lambda _: unit(0)))

    assert isinstance(embedder, Embedder)
    assert calibration_for(embedder.model_id, DEFAULT_CALIBRATIONS) is TITAN_V2


def test_request_asks_titan_v2_for_normalised_1024_dimensions(runtime: Stubber) -> None:
    runtime.add_response("invoke_model", titan_response(unit(0).tolist()), titan_request("hi"))

    BedrockEmbedder(runtime.client).embed_query("hi")


def test_vectors_are_float32_and_unit_length(runtime: Stubber) -> None:
    raw = np.zeros(DIM)
    raw[:2] = [3.0, 4.0]
    runtime.add_response("invoke_model", titan_response(raw.tolist()), titan_request("hi"))

    vectors = BedrockEmbedder(runtime.client).embed_documents(["hi"])

    assert vectors.dtype == np.float32
    assert vectors.shape == (1, DIM)
    np.testing.assert_allclose(vectors[0, :2], [0.6, 0.8], rtol=1e-6)


def test_long_text_is_split_and_averaged_not_truncated() -> None:
    # Given pieces of at most 10 characters: the text cuts into "a"*9, "b"*9 and "c"*7
    titan = FakeTitan(lambda text: unit("abc".index(text[0])))
    embedder = BedrockEmbedder(titan, piece_chars=10, max_workers=1)
    text = "a" * 9 + "b" * 9 + "c" * 7

    vector = embedder.embed_query(text)

    assert "".join(titan.texts) == text
    expected = 9 * unit(0) + 9 * unit(1) + 7 * unit(2)
    np.testing.assert_allclose(vector, expected / np.linalg.norm(expected), rtol=1e-6)


def test_a_piece_titan_finds_too_long_is_halved_and_retried() -> None:
    # Given text Titan tokenises densely: it refuses more than 6 characters per request
    titan = FakeTitan(lambda text: unit("ab".index(text[0])), token_limit_chars=6)
    embedder = BedrockEmbedder(titan, max_workers=1)

    vector = embedder.embed_query("a" * 6 + "b" * 6)

    assert titan.texts[1:] == ["a" * 6, "b" * 6]
    np.testing.assert_allclose(vector, (unit(0) + unit(1)) / np.sqrt(2), rtol=1e-6)


def test_batch_requests_run_concurrently_up_to_max_workers() -> None:
    titan = FakeTitan(lambda text: unit(int(text[1:])), delay=0.05)
    embedder = BedrockEmbedder(titan, max_workers=3)

    embedder.embed_documents([f"t{i}" for i in range(9)])

    assert 1 < titan.peak <= 3


def test_batch_vectors_follow_input_order() -> None:
    titan = FakeTitan(lambda text: unit(int(text[1:])), delay=0.01)
    embedder = BedrockEmbedder(titan, max_workers=4)

    vectors = embedder.embed_documents([f"t{i}" for i in range(8)])

    assert [int(np.argmax(v)) for v in vectors] == list(range(8))


def test_blank_text_embeds_as_zeros_without_a_call() -> None:
    titan = FakeTitan(lambda _: unit(0))

    vectors = BedrockEmbedder(titan).embed_documents(["  ", ""])

    assert titan.texts == []
    assert not vectors.any()


def test_throttled_embedding_is_transient(runtime: Stubber) -> None:
    runtime.add_client_error("invoke_model", "ThrottlingException", "slow down", 429)

    with pytest.raises(TransientError):
        BedrockEmbedder(runtime.client).embed_query("hi")


def test_other_embedding_failures_propagate(runtime: Stubber) -> None:
    runtime.add_client_error("invoke_model", "AccessDeniedException", "no model access", 403)

    with pytest.raises(ClientError, match="AccessDenied"):
        BedrockEmbedder(runtime.client).embed_query("hi")


@pytest.mark.parametrize("dimensions", [128, 768, 1536])
def test_dimensions_titan_v2_does_not_offer_are_refused(dimensions: int) -> None:
    with pytest.raises(ValueError, match="dimensions"):
        BedrockEmbedder(FakeTitan(lambda _: unit(0)), dimensions=dimensions)


# --- chat -----------------------------------------------------------------------------------


def stream_of(text: str, parts: int = 3) -> dict[str, Any]:
    """ConverseStream's answer for ``text``, in ``parts`` deltas."""
    size = -(-len(text) // parts)
    return converse_stream([text[i : i + size] for i in range(0, len(text), size)])


def test_chat_streams_one_system_and_one_user_turn_at_temperature_zero() -> None:
    # Given Bedrock answering ConverseStream (a stream's read timeout bounds each part, not
    # the whole completion: a long extraction is not cut off at the client's read timeout)
    client = offline_client("bedrock-runtime")
    sent: list[dict[str, Any]] = []

    def respond(params: dict[str, Any]) -> dict[str, Any]:
        sent.append(params)
        return stream_of('{"facts": ["the notice period is 30 days"]}')

    answer(client, "ConverseStream", respond)
    chat = bedrock_chat(client=client)
    # When a completion is asked for
    reply = chat.complete("Extract facts.", "The run log.")
    # Then one streamed call carried the system prompt and the user turn, at temperature 0,
    # and the parts come back as one reply
    assert isinstance(chat, ChatModel)
    assert reply == '{"facts": ["the notice period is 30 days"]}'
    [params] = sent
    assert params["modelId"] == CHAT_MODEL_ID
    assert params["system"] == [{"text": "Extract facts."}]
    assert params["messages"] == [{"role": "user", "content": [{"text": "The run log."}]}]
    assert params["inferenceConfig"] == {"maxTokens": 4096, "temperature": 0.0}


def test_throttled_chat_is_transient() -> None:
    client = offline_client("bedrock-runtime")

    def throttled(params: dict[str, Any]) -> dict[str, Any]:
        raise ServiceError("ThrottlingException", "slow down", 429)

    answer(client, "ConverseStream", throttled)
    with pytest.raises(TransientError):
        bedrock_chat(client=client).complete("system", "user")
