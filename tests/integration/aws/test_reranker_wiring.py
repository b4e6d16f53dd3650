"""The reranker on the Lambda side: read from the environment, built in its model's Region."""

from __future__ import annotations

import os
from collections.abc import Iterator
from unittest import mock

import boto3
import pytest
from moto import mock_aws

from agent_memory.adapters.aws.bedrock_rerank import BedrockReranker
from agent_memory.core.model.errors import InvalidInput
from agent_memory.wiring.aws_settings import AwsSettings
from tests.integration.aws.moto_dynamodb import (
    FAKE_CREDENTIALS,
    REGION,
    create_tables,
    fresh_runtime,
    settings_for,
)

ARN = "arn:aws:bedrock:us-west-2::foundation-model/amazon.rerank-v1:0"
REQUIRED = {
    "EPISODES_TABLE": "e",
    "FACTS_TABLE": "f",
    "PROCEDURES_TABLE": "p",
    "LEDGER_TABLE": "l",
    "KB_BUCKET": "b",
    "KNOWLEDGE_BASE_ID": "KB12345678",
    "KB_DATA_SOURCE_ID": "DS12345678",
}


@pytest.fixture
def tables() -> Iterator[dict[str, str]]:
    with mock.patch.dict(os.environ, FAKE_CREDENTIALS), mock_aws():
        yield create_tables(boto3.client("dynamodb", region_name=REGION))


def test_the_environment_names_the_reranker_or_leaves_it_out() -> None:
    # Given the bootstrap function's environment with and without a reranker
    with_it = AwsSettings.from_environment({**REQUIRED, "RERANK_MODEL_ARN": ARN})
    without = AwsSettings.from_environment(REQUIRED)

    # Then the ARN is read as it is, and absent means none
    assert (with_it.rerank_model_arn, without.rerank_model_arn) == (ARN, None)


@pytest.mark.parametrize(
    "bad", ["amazon.rerank-v1:0", "arn:aws:bedrock:::foundation-model/amazon.rerank-v1:0"]
)
def test_a_reranker_that_is_not_a_model_arn_is_named(bad: str) -> None:
    with pytest.raises(InvalidInput, match=r"^RERANK_MODEL_ARN: must be arn:"):
        AwsSettings.from_environment({**REQUIRED, "RERANK_MODEL_ARN": bad})


def test_the_reranker_is_built_once_in_its_models_region(tables: dict[str, str]) -> None:
    # Given a container whose stack runs in us-east-1 and a reranker in us-west-2
    container = fresh_runtime(settings_for(tables, rerank_model_arn=ARN))

    # When two invocations take their ports
    first, second = container.ports("acme"), container.ports("globex")

    # Then both get the same Bedrock reranker, calling us-west-2
    assert isinstance(first.reranker, BedrockReranker) and first.reranker is second.reranker
    assert first.reranker.model_id == "amazon.rerank-v1:0"
    assert first.reranker._client.meta.region_name == "us-west-2"


def test_without_a_reranker_the_ports_have_none(tables: dict[str, str]) -> None:
    assert fresh_runtime(settings_for(tables)).ports("acme").reranker is None
