"""What agent-memory costs on AWS: every billable unit of the AWS path, counted offline, priced.

The consolidation workflow (the real ASL on moto's Step Functions, its tasks the Lambda
handlers), bootstrap, the ingestion window and the decay pass run on moto with the model
fakes answering on real boto3 clients (``tests/support``), as the workflow suite runs them.
:mod:`benchmarks.aws_metering` counts what each uses: API calls by type, characters sent to
Comprehend, tokens sent to Titan, DynamoDB request units from item sizes (indexes included),
S3 requests and bytes, state transitions, Lambda time and log bytes, the metrics written.
:mod:`benchmarks.aws_prices` prices them (dated, with sources). The stack's own settings
(function memory, log retention, alarms, schedules, the state machine's type and tracing)
are read from the template ``cdk synth`` makes of the configuration measured.

Reported: cost per consolidated run (small, typical, large), per bootstrap (cold and warm
container), per ingestion window, per decay pass, an idle month, and months at 1,000, 10,000
and 100,000 runs a day, beside Amazon Bedrock AgentCore Memory's prices for the same runs;
then what each setting costs (PII detector, workflow type, extraction model, Lambda memory,
log level and retention, tracing, reranker). From the repository root::

    .venv/bin/python benchmarks/aws_cost.py --out benchmarks/results/aws_cost.json

writes the JSON and a Markdown table beside it (``aws_cost.md``); a few minutes on 2 cores.
``--quick`` measures one run of each size (a smoke test). Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if __package__ in {None, ""}:  # run as a script: make ``tests`` and ``benchmarks`` importable
    sys.path.insert(0, str(ROOT))

os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")
os.environ.setdefault("CDK_DISABLE_VERSION_CHECK", "1")
os.environ.setdefault("AWS_EC2_METADATA_DISABLED", "true")

from benchmarks import aws_metering  # noqa: E402
from benchmarks.aws_cost_model import (  # noqa: E402
    ASSUMPTIONS,
    CALL_SECONDS,
    FULL_VCPU_MB,
    RATES,
    Choices,
    agentcore_run,
    choice_table,
    idle_month,
    kb_ingestion_units,
    month,
    per_one,
    price,
)
from benchmarks.aws_prices import CHAT_MODELS, PRICED_ON, PRICES, REGION  # noqa: E402
from benchmarks.aws_runs import SIZES  # noqa: E402
from benchmarks.aws_scenarios import init_seconds, log, run_scenarios, synthesize  # noqa: E402
from benchmarks.results_file import write_results  # noqa: E402

# --- the report --------------------------------------------------------------------------------

TARGETS = {"typical_run_usd": 0.002, "bootstrap_usd": 0.0001, "idle_month_usd": 5.0}


def report(args: argparse.Namespace) -> dict[str, Any]:
    per_size = 1 if args.quick else args.runs
    log("synthesizing the stack (default, and with Comprehend)")
    stacks = {"local": synthesize({}), "comprehend": synthesize({"piiDetector": "comprehend"})}
    stack = stacks["local"]
    log("timing each function's INIT in a fresh process")
    from stacks.functions import SPECS

    inits = {
        spec.name: statistics.median(
            init_seconds(spec.name, scrubs=spec.scrubs_pii) for _ in range(1 if args.quick else 3)
        )
        for spec in SPECS
        if spec.name not in ("reembed", "episodes", "procedure_review", "record_failure")
    }
    scenarios = {
        detector: run_scenarios(
            detector, per_size=per_size, log_levels=detector == "local" and not args.quick
        )
        for detector in ("local", "comprehend")
    }
    base = Choices(
        memory_mb=stack.memory_mb,
        workflow=stack.workflow_type,
        tracing=stack.tracing,
        reranker=bool(stack.context.get("rerankModelArn")),
    )
    out: dict[str, Any] = {"configurations": {}}
    for detector, s in scenarios.items():
        st = stacks[detector]
        c = replace(base, memory_mb=st.memory_mb)
        runs = {
            size.name: {
                **per_one(s.runs[size.name], c),
                "messages": size.messages,
                "transcript_bytes": size.transcript_bytes,
                "agentcore": agentcore_run(size),
            }
            for size in SIZES
        }
        idle = idle_month(s, st, c, inits)
        out["configurations"][detector] = {
            "stack": {
                "alarm_metrics": st.alarm_metrics,
                "dashboards": st.dashboards,
                "kms_keys": st.kms_keys,
                "secrets": st.secrets,
                "workflow_type": st.workflow_type,
                "tracing": st.tracing,
                "memory_mb": st.memory_mb,
                "comprehend_granted": st.comprehend_granted,
            },
            "runs": runs,
            "first_run": per_one(s.first_run, c, inits),
            "bootstrap": {
                "cold": per_one(s.bootstrap_cold, c, inits),
                "warm": per_one(s.bootstrap_warm, c),
            },
            "ingestion": {
                "idle_window": per_one(s.ingest_idle, c),
                "window": per_one(s.ingest_window, c),
                "window_runs": s.runs_stored,
                "kb_per_typical_run": price(
                    kb_ingestion_units(s.runs["typical"], s.stored.get("kb_documents", 0))
                ),
            },
            "decay": {
                "idle": per_one(s.decay_idle, c),
                "pass": per_one(s.decay_pass, c),
                "runs_stored": s.runs_stored,
            },
            "stored_bytes_per_run": {k: v / s.runs_stored for k, v in s.stored.items()},
            "idle_month": {"usd": sum(idle.values()), "lines": idle},
            "months": [month(s, st, c, inits, rate) for rate in RATES],
        }
    out["choices"] = choice_table(scenarios, stack, base, inits)
    default = out["configurations"]["local"]
    out["targets"] = {
        "typical_run_usd": {
            "target": TARGETS["typical_run_usd"],
            "measured": default["runs"]["typical"]["usd"],
        },
        "bootstrap_warm_usd": {
            "target": TARGETS["bootstrap_usd"],
            "measured": default["bootstrap"]["warm"]["usd"],
        },
        "bootstrap_cold_usd": {
            "target": TARGETS["bootstrap_usd"],
            "measured": default["bootstrap"]["cold"]["usd"],
        },
        "idle_month_usd": {
            "target": TARGETS["idle_month_usd"],
            "measured": default["idle_month"]["usd"],
        },
    }
    out["init_seconds"] = inits
    out["assumptions"] = {**ASSUMPTIONS, "call_seconds": CALL_SECONDS, "full_vcpu_mb": FULL_VCPU_MB}
    out["prices"] = {
        "priced_on": PRICED_ON,
        "region": REGION,
        "services": {
            k: {"usd": p.usd, "per": p.per, "unit": p.unit, "source": p.source}
            for k, p in PRICES.items()
        },
        "chat_models": [
            {
                "model_id": m.model_id,
                "input_per_million": m.input_per_million,
                "output_per_million": m.output_per_million,
                "source": m.source,
            }
            for m in CHAT_MODELS
        ],
    }
    out["quick"] = args.quick
    out["runs_per_size"] = per_size
    out["machine"] = {"python": platform.python_version(), "cpus": os.cpu_count()}
    return out


def usd(value: float) -> str:
    """Dollars as the report prints them: six decimals under a cent."""
    if value == 0:
        return "$0"
    if value < 0.01:
        return f"${value:.6f}"
    return f"${value:,.2f}"


def listed(lines: dict[str, float]) -> str:
    """``name $x, name $y`` for the non-zero lines."""
    return ", ".join(f"{name} {usd(value)}" for name, value in lines.items() if value > 0)


def table(header: list[str], rows: list[list[str]]) -> list[str]:
    """A Markdown table."""
    return [
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
        *("| " + " | ".join(row) + " |" for row in rows),
    ]


def run_section(d: dict[str, Any], c: dict[str, Any]) -> list[str]:
    rows = []
    for name, run in d["runs"].items():
        a = run["agentcore"]
        rows.append(
            [
                name,
                f"{run['messages']}, {run['transcript_bytes'] // 1000} KB",
                usd(run["usd"]),
                usd(c["runs"][name]["usd"]),
                usd(a["events"]),
                usd(a["records_stored_a_month"]),
                usd(a["retrieval"]),
            ]
        )
    t = d["runs"]["typical"]
    return [
        "## Per run, beside AgentCore Memory",
        "",
        *table(
            [
                "run",
                "messages, transcript",
                "agent-memory (default)",
                "with Comprehend",
                "AgentCore: events",
                "+ records stored a month",
                "+ a retrieval",
            ],
            rows,
        ),
        "",
        f"A typical run by service (default): {listed(t['by_service'])}. It makes "
        f"{t['lambda_invocations']:.0f} Lambda invocations ({t['lambda_billed_seconds']:.2f} s "
        f"billed), {t['state_transitions']:.0f} state transitions and {t['log_bytes']:,.0f} log "
        f"bytes; with Comprehend, {c['runs']['typical']['comprehend_characters']:,.0f} "
        "characters are sent to it.",
        "",
    ]


def once_section(d: dict[str, Any], c: dict[str, Any]) -> list[str]:
    one_retrieval = usd(PRICES["agentcore.retrievals"].of(1))
    rows = [
        [
            "bootstrap, warm container",
            usd(d["bootstrap"]["warm"]["usd"]),
            usd(c["bootstrap"]["warm"]["usd"]),
            f"{one_retrieval} (one retrieval)",
        ],
        [
            "bootstrap, cold container",
            usd(d["bootstrap"]["cold"]["usd"]),
            usd(c["bootstrap"]["cold"]["usd"]),
            "",
        ],
        ["ingestion window, nothing to ingest", usd(d["ingestion"]["idle_window"]["usd"]), "", ""],
        [
            f"ingestion window after {d['ingestion']['window_runs']} runs",
            usd(d["ingestion"]["window"]["usd"]),
            "",
            "",
        ],
        ["decay pass, empty", usd(d["decay"]["idle"]["usd"]), "", ""],
        [
            f"decay pass over {d['decay']['runs_stored']} runs",
            usd(d["decay"]["pass"]["usd"]),
            "",
            "",
        ],
    ]
    return [
        "## Per bootstrap, ingestion window and decay pass",
        "",
        *table(["", "default", "with Comprehend", "AgentCore"], rows),
        "",
    ]


def month_section(d: dict[str, Any], c: dict[str, Any]) -> list[str]:
    rows = [["idle (no runs)", usd(d["idle_month"]["usd"]), usd(c["idle_month"]["usd"]), "$0"]]
    for m, mc in zip(d["months"], c["months"], strict=True):
        rows.append(
            [f"{m['runs_a_day']:,}", usd(m["usd"]), usd(mc["usd"]), usd(m["agentcore_usd"])]
        )
    return [
        "## A month",
        "",
        *table(
            ["runs a day", "agent-memory (default)", "with Comprehend", "AgentCore Memory"], rows
        ),
        "",
        f"An idle month (default): {listed(d['idle_month']['lines'])}.",
        "",
        f"A month at 10,000 runs a day (default): {listed(d['months'][1]['lines'])}.",
        "",
    ]


def choice_section(r: dict[str, Any]) -> list[str]:
    rows = [
        [
            row["setting"],
            row["value"],
            usd(row["typical_run_usd"]),
            usd(row["month_10k_usd"]),
            row["note"],
        ]
        for row in r["choices"]
    ]
    header = ["setting", "value", "a typical run", "a month at 10,000 runs a day", "note"]
    return ["## What each setting costs", "", *table(header, rows), ""]


def target_rows(r: dict[str, Any]) -> list[list[str]]:
    """Each target of the default configuration: its bound, the figure, met or by how much."""
    rows = []
    for name, t in r["targets"].items():
        gap = t["measured"] - t["target"]
        met = "met" if gap <= 0 else f"missed by {usd(gap)}"
        rows.append([TARGET_NAMES[name], usd(t["target"]), usd(t["measured"]), met])
    return rows


TARGET_NAMES = {
    "typical_run_usd": "a typical run",
    "bootstrap_warm_usd": "a bootstrap, warm container",
    "bootstrap_cold_usd": "a bootstrap, cold container",
    "idle_month_usd": "an idle month",
}


def target_section(r: dict[str, Any]) -> list[str]:
    return [
        "## Targets (default configuration)",
        "",
        *table(["", "target", "measured", ""], target_rows(r)),
        "",
    ]


def assumption_section() -> list[str]:
    calls = ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in CALL_SECONDS.items())
    assumed = "; ".join(f"{k}: {v}" for k, v in ASSUMPTIONS.items())
    return [
        "## Assumptions",
        "",
        "- Lambda duration is this machine's CPU time of each handler, slowed to the share of "
        f"a vCPU its memory buys ({FULL_VCPU_MB} MB = one vCPU), plus each AWS call's time on "
        f"AWS ({calls}). INIT (billed since 2025-08-01) is the handler's import in a fresh "
        "process, and building the PII detectors for the functions that scrub.",
        f"- {assumed}.",
        "- AgentCore Memory: a run's messages are its short-term events (the issue's $0.25 per "
        f"1,000); {ASSUMPTIONS['agentcore_records_per_run']} long-term records a run; one "
        "retrieval a bootstrap. Month-one storage is the average of what the month "
        "accumulates, for both.",
        "- No free tier, savings plan or volume tier is counted; stored logs are counted at "
        "their ingested size (CloudWatch bills them compressed, so less).",
    ]


def summary_rows(r: dict[str, Any]) -> list[list[str]]:
    """The headline table docs/aws.md and benchmarks/README.md print: default, with
    Comprehend, and AgentCore Memory's price for the same (a run's events; a retrieval).
    """
    d, c = (r["configurations"][k] for k in ("local", "comprehend"))
    rows = []
    for size in SIZES:
        label = f"a {size.name} run ({size.messages} messages, {size.transcript_bytes // 1000} KB)"
        run = d["runs"][size.name]
        rows.append(
            [
                label,
                usd(run["usd"]),
                usd(c["runs"][size.name]["usd"]),
                usd(run["agentcore"]["events"]),
            ]
        )
    retrieval = usd(PRICES["agentcore.retrievals"].of(1))
    for state in ("warm", "cold"):
        rows.append(
            [
                f"a bootstrap, {state} container",
                usd(d["bootstrap"][state]["usd"]),
                usd(c["bootstrap"][state]["usd"]),
                retrieval,
            ]
        )
    rows.append(["an idle month", usd(d["idle_month"]["usd"]), usd(c["idle_month"]["usd"]), "$0"])
    for m, mc in zip(d["months"], c["months"], strict=True):
        rows.append(
            [
                f"a month at {m['runs_a_day']:,} runs a day",
                usd(m["usd"]),
                usd(mc["usd"]),
                usd(m["agentcore_usd"]),
            ]
        )
    return rows


SUMMARY_HEADER = ["", "default", "`piiDetector=comprehend`", "AgentCore Memory"]


def markdown(r: dict[str, Any]) -> str:
    """The report: per run, per bootstrap, a month, each setting, targets, assumptions."""
    d, c = (r["configurations"][k] for k in ("local", "comprehend"))
    intro = (
        f"Prices of {r['prices']['region']} on {r['prices']['priced_on']} "
        "(`benchmarks/aws_prices.py`, each with its source); units counted on moto by "
        f"`benchmarks/aws_cost.py` ({r['runs_per_size']} runs of each size). The default "
        "configuration: the local PII detector in the functions, no LLM (the agent's "
        "artifacts), Standard workflow, X-Ray on, logs at INFO kept 30 days."
    )
    lines = [
        "# What agent-memory costs on AWS",
        "",
        intro,
        "",
        *run_section(d, c),
        *once_section(d, c),
        *month_section(d, c),
        *choice_section(r),
        *target_section(r),
        *assumption_section(),
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    # Powertools' logger keeps the stream it finds when first imported (by the harness, later):
    # route stdout through the meter first.
    aws_metering.capture_logs()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks/results/aws_cost.json")
    parser.add_argument("--runs", type=int, default=5, help="runs of each size measured")
    parser.add_argument("--quick", action="store_true", help="one run of each size (smoke test)")
    args = parser.parse_args()
    started = time.perf_counter()
    result = report(args)
    result["seconds"] = round(time.perf_counter() - started, 1)
    write_results(args.out, result, markdown(result))
    log(f"wrote {args.out} and {args.out.with_suffix('.md')} in {result['seconds']} s")


if __name__ == "__main__":
    main()
