"""Bytes a cold index load reads from DynamoDB: the GSI projected ALL vs only what ranking reads.

A bootstrap whose container holds no index for the agent reads the agent's newest
``EpisodicPolicy.candidates`` episodes through ``agent-time-index`` (projection ALL today), and
reads the parts of any split episode by key from the table. Query is billed on the summed size
of the index entries it returns per page (rounded up to 4 KB, half a unit each when eventually
consistent): "Read consumption for Query",
https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html;
an INCLUDE projection bills only the projected attributes ("Projections",
https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.Projections).

Episodes come from the product's write path: realistic ``RunFinished`` events
(:func:`benchmarks.synthetic.run_event`) consolidated by :func:`consolidate` (extraction, PII
scrubbing, units from the messages, embedding) into a local store, with a 1,024-dim embedder
(Titan Text Embeddings v2's width; the vectors' values do not change their stored size). Each
episode is then laid out as the DynamoDB adapter writes it (``_item``, ``split_item``) and sized
by DynamoDB's rules (:func:`item_size`).

    python benchmarks/cold_index_load.py --out benchmarks/results/cold_index_load.json
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import sys
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

if __package__ in {None, ""}:  # run as a script: make ``benchmarks`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agent_memory.adapters.aws.dynamodb_codec import Item, item_size
from agent_memory.adapters.aws.dynamodb_episodes import _item, split_item
from agent_memory.adapters.aws.dynamodb_schema import AGENT_TIME_INDEX, EPISODES
from agent_memory.core.model.models import Episode
from agent_memory.core.model.policies import EpisodicPolicy
from agent_memory.core.retrieval.episode_index import recent_episodes
from agent_memory.core.workflows.consolidation import consolidate
from agent_memory.wiring.local import local_ports
from agent_memory.wiring.local_settings import LocalSettings
from benchmarks.bench_latency import with_calibration
from benchmarks.synthetic import AGENT, TENANT, HashingEmbedder, run_event

# What building and searching the index reads of an episode (EpisodeIndex, index_rows.prepare,
# Episode.in_space, reranking): its identity, times, outcome, summary (the task only for want
# of one), its units and every vector; and the overflow bookkeeping that finds its parts.
RANKING = (
    "tenant_id",
    "agent_id",
    "task_summary",
    "outcome",
    "expires_at",
    "units",
    *(f"{p}{s}" for p in ("embedding", "spare_embedding") for s in ("", "_model", "_dimension")),
    *(f"{p}{s}" for p in ("unit", "unit_spare") for s in ("_model", "_dimension", "_vectors")),
    "parts",
    "moved",
    "overflow_id",
)
# The summary is empty only when extraction found none; ranking then reads the task.
RANKING_WITH_TASK = (*RANKING, "task")
# Billing granularity of reads, and a Query page (the core's page size; 1 MB is DynamoDB's cap).
READ_UNIT_BYTES = 4 * 1024
PAGE_BYTES = 1024 * 1024
START = 1_790_000_000  # epoch seconds: 2026-09-21
PROFILES = {
    "with_messages": "Runs with their messages (synthetic.run_event: 10-30 messages)",
    "artifacts_only": "Runs that report only artifacts (no messages: units are the findings)",
}


def build_episodes(
    count: int, dimension: int, seed: int, *, messages: bool = True
) -> list[Episode]:
    """``count`` episodes of one agent through the product's write path, newest first;
    without ``messages``, runs that report only their artifacts (units: the findings alone).
    """
    rng = random.Random(seed)
    embedder = HashingEmbedder(dimension, f"bench-hashing-{dimension}")
    with tempfile.TemporaryDirectory(prefix="bench-cold-index-") as tmp:
        ports = local_ports(LocalSettings(store=Path(tmp) / "store"), embedder=embedder)
        # A clock that ticks a second a call from a fixed start: the same bytes every run.
        ticks = itertools.count(START)
        ports = replace(
            with_calibration(ports, embedder.model_id), clock=lambda: float(next(ticks))
        )
        for number in range(count):
            event = run_event(number, rng, tenant=TENANT, agent=AGENT)
            if not messages:
                del event["messages"]
            consolidate(event, ports)
        policy = EpisodicPolicy(candidates=count)
        return recent_episodes(ports.episodes, TENANT, AGENT, now=ports.clock(), policy=policy)


def projected(item: Item, attributes: tuple[str, ...] | None) -> Item:
    """The index entry of ``item``: every attribute (ALL), or its keys and ``attributes``."""
    if attributes is None:
        return item
    keys = {*EPISODES.key_names, *EPISODES.index(AGENT_TIME_INDEX).key_names}
    return {k: v for k, v in item.items() if k in keys or k in attributes}


def read_units(sizes: list[int], page_items: int) -> float:
    """Read capacity units of a Query returning entries of these sizes, page by page
    (eventually consistent: half a unit per 4 KB of each page's total).
    """
    units = 0.0
    page: list[int] = []
    for size in sizes:
        if page and (len(page) >= page_items or sum(page) + size > PAGE_BYTES):
            units += math.ceil(sum(page) / READ_UNIT_BYTES) / 2
            page = []
        page.append(size)
    if page:
        units += math.ceil(sum(page) / READ_UNIT_BYTES) / 2
    return units


def measure(episodes: list[Episode], page_items: int) -> dict[str, Any]:
    """Bytes and read units of one cold load of ``episodes`` under each projection."""
    split = [split_item(_item(e)) for e in episodes]
    # Parts are read from the table by key (BatchGetItem, strongly consistent) either way.
    part_bytes = sum(item_size(p) for _, parts in split for p in parts)
    result: dict[str, Any] = {
        "episodes": len(episodes),
        "units_per_episode_mean": round(sum(len(e.units) for e in episodes) / len(episodes), 1),
        "split_episodes": sum(bool(parts) for _, parts in split),
        "part_bytes": part_bytes,
    }
    lanes = {"all": None, "include_ranking": RANKING, "include_ranking_and_task": RANKING_WITH_TASK}
    for lane, attributes in lanes.items():
        sizes = [item_size(projected(main, attributes)) for main, _ in split]
        result[lane] = {
            "index_bytes": sum(sizes),
            "index_bytes_per_episode_mean": round(sum(sizes) / len(sizes)),
            "query_read_units": read_units(sizes, page_items),
        }
    base = result["all"]["index_bytes"]
    for lane in ("include_ranking", "include_ranking_and_task"):
        result[lane]["over_all"] = round(result[lane]["index_bytes"] / base, 4)
        result[lane]["saving"] = round(1 - result[lane]["index_bytes"] / base, 4)
    # Bytes of each attribute over every index entry under ALL, split by whether ranking reads it.
    read: dict[str, int] = {}
    unread: dict[str, int] = {}
    for main, _ in split:
        kept = projected(main, RANKING_WITH_TASK)
        for name, value in main.items():
            tally = read if name in kept else unread
            tally[name] = tally.get(name, 0) + item_size({name: value})
    result["read_attribute_bytes"] = dict(sorted(read.items(), key=lambda kv: -kv[1]))
    result["unread_attribute_bytes"] = dict(sorted(unread.items(), key=lambda kv: -kv[1]))
    return result


def markdown(results: dict[str, Any]) -> str:
    """The results as Markdown: one table per agent profile."""
    lines = [
        f"# Cold index load: {results['episodes']} episodes of one agent, "
        f"{results['dimension']}-dim vectors",
        "",
        "Bytes of the `agent-time-index` entries one cold load reads (DynamoDB's item-size rules, "
        "what reads are billed on), and eventually consistent Query RCUs (pages of at most 100 "
        "entries or 1 MB).",
        "",
    ]
    for profile, title in PROFILES.items():
        lines += [f"## {title}", "", profile_markdown(results[profile])]
    return "\n".join(lines)


def profile_markdown(result: dict[str, Any]) -> str:
    """One profile's results as a Markdown table."""
    rows = [
        "| projection | index bytes | bytes / episode | Query RCUs | over ALL |",
        "|---|---:|---:|---:|---:|",
    ]
    for lane in ("all", "include_ranking_and_task", "include_ranking"):
        r = result[lane]
        rows.append(
            f"| {lane} | {r['index_bytes']:,} | {r['index_bytes_per_episode_mean']:,} "
            f"| {r['query_read_units']:g} | {r.get('over_all', 1.0):.4f} |"
        )
    unread = ", ".join(f"{k} {v:,}" for k, v in result["unread_attribute_bytes"].items())
    largest = list(result["read_attribute_bytes"].items())[:4]
    read = ", ".join(f"{k} {v:,}" for k, v in largest)
    return "\n".join(
        [
            f"Units per episode (mean): {result['units_per_episode_mean']}; split episodes: "
            f"{result['split_episodes']}; part bytes (read by key either way): "
            f"{result['part_bytes']:,}.",
            "",
            *rows,
            "",
            f"Bytes ALL projects that ranking never reads: {unread}.",
            "",
            f"Largest attributes ranking reads: {read}.",
            "",
        ]
    )


def main() -> None:
    """Build the agent, measure, write JSON and Markdown."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--episodes", type=int, default=500)
    parser.add_argument("--dimension", type=int, default=1024)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/cold_index_load.json"))
    args = parser.parse_args()
    result: dict[str, Any] = {
        "episodes": args.episodes,
        "dimension": args.dimension,
        "seed": args.seed,
    }
    for profile in PROFILES:
        episodes = build_episodes(
            args.episodes, args.dimension, args.seed, messages=profile == "with_messages"
        )
        result[profile] = measure(episodes, EpisodicPolicy().page_size)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    args.out.with_suffix(".md").write_text(markdown(result))
    print(markdown(result))


if __name__ == "__main__":
    main()
