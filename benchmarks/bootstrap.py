"""Bootstrap benchmark: episodic ranking vs baselines, full local bootstrap latency, bytes per
stored embedding, and consolidation throughput, on synthetic agent memory of one agent.

Not part of the test suite (its helpers are tested in ``tests/benchmarks``). Needs the ``dev``
extra plus ``langgraph`` (for the ``InMemoryStore`` baseline; skipped if missing). From the
repository root::

    .venv/bin/python benchmarks/bootstrap.py --out benchmarks/results/bootstrap.json

writes the JSON and a Markdown table beside it (``bootstrap.md``); about 15 minutes on 2 cores
with the defaults. ``--quick`` runs small sizes for a smoke test; ``--no-model`` builds vectors
with a hashing embedder instead of the local model (no with-model figures then).
Every comparison is a ratio of measurements taken side by side in this one process. BLAS runs
one thread unless ``--blas-threads`` says otherwise: on a loaded 2-core machine a threaded
OpenBLAS turns a sub-millisecond matrix-vector product into a scheduler-quantum wait (~10 ms),
which would swamp every figure; the result records both behaviours.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import gc
import json
import os
import platform
import shlex
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path
from typing import Any

if __package__ in {None, ""}:  # run as a script: make ``benchmarks`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
if __name__ == "__main__":
    # Before numpy loads (see --blas-threads): "0" keeps the BLAS library's own default.
    _flag = "--blas-threads"
    _threads = next(
        (a.split("=", 1)[1] for a in sys.argv if a.startswith(_flag + "=")),
        sys.argv[sys.argv.index(_flag) + 1] if _flag in sys.argv[:-1] else "1",
    )
    if _threads != "0":
        for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
            os.environ.setdefault(_variable, _threads)

import numpy as np

from agent_memory.adapters.local.embeddings import CALIBRATION, LocalEmbedder
from agent_memory.core.ports import Embedder
from benchmarks import synthetic
from benchmarks.bench_consolidation import consolidation_benchmark
from benchmarks.bench_findings import findings, targets
from benchmarks.bench_latency import latency_benchmark
from benchmarks.bench_ranking import rank_benchmark
from benchmarks.bench_report import render
from benchmarks.bench_storage import int8_recall_note, storage_benchmark

REPO = Path(__file__).resolve().parents[1]
RETRIEVAL_RESULT = REPO / "benchmarks" / "results" / "retrieval.json"


def main(argv: list[str] | None = None) -> int:
    args = _parse(argv)
    if args.rerender:
        _write(Path(args.out), json.loads(Path(args.out).read_text()))
        return 0
    started = time.perf_counter()
    now = time.time()
    real: Embedder | None = None if args.no_model else LocalEmbedder()
    pool_embedder: Embedder = real or synthetic.HashingEmbedder()
    _log("embedding the sentence pool")
    pool = synthetic.build_pool(pool_embedder)
    pools = {384: pool}
    if 1024 in args.dims:
        pools[1024] = pool.projected(1024)
    threshold = CALIBRATION.episode_min_similarity
    has_langgraph = _version("langgraph") is not None
    machine = _machine()
    blas = blas_threading_check()

    ranking: list[dict[str, Any]] = []
    latency: list[dict[str, Any]] = []
    generation: dict[str, float] = {}
    for n in sorted(set(args.sizes) | set(args.bootstrap_sizes)):
        _log(f"generating {n:,} episodes (384 dims)")
        t0 = time.perf_counter()
        episodes = synthetic.EpisodeFactory(pool, now=now).episodes(n)
        generation[f"{n}x384"] = round(time.perf_counter() - t0, 2)
        if n in args.sizes:
            _log(f"ranking at {n:,} x 384")
            ranking.append(
                rank_benchmark(
                    episodes,
                    pool,
                    now=now,
                    rounds=_rounds(n, args.rounds),
                    min_similarity=threshold,
                    reference=n <= args.reference_max,
                    langgraph=has_langgraph and n <= args.langgraph_max,
                )
            )
        if n in args.bootstrap_sizes:
            _log(f"bootstrap latency at {n:,}")
            latency.append(
                latency_benchmark(
                    episodes,
                    pool,
                    now=now,
                    calls=args.bootstrap_calls,
                    real_embedder=real,
                    pool_embedder=pool_embedder,
                    full_index=n <= args.full_index_max,
                )
            )
        del episodes
        gc.collect()
    if 1024 in pools:
        for n in [n for n in args.sizes if n <= args.max_size_1024]:
            _log(f"ranking at {n:,} x 1024")
            episodes = synthetic.EpisodeFactory(pools[1024], now=now).episodes(n)
            ranking.append(
                rank_benchmark(
                    episodes,
                    pools[1024],
                    now=now,
                    rounds=_rounds(n, args.rounds),
                    min_similarity=threshold,
                    reference=n <= args.reference_max,
                    langgraph=has_langgraph and n <= args.langgraph_max,
                )
            )
            del episodes
            gc.collect()

    _log("storage sizes")
    storage = []
    for _, p in sorted(pools.items()):
        sample = synthetic.EpisodeFactory(p, now=now, seed=23).episodes(500)
        storage.append(
            storage_benchmark(
                sample.summary_vectors,
                p.model_id,
                units_per_episode=sample.unit_count / len(sample.episodes),
            )
        )
    consolidation = None
    if args.consolidation_events:
        _log(f"consolidating {args.consolidation_events} events")
        consolidation = consolidation_benchmark(args.consolidation_events, real_embedder=real)

    results: dict[str, Any] = {
        "command": "python benchmarks/bootstrap.py "
        + " ".join(shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:])),
        "machine": machine,
        "load_average_1min_at_end": round(os.getloadavg()[0], 2),
        "blas_matvec_10000x384_ms": blas,
        "config": {
            "distribution": (
                "Synthetic episodes of one agent: 6 task types weighted 35/20/15/12/10/8%; "
                "outcomes COMPLETED/PARTIAL/FAILED 75/15/10%; created over the last 80 days; "
                "units per episode = 10-30 human/AI messages (uniform) + 1-3 findings; "
                "vectors = normalised mean of sentence vectors from a pool embedded once by "
                f"{pool.model_id} (+ noise); 1,024 dims = fixed random projection."
            ),
            "pool_sentences": len(pool.texts),
            "pool_model": pool.model_id,
            "episode_min_similarity": threshold,
            "episode_generation_s": generation,
            "top_episodes": 3,
            "top_units": 10,
        },
        "ranking": ranking,
        "bootstrap": latency,
        "storage": storage,
        "int8_recall": int8_recall_note(RETRIEVAL_RESULT),
        "consolidation": consolidation,
        "wall_time_s": 0.0,
    }
    results["wall_time_s"] = round(time.perf_counter() - started, 1)
    _write(Path(args.out), results)
    return 0


def _write(out: Path, results: dict[str, Any]) -> None:
    """Judge the targets, then write the JSON and the Markdown beside it."""
    results["int8_recall"] = int8_recall_note(RETRIEVAL_RESULT)
    results["targets"] = targets(results)
    results["findings"] = findings(results)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    out.with_suffix(".md").write_text(render(results))
    _log(f"wrote {out} and {out.with_suffix('.md')}")


_MATVEC_CHILD = """
import statistics, time, numpy as np
rng = np.random.default_rng(0)
m = rng.standard_normal((10_000, 384)).astype(np.float32)
q = rng.standard_normal(384).astype(np.float32)
runs = []
for _ in range(9):
    t = time.perf_counter()
    for _ in range(20):
        m @ q
    runs.append((time.perf_counter() - t) / 20)
print(statistics.median(runs) * 1000)
"""


def blas_threading_check() -> dict[str, float]:
    """Median ms of one 10,000 x 384 float32 matvec in child processes, with the BLAS
    library's default threads and with one thread (on a loaded machine they differ widely).
    """
    result = {}
    for label, threads in (("library_default_threads", None), ("one_thread", "1")):
        env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
        if threads:
            env.update(OPENBLAS_NUM_THREADS=threads, OMP_NUM_THREADS=threads)
        done = subprocess.run(
            [sys.executable, "-c", _MATVEC_CHILD], env=env, capture_output=True, text=True
        )
        result[label] = round(float(done.stdout.strip() or "nan"), 4)
    return result


def _rounds(n: int, override: int | None) -> int:
    if override:
        return override
    return 9 if n <= 1_000 else 7 if n <= 10_000 else 3


def _machine() -> dict[str, Any]:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        cpu = platform.processor() or "unknown"
    commit, dirty = None, None
    with contextlib.suppress(OSError, subprocess.CalledProcessError):
        commit = _git("rev-parse", "--short", "HEAD").strip()
        # Porcelain lines are "XY path": the leading status column may be a space.
        listing = _git("status", "--porcelain", "src")
        dirty = sorted(line[3:] for line in listing.splitlines() if line)
    return {
        "cpu_model": cpu,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "langgraph": _version("langgraph"),
        "onnxruntime": _version("onnxruntime"),
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": commit,
        "src_uncommitted": dirty,
        "blas_threads": os.environ.get("OPENBLAS_NUM_THREADS", "library default"),
        "load_average_1min": round(os.getloadavg()[0], 2),
    }


def _git(*args: str) -> str:
    done = subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, check=True)
    return done.stdout


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def _log(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def _sizes(text: str) -> list[int]:
    return [int(part.replace("_", "")) for part in text.split(",") if part.strip()]


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", required=True, help="result JSON (a .md is written beside it)")
    parser.add_argument("--sizes", type=_sizes, default=[1_000, 10_000, 100_000])
    parser.add_argument("--bootstrap-sizes", type=_sizes, default=[1_000, 10_000, 100_000])
    parser.add_argument("--dims", type=_sizes, default=[384, 1024])
    parser.add_argument("--max-size-1024", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=None, help="queries per size")
    parser.add_argument("--bootstrap-calls", type=int, default=200)
    parser.add_argument("--full-index-max", type=int, default=10_000)
    parser.add_argument("--reference-max", type=int, default=100_000)
    parser.add_argument("--langgraph-max", type=int, default=100_000)
    parser.add_argument("--consolidation-events", type=int, default=200)
    parser.add_argument(
        "--blas-threads",
        default="1",
        help="BLAS threads for this process (default 1; 0 keeps the library default)",
    )
    parser.add_argument("--no-model", action="store_true", help="hashing vectors, no local model")
    parser.add_argument("--quick", action="store_true", help="small sizes: a smoke test")
    parser.add_argument(
        "--rerender", action="store_true", help="only re-judge and re-render an existing --out"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.sizes, args.bootstrap_sizes = [300, 2_000], [300, 2_000]
        args.max_size_1024, args.rounds = 300, 3
        args.bootstrap_calls, args.consolidation_events = 20, 10
    return args


if __name__ == "__main__":
    raise SystemExit(main())
