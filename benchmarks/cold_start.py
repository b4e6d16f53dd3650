"""Cold start of the bootstrap Lambda, and memory per tenant of a warm container.

Every measurement runs in a fresh Python process, the way Lambda starts a container: the
process imports ``functions.bootstrap.handler`` (timed), starts moto, then calls the handler
once (the first call: settings, session, clients, tenant credentials, the query) and twice
more (another tenant, then the first one again: warm). Two source trees run side by side,
interleaved, so the ratios are paired: by default a git ref exported with ``git archive``
(``--baseline``) against this checkout. ``python -X importtime`` lists the heaviest imports of
each. A second mode serves tenants one after another in one process and measures what each
adds (RSS and time), before and after, since a container's memory is its limit.

Bedrock's runtime, its knowledge-base retrieval and Comprehend, which moto lacks or answers
with canned data, are answered in-process by a ``before-call`` hook: their network time is not
measured (no call here is), only the Python work on either side of it.

    python benchmarks/cold_start.py --baseline ffb9053 --out benchmarks/results/cold_start.json

Imports at module level are the standard library only: the child process times the project's
imports, and must not find them already loaded.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
REGION = "us-east-1"
ACCOUNT = "123456789012"
ROLE = f"arn:aws:iam::{ACCOUNT}:role/agent-memory-tenant"
PREFIX = "agent-memory-"
TABLES = {"episodes": "EPISODES_TABLE", "facts": "FACTS_TABLE"}
TABLES |= {"procedures": "PROCEDURES_TABLE", "ledger": "LEDGER_TABLE"}
# Modules the read path does not call; their presence after the import is reported.
WATCHED = ("langchain_aws", "langchain_core", "langsmith", "moto")


def environment(tree: Path) -> dict[str, str]:
    """The bootstrap function's environment as the stack sets it, over moto's tables."""
    tables = {env: f"{PREFIX}{name}" for name, env in TABLES.items()}
    arns = ",".join(f"arn:aws:dynamodb:{REGION}:{ACCOUNT}:table/{t}" for t in tables.values())
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "POWERTOOLS_"))}
    return {
        **env,
        "PYTHONPATH": f"{tree / 'src'}{os.pathsep}{tree}",
        "PYTHONDONTWRITEBYTECODE": "1",
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": REGION,
        **tables,
        # The retired idempotency table's name: a --baseline tree from before the run ledger
        # alone decided a run's consolidation requires it; this tree ignores it.
        "IDEMPOTENCY_TABLE": f"{PREFIX}idempotency",
        "KB_BUCKET": "kb-docs",
        "KNOWLEDGE_BASE_ID": "KB12345678",
        "KB_DATA_SOURCE_ID": "DS12345678",
        "TENANT_ROLE_ARN": ROLE,
        "TENANT_TABLE_ARNS": arns,
        "PSEUDONYM_SECRET_ARN": f"arn:aws:secretsmanager:{REGION}:{ACCOUNT}:secret:pseudonym",
        "FUNCTION_TIMEOUT_SECONDS": "15",
        "POWERTOOLS_SERVICE_NAME": "agent-memory",
        "POWERTOOLS_METRICS_NAMESPACE": "AgentMemory",
        "POWERTOOLS_TRACE_DISABLED": "true",
        "POWERTOOLS_LOG_LEVEL": "ERROR",
    }


# --- the child process ----------------------------------------------------------------------


def rss_mib() -> float:
    """Resident memory of this process, MiB (Linux)."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def start_moto() -> Any:
    """Start moto, answer in-process the calls it lacks; create the tables and the secret."""
    import io

    import boto3
    import botocore.handlers
    from botocore.awsrequest import AWSResponse
    from botocore.response import StreamingBody
    from moto import mock_aws

    def answered(parsed: dict[str, Any]) -> Any:
        def hook(**_: Any) -> Any:
            return AWSResponse("", 200, {}, None), dict(parsed)

        return hook

    def embedding(params: dict[str, Any], **_: Any) -> Any:
        dimensions = json.loads(params["body"]).get("dimensions", 1024)
        body = json.dumps({"embedding": [1.0] * dimensions, "inputTextTokenCount": 3}).encode()
        parsed = {"body": StreamingBody(io.BytesIO(body), len(body)), "contentType": "json"}
        return AWSResponse("", 200, {}, None), parsed

    # Added before any session exists, so every session of the runtime gets them.
    botocore.handlers.BUILTIN_HANDLERS += [
        ("before-call.bedrock-runtime.InvokeModel", embedding),
        ("before-call.bedrock-agent-runtime.Retrieve", answered({"retrievalResults": []})),
        ("before-call.comprehend.DetectPiiEntities", answered({"Entities": []})),
    ]
    mock = mock_aws()
    mock.start()
    from agent_memory.adapters.aws.dynamodb_schema import TABLES as DESIGNS

    dynamodb = boto3.client("dynamodb", region_name=REGION)
    for design in DESIGNS:
        dynamodb.create_table(**design.create_table_request(f"{PREFIX}{design.logical_name}"))
    boto3.client("s3", region_name=REGION).create_bucket(Bucket="kb-docs")
    boto3.client("secretsmanager", region_name=REGION).create_secret(
        Name="pseudonym", SecretString="k" * 48
    )
    return mock


class Context:
    """The Lambda context Powertools reads."""

    function_name = "bootstrap"
    memory_limit_in_mb = 1024
    invoked_function_arn = f"arn:aws:lambda:{REGION}:{ACCOUNT}:function:bootstrap"
    aws_request_id = "00000000-0000-0000-0000-000000000000"

    def get_remaining_time_in_millis(self) -> int:
        return 15_000


def child_cold_start() -> dict[str, Any]:
    """Import the handler, then call it: first call, another tenant, the first again."""
    started = time.perf_counter()
    import functions.bootstrap.handler as bootstrap

    imported = time.perf_counter()
    loaded = [m for m in WATCHED if m in sys.modules]
    rss_imported = rss_mib()
    start_moto()

    def call(tenant: str) -> float:
        event = {"tenant_id": tenant, "agent_id": "reviewer", "task": "review the MSA draft"}
        began = time.perf_counter()
        reply = bootstrap.handler(event, Context())
        assert "context" in reply, reply
        return (time.perf_counter() - began) * 1000

    first = call("acme")
    loaded_by_call = [m for m in WATCHED if m in sys.modules and m not in loaded and m != "moto"]
    return {
        "import_ms": (imported - started) * 1000,
        "first_call_ms": first,
        "new_tenant_call_ms": call("globex"),
        "warm_call_ms": call("acme"),
        "rss_after_import_mib": rss_imported,
        "loaded_by_import": loaded,
        "loaded_by_first_call": loaded_by_call,
    }


def child_tenants(count: int) -> dict[str, Any]:
    """Serve ``count`` tenants in one runtime: RSS and time each adds, sessions kept."""
    import gc

    import boto3

    from agent_memory.wiring.aws import AwsRuntime
    from agent_memory.wiring.aws_settings import AwsSettings

    start_moto()
    runtime = AwsRuntime(AwsSettings.from_environment(), session=boto3.Session())

    def serve(tenant: str) -> None:
        ports = runtime.ports(tenant)
        assert ports.procedures.for_task_type(tenant, "triage") == []

    serve("warm-up")  # the container's own clients and the embedder: not per tenant
    gc.collect()
    sessions = sum(type(o) is boto3.Session for o in gc.get_objects())
    rss, began = rss_mib(), time.perf_counter()
    for i in range(count):
        serve(f"tenant-{i:04d}")
    elapsed = time.perf_counter() - began
    gc.collect()
    grown = rss_mib() - rss
    kept = sum(type(o) is boto3.Session for o in gc.get_objects()) - sessions
    return {
        "tenants": count,
        "ms_per_tenant": elapsed * 1000 / count,
        "rss_mib_per_tenant": grown / count,
        "boto3_sessions_kept": kept,
    }


# --- the parent -----------------------------------------------------------------------------


def export(ref: str, into: Path) -> Path:
    """``ref``'s tree, exported with git archive (no working-tree changes)."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", ref], check=True, capture_output=True
    ).stdout
    into.mkdir(parents=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def resolved(ref: str | None) -> str | None:
    """A git ref as its short commit hash (a directory, or None, as given)."""
    if ref is None or Path(ref).is_dir():
        return ref
    return subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", ref],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()


def run_child(tree: Path, mode: list[str]) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", *mode],
        cwd=tree,
        env=environment(tree),
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def heaviest_imports(tree: Path, top: int) -> dict[str, Any]:
    """``python -X importtime`` of the handler: packages by total self time, and the total."""
    err = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import functions.bootstrap.handler"],
        cwd=tree,
        env=environment(tree),
        check=True,
        capture_output=True,
        text=True,
    ).stderr
    by_package: dict[str, int] = defaultdict(int)
    total = 0
    for line in err.splitlines():
        if not line.startswith("import time:") or "|" not in line or "self [us]" in line:
            continue
        self_us, cumulative_us, name = (part.strip() for part in line[12:].split("|"))
        by_package[name.split(".")[0]] += int(self_us)
        if name == "functions.bootstrap.handler":
            total = int(cumulative_us)
    ranked = sorted(by_package.items(), key=lambda item: -item[1])[:top]
    return {"handler_ms": total / 1000, "packages_ms": {k: v / 1000 for k, v in ranked}}


def median(results: list[dict[str, Any]], key: str) -> float:
    return float(statistics.median(r[key] for r in results))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default=None, help="git ref (or directory) to compare with")
    parser.add_argument("--current", default=None, help="git ref instead of this checkout")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--tenants", type=int, default=30, help="0: skip the tenants mode")
    parser.add_argument("--tenant-repeats", type=int, default=3)
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks/results/cold_start.json")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        mode, *rest = args.child
        result = child_cold_start() if mode == "cold" else child_tenants(int(rest[0]))
        print(json.dumps(result))
        return

    with tempfile.TemporaryDirectory() as scratch:
        trees: dict[str, Path] = {}
        if args.baseline and Path(args.baseline).is_dir():
            trees["baseline"] = Path(args.baseline).resolve()
        elif args.baseline:
            trees["baseline"] = export(args.baseline, Path(scratch, "baseline").resolve())
        current = export(args.current, Path(scratch, "current")) if args.current else ROOT
        trees["current"] = current
        report = measure(trees, args)
    report["refs"] = {
        "baseline": resolved(args.baseline),
        "current": resolved(args.current) if args.current else "working tree",
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    args.out.with_suffix(".md").write_text(markdown(report))
    print(markdown(report))


def measure(trees: dict[str, Path], args: argparse.Namespace) -> dict[str, Any]:
    """Every tree's runs, interleaved (the order alternates each repeat), then the summary."""
    cold: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
    names = list(trees)
    for repeat in range(args.repeats):
        for name in names if repeat % 2 == 0 else names[::-1]:
            cold[name].append(run_child(trees[name], ["cold"]))
    tenants: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
    for repeat in range(args.tenant_repeats if args.tenants else 0):
        for name in names if repeat % 2 == 0 else names[::-1]:
            tenants[name].append(run_child(trees[name], ["tenants", str(args.tenants)]))
    keys = ("import_ms", "first_call_ms", "new_tenant_call_ms", "warm_call_ms")
    summary: dict[str, Any] = {}
    for name in names:
        summary[name] = {
            **{key: median(cold[name], key) for key in (*keys, "rss_after_import_mib")},
            "loaded_by_import": cold[name][0]["loaded_by_import"],
            "loaded_by_first_call": cold[name][0]["loaded_by_first_call"],
            "imports": heaviest_imports(trees[name], top=12),
        }
        if tenants[name]:
            summary[name]["tenants"] = {
                key: median(tenants[name], key)
                for key in ("ms_per_tenant", "rss_mib_per_tenant", "boto3_sessions_kept")
            }
    if "baseline" in cold:
        for run in (*cold["baseline"], *cold["current"]):
            run["cold_ms"] = run["import_ms"] + run["first_call_ms"]
        # Paired: each repeat's baseline over the same repeat's current.
        summary["ratios"] = {
            key: statistics.median(
                b[key] / c[key] for b, c in zip(cold["baseline"], cold["current"], strict=True)
            )
            for key in (*keys, "cold_ms")
        }
        if tenants["baseline"]:
            summary["ratios"]["ms_per_tenant"] = statistics.median(
                b["ms_per_tenant"] / c["ms_per_tenant"]
                for b, c in zip(tenants["baseline"], tenants["current"], strict=True)
            )
    return {
        "repeats": args.repeats,
        "tenants": args.tenants,
        "python": sys.version.split()[0],
        "summary": summary,
        "runs": cold,
        "tenant_runs": tenants,
    }


def markdown(report: dict[str, Any]) -> str:
    summary = report["summary"]
    names = [n for n in ("baseline", "current") if n in summary]
    refs = report.get("refs", {})
    lines = [
        "# Bootstrap cold start",
        "",
        f"Fresh processes, {report['repeats']} each, interleaved; medians (ms). "
        f"Baseline: `{refs.get('baseline')}`; current: `{refs.get('current')}`.",
        "",
        "| | " + " | ".join(names) + (" | baseline / current |" if "ratios" in summary else " |"),
        "|---|" + "---|" * (len(names) + ("ratios" in summary)),
    ]
    rows = [
        ("import of the handler", "import_ms"),
        ("first call (new container)", "first_call_ms"),
        ("call for a second tenant", "new_tenant_call_ms"),
        ("warm call", "warm_call_ms"),
    ]
    for label, key in rows:
        cells = [f"{summary[n][key]:.0f}" for n in names]
        ratio = [f"{summary['ratios'][key]:.2f}×"] if "ratios" in summary else []
        lines.append(f"| {label} | " + " | ".join(cells + ratio) + " |")
    if "ratios" in summary:
        cold = [f"{summary[n]['import_ms'] + summary[n]['first_call_ms']:.0f}" for n in names]
        ratio = [f"{summary['ratios']['cold_ms']:.2f}×"]
        lines.append("| import + first call | " + " | ".join(cold + ratio) + " |")
    cells = [f"{summary[n]['rss_after_import_mib']:.0f}" for n in names]
    lines.append("| RSS after the import, MiB | " + " | ".join(cells) + " |")
    lines.append("")
    for name in names:
        s = summary[name]
        lines.append(
            f"- {name}: loaded by the import: {', '.join(s['loaded_by_import']) or 'none'} of "
            f"{', '.join(w for w in WATCHED if w != 'moto')}; "
            f"loaded by the first call: {', '.join(s['loaded_by_first_call']) or 'none'}"
        )
    lines += [
        "",
        "Heaviest imports (`-X importtime`, self time summed per top-level package, ms):",
        "",
    ]
    for name in names:
        imports = summary[name]["imports"]
        listed = ", ".join(f"{k} {v:.0f}" for k, v in imports["packages_ms"].items())
        lines.append(f"- {name} (handler {imports['handler_ms']:.0f} ms in all): {listed}")
    if any("tenants" in summary[n] for n in names):
        lines += [
            "",
            f"Tenants served one after another by one runtime ({report['tenants']} tenants, "
            "medians of runs):",
            "",
            "| | ms per tenant | RSS MiB per tenant | boto3 sessions kept |",
            "|---|---|---|---|",
        ]
        for name in names:
            t = summary[name].get("tenants")
            if t:
                lines.append(
                    f"| {name} | {t['ms_per_tenant']:.1f} | {t['rss_mib_per_tenant']:.2f} "
                    f"| {t['boto3_sessions_kept']:.0f} |"
                )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
