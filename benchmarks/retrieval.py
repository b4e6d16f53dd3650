"""Episodic retrieval quality on LoCoMo: the product's search beside BM25, embeddings and RRF.

Not part of the test suite (only ``benchmarks/metrics.py`` and the loader are unit-tested).
``--data`` names a folder (every ``*.json`` in it is a LoCoMo conversation, taken in the order
of their numeric stems, ``26.json`` before ``100.json``, then any others by name) or one file.
Conversations 26 and 30 are the dev set, the ones the retrieval recipe was tuned on
(``benchmarks/research/RETRIEVAL_RECIPE.md``); every other conversation found is held out. Each
is reported on its own, and pooled per split and over all. For each conversation:

1. a fresh local memory (``local_ports``: SQLite, the local embedder, the local PII detector) is
   loaded through the product's own write path, ``consolidate``, one ``RunFinished`` event per
   session (``run_id`` ``session-<n>``, the session's turns as messages, ``finished_at`` its
   date, no artifacts). The dataset's annotations (``events_session_*``,
   ``session_*_observation``, ``session_*_summary``) are never read. The product scrubs PII
   (names included) before storing: that is measured, not bypassed;
2. every question of categories 1-4 with evidence is asked through ``SearchEpisodes``
   (top 10 episodes, top 10 units): sessions from the episodes, turns from the message units;
3. baselines score the same turns, raw (unscrubbed), as ``"{speaker}: {text}"``: BM25 (bm25s,
   its English stop words, the question as the query), the embedding model alone (cosine) and
   plain RRF (k=60) of the two; a session scores its best turn (BM25 over whole-session text is
   reported too);
4. the product runs twice: episodes' vectors stored and indexed as int8 (the default) and as
   float32, selected by the episodic policy's ``vector_encoding`` (the stored format tag is
   checked afterwards);
5. served context: on the int8 memory, once every search is done (so they see the memory as
   before), each question is also the task of a ``bootstrap`` call (the request through
   ``parse_bootstrap_request``); ``benchmarks/served.py`` reads which message units and
   sessions the reply's context block holds and its size in tokens of the embedding model's
   own tokenizer (all-MiniLM-L6-v2's WordPiece, no special tokens), not any chat model's.
   Served turn recall_any: an evidence turn is inside the block; served session recall_any /
   recall_all: some / every relevant session is among the block's episodes. The bootstrap is
   timed around the call (wall clock), after one untimed warm-up call.

Episodes expire ``retention_days`` after ``finished_at`` and a conversation spans up to ~10
months, so the clock is fixed at the last session + 1 day and the retention is raised through
``EpisodicPolicy`` to 90 days + the conversation's span; the output records both.

Run from the repository root (minutes: every turn is embedded three times)::

    .venv/bin/python benchmarks/retrieval.py --data "$AGENT_MEMORY_BENCH_DATA/locomo" \
        --out benchmarks/results/retrieval.json

``--data`` defaults to ``$AGENT_MEMORY_BENCH_DATA/locomo``;
``--conversations`` keeps only the named ones. The Markdown table is written beside the JSON
(``retrieval.md``). Latencies are wall-clock and noisy.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import math
import os
import platform
import re
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from importlib import metadata
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
from agent_memory.core.model.policies import DAY, EpisodicPolicy, Policies
from agent_memory.core.model.requests import BootstrapRequest
from agent_memory.core.ports import MemoryPorts
from agent_memory.core.privacy.scrubbing import pseudonyms_for, query_form
from agent_memory.core.retrieval import vectors
from agent_memory.core.workflows.bootstrap import bootstrap
from agent_memory.core.workflows.consolidation import consolidate
from agent_memory.wiring.local import PSEUDONYM_KEY_FILE, local_ports
from agent_memory.wiring.local_settings import LocalSettings
from benchmarks.bench_data import dataset
from benchmarks.metrics import (
    METRIC_NAMES,
    first_relevant_rank,
    latency_summary,
    mean_metrics,
    percentile,
    question_metrics,
)
from benchmarks.served import Served, served

os.environ.setdefault("HF_HUB_OFFLINE", "1")

REPO = Path(__file__).resolve().parents[1]
# The conversations the retrieval recipe was tuned on (benchmarks/research/RETRIEVAL_RECIPE.md);
# every other one is held out.
DEV_CONVERSATIONS = frozenset({"26", "30"})
DEV, HELD_OUT = "dev", "held-out"
SERVED_METRICS = ("turn recall_any", "session recall_any", "session recall_all")
CATEGORIES = frozenset({1, 2, 3, 4})
TENANT = "locomo"
TOP = 10
# The session cut-off whose misses are listed (the session-level target's).
MISS_CUTOFF = 5
RRF_K = 60.0
DATE_FORMAT = "%I:%M %p on %d %B, %Y"  # "1:56 pm on 8 May, 2023"
EVIDENCE_SEPARATORS = re.compile(r"[;,\s]+")
SESSION_KEY = re.compile(r"session_(\d+)")

PRODUCT = "product (int8 vectors)"
PRODUCT_F32 = "product (float32 vectors)"
BM25 = "BM25 (bm25s)"
EMBEDDINGS = "embeddings alone (cosine)"
RRF = "RRF k=60 (BM25 + embeddings)"
BM25_SESSIONS = "BM25, whole-session text"
REFERENCE = "README reference: BM25, 10 conversations"
# From the LoCoMo folder's README (locomo/README.md of the data): plain BM25 (bm25s, English
# stop words) on all ten conversations, sessions scored as whole texts. Orientation only.
REFERENCE_FIGURES = {
    "session": {"recall_any@1": 0.63, "recall_any@5": 0.88, "recall_any@10": 0.95},
    "turn": {
        "recall_any@5": 0.48,
        "recall_any@10": 0.57,
        "recall_all@5": 0.40,
        "recall_all@10": 0.46,
    },
}


# ---------------------------------------------------------------- data


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn: its id, speaker and content (a shared photo's caption is part of it)."""

    dia_id: str
    speaker: str
    content: str


@dataclass(frozen=True, slots=True)
class Session:
    """One session of a conversation, which the product sees as one finished run."""

    number: int
    finished_at: datetime
    turns: tuple[Turn, ...]

    @property
    def run_id(self) -> str:
        return f"session-{self.number}"


@dataclass(frozen=True, slots=True)
class Question:
    """A question with the turns (``dia_id``) and sessions holding its answer, and where it
    stands in the file's ``qa`` list (0-based).
    """

    text: str
    category: int
    evidence: frozenset[str]
    sessions: frozenset[int]
    qa_index: int


@dataclass(frozen=True, slots=True)
class Conversation:
    """What the benchmark reads of one LoCoMo file: turns, dates and questions, no annotations."""

    name: str
    speaker_a: str
    speaker_b: str
    sessions: tuple[Session, ...]
    questions: tuple[Question, ...]
    dropped_evidence: tuple[str, ...] = ()
    questions_without_evidence: int = 0

    @property
    def turns(self) -> list[Turn]:
        return [turn for session in self.sessions for turn in session.turns]

    @property
    def agent_id(self) -> str:
        return f"conv-{self.name}"


def parse_session_date(text: str) -> datetime:
    """A LoCoMo session date ("1:56 pm on 8 May, 2023") as an aware UTC datetime."""
    return datetime.strptime(text.strip(), DATE_FORMAT).replace(tzinfo=UTC)


def turn_content(raw: Mapping[str, Any]) -> str:
    """A turn's text, with ``" [shares a photo: <caption>]"`` when it shares an image."""
    caption = str(raw.get("blip_caption") or "").strip()
    text = str(raw["text"])
    return f"{text} [shares a photo: {caption}]" if caption else text


def evidence_ids(raw: Sequence[str], known: Collection[str]) -> tuple[list[str], list[str]]:
    """Evidence strings split on ``;``, ``,`` and whitespace: (ids naming a turn, the others)."""
    tokens = [t for item in raw for t in EVIDENCE_SEPARATORS.split(str(item)) if t]
    return [t for t in tokens if t in known], [t for t in tokens if t not in known]


def conversation_from_json(data: Mapping[str, Any], name: str) -> Conversation:
    """The sessions and questions of one LoCoMo conversation.

    Only ``speaker_a``, ``speaker_b``, ``session_<n>``, ``session_<n>_date_time`` and ``qa`` are
    read; the authors' annotations never enter the benchmark.
    """
    numbers = sorted(int(m.group(1)) for key in data if (m := SESSION_KEY.fullmatch(key)))
    sessions = tuple(
        Session(
            number,
            parse_session_date(data[f"session_{number}_date_time"]),
            tuple(
                Turn(str(raw["dia_id"]), str(raw["speaker"]), turn_content(raw))
                for raw in data[f"session_{number}"]
            ),
        )
        for number in numbers
    )
    session_of = {t.dia_id: s.number for s in sessions for t in s.turns}
    questions, dropped, empty = [], [], 0
    for position, qa in enumerate(data["qa"]):
        if qa.get("category") not in CATEGORIES:
            continue
        found, unknown = evidence_ids(qa.get("evidence") or [], session_of)
        dropped += unknown
        if not found:
            empty += 1
            continue
        questions.append(
            Question(
                str(qa["question"]),
                int(qa["category"]),
                frozenset(found),
                frozenset(session_of[d] for d in found),
                position,
            )
        )
    return Conversation(
        name,
        str(data["speaker_a"]),
        str(data["speaker_b"]),
        sessions,
        tuple(questions),
        tuple(dropped),
        empty,
    )


def load_conversation(path: Path) -> Conversation:
    """Read one ``<id>.json`` LoCoMo file (see :func:`conversation_from_json`)."""
    return conversation_from_json(json.loads(path.read_text(encoding="utf-8")), path.stem)


def conversation_files(data: Path) -> list[Path]:
    """The LoCoMo files ``data`` names: itself if a file, else every ``*.json`` in the folder,
    numeric stems first in numeric order, then the others by name.
    """
    if data.is_file():
        return [data]
    if not data.is_dir():
        raise FileNotFoundError(f"no LoCoMo file or folder at {data}")
    files = [p for p in data.glob("*.json") if p.is_file()]
    if not files:
        raise FileNotFoundError(f"no *.json in {data}")
    return sorted(files, key=lambda p: (0, int(p.stem), "") if p.stem.isdigit() else (1, 0, p.stem))


def split_of(name: str) -> str:
    """``dev`` for the conversations the recipe was tuned on, ``held-out`` for every other."""
    return DEV if name in DEV_CONVERSATIONS else HELD_OUT


def events_from_sessions(
    conversation: Conversation, *, tenant_id: str = TENANT
) -> tuple[list[dict[str, Any]], dict[tuple[str, int], str]]:
    """One RunFinished event per session, and the map ``(run_id, seq) -> dia_id``.

    ``seq`` is a message's index in its event's ``messages``, which the product keeps as the
    unit's ``seq``. Speaker A's turns are ``human`` messages, speaker B's ``ai``.
    """
    events: list[dict[str, Any]] = []
    units: dict[tuple[str, int], str] = {}
    for session in conversation.sessions:
        messages = []
        for seq, turn in enumerate(session.turns):
            role = "human" if turn.speaker == conversation.speaker_a else "ai"
            messages.append({"role": role, "name": turn.speaker, "content": turn.content})
            units[(session.run_id, seq)] = turn.dia_id
        events.append(
            {
                "tenant_id": tenant_id,
                "agent_id": conversation.agent_id,
                "run_id": session.run_id,
                "task": (
                    f"Conversation session {session.number} between "
                    f"{conversation.speaker_a} and {conversation.speaker_b}"
                ),
                "outcome": "COMPLETED",
                "finished_at": session.finished_at.isoformat(),
                "messages": messages,
            }
        )
    return events, units


# ---------------------------------------------------------------- the product


def benchmark_clock(conversation: Conversation) -> float:
    """The fixed "now" of a conversation's memory: its last session + 1 day (epoch seconds)."""
    return (max(s.finished_at for s in conversation.sessions) + timedelta(days=1)).timestamp()


def benchmark_policies(
    conversation: Conversation, now: float, encoding: vectors.Encoding = "int8"
) -> Policies:
    """Default policies with a retention long enough that no session has expired at ``now``,
    episodes' vectors stored and indexed as ``encoding``.
    """
    default = EpisodicPolicy()
    first = min(s.finished_at for s in conversation.sessions).timestamp()
    retention = default.retention_days + math.ceil((now - first) / DAY)
    episodic = dataclasses.replace(
        default,
        retention_days=retention,
        candidates=max(default.candidates, len(conversation.sessions)),
        vector_encoding=encoding,
    )
    return Policies(episodic=episodic)


def open_memory(
    store: Path,
    conversation: Conversation,
    embedder: LocalEmbedder,
    encoding: vectors.Encoding = "int8",
) -> MemoryPorts:
    """A fresh local memory in ``store`` with the benchmark's clock and retention, its
    episodes' vectors stored as ``encoding``.
    """
    now = benchmark_clock(conversation)
    # One pseudonym key per conversation, the same in every pass and run: names are embedded
    # as pseudonyms, so a random key would move every vector of a named unit between runs.
    store.mkdir(parents=True, exist_ok=True)
    # The key file's form (hexadecimal) of the same 32 bytes as ever.
    (store / PSEUDONYM_KEY_FILE).write_text(
        hashlib.sha256(f"locomo-benchmark:{conversation.name}".encode()).hexdigest()
    )
    settings = LocalSettings(store=store)
    policies = benchmark_policies(conversation, now, encoding)
    ports = local_ports(settings, embedder=embedder, policies=policies)
    return dataclasses.replace(ports, clock=lambda: now)


def stored_encoding(ports: MemoryPorts, conversation: Conversation) -> str:
    """The format of the vectors actually stored (read back from the first episode)."""
    session = conversation.sessions[0]
    episode = ports.episodes.get(TENANT, conversation.agent_id, session.run_id, now=ports.clock())
    if episode is None or not episode.units or episode.units[0].embedding is None:
        return "unknown"
    return {0x00: "float32", 0x01: "int8"}.get(episode.units[0].embedding.data[0], "unknown")


def load_into_memory(ports: MemoryPorts, events: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """Consolidate every event in order; the PII entities the product scrubbed, by type."""
    scrubbed: Counter[str] = Counter()
    for event in events:
        state = consolidate(dict(event), ports)
        if not state.episode_written:
            raise RuntimeError(f"{event['run_id']}: no episode written")
        scrubbed.update(state.pii_entities or {})
    return dict(sorted(scrubbed.items()))


@dataclass
class ProductRun:
    """What the product returned for each question, and how long it took."""

    sessions: list[list[int]] = field(default_factory=list)
    turns: list[list[str]] = field(default_factory=list)
    query_vectors: list[npt.NDArray[np.float32]] = field(default_factory=list)
    embed_ms: list[float] = field(default_factory=list)
    search_ms: list[float] = field(default_factory=list)
    total_ms: list[float] = field(default_factory=list)
    finding_slots: list[int] = field(default_factory=list)
    served: list[Served] = field(default_factory=list)
    bootstrap_ms: list[float] = field(default_factory=list)
    cold_ms: float = 0.0
    load_s: float = 0.0
    pii: dict[str, int] = field(default_factory=dict)
    encoding: str = ""


def ask_product(
    ports: MemoryPorts, conversation: Conversation, units: Mapping[tuple[str, int], str]
) -> ProductRun:
    """Every question through ``SearchEpisodes``: ranked sessions, ranked turns, timings.

    One untimed warm-up query first builds the product's cached index (its time is reported
    as ``cold_ms``) and checks that every session is still live.
    """
    run = ProductRun()
    agent = conversation.agent_id
    start = time.perf_counter()
    warm = Application(ports).handle(
        SearchEpisodes(TENANT, agent, "warm-up", top_episodes=len(conversation.sessions) + TOP)
    )
    run.cold_ms = (time.perf_counter() - start) * 1000
    live = len(warm["episodes"]) + warm["left_out"]["episodes"]
    if live != len(conversation.sessions):
        raise RuntimeError(f"{live} live episodes, expected all sessions")
    for question in conversation.questions:
        start = time.perf_counter()
        # Embedded as the product embeds it: names said as the stored pseudonyms.
        form = query_form(question.text, ports.pii, pseudonyms_for(ports.pseudonym_key, TENANT))
        query = ports.embedder.embed_query(form)
        embedded = time.perf_counter()
        result = Application(ports).handle(
            SearchEpisodes(
                TENANT, agent, question.text, top_episodes=TOP, top_units=TOP, query_vector=query
            )
        )
        done = time.perf_counter()
        if result["left_out"] != {"episodes": 0, "units": 0}:
            raise RuntimeError(f"a search left out {result['left_out']}: raise max_reply_bytes")
        run.embed_ms.append((embedded - start) * 1000)
        run.search_ms.append((done - embedded) * 1000)
        run.total_ms.append((done - start) * 1000)
        run.query_vectors.append(query)
        run.sessions.append(
            [int(hit["run_id"].removeprefix("session-")) for hit in result["episodes"]]
        )
        run.turns.append(
            [
                units[(hit["run_id"], hit["seq"])]
                for hit in result["units"]
                if hit["kind"] == "message"
            ]
        )
        run.finding_slots.append(sum(hit["kind"] == "finding" for hit in result["units"]))
    return run


def serve_product(
    ports: MemoryPorts, conversation: Conversation, embedder: LocalEmbedder, run: ProductRun
) -> None:
    """Every question as the task of a ``bootstrap`` call: what its block serves, its time.

    One untimed warm-up call first (the bootstrap's own index lookup and thread pool).
    """

    def request(task: str) -> BootstrapRequest:
        return parse_bootstrap_request(
            {"tenant_id": TENANT, "agent_id": conversation.agent_id, "task": task}
        )

    bootstrap(request("warm-up"), ports)
    for question in conversation.questions:
        asked = request(question.text)
        start = time.perf_counter()
        reply = bootstrap(asked, ports)
        run.bootstrap_ms.append((time.perf_counter() - start) * 1000)
        run.served.append(served(reply, embedder))


def served_scores(
    serving: Served, question: Question, units: Mapping[tuple[str, int], str]
) -> dict[str, float]:
    """:data:`SERVED_METRICS` of one reply: an evidence turn inside its block; some / every
    relevant session among its episodes.
    """
    turns = {units[u] for u in serving.units if u in units}
    sessions = {int(r.removeprefix("session-")) for r in serving.runs if r.startswith("session-")}
    return {
        "turn recall_any": float(bool(turns & question.evidence)),
        "session recall_any": float(bool(sessions & question.sessions)),
        "session recall_all": float(question.sessions <= sessions),
    }


def served_summary(
    scores: Sequence[Mapping[str, float]],
    servings: Sequence[Served],
    bootstrap_ms: Sequence[float],
) -> dict[str, Any]:
    """Mean served recalls, block tokens (median, p95), turns served, bootstrap latency."""
    tokens = [float(s.tokens) for s in servings]
    return {
        "questions": len(scores),
        "metrics": rounded(mean_metrics(scores)),
        "block_tokens": {
            "median": round(percentile(tokens, 50), 1),
            "p95": round(percentile(tokens, 95), 1),
        },
        "turns_served_mean": round(float(np.mean([len(s.units) for s in servings])), 2),
        "sessions_served_mean": round(float(np.mean([len(s.runs) for s in servings])), 2),
        "bootstrap_ms": rounded(latency_summary(bootstrap_ms), 2),
    }


def run_product(
    conversation: Conversation,
    embedder: LocalEmbedder,
    encoding: vectors.Encoding,
    *,
    serve: bool = False,
) -> ProductRun:
    """Load the conversation into a fresh memory (vectors stored as ``encoding``) and ask it;
    with ``serve``, bootstrap every question too, once the searches are done.
    """
    events, units = events_from_sessions(conversation)
    with tempfile.TemporaryDirectory(prefix="locomo-") as tmp:
        ports = open_memory(Path(tmp), conversation, embedder, encoding)
        start = time.perf_counter()
        pii = load_into_memory(ports, events)
        load_s = time.perf_counter() - start
        run = ask_product(ports, conversation, units)
        if serve:
            serve_product(ports, conversation, embedder, run)
        run.load_s, run.pii, run.encoding = load_s, pii, stored_encoding(ports, conversation)
    if run.encoding != encoding:
        raise RuntimeError(f"vectors stored as {run.encoding}, expected {encoding}")
    return run


# ---------------------------------------------------------------- baselines


def unit_text(turn: Turn) -> str:
    """A raw turn as the baselines see it (and as the product embeds its units)."""
    return f"{turn.speaker}: {turn.content}"


def bm25_scores(documents: Sequence[str], queries: Sequence[str]) -> tuple[np.ndarray, str]:
    """BM25 of every (query, document) by bm25s with its English stop words (the dev extra pins
    it); the matrix and the version that ran.
    """
    import bm25s

    retriever = bm25s.BM25()
    corpus = bm25s.tokenize(list(documents), stopwords="en", show_progress=False)
    retriever.index(corpus, show_progress=False)
    rows = []
    for query in queries:
        tokens = bm25s.tokenize(query, stopwords="en", show_progress=False, return_ids=False)[0]
        scored = retriever.get_scores(tokens) if tokens else np.zeros(len(documents))
        rows.append(np.asarray(scored, dtype=np.float64))
    return np.stack(rows), f"bm25s {metadata.version('bm25s')} (lucene, k1=1.5, b=0.75)"


def cosine_scores(
    embedder: LocalEmbedder, documents: Sequence[str], query_vectors: Sequence[np.ndarray]
) -> np.ndarray:
    """Cosine of every (query, document); the embedder's vectors are L2-normalised."""
    matrix = embedder.embed_documents(list(documents)).astype(np.float64)
    return np.stack(query_vectors).astype(np.float64) @ matrix.T


def ordinal_ranks(scores: np.ndarray) -> np.ndarray:
    """1-based rank of each item per row, best first; ties keep the earlier item first."""
    order = np.argsort(-scores, axis=1, kind="stable")
    ranks = np.empty_like(order)
    np.put_along_axis(ranks, order, np.arange(1, scores.shape[1] + 1)[None, :], axis=1)
    return ranks


def rrf_scores(lexical: np.ndarray, dense: np.ndarray, k: float = RRF_K) -> np.ndarray:
    """Reciprocal rank fusion: ``1/(k + rank)`` from each list; BM25 ranks only the turns it
    matches (score > 0), the embedding list ranks every turn.
    """
    lexical_part = np.where(lexical > 0, 1.0 / (k + ordinal_ranks(lexical)), 0.0)
    return lexical_part + 1.0 / (k + ordinal_ranks(dense))


def session_max(
    turn_scores: np.ndarray, turn_session: Sequence[int], numbers: Sequence[int]
) -> np.ndarray:
    """Each session's score: the best score of its turns (columns follow ``numbers``)."""
    owner = np.asarray(turn_session)
    return np.stack([turn_scores[:, owner == n].max(axis=1) for n in numbers], axis=1)


def top_ids(scores: np.ndarray, ids: Sequence[Hashable], k: int = TOP) -> list[list[Hashable]]:
    """The ``k`` best ids of each row, best first (ties: earlier id first)."""
    order = np.argsort(-scores, axis=1, kind="stable")[:, :k]
    return [[ids[i] for i in row] for row in order]


def baseline_rankings(
    conversation: Conversation, embedder: LocalEmbedder, query_vectors: Sequence[np.ndarray]
) -> tuple[dict[str, dict[str, Sequence[Sequence[Hashable]]]], str]:
    """Session and turn rankings of every baseline over the raw turns; and the BM25 used."""
    turns = conversation.turns
    documents = [unit_text(t) for t in turns]
    questions = [q.text for q in conversation.questions]
    dia_ids = [t.dia_id for t in turns]
    turn_session = [s.number for s in conversation.sessions for _ in s.turns]
    numbers = [s.number for s in conversation.sessions]
    lexical, implementation = bm25_scores(documents, questions)
    dense = cosine_scores(embedder, documents, query_vectors)
    rankings: dict[str, dict[str, Sequence[Sequence[Hashable]]]] = {}
    for name, scores in ((BM25, lexical), (EMBEDDINGS, dense), (RRF, rrf_scores(lexical, dense))):
        rankings[name] = {
            "session": top_ids(session_max(scores, turn_session, numbers), numbers),
            "turn": top_ids(scores, dia_ids),
        }
    session_texts = ["\n".join(unit_text(t) for t in s.turns) for s in conversation.sessions]
    whole, _ = bm25_scores(session_texts, questions)
    rankings[BM25_SESSIONS] = {"session": top_ids(whole, numbers)}
    return rankings, implementation


# ---------------------------------------------------------------- evaluation


def evaluate(
    rankings: Sequence[Sequence[Hashable]], relevant: Sequence[Collection[Hashable]]
) -> list[dict[str, float]]:
    """Per-question metrics of each ranking against its relevant items."""
    return [question_metrics(r, rel) for r, rel in zip(rankings, relevant, strict=True)]


def session_misses(
    conversation: Conversation, sessions: Sequence[Sequence[int]], k: int = MISS_CUTOFF
) -> list[dict[str, Any]]:
    """The questions whose ``sessions`` ranking has no relevant session in its top ``k``: each
    by its place in the file's ``qa`` list (the dataset's text stays out of the results), with
    its category, relevant sessions and the rank of the first (``None`` if unranked).

    For reading what the product misses, not for scoring.
    """
    misses = []
    for question, ranking in zip(conversation.questions, sessions, strict=True):
        rank = first_relevant_rank(ranking, question.sessions)
        if rank is None or rank > k:
            misses.append(
                {
                    "qa_index": question.qa_index,
                    "category": question.category,
                    "relevant_sessions": sorted(question.sessions),
                    "first_relevant_rank": rank,
                }
            )
    return misses


def relevant_sets(conversation: Conversation) -> dict[str, list[Collection[Hashable]]]:
    """The relevant sessions and turns of each question."""
    return {
        "session": [q.sessions for q in conversation.questions],
        "turn": [q.evidence for q in conversation.questions],
    }


def evaluate_conversation(
    conversation: Conversation, embedder: LocalEmbedder
) -> tuple[dict[str, dict[str, list[dict[str, float]]]], dict[str, Any]]:
    """Every system's per-question metrics on one conversation, and what was measured on the way."""
    progress(
        f"[{conversation.name}] product, int8 vectors: "
        f"loading {len(conversation.sessions)} sessions (then search, then bootstrap)"
    )
    product = run_product(conversation, embedder, "int8", serve=True)
    _, units = events_from_sessions(conversation)
    progress(f"[{conversation.name}] product, float32 vectors: loading again")
    product_f32 = run_product(conversation, embedder, "float32")
    progress(f"[{conversation.name}] baselines: embedding {len(conversation.turns)} raw turns")
    baselines, bm25_used = baseline_rankings(conversation, embedder, product.query_vectors)
    rankings: dict[str, dict[str, Sequence[Sequence[Hashable]]]] = {
        PRODUCT: {"session": product.sessions, "turn": product.turns},
        PRODUCT_F32: {"session": product_f32.sessions, "turn": product_f32.turns},
        **baselines,
    }
    relevant = relevant_sets(conversation)
    rows = {
        system: {level: evaluate(ranked, relevant[level]) for level, ranked in levels.items()}
        for system, levels in rankings.items()
    }
    names = (conversation.speaker_a, conversation.speaker_b)
    now = benchmark_clock(conversation)
    facts: dict[str, Any] = {
        "split": split_of(conversation.name),
        "sessions": len(conversation.sessions),
        "turns": len(conversation.turns),
        "questions": len(conversation.questions),
        "questions_by_category": dict(
            sorted(Counter(q.category for q in conversation.questions).items())
        ),
        "questions_without_evidence": conversation.questions_without_evidence,
        "evidence_ids_dropped": list(conversation.dropped_evidence),
        "questions_naming_a_speaker": sum(
            any(n.lower() in q.text.lower() for n in names) for q in conversation.questions
        ),
        "clock": datetime.fromtimestamp(now, UTC).isoformat(),
        "retention_days": benchmark_policies(conversation, now).episodic.retention_days,
        "pii_entities_scrubbed": product.pii,
        "load_seconds": {
            PRODUCT: round(product.load_s, 1),
            PRODUCT_F32: round(product_f32.load_s, 1),
        },
        "cold_index_ms": {
            PRODUCT: round(product.cold_ms, 1),
            PRODUCT_F32: round(product_f32.cold_ms, 1),
        },
        "finding_units_in_top10_mean": float(np.mean(product.finding_slots)),
        f"product_session_misses_at_{MISS_CUTOFF}": session_misses(conversation, product.sessions),
        "stored_encoding": {PRODUCT: product.encoding, PRODUCT_F32: product_f32.encoding},
        "bm25": bm25_used,
        "served_samples": {
            "scores": [
                served_scores(s, q, units)
                for s, q in zip(product.served, conversation.questions, strict=True)
            ],
            "servings": product.served,
            "bootstrap_ms": product.bootstrap_ms,
        },
        "latency_samples_ms": {
            PRODUCT: {
                "embed+search": product.total_ms,
                "search": product.search_ms,
                "embed": product.embed_ms,
            },
            PRODUCT_F32: {
                "embed+search": product_f32.total_ms,
                "search": product_f32.search_ms,
                "embed": product_f32.embed_ms,
            },
        },
    }
    return rows, facts


def summarize(
    rows: Mapping[str, Mapping[str, list[dict[str, float]]]],
    categories: Sequence[int] | None = None,
) -> dict[str, dict[str, dict[str, float]]]:
    """Mean metrics per system and level; with ``categories``, per question category too."""
    out: dict[str, dict[str, dict[str, float]]] = {}
    for system, levels in rows.items():
        out[system] = {
            level: rounded(mean_metrics(per_question)) for level, per_question in levels.items()
        }
        if categories is not None:
            for level, per_question in levels.items():
                for category in sorted(set(categories)):
                    chosen = [
                        r for r, c in zip(per_question, categories, strict=True) if c == category
                    ]
                    out[system][f"{level} category {category}"] = rounded(mean_metrics(chosen))
    return out


def rounded(values: Mapping[str, float], digits: int = 4) -> dict[str, float]:
    return {k: round(v, digits) for k, v in values.items()}


def latency(samples: Mapping[str, Sequence[float]]) -> dict[str, dict[str, float]]:
    return {name: rounded(latency_summary(ms), 2) for name, ms in samples.items()}


@dataclass
class ServedPool:
    """Served-context samples pooled over conversations."""

    scores: list[Mapping[str, float]] = field(default_factory=list)
    servings: list[Served] = field(default_factory=list)
    bootstrap_ms: list[float] = field(default_factory=list)

    def add(self, samples: Mapping[str, Any]) -> None:
        self.scores += samples["scores"]
        self.servings += samples["servings"]
        self.bootstrap_ms += samples["bootstrap_ms"]

    def summary(self) -> dict[str, Any]:
        return served_summary(self.scores, self.servings, self.bootstrap_ms)


def run(files: Sequence[Path]) -> dict[str, Any]:
    """The whole benchmark over ``files``: per conversation, pooled per split and over all."""
    embedder = LocalEmbedder()
    pooled: dict[str, dict[str, list[dict[str, float]]]] = defaultdict(lambda: defaultdict(list))
    by_split: dict[str, dict[str, dict[str, list[dict[str, float]]]]] = defaultdict(
        lambda: defaultdict(lambda: defaultdict(list))
    )
    pooled_latency: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    served_all, served_split = ServedPool(), defaultdict[str, ServedPool](ServedPool)
    categories: list[int] = []
    conversations: dict[str, Any] = {}
    bm25_used = ""
    for path in files:
        conversation = load_conversation(path)
        name = conversation.name
        if name in conversations:
            raise ValueError(f"conversation {name} given twice")
        split = split_of(name)
        rows, facts = evaluate_conversation(conversation, embedder)
        categories += [q.category for q in conversation.questions]
        for system, levels in rows.items():
            for level, per_question in levels.items():
                pooled[system][level] += per_question
                by_split[split][system][level] += per_question
        serving = facts.pop("served_samples")
        served_all.add(serving)
        served_split[split].add(serving)
        samples = facts.pop("latency_samples_ms")
        for system, kinds in samples.items():
            for kind, ms in kinds.items():
                pooled_latency[system][kind] += ms
        bm25_used = facts["bm25"]
        conversations[name] = {
            **facts,
            "latency_ms": {system: latency(kinds) for system, kinds in samples.items()},
            "metrics": summarize(rows),
            "served_context": served_summary(
                serving["scores"], serving["servings"], serving["bootstrap_ms"]
            ),
        }
        turn = conversations[name]["metrics"]
        progress(
            f"[{name}] turn recall_any@10: product {turn[PRODUCT]['turn']['recall_any@10']:.3f}, "
            f"BM25 {turn[BM25]['turn']['recall_any@10']:.3f}, "
            f"embeddings {turn[EMBEDDINGS]['turn']['recall_any@10']:.3f}, "
            f"RRF {turn[RRF]['turn']['recall_any@10']:.3f}; served turn recall_any "
            f"{conversations[name]['served_context']['metrics']['turn recall_any']:.3f}"
        )
    overall = summarize(pooled, categories)
    splits: dict[str, Any] = {}
    for split in (DEV, HELD_OUT):
        if split in by_split:
            splits[split] = {
                "conversations": [n for n, c in conversations.items() if c["split"] == split],
                "questions": len(by_split[split][PRODUCT]["turn"]),
                "metrics": summarize(by_split[split]),
                "served_context": served_split[split].summary(),
            }
    return {
        "benchmark": "episodic retrieval on LoCoMo",
        "conversations_evaluated": list(conversations),
        "dev_conversations": sorted(DEV_CONVERSATIONS),
        "setup": setup_notes(embedder, bm25_used),
        "environment": environment(),
        "overall": {
            "questions": len(categories),
            "metrics": overall,
            "latency_ms": {system: latency(kinds) for system, kinds in pooled_latency.items()},
            "encoding": {
                "turn recall_any@10 int8": overall[PRODUCT]["turn"]["recall_any@10"],
                "turn recall_any@10 float32": overall[PRODUCT_F32]["turn"]["recall_any@10"],
                "recall lost by int8 (float32 - int8)": round(
                    overall[PRODUCT_F32]["turn"]["recall_any@10"]
                    - overall[PRODUCT]["turn"]["recall_any@10"],
                    4,
                ),
            },
            "served_context": served_all.summary(),
        },
        "by_split": splits,
        "reference_readme_bm25_10_conversations": REFERENCE_FIGURES,
        "per_conversation": conversations,
    }


def setup_notes(embedder: LocalEmbedder, bm25_used: str) -> dict[str, Any]:
    return {
        "write_path": (
            "local_ports(LocalSettings(store=<fresh temp dir>)) with the real LocalEmbedder and "
            "LocalPiiDetector; consolidate() once per session: one RunFinished event, run_id "
            "session-<n>, outcome COMPLETED, finished_at = the session date (UTC), the turns as "
            "messages (speaker A human, speaker B ai, name = speaker, photo captions appended as "
            "' [shares a photo: ...]'), no artifacts; annotations never read"
        ),
        "clock_and_retention": (
            "clock fixed at the last session + 1 day; EpisodicPolicy.retention_days raised to 90 + "
            "the conversation's span in days (per conversation below), candidates >= sessions, so "
            "no session is expired (checked: the warm-up query returns every session)"
        ),
        "pii": (
            "the product scrubs PII before storing: names become keyed pseudonyms "
            "([NAME-<hmac>], one per person and tenant) in unit texts, speakers and the task, "
            "and search puts each question in the same form; the key is fixed per conversation "
            "(sha256 of its name), so both passes and every run see the same pseudonyms; "
            "baselines see raw turns"
        ),
        "queries": (
            "questions of categories 1-4 with evidence; evidence split on ';', ',' and "
            "whitespace, ids naming no turn dropped, questions left without evidence skipped"
        ),
        "product_search": (
            f"SearchEpisodes(tenant, agent, question, top_episodes={TOP}, "
            f"top_units={TOP}); sessions = episodes' run_id, turns = units of kind 'message' "
            "mapped (run_id, seq) -> dia_id; 'finding' units are skipped (they take slots)"
        ),
        "latency": (
            "per query, wall clock, after one untimed warm-up query that builds the cached "
            "index: embed+search = embed_query + SearchEpisodes(query_vector=vector); search = "
            "SearchEpisodes alone"
        ),
        "baselines": (
            "over the raw turns '{speaker}: {text}' (same content as the product's messages, "
            f"unscrubbed): {bm25_used}, English stop words, question as query; embeddings = "
            f"{embedder.model_id} cosine; RRF k=60 of the two (BM25 ranks only matching turns); "
            "session score = best turn score; also BM25 over whole-session text"
        ),
        "encoding": (
            "second product pass with EpisodicPolicy(vector_encoding='float32'): episodes' "
            "vectors stored as float32 (the stored format tag is verified) and the search index "
            "keeping float32 rows instead of int8"
        ),
        "metrics": (
            "recall_any@k: some relevant item in the top k; recall_all@k: every relevant item; "
            "nDCG@10 binary gains, ideal over min(|relevant|, 10); micro-averaged over questions"
        ),
        "splits": (
            f"dev = conversations {', '.join(sorted(DEV_CONVERSATIONS))} (the retrieval recipe "
            "was tuned on them, benchmarks/research/RETRIEVAL_RECIPE.md); every other "
            "conversation evaluated is held out"
        ),
        "served_context": (
            "on the int8 memory, after all its searches: bootstrap(parse_bootstrap_request("
            "{tenant_id, agent_id, task: the question}), ports) after one untimed warm-up call, "
            "default policies besides the retention (the best moments overall within "
            "served_moment_chars, under up to served_episodes runs); "
            "benchmarks/served.py: a message unit is served if its episode is in the reply and "
            "its moment line in the context block; served turn recall_any = an evidence turn "
            "served; served session recall_any / recall_all = some / every relevant session "
            "among the reply's episodes; block tokens counted with the embedding model's "
            f"WordPiece tokenizer ({embedder.model_id}, no special tokens), not a chat model's; "
            "bootstrap latency = wall clock around the bootstrap call"
        ),
        "embedding_model": embedder.model_id,
    }


def environment() -> dict[str, Any]:
    def version(distribution: str) -> str | None:
        try:
            return metadata.version(distribution)
        except metadata.PackageNotFoundError:
            return None

    return {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "packages": {
            d: version(d) for d in ("agent-memory", "numpy", "onnxruntime", "tokenizers", "bm25s")
        },
        "run_at": datetime.now(UTC).replace(microsecond=0).isoformat(),
    }


# ---------------------------------------------------------------- report


def markdown(result: Mapping[str, Any]) -> str:
    """The figures as Markdown tables: overall by level, per conversation, latency, encoding."""
    overall = result["overall"]["metrics"]
    lines = [
        "# Retrieval on LoCoMo: the product beside its baselines",
        "",
        f"Conversations {', '.join(result['conversations_evaluated'])}; "
        f"{result['overall']['questions']} questions (categories 1-4 with evidence), "
        "micro-averaged. Generated by `benchmarks/retrieval.py`; "
        "the setup is in the JSON beside this file.",
        "",
    ]
    systems = [PRODUCT, PRODUCT_F32, BM25, EMBEDDINGS, RRF]
    for level, extra in (("session", [BM25_SESSIONS]), ("turn", [])):
        lines += [f"## {level.capitalize()} level", "", _header(), _rule()]
        for system in [*systems, *extra]:
            lines.append(_row(system, overall[system][level]))
        lines += [_row(REFERENCE, REFERENCE_FIGURES[level]), ""]
    lines += _per_conversation(result)
    lines += _splits(result)
    lines += _served_table(result)
    lines += _latency_table(result)
    encoding = result["overall"]["encoding"]
    lines += [
        "## Vector encoding (product, turn level)",
        "",
        "| stored as | recall_any@10 |",
        "|---|---|",
        f"| int8 (default) | {encoding['turn recall_any@10 int8']:.3f} |",
        f"| float32 | {encoding['turn recall_any@10 float32']:.3f} |",
        f"| recall lost by int8 | {encoding['recall lost by int8 (float32 - int8)']:+.3f} |",
        "",
        *_by_category(result),
        *_misses(result),
        *_conversation_facts(result),
        "## Setup",
        "",
        *(f"- **{key}**: {text}" for key, text in result["setup"].items()),
        "",
    ]
    return "\n".join(lines)


def _header() -> str:
    return "| system | " + " | ".join(METRIC_NAMES) + " |"


def _rule() -> str:
    return "|---|" + "---|" * len(METRIC_NAMES)


def _row(system: str, values: Mapping[str, float]) -> str:
    cells = [f"{values[m]:.3f}" if m in values else "-" for m in METRIC_NAMES]
    return f"| {system} | " + " | ".join(cells) + " |"


def _per_conversation(result: Mapping[str, Any]) -> list[str]:
    names = list(result["per_conversation"])
    lines = [
        "## Per conversation (session recall_any@5 / turn recall_any@10)",
        "",
        "| system | " + " | ".join(names) + " | all |",
        "|---|" + "---|" * (len(names) + 1),
    ]
    overall = result["overall"]["metrics"]
    for system in (PRODUCT, PRODUCT_F32, BM25, EMBEDDINGS, RRF):
        cells = []
        for metrics in [*(result["per_conversation"][n]["metrics"] for n in names), overall]:
            levels = metrics[system]
            cells.append(
                f"{levels['session']['recall_any@5']:.3f} / {levels['turn']['recall_any@10']:.3f}"
            )
        lines.append(f"| {system} | " + " | ".join(cells) + " |")
    return [*lines, ""]


def _splits(result: Mapping[str, Any]) -> list[str]:
    splits = result["by_split"]
    names = list(splits)
    lines = [
        "## Dev and held-out (session recall_any@5 / turn recall_any@10)",
        "",
        "Dev: conversations the retrieval recipe was tuned on "
        "(`benchmarks/research/RETRIEVAL_RECIPE.md`); held-out: every other one evaluated.",
        "",
        "| system | "
        + " | ".join(f"{n} ({', '.join(splits[n]['conversations'])})" for n in names)
        + " |",
        "|---|" + "---|" * len(names),
    ]
    for system in (PRODUCT, PRODUCT_F32, BM25, EMBEDDINGS, RRF):
        cells = [
            f"{levels['session']['recall_any@5']:.3f} / {levels['turn']['recall_any@10']:.3f}"
            for levels in (splits[n]["metrics"][system] for n in names)
        ]
        lines.append(f"| {system} | " + " | ".join(cells) + " |")
    return [*lines, ""]


def _served_table(result: Mapping[str, Any]) -> list[str]:
    lines = [
        "## Served context: what bootstrap puts in the block (int8 memory)",
        "",
        "Each question is also the task of a `bootstrap` call (default policies: the best "
        "moments overall within the moments' budget, under up to 8 runs). Turn recall_any: "
        "an evidence turn is inside the block; "
        "session recall_any / recall_all: some / every relevant session is among the block's "
        "episodes. Tokens: the embedding model's WordPiece tokenizer (all-MiniLM-L6-v2, no "
        "special tokens), not a chat model's. Latency: wall clock, 2 cores, noisy.",
        "",
        "| conversation | questions | turn recall_any | session recall_any | "
        "session recall_all | turns served (mean) | block tokens median | p95 | "
        "bootstrap ms p50 | p95 |",
        "|---|" + "---|" * 9,
    ]
    entries = [(n, c["served_context"]) for n, c in result["per_conversation"].items()]
    entries += [(split, c["served_context"]) for split, c in result["by_split"].items()]
    entries.append(("all", result["overall"]["served_context"]))
    for name, c in entries:
        m, tokens, ms = c["metrics"], c["block_tokens"], c["bootstrap_ms"]
        lines.append(
            f"| {name} | {c['questions']} | "
            + " | ".join(f"{m[k]:.3f}" for k in SERVED_METRICS)
            + f" | {c['turns_served_mean']:.2f} | {tokens['median']:.0f} | {tokens['p95']:.0f} | "
            f"{ms['p50']:.1f} | {ms['p95']:.1f} |"
        )
    return [*lines, ""]


def _by_category(result: Mapping[str, Any]) -> list[str]:
    overall = result["overall"]["metrics"]
    categories = sorted(
        {int(key.rsplit(" ", 1)[1]) for key in overall[PRODUCT] if "category" in key}
    )
    lines = [
        "## By question category (session recall_any@5 / turn recall_any@10)",
        "",
        "LoCoMo categories: 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop.",
        "",
        "| system | " + " | ".join(f"category {c}" for c in categories) + " |",
        "|---|" + "---|" * len(categories),
    ]
    for system in (PRODUCT, PRODUCT_F32, BM25, EMBEDDINGS, RRF):
        levels = overall[system]
        cells = [
            f"{levels[f'session category {c}']['recall_any@5']:.3f} / "
            f"{levels[f'turn category {c}']['recall_any@10']:.3f}"
            for c in categories
        ]
        lines.append(f"| {system} | " + " | ".join(cells) + " |")
    return [*lines, ""]


def _misses(result: Mapping[str, Any]) -> list[str]:
    key = f"product_session_misses_at_{MISS_CUTOFF}"
    lines = [
        f"## The product's session misses at {MISS_CUTOFF}",
        "",
        "Questions with no relevant session in the product's top "
        f"{MISS_CUTOFF}; each is listed, with its rank, in the JSON (`{key}`).",
        "",
        f"| conversation | misses | first relevant at {MISS_CUTOFF + 1}-{TOP} | "
        f"not in the top {TOP} | by category |",
        "|---|---|---|---|---|",
    ]
    rows = [(name, c[key]) for name, c in result["per_conversation"].items()]
    for name, misses in [*rows, ("all", [m for _, ms in rows for m in ms])]:
        near = sum(m["first_relevant_rank"] is not None for m in misses)
        by_category = Counter(m["category"] for m in misses)
        categories = ", ".join(f"{c}: {n}" for c, n in sorted(by_category.items())) or "-"
        lines.append(f"| {name} | {len(misses)} | {near} | {len(misses) - near} | {categories} |")
    return [*lines, ""]


def _conversation_facts(result: Mapping[str, Any]) -> list[str]:
    lines = [
        "## Conversations as loaded",
        "",
        "| conversation | sessions | turns | questions (by category) | retention days | clock | "
        "PII scrubbed | questions naming a speaker | finding units in top 10 (mean) | "
        "evidence ids dropped | load s (int8 / float32) |",
        "|---|" + "---|" * 10,
    ]
    for name, c in result["per_conversation"].items():
        by_category = ", ".join(f"{k}: {v}" for k, v in c["questions_by_category"].items())
        scrubbed = ", ".join(f"{k} {v}" for k, v in c["pii_entities_scrubbed"].items()) or "none"
        dropped = ", ".join(f"`{d}`" for d in c["evidence_ids_dropped"]) or "none"
        load = " / ".join(f"{c['load_seconds'][s]:.0f}" for s in (PRODUCT, PRODUCT_F32))
        lines.append(
            f"| {name} | {c['sessions']} | {c['turns']} | {c['questions']} ({by_category}) | "
            f"{c['retention_days']:.0f} | {c['clock'][:10]} | {scrubbed} | "
            f"{c['questions_naming_a_speaker']} | {c['finding_units_in_top10_mean']:.2f} | "
            f"{dropped} | {load} |"
        )
    return [*lines, ""]


def _latency_table(result: Mapping[str, Any]) -> list[str]:
    lines = [
        "## Product query latency (ms per query, wall clock, 2 cores, noisy)",
        "",
        "| conversation | vectors | embed+search p50 | p95 | search alone p50 | p95 | "
        "cold index build |",
        "|---|---|---|---|---|---|---|",
    ]
    entries = [
        (n, c["latency_ms"], c["cold_index_ms"]) for n, c in result["per_conversation"].items()
    ]
    entries.append(("all", result["overall"]["latency_ms"], None))
    for name, by_system, cold in entries:
        for system, label in ((PRODUCT, "int8"), (PRODUCT_F32, "float32")):
            both, search = by_system[system]["embed+search"], by_system[system]["search"]
            build = f"{cold[system]:.1f}" if cold else "-"
            lines.append(
                f"| {name} | {label} | {both['p50']:.2f} | {both['p95']:.2f} | "
                f"{search['p50']:.2f} | {search['p95']:.2f} | {build} |"
            )
    return [*lines, ""]


# ---------------------------------------------------------------- entry point


def progress(message: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} {message}", flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data",
        type=Path,
        default=None,
        help="a folder of LoCoMo <id>.json files (every *.json is read) or one such file",
    )
    parser.add_argument(
        "--out", type=Path, default=REPO / "benchmarks" / "results" / "retrieval.json"
    )
    parser.add_argument(
        "--conversations", nargs="+", default=None, help="only these ids (default: all found)"
    )
    args = parser.parse_args(argv)
    data = dataset("locomo", args.data)
    files = conversation_files(data)
    if args.conversations is not None:
        wanted = set(args.conversations)
        files = [f for f in files if f.stem in wanted]
        if missing := wanted - {f.stem for f in files}:
            parser.error(f"no file for conversation(s) {', '.join(sorted(missing))}")
    result = run(files)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    args.out.with_suffix(".md").write_text(markdown(result), encoding="utf-8")
    progress(f"wrote {args.out.name} and {args.out.with_suffix('.md').name}")
    print(markdown(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
