"""The name-pseudonym key on AWS: read from Secrets Manager once per container, on moto."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import replace
from unittest import mock

import boto3
import pytest
from botocore.exceptions import ClientError
from moto import mock_aws

from agent_memory.core.model.errors import PiiDetectionFailed
from agent_memory.core.privacy.scrubbing import pseudonyms_for, query_form
from agent_memory.core.workflows import consolidation
from agent_memory.wiring.aws_settings import AwsSettings
from tests.integration.aws.moto_dynamodb import (
    FAKE_CREDENTIALS,
    REGION,
    create_tables,
    fresh_runtime,
    settings_for,
)
from tests.support.memory import run_event

KEY = "k" * 64


@pytest.fixture
def settings() -> Iterator[AwsSettings]:
    with mock.patch.dict(os.environ, FAKE_CREDENTIALS), mock_aws():
        tables = create_tables(boto3.client("dynamodb", region_name=REGION))
        secrets = boto3.client("secretsmanager", region_name=REGION)
        arn = secrets.create_secret(Name="pseudonym-key", SecretString=KEY)["ARN"]
        yield settings_for(tables, pseudonym_secret_arn=arn)


def test_a_consolidated_run_stores_the_pseudonym_a_later_query_is_given(settings: AwsSettings):
    # Given a run naming Jane Doe, consolidated by one container
    event = run_event("run-1", task="Review the MSA Jane Doe sent")
    consolidation.consolidate(event, fresh_runtime(settings).ports("acme"))
    # When another container puts a query naming her in the stored form
    later = fresh_runtime(settings).ports("acme")
    query = query_form(
        "What did Jane Doe send?", later.pii, pseudonyms_for(later.pseudonym_key, "acme")
    )
    # Then the stored task carries the same keyed pseudonym, and never the name
    stored = later.episodes.get("acme", "reviewer", "run-1", now=later.clock())
    assert stored is not None
    token = query.removeprefix("What did ").removesuffix(" send?")
    assert token.startswith("[NAME-") and token.endswith("]")
    assert stored.task == f"Review the MSA {token} sent"


def test_the_key_is_the_secret_and_scoped_by_tenant(settings: AwsSettings):
    ports = fresh_runtime(settings).ports("acme")
    acme, globex = (
        pseudonyms_for(ports.pseudonym_key, "acme"),
        pseudonyms_for(ports.pseudonym_key, "globex"),
    )
    assert acme is not None and globex is not None
    assert acme.key == KEY.encode()
    assert acme.label("NAME", "Jane Doe") != globex.label("NAME", "Jane Doe")


def test_the_secret_is_read_once_per_container(settings: AwsSettings):
    # Given a container that has built its ports once
    container = fresh_runtime(settings)
    container.ports("acme")
    # When the secret's value changes, then later ports of the container keep the first key
    boto3.client("secretsmanager", region_name=REGION).put_secret_value(
        SecretId=settings.pseudonym_secret_arn, SecretString="x" * 64
    )
    pseudonyms = pseudonyms_for(container.ports("globex").pseudonym_key, "globex")
    assert pseudonyms is not None and pseudonyms.key == KEY.encode()


def test_a_secret_too_short_to_be_a_key_fails_closed(settings: AwsSettings):
    # Given a secret of 31 characters
    boto3.client("secretsmanager", region_name=REGION).put_secret_value(
        SecretId=settings.pseudonym_secret_arn, SecretString="x" * 31
    )
    # When a container builds its ports, then it refuses, naming the secret
    with pytest.raises(PiiDetectionFailed, match=r"pseudonym-key.*31 characters"):
        fresh_runtime(settings).ports("acme")


def test_a_missing_secret_fails_closed(settings: AwsSettings):
    missing = replace(settings, pseudonym_secret_arn=f"{settings.pseudonym_secret_arn}-gone")
    with pytest.raises(ClientError, match="ResourceNotFoundException"):
        fresh_runtime(missing).ports("acme")


def test_without_a_secret_names_become_plain_labels(settings: AwsSettings):
    ports = fresh_runtime(replace(settings, pseudonym_secret_arn=None)).ports("acme")
    assert pseudonyms_for(ports.pseudonym_key, "acme") is None
