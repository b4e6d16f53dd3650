"""Serving receipts on AWS (moto): bootstrap signs with a key derived from the stack's secret,
the propose_procedure function (another container) derives the same key and counts the report.

Bootstrap and propose_procedure run as their handlers, so the session's call check holds their
roles to the secret reads they make; the consolidation steps before them run in the core.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from unittest import mock

import boto3
import pytest
from botocore.stub import ANY, Stubber
from moto import mock_aws

from agent_memory.core.tiers import procedural
from agent_memory.core.workflows import consolidation
from agent_memory.core.workflows.consolidation import STEPS
from agent_memory.core.workflows.run_state import state_to_json
from agent_memory.wiring import aws as wiring
from agent_memory.wiring.aws_settings import AwsSettings
from tests.integration.aws.moto_dynamodb import (
    FAKE_CREDENTIALS,
    REGION,
    create_tables,
    settings_for,
    tenant_access,
)
from tests.support.embedder import HashingEmbedder
from tests.support.fakes import FakePiiDetector
from tests.support.lambda_context import LambdaContext
from tests.support.memory import HASHING_CALIBRATION, proposed_procedure, run_event

SECRET = "p" * 64
KB_ID = "KB12345678"


class StubbedKbRuntime(wiring.AwsRuntime):
    """A container's runtime whose Bedrock KB client (which moto lacks) is a Stubber's."""

    kb: Any

    def client(self, service: str, tenant_id: str | None = None) -> Any:
        if service == "bedrock-agent-runtime":
            return self.kb
        return super().client(service, tenant_id)


@dataclass
class Deployment:
    settings: AwsSettings
    kb: Any
    stub: Stubber

    def container(self) -> StubbedKbRuntime:
        """A fresh Lambda container: it reads the secret itself on first use."""
        runtime = StubbedKbRuntime(
            self.settings,
            session=boto3.Session(region_name=REGION),
            embedder=HashingEmbedder(),
            pii=FakePiiDetector(),
            calibrations={"test-hashing": HASHING_CALIBRATION},
        )
        runtime.kb = self.kb
        return runtime


@pytest.fixture
def deployment() -> Iterator[Deployment]:
    env = {**FAKE_CREDENTIALS, "POWERTOOLS_TRACE_DISABLED": "true"}
    with mock.patch.dict(os.environ, env), mock_aws():
        dynamodb = boto3.client("dynamodb", region_name=REGION)
        tables = create_tables(dynamodb)
        secret = boto3.client("secretsmanager", region_name=REGION).create_secret(
            Name="pseudonym-key", SecretString=SECRET
        )
        settings = settings_for(
            tables,
            knowledge_base_id=KB_ID,
            pseudonym_secret_arn=secret["ARN"],
            **tenant_access(tables.values()),
        )
        kb = boto3.client("bedrock-agent-runtime", region_name=REGION)
        with Stubber(kb) as stub:
            yield Deployment(settings, kb, stub)


def in_container(runtime: wiring.AwsRuntime, name: str, event: dict[str, Any]) -> Any:
    """Invoke ``functions/<name>/handler.py`` in ``runtime``'s container."""
    with mock.patch.object(wiring, "_current", runtime):
        module = __import__(f"functions.{name}.handler", fromlist=["handler"])
        return module.handler(event, LambdaContext(name))


def validated_procedure(deployment: Deployment) -> str:
    """A procedure a run proposed and a reviewer approved, written by a consolidation."""
    ports = deployment.container().ports("acme")
    state = consolidation.consolidate(run_event("seed"), ports)
    procedure_id = proposed_procedure(state)
    procedural.review(
        ports.procedures, procedure_id, approve=True, reviewer="lead", now=ports.clock()
    )
    return procedure_id


def bootstrapped(deployment: Deployment) -> dict[str, Any]:
    """What the bootstrap function serves the reviewer (its KB finds nothing)."""
    deployment.stub.add_response(
        "retrieve",
        {"retrievalResults": []},
        {"knowledgeBaseId": KB_ID, "retrievalQuery": ANY, "retrievalConfiguration": ANY},
    )
    reply = in_container(
        deployment.container(),
        "bootstrap",
        {
            "tenant_id": "acme",
            "agent_id": "reviewer",
            "task": "Review the vendor MSA liability cap",
            "task_type": "contract_review",
            "domain": "contracts",
        },
    )
    assert reply["procedure"] is not None
    return dict(reply["procedure"])


def consolidated(deployment: Deployment, event: dict[str, Any]) -> Any:
    """The run consolidated: the steps before the last in the core, propose_procedure as its
    function in a container of its own; what the summary says of its feedback.
    """
    ports = deployment.container().ports("acme")
    state = consolidation.extract(event, ports)
    for step in list(STEPS.values())[:-1]:
        state = step(state, ports)
    result = in_container(deployment.container(), "propose_procedure", state_to_json(state))
    return result["procedure"]["feedback"]


def test_a_receipt_bootstrap_hands_out_counts_in_propose_procedure(
    deployment: Deployment,
) -> None:
    # Given a validated procedure the bootstrap function serves, with a receipt
    procedure_id = validated_procedure(deployment)
    served = bootstrapped(deployment)
    # When the run reports on it, and its event reaches propose_procedure in another container
    report = {"procedure_id": procedure_id, "succeeded": True, "receipt": served["receipt"]}
    said = consolidated(deployment, run_event("run-1", procedure_feedback=report))
    # Then the report counts: both functions derived the same key from the stack's secret
    assert said == {"procedure_id": procedure_id, "counted": True, "reason": None}
    stored = deployment.container().ports("acme").procedures.get(procedure_id)
    assert stored is not None and (stored.times_applied, stored.times_succeeded) == (1, 1)


def test_on_aws_a_report_never_served_and_a_reused_receipt_count_nothing(
    deployment: Deployment,
) -> None:
    # Given a procedure served once, and that serving's report counted
    procedure_id = validated_procedure(deployment)
    served = bootstrapped(deployment)
    report = {"procedure_id": procedure_id, "succeeded": False, "receipt": served["receipt"]}
    consolidated(deployment, run_event("run-1", procedure_feedback=report))
    # When another run sends the same receipt, and a third sends none
    reused = consolidated(deployment, run_event("run-2", procedure_feedback=report))
    unserved = consolidated(
        deployment,
        run_event("run-3", procedure_feedback={"procedure_id": procedure_id, "succeeded": False}),
    )
    # Then neither counts, each saying why
    assert (reused["reason"], unserved["reason"]) == ("receipt already used", "no receipt")
    stored = deployment.container().ports("acme").procedures.get(procedure_id)
    assert stored is not None and stored.times_applied == 1
