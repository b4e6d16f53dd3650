"""The AWS path on moto, metered: the stack as synthesized, the harness, what each scenario used.

The harness is the resilience suite's (``tests/resilience/helpers_aws.py``): DynamoDB, S3, SQS
and Step Functions are moto's, the real ASL runs with the Lambda handlers as its tasks, and the
model fakes of ``tests/support`` answer Comprehend, Titan and the knowledge base on real boto3
clients. Nothing here imports Powertools at module level: the cost benchmark routes stdout
through its meter before the handlers are first imported.
"""

from __future__ import annotations

import datetime as dt
import importlib
import json
import os
import subprocess
import sys
import tempfile
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from unittest import mock

from moto.awslambda_simple.models import LambdaSimpleBackend

from benchmarks.aws_metering import ApiCall, Invocation, Meter, projected
from benchmarks.aws_prices import REGION
from benchmarks.aws_runs import SIZES, RunSize, bootstrap_request, run_event

ROOT = Path(__file__).resolve().parents[1]
KB_PREFIX = "tenants/"
PSEUDONYM_KEY = b"cost-model-pseudonym-key-0123456789abcdef"
PSEUDONYM_SECRET_ARN = f"arn:aws:secretsmanager:{REGION}:123456789012:secret:pseudonym-key-AbCdEf"


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# --- the stack as synthesized ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Stack:
    """What the template of one configuration says the cost model needs."""

    context: dict[str, str]
    memory_mb: dict[str, int]
    alarm_metrics: int
    dashboards: int
    kms_keys: int
    secrets: int
    log_retention_days: dict[str, int]
    workflow_type: str
    tracing: bool
    comprehend_granted: bool


def synthesize(context: dict[str, str]) -> Stack:
    """Synthesize the stack offline under ``context`` (cdk.json's, overridden) and read it."""
    from app import STACK_NAME, cdk_json_context, use_local_node

    use_local_node()
    import aws_cdk as cdk
    from aws_cdk.assertions import Template

    from stacks.functions import SPECS
    from stacks.memory_stack import MemoryStack

    with tempfile.TemporaryDirectory() as layer, tempfile.TemporaryDirectory() as out:
        app = cdk.App(
            context={**cdk_json_context(), "layerPath": layer, **context},
            outdir=out,
            builtin_cloud_formation_validation=False,
        )
        stack = MemoryStack(app, STACK_NAME)
        resources = Template.from_stack(stack).to_json()["Resources"]
    by_type: dict[str, list[dict[str, Any]]] = {}
    for resource in resources.values():
        by_type.setdefault(resource["Type"], []).append(resource.get("Properties", {}))
    functions = by_type.get("AWS::Lambda::Function", [])
    memory = {}
    for spec in SPECS:
        [props] = [f for f in functions if f.get("Description") == spec.description]
        memory[spec.name] = int(props.get("MemorySize", 128))
    alarm_metrics = sum(
        len([m for m in a.get("Metrics", []) if "MetricStat" in m]) or 1
        for a in by_type.get("AWS::CloudWatch::Alarm", [])
    )
    [machine] = by_type["AWS::StepFunctions::StateMachine"]
    policies = json.dumps(by_type.get("AWS::IAM::Policy", []))
    return Stack(
        context=context,
        memory_mb=memory,
        alarm_metrics=alarm_metrics,
        dashboards=len(by_type.get("AWS::CloudWatch::Dashboard", [])),
        kms_keys=len(by_type.get("AWS::KMS::Key", [])),
        secrets=len(by_type.get("AWS::SecretsManager::Secret", [])),
        log_retention_days={
            str(i): int(g.get("RetentionInDays", 0))
            for i, g in enumerate(by_type.get("AWS::Logs::LogGroup", []))
        },
        workflow_type=str(machine.get("StateMachineType", "STANDARD")),
        tracing=bool(machine.get("TracingConfiguration", {}).get("Enabled")),
        comprehend_granted="comprehend:DetectPiiEntities" in policies,
    )


# --- the harness -------------------------------------------------------------------------------


@dataclass
class Harness:
    """The AWS path on moto, metered."""

    aws: Any
    meter: Meter
    pii_detector: str
    executions: list[str] = field(default_factory=list)

    def consolidate(self, detail: dict[str, Any]) -> list[dict[str, Any]]:
        """One RunFinished through the real workflow; its execution history."""
        envelope = {
            "version": "0",
            "id": str(uuid.uuid4()),
            "detail-type": "RunFinished",
            "source": "agent-memory.cost-model",
            "account": "123456789012",
            "time": dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "region": REGION,
            "resources": [],
            "detail": detail,
        }
        arn = self.aws.execute(envelope)
        described = self.aws.wait(arn)
        if described["status"] != "SUCCEEDED":
            raise RuntimeError(f"consolidation ended {described['status']}")
        return list(self.aws.history(arn))

    def call(self, function: str, event: dict[str, Any]) -> Any:
        """Invoke ``functions/<function>/handler.py`` as Lambda would, metered."""
        from tests.support.lambda_context import LambdaContext

        module = importlib.import_module(f"functions.{function}.handler")
        return self.meter.invoke(function, lambda: module.handler(event, LambdaContext(function)))

    def new_container(self) -> None:
        """A new container's runtime: no clients, detectors or agents' indexes yet (the
        deployment's settings and keys, and the harness's fakes, as before).
        """
        from agent_memory.wiring import aws as wiring

        old = self.aws.runtime
        fresh = type(old)(
            old.settings,
            session=old.session,
            embedder=old.embedder,
            calibrations=old.calibrations,
            pseudonym_key=old.pseudonym_key,
            receipt_key=old.receipt_key,
            prepare_client=old.prepare_client,
            dynamodb_lock=old.dynamodb_lock,
        )
        self.aws.runtime = fresh
        wiring._current = fresh


@contextmanager
def harness(pii_detector: str) -> Iterator[Harness]:
    """The resilience suite's AWS harness (moto, the fakes, the real ASL), every call and
    invocation metered, the embedder at the stack's 1,024 dimensions.
    """
    from agent_memory.adapters.aws.bedrock_models import BedrockEmbedder
    from agent_memory.serverless.observability import route_package_logs
    from agent_memory.wiring import aws as wiring
    from agent_memory.wiring.detectors import PiiDetectorChoice
    from tests.resilience.helpers_aws import aws_harness
    from tests.support.moto_workflow import route_to_handlers

    meter = Meter()
    # In a function, the package's log records go out as JSON lines (observability's import
    # does this where AWS_LAMBDA_FUNCTION_NAME is set): they are billed log bytes too.
    route_package_logs()

    with (
        aws_harness() as aws,
        meter.recording(),
        mock.patch.object(LambdaSimpleBackend, "invoke", route_to_handlers(around=meter.invoke)),
    ):
        runtime = aws.runtime
        choice = PiiDetectorChoice.parse(pii_detector, field="pii_detector")
        runtime.settings = replace(
            runtime.settings, pii_detector=choice, pseudonym_secret_arn=PSEUDONYM_SECRET_ARN
        )
        # Deployed, the scrubbing functions read the stack's secret (once a container) as this
        # key: names become pseudonyms, and bootstrap scrubs its query into the same form.
        runtime.pseudonym_key = PSEUDONYM_KEY
        titan = runtime.prepare(runtime.session.client("bedrock-runtime"))
        runtime.embedder = BedrockEmbedder(titan)
        assert wiring._current is runtime
        yield Harness(aws, meter, pii_detector)


# --- measuring ---------------------------------------------------------------------------------


@dataclass
class Measured:
    """What one scenario used."""

    name: str
    calls: list[ApiCall]
    invocations: list[Invocation]
    transitions: int = 0
    history_events: int = 0
    executions: int = 0
    events_put: int = 0
    event_bytes: int = 0
    count: int = 1  # how many of the thing (runs, bootstraps) the records hold


def transitions_of(history: list[dict[str, Any]]) -> int:
    """State transitions Step Functions bills: each state entered
    (https://docs.aws.amazon.com/step-functions/latest/dg/concepts-transitions.html).
    """
    return sum(1 for e in history if str(e["type"]).endswith("StateEntered"))


def measure_runs(h: Harness, size: RunSize, numbers: range) -> Measured:
    mark = h.meter.mark()
    transitions = events = put = put_bytes = 0
    for number in numbers:
        detail = run_event(size, number)
        history = h.consolidate(detail)
        transitions += transitions_of(history)
        events += len(history)
        put += 1
        put_bytes += len(json.dumps(detail).encode())
    calls, invocations = h.meter.since(mark)
    return Measured(
        f"run:{size.name}",
        calls,
        invocations,
        transitions=transitions,
        history_events=events,
        executions=len(numbers),
        events_put=put,
        event_bytes=put_bytes,
        count=len(numbers),
    )


def measure(h: Harness, name: str, action: Callable[[], Any], count: int = 1) -> Measured:
    mark = h.meter.mark()
    for _ in range(count):
        action()
    calls, invocations = h.meter.since(mark)
    return Measured(name, calls, invocations, count=count)


def init_seconds(function: str, *, scrubs: bool) -> float:
    """A cold container's INIT: the handler's import in a fresh process (and, for a function
    that scrubs, building the PII detectors, which its first call does).
    """
    code = (
        "import time, sys\n"
        "t = time.perf_counter()\n"
        f"import functions.{function}.handler\n"
        + (
            "from agent_memory.wiring.detectors import every_detector\n"
            "every_detector().detect('Jane Doe wrote to jane.doe@example.com')\n"
            if scrubs
            else ""
        )
        + "print(time.perf_counter() - t)\n"
    )
    env = {
        **os.environ,
        "PYTHONPATH": f"{ROOT / 'src'}{os.pathsep}{ROOT}",
        "AWS_DEFAULT_REGION": REGION,
        "POWERTOOLS_TRACE_DISABLED": "true",
    }
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    return float(out.stdout.strip().splitlines()[-1])


# --- storage -----------------------------------------------------------------------------------


def stored_bytes(h: Harness) -> dict[str, int]:
    """What memory holds now: DynamoDB's tables and the copies their indexes keep (each item
    with its 100 bytes of overhead), and the KB's documents in S3 (bytes, and how many).
    """
    from agent_memory.adapters.aws.dynamodb_codec import item_size

    aws = h.aws
    settings = aws.runtime.settings
    total: Counter[str] = Counter()  # bytes and counts: whole numbers
    with h.meter.paused():
        dynamodb = aws.runtime.session.client("dynamodb")
        for name in (
            settings.episodes_table,
            settings.facts_table,
            settings.procedures_table,
            settings.ledger_table,
        ):
            table = dynamodb.describe_table(TableName=name)["Table"]
            indexes = table.get("GlobalSecondaryIndexes", [])
            for page in dynamodb.get_paginator("scan").paginate(TableName=name):
                for item in page["Items"]:
                    total["dynamodb"] += item_size(item) + 100
                    for index in indexes:
                        copy = projected(index, table, item)
                        total["dynamodb_indexes"] += item_size(copy) + 100 if copy else 0
        documents = 0
        for page in aws.s3.get_paginator("list_objects_v2").paginate(Bucket=settings.kb_bucket):
            for obj in page.get("Contents", []):
                total["s3"] += int(obj["Size"])
                documents += 0 if obj["Key"].endswith(".metadata.json") else 1
        total["kb_documents"] = documents
    return dict(total)


# --- the scenarios -----------------------------------------------------------------------------


@dataclass
class Scenarios:
    """Every measurement of one PII-detector configuration."""

    pii_detector: str
    runs: dict[str, Measured]
    first_run: Measured
    bootstrap_cold: Measured
    bootstrap_warm: Measured
    ingest_idle: Measured
    ingest_window: Measured
    decay_idle: Measured
    decay_pass: Measured
    stored: dict[str, int]
    runs_stored: int
    episodes_stored: int
    log_levels: dict[str, Measured] = field(default_factory=dict)


@contextmanager
def log_level(level: str) -> Iterator[None]:
    """The functions' log level (their Powertools logger and the package's loggers) set to
    ``level`` meanwhile, then back to INFO, the stack's default.
    """
    import logging

    from agent_memory.serverless.observability import PACKAGE_LOGGER, logger

    for target in (logger, logging.getLogger(PACKAGE_LOGGER)):
        target.setLevel(level)
    try:
        yield
    finally:
        for target in (logger, logging.getLogger(PACKAGE_LOGGER)):
            target.setLevel("INFO")


def run_scenarios(pii_detector: str, *, per_size: int, log_levels: bool) -> Scenarios:
    with harness(pii_detector) as h:
        log(f"[{pii_detector}] idle decay pass and ingestion window")
        decay_idle = measure(h, "decay:idle", lambda: h.call("decay", {}))
        ingest_idle = measure(h, "ingest:idle", lambda: h.call("ingest", {}))
        log(f"[{pii_detector}] a first run (every function's first call)")
        first = measure_runs(h, SIZES[1], range(1000, 1001))
        # Facts confirm when three agents have seen them: warm memory up to a steady state.
        for number in range(1001, 1001 + 6):
            h.consolidate(run_event(SIZES[0], number))
        runs: dict[str, Measured] = {}
        number = 0
        for size in SIZES:
            log(f"[{pii_detector}] {per_size} {size.name} runs")
            runs[size.name] = measure_runs(h, size, range(number, number + per_size))
            number += per_size
        ran = 1 + 6 + number
        with h.meter.paused():
            documents = sum(
                1
                for page in h.aws.s3.get_paginator("list_objects_v2").paginate(
                    Bucket=h.aws.runtime.settings.kb_bucket
                )
                for obj in page.get("Contents", [])
                if not obj["Key"].endswith(".metadata.json")
            )
        log(f"[{pii_detector}] ingestion window ({documents} KB documents)")
        window = measure(h, "ingest:window", lambda: h.call("ingest", {}))
        log(f"[{pii_detector}] bootstraps")
        h.new_container()
        cold = measure(h, "bootstrap:cold", lambda: h.call("bootstrap", bootstrap_request(0)))
        counter = iter(range(1, 1000))
        warm = measure(
            h,
            "bootstrap:warm",
            lambda: h.call("bootstrap", bootstrap_request(next(counter))),
            count=max(3, per_size),
        )
        log(f"[{pii_detector}] decay pass over {ran} runs")
        decay_pass = measure(h, "decay:pass", lambda: h.call("decay", {}))
        stored = stored_bytes(h)
        levels: dict[str, Measured] = {}
        if log_levels:
            # The same runs at each level, as POWERTOOLS_LOG_LEVEL sets it: the functions'
            # logger and the package's loggers routed through it.
            for level in ("DEBUG", "INFO", "WARNING"):
                log(f"[{pii_detector}] typical runs at log level {level}")
                with log_level(level):
                    levels[level] = measure_runs(h, SIZES[1], range(number, number + 2))
                number += 2
        return Scenarios(
            pii_detector,
            runs,
            first,
            cold,
            warm,
            ingest_idle,
            window,
            decay_idle,
            decay_pass,
            stored,
            runs_stored=ran,
            episodes_stored=ran,
            log_levels=levels,
        )
