"""Scoped reads benchmark: the read path of a team of 10 agents x 1,000 episodes (team scope, and
the same tenant read whole) beside one agent with 1,000 and one with 10,000 episodes (the
default scope), side by side in one process, on SQLite stores, model time excluded.

For each setup: a warm bootstrap (the index cached, nothing changed since the last read), the
index lookup alone on a warm cache (what a warm read costs before ranking: the version reads),
the first bootstrap after a new run of one member, and the first bootstrap of a process (the
index built). Every comparison is a ratio of rounds taken side by side (round i of each setup
one after the other), so machine load moves them together. The store reads a warm call makes
are counted once, untimed, through a counting wrapper of the episode store. From the
repository root::

    .venv/bin/python benchmarks/scoped_reads.py --out benchmarks/results/scoped_reads.json

writes the JSON and a Markdown table beside it (``scoped_reads.md``); a few minutes on 2 cores.
``--quick`` runs small sizes for a smoke test.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

if __package__ in {None, ""}:  # run as a script: make ``benchmarks`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
if __name__ == "__main__":
    # One BLAS thread, as benchmarks/bootstrap.py runs (its docstring says why).
    for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(_variable, "1")

from agent_memory.core.model.models import Episode
from agent_memory.core.model.requests import BootstrapRequest
from agent_memory.core.model.scope import AGENT_SCOPE, TENANT_SCOPE, Scope, team_scope
from agent_memory.core.ports import EpisodeStore, MemoryPorts
from agent_memory.core.retrieval.episode_index import EpisodeIndex, EpisodeIndexCache
from agent_memory.core.workflows.bootstrap import bootstrap
from agent_memory.wiring.local import local_ports
from agent_memory.wiring.local_settings import LocalSettings
from benchmarks import synthetic
from benchmarks.bench_latency import with_calibration
from benchmarks.synthetic import TENANT, PrecomputedEmbedder, SentencePool
from benchmarks.timing import Summary, paired_ratios, percentile

TEAM = tuple(f"agent-{i:02d}" for i in range(10))


@dataclass
class Setup:
    """One store and the scope its reads take."""

    name: str
    ports: MemoryPorts
    agent: str
    scope: Scope
    episodes: int  # stored, over all its agents

    def request(self, task: str) -> BootstrapRequest:
        return BootstrapRequest(TENANT, self.agent, task, scope=self.scope)

    def lookup(self) -> None:
        """The index lookup alone (the version reads on a warm cache)."""
        ports = self.ports
        ports.episode_indexes.index(
            ports.episodes,
            ports.embedder,
            TENANT,
            self.agent,
            now=ports.clock(),
            policy=ports.policies.episodic,
            scope=self.scope,
        )


class CountingStore:
    """An episode store counting the reads the index cache makes of it."""

    def __init__(self, store: EpisodeStore) -> None:
        self.store = store
        self.reads: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def recent(self, *args: Any, **kwargs: Any) -> Any:
        self.reads["recent (a page of episodes)"] += 1
        return self.store.recent(*args, **kwargs)

    def version(self, *args: Any) -> Any:
        self.reads["version"] += 1
        return self.store.version(*args)

    def changes_since(self, *args: Any, **kwargs: Any) -> Any:
        self.reads["changes_since (a version read)"] += 1
        return self.store.changes_since(*args, **kwargs)

    def versions(self, *args: Any) -> Any:
        self.reads["versions (the members' versions, one read)"] += 1
        return self.store.versions(*args)

    def agents(self, tenant_id: str) -> list[str]:
        self.reads["agents (the tenant's roster)"] += 1
        return self.store.agents(tenant_id)


def main(argv: list[str] | None = None) -> int:
    args = _parse(argv)
    now = time.time()
    _log("embedding the sentence pool (hashing vectors)")
    pool = synthetic.build_pool(synthetic.HashingEmbedder())
    with ExitStack() as stack:
        fast = PrecomputedEmbedder(
            pool.vector_of(),
            model_id=pool.model_id,
            dimension=pool.dimension,
            fallback=synthetic.HashingEmbedder(),
        )

        def store(name: str) -> MemoryPorts:
            root = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix=f"bench-{name}-")))
            ports = local_ports(LocalSettings(store=root), embedder=fast)
            return replace(with_calibration(ports, pool.model_id), clock=lambda: now)

        solo_small, solo_large, team = store("solo-1k"), store("solo-10k"), store("team")
        per_member = args.per_member
        _log(f"filling: one agent x {per_member:,}")
        _fill(solo_small, pool, now, {TEAM[0]: per_member})
        _log(f"filling: one agent x {10 * per_member:,}")
        _fill(solo_large, pool, now, {TEAM[0]: 10 * per_member})
        _log(f"filling: {len(TEAM)} agents x {per_member:,}")
        _fill(team, pool, now, dict.fromkeys(TEAM, per_member))
        setups = [
            Setup(
                f"one agent, {per_member:,} episodes", solo_small, TEAM[0], AGENT_SCOPE, per_member
            ),
            Setup(
                f"one agent, {10 * per_member:,} episodes",
                solo_large,
                TEAM[0],
                AGENT_SCOPE,
                10 * per_member,
            ),
            Setup(
                f"team of {len(TEAM)} x {per_member:,} (scope team)",
                team,
                TEAM[0],
                team_scope(list(TEAM[1:])),
                len(TEAM) * per_member,
            ),
            Setup(
                f"tenant of {len(TEAM)} x {per_member:,} (scope tenant)",
                replace(team, episode_indexes=EpisodeIndexCache()),
                TEAM[0],
                TENANT_SCOPE,
                len(TEAM) * per_member,
            ),
        ]
        tasks = [task for _, task in pool.queries]
        _log("learning the embedded form of every task (untimed)")
        for setup in setups:
            learner = replace(setup.ports, episode_indexes=EpisodeIndexCache())
            for task in tasks:
                bootstrap(setup.request(task), learner)
        fast.misses = 0
        results = _measure(setups, tasks, args, now=now)
        if fast.misses:
            raise RuntimeError(f"{fast.misses} texts were not precomputed: model time leaked in")
    results["machine"] = {
        "python": sys.version.split()[0],
        "cpus": os.cpu_count(),
        "load_average_1min": round(os.getloadavg()[0], 2),
        "blas_threads": os.environ.get("OPENBLAS_NUM_THREADS", "library default"),
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d"),
    }
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n")
    out.with_suffix(".md").write_text(render(results))
    _log(f"wrote {out} and {out.with_suffix('.md')}")
    return 0


def _fill(ports: MemoryPorts, pool: SentencePool, now: float, counts: dict[str, int]) -> None:
    """Each agent's synthetic episodes (a seed of its own), written directly."""
    for seed, (agent, count) in enumerate(counts.items(), start=11):
        made = synthetic.EpisodeFactory(pool, seed=seed, now=now).episodes(count)
        for episode in made.episodes:
            ports.episodes.add(replace(episode, agent_id=agent))


def _measure(
    setups: list[Setup], tasks: list[str], args: argparse.Namespace, *, now: float
) -> dict[str, Any]:
    rng = random.Random(5)
    order = [tasks[rng.randrange(len(tasks))] for _ in range(args.calls)]
    _log("cold: the first bootstrap of a process, index built")
    cold: dict[str, list[float]] = {s.name: [] for s in setups}
    for _ in range(args.cold_rounds):
        for s in setups:
            fresh = replace(s.ports, episode_indexes=EpisodeIndexCache())
            cold[s.name].append(_wall(partial(bootstrap, s.request(order[0]), fresh)))
    for s in setups:
        bootstrap(s.request(order[0]), s.ports)  # the cache every timed warm call uses
    _log("warm: bootstraps and index lookups, nothing changed since the last read")
    warm: dict[str, list[float]] = {s.name: [] for s in setups}
    lookup: dict[str, list[float]] = {s.name: [] for s in setups}
    episodic: dict[str, list[float]] = {s.name: [] for s in setups}
    for task in order:
        for s in setups:
            started = time.perf_counter()
            reply = bootstrap(s.request(task), s.ports)
            warm[s.name].append((time.perf_counter() - started) * 1000)
            episodic[s.name].append(reply["timings_ms"]["episodic"])
            lookup[s.name].append(_wall(s.lookup))
    _log("after a new run of one member: the first bootstrap")
    after: dict[str, list[float]] = {s.name: [] for s in setups}
    template = None
    for number in range(args.new_runs):
        for s in setups:
            member = s.agent if s.scope == AGENT_SCOPE else TEAM[1 + number % (len(TEAM) - 1)]
            template = template or _any_episode(s.ports, s.agent, now)
            bootstrap(s.request(order[number]), s.ports)  # current
            s.ports.episodes.add(
                replace(
                    template,
                    agent_id=member,
                    run_id=f"bench-new-{s.name[:3]}-{number}",
                    created_at=now - 1 - number,
                )
            )
            task = order[number]
            after[s.name].append(_wall(partial(bootstrap, s.request(task), s.ports)))
    reads: dict[str, dict[str, int]] = {}
    indexed: dict[str, int] = {}
    index_mib: dict[str, float] = {}
    for s in setups:
        counting = CountingStore(s.ports.episodes)
        counted = replace(s.ports, episodes=counting)
        bootstrap(s.request(order[0]), counted)  # current
        counting.reads.clear()
        bootstrap(s.request(order[0]), counted)
        reads[s.name] = dict(counting.reads)
        index = s.ports.episode_indexes.index(
            s.ports.episodes,
            s.ports.embedder,
            TENANT,
            s.agent,
            now=now,
            policy=s.ports.policies.episodic,
            scope=s.scope,
        )
        assert isinstance(index, EpisodeIndex)
        indexed[s.name] = len(index.episodes)
        index_mib[s.name] = round(index.nbytes / 2**20, 1)
    base_small, base_large = setups[0].name, setups[1].name

    def ratios(series: dict[str, list[float]], base: str) -> dict[str, Any]:
        return {
            s.name: Summary.of(paired_ratios(series[s.name], series[base])).as_dict()
            for s in setups
        }

    def ms(values: list[float]) -> dict[str, float]:
        return {"p50": round(percentile(values, 50), 3), "p95": round(percentile(values, 95), 3)}

    return {
        "per_member": args.per_member,
        "calls": args.calls,
        "policy_candidates": setups[0].ports.policies.episodic.candidates,
        "setups": {
            s.name: {
                "stored_episodes": s.episodes,
                "indexed_episodes": indexed[s.name],
                "index_mib": index_mib[s.name],
                "warm_bootstrap_ms": ms(warm[s.name]),
                "warm_episodic_tier_ms": ms(episodic[s.name]),
                "warm_index_lookup_ms": ms(lookup[s.name]),
                "after_new_run_ms": ms(after[s.name]),
                "cold_first_bootstrap_ms": ms(cold[s.name]),
                "store_reads_per_warm_bootstrap": reads[s.name],
            }
            for s in setups
        },
        "ratios": {
            "warm_bootstrap_over_1k": ratios(warm, base_small),
            "warm_bootstrap_over_10k": ratios(warm, base_large),
            "warm_index_lookup_over_1k": ratios(lookup, base_small),
            "after_new_run_over_1k": ratios(after, base_small),
            "cold_over_1k": ratios(cold, base_small),
        },
    }


def _any_episode(ports: MemoryPorts, agent: str, now: float) -> Episode:
    page = ports.episodes.recent(TENANT, agent, now=now, limit=1)
    return page.items[0]


def _wall(work: Callable[[], object]) -> float:
    started = time.perf_counter()
    work()
    return (time.perf_counter() - started) * 1000


def render(results: dict[str, Any]) -> str:
    """The results as Markdown."""
    setups = results["setups"]
    small, large = (
        f"one agent x {n:,}" for n in (results["per_member"], 10 * results["per_member"])
    )
    lines = [
        f"# Scoped reads: a team of 10 agents x {results['per_member']:,} episodes",
        "",
        "SQLite stores, model time excluded (precomputed query vectors), one BLAS thread; each "
        f"index holds each member's newest {results['policy_candidates']} episodes. Warm: the "
        "index cached and nothing changed since the last read "
        f"({results['calls']} calls per setup, interleaved).",
        "",
        "| setup | stored | indexed | index MiB | warm bootstrap p50 (ms) "
        "| warm index lookup p50 (ms) | after a new run p50 (ms) | first bootstrap p50 (ms) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, s in setups.items():
        lines.append(
            f"| {name} | {s['stored_episodes']:,} | {s['indexed_episodes']:,} | {s['index_mib']} "
            f"| {s['warm_bootstrap_ms']['p50']} | {s['warm_index_lookup_ms']['p50']} "
            f"| {s['after_new_run_ms']['p50']} | {s['cold_first_bootstrap_ms']['p50']} |"
        )
    lines += [
        "",
        "Paired ratios (median of per-round ratios; p5-p95):",
        "",
        f"| setup | warm bootstrap / {small} | warm bootstrap / {large} | warm lookup / {small} "
        f"| after a new run / {small} | first bootstrap / {small} |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    r = results["ratios"]
    for name in setups:

        def cell(key: str, name: str = name) -> str:
            x = r[key][name]
            return f"{x['median']:.2f} ({x['p5']:.2f}-{x['p95']:.2f})"

        lines.append(
            f"| {name} | {cell('warm_bootstrap_over_1k')} | {cell('warm_bootstrap_over_10k')} "
            f"| {cell('warm_index_lookup_over_1k')} | {cell('after_new_run_over_1k')} "
            f"| {cell('cold_over_1k')} |"
        )
    lines += ["", "Store reads of one warm bootstrap (counted, untimed):", ""]
    for name, s in setups.items():
        counted = ", ".join(f"{k}: {v}" for k, v in s["store_reads_per_warm_bootstrap"].items())
        lines.append(f"- {name}: {counted or 'none'}")
    m = results["machine"]
    lines += [
        "",
        f"Python {m['python']}, {m['cpus']} CPUs, load {m['load_average_1min']}, "
        f"BLAS threads {m['blas_threads']}, {m['date']}.",
        "",
    ]
    return "\n".join(lines)


def _log(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", required=True, help="result JSON (a .md is written beside it)")
    parser.add_argument("--per-member", type=int, default=1_000)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--cold-rounds", type=int, default=5)
    parser.add_argument("--new-runs", type=int, default=9)
    parser.add_argument("--quick", action="store_true", help="small sizes: a smoke test")
    args = parser.parse_args(argv)
    if args.quick:
        args.per_member, args.calls, args.cold_rounds, args.new_runs = 50, 10, 2, 3
    return args


if __name__ == "__main__":
    raise SystemExit(main())
