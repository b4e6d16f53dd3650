"""The relatedness gate's two thresholds, measured on what they judge: a run of a memory.

Bootstrap serves nothing when no run of the memory is related to the task. A run is related
when its best unit is as similar to the task as the embedding model's calibrated threshold
(``min_similarity``) or when it holds ``min_word_share`` of the task's word weight (the IDF
over runs of the task's distinct terms, ``Bm25Index.word_shares``). Each LoCoMo dev
conversation goes into its own memory through the product's write path; each of its questions
is asked of that memory (its evidence runs: what must pass) and of the other dev
conversation's memory (unrelated: what must not). Reported per signal: the evidence runs'
and the unrelated memories' best runs' percentiles, and the share of each that passes at
several thresholds. The word share is set, like the similarity threshold, at the unrelated
side's 99th percentile to two decimals.

    python -m benchmarks.research.gate_calibration --out benchmarks/results/gate_calibration.json
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from agent_memory.adapters.local.embeddings import LocalEmbedder
from agent_memory.core.ports import MemoryPorts
from agent_memory.core.privacy.scrubbing import pseudonyms_for, query_form
from agent_memory.core.retrieval.episode_index import EpisodeIndex, EpisodeIndexCache
from benchmarks.bench_data import dataset
from benchmarks.retrieval import (
    DEV_CONVERSATIONS,
    TENANT,
    Conversation,
    benchmark_clock,
    events_from_sessions,
    load_conversation,
    load_into_memory,
    open_memory,
)

THRESHOLDS = {
    "similarity": (0.25, 0.30, 0.33, 0.40),
    "word share": (0.3, 0.4, 0.5, 0.6, 0.7),
}
PERCENTILES = (10, 50, 90, 99)


class Memory:
    """One conversation's memory, as the product stores and indexes it."""

    def __init__(self, conversation: Conversation, embedder: LocalEmbedder, store: Path) -> None:
        self.conversation = conversation
        self.ports: MemoryPorts = open_memory(store, conversation, embedder)
        events, _ = events_from_sessions(conversation)
        load_into_memory(self.ports, events)
        self.now = benchmark_clock(conversation)
        # The index the local wiring's cache builds, as the core's class: the gate's word
        # shares and the indexed runs are not part of the EpisodeIndexes port.
        self.index: EpisodeIndex = EpisodeIndexCache().index(
            self.ports.episodes,
            self.ports.embedder,
            TENANT,
            conversation.agent_id,
            now=self.now,
            policy=self.ports.policies.episodic,
        )

    def judged(self, question: str) -> dict[str, dict[int, float]]:
        """Per signal, each session's value for ``question`` (asked as the product asks it)."""
        text = query_form(
            question, self.ports.pii, pseudonyms_for(self.ports.pseudonym_key, TENANT)
        )
        shares = self.index.word_shares(text)
        found = self.index.search(
            text,
            self.ports.embedder.embed_query(text),
            now=self.now,
            top_episodes=len(self.index.episodes),
        )
        return {
            "similarity": {_session(h.episode.run_id): h.similarity for h in found.episodes},
            "word share": {
                _session(e.run_id): float(s)
                for e, s in zip(self.index.episodes, shares, strict=True)
            },
        }


def _session(run_id: str) -> int:
    return int(run_id.removeprefix("session-"))


def measure(memories: Sequence[Memory]) -> dict[str, dict[str, list[float]]]:
    """Per signal: each question's best evidence run in its own memory, and the best run of
    the other memory (questions without evidence sessions left out).
    """
    values: dict[str, dict[str, list[float]]] = {
        signal: {"evidence run": [], "unrelated memory's best run": []} for signal in THRESHOLDS
    }
    for own in memories:
        others = [m for m in memories if m is not own]
        for question in own.conversation.questions:
            if not question.sessions:
                continue
            mine = own.judged(question.text)
            theirs = [other.judged(question.text) for other in others]
            for signal, row in values.items():
                row["evidence run"].append(max(mine[signal].get(s, 0.0) for s in question.sessions))
                row["unrelated memory's best run"].append(
                    max(max(t[signal].values()) for t in theirs)
                )
    return values


def summary(values: Mapping[str, Mapping[str, Sequence[float]]]) -> dict[str, Any]:
    """Percentiles and pass rates per signal and side; the unrelated side's p99 to two decimals."""
    report: dict[str, Any] = {}
    for signal, sides in values.items():
        report[signal] = {
            side: {
                "n": len(v),
                "percentiles": {f"p{p}": round(float(np.percentile(v, p)), 3) for p in PERCENTILES},
                "passing at": {
                    str(t): round(float(np.mean(np.asarray(v) >= t)), 3) for t in THRESHOLDS[signal]
                },
            }
            for side, v in sides.items()
        }
        unrelated = sides["unrelated memory's best run"]
        report[signal]["unrelated p99, two decimals"] = round(
            float(np.percentile(unrelated, 99)), 2
        )
    return report


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    args.data = dataset("locomo", args.data)
    embedder = LocalEmbedder()
    with tempfile.TemporaryDirectory(prefix="gate-calibration-") as tmp:
        memories = [
            Memory(load_conversation(args.data / f"{name}.json"), embedder, Path(tmp) / name)
            for name in sorted(DEV_CONVERSATIONS)
        ]
        print(f"{len(memories)} dev memories loaded", file=sys.stderr)
        report = {
            "what": "each LoCoMo dev question asked of its own conversation's memory (its "
            "evidence runs) and of the other dev conversation's (its best run); per signal "
            "of the gate: a run's best unit's cosine, and the share of the question's word "
            "weight (IDF over runs) the run holds",
            "conversations": sorted(DEV_CONVERSATIONS),
            "model": embedder.model_id,
            "signals": summary(measure(memories)),
        }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report["signals"], indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
