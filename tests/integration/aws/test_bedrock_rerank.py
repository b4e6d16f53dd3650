"""BedrockReranker on stubbed ``bedrock-agent-runtime``: exact requests, scores mapped back by
position, batching, and how failures reach the core. Nothing reaches an endpoint.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError
from botocore.stub import Stubber

from agent_memory.adapters.aws import bedrock_rerank
from agent_memory.adapters.aws.bedrock_rerank import AMAZON_RERANK, BedrockReranker
from agent_memory.core.model.errors import TransientError
from agent_memory.core.ports import Reranker

REGION = "us-west-2"
ARN = f"arn:aws:bedrock:{REGION}::foundation-model/{AMAZON_RERANK}"


pytestmark = pytest.mark.usefixtures("stub_credentials")


@pytest.fixture
def runtime() -> Iterator[Stubber]:
    with Stubber(boto3.client("bedrock-agent-runtime", region_name=REGION)) as stubber:
        yield stubber
        stubber.assert_no_pending_responses()


def request(query: str, passages: list[str], **extra: Any) -> dict[str, Any]:
    return {
        "queries": [{"type": "TEXT", "textQuery": {"text": query}}],
        "sources": [
            {
                "type": "INLINE",
                "inlineDocumentSource": {"type": "TEXT", "textDocument": {"text": p}},
            }
            for p in passages
        ],
        "rerankingConfiguration": {
            "type": "BEDROCK_RERANKING_MODEL",
            "bedrockRerankingConfiguration": {
                "modelConfiguration": {"modelArn": ARN},
                "numberOfResults": len(passages),
            },
        },
        **extra,
    }


def reply(*scores: tuple[int, float], next_token: str | None = None) -> dict[str, Any]:
    results = [{"index": i, "relevanceScore": s} for i, s in scores]
    return {"results": results, **({"nextToken": next_token} if next_token else {})}


def test_it_is_the_reranker_port_named_by_its_model() -> None:
    reranker = BedrockReranker(object(), ARN)
    assert isinstance(reranker, Reranker) and reranker.model_id == AMAZON_RERANK


def test_scores_come_back_in_the_passages_order_whatever_the_reply_order(
    runtime: Stubber,
) -> None:
    # Given a reply ranked best first, as Bedrock returns it
    passages = ["Ana: hello", "Ana: the cap is 0.5x fees", "Reviewed the MSA"]
    runtime.add_response(
        "rerank", reply((1, 0.92), (2, 0.31), (0, 0.02)), request("cap?", passages)
    )

    # When the passages are scored, Then each score is at its passage's position
    assert BedrockReranker(runtime.client, ARN).scores("cap?", passages) == [0.02, 0.92, 0.31]


def test_blank_passages_are_not_sent_and_score_zero(runtime: Stubber) -> None:
    # Given one blank passage among two (the API refuses empty documents)
    runtime.add_response("rerank", reply((0, 0.4)), request("q", ["Ana: yes"]))

    # When scored, Then only the other one was sent and the blank one scores 0
    assert BedrockReranker(runtime.client, ARN).scores("q", ["  ", "Ana: yes"]) == [0.0, 0.4]


def test_more_passages_than_one_call_takes_go_in_batches(
    runtime: Stubber, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given calls of at most two sources
    monkeypatch.setattr(bedrock_rerank, "MAX_SOURCES", 2)
    runtime.add_response("rerank", reply((1, 0.5), (0, 0.1)), request("q", ["a", "b"]))
    runtime.add_response("rerank", reply((0, 0.9)), request("q", ["c"]))

    # When three passages are scored, Then two calls score them all, in order
    assert BedrockReranker(runtime.client, ARN).scores("q", ["a", "b", "c"]) == [0.1, 0.5, 0.9]


def test_a_paged_reply_is_followed_to_its_end(runtime: Stubber) -> None:
    runtime.add_response("rerank", reply((1, 0.7), next_token="more"), request("q", ["a", "b"]))
    runtime.add_response("rerank", reply((0, 0.2)), request("q", ["a", "b"], nextToken="more"))

    assert BedrockReranker(runtime.client, ARN).scores("q", ["a", "b"]) == [0.2, 0.7]


def test_a_reply_missing_a_passage_is_an_error(runtime: Stubber) -> None:
    runtime.add_response("rerank", reply((0, 0.7)), request("q", ["a", "b"]))

    with pytest.raises(ValueError, match=r"scored positions \[0\] of 2 passages"):
        BedrockReranker(runtime.client, ARN).scores("q", ["a", "b"])


def test_throttling_is_transient_and_other_failures_propagate(runtime: Stubber) -> None:
    runtime.add_client_error("rerank", "ThrottlingException", "slow down", 429)
    runtime.add_client_error("rerank", "AccessDeniedException", "no model access", 403)
    reranker = BedrockReranker(runtime.client, ARN)

    with pytest.raises(TransientError, match="bedrock rerank: ThrottlingException"):
        reranker.scores("q", ["a"])
    with pytest.raises(ClientError, match="AccessDenied"):
        reranker.scores("q", ["a"])


def test_nothing_to_score_calls_nothing(runtime: Stubber) -> None:
    assert BedrockReranker(runtime.client, ARN).scores("q", []) == []


@pytest.mark.parametrize("bad", [AMAZON_RERANK, "arn:aws:bedrock"])
def test_a_model_id_where_an_arn_belongs_is_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="must be a model ARN"):
        BedrockReranker(object(), bad)
