"""Fixtures of the SDK tests: a local client on fake models, AWS clients behind Stubbers."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import boto3
import pytest
from botocore.response import StreamingBody
from botocore.stub import Stubber

from agent_memory.core.model.policies import EpisodicPolicy, Policies, SemanticPolicy
from agent_memory.core.ports import MemoryPorts
from agent_memory.sdk import MemoryClient, RetryPolicy
from agent_memory.wiring.local import local_ports
from agent_memory.wiring.local_settings import LocalSettings
from tests.support.embedder import HashingEmbedder
from tests.support.fakes import FakePiiDetector

REGION = "us-east-1"
BUS = "agent-memory"
BOOTSTRAP_FUNCTION = "agent-memory-bootstrap"
REVIEW_FUNCTION = "agent-memory-procedure-review"
EPISODES_FUNCTION = "agent-memory-episodes"
# The hashing embedder has no calibration: thresholds suited to word-overlap vectors.
TEST_POLICIES = Policies(
    episodic=EpisodicPolicy(min_similarity=0.2), semantic=SemanticPolicy(min_score=0.2)
)


def run_event(run_id: str, **overrides: Any) -> dict[str, Any]:
    """A RunFinished detail of the contract reviewer of tenant acme."""
    event: dict[str, Any] = {
        "tenant_id": "acme",
        "agent_id": "reviewer",
        "run_id": run_id,
        "task": "Review the Northwind MSA liability cap",
        "task_type": "contract_review",
        "domain": "contracts",
        "outcome": "COMPLETED",
        "artifacts": {
            "key_findings": ["Clause 7.3 caps liability at 0.5x annual fees"],
            "procedure": {"title": "MSA review", "steps": ["Read clause 7.3", "Compare the cap"]},
        },
    }
    event.update(overrides)
    return event


@dataclass
class LocalMemory:
    """A local client on fake models, and a way to look at its store directly."""

    client: MemoryClient
    store: Path
    pii: FakePiiDetector

    def ports(self) -> MemoryPorts:
        """The store, opened independently of the client."""
        return local_ports(
            LocalSettings(store=self.store), embedder=HashingEmbedder(), pii=FakePiiDetector()
        )


def make_local(store: Path, **options: Any) -> LocalMemory:
    pii = options.pop("pii", FakePiiDetector())
    policies = options.pop("policies", TEST_POLICIES)
    client = MemoryClient.local(
        store, embedder=HashingEmbedder(), pii=pii, policies=policies, **options
    )
    return LocalMemory(client, store, pii)


@pytest.fixture
def local(tmp_path: Path) -> Iterator[LocalMemory]:
    memory = make_local(tmp_path / "store")
    yield memory
    memory.client.close()


@pytest.fixture
def memory(local: LocalMemory) -> LocalMemory:
    """The same local client as ``local``, under the name the store and bounds tests use."""
    return local


@dataclass
class StubbedAws:
    """An AWS-mode client whose EventBridge and Lambda calls are answered by Stubbers."""

    client: MemoryClient
    events: Stubber
    lambda_: Stubber
    sleeps: list[float] = field(default_factory=list)


def boto_client(service: str) -> Any:
    return boto3.client(
        service,
        region_name=REGION,
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )


@pytest.fixture
def aws() -> Iterator[StubbedAws]:
    events, lambda_ = boto_client("events"), boto_client("lambda")
    sleeps: list[float] = []
    client = MemoryClient.aws(
        event_bus_name=BUS,
        bootstrap_function_name=BOOTSTRAP_FUNCTION,
        procedure_review_function_name=REVIEW_FUNCTION,
        episodes_function_name=EPISODES_FUNCTION,
        events_client=events,
        lambda_client=lambda_,
        # Jitter pinned to its maximum, so the backoff itself is visible.
        retry=RetryPolicy(max_attempts=3, base_delay=0.1, sleep=sleeps.append, jitter=lambda: 1.0),
    )
    with Stubber(events) as events_stub, Stubber(lambda_) as lambda_stub:
        yield StubbedAws(client, events_stub, lambda_stub, sleeps)
        events_stub.assert_no_pending_responses()
        lambda_stub.assert_no_pending_responses()


def invoke_reply(payload: object, *, function_error: str | None = None) -> dict[str, Any]:
    """A Lambda ``invoke`` response carrying ``payload`` as JSON."""
    body = json.dumps(payload).encode()
    reply: dict[str, Any] = {
        "StatusCode": 200,
        "Payload": StreamingBody(io.BytesIO(body), len(body)),
    }
    if function_error:
        reply["FunctionError"] = function_error
    return reply


def accepted(event_id: str = "evt-1") -> dict[str, Any]:
    """A PutEvents response accepting the one entry."""
    return {"FailedEntryCount": 0, "Entries": [{"EventId": event_id}]}


def failed_entry(code: str, message: str = "try again") -> dict[str, Any]:
    """A PutEvents response whose one entry failed with ``code``."""
    return {"FailedEntryCount": 1, "Entries": [{"ErrorCode": code, "ErrorMessage": message}]}
