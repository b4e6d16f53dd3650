"""The AWS path offline: the Lambda handlers on moto, every AWS call through a real botocore client.

DynamoDB, S3 and SQS are moto's. The services moto lacks or cans are answered on the clients'
own ``before-call`` event by the shared fakes of ``tests/support`` (:class:`ServedServices`):
Comprehend ``DetectPiiEntities`` (emails and a list of names, real offsets), Titan
``InvokeModel`` (word-hashing vectors), the KB's ``Retrieve`` over the documents in the bucket,
and ingestion jobs. The harness deploys ``piiDetector=comprehend``, so the real adapters
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
import json
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from unittest import mock

import boto3
from moto.stepfunctions.parser.asl.component.common.retry import retrier_decl

from agent_memory.adapters.aws.bedrock_models import TITAN_EMBED_V2, BedrockEmbedder
from agent_memory.core.model import receipts
from agent_memory.core.model.calibration import Calibration
from agent_memory.core.ports import MemoryPorts
from agent_memory.serverless.observability import metrics
from agent_memory.wiring import aws as wiring
from agent_memory.wiring.aws_settings import AwsSettings
from agent_memory.wiring.detectors import PiiDetectorChoice
from tests.integration.aws.moto_dynamodb import (
    REGION,
    create_tables,
    tenant_access,
)
from tests.resilience.helpers_delivery import Event, Outcome, StateMachineModel
from tests.resilience.helpers_faults import FaultInjector
from tests.support.botocore_answers import answer
from tests.support.embedder import HashingEmbedder
from tests.support.fake_bedrock_kb import FakeBedrockKnowledgeBase
from tests.support.fake_comprehend import MAX_TEXT_BYTES, detect_pii_entities
from tests.support.fake_titan import invoke_model
from tests.support.fakes import FakePiiDetector
from tests.support.guarded_runtime import GuardedRuntime
from tests.support.lambda_context import LambdaContext
from tests.support.moto_workflow import (
    deploy_consolidation,
    moto_with_handlers,
    start_execution,
    wait_for_execution,
    wait_until_none_running,
)

DIMENSION = 256
# Retry waits of the state machine, scaled down.
TIME_SCALE = 0.05
KB_ID, DS_ID = "KB12345678", "DS12345678"
# The word-hashing vectors need a lower bar than Titan's calibrated one.
HASHING_TITAN = Calibration(
    model_family="amazon.titan-embed-text-v2",
    episode_min_similarity=0.2,
    fact_min_score=0.2,
    source="tests: word-hashing vectors served as Titan's",
)


class ServedServices:
    """Answers Comprehend, Titan and the Bedrock KB APIs on a client's ``before-call``.

    Through the shared fakes of ``tests/support``: Comprehend finds what ``FakePiiDetector``
    finds (emails and ``names``, in any text Comprehend takes in one request), Titan embeds as
    ``fake_titan`` does, and the KB is ``fake_bedrock_kb``'s, instant (its jobs finish as they
    start, its index is the bucket as it is). With ``honour_filter`` False the KB ignores the
    request's metadata filter, like a misconfigured knowledge base, so only the adapter's own
    tenant check stands between tenants.
    """

    def __init__(self, s3: Any, bucket: str, *, names: tuple[str, ...] = ("Jane Doe",)) -> None:
        self.kb = FakeBedrockKnowledgeBase(
            s3,
            bucket=bucket,
            knowledge_base_id=KB_ID,
            data_source_id=DS_ID,
            embedder=HashingEmbedder(DIMENSION),
            instant=True,
        )
        recogniser = FakePiiDetector(names, max_chunk_chars=MAX_TEXT_BYTES)
        self._detect_pii = detect_pii_entities(recogniser)
        self._invoke_model = invoke_model()

    @property
    def honour_filter(self) -> bool:
        return self.kb.honour_filter

    @honour_filter.setter
    def honour_filter(self, honour: bool) -> None:
        self.kb.honour_filter = honour

    @property
    def offered_foreign(self) -> int:
        """Results the KB offered of a tenant other than the filter's."""
        return self.kb.offered_foreign

    def documents(self) -> Iterator[tuple[str, str, dict[str, Any]]]:
        """Every KB document in the bucket: (key, text, metadata attributes)."""
        return self.kb.documents()

    def attach(self, client: Any) -> None:
        """Answer the served services' calls on ``client`` (any other client is left as it
        is). The answers sit on the general ``before-call``, after the fault injector, which
        registers first on it (``tests.support.botocore_answers.answer``).
        """
        service = client.meta.service_model.service_name
        if service == "comprehend":
            answer(client, "DetectPiiEntities", self._detect_pii)
        elif service == "bedrock-runtime":
            answer(client, "InvokeModel", self._invoke_model)
        else:
            self.kb.serve_on(client)


def _prepare(served: ServedServices, faults: FaultInjector) -> Callable[[Any], None]:
    """Attach the served services and the fault injector to a client."""

    def prepare(client: Any) -> None:
        served.attach(client)
        faults.attach(client)

    return prepare


@dataclass
class AwsHarness:
    """The AWS side in moto: runtime, handlers, the state machine and the dead-letter queue."""

    runtime: GuardedRuntime
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
            result: Event = module.handler(event, LambdaContext(name))
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
        arn = start_execution(self.sfn, self.state_machine_arn, event)
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
        workers: int = 4,
    ) -> tuple[int, list[Event]]:
        """Consolidate each dead letter's event again with ``run``, then whatever was
        dead-lettered meanwhile, until the queue stays empty or ``rounds`` have passed:
        (replays, the letters still waiting).
        """
        replays = 0
        for _ in range(rounds):
            if not letters:
                break
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


def _uid() -> str:
    return uuid.uuid4().hex[:16]


@contextmanager
def aws_harness(
    *, fault_rate: float = 0.0, seed: int = 0, time_scale: float = TIME_SCALE
) -> Iterator[AwsHarness]:
    """Tables, bucket, queue, the consolidation state machine and the runtime, in moto.

    Every resource name carries a fresh prefix, so harnesses may nest.
    """
    prefix = f"am{_uid()[:8]}-"
    faults = FaultInjector(rate=fault_rate, seed=seed, enabled=False)
    with (
        moto_with_handlers(),
        mock.patch.object(retrier_decl, "time", _ScaledTime(time_scale)),
        _one_container_at_a_time_for_metrics(),
    ):
        dynamodb = boto3.client("dynamodb", region_name=REGION)
        tables = create_tables(dynamodb, prefix)
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
            kb_bucket=f"{prefix}kb-docs",
            knowledge_base_id=KB_ID,
            kb_data_source_id=DS_ID,
            **tenant_access(tables.values(), f"{prefix}tenant-data"),
            # Comprehend beside the local detectors: its calls are among those faults hit.
            pii_detector=PiiDetectorChoice.COMPREHEND,
        )
        runtime = GuardedRuntime(
            settings,
            session=session,
            calibrations={HASHING_TITAN.model_family: HASHING_TITAN},
            # Deployed, bootstrap and propose_procedure derive it from the stack's secret; the
            # harness's functions share one runtime, so it is given instead of read.
            receipt_key=receipts.derive_key(b"resilience-harness-secret-0123456"),
            prepare_client=_prepare(served, faults),
            dynamodb_lock=threading.Lock(),
        )
        titan = runtime.prepare(session.client("bedrock-runtime"))
        runtime.embedder = BedrockEmbedder(titan, TITAN_EMBED_V2, dimensions=DIMENSION)
        with mock.patch.object(wiring, "_current", runtime):
            yield AwsHarness(runtime, faults, served, sqs, sfn, s3, queue_url, machine, time_scale)
            faults.enabled = False
            wait_until_none_running(sfn, machine)


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


class _ScaledTime:
    """``time`` for moto's retrier: the ASL's backoff, scaled."""

    def __init__(self, scale: float) -> None:
        self._scale = scale

    def __getattr__(self, name: str) -> Any:
        return getattr(time, name)

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds * self._scale)


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
