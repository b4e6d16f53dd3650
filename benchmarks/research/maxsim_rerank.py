"""Late interaction (MaxSim) over MiniLM's own token states as a reranker (research only).

No packaged cross-encoder runs here (RETRIEVAL_RECIPE.md, "Reranker"), but the embedding model
already computes one state per WordPiece token before it mean-pools them. ColBERT's MaxSim
scores a unit by the mean, over the question's tokens, of each token's best cosine against the
unit's tokens; it keeps the word-level matching a mean-pooled vector blurs, with no second
model. Here it reranks the product's own candidates on the product's LoCoMo memory: the
question's query form and the stored (pseudonymised) unit texts, both through the product's
model; the product's read path left as it is.

Per question: the product's ranked message units (``search_episodes`` asked for every unit it
will rank), the top ``POOL`` of them rescored by ``z(product score) + w * z(MaxSim)``; turn
recall_any@10 from that order, session recall_any@5 from the sessions in the order their best
unit comes (and, separately, the product's episode scores fused with each session's best
MaxSim). Paired counts are against w = 0 (the product's own unit order) and the product's own
episode ranking. Also reported: what storing token states would cost (float16 bytes per unit
against one float32 vector) and the rerank's time beside the product search's, both timed in
this run. Run from the repository root::

    .venv/bin/python benchmarks/research/maxsim_rerank.py --split dev --out build/maxsim-dev.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

if __package__ in {None, ""}:  # run as a script: make ``benchmarks`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from agent_memory.adapters.local.embeddings import MAX_TOKENS, LocalEmbedder
from agent_memory.app import Application
from agent_memory.app.messages import SearchEpisodes
from agent_memory.core.model.models import unit_text
from agent_memory.core.privacy.scrubbing import pseudonyms_for, query_form
from agent_memory.core.retrieval import lexical
from benchmarks import longmemeval as lme
from benchmarks import retrieval as locomo
from benchmarks.bench_consolidation import TimedEmbedder
from benchmarks.research import longmemeval_ablation as ablation

REPO = Path(__file__).resolve().parents[2]
POOL = 50  # the product's top message units rescored: five times the turn cut-off
WEIGHTS = (0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0)
SESSION_WEIGHTS = (0.25, 0.5, 1.0, 2.0)
Matrix = npt.NDArray[np.float32]


@dataclass(frozen=True)
class States:
    """One text's token states (unit length, special tokens dropped) and its WordPieces."""

    vectors: Matrix
    pieces: tuple[str, ...]


def token_states(embedder: LocalEmbedder, texts: Sequence[str], batch: int = 32) -> list[States]:
    """MiniLM's last hidden states per WordPiece, the first window of each text only."""
    model = embedder._load()
    encodings = model.tokenizer.encode_batch(list(texts), add_special_tokens=False)
    out = []
    for start in range(0, len(encodings), batch):
        chunk = encodings[start : start + batch]
        rows = [[model.cls_id, *e.ids[: MAX_TOKENS - 2], model.sep_id] for e in chunk]
        ids = np.zeros((len(rows), max(map(len, rows))), dtype=np.int64)
        mask = np.zeros_like(ids)
        for r, row in enumerate(rows):
            ids[r, : len(row)] = row
            mask[r, : len(row)] = 1
        hidden = model.session.run(
            None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": mask * 0}
        )[0]
        for r, (row, encoding) in enumerate(zip(rows, chunk, strict=True)):
            v = hidden[r, 1 : len(row) - 1].astype(np.float32)
            v /= np.linalg.norm(v, axis=1, keepdims=True) + 1e-9
            out.append(States(v, tuple(encoding.tokens[: MAX_TOKENS - 2])))
    return out


def content(query: States) -> Matrix:
    """The question's word tokens the lexical index would keep (stop words and marks dropped)."""
    keep = [
        i
        for i, piece in enumerate(query.pieces)
        if piece.lstrip("#").isalnum() and piece.lstrip("#") not in lexical.STOP_WORDS
    ]
    return query.vectors[keep] if keep else query.vectors


def maxsim(query: Matrix, unit: States) -> float:
    return float((query @ unit.vectors.T).max(axis=1).mean())


def _z(x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    z: npt.NDArray[np.float64] = (x - x.mean()) / (x.std() + 1e-9)
    return z


def _sessions_in_order(sessions: Sequence[int], order: Sequence[int]) -> list[int]:
    seen: list[int] = []
    for i in order:
        if sessions[i] not in seen:
            seen.append(sessions[i])
    return seen


def run(files: Sequence[Path], embedder: Any, model: LocalEmbedder) -> dict[str, Any]:
    keys = [
        *(f"w={w}" for w in WEIGHTS),
        "MaxSim alone (pool, content tokens)",
        "MaxSim alone (every ranked unit, all tokens)",
    ]
    turn: dict[str, list[float]] = {k: [] for k in keys}
    session: dict[str, list[float]] = {k: [] for k in keys}
    fused_sessions: dict[str, list[float]] = {f"w={w}": [] for w in SESSION_WEIGHTS}
    product_sessions: list[float] = []
    ranked, unit_tokens, search_ms, rerank_ms = [], [], [], []
    for path in files:
        conversation = locomo.load_conversation(path)
        lme.progress(f"LoCoMo {conversation.name}: {len(conversation.questions)} questions")
        events, units = locomo.events_from_sessions(conversation)
        now = locomo.benchmark_clock(conversation)
        with tempfile.TemporaryDirectory(prefix="maxsim-locomo-") as tmp:
            ports = locomo.open_memory(Path(tmp), conversation, embedder)
            locomo.load_into_memory(ports, events)
            pseudonyms = pseudonyms_for(ports.pseudonym_key, locomo.TENANT)
            cache: dict[tuple[str, int], States] = {}
            for question in conversation.questions:
                if not question.evidence:
                    continue
                started = time.perf_counter()
                result = Application(ports).handle(
                    SearchEpisodes(
                        locomo.TENANT,
                        conversation.agent_id,
                        question.text,
                        top_episodes=len(conversation.sessions),
                        top_units=100_000,
                        as_of=now,
                    )
                )
                search_ms.append((time.perf_counter() - started) * 1000)
                hits = [h for h in result.units if h.unit.kind == "message"]
                ranked.append(len(hits))
                new = [h for h in hits if (h.run_id, h.unit.seq) not in cache]
                for h, states in zip(
                    new, token_states(model, [unit_text(h.unit) for h in new]), strict=True
                ):
                    cache[(h.run_id, h.unit.seq)] = states
                    unit_tokens.append(len(states.pieces))
                form = query_form(question.text, ports.pii, pseudonyms)
                query = token_states(model, [form])[0]
                words = content(query)
                pool = hits[:POOL]
                started = time.perf_counter()
                sims = np.array([maxsim(words, cache[(h.run_id, h.unit.seq)]) for h in pool])
                base = np.array([h.score for h in pool])
                order = {
                    f"w={w}": np.argsort(-(_z(base) + w * _z(sims)), kind="stable") for w in WEIGHTS
                }
                rerank_ms.append((time.perf_counter() - started) * 1000)
                order["MaxSim alone (pool, content tokens)"] = np.argsort(-sims, kind="stable")
                turns = [units.get((h.run_id, h.unit.seq)) for h in pool]
                numbers = [ablation._session_number(h.run_id) for h in pool]
                every = np.array(
                    [maxsim(query.vectors, cache[(h.run_id, h.unit.seq)]) for h in hits]
                )
                every_order = np.argsort(-every, kind="stable")
                for key, o in order.items():
                    turn[key].append(float(bool({turns[i] for i in o[:10]} & question.evidence)))
                    top5 = _sessions_in_order(numbers, list(o))[:5]
                    session[key].append(float(bool(set(top5) & question.sessions)))
                all_turns = [units.get((h.run_id, h.unit.seq)) for h in hits]
                all_numbers = [ablation._session_number(h.run_id) for h in hits]
                key = "MaxSim alone (every ranked unit, all tokens)"
                turn[key].append(
                    float(bool({all_turns[i] for i in every_order[:10]} & question.evidence))
                )
                top5 = _sessions_in_order(all_numbers, list(every_order))[:5]
                session[key].append(float(bool(set(top5) & question.sessions)))
                best: dict[int, float] = {}
                for h in hits:
                    n = ablation._session_number(h.run_id)
                    s = maxsim(words, cache[(h.run_id, h.unit.seq)])
                    best[n] = max(best.get(n, -1.0), s)
                episodes = [ablation._session_number(e.episode.run_id) for e in result.episodes]
                product_sessions.append(float(bool(set(episodes[:5]) & question.sessions)))
                scores = np.array([e.score for e in result.episodes])
                best_of = np.array([best.get(n, 0.0) for n in episodes])
                for w in SESSION_WEIGHTS:
                    o = np.argsort(-(_z(scores) + w * _z(best_of)), kind="stable")
                    top = {episodes[i] for i in o[:5]}
                    fused_sessions[f"w={w}"].append(float(bool(top & question.sessions)))
    baseline_turn, baseline_session = turn["w=0.0"], session["w=0.0"]
    rerank = {
        key: {
            "turn recall_any@10": round(statistics.fmean(turn[key]), 3),
            "session recall_any@5 (sessions by best unit)": round(
                statistics.fmean(session[key]), 3
            ),
            "paired turn vs w=0": ablation.paired(turn[key], baseline_turn),
            "paired session vs w=0": ablation.paired(session[key], baseline_session),
        }
        for key in keys
    }
    episode_fusion = {
        key: {
            "session recall_any@5": round(statistics.fmean(v), 3),
            "paired vs product": ablation.paired(v, product_sessions),
        }
        for key, v in fused_sessions.items()
    }
    mean_tokens = statistics.fmean(unit_tokens)
    return {
        "questions": len(product_sessions),
        "pool": POOL,
        "product session recall_any@5": round(statistics.fmean(product_sessions), 3),
        "rerank": rerank,
        "episode fusion": episode_fusion,
        "units ranked per question (min, max)": [min(ranked), max(ranked)],
        "cost": {
            "mean WordPieces per unit": round(mean_tokens, 1),
            "bytes per unit, token states float16": round(mean_tokens * 384 * 2),
            "bytes per unit, one float32 vector": 384 * 4,
            "product search p50 ms": round(statistics.median(search_ms), 2),
            "MaxSim rerank of the pool p50 ms (states in memory)": round(
                statistics.median(rerank_ms), 2
            ),
        },
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--locomo", type=Path, default=REPO.parent / "shared/data/locomo")
    parser.add_argument("--split", choices=["dev", "held-out", "all"], default="dev")
    parser.add_argument("--out", type=Path, default=REPO / "build" / "maxsim.json")
    parser.add_argument("--cache", type=Path, default=REPO / ablation.DEFAULT_CACHE)
    args = parser.parse_args(argv)
    files = [
        f
        for f in locomo.conversation_files(args.locomo)
        if args.split == "all" or locomo.split_of(f.stem) == args.split
    ]
    model = LocalEmbedder()
    result = run(files, lme.CachedEmbedder(TimedEmbedder(model), args.cache), model)
    result["files"] = [f.name for f in files]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
