"""The AWS path offline: the Lambda handlers on moto, every AWS call through a real botocore client.

DynamoDB, S3 and SQS are moto's. The services moto lacks or cans are answered on the clients'
own ``before-call`` event (:class:`ServedServices`): Comprehend ``DetectPiiEntities`` (emails
and a list of names, real offsets), Titan ``InvokeModel`` (word-hashing vectors), the KB's
``Retrieve`` over the documents in the bucket, and ingestion jobs. So the real adapters
(``ComprehendPiiDetector``, ``BedrockEmbedder``, ``BedrockKnowledgeBase``) run, and a
:class:`~tests.resilience.helpers_faults.FaultInjector` sees every call the workflow makes.

Tenant DynamoDB clients are wrapped in ``LeadingKeysGuard`` (IAM's ``dynamodb:LeadingKeys``),
and every DynamoDB request runs under one lock: DynamoDB applies a request atomically, moto
does not (see ``tests/integration/aws/moto_dynamodb.py``).

:class:`AwsHarness` runs consolidation three ways: the Lambda handlers driven by
:class:`~tests.resilience.helpers_delivery.StateMachineModel`, the real ASL on moto's Step
Functions (:meth:`AwsHarness.execute`), and the core on the runtime's ports.
"""

from __future__ import annotations

import importlib
import io
import json
import os
import re
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from unittest import mock

import boto3
import numpy as np
from botocore.response import StreamingBody
from moto import mock_aws
from moto.awslambda_simple.models import LambdaSimpleBackend
from moto.stepfunctions.parser.asl.component.common.retry import retrier_decl

from agent_memory.adapters.aws.bedrock_models import TITAN_EMBED_V2, BedrockEmbedder
from agent_memory.core.model import receipts
from agent_memory.core.model.calibration import Calibration
from agent_memory.core.ports import MemoryPorts
from agent_memory.serverless.observability import metrics
from agent_memory.wiring import aws as wiring
from agent_memory.wiring.aws_settings import AwsSettings
from tests.integration.aws.moto_dynamodb import (
    FAKE_CREDENTIALS,
    REGION,
    SerializedClient,
    create_tables,
    tenant_access,
)
from tests.resilience.helpers_delivery import Event, Outcome, StateMachineModel
from tests.resilience.helpers_faults import FaultInjector, ok_response
from tests.support.embedder import HashingEmbedder
from tests.support.lambda_context import LambdaContext
from tests.support.leading_keys import LeadingKeysGuard
from tests.support.moto_workflow import deploy_consolidation, handler_reply, wait_for_execution

DIMENSION = 256
# Retry waits of the state machine and the handlers' timeout (the idempotent steps' 30 s in
# stacks/functions.py, which bounds how long a step's idempotency record stays in progress),
# scaled down together.
TIME_SCALE = 0.05
HANDLER_TIMEOUT_MS = 30_000
HANDLERS = (
    "extract",
    "scrub",
    "write_episode",
    "confirm_facts",
    "stage_kb_docs",
    "propose_procedure",
    "record_failure",
    "ingest",
    "bootstrap",
    "decay",
    "procedure_review",
)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")
_PARAMS = "resilience_params"
# The word-hashing vectors need a lower bar than Titan's calibrated one.
HASHING_TITAN = Calibration(
    model_family="amazon.titan-embed-text-v2",
    episode_min_similarity=0.2,
    fact_min_score=0.2,
    source="tests: word-hashing vectors served as Titan's",
)


class ServedServices:
    """Answers Comprehend, Titan and the Bedrock KB APIs on a client's ``before-call``.

    ``Retrieve`` scores every document in the bucket against the query; with
    ``honour_filter`` False it ignores the request's metadata filter, like a misconfigured
    knowledge base, so only the adapter's own tenant check stands between tenants.
    """

    def __init__(self, s3: Any, bucket: str, *, names: tuple[str, ...] = ("Jane Doe",)) -> None:
        self._s3 = s3
        self._bucket = bucket
        self._names = names
        self._embedder = HashingEmbedder(DIMENSION)
        self.honour_filter = True
        self.jobs: dict[str, dict[str, Any]] = {}
        self.retrieved: list[dict[str, Any]] = []
        self.offered_foreign = 0  # results of a tenant other than the filter's
        self._documents: dict[str, tuple[tuple[str, str], str, dict[str, Any]]] = {}
        self._vectors: dict[str, Any] = {}
        self._lock = threading.Lock()

    def attach(self, client: Any) -> None:
        events = client.meta.events
        events.register("before-parameter-build", _remember_params)
        served: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
            "comprehend.DetectPiiEntities": self._detect_pii,
            "bedrock-runtime.InvokeModel": self._invoke_model,
            "bedrock-agent-runtime.Retrieve": self._retrieve,
            "bedrock-agent.StartIngestionJob": self._start_ingestion,
            "bedrock-agent.GetIngestionJob": self._get_ingestion,
        }
        # On the general event, after the fault injector registered first on it: botocore
        # calls more specific registrations first, which would answer before any fault.
        events.register("before-call", _answering(served))

    def _detect_pii(self, params: dict[str, Any]) -> dict[str, Any]:
        text = params["Text"]
        spans = [(m.start(), m.end(), "EMAIL") for m in _EMAIL.finditer(text)]
        for name in self._names:
            spans += [(m.start(), m.end(), "NAME") for m in re.finditer(re.escape(name), text)]
        return {
            "Entities": [
                {"Score": 0.99, "Type": kind, "BeginOffset": begin, "EndOffset": end}
                for begin, end, kind in spans
            ]
        }

    def _invoke_model(self, params: dict[str, Any]) -> dict[str, Any]:
        request = json.loads(params["body"])
        vector = self._embedder.embed_query(request["inputText"])
        data = json.dumps({"embedding": vector.tolist()}).encode()
        return {
            "body": StreamingBody(io.BytesIO(data), len(data)),
            "contentType": "application/json",
        }

    def _retrieve(self, params: dict[str, Any]) -> dict[str, Any]:
        search = params["retrievalConfiguration"]["vectorSearchConfiguration"]
        with self._lock:
            self.retrieved.append(search.get("filter", {}))
        query = self._embedder.embed_query(params["retrievalQuery"]["text"])
        results = []
        for key, text, metadata in self.documents():
            if self.honour_filter and not _matches(search.get("filter"), metadata):
                continue
            score = float(np.dot(query, self._vector(text)))
            results.append(
                {
                    "content": {"text": text},
                    "score": score,
                    "metadata": metadata,
                    "location": {"s3Location": {"uri": f"s3://{self._bucket}/{key}"}},
                }
            )
        results.sort(key=lambda r: -r["score"])
        results = results[: search["numberOfResults"]]
        asked = _tenant_of(search.get("filter"))
        with self._lock:
            self.offered_foreign += sum(r["metadata"].get("tenant_id") != asked for r in results)
        return {"retrievalResults": results}

    def _vector(self, text: str) -> Any:
        with self._lock:
            if text not in self._vectors:
                self._vectors[text] = self._embedder.embed_query(text)
            return self._vectors[text]

    def documents(self) -> Iterator[tuple[str, str, dict[str, Any]]]:
        """Every KB document in the bucket: (key, text, metadata attributes)."""
        pages = self._s3.get_paginator("list_objects_v2").paginate(Bucket=self._bucket)
        for page in pages:
            tags = {item["Key"]: item["ETag"] for item in page.get("Contents", [])}
            for key, tag in tags.items():
                sidecar = f"{key}.metadata.json"
                if not key.endswith(".txt") or sidecar not in tags:
                    continue
                version = (tag, tags[sidecar])
                with self._lock:
                    cached = self._documents.get(key)
                if cached is None or cached[0] != version:
                    metadata = json.loads(self._read(sidecar))["metadataAttributes"]
                    cached = (version, self._read(key), metadata)
                    with self._lock:
                        self._documents[key] = cached
                yield key, cached[1], cached[2]

    def _read(self, key: str) -> str:
        body = self._s3.get_object(Bucket=self._bucket, Key=key)["Body"]
        return str(body.read().decode("utf-8"))

    def _start_ingestion(self, params: dict[str, Any]) -> dict[str, Any]:
        # The adapter takes 2 s off Bedrock's stamp for clock skew; a stamp 3 s ahead makes the
        # job start after everything already staged, as a job started now would.
        job = {
            "ingestionJobId": uuid.uuid4().hex[:10].upper(),
            "knowledgeBaseId": params["knowledgeBaseId"],
            "dataSourceId": params["dataSourceId"],
            "status": "COMPLETE",
            "startedAt": datetime.now(UTC) + timedelta(seconds=3),
            "updatedAt": datetime.now(UTC),
        }
        with self._lock:
            self.jobs[job["ingestionJobId"]] = job
        return {"ingestionJob": job}

    def _get_ingestion(self, params: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            return {"ingestionJob": self.jobs[params["ingestionJobId"]]}


def _remember_params(params: dict[str, Any], context: dict[str, Any], **_: Any) -> None:
    context[_PARAMS] = dict(params)


def _answering(
    served: dict[str, Callable[[dict[str, Any]], dict[str, Any]]],
) -> Callable[..., Any]:
    def handler(event_name: str, context: dict[str, Any], **_: Any) -> Any:
        answer = served.get(event_name.removeprefix("before-call."))
        return None if answer is None else ok_response(answer(context[_PARAMS]))

    return handler


def _tenant_of(condition: dict[str, Any] | None) -> str | None:
    if not condition:
        return None
    if "andAll" in condition:
        return next((t for c in condition["andAll"] if (t := _tenant_of(c))), None)
    equals = condition["equals"]
    return str(equals["value"]) if equals["key"] == "tenant_id" else None


def _matches(condition: dict[str, Any] | None, metadata: dict[str, Any]) -> bool:
    if not condition:
        return True
    if "andAll" in condition:
        return all(_matches(c, metadata) for c in condition["andAll"])
    equals = condition["equals"]
    return bool(metadata.get(equals["key"]) == equals["value"])


class ResilienceRuntime(wiring.AwsRuntime):
    """The Lambda runtime with served services, faults and LeadingKeys on every client."""

    served: ServedServices
    faults: FaultInjector
    guarded: list[LeadingKeysGuard]
    dynamodb_lock: threading.Lock

    def client(self, service: str, tenant_id: str | None = None) -> Any:
        client = super().client(service, tenant_id)
        self.prepare(client)
        if service != "dynamodb":
            return client
        serialized = SerializedClient(client, self.dynamodb_lock)
        if tenant_id is None:
            return serialized
        guard = LeadingKeysGuard(serialized, tenant_id)
        self.guarded.append(guard)
        return guard

    def prepare(self, client: Any) -> Any:
        """Attach the served services and the fault injector to ``client`` once."""
        if not getattr(client, "_resilience_prepared", False):
            self.served.attach(client)
            self.faults.attach(client)
            client._resilience_prepared = True
        return client


@dataclass
class AwsHarness:
    """The AWS side in moto: runtime, handlers, the state machine and the dead-letter queue."""

    runtime: ResilienceRuntime
    faults: FaultInjector
    served: ServedServices
    sqs: Any
    sfn: Any
    s3: Any
    queue_url: str
    state_machine_arn: str
    time_scale: float

    def handler(self, name: str) -> Callable[[Event], Event]:
        module = importlib.import_module(f"functions.{name}.handler")

        def call(event: Event) -> Event:
            result: Event = module.handler(
                event, LambdaContext(name, int(HANDLER_TIMEOUT_MS * self.time_scale))
            )
            return result

        return call

    def ports(self, tenant_id: str | None) -> MemoryPorts:
        return self.runtime.ports(tenant_id)

    def state_machine(self) -> StateMachineModel:
        """The ASL's retries around the Lambda handlers, dead-lettering to the SQS queue."""

        def call_step(step: str, state: Event) -> Event:
            return self.handler(step)(state)

        def dead_letter(payload: Event) -> None:
            self.sqs.send_message(QueueUrl=self.queue_url, MessageBody=json.dumps(payload))

        return StateMachineModel(
            call_step=call_step,
            record=self.handler("record_failure"),
            dead_letter=dead_letter,
            time_scale=self.time_scale,
        )

    def execute(self, event: Event, *, wait: bool = True) -> str:
        """Start an execution of the real ASL (and wait for it to end); its ARN."""
        arn: str = self.sfn.start_execution(
            stateMachineArn=self.state_machine_arn, name=f"run-{_uid()}", input=json.dumps(event)
        )["executionArn"]
        if wait:
            self.wait(arn)
        return arn

    def wait(self, arn: str, timeout: float = 120.0) -> dict[str, Any]:
        return wait_for_execution(self.sfn, arn, timeout=timeout)

    def history(self, arn: str) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = []
        request = {"executionArn": arn, "maxResults": 1000}
        while True:
            page = self.sfn.get_execution_history(**request)
            events += page["events"]
            if "nextToken" not in page:
                return events
            request["nextToken"] = page["nextToken"]

    def drain_dead_letters(self) -> list[Event]:
        """Receive and delete every message of the dead-letter queue."""
        letters: list[Event] = []
        while True:
            received = self.sqs.receive_message(
                QueueUrl=self.queue_url, MaxNumberOfMessages=10, WaitTimeSeconds=0
            ).get("Messages", [])
            if not received:
                return letters
            for message in received:
                letters.append(json.loads(message["Body"]))
                self.sqs.delete_message(
                    QueueUrl=self.queue_url, ReceiptHandle=message["ReceiptHandle"]
                )

    def replay_dead_letters(
        self,
        run: Callable[[Event], Any],
        letters: list[Event],
        *,
        rounds: int = 30,
        pause: float = 0.0,
        workers: int = 4,
    ) -> tuple[int, list[Event]]:
        """Consolidate each dead letter's event again with ``run``, then whatever was
        dead-lettered meanwhile, until the queue stays empty or ``rounds`` have passed:
        (replays, the letters still waiting). ``pause`` waits before each round, as an
        operator replays later: a step cut short holds its idempotency record in progress for
        the handler's timeout.
        """
        replays = 0
        for _ in range(rounds):
            if not letters:
                break
            if pause:
                time.sleep(pause)
            with ThreadPoolExecutor(max_workers=workers) as pool:
                list(pool.map(run, [self._letter_event(letter) for letter in letters]))
            replays += len(letters)
            letters = self.drain_dead_letters()
        return replays, letters

    def _letter_event(self, letter: Event) -> Event:
        """The run a dead letter is for: the ASL's letter names its execution, whose input
        is the event; the model's carries the event itself."""
        if "event" in letter:
            return dict(letter["event"])
        described = self.sfn.describe_execution(executionArn=letter["execution"])
        return dict(json.loads(described["input"]))

    @property
    def in_progress_expiry(self) -> float:
        """Seconds an interrupted step's idempotency record stays in progress."""
        return HANDLER_TIMEOUT_MS / 1000 * self.time_scale


def _uid() -> str:
    return uuid.uuid4().hex[:16]


@contextmanager
def aws_harness(
    *, fault_rate: float = 0.0, seed: int = 0, time_scale: float = TIME_SCALE
) -> Iterator[AwsHarness]:
    """Tables, bucket, queue, the consolidation state machine and the runtime, in moto.

    Every resource name carries a fresh prefix, so harnesses may nest. The handler modules are
    imported afresh inside (their idempotency layer binds to the runtime at import) and
    forgotten on the way out.
    """
    prefix = f"am{_uid()[:8]}-"
    env = {
        **FAKE_CREDENTIALS,
        "POWERTOOLS_TRACE_DISABLED": "true",
        "POWERTOOLS_METRICS_NAMESPACE": "AgentMemory",
        "POWERTOOLS_SERVICE_NAME": "agent-memory",
    }
    config = {"stepfunctions": {"execute_state_machine": True}, "lambda": {"use_docker": False}}
    faults = FaultInjector(rate=fault_rate, seed=seed, enabled=False)
    with (
        mock.patch.dict(os.environ, env),
        mock_aws(config=config),  # type: ignore[arg-type]
        mock.patch.object(LambdaSimpleBackend, "invoke", _route_to_handlers(time_scale)),
        mock.patch.object(retrier_decl, "time", _ScaledTime(time_scale)),
        _one_container_at_a_time_for_metrics(),
    ):
        dynamodb = boto3.client("dynamodb", region_name=REGION)
        tables = create_tables(dynamodb, prefix)
        dynamodb.create_table(
            TableName=f"{prefix}idempotency",
            KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
            BillingMode="PAY_PER_REQUEST",
        )
        s3 = boto3.client("s3", region_name=REGION)
        s3.create_bucket(Bucket=f"{prefix}kb-docs")
        sqs = boto3.client("sqs", region_name=REGION)
        queue_url = sqs.create_queue(QueueName=f"{prefix}consolidation-dlq")["QueueUrl"]
        sfn, machine = deploy_consolidation(queue_url, prefix=prefix)
        served = ServedServices(s3, f"{prefix}kb-docs")
        session = boto3.Session(region_name=REGION)
        settings = AwsSettings(
            episodes_table=tables["episodes"],
            facts_table=tables["facts"],
            procedures_table=tables["procedures"],
            ledger_table=tables["ledger"],
            idempotency_table=f"{prefix}idempotency",
            kb_bucket=f"{prefix}kb-docs",
            knowledge_base_id="KB12345678",
            kb_data_source_id="DS12345678",
            **tenant_access(tables.values(), f"{prefix}tenant-data"),
        )
        runtime = ResilienceRuntime(
            settings,
            session=session,
            calibrations={HASHING_TITAN.model_family: HASHING_TITAN},
            # Deployed, bootstrap and propose_procedure derive it from the stack's secret; the
            # harness's functions share one runtime, so it is given instead of read.
            receipt_key=receipts.derive_key(b"resilience-harness-secret-0123456"),
        )
        runtime.served, runtime.faults, runtime.guarded = served, faults, []
        runtime.dynamodb_lock = threading.Lock()
        titan = runtime.prepare(session.client("bedrock-runtime"))
        runtime.embedder = BedrockEmbedder(titan, TITAN_EMBED_V2, dimensions=DIMENSION)
        _forget_handlers()
        try:
            with mock.patch.object(wiring, "_current", runtime):
                yield AwsHarness(
                    runtime, faults, served, sqs, sfn, s3, queue_url, machine, time_scale
                )
                faults.enabled = False
                _wait_for_running(sfn, machine)
        finally:
            _forget_handlers()


@contextmanager
def _one_container_at_a_time_for_metrics() -> Iterator[None]:
    """Make the handlers' shared metrics buffer safe for concurrent invocations.

    On AWS each concurrent invocation has its own container; here they are threads of one
    process sharing Powertools' metric set, whose flush (check, serialize, clear) would race
    another's and raise ``SchemaValidationError`` ("Must contain at least one metric").
    """
    provider = metrics.provider
    lock = threading.RLock()

    def locked(method: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            with lock:
                return method(*args, **kwargs)

        return call

    with (
        mock.patch.object(provider, "add_metric", locked(provider.add_metric)),
        mock.patch.object(provider, "flush_metrics", locked(provider.flush_metrics)),
        mock.patch.object(
            provider, "add_cold_start_metric", locked(provider.add_cold_start_metric)
        ),
    ):
        yield


def _forget_handlers() -> None:
    for name in HANDLERS:
        sys.modules.pop(f"functions.{name}.handler", None)


def _route_to_handlers(time_scale: float) -> Callable[..., bytes]:
    """moto's Lambda invoke, calling the in-process handler as the Lambda service would."""

    def invoke(
        self: LambdaSimpleBackend,
        function_name: str,
        qualifier: str | None,
        body: Any,
        headers: Any,
        response_headers: Any,
    ) -> bytes:
        name = function_name.rsplit(":", 1)[-1].split("-", 1)[-1]
        return handler_reply(
            name, body, response_headers, LambdaContext(name, int(HANDLER_TIMEOUT_MS * time_scale))
        )

    return invoke


class _ScaledTime:
    """``time`` for moto's retrier: the ASL's backoff, scaled."""

    def __init__(self, scale: float) -> None:
        self._scale = scale

    def __getattr__(self, name: str) -> Any:
        return getattr(time, name)

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds * self._scale)


def _wait_for_running(sfn: Any, machine: str) -> None:
    for _ in range(500):
        running = sfn.list_executions(stateMachineArn=machine, statusFilter="RUNNING")
        if not running["executions"]:
            return
        time.sleep(0.02)


def outcomes_of(harness: AwsHarness, arns: list[str]) -> list[Outcome]:
    """The end of each execution, as the state machine model reports it."""
    found = []
    for arn in arns:
        described = harness.wait(arn)
        event = json.loads(described["input"])
        detail = event.get("detail", event)
        outcome = Outcome(detail["tenant_id"], detail["run_id"])
        if described["status"] == "SUCCEEDED":
            outcome.state = json.loads(described["output"])
        else:
            outcome.error = _caught_error(harness.history(arn)) or {
                "Error": described.get("error", ""),
                "Cause": described.get("cause", ""),
            }
        found.append(outcome)
    return found


def _caught_error(history: list[dict[str, Any]]) -> dict[str, str] | None:
    """The step error the ASL caught on its way to RecordFailedRun, if it got there."""
    for event in history:
        entered = event.get("stateEnteredEventDetails", {})
        if entered.get("name") == "RecordFailedRun":
            # The Catch hands RecordFailedRun the error alone (ResultPath "$").
            caught: dict[str, str] = json.loads(entered["input"])
            return caught
    return None
