"""How many candidate episodes the two-stage search may keep without losing recall, on real data.

Every LoCoMo conversation has fewer sessions than any sensible candidate count, so the main
benchmark never exercises the first stage's cut. Here all conversations go into their own
memories through the product's write path, then one index holds every session of all of them
(each conversation's sessions are the others' distractors: casual chat between friends, like
its own), and each question is asked of that index with the cut at several candidate counts
and without one, two ways: candidates chosen as the product chooses them (half by centroid,
half by the words of their best-matching units) and by centroid alone (the product before).
Reported: session recall_any@5 and turn recall_any@10 per count, pooled over all questions,
and how often each count returns the same top 5 sessions as no cut.

    python -m benchmarks.research.candidate_cut --out build/candidate_cut.json
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np
import numpy.typing as npt

from agent_memory.adapters.local.embeddings import LocalEmbedder
from agent_memory.core.model.models import Episode
from agent_memory.core.privacy.scrubbing import pseudonyms_for, query_form
from agent_memory.core.retrieval.episode_index import EpisodeIndex
from benchmarks.bench_data import dataset
from benchmarks.metrics import recall_any
from benchmarks.retrieval import (
    TENANT,
    benchmark_clock,
    events_from_sessions,
    load_conversation,
    load_into_memory,
    open_memory,
)

COUNTS = (8, 16, 32, 64)
NAMES = ("26", "30", "41", "42", "43")


def merged_episodes(
    data: Path, names: Sequence[str], embedder: LocalEmbedder, store: Path
) -> tuple[list[Episode], list[dict[str, Any]], float]:
    """Every session of every conversation as an episode (run id ``name/session-N``), each
    question as its scrubbed text, vector and relevant sessions and turns; and the clock.
    """
    episodes: list[Episode] = []
    turns: dict[tuple[str, int], str] = {}
    questions: list[dict[str, Any]] = []
    clocks = []
    for name in names:
        conversation = load_conversation(data / f"{name}.json")
        events, units = events_from_sessions(conversation)
        ports = open_memory(store / name, conversation, embedder)
        load_into_memory(ports, events)
        now = benchmark_clock(conversation)
        clocks.append(now)
        for session in conversation.sessions:
            episode = ports.episodes.get(TENANT, conversation.agent_id, session.run_id, now=now)
            assert episode is not None
            episodes.append(dataclasses.replace(episode, run_id=f"{name}/{session.run_id}"))
        turns.update({(f"{name}/{run}", seq): f"{name}/{t}" for (run, seq), t in units.items()})
        pseudonyms = pseudonyms_for(ports.pseudonym_key, TENANT)
        for question in conversation.questions:
            text = query_form(question.text, ports.pii, pseudonyms)
            questions.append(
                {
                    "text": text,
                    "vector": embedder.embed_query(text),
                    "sessions": {f"{name}/session-{s}" for s in question.sessions},
                    "turns": {f"{name}/{t}" for t in question.evidence},
                }
            )
        print(f"[{name}] {len(conversation.sessions)} sessions loaded", file=sys.stderr)
    for asked in questions:
        asked["units"] = turns
    # Every episode is live at the earliest clock: retention covers each conversation's span.
    return episodes, questions, min(clocks)


def evaluate(
    index: EpisodeIndex, questions: Sequence[dict[str, Any]], now: float
) -> dict[str, Any]:
    """Recall at each candidate count and without a cut, agreement with no cut, and how many
    of the no-cut top 5 sessions the first stage keeps (what a first stage is for: its
    scores are standardised over fewer units, so even a perfect one may reorder the top 5).
    """
    counts = [*COUNTS, len(index.episodes)]
    found: dict[int, list[tuple[list[str], list[str]]]] = {c: [] for c in counts}
    kept: dict[int, list[float]] = {c: [] for c in counts}
    for question in questions:
        terms = index.lexical.terms(question["text"])
        uncut: list[str] | None = None
        for count in counts:
            result = index.search(
                question["text"],
                question["vector"],
                now=now,
                top_episodes=10,
                top_units=10,
                candidates=count,
            )
            sessions = [hit.episode.run_id for hit in result.episodes]
            turns = [
                question["units"][(hit.run_id, hit.unit.seq)]
                for hit in result.units
                if hit.unit.kind == "message"
            ]
            found[count].append((sessions, turns))
        for count in reversed(counts):  # no cut first
            if uncut is None:
                uncut = found[count][-1][0][:5]
            chosen = index._candidates(terms, question["vector"], now, count)
            first_stage = {index.episodes[int(i)].run_id for i in chosen}
            kept[count].append(len(first_stage.intersection(uncut)) / len(uncut))
    full = found[len(index.episodes)]
    rows = {}
    for count in counts:
        pairs = list(zip(found[count], questions, strict=True))
        rows["all" if count == len(index.episodes) else str(count)] = {
            "session recall_any@5": round(
                sum(recall_any(s, q["sessions"], 5) for (s, _), q in pairs) / len(pairs), 4
            ),
            "turn recall_any@10": round(
                sum(recall_any(t, q["turns"], 10) for (_, t), q in pairs) / len(pairs), 4
            ),
            "same top 5 sessions as no cut": round(
                sum(a[:5] == b[:5] for (a, _), (b, _) in zip(found[count], full, strict=True))
                / len(pairs),
                4,
            ),
            "no-cut top 5 sessions kept by the first stage": round(float(np.mean(kept[count])), 4),
        }
    return rows


def centroid_only(index: EpisodeIndex) -> Callable[..., npt.NDArray[np.int64]]:
    """The first stage as it was: the ``candidates`` nearest centroids (all episodes live)."""

    def candidates(terms: Any, q: Any, now: float, count: int) -> npt.NDArray[np.int64]:
        if count >= len(index.episodes):
            return np.arange(len(index.episodes))
        return np.sort(index._nearest(q, None, count))

    return candidates


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    args.data = dataset("locomo", args.data)
    embedder = LocalEmbedder()
    with tempfile.TemporaryDirectory(prefix="locomo-merged-") as tmp:
        episodes, questions, now = merged_episodes(args.data, NAMES, embedder, Path(tmp))
    index = EpisodeIndex(episodes, embedder.model_id, embedder.dimension)
    report: dict[str, Any] = {
        "what": "one index over every session of the LoCoMo conversations; each question "
        "asked of it with the first stage cut at each candidate count, and without a cut",
        "conversations": list(NAMES),
        "episodes": len(episodes),
        "questions": len(questions),
        "by_candidates": {"centroid and words (product)": evaluate(index, questions, now)},
    }
    with mock.patch.object(index, "_candidates", centroid_only(index)):
        report["by_candidates"]["centroid only (before)"] = evaluate(index, questions, now)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report["by_candidates"], indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
