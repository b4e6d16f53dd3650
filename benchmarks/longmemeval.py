"""Episodic retrieval on LongMemEval_S: the product's search and bootstrap beside BM25,
embeddings and RRF, one fresh memory per question.

Not part of the test suite (the loader and the per-question function are unit-tested). For
each question of the release's JSON (``longmemeval_s.json`` format):

1. a fresh local memory (``local_ports``: SQLite, the local embedder, the local PII detector),
   its pseudonym key fixed per question, its clock fixed at the question's ``question_date``
   and its retention long enough that no session expires, is loaded through ``consolidate``:
   one ``RunFinished`` event per haystack session, in date order (a stable sort), ``run_id``
   derived from the session id, the turns as messages with the dataset's own roles
   (``user``/``assistant``), ``finished_at`` the session's date, the task its first user turn
   (cut to the contract's ``MAX_TASK_CHARS``). ``answer`` is never read;
2. the question is asked through the application's ``SearchEpisodes`` query (top 10 episodes,
   top 10 units, the query embedded separately) and through ``bootstrap``; what the bootstrap
   block serves is read with ``benchmarks/served.py``;
3. baselines rank the product's own stored message units (read back from ``ports.episodes``):
   BM25 over their texts, the cosine of the question vector with their stored vectors, RRF
   (k=60) of the two; a session scores its best unit. BM25 over the raw data (whole sessions,
   and raw turns) is computed too, to check against the data README's figures.

Abstention questions (ids ending ``_abs``) are loaded and asked (served size, latency and
throughput count them) but left out of every retrieval metric. Run from the repository root::

    .venv/bin/python benchmarks/longmemeval.py --limit 8 --out benchmarks/results/longmemeval.json

``--data`` (a JSON file or a folder of them) defaults to ``$AGENT_MEMORY_BENCH_DATA/longmemeval``
relative to the repository root; the Markdown tables are written beside ``--out`` (``.md``).
``--cache DIR`` keeps embeddings between runs (keyed by sha256 of the model id and the text);
with it, model time counts cache misses only and no with-model throughput is reported.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import math
import re
import sqlite3
import sys
import tempfile
import time
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

if __package__ in {None, ""}:  # run as a script: make ``benchmarks`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np
import numpy.typing as npt

from agent_memory.adapters.local.embeddings import LocalEmbedder
from agent_memory.app import Application
from agent_memory.app.messages import SearchEpisodes
from agent_memory.core.api.bootstrap_request import parse_bootstrap_request
from agent_memory.core.api.contracts import ID_PATTERN, MAX_TASK_CHARS
from agent_memory.core.model.calibration import Calibration
from agent_memory.core.model.models import unit_text
from agent_memory.core.model.policies import DAY, EpisodicPolicy, Policies
from agent_memory.core.ports import Embedder, MemoryPorts, PiiDetector
from agent_memory.core.privacy.scrubbing import pseudonyms_for, query_form
from agent_memory.core.retrieval import vectors
from agent_memory.core.workflows.bootstrap import bootstrap
from agent_memory.wiring.local import PSEUDONYM_KEY_FILE, local_ports
from agent_memory.wiring.local_settings import LocalSettings
from benchmarks.bench_consolidation import TimedEmbedder
from benchmarks.bench_data import dataset
from benchmarks.metrics import first_relevant_rank, latency_summary, mean_metrics, question_metrics
from benchmarks.retrieval import (
    bm25_scores,
    environment,
    load_into_memory,
    rounded,
    rrf_scores,
    top_ids,
)
from benchmarks.served import TokenCounter, served

REPO = Path(__file__).resolve().parents[1]
TENANT = "longmemeval"
TOP = 10
DATE_FORMAT = "%Y/%m/%d (%a) %H:%M"  # "2023/05/20 (Sat) 02:21"
_ID = re.compile(ID_PATTERN)
_NOT_ID = re.compile(r"[^A-Za-z0-9._-]")

PRODUCT = "product (search_episodes)"
BM25 = "BM25 (bm25s), stored units"
EMBEDDINGS = "embeddings alone (stored vectors, cosine)"
RRF = "RRF k=60 (BM25 + embeddings)"
BM25_SESSIONS = "BM25, whole raw sessions"
BM25_RAW_TURNS = "BM25, raw turns"
SYSTEMS = (PRODUCT, BM25, EMBEDDINGS, RRF, BM25_SESSIONS, BM25_RAW_TURNS)
SESSION_METRICS = (
    "recall_any@1",
    "recall_any@5",
    "recall_any@10",
    "recall_all@5",
    "recall_all@10",
    "ndcg@10",
)
TURN_METRICS = ("recall_any@5", "recall_any@10", "recall_all@10", "ndcg@10")
# The data README's plain BM25 on these 80 questions (76 without abstention), measured by the
# data's curator: what the raw-data BM25 rows should reproduce on the full file.
README_BM25 = {
    "session": {"recall_any@5": 0.987, "recall_all@5": 0.882},
    "turn": {"recall_any@5": 0.816, "recall_any@10": 0.882},
}
README_QUESTIONS = 76
# Published by the systems' own authors on all of LongMemEval_S (500 questions), session level;
# not measured here (from the data README).
PEERS = (
    (
        "agentmemory (BM25 + all-MiniLM-L6-v2 hybrid)",
        "recall_any@5 0.952, @10 0.986, nDCG@10 0.879",
    ),
    ("MemPalace (raw)", "recall_any@5 0.966"),
    ("memweave (0.7 vector + 0.3 BM25)", "recall@5 0.980, @10 0.991"),
    (
        "paper, LongMemEval_M, session recall@5",
        "BM25 0.634, Stella 0.720, Stella + fact keys 0.732",
    ),
)


# ---------------------------------------------------------------- data


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn as in the raw data."""

    role: str
    content: str
    has_answer: bool


# A shorter answer ("3", "no") would be found in a block by chance.
MIN_ANSWER_CHARS = 3


@dataclass(frozen=True, slots=True)
class Session:
    """One haystack session, which the product sees as one finished run."""

    session_id: str
    run_id: str
    finished_at: datetime
    turns: tuple[Turn, ...]

    @property
    def chars(self) -> int:
        return sum(len(t.content) for t in self.turns)


@dataclass(frozen=True, slots=True)
class Question:
    """A question with its haystack in date order and its evidence. Its answer is kept only
    as ``answer_span``, to score the served block against, and never reaches the product.
    """

    question_id: str
    question_type: str
    text: str
    asked_at: datetime
    sessions: tuple[Session, ...]
    answer_sessions: frozenset[str]
    source: str
    # The answer, lower-cased on one line, where an evidence turn says it word for word.
    answer_span: str | None = None

    @property
    def abstention(self) -> bool:
        return self.question_id.endswith("_abs")

    @property
    def evidence_turns(self) -> frozenset[tuple[str, int]]:
        """``(session_id, turn index)`` of every ``has_answer`` turn."""
        return frozenset(
            (s.session_id, i) for s in self.sessions for i, t in enumerate(s.turns) if t.has_answer
        )

    @property
    def agent_id(self) -> str:
        return identifier(f"q-{self.question_id}")

    @property
    def now(self) -> float:
        return self.asked_at.timestamp()


def parse_date(text: str) -> datetime:
    """A LongMemEval date ("2023/05/20 (Sat) 02:21") as an aware UTC datetime."""
    return datetime.strptime(text.strip(), DATE_FORMAT).replace(tzinfo=UTC)


def identifier(text: str) -> str:
    """``text`` as a product identifier: other characters become ``-``; a long or badly
    starting one is cut and suffixed with a digest of the original, so ids stay distinct.
    """
    cleaned = _NOT_ID.sub("-", text)
    if _ID.fullmatch(cleaned) and cleaned == text:
        return cleaned
    digest = hashlib.sha256(text.encode()).hexdigest()[:12]
    return f"x{cleaned[:100]}.{digest}"


def run_ids(session_ids: Sequence[str]) -> list[str]:
    """One distinct run id per session; a repeated session id gets ``.<n>`` (n = 2, 3, ...)."""
    taken: set[str] = set()
    out = []
    for session_id in session_ids:
        base = identifier(session_id)
        candidate, n = base, 1
        while candidate in taken:
            n += 1
            candidate = f"{base[:120]}.{n}"
        taken.add(candidate)
        out.append(candidate)
    return out


def question_from_json(raw: Mapping[str, Any], source: str) -> Question:
    """One question of the release; its sessions sorted stably by date. ``answer`` is read
    only for ``answer_span``.
    """
    dated = sorted(
        zip(
            raw["haystack_session_ids"],
            raw["haystack_dates"],
            raw["haystack_sessions"],
            strict=True,
        ),
        key=lambda item: parse_date(item[1]),
    )
    ids = run_ids([str(sid) for sid, _, _ in dated])
    sessions = tuple(
        Session(
            str(sid),
            run_id,
            parse_date(date),
            tuple(
                Turn(str(t["role"]), str(t.get("content") or ""), bool(t.get("has_answer")))
                for t in turns
            ),
        )
        for (sid, date, turns), run_id in zip(dated, ids, strict=True)
    )
    return Question(
        str(raw["question_id"]),
        str(raw["question_type"]),
        str(raw["question"]),
        parse_date(raw["question_date"]),
        sessions,
        frozenset(str(s) for s in raw["answer_session_ids"]),
        source,
        answer_span(str(raw.get("answer") or ""), sessions),
    )


def answer_span(answer: str, sessions: Sequence[Session]) -> str | None:
    """``answer`` lower-cased on one line, if an evidence turn says it word for word and it
    is at least ``MIN_ANSWER_CHARS`` long (a count such as "3" would match by chance).
    """
    span = flat_lower(answer)
    if len(span) < MIN_ANSWER_CHARS:
        return None
    evidence = (t.content for s in sessions for t in s.turns if t.has_answer)
    return span if any(span in flat_lower(text) for text in evidence) else None


def flat_lower(text: str) -> str:
    return " ".join(text.split()).lower()


def load_questions(path: Path) -> list[Question]:
    """The questions of one release file, or of every ``*.json`` in a folder (by name)."""
    files = sorted(path.glob("*.json")) if path.is_dir() else [path]
    return [
        question_from_json(raw, file.name)
        for file in files
        for raw in json.loads(file.read_text(encoding="utf-8"))
    ]


def session_task(session: Session) -> str:
    """The run's task: the session's first non-blank user turn, cut to the contract's limit."""
    first = next((t.content for t in session.turns if t.role == "user" and t.content.strip()), "")
    return (first.strip() or f"Chat session {session.session_id}")[:MAX_TASK_CHARS]


def events_for(
    question: Question,
) -> tuple[list[dict[str, Any]], dict[tuple[str, int], tuple[str, int]]]:
    """One RunFinished event per session (date order), and ``(run_id, seq) -> (session_id,
    turn index)``: ``seq`` is a message's index, which the product keeps as its unit's.
    """
    events, units = [], {}
    for session in question.sessions:
        for seq in range(len(session.turns)):
            units[(session.run_id, seq)] = (session.session_id, seq)
        events.append(
            {
                "tenant_id": TENANT,
                "agent_id": question.agent_id,
                "run_id": session.run_id,
                "task": session_task(session),
                "outcome": "COMPLETED",
                "finished_at": session.finished_at.isoformat(),
                "messages": [{"role": t.role, "content": t.content} for t in session.turns],
            }
        )
    return events, units


# ---------------------------------------------------------------- embedders


class CachedEmbedder:
    """Benchmark-only embedding cache in ``folder`` (SQLite), keyed by sha256 of the model id,
    the call kind and the text; misses go to ``inner`` (so its timing counts misses only).
    """

    def __init__(self, inner: TimedEmbedder, folder: Path) -> None:
        self.inner = inner
        folder.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(folder / "embeddings.sqlite")
        self._db.execute("CREATE TABLE IF NOT EXISTS v (k TEXT PRIMARY KEY, data BLOB)")
        self.hits = 0
        self.misses = 0

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    def _key(self, kind: str, text: str) -> str:
        return hashlib.sha256(f"{self.model_id}\0{kind}\0{text}".encode()).hexdigest()

    def _get(self, key: str) -> npt.NDArray[np.float32] | None:
        row = self._db.execute("SELECT data FROM v WHERE k = ?", (key,)).fetchone()
        return None if row is None else np.frombuffer(row[0], dtype="<f4").copy()

    def _put(self, key: str, vector: npt.NDArray[np.float32]) -> None:
        data = np.asarray(vector, dtype="<f4").tobytes()
        self._db.execute("INSERT OR REPLACE INTO v VALUES (?, ?)", (key, data))

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        keys = [self._key("doc", t) for t in texts]
        found = [self._get(k) for k in keys]
        missing = [i for i, v in enumerate(found) if v is None]
        self.hits += len(texts) - len(missing)
        self.misses += len(missing)
        if missing:
            fresh = self.inner.embed_documents([texts[i] for i in missing])
            for i, vector in zip(missing, fresh, strict=True):
                found[i] = vector
                self._put(keys[i], vector)
            self._db.commit()
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return np.stack([v for v in found if v is not None]).astype(np.float32)

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        key = self._key("query", text)
        vector = self._get(key)
        if vector is not None:
            self.hits += 1
            return vector
        self.misses += 1
        vector = self.inner.embed_query(text)
        self._put(key, vector)
        self._db.commit()
        return vector


# ---------------------------------------------------------------- one question


def question_policies(question: Question) -> Policies:
    """Default policies; retention past the question's span, candidates >= its sessions."""
    default = EpisodicPolicy()
    first = min(s.finished_at for s in question.sessions).timestamp()
    span_days = math.ceil(max(question.now - first, 0.0) / DAY)
    return Policies(
        episodic=dataclasses.replace(
            default,
            retention_days=default.retention_days + span_days,
            candidates=max(default.candidates, len(question.sessions)),
        )
    )


def open_memory(
    store: Path,
    question: Question,
    embedder: Embedder,
    pii: PiiDetector | None = None,
    calibrations: Mapping[str, Calibration] | None = None,
) -> MemoryPorts:
    """A fresh local memory in ``store``, its clock fixed at the question's date
    (``calibrations`` add thresholds for a test embedder's model family).
    """
    now = question.now
    # A fixed key per question: names are embedded as pseudonyms, so a random key would move
    # the vectors of named units between runs.
    store.mkdir(parents=True, exist_ok=True)
    # The key file's form (hexadecimal) of the same 32 bytes as ever.
    (store / PSEUDONYM_KEY_FILE).write_text(
        hashlib.sha256(f"longmemeval-benchmark:{question.question_id}".encode()).hexdigest()
    )
    ports = local_ports(
        LocalSettings(store=store), embedder=embedder, pii=pii, policies=question_policies(question)
    )
    return dataclasses.replace(
        ports, clock=lambda: now, calibrations={**ports.calibrations, **(calibrations or {})}
    )


def unique(items: Iterable[Hashable]) -> list[Hashable]:
    """``items`` without repeats, first occurrence kept."""
    return list(dict.fromkeys(items))


@dataclass
class QuestionRun:
    """What every system ranked for one question, what bootstrap served, how long it took."""

    rankings: dict[str, dict[str, list[Hashable]]] = field(default_factory=dict)
    served_sessions: list[str] = field(default_factory=list)
    served_turns: list[tuple[str, int]] = field(default_factory=list)
    served_tokens: int = 0
    served_chars: int = 0
    answer_shown: bool = False
    timings: dict[str, float] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    pii: dict[str, int] = field(default_factory=dict)
    bm25: str = ""


def stored_units(
    ports: MemoryPorts, question: Question
) -> tuple[list[tuple[str, int]], list[str], list[npt.NDArray[np.float32] | None]]:
    """The product's stored message units, read back: ids ``(session_id, seq)``, texts as the
    product matches them (``speaker: text``), vectors (``None``: stored without one).
    """
    ids, texts, vecs = [], [], []
    model_id = ports.embedder.model_id
    for session in question.sessions:
        episode = ports.episodes.get(TENANT, question.agent_id, session.run_id, now=ports.clock())
        if episode is None:
            raise RuntimeError(f"{session.run_id}: episode not found")
        for unit in episode.units:
            if unit.kind != "message":
                continue
            ids.append((session.session_id, unit.seq))
            texts.append(unit_text(unit))
            stored = unit.embedding
            usable = stored is not None and stored.model_id == model_id
            vecs.append(vectors.decode(stored) if usable and stored is not None else None)
    return ids, texts, vecs


def best_per_owner(
    scores: npt.NDArray[np.float64], owners: Sequence[str]
) -> tuple[npt.NDArray[np.float64], list[str]]:
    """Each owner's best score (owners in order of first appearance)."""
    names = unique(owners)
    owner = np.asarray(owners, dtype=object)
    best = np.array([scores[owner == n].max() for n in names], dtype=np.float64)
    return best, [str(n) for n in names]


def ranked(scores: npt.NDArray[np.float64], ids: Sequence[Hashable]) -> list[Hashable]:
    """Every id, best first (ties: earlier first), repeats dropped."""
    if not len(ids):
        return []
    return unique(top_ids(scores[None, :], ids, k=len(ids))[0])


def baseline_rankings(
    ports: MemoryPorts, question: Question, query: npt.NDArray[np.float32]
) -> tuple[dict[str, dict[str, list[Hashable]]], str]:
    """Session and turn rankings of every baseline; and which BM25 ran."""
    ids, texts, vecs = stored_units(ports, question)
    owners = [sid for sid, _ in ids]
    lexical, implementation = bm25_scores(texts, [question.text])
    dense = np.full(len(ids), -np.inf)
    present = [(i, v) for i, v in enumerate(vecs) if v is not None]
    with_vector = [i for i, _ in present]
    if present:
        matrix = np.stack([v for _, v in present]).astype(np.float64)
        dense[with_vector] = matrix @ np.asarray(query, dtype=np.float64)
    fused = rrf_scores(lexical, dense[None, :])[0]
    out: dict[str, dict[str, list[Hashable]]] = {}
    for name, scores in ((BM25, lexical[0]), (EMBEDDINGS, dense), (RRF, fused)):
        best, names = best_per_owner(scores, owners)
        out[name] = {"session": ranked(best, names), "turn": ranked(scores, ids)}
    raw_ids = [(s.session_id, i) for s in question.sessions for i in range(len(s.turns))]
    raw_texts = [t.content for s in question.sessions for t in s.turns]
    raw, _ = bm25_scores(raw_texts, [question.text])
    best, names = best_per_owner(raw[0], [sid for sid, _ in raw_ids])
    out[BM25_RAW_TURNS] = {"session": ranked(best, names), "turn": ranked(raw[0], raw_ids)}
    whole_texts = ["\n".join(t.content for t in s.turns) for s in question.sessions]
    whole, _ = bm25_scores(whole_texts, [question.text])
    out[BM25_SESSIONS] = {"session": ranked(whole[0], [s.session_id for s in question.sessions])}
    return out, implementation


def reproducible_block(reply: Mapping[str, Any], seed: str) -> dict[str, Any]:
    """``reply`` with its block's random marker token replaced by a fixed hex token of the
    same length (from ``seed``): the same size to the tokenizer, counted alike on every run.
    """
    token = str(reply.get("context_token") or "")
    context = str(reply.get("context") or "")
    if not token:
        return dict(reply)
    fixed = hashlib.sha256(seed.encode()).hexdigest()[: len(token)]
    return {**reply, "context": context.replace(token, fixed)}


def run_question(
    question: Question,
    embedder: TimedEmbedder | CachedEmbedder,
    counter: TokenCounter,
    *,
    pii: PiiDetector | None = None,
    calibrations: Mapping[str, Calibration] | None = None,
) -> QuestionRun:
    """Load one question's haystack into a fresh memory, ask it every way, rank every baseline."""
    timed = embedder.inner if isinstance(embedder, CachedEmbedder) else embedder
    events, unit_map = events_for(question)
    run = QuestionRun()
    with tempfile.TemporaryDirectory(prefix="longmemeval-") as tmp:
        ports = open_memory(Path(tmp), question, embedder, pii, calibrations)
        model_s, model_chars = timed.seconds, timed.chars
        start = time.perf_counter()
        run.pii = load_into_memory(ports, events)
        load_s = time.perf_counter() - start
        load_model_s, load_model_chars = timed.seconds - model_s, timed.chars - model_chars

        start = time.perf_counter()
        warm = Application(ports).handle(
            SearchEpisodes(TENANT, question.agent_id, "warm-up", top_episodes=len(events) + TOP)
        )
        cold_ms = (time.perf_counter() - start) * 1000
        live = len(warm["episodes"]) + warm["left_out"]["episodes"]
        if live != len(events):
            raise RuntimeError(f"{live} live episodes, expected {len(events)}")

        asked = time.perf_counter()
        form = query_form(question.text, ports.pii, pseudonyms_for(ports.pseudonym_key, TENANT))
        query = ports.embedder.embed_query(form)
        embedded = time.perf_counter()
        result = Application(ports).handle(
            SearchEpisodes(
                TENANT,
                question.agent_id,
                question.text,
                top_episodes=TOP,
                top_units=TOP,
                as_of=question.now,
                query_vector=query,
            )
        )
        searched = time.perf_counter()
        if result["left_out"] != {"episodes": 0, "units": 0}:
            raise RuntimeError(f"a search left out {result['left_out']}: raise max_reply_bytes")
        session_of = {s.run_id: s.session_id for s in question.sessions}
        run.rankings[PRODUCT] = {
            "session": unique(session_of[hit["run_id"]] for hit in result["episodes"]),
            "turn": unique(
                unit_map[(hit["run_id"], hit["seq"])]
                for hit in result["units"]
                if hit["kind"] == "message"
            ),
        }

        request = parse_bootstrap_request(
            {"tenant_id": TENANT, "agent_id": question.agent_id, "task": question.text}
        )
        start = time.perf_counter()
        reply = bootstrap(request, ports)
        bootstrap_ms = (time.perf_counter() - start) * 1000
        block = served(reproducible_block(reply, question.question_id), counter)
        run.served_sessions = list(dict.fromkeys(session_of[r] for r in block.runs))
        run.served_turns = sorted(unit_map[u] for u in block.units)
        run.served_tokens, run.served_chars = block.tokens, block.chars
        run.answer_shown = question.answer_span is not None and question.answer_span in flat_lower(
            str(reply.get("context") or "")
        )

        baselines, run.bm25 = baseline_rankings(ports, question, query)
        run.rankings.update(baselines)
    run.counts = {
        "sessions": len(events),
        "input_chars": sum(s.chars for s in question.sessions),
        "chars_embedded_on_load": load_model_chars,
        "turns": len(unit_map),
    }
    run.timings = {
        "load_s": load_s,
        "load_model_s": load_model_s,
        "cold_index_ms": cold_ms,
        "embed_query_ms": (embedded - asked) * 1000,
        "search_ms": (searched - embedded) * 1000,
        "bootstrap_ms": bootstrap_ms,
    }
    return run


# ---------------------------------------------------------------- scoring


def question_row(question: Question, run: QuestionRun) -> dict[str, Any]:
    """One question's row: its metrics per system and level (none for an abstention question or
    a level without evidence), first relevant ranks, what was served, timings.
    """
    sessions, turns = question.answer_sessions, question.evidence_turns
    scored = not question.abstention
    metrics: dict[str, dict[str, dict[str, float]]] = {}
    ranks: dict[str, dict[str, int | None]] = {}
    for system, levels in run.rankings.items():
        metrics[system], ranks[system] = {}, {}
        for level, relevant in (("session", sessions), ("turn", turns)):
            if level not in levels or not relevant or not scored:
                continue
            metrics[system][level] = question_metrics(levels[level], relevant)
            ranks[system][level] = first_relevant_rank(levels[level], relevant)
    served_row: dict[str, Any] = {"tokens": run.served_tokens, "chars": run.served_chars}
    if scored and sessions:
        served_row["session_recall_any"] = float(bool(sessions & set(run.served_sessions)))
        served_row["session_recall_all"] = float(sessions <= set(run.served_sessions))
    if scored and turns:
        served_row["turn_recall_any"] = float(bool(turns & set(run.served_turns)))
    if scored and question.answer_span is not None:
        served_row["answer_shown"] = float(run.answer_shown)
    return {
        "question_id": question.question_id,
        "question_type": question.question_type,
        "source": question.source,
        "abstention": question.abstention,
        "sessions": len(question.sessions),
        "answer_sessions": len(sessions),
        "evidence_turns": len(turns),
        "sessions_after_question_date": sum(
            s.finished_at > question.asked_at for s in question.sessions
        ),
        "first_relevant_rank": ranks,
        "metrics": metrics,
        "served": served_row,
        "served_episodes": len(run.served_sessions),
        "counts": run.counts,
        "timings": {k: round(v, 4) for k, v in run.timings.items()},
        "pii_entities_scrubbed": run.pii,
    }


def system_means(rows: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, dict[str, float]]]:
    """Mean metrics per system and level over ``rows`` (questions with that level scored)."""
    out: dict[str, dict[str, dict[str, float]]] = {}
    for system in SYSTEMS:
        out[system] = {}
        for level in ("session", "turn"):
            chosen = [
                r["metrics"][system][level] for r in rows if level in r["metrics"].get(system, {})
            ]
            if chosen:
                out[system][level] = {**rounded(mean_metrics(chosen)), "questions": len(chosen)}
    return out


def served_means(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Served recall over the scored questions; block tokens over every question."""
    out: dict[str, Any] = {}
    for key in ("turn_recall_any", "session_recall_any", "session_recall_all", "answer_shown"):
        values = [r["served"][key] for r in rows if key in r["served"]]
        if values:
            out[key] = round(sum(values) / len(values), 4)
    out["answer_span_questions"] = sum("answer_shown" in r["served"] for r in rows)
    tokens = [float(r["served"]["tokens"]) for r in rows]
    if tokens:
        summary = latency_summary(tokens)
        out["tokens"] = {
            "median": summary["p50"],
            "p95": round(summary["p95"], 1),
            "mean": round(summary["mean"], 1),
        }
        out["empty_blocks"] = sum(t == 0 for t in tokens)
    return out


def throughput(rows: Sequence[Mapping[str, Any]], cached: bool, hits: int) -> dict[str, Any]:
    """Write throughput over every question's load, with and without model time."""
    wall = sum(r["timings"]["load_s"] for r in rows)
    model = sum(r["timings"]["load_model_s"] for r in rows)
    sessions = sum(r["counts"]["sessions"] for r in rows)
    chars = sum(r["counts"]["input_chars"] for r in rows)
    embedded = [r["counts"]["chars_embedded_on_load"] for r in rows]
    out: dict[str, Any] = {
        "sessions": sessions,
        "input_chars": chars,
        "load_wall_s": round(wall, 2),
        "model_s": round(model, 2),
        "chars_embedded_per_question_mean": round(sum(embedded) / max(len(embedded), 1)),
        "without_model_time": {
            "sessions_per_s": round(sessions / max(wall - model, 1e-9), 2),
            "input_chars_per_s": round(chars / max(wall - model, 1e-9)),
        },
    }
    if cached:
        out["note"] = (
            f"embedding cache on ({hits} hits): model time counts cache misses only, so no "
            "with-model throughput is reported; measure throughput without --cache"
        )
    if not cached or hits == 0:
        out["with_model_time"] = {
            "sessions_per_s": round(sessions / max(wall, 1e-9), 3),
            "input_chars_per_s": round(chars / max(wall, 1e-9)),
            "model_chars_per_s": round(sum(embedded) / max(model, 1e-9)),
        }
    return out


def latencies(rows: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, float]]:
    """p50/p95/mean of each per-question timing in milliseconds."""
    keys = ("embed_query_ms", "search_ms", "bootstrap_ms", "cold_index_ms")
    return {k: rounded(latency_summary([r["timings"][k] for r in rows]), 2) for k in keys if rows}


def readme_check(overall: Mapping[str, Any], questions: int) -> dict[str, Any]:
    """The raw-data BM25 figures beside the data README's (comparable on its 76 questions only)."""
    measured = {
        "session": {k: overall[BM25_SESSIONS]["session"][k] for k in README_BM25["session"]},
        "turn": {k: overall[BM25_RAW_TURNS]["turn"][k] for k in README_BM25["turn"]},
    }
    comparable = questions == README_QUESTIONS
    matches = all(
        abs(measured[level][k] - v) < 0.0015
        for level, fig in README_BM25.items()
        for k, v in fig.items()
    )
    return {
        "readme": README_BM25,
        "measured": measured,
        "comparable": comparable,
        "matches": matches if comparable else None,
    }


def summarize(rows: Sequence[Mapping[str, Any]], *, cached: bool, hits: int) -> dict[str, Any]:
    """Every table: overall, per question type, served, throughput and latency."""
    scored = [r for r in rows if not r["abstention"]]
    overall = system_means(scored)
    types = sorted({r["question_type"] for r in scored})
    by_type = {t: system_means([r for r in scored if r["question_type"] == t]) for t in types}
    served_by_type = {
        t: served_means([r for r in scored if r["question_type"] == t]) for t in types
    }
    tables: dict[str, Any] = {
        "questions": len(rows),
        "scored_questions": len(scored),
        "overall": overall,
        "by_type": by_type,
        "served": served_means(rows),
        "served_by_type": served_by_type,
        "sessions_after_question_date": sum(r["sessions_after_question_date"] for r in rows),
        "throughput": throughput(rows, cached, hits),
        "latency_ms": latencies(rows),
    }
    if "session" in overall[BM25_SESSIONS] and "turn" in overall[BM25_RAW_TURNS]:
        tables["readme_bm25_check"] = readme_check(overall, len(scored))
    return tables


# ---------------------------------------------------------------- report


def setup_notes(model_id: str, bm25: str) -> dict[str, str]:
    return {
        "write_path": (
            "local_ports(LocalSettings(store=<fresh temp dir>)) per question, with the real "
            "LocalEmbedder and LocalPiiDetector; consolidate() once per haystack session in date "
            "order (stable sort): run_id = the session id (a repeated id gets '.<n>'), roles "
            "user/assistant as in the data, finished_at = the session date (UTC), task = the first "
            f"user turn cut to {MAX_TASK_CHARS} characters, outcome COMPLETED; answer never read"
        ),
        "clock_and_retention": (
            "clock fixed at question_date (UTC) for writes and reads; retention 90 days + the "
            "haystack's span, candidates >= sessions (a warm-up query checks every session is "
            "live); sessions dated after question_date (same day) get created_at = the clock"
        ),
        "product": (
            f"SearchEpisodes(top_episodes={TOP}, top_units={TOP}, as_of=question_date, "
            "query_vector=the embedded query form of the question); turns = message units "
            "(run_id, seq) -> (session_id, turn index); bootstrap(task=question) read by "
            "benchmarks/served.py"
        ),
        "baselines": (
            f"on the product's stored message units (speaker: text, PII scrubbed, cut as stored): "
            f"{bm25}, English stop words, question as query; embeddings = cosine of the "
            "question's vector with the stored (int8) unit vectors, a unit without one ranked "
            "last; RRF k=60; session = its best unit. Raw-data BM25: whole sessions (all turns' "
            "content) and raw turns (content), as in the data README"
        ),
        "metrics": (
            "session relevance = answer_session_ids, turn relevance = has_answer turns; "
            "abstention (_abs) questions left out; micro-averaged over questions"
        ),
        "served": (
            "served turn recall_any: an evidence turn's unit inside the bootstrap block; served "
            "session recall: the block's episodes; tokens = all-MiniLM-L6-v2 WordPiece "
            "(LocalEmbedder.count_tokens, no special tokens), the block's random marker token "
            "replaced by a fixed hex one of the same length so the count is reproducible"
        ),
        "timing": (
            "wall clock, 2 shared cores (noisy); search = SearchEpisodes with the query already "
            "embedded (embed = query form + embed_query, separate); bootstrap = the whole call "
            "(it embeds the task); cold index = the untimed warm-up query's build; throughput: "
            "load wall time, 'without model time' = wall - time inside the embedder"
        ),
        "embedding_model": model_id,
    }


def markdown(result: Mapping[str, Any]) -> str:
    """The tables as Markdown."""
    tables = result["tables"]
    overall = tables["overall"]
    config = result["config"]
    lines = [
        "# Retrieval on LongMemEval_S: the product beside its baselines",
        "",
        f"Data: {', '.join(config['data_files'])}; {tables['questions']} questions "
        f"({tables['scored_questions']} without abstention, scored)"
        + (f", first {config['limit']}" if config["limit"] else "")
        + (f", types {', '.join(config['types'])}" if config["types"] else "")
        + ". Generated by `benchmarks/longmemeval.py`; setup in the JSON beside this file.",
        "",
        "## Retrieval (session and turn level)",
        "",
        "| system | "
        + " | ".join(f"session {m}" for m in SESSION_METRICS)
        + " | "
        + " | ".join(f"turn {m}" for m in TURN_METRICS)
        + " |",
        "|---|" + "---|" * (len(SESSION_METRICS) + len(TURN_METRICS)),
    ]
    for system in SYSTEMS:
        levels = overall.get(system, {})
        cells = [_cell(levels.get("session"), m) for m in SESSION_METRICS]
        cells += [_cell(levels.get("turn"), m) for m in TURN_METRICS]
        lines.append(f"| {system} | " + " | ".join(cells) + " |")
    check = tables.get("readme_bm25_check")
    if check:
        session, turn = check["readme"]["session"], check["readme"]["turn"]
        cells = ["-", _num(session["recall_any@5"]), "-", _num(session["recall_all@5"]), "-", "-"]
        cells += [_num(turn["recall_any@5"]), _num(turn["recall_any@10"]), "-", "-"]
        lines.append(
            "| data README: BM25 (their figures, 76 questions) | " + " | ".join(cells) + " |"
        )
        verdict = (
            ("matches" if check["matches"] else "does NOT match")
            if check["comparable"]
            else "not comparable (a subset of the 76 questions)"
        )
        lines += ["", f"Raw-data BM25 against the data README: {verdict}."]
    lines += [
        "",
        f"{tables['sessions_after_question_date']} sessions are dated after their question's "
        "date (the same day); the product stores them at the clock (the question's date).",
    ]
    lines += ["", *_by_type(tables), *_served_table(tables), *_timing_table(tables), *_peers()]
    lines += ["## Setup", "", *(f"- **{k}**: {v}" for k, v in result["setup"].items()), ""]
    return "\n".join(lines)


def _cell(values: Mapping[str, float] | None, metric: str) -> str:
    return _num(values[metric]) if values and metric in values else "-"


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def _by_type(tables: Mapping[str, Any]) -> list[str]:
    types = list(tables["by_type"])
    lines = [
        "## Per question type (turn recall_any@10 / session recall_all@5)",
        "",
        "| system | " + " | ".join(f"{t} ({_n(tables, t)})" for t in types) + " |",
        "|---|" + "---|" * len(types),
    ]
    for system in SYSTEMS:
        cells = []
        for t in types:
            levels = tables["by_type"][t].get(system, {})
            turn, session = levels.get("turn"), levels.get("session")
            cells.append(f"{_cell(turn, 'recall_any@10')} / {_cell(session, 'recall_all@5')}")
        lines.append(f"| {system} | " + " | ".join(cells) + " |")
    cells = []
    for t in types:
        s = tables["served_by_type"][t]
        cells.append(f"{_cell(s, 'turn_recall_any')} / {_cell(s, 'session_recall_all')}")
    lines.append("| served by bootstrap (turn any / session all) | " + " | ".join(cells) + " |")
    return [*lines, ""]


def _n(tables: Mapping[str, Any], question_type: str) -> int:
    session = tables["by_type"][question_type].get(PRODUCT, {}).get("session", {})
    return int(session.get("questions", 0))


def _served_table(tables: Mapping[str, Any]) -> list[str]:
    s = tables["served"]
    tokens = s.get("tokens", {})
    return [
        "## Served by bootstrap (the block the agent receives)",
        "",
        "| turn recall_any | session recall_any | session recall_all | answer shown | "
        "tokens median | tokens p95 | empty blocks |",
        "|---|---|---|---|---|---|---|",
        f"| {_cell(s, 'turn_recall_any')} | {_cell(s, 'session_recall_any')} | "
        f"{_cell(s, 'session_recall_all')} | {_cell(s, 'answer_shown')} "
        f"(of {s.get('answer_span_questions', 0)}) | {tokens.get('median', 0):.0f} | "
        f"{tokens.get('p95', 0):.0f} | {s.get('empty_blocks', 0)} |",
        "",
        "Tokens: all-MiniLM-L6-v2's WordPiece (no special tokens), over every question; recall "
        "over the scored ones. Answer shown: the question's answer is in the block word for "
        "word, over the scored questions whose evidence turns say it so (a moment too long for "
        "its line shows the part nearest the question's words, so a served turn may still "
        "leave its answer out).",
        "",
    ]


def _timing_table(tables: Mapping[str, Any]) -> list[str]:
    lat, put = tables["latency_ms"], tables["throughput"]
    lines = [
        "## Latency and write throughput (wall clock, 2 shared cores, noisy)",
        "",
        "| measure | p50 | p95 |",
        "|---|---|---|",
    ]
    for key, label in (
        ("embed_query_ms", "question: query form + embed (ms)"),
        ("search_ms", "SearchEpisodes, query embedded (ms)"),
        ("bootstrap_ms", "bootstrap, whole call (ms)"),
        ("cold_index_ms", "cold index build, warm-up query (ms)"),
    ):
        if key in lat:
            lines.append(f"| {label} | {lat[key]['p50']:.1f} | {lat[key]['p95']:.1f} |")
    lines += [
        "",
        "| write throughput | sessions/s | input chars/s |",
        "|---|---|---|",
    ]
    if "with_model_time" in put:
        w = put["with_model_time"]
        lines.append(
            f"| with model time | {w['sessions_per_s']:.3f} | {w['input_chars_per_s']:,} |"
        )
    wo = put["without_model_time"]
    lines += [
        f"| without model time | {wo['sessions_per_s']:.2f} | {wo['input_chars_per_s']:,} |",
        "",
        f"{put['sessions']} sessions, {put['input_chars']:,} input characters; load "
        f"{put['load_wall_s']:.0f} s of which {put['model_s']:.0f} s in the embedder; "
        f"{put['chars_embedded_per_question_mean']:,} characters embedded per question (mean)"
        + (
            f", {put['with_model_time']['model_chars_per_s']:,} characters/s inside the model."
            if "with_model_time" in put
            else "."
        ),
    ]
    if "note" in put:
        lines += ["", f"Note: {put['note']}."]
    return [*lines, ""]


def _peers() -> list[str]:
    lines = [
        "## Published figures (the authors' own, on all 500 questions of LongMemEval_S unless "
        "said; not measured here)",
        "",
        "| system | session-level figures |",
        "|---|---|",
    ]
    lines += [f"| {name} (theirs) | {figures} |" for name, figures in PEERS]
    return [*lines, ""]


# ---------------------------------------------------------------- entry point


def progress(message: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} {message}", file=sys.stderr, flush=True)


def run(
    questions: Sequence[Question], *, cache: Path | None = None, files: Sequence[str] = ()
) -> dict[str, Any]:
    """The benchmark over ``questions``: per question rows and the tables."""
    local = LocalEmbedder()
    timed = TimedEmbedder(local)
    embedder: TimedEmbedder | CachedEmbedder = (
        timed if cache is None else CachedEmbedder(timed, cache)
    )
    rows: list[dict[str, Any]] = []
    bm25 = ""
    started = time.perf_counter()
    for i, question in enumerate(questions, start=1):
        progress(
            f"question {i}/{len(questions)} {question.question_id} ({question.question_type}, "
            f"{len(question.sessions)} sessions), elapsed {time.perf_counter() - started:.0f} s"
        )
        outcome = run_question(question, embedder, local)
        bm25 = outcome.bm25
        row = question_row(question, outcome)
        rows.append(row)
        product, timings = row["first_relevant_rank"].get(PRODUCT, {}), row["timings"]
        progress(
            f"  load {timings['load_s']:.1f} s (model {timings['load_model_s']:.1f} s); "
            f"product first relevant session {product.get('session')}, turn {product.get('turn')}; "
            f"served {row['served']['tokens']} tokens"
        )
    hits = embedder.hits if isinstance(embedder, CachedEmbedder) else 0
    env = environment()
    return {
        "benchmark": "episodic retrieval on LongMemEval_S",
        "config": {
            "data_files": sorted(set(files)),
            "limit": None,
            "types": [],
            "cache": cache is not None,
            "cache_hits": hits,
            "cache_misses": embedder.misses if isinstance(embedder, CachedEmbedder) else None,
            "packages": env["packages"],
            "python": env["python"],
            "cpus": env["cpus"],
            "run_at": env["run_at"],
        },
        "setup": setup_notes(local.model_id, bm25),
        "tables": summarize(rows, cached=cache is not None, hits=hits),
        "questions": rows,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--data", type=Path, default=None, help="a release JSON file or a folder")
    parser.add_argument(
        "--out", type=Path, default=REPO / "benchmarks" / "results" / "longmemeval.json"
    )
    parser.add_argument("--limit", type=int, default=None, help="the first N questions only")
    parser.add_argument("--types", nargs="+", default=None, help="question types to keep")
    parser.add_argument("--cache", type=Path, default=None, help="embedding cache folder")
    args = parser.parse_args(argv)
    data = dataset("longmemeval", args.data)
    questions = load_questions(data)
    if args.types:
        questions = [q for q in questions if q.question_type in set(args.types)]
    if args.limit:
        questions = questions[: args.limit]
    result = run(questions, cache=args.cache, files=[q.source for q in questions])
    result["config"]["limit"] = args.limit
    result["config"]["types"] = sorted(args.types or [])
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    args.out.with_suffix(".md").write_text(markdown(result), encoding="utf-8")
    progress(f"wrote {args.out.name} and {args.out.with_suffix('.md').name}")
    print(markdown(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
