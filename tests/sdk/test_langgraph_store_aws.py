"""AgentMemoryStore over a deployed stack (on moto): items written by the real consolidation
state machine, read and forgotten through the stack's episodes function.

The stack's outputs name a moto bus, the bootstrap and episodes functions (their invocations
run the in-process handlers of ``functions/``) and the consolidation state machine of
``statemachines/``, whose tasks run the handlers too. The bus's rule delivers RunFinished
events to a queue; a forwarder thread starts an execution for each, as the rule's Step
Functions target does on AWS. So a put returns only once the state machine has written its
episode, however long that takes. The last test shows the waits between reads, behind Stubbers.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from unittest import mock

import boto3
import pytest
from botocore.stub import ANY

from agent_memory.integrations import langgraph_store
from agent_memory.integrations.langgraph_store import AgentMemoryStore
from agent_memory.sdk import MemoryClient
from agent_memory.wiring import aws as wiring
from agent_memory.wiring.aws_settings import AwsSettings
from tests.integration.aws.moto_dynamodb import (
    REGION,
    create_tables,
    tenant_access,
)
from tests.sdk.conftest import EPISODES_FUNCTION, StubbedAws, accepted, invoke_reply
from tests.support.embedder import HashingEmbedder
from tests.support.fake_bedrock_kb import FakeBedrockKnowledgeBase
from tests.support.fakes import FakePiiDetector
from tests.support.guarded_runtime import GuardedRuntime
from tests.support.memory import HASHING_CALIBRATION
from tests.support.moto_workflow import (
    _placeholder_zip,
    deploy_consolidation,
    moto_with_handlers,
    start_execution,
    wait_until_none_running,
)

STACK = "agent-memory-store"
BUS = "agent-memory-bus"
BUCKET = "agent-memory-kb-docs"
KB_ID, DS_ID = "KB12345678", "DS12345678"
ACCOUNT = "123456789012"
# Far more than a consolidation on moto takes; a put returns as soon as its episode is there.
PUT_TIMEOUT = 120.0


class Forwarder:
    """The rule's Step Functions target: each event on the bus starts an execution."""

    def __init__(self, sqs: Any, queue_url: str, sfn: Any, machine: str) -> None:
        self.sqs, self.queue_url, self.sfn, self.machine = sqs, queue_url, sfn, machine
        self.running = threading.Event()
        self.running.set()
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._forward, daemon=True)

    def _forward(self) -> None:
        while not self.stopped.is_set():
            if not self.running.wait(timeout=0.05):
                continue
            received = self.sqs.receive_message(
                QueueUrl=self.queue_url, MaxNumberOfMessages=10, WaitTimeSeconds=0
            )
            for message in received.get("Messages", []):
                event = json.loads(message["Body"])
                # moto's delivery leaves out the envelope's account, which EventBridge sets.
                event.setdefault("account", ACCOUNT)
                start_execution(self.sfn, self.machine, event)
                self.sqs.delete_message(
                    QueueUrl=self.queue_url, ReceiptHandle=message["ReceiptHandle"]
                )
            self.stopped.wait(0.02)


@dataclass
class Deployed:
    memory: MemoryClient
    forwarder: Forwarder


@pytest.fixture(scope="module")
def deployed() -> Iterator[Deployed]:
    with moto_with_handlers():
        dynamodb = boto3.client("dynamodb", region_name=REGION)
        tables = create_tables(dynamodb)
        s3 = boto3.client("s3", region_name=REGION)
        s3.create_bucket(Bucket=BUCKET)
        sqs = boto3.client("sqs", region_name=REGION)
        dead_letters = sqs.create_queue(QueueName="consolidation-dlq")["QueueUrl"]
        sfn, machine = deploy_consolidation(dead_letters)
        settings = AwsSettings(
            episodes_table=tables["episodes"],
            facts_table=tables["facts"],
            procedures_table=tables["procedures"],
            ledger_table=tables["ledger"],
            kb_bucket=BUCKET,
            knowledge_base_id=KB_ID,
            kb_data_source_id=DS_ID,
            **tenant_access(tables.values()),
        )
        kb = FakeBedrockKnowledgeBase(
            s3,
            bucket=BUCKET,
            knowledge_base_id=KB_ID,
            data_source_id=DS_ID,
            embedder=HashingEmbedder(),
        )
        runtime = GuardedRuntime(
            settings,
            session=boto3.Session(region_name=REGION),
            embedder=HashingEmbedder(),
            pii=FakePiiDetector(),
            calibrations={"test-hashing": HASHING_CALIBRATION},
            prepare_client=kb.serve_on,
        )
        bus_events = sqs.create_queue(QueueName="bus-events")["QueueUrl"]
        _deploy(sqs, bus_events)
        forwarder = Forwarder(sqs, bus_events, sfn, machine)
        with mock.patch.object(wiring, "_current", runtime):
            forwarder.thread.start()
            memory = MemoryClient.aws_from_stack(STACK, region=REGION)
            yield Deployed(memory, forwarder)
            forwarder.stopped.set()
            forwarder.thread.join()
            wait_until_none_running(sfn, machine, poll=0.05)


def _deploy(sqs: Any, queue_url: str) -> None:
    """The bus (its events copied to a queue), the functions, and the stack's outputs."""
    events = boto3.client("events", region_name=REGION)
    events.create_event_bus(Name=BUS)
    runs = json.dumps({"detail-type": ["RunFinished"]})
    events.put_rule(Name="runs", EventBusName=BUS, EventPattern=runs)
    queue_arn = sqs.get_queue_attributes(QueueUrl=queue_url, AttributeNames=["QueueArn"])[
        "Attributes"
    ]["QueueArn"]
    events.put_targets(Rule="runs", EventBusName=BUS, Targets=[{"Id": "q", "Arn": queue_arn}])
    role = boto3.client("iam", region_name=REGION).create_role(
        RoleName="functions", AssumeRolePolicyDocument="{}"
    )["Role"]["Arn"]
    awslambda = boto3.client("lambda", region_name=REGION)
    outputs = {"EventBusName": BUS}
    for output, function in (
        ("BootstrapFunctionName", "bootstrap"),
        ("EpisodesFunctionName", "episodes"),
    ):
        outputs[output] = awslambda.create_function(
            FunctionName=f"stack-{function}",
            Runtime="python3.12",
            Role=role,
            Handler="handler.handler",
            Code={"ZipFile": _placeholder_zip()},
        )["FunctionName"]
    template = {
        "Resources": {"Marker": {"Type": "AWS::SQS::Queue"}},
        "Outputs": {key: {"Value": value} for key, value in outputs.items()},
    }
    boto3.client("cloudformation", region_name=REGION).create_stack(
        StackName=STACK, TemplateBody=json.dumps(template)
    )


def test_an_item_put_is_read_replaced_and_deleted_on_the_stack(deployed: Deployed) -> None:
    store = AgentMemoryStore(deployed.memory, "acme", timeout=PUT_TIMEOUT)
    namespace = ("memories", "u42")
    # Given an item put (its episode written by the state machine before put returns)
    store.put(namespace, "editor", {"content": "Prefers dark mode in the editor"})
    # Then it is read back at once, and found by the product's retrieval
    item = store.get(namespace, "editor")
    assert item is not None and item.value == {"content": "Prefers dark mode in the editor"}
    hits = store.search(namespace, query="dark mode in the editor")
    assert [h.key for h in hits] == ["editor"]
    assert store.list_namespaces() == [namespace]
    # When it is put again with another value (the run forgotten, reported again)
    store.put(namespace, "editor", {"content": "Prefers light mode since March"})
    # Then the new value is the one read back, keeping the key's creation time
    replaced = store.get(namespace, "editor")
    assert replaced is not None and replaced.value == {"content": "Prefers light mode since March"}
    assert replaced.created_at == item.created_at
    # When it is deleted, then it is gone
    store.delete(namespace, "editor")
    assert store.get(namespace, "editor") is None


def test_a_query_ranks_every_item_on_the_stack(deployed: Deployed) -> None:
    store = AgentMemoryStore(deployed.memory, "acme", timeout=PUT_TIMEOUT)
    namespace = ("memories", "u7")
    key = str(uuid.uuid4())
    # Given four items, one under a UUID key as LangMem's tools make them
    store.put(namespace, key, {"content": "User prefers dark mode"})
    for i in range(3):
        store.put(namespace, f"n{i}", {"content": f"Note {i} about the Friday deploy"})
    # When they are asked for in words none of them holds, up to ten
    hits = store.search(namespace, query="editor theme", limit=10)
    # Then all four come back, best first, under their keys as put
    assert sorted(h.key for h in hits) == sorted([key, "n0", "n1", "n2"])
    scores = [h.score for h in hits]
    assert None not in scores and scores == sorted(scores, key=lambda s: -(s or 0.0))
    # And a page of them is that slice of the ranking
    page = store.search(namespace, query="editor theme", limit=2, offset=1)
    assert [h.key for h in page] == [h.key for h in hits][1:3]


def test_another_tenants_store_sees_nothing(deployed: Deployed) -> None:
    # Given an item of acme's
    acme = AgentMemoryStore(deployed.memory, "acme", timeout=PUT_TIMEOUT)
    acme.put(("notes",), "cap", {"content": "Liability caps below 1x fees are a red flag"})
    # When globex's store reads the same namespace and key, and searches it
    globex = AgentMemoryStore(deployed.memory, "globex", timeout=PUT_TIMEOUT)
    # Then it finds nothing
    assert globex.get(("notes",), "cap") is None
    assert globex.search(("notes",), query="liability caps") == []
    assert globex.list_namespaces() == []
    assert acme.get(("notes",), "cap") is not None


def test_a_put_whose_episode_is_never_written_times_out(deployed: Deployed) -> None:
    # Given a stack whose consolidation is held up (the forwarder paused)
    store = AgentMemoryStore(deployed.memory, "acme", timeout=0.3, poll_interval=0.05)
    deployed.forwarder.running.clear()
    try:
        # When an item is put, then the put gives up after its timeout, saying why
        with pytest.raises(TimeoutError, match="was not written within"):
            store.put(("held",), "k1", {"content": "Waits for consolidation"})
        assert store.get(("held",), "k1") is None
    finally:
        deployed.forwarder.running.set()
    # And once consolidation runs again, a put returns with its item written
    waiting = AgentMemoryStore(deployed.memory, "acme", timeout=PUT_TIMEOUT)
    waiting.put(("held",), "k2", {"content": "Written once consolidation runs"})
    assert waiting.get(("held",), "k2") is not None


def test_a_put_reads_its_episode_back_with_doubling_waits(
    aws: StubbedAws, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a stack (behind Stubbers) whose episode appears at the third read after the put
    waits: list[float] = []
    monkeypatch.setattr(langgraph_store.time, "sleep", waits.append)
    function = {"FunctionName": EPISODES_FUNCTION, "InvocationType": ANY, "Payload": ANY}
    aws.lambda_.add_response("invoke", invoke_reply({"episode": None}), function)
    aws.events.add_response("put_events", accepted(), {"Entries": ANY})
    for reply in ({"episode": None}, {"episode": None}, {"episode": {"run_id": "k-editor"}}):
        aws.lambda_.add_response("invoke", invoke_reply(reply), function)
    store = AgentMemoryStore(aws.client, "acme", poll_interval=0.1)
    # When an item is put
    store.put(("memories",), "editor", {"content": "Prefers dark mode"})
    # Then it waited before each read, twice as long each time, and stopped once it was there
    assert waits == [0.1, 0.2, 0.4]
