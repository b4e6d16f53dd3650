"""The cost model: what each measurement's units cost under the stack's settings, per run, per
bootstrap, per month, and per setting a deployer may change.

Where nothing offline can measure a quantity (an AWS call's time on AWS, how long Lambda keeps
an idle container, a chat model's reply), the model states what it assumes
(:data:`ASSUMPTIONS`, :data:`CALL_SECONDS`); the report prints them beside the figures.
"""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from benchmarks import aws_metering
from benchmarks.aws_metering import Invocation, tokens, units_of
from benchmarks.aws_prices import CHAT_MODELS, PRICES
from benchmarks.aws_runs import SIZES, RunSize, run_event
from benchmarks.aws_scenarios import KB_PREFIX, Measured, Scenarios, Stack

# Lambda gives a function CPU in proportion to its memory: one full vCPU at 1,769 MB
# (https://docs.aws.amazon.com/lambda/latest/dg/configuration-memory.html).
FULL_VCPU_MB = 1769
# Time an AWS call takes on AWS, which moto's in-process answers do not: assumed medians in
# one Region (DynamoDB's single-digit milliseconds; S3's first byte; a model's inference).
CALL_SECONDS = {
    "dynamodb": 0.006,
    "s3": 0.025,
    "comprehend": 0.15,
    "bedrock-runtime": 0.08,
    "bedrock-agent-runtime": 0.2,
    "bedrock-agent": 0.1,
    "sts": 0.03,
    "secretsmanager": 0.02,
    "sqs": 0.01,
}
# What the model assumes where nothing here can measure it.
ASSUMPTIONS = {
    "lambda_platform_log_bytes": 350,  # START, END and REPORT lines of one invocation
    "lambda_platform_log_events": 3,
    "sfn_log_event_bytes": 400,  # one history event logged at level ALL, without state data
    "container_idle_minutes": 7,  # how long Lambda keeps an idle container (not documented)
    "express_overhead_seconds_per_state": 0.02,
    "chat_first_token_seconds": 0.6,
    "chat_output_tokens_per_second": 120.0,
    # A chat model's token is shorter than Titan's: about 3.5 characters of English (Anthropic's
    # figure for Claude), fewer in code and logs.
    "chat_chars_per_token": 3.5,
    "bootstraps_per_run": 1,
    "agentcore_records_per_run": 4,  # facts and a summary a built-in strategy extracts
    "agentcore_retrievals_per_bootstrap": 1,
    "vector_bytes": 1024 * 4 + 600,  # Titan v2 at 1,024 float32 dimensions, with metadata
}
DAYS = 30
WINDOWS_A_MONTH = DAYS * 24 * 12  # the ingestion schedule's rate(5 minutes)
RATES = (1_000, 10_000, 100_000)


# --- pricing -----------------------------------------------------------------------------------

SERVICE_OF = {
    "lambda": "Lambda",
    "sfn": "Step Functions",
    "dynamodb": "DynamoDB",
    "s3": "S3",
    "s3vectors": "S3 Vectors",
    "comprehend": "Comprehend",
    "bedrock": "Bedrock models",
    "logs": "CloudWatch Logs",
    "cloudwatch": "CloudWatch",
    "xray": "X-Ray",
    "eventbridge": "EventBridge",
    "scheduler": "EventBridge Scheduler",
    "sqs": "SQS",
    "kms": "KMS",
    "secrets": "Secrets Manager",
}


@dataclass(frozen=True, slots=True)
class Choices:
    """The settings the cost model prices a measurement under."""

    memory_mb: dict[str, int]
    workflow: str = "STANDARD"
    tracing: bool = True
    reranker: bool = False
    log_class: str = "standard"


def waited_seconds(invocation: Invocation) -> float:
    """Time the invocation waits on AWS calls: its own thread's calls one after another, and
    a worker pool's (the embedder's) side by side, as long as the busiest worker's.
    """
    own: float = 0.0
    workers: defaultdict[int, float] = defaultdict(float)
    for call in invocation.calls:
        seconds = CALL_SECONDS.get(call.service, 0.02)
        if call.thread == invocation.thread:
            own += seconds
        else:
            workers[call.thread] += seconds
    return own + max(workers.values(), default=0.0)


def billed_seconds(invocation: Invocation, memory_mb: int, init: float = 0.0) -> float:
    """Lambda duration billed for ``invocation`` at ``memory_mb``: its own CPU time, slowed to
    the share of a vCPU that memory buys, plus each AWS call's time on AWS, plus INIT when
    cold; rounded up to the millisecond.
    """
    scale = max(1.0, FULL_VCPU_MB / memory_mb)
    own = max(0.0, invocation.seconds - invocation.seconds_in_calls)
    waited = waited_seconds(invocation)
    return math.ceil(round(((own + init) * scale + waited) * 1000, 6)) / 1000


def units(
    m: Measured, choices: Choices, *, inits: dict[str, float] | None = None
) -> dict[str, float]:
    """Billable units of a measurement, by price key, under ``choices``."""
    used: defaultdict[str, float] = defaultdict(float)
    inits = inits or {}
    for call in m.calls:
        for key, quantity in units_of(call).items():
            used[key] += quantity
    for invocation in m.invocations:
        memory = choices.memory_mb.get(invocation.function, 512)
        seconds = billed_seconds(invocation, memory, inits.get(invocation.function, 0.0))
        used["lambda.requests"] += 1
        used["lambda.arm_duration"] += seconds * memory / 1024
        log_bytes = (
            invocation.log_bytes
            + aws_metering.LOG_EVENT_OVERHEAD * invocation.log_events
            + ASSUMPTIONS["lambda_platform_log_bytes"]
            + aws_metering.LOG_EVENT_OVERHEAD * ASSUMPTIONS["lambda_platform_log_events"]
        )
        key = "logs.ingestion" if choices.log_class == "standard" else "logs.ingestion_infrequent"
        used[key] += log_bytes / 1e9
        used["logs.bytes"] += log_bytes
    if m.executions:
        used["logs.ingestion"] += m.history_events * ASSUMPTIONS["sfn_log_event_bytes"] / 1e9
        used["logs.bytes"] += m.history_events * ASSUMPTIONS["sfn_log_event_bytes"]
        if choices.workflow == "STANDARD":
            used["sfn.standard_transitions"] += m.transitions
        else:
            task_seconds = sum(
                billed_seconds(i, choices.memory_mb.get(i.function, 512)) for i in m.invocations
            )
            seconds = (
                task_seconds + m.transitions * ASSUMPTIONS["express_overhead_seconds_per_state"]
            )
            used["sfn.express_requests"] += m.executions
            # Billed in 100 ms units of 64 MB; a workflow of this size needs the first 64 MB.
            used["sfn.express_duration"] += math.ceil(seconds * 10) / 10 * 64 / 1024
    traced = m.executions or sum(1 for i in m.invocations)
    if choices.tracing:
        used["xray.traces_recorded"] += traced
    if m.events_put:
        used["eventbridge.custom_events"] += m.events_put * max(
            1, math.ceil(m.event_bytes / m.events_put / 65_536)
        )
        used["eventbridge.archive_ingest"] += m.event_bytes / 1e9
    if choices.reranker:
        used["bedrock.cohere_rerank"] += sum(1 for i in m.invocations if i.function == "bootstrap")
    return used


def price(used: Mapping[str, float]) -> dict[str, float]:
    """Dollars by service for ``used`` units."""
    dollars: defaultdict[str, float] = defaultdict(float)
    for key, quantity in used.items():
        if key in PRICES:
            dollars[SERVICE_OF[key.split(".", 1)[0]]] += PRICES[key].of(quantity)
    return dict(dollars)


# --- the run as an extraction model would read it -----------------------------------------------


def extraction_tokens(size: RunSize) -> tuple[int, int]:
    """Input and output tokens of the LLM extraction of a run of ``size``: the product's prompt
    and its transcript of the run (what the extract step sends), and a reply holding the run's
    artifacts as JSON (what the agent distilled, in the shape the prompt asks for).
    """
    from agent_memory.core.api.contracts import parse_run_finished
    from agent_memory.core.tiers.working_memory import transcript
    from agent_memory.core.workflows.extraction import EXTRACTION_PROMPT

    event = run_event(size, 0)
    run = parse_run_finished(event)
    sent = EXTRACTION_PROMPT + transcript(run.messages)
    reply = json.dumps(event["artifacts"], indent=2)
    per_token = float(ASSUMPTIONS["chat_chars_per_token"])
    return math.ceil(len(sent) / per_token), math.ceil(len(reply) / per_token)


def chat_cost(model_id: str, size: RunSize, extract_memory_mb: int) -> dict[str, float]:
    """Dollars of one LLM extraction of a run of ``size`` by ``model_id``: its tokens, and the
    extract function waiting for the reply.
    """
    [model] = [m for m in CHAT_MODELS if m.model_id == model_id]
    sent, received = extraction_tokens(size)
    wait = ASSUMPTIONS["chat_first_token_seconds"] + received / float(
        ASSUMPTIONS["chat_output_tokens_per_second"]
    )
    waiting = PRICES["lambda.arm_duration"].of(wait * extract_memory_mb / 1024)
    return {
        "input_tokens": sent,
        "output_tokens": received,
        "usd": model.of(sent, received) + waiting,
        "tokens_usd": model.of(sent, received),
        "lambda_wait_usd": waiting,
    }


def kb_ingestion_units(m: Measured, documents_in_prefix: int) -> dict[str, float]:
    """What Bedrock's ingestion of the documents ``m`` wrote costs us: Titan embeds each new
    document, S3 Vectors stores its vector, and the data source reads the document and its
    sidecar and lists the prefix (requests billed to the bucket's owner).
    """
    used: defaultdict[str, float] = defaultdict(float)
    for call in m.calls:
        key = str(call.params.get("Key", ""))
        if call.service == "s3" and call.operation == "PutObject" and key.startswith(KB_PREFIX):
            if key.endswith(".metadata.json"):
                used["s3.tier2_requests"] += 1
                continue
            body = call.params.get("Body", b"")
            text = body.decode() if isinstance(body, bytes) else str(body)
            used["bedrock.titan_embed_v2"] += tokens(text)
            used["s3.tier2_requests"] += 1
            used["s3vectors.put"] += ASSUMPTIONS["vector_bytes"] / 1e9
    used["s3.tier1_requests"] += max(1, math.ceil(2 * documents_in_prefix / 1000))
    return used


# --- the model ---------------------------------------------------------------------------------


def per_one(m: Measured, choices: Choices, inits: dict[str, float] | None = None) -> dict[str, Any]:
    """Dollars by service for one of what ``m`` measured, and the units behind them."""
    used = units(m, choices, inits=inits)
    dollars = price(used)
    return {
        "usd": sum(dollars.values()) / m.count,
        "by_service": {k: v / m.count for k, v in sorted(dollars.items(), key=lambda i: -i[1])},
        "units": {k: v / m.count for k, v in sorted(used.items())},
        "api_calls": dict(
            Counter(f"{c.service}:{c.operation}" for c in m.calls if c.function).most_common()
        ),
        "lambda_invocations": len(m.invocations) / m.count,
        "lambda_billed_seconds": sum(
            billed_seconds(i, choices.memory_mb.get(i.function, 512)) for i in m.invocations
        )
        / m.count,
        "comprehend_characters": sum(
            len(c.params.get("Text", "")) for c in m.calls if c.service == "comprehend"
        )
        / m.count,
        "log_bytes": used.get("logs.bytes", 0) / m.count,
        "state_transitions": m.transitions / m.count,
    }


def cold_fraction(invocations_a_day: float) -> float:
    """The share of invocations that find no warm container, for arrivals spread evenly
    (Poisson) and containers kept ``container_idle_minutes`` after their last use.
    """
    per_minute = invocations_a_day / (24 * 60)
    return math.exp(-per_minute * float(ASSUMPTIONS["container_idle_minutes"]))


def metric_months(*published: tuple[float, Measured]) -> float:
    """Custom metric-months: CloudWatch bills a metric for each hour it is published in, so
    each distinct metric counts for the share of the month's hours it is published in
    (``published``: that share, and the measurements whose metrics it holds for).
    """
    shares: dict[str, float] = {}
    for share, m in published:
        for invocation in m.invocations:
            for metric in invocation.metrics:
                shares[metric] = max(shares.get(metric, 0.0), share)
    return sum(shares.values())


# The decay pass runs once a night: its metrics are published in one hour of 24.
DECAY_HOURS_SHARE = 1 / 24


def fixed_month(stack: Stack, metric_months: float) -> dict[str, float]:
    """What the stack costs a month besides its invocations: alarms, dashboards, keys,
    secrets, and the custom metrics its functions publish.
    """
    return {
        "CloudWatch alarms": PRICES["cloudwatch.alarm_metric"].of(stack.alarm_metrics),
        "CloudWatch dashboards": PRICES["cloudwatch.dashboard"].of(stack.dashboards),
        "CloudWatch custom metrics": PRICES["cloudwatch.custom_metric"].of(metric_months),
        "KMS keys": PRICES["kms.key"].of(stack.kms_keys),
        "Secrets Manager secrets": PRICES["secrets.secret"].of(stack.secrets),
    }


def init_usd(function: str, choices: Choices, inits: dict[str, float]) -> float:
    """What a cold container's INIT of ``function`` costs, at its memory's share of a vCPU."""
    memory = choices.memory_mb.get(function, 512)
    seconds = inits.get(function, 0.0) * max(1.0, FULL_VCPU_MB / memory)
    return PRICES["lambda.arm_duration"].of(seconds * memory / 1024)


def month(
    s: Scenarios, stack: Stack, choices: Choices, inits: dict[str, float], runs_a_day: float
) -> dict[str, Any]:
    """A month at ``runs_a_day`` typical runs, each preceded by a bootstrap."""
    runs = runs_a_day * DAYS
    bootstraps = runs * float(ASSUMPTIONS["bootstraps_per_run"])
    run = per_one(s.runs["typical"], choices)["usd"]
    cold = cold_fraction(runs_a_day)
    # A cold container of each function a run invokes pays its INIT.
    run_cold_extra = sum(
        init_usd(f, choices, inits) for f in {i.function for i in s.runs["typical"].invocations}
    )
    boot_warm = per_one(s.bootstrap_warm, choices)["usd"]
    boot_cold = per_one(s.bootstrap_cold, choices, inits)["usd"]
    window_idle = per_one(s.ingest_idle, choices)["usd"]
    window_extra = max(0.0, per_one(s.ingest_window, choices)["usd"] - window_idle)
    ingestion_per_run = window_extra / s.runs_stored
    kb = price(kb_ingestion_units(s.runs["typical"], s.stored.get("kb_documents", 0)))
    kb_per_run = sum(kb.values()) / s.runs["typical"].count
    decay_idle = per_one(s.decay_idle, choices)["usd"]
    # What grows with memory in a pass is DynamoDB's reading of it (the gauges Scan every
    # episode and fact): priced per stored run, not the pass's Lambda time (noise at this size).
    grown = per_one(s.decay_pass, choices)["by_service"].get("DynamoDB", 0.0) - per_one(
        s.decay_idle, choices
    )["by_service"].get("DynamoDB", 0.0)
    decay_per_episode = max(0.0, grown) / s.episodes_stored
    average_episodes = runs / 2
    per_run_bytes = {k: v / s.runs_stored for k, v in s.stored.items()}
    logs_per_run = (
        per_one(s.runs["typical"], choices)["log_bytes"]
        + per_one(s.bootstrap_warm, choices)["log_bytes"]
    )
    # An hour with a run publishes the runs' metrics (arrivals spread evenly).
    busy = 1 - math.exp(-runs_a_day / 24)
    metrics = metric_months(
        *(
            (busy, m)
            for m in (*s.runs.values(), s.bootstrap_cold, s.bootstrap_warm, s.ingest_window)
        ),
        (1.0, s.ingest_idle),
        (DECAY_HOURS_SHARE, s.decay_pass),
    )
    lines = {
        "consolidation": runs * (run + cold * run_cold_extra),
        "bootstrap": bootstraps * (cold * boot_cold + (1 - cold) * boot_warm),
        "ingestion windows": WINDOWS_A_MONTH * window_idle
        + runs * (ingestion_per_run + kb_per_run),
        "decay passes": DAYS * (decay_idle + decay_per_episode * average_episodes),
        "storage (month-one average)": storage_month(per_run_bytes, logs_per_run, runs),
        **fixed_month(stack, metrics),
    }
    agentcore = agentcore_month(runs_a_day)
    return {
        "runs_a_day": runs_a_day,
        "usd": sum(lines.values()),
        "lines": lines,
        "cold_fraction": cold,
        "agentcore_usd": sum(agentcore.values()),
        "agentcore": agentcore,
    }


def storage_month(per_run: dict[str, float], log_bytes_per_run: float, runs: float) -> float:
    """What a month's runs hold, on average over the month (half of what it ends with):
    DynamoDB's tables with their indexes and continuous backups (of the tables), the KB's
    documents and their vectors, and the month's logs.
    """
    gb = runs / 2 / 1e9
    tables = per_run.get("dynamodb", 0.0)
    vectors = per_run.get("kb_documents", 0.0) * float(ASSUMPTIONS["vector_bytes"])
    return (
        PRICES["dynamodb.storage"].of((tables + per_run.get("dynamodb_indexes", 0.0)) * gb)
        + PRICES["dynamodb.pitr"].of(tables * gb)
        + PRICES["s3.storage"].of(per_run.get("s3", 0.0) * gb)
        + PRICES["s3vectors.storage"].of(vectors * gb)
        + PRICES["logs.storage"].of(log_bytes_per_run * gb)
    )


def agentcore_run(size: RunSize) -> dict[str, float]:
    """What AgentCore Memory charges for one run: its messages as short-term events, the
    long-term records its strategies extract (stored a month), and one retrieval.
    """
    records = float(ASSUMPTIONS["agentcore_records_per_run"])
    return {
        "events": PRICES["agentcore.short_term_events"].of(size.messages),
        "records_stored_a_month": PRICES["agentcore.long_term_records"].of(records),
        "retrieval": PRICES["agentcore.retrievals"].of(
            float(ASSUMPTIONS["agentcore_retrievals_per_bootstrap"])
        ),
    }


def agentcore_month(runs_a_day: float) -> dict[str, float]:
    runs = runs_a_day * DAYS
    typical = next(s for s in SIZES if s.name == "typical")
    records = runs * float(ASSUMPTIONS["agentcore_records_per_run"])
    return {
        "short-term events": PRICES["agentcore.short_term_events"].of(runs * typical.messages),
        "long-term records (month-one average)": PRICES["agentcore.long_term_records"].of(
            records / 2
        ),
        "retrievals": PRICES["agentcore.retrievals"].of(
            runs * float(ASSUMPTIONS["agentcore_retrievals_per_bootstrap"])
        ),
    }


def idle_month(
    s: Scenarios, stack: Stack, choices: Choices, inits: dict[str, float]
) -> dict[str, float]:
    """A month with no runs: the schedules' invocations (each ingestion window and decay pass
    finding nothing; a container per window, cold when the last is gone) and what the stack
    costs standing.
    """
    # A window every 5 minutes finds the last one's container (kept longer than that).
    window_cold = 0.0 if float(ASSUMPTIONS["container_idle_minutes"]) > 5 else 1.0
    window = per_one(s.ingest_idle, choices)["usd"]
    window_init = init_usd("ingest", choices, inits)
    decay = per_one(s.decay_idle, choices, inits)["usd"]
    idle_metrics = metric_months((1.0, s.ingest_idle), (DECAY_HOURS_SHARE, s.decay_idle))
    return {
        "ingestion windows": WINDOWS_A_MONTH * (window + window_cold * window_init),
        "decay passes": DAYS * decay,
        **fixed_month(stack, idle_metrics),
    }


# --- the choices -------------------------------------------------------------------------------


def choice_table(
    scenarios: dict[str, Scenarios], stack: Stack, base: Choices, inits: dict[str, float]
) -> list[dict[str, Any]]:
    """What each setting costs: a typical run (or bootstrap) and a month at 10,000 runs a day,
    under the default with that one setting changed.
    """
    default = scenarios["local"]
    rows: list[dict[str, Any]] = []

    def row(setting: str, value: str, run_usd: float, month_usd: float, note: str = "") -> None:
        rows.append(
            {
                "setting": setting,
                "value": value,
                "typical_run_usd": run_usd,
                "month_10k_usd": month_usd,
                "note": note,
            }
        )

    rate = 10_000
    base_month = month(default, stack, base, inits, rate)["usd"]
    run = per_one(default.runs["typical"], base)["usd"]
    for name, s in scenarios.items():
        r = per_one(s.runs["typical"], base)["usd"]
        b = per_one(s.bootstrap_warm, base)["usd"]
        row(
            "piiDetector",
            name,
            r,
            month(s, stack, base, inits, rate)["usd"],
            f"a warm bootstrap ${b:.6f}",
        )
    for workflow in ("STANDARD", "EXPRESS"):
        c = replace(base, workflow=workflow)
        row(
            "workflow type",
            workflow,
            per_one(default.runs["typical"], c)["usd"],
            month(default, stack, c, inits, rate)["usd"],
            "Express: 5 minutes at most, no status-change events for the unfinished-run rule"
            if workflow == "EXPRESS"
            else "",
        )
    typical = next(x for x in SIZES if x.name == "typical")
    row("chatModelId", "(none: the agent's artifacts, or deterministic)", run, base_month)
    for model in CHAT_MODELS:
        chat = chat_cost(model.model_id, typical, base.memory_mb.get("extract", 512))
        row(
            "chatModelId",
            model.model_id,
            run + chat["usd"],
            base_month + rate * DAYS * chat["usd"],
            f"{chat['input_tokens']:,} tokens in, {chat['output_tokens']:,} out",
        )
    for memory in (256, 512, 1024, 1769):
        sizes = {
            f: (memory if f not in ("bootstrap", "decay", "reembed") else m)
            for f, m in base.memory_mb.items()
        }
        c = replace(base, memory_mb=sizes)
        row(
            "consolidation functions' memory",
            f"{memory} MB",
            per_one(default.runs["typical"], c)["usd"],
            month(default, stack, c, inits, rate)["usd"],
        )
    for memory in (512, 1024, 1769):
        c = replace(base, memory_mb={**base.memory_mb, "bootstrap": memory})
        row(
            "bootstrap memory",
            f"{memory} MB",
            run,
            month(default, stack, c, inits, rate)["usd"],
            f"a warm bootstrap ${per_one(default.bootstrap_warm, c)['usd']:.6f}",
        )
    # Each level's runs differ from INFO's in their logs only (the same runs, side by side):
    # the default's figures plus that difference, not the runs' timing noise.
    levels = {level: per_one(m, base) for level, m in default.log_levels.items()}
    for level, per in levels.items():
        logs = per["by_service"].get("CloudWatch Logs", 0.0)
        extra = logs - levels["INFO"]["by_service"].get("CloudWatch Logs", 0.0)
        row(
            "logLevel",
            level,
            run + extra,
            base_month + rate * DAYS * extra,
            f"{per['log_bytes']:,.0f} log bytes a run",
        )
    logs_month = (
        rate
        * DAYS
        * (
            per_one(default.runs["typical"], base)["log_bytes"]
            + per_one(default.bootstrap_warm, base)["log_bytes"]
        )
    )
    for days in (7, 30, 365):
        stored = logs_month * min(days, DAYS) / DAYS if days <= DAYS else logs_month * days / DAYS
        row(
            "log retention",
            f"{days} days",
            run,
            base_month + PRICES["logs.storage"].of((stored - logs_month / 2) / 1e9),
            f"{stored / 1e9:.1f} GB stored at steady state",
        )
    for tracing in (True, False):
        c = replace(base, tracing=tracing)
        row(
            "tracing",
            "on" if tracing else "off",
            per_one(default.runs["typical"], c)["usd"],
            month(default, stack, c, inits, rate)["usd"],
        )
    c = replace(base, reranker=True)
    row(
        "rerankModelArn",
        "Cohere Rerank 3.5",
        run,
        month(default, stack, c, inits, rate)["usd"],
        f"a warm bootstrap ${per_one(default.bootstrap_warm, c)['usd']:.6f}",
    )
    return rows
