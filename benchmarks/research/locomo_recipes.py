"""Retrieval recipes for the episodic tier, measured on LoCoMo: an ablation, dev and held-out.

Research code, not part of the product or its tests. It answers one question: which cheap
retrieval recipe (lexical + the local MiniLM embedder + fixed arithmetic, nothing learned per
conversation) finds the right past turns and sessions for a question. The write-up, with every
figure this script prints, is ``RETRIEVAL_RECIPE.md`` beside it.

Setup (from the repository root; extra packages go into ``build/``, never the project venv)::

    .venv/bin/pip install --no-deps --target build/research-lib \
        snowballstemmer==3.1.1 bm25s==0.3.16      # bm25s only for the reference baseline

Run::

    .venv/bin/python benchmarks/research/locomo_recipes.py               # dev (26, 30) only
    .venv/bin/python benchmarks/research/locomo_recipes.py --heldout     # + held-out (41-43)
    OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/research/locomo_recipes.py --latency
    .venv/bin/python benchmarks/research/locomo_recipes.py --sweep       # dev sensitivity grid

``--data`` defaults to ``$AGENT_MEMORY_BENCH_DATA/locomo``. Embeddings are
cached in ``build/research-cache/`` (keyed by model id and a hash of the texts).

Protocol: each conversation is one memory store. Units are its turns (speaker name, session
date, text and the turn's own ``blip_caption``); each session is one episode. The annotations
(``events_session_*``, ``session_*_observation``, ``session_*_summary``) are never read, and the
QA answers and evidence are used only to score. Queries are the questions of categories 1-4
that have evidence, verbatim.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[2]
CACHE = REPO / "build" / "research-cache"
EXTRA_LIB = REPO / "build" / "research-lib"
if EXTRA_LIB.is_dir() and str(EXTRA_LIB) not in sys.path:
    sys.path.append(str(EXTRA_LIB))
if __package__ in (None, ""):  # run as a script: the repository root holds benchmarks/
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks.bench_data import dataset  # noqa: E402

DEV = ("26", "30")
HELDOUT = ("41", "42", "43")
CATEGORIES = {1, 2, 3, 4}

# ---------------------------------------------------------------- data


@dataclass(frozen=True)
class Turn:
    index: int  # position in the conversation's turn list
    dia_id: str
    session: int  # index into Conversation.session_turns
    position: int  # position inside its session
    speaker: str
    text: str
    caption: str  # the turn's own blip_caption ('' if none): turn content
    date: str  # the session's date_time string


@dataclass(frozen=True)
class Question:
    text: str
    category: int
    evidence: frozenset[int]  # turn indexes
    sessions: frozenset[int]  # session indexes holding evidence


@dataclass
class Conversation:
    name: str
    speakers: tuple[str, str]
    turns: list[Turn]
    session_turns: list[list[int]]
    session_dates: list[str]
    questions: list[Question]
    turn_session: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self.turn_session = np.array([t.session for t in self.turns])


def load_conversation(path: Path) -> Conversation:
    """Read one LoCoMo file: turns, session dates and questions; annotations are skipped."""
    data = json.loads(path.read_text())
    numbers = sorted(int(k.split("_")[1]) for k in data if re.fullmatch(r"session_\d+", k))
    turns: list[Turn] = []
    session_turns: list[list[int]] = []
    dates: list[str] = []
    for number in numbers:
        date = data.get(f"session_{number}_date_time", "")
        members = []
        for position, raw in enumerate(data[f"session_{number}"]):
            members.append(len(turns))
            turns.append(
                Turn(
                    len(turns),
                    raw["dia_id"],
                    len(session_turns),
                    position,
                    raw["speaker"],
                    raw["text"],
                    (raw.get("blip_caption") or "").strip(),
                    date,
                )
            )
        session_turns.append(members)
        dates.append(date)
    index = {t.dia_id: t.index for t in turns}
    questions = []
    for qa in data["qa"]:
        if qa.get("category") not in CATEGORIES:
            continue
        # Same parsing as benchmarks/embedding_candidates.py: a few evidence strings hold
        # several ids ("D8:6; D9:17"); ids that name no turn are dropped.
        found = frozenset(
            index[e]
            for raw in qa.get("evidence", [])
            for e in re.split(r"[;,\s]+", raw)
            if e in index
        )
        if found:
            questions.append(
                Question(
                    qa["question"],
                    int(qa["category"]),
                    found,
                    frozenset(turns[i].session for i in found),
                )
            )
    return Conversation(
        path.stem, (data["speaker_a"], data["speaker_b"]), turns, session_turns, dates, questions
    )


def turn_text(turn: Turn, *, speaker: bool = True, caption: bool = True, date: bool = False) -> str:
    """A unit's text as the product would store it."""
    text = turn.text
    if caption and turn.caption:
        text = f"{text} [shares a photo: {turn.caption}]"
    if speaker:
        text = f"{turn.speaker}: {text}"
    if date:
        text = f"({day_text(turn.date)}) {text}"
    return text


def day_text(date_time: str) -> str:
    """The calendar day of a session, "1:56 pm on 8 May, 2023" -> "8 May 2023" (no clock time)."""
    parsed = parse_session_date(date_time)
    if parsed is None:
        return date_time
    year, month, day = parsed
    return f"{day} {MONTH_NAMES[month - 1]} {year}"


# ---------------------------------------------------------------- tokenisation

# bm25s's English list (33 words; the reference BM25 baseline uses it).
STOP_SHORT = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "but",
        "by",
        "for",
        "if",
        "in",
        "into",
        "is",
        "it",
        "no",
        "not",
        "of",
        "on",
        "or",
        "such",
        "that",
        "the",
        "their",
        "then",
        "there",
        "these",
        "they",
        "this",
        "to",
        "was",
        "will",
        "with",
    ]
)
# The NLTK English stop-word list (179 words), the usual "full" list.
STOP_NLTK = frozenset(
    [
        "i",
        "me",
        "my",
        "myself",
        "we",
        "our",
        "ours",
        "ourselves",
        "you",
        "you're",
        "you've",
        "you'll",
        "you'd",
        "your",
        "yours",
        "yourself",
        "yourselves",
        "he",
        "him",
        "his",
        "himself",
        "she",
        "she's",
        "her",
        "hers",
        "herself",
        "it",
        "it's",
        "its",
        "itself",
        "they",
        "them",
        "their",
        "theirs",
        "themselves",
        "what",
        "which",
        "who",
        "whom",
        "this",
        "that",
        "that'll",
        "these",
        "those",
        "am",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "have",
        "has",
        "had",
        "having",
        "do",
        "does",
        "did",
        "doing",
        "a",
        "an",
        "the",
        "and",
        "but",
        "if",
        "or",
        "because",
        "as",
        "until",
        "while",
        "of",
        "at",
        "by",
        "for",
        "with",
        "about",
        "against",
        "between",
        "into",
        "through",
        "during",
        "before",
        "after",
        "above",
        "below",
        "to",
        "from",
        "up",
        "down",
        "in",
        "out",
        "on",
        "off",
        "over",
        "under",
        "again",
        "further",
        "then",
        "once",
        "here",
        "there",
        "when",
        "where",
        "why",
        "how",
        "all",
        "any",
        "both",
        "each",
        "few",
        "more",
        "most",
        "other",
        "some",
        "such",
        "no",
        "nor",
        "not",
        "only",
        "own",
        "same",
        "so",
        "than",
        "too",
        "very",
        "s",
        "t",
        "can",
        "will",
        "just",
        "don",
        "don't",
        "should",
        "should've",
        "now",
        "d",
        "ll",
        "m",
        "o",
        "re",
        "ve",
        "y",
        "ain",
        "aren",
        "aren't",
        "couldn",
        "couldn't",
        "didn",
        "didn't",
        "doesn",
        "doesn't",
        "hadn",
        "hadn't",
        "hasn",
        "hasn't",
        "haven",
        "haven't",
        "isn",
        "isn't",
        "ma",
        "mightn",
        "mightn't",
        "mustn",
        "mustn't",
        "needn",
        "needn't",
        "shan",
        "shan't",
        "shouldn",
        "shouldn't",
        "wasn",
        "wasn't",
        "weren",
        "weren't",
        "won",
        "won't",
        "wouldn",
        "wouldn't",
    ]
)
TOKEN = re.compile(r"(?u)\b\w\w+\b")  # bm25s's default: words of two or more characters


class Stemmer:
    """Snowball English (Porter2) with a per-word cache; identity when ``kind`` is None."""

    def __init__(self, kind: str | None) -> None:
        self.kind = kind
        self._cache: dict[str, str] = {}
        self._stem: Callable[[str], str] | None = None
        if kind == "snowball":
            import snowballstemmer  # pure Python, BSD-3-Clause

            self._stem = snowballstemmer.stemmer("english").stemWord

    def __call__(self, word: str) -> str:
        if self._stem is None:
            return word
        found = self._cache.get(word)
        if found is None:
            found = self._cache[word] = self._stem(word)
        return found


@dataclass(frozen=True)
class Lexical:
    """How text becomes terms, and the BM25 parameters."""

    stop: str = "short"  # "short" (bm25s, 33 words), "nltk" (179 words) or "none"
    stem: str | None = None  # None or "snowball"
    k1: float = 1.5
    b: float = 0.75

    def stopwords(self) -> frozenset[str]:
        return {"short": STOP_SHORT, "nltk": STOP_NLTK, "none": frozenset()}[self.stop]


_STEMMERS: dict[str | None, Stemmer] = {}


def tokenize(text: str, lex: Lexical) -> list[str]:
    stemmer = _STEMMERS.get(lex.stem) or _STEMMERS.setdefault(lex.stem, Stemmer(lex.stem))
    stop = lex.stopwords()
    # Words of 2+ characters: the possessive in "Caroline's" is a lone "s" and falls away.
    text = text.lower()
    return [stemmer(w) for w in TOKEN.findall(text) if w not in stop]


# ---------------------------------------------------------------- BM25 (numpy)


class BM25:
    """Okapi BM25 over weighted term counts ("Lucene" idf, as bm25s and Lucene use).

    ``docs`` are Counters of term -> (possibly fractional) count, so a document can be a turn
    plus down-weighted neighbours. Document length is the sum of those weights.
    """

    def __init__(
        self, docs: Sequence[Counter[str] | dict[str, float]], k1: float, b: float
    ) -> None:
        self.vocab: dict[str, int] = {}
        rows, cols, vals = [], [], []
        for d, doc in enumerate(docs):
            for term, count in doc.items():
                col = self.vocab.setdefault(term, len(self.vocab))
                rows.append(d)
                cols.append(col)
                vals.append(float(count))
        n, v = len(docs), len(self.vocab)
        tf = np.zeros((n, v), dtype=np.float64)
        np.add.at(tf, (np.array(rows, dtype=int), np.array(cols, dtype=int)), np.array(vals))
        length = tf.sum(axis=1)
        avg = max(length.mean(), 1e-9)
        df = (tf > 0).sum(axis=0)
        self.idf = np.log(1.0 + (n - df + 0.5) / (df + 0.5))
        norm = k1 * (1.0 - b + b * length / avg)
        self.tf = tf
        # Per (doc, term) contribution; a query's score is the sum over its distinct terms.
        self.weights = self.idf[None, :] * tf * (k1 + 1.0) / (tf + norm[:, None])

    def query_vector(
        self, terms: Iterable[str], weights: dict[str, float] | None = None
    ) -> np.ndarray:
        q = np.zeros(len(self.vocab))
        for term in set(terms):
            col = self.vocab.get(term)
            if col is not None:
                q[col] = 1.0 if weights is None else weights.get(term, 1.0)
        return q

    def scores(self, queries: Sequence[Sequence[str]]) -> np.ndarray:
        q = (
            np.stack([self.query_vector(t) for t in queries])
            if queries
            else np.zeros((0, len(self.vocab)))
        )
        return q @ self.weights.T


def windowed_counts(
    conv: Conversation,
    counts: list[Counter[str]],
    radius: int,
    decay: float,
    neighbour_counts: list[Counter[str]] | None = None,
) -> list[Counter[str]]:
    """Each turn's counts plus decay**d times those of turns d <= radius away in its session.

    ``neighbour_counts`` (default: ``counts``) are what a neighbour contributes, e.g. its text
    without its speaker's name.
    """
    if radius == 0 or decay == 0:
        return counts
    neighbour_counts = neighbour_counts or counts
    out: list[Counter[str]] = []
    for turn in conv.turns:
        members = conv.session_turns[turn.session]
        total: Counter[str] = Counter()
        for other in members[max(0, turn.position - radius) : turn.position + radius + 1]:
            d = abs(conv.turns[other].position - turn.position)
            w = decay**d
            for term, c in (counts[other] if d == 0 else neighbour_counts[other]).items():
                total[term] += w * c
        out.append(total)
    return out


def neighbour_matrix(conv: Conversation, radius: int, decay: float) -> np.ndarray:
    """N x N: A[i, j] = decay**|i-j| for turns j of i's session within ``radius`` (A[i, i] = 1)."""
    n = len(conv.turns)
    a = np.eye(n)
    if radius == 0 or decay == 0:
        return a
    for members in conv.session_turns:
        for p, i in enumerate(members):
            for q in range(max(0, p - radius), min(len(members), p + radius + 1)):
                if q != p:
                    a[i, members[q]] = decay ** abs(q - p)
    return a


# ---------------------------------------------------------------- embeddings (cached)


_EMBEDDER: Any = None


def embedder() -> Any:
    global _EMBEDDER
    if _EMBEDDER is None:
        from agent_memory.adapters.local.embeddings import LocalEmbedder

        _EMBEDDER = LocalEmbedder()
    return _EMBEDDER


def embed(texts: Sequence[str]) -> np.ndarray:
    """Embed with the product's LocalEmbedder; cached under build/research-cache/."""
    from agent_memory.adapters.local.embeddings import MODEL_ID

    digest = hashlib.sha256(("\x00".join([MODEL_ID, *texts])).encode()).hexdigest()[:24]
    path = CACHE / f"emb-{digest}.npy"
    if path.exists():
        return np.load(path)
    vectors = embedder().embed_documents(list(texts)).astype(np.float32)
    CACHE.mkdir(parents=True, exist_ok=True)
    np.save(path, vectors)
    return vectors


# ---------------------------------------------------------------- score plumbing


def zscore(s: np.ndarray) -> np.ndarray:
    """Row-wise z-score over all units of the store (a constant row becomes zeros)."""
    mu = s.mean(axis=1, keepdims=True)
    sd = s.std(axis=1, keepdims=True)
    return (s - mu) / np.where(sd > 0, sd, 1.0)


def minmax(s: np.ndarray) -> np.ndarray:
    lo = s.min(axis=1, keepdims=True)
    hi = s.max(axis=1, keepdims=True)
    return (s - lo) / np.where(hi > lo, hi - lo, 1.0)


def ranks(s: np.ndarray) -> np.ndarray:
    """1-based rank of every unit per row (stable: earlier unit wins ties)."""
    order = np.argsort(-s, axis=1, kind="stable")
    r = np.empty_like(order)
    rows = np.arange(s.shape[0])[:, None]
    r[rows, order] = np.arange(1, s.shape[1] + 1)[None, :]
    return r


def rrf(
    parts: Sequence[np.ndarray], k: float = 60.0, weights: Sequence[float] | None = None
) -> np.ndarray:
    weights = weights or [1.0] * len(parts)
    return sum(w / (k + ranks(p)) for w, p in zip(weights, parts, strict=True))


def fuse(
    parts: Sequence[np.ndarray], method: str, weights: Sequence[float] | None = None
) -> np.ndarray:
    weights = list(weights or [1.0] * len(parts))
    if method == "rrf":
        return rrf(parts, 60.0, weights)
    norm = {"z": zscore, "minmax": minmax}[method]
    return sum(w * norm(p) for w, p in zip(weights, parts, strict=True))


def session_aggregate(turn_scores: np.ndarray, conv: Conversation, how: str) -> np.ndarray:
    """Session score from its turns' scores: 'max', 'top2'/'top3' (sum of best m), 'mean'."""
    out = np.empty((turn_scores.shape[0], len(conv.session_turns)))
    if how.startswith("rrfsum"):  # reciprocal-rank votes of a session's units: sum 1/(k + rank)
        k = float(how[6:] or 60)
        votes = 1.0 / (k + ranks(turn_scores))
        for s, members in enumerate(conv.session_turns):
            out[:, s] = votes[:, members].sum(axis=1)
        return out
    for s, members in enumerate(conv.session_turns):
        block = turn_scores[:, members]
        if how == "max":
            out[:, s] = block.max(axis=1)
        elif how == "evt":  # max minus the expected max of n standard normals, sqrt(2 ln n)
            out[:, s] = block.max(axis=1) - math.sqrt(2 * math.log(max(block.shape[1], 2)))
        elif how.startswith("top"):
            m = min(int(how[3:]), block.shape[1])
            out[:, s] = -np.sort(-block, axis=1)[:, :m].sum(axis=1)
        elif how.startswith("lse"):  # soft maximum: T * log sum exp(score / T)
            t = float(how[3:])
            top = block.max(axis=1, keepdims=True)
            out[:, s] = top[:, 0] + t * np.log(np.exp((block - top) / t).sum(axis=1))
        elif how == "mean":
            out[:, s] = block.mean(axis=1)
        else:
            raise ValueError(how)
    return out


# ---------------------------------------------------------------- metrics


def metrics(scores: np.ndarray, relevant: Sequence[frozenset[int]]) -> dict[str, np.ndarray]:
    """Per-question hits: recall_any@1/5/10, recall_all@5/10, nDCG@10 (binary gains)."""
    order = np.argsort(-scores, axis=1, kind="stable")[:, :10]
    out: dict[str, list[float]] = {
        k: [] for k in ("any@1", "any@5", "any@10", "all@5", "all@10", "ndcg@10")
    }
    discounts = 1.0 / np.log2(np.arange(2, 12))
    for q, rel in enumerate(relevant):
        top = order[q].tolist()
        for k in (1, 5, 10):
            out[f"any@{k}"].append(float(bool(rel & set(top[:k]))))
        for k in (5, 10):
            out[f"all@{k}"].append(float(rel <= set(top[:k])))
        gains = np.array([1.0 if t in rel else 0.0 for t in top])
        ideal = discounts[: min(len(rel), 10)].sum()
        out["ndcg@10"].append(float((gains * discounts).sum() / ideal))
    return {k: np.array(v) for k, v in out.items()}


METRIC_KEYS = ("any@1", "any@5", "any@10", "all@5", "all@10", "ndcg@10")


# ---------------------------------------------------------------- recipes


@dataclass(frozen=True)
class Recipe:
    """Every knob of one retrieval recipe. Defaults = plain BM25 (the reference baseline)."""

    name: str = "BM25"
    # unit text
    speaker: bool = True
    caption: bool = False
    date: bool = False  # prefix the session date to the lexical unit text
    dense_date: bool = False  # prefix the session date to the embedded unit text
    neighbour_speaker: bool = True  # a window's neighbours bring their speaker names along
    # lexical side
    lexical: Lexical = Lexical()
    bm25_window: tuple[int, float] = (0, 0.0)  # (radius, decay) at term-count level
    bm25_smooth: tuple[int, float] = (0, 0.0)  # (radius, decay) at score level
    rm3: tuple[int, int, float] = (0, 0, 0.0)  # (feedback docs, expansion terms, original weight)
    drop_names: bool = False  # remove speaker names from the lexical query
    # dense side
    dense: bool = False
    dense_text: str = "alone"  # "alone" or "context<r>" (embed the turn with r neighbours)
    dense_smooth: tuple[int, float] = (0, 0.0)  # vector smoothing: V' = A V, re-normalised
    # fusion (turn level)
    fusion: str = "rrf"  # "rrf", "z", "minmax"
    dense_weight: float = 1.0  # weight of the dense part (lexical weight 1)
    dense_prf: tuple[int, float] = (
        0,
        0.0,
    )  # Rocchio: q += beta * mean(top-k unit vectors), 2nd pass
    # query side priors
    speaker_prior: float = 0.0  # added (in fused z units) to turns by the one named speaker
    speaker_prior_sessions: bool = False  # let the speaker bonus reach session scores too
    date_prior: float = 0.0  # added (z units) to sessions, and their turns, in a named period
    # session level
    session_agg: str = "max"  # session score from its turns' fused scores
    session_turns: float = 1.0  # weight of that aggregate in the session score
    session_bm25: float = 0.0  # weight of whole-session BM25 in the session score
    session_dense: float = 0.0  # weight of the session vector's cosine in the session score
    session_vector: str = "centroid"  # "centroid" (mean of unit vectors) or "whole" (embed text)
    session_fusion: str = "z"  # how the session parts combine: "z" or "rrf"
    session_prior: float = 0.0  # turn score += w * z(session score) (hierarchical)


@dataclass
class Prepared:
    """Per-conversation cached inputs for a recipe family."""

    conv: Conversation
    q_tokens: list[list[str]]
    q_vecs: np.ndarray | None


def speaker_named(conv: Conversation, question: str) -> list[int]:
    """Which of the two speakers (0/1) a question names (whole word, case-insensitive)."""
    low = question.lower()
    return [
        i
        for i, name in enumerate(conv.speakers)
        if re.search(rf"\b{re.escape(name.lower())}\b", low)
    ]


MONTHS = {
    m: i + 1
    for i, m in enumerate(
        [
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        ]
    )
}
_MON = "(" + "|".join(MONTHS) + ")"
MONTH_NAMES = [m.capitalize() for m in MONTHS]


def parse_session_date(text: str) -> tuple[int, int, int] | None:
    """LoCoMo's "1:56 pm on 8 May, 2023" -> (2023, 5, 8)."""
    m = re.search(rf"(\d{{1,2}})\s+{_MON},?\s+(\d{{4}})", text.lower())
    return (int(m.group(3)), MONTHS[m.group(2)], int(m.group(1))) if m else None


def question_period(question: str) -> tuple[str, tuple[int, ...]] | None:
    """The calendar period a question names, if any: a day, a month (of a year) or a year.

    Only absolute expressions ("on 1 February, 2023", "October 13, 2023", "in June", "July
    2023", "in 2022"); relative ones ("last year") need a reference time the query lacks.
    """
    low = question.lower()
    m = re.search(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+{_MON},?\s+(\d{{4}})\b", low)
    if m:
        return "day", (int(m.group(3)), MONTHS[m.group(2)], int(m.group(1)))
    m = re.search(rf"\b{_MON}\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b", low)
    if m:
        return "day", (int(m.group(3)), MONTHS[m.group(1)], int(m.group(2)))
    m = re.search(rf"\b{_MON},?\s+(\d{{4}})\b", low)
    if m:
        return "month", (int(m.group(2)), MONTHS[m.group(1)])
    # A bare month name only after "in"/"during" ("may" is also a verb).
    m = re.search(rf"\b(?:in|during)\s+{_MON}\b", low)
    if m:
        return "month", (0, MONTHS[m.group(1)])
    m = re.search(r"\b(?:in|during)\s+((?:19|20)\d\d)\b", low)
    if m:
        return "year", (int(m.group(1)),)
    return None


def period_match(period: tuple[str, tuple[int, ...]], date: tuple[int, int, int] | None) -> bool:
    """Does a session on ``date`` fall in the named period? A named day matches the sessions of
    that day and the 7 days after it (events are told after they happen).
    """
    import datetime as dt

    if date is None:
        return False
    kind, value = period
    year, month, day = date
    if kind == "year":
        return year == value[0]
    if kind == "month":
        return month == value[1] and (value[0] in (0, year))
    try:
        delta = (dt.date(year, month, day) - dt.date(*value)).days
    except ValueError:
        return False
    return 0 <= delta <= 7


def rm3_expand(
    bm: BM25, scores: np.ndarray, q_terms: list[str], fb_docs: int, fb_terms: int, orig: float
) -> dict[str, float]:
    """RM3: mix the query with the top terms of a relevance model over the best ``fb_docs``."""
    top = np.argsort(-scores)[:fb_docs]
    tf = bm.tf[top]
    lengths = np.maximum(tf.sum(axis=1, keepdims=True), 1e-9)
    doc_w = np.maximum(scores[top], 0.0)  # P(D|Q) ~ the first-pass score (Anserini's RM3)
    doc_w = doc_w / max(doc_w.sum(), 1e-12)
    rel = (doc_w[:, None] * tf / lengths).sum(axis=0)
    rel = rel / max(rel.sum(), 1e-12)
    inv = {v: k for k, v in bm.vocab.items()}
    best = np.argsort(-rel)[:fb_terms]
    expansion = {inv[c]: float(rel[c]) for c in best if rel[c] > 0}
    total = sum(expansion.values()) or 1.0
    q_terms_u = set(t for t in q_terms if t in bm.vocab)
    weights: dict[str, float] = {}
    for t in q_terms_u:
        weights[t] = orig / max(len(q_terms_u), 1)
    for t, w in expansion.items():
        weights[t] = weights.get(t, 0.0) + (1 - orig) * w / total
    return weights


def run_conversation(conv: Conversation, r: Recipe) -> tuple[np.ndarray, np.ndarray]:
    """Turn scores (Q x N) and session scores (Q x S) for every question of ``conv``."""
    texts = [turn_text(t, speaker=r.speaker, caption=r.caption, date=r.date) for t in conv.turns]
    questions = [q.text for q in conv.questions]
    lex = r.lexical
    counts = [Counter(tokenize(t, lex)) for t in texts]
    if r.neighbour_speaker:
        neighbour_counts = counts
    else:
        neighbour_counts = [
            Counter(tokenize(turn_text(t, speaker=False, caption=r.caption, date=False), lex))
            for t in conv.turns
        ]
    names = {w for n in conv.speakers for w in tokenize(n, lex)}
    q_tokens = []
    for q in questions:
        toks = tokenize(q, lex)
        if r.drop_names:
            toks = [t for t in toks if t not in names] or toks
        q_tokens.append(toks)

    bm = BM25(windowed_counts(conv, counts, *r.bm25_window, neighbour_counts), lex.k1, lex.b)
    lexical = bm.scores(q_tokens)
    if r.rm3[0]:
        fb_docs, fb_terms, orig = r.rm3
        rows = []
        for qi, toks in enumerate(q_tokens):
            w = rm3_expand(bm, lexical[qi], toks, fb_docs, fb_terms, orig)
            rows.append(bm.weights @ bm.query_vector(w.keys(), w))
        lexical = np.stack(rows)
    if r.bm25_smooth[0]:
        lexical = lexical @ neighbour_matrix(conv, *r.bm25_smooth).T

    parts = [lexical]
    q_vecs = None
    turn_vecs = None
    if r.dense or r.session_dense:
        unit_texts = [
            turn_text(t, speaker=r.speaker, caption=r.caption, date=r.dense_date)
            for t in conv.turns
        ]
        if r.dense_text == "alone":
            dense_docs = unit_texts
        else:
            radius = int(r.dense_text.removeprefix("context"))
            dense_docs = []
            for t in conv.turns:
                members = conv.session_turns[t.session]
                window = members[max(0, t.position - radius) : t.position + radius + 1]
                dense_docs.append("\n".join(unit_texts[j] for j in window))
        turn_vecs = embed(dense_docs)
        if r.dense_smooth[0]:
            turn_vecs = neighbour_matrix(conv, *r.dense_smooth) @ turn_vecs
            turn_vecs = turn_vecs / np.linalg.norm(turn_vecs, axis=1, keepdims=True)
        q_vecs = embed(questions)
    if r.dense:
        parts.append(q_vecs @ turn_vecs.T)

    if len(parts) == 1:
        turn = parts[0] if r.fusion == "rrf" else fuse(parts, r.fusion)
    else:
        turn = fuse(parts, r.fusion, [1.0, r.dense_weight])
    if r.dense and r.dense_prf[0]:
        k, beta = r.dense_prf
        top = np.argsort(-turn, axis=1, kind="stable")[:, :k]
        q2 = q_vecs + beta * turn_vecs[top].mean(axis=1)
        q2 /= np.linalg.norm(q2, axis=1, keepdims=True)
        parts[1] = q2 @ turn_vecs.T
        turn = fuse(parts, r.fusion, [1.0, r.dense_weight])

    if r.fusion != "rrf":
        turn = zscore(turn)  # the fused score in units of its own spread: the priors' scale
    speaker_bonus = np.zeros_like(turn)
    if r.speaker_prior:
        spk = np.array(
            [
                conv.speakers.index(t.speaker) if t.speaker in conv.speakers else -1
                for t in conv.turns
            ]
        )
        for qi, q in enumerate(questions):
            named = speaker_named(conv, q)
            if len(named) == 1:
                speaker_bonus[qi, spk == named[0]] = r.speaker_prior
        if r.speaker_prior_sessions:
            turn = zscore(turn) + speaker_bonus
            speaker_bonus[:] = 0.0

    parts_s: list[np.ndarray] = []
    weights_s: list[float] = []
    if r.session_turns:
        parts_s.append(session_aggregate(turn, conv, r.session_agg))
        weights_s.append(r.session_turns)
    if r.session_bm25:
        sess_counts = []
        for members in conv.session_turns:
            c: Counter[str] = Counter()
            for i in members:
                c.update(counts[i])
            sess_counts.append(c)
        parts_s.append(BM25(sess_counts, lex.k1, lex.b).scores(q_tokens))
        weights_s.append(r.session_bm25)
    if r.session_dense:
        plain = [
            turn_text(t, speaker=r.speaker, caption=r.caption, date=r.dense_date)
            for t in conv.turns
        ]
        if r.session_vector == "whole":
            svec = embed(["\n".join(plain[i] for i in m) for m in conv.session_turns])
        else:
            base_vecs = embed(plain)
            svec = np.stack([base_vecs[m].mean(axis=0) for m in conv.session_turns])
            svec /= np.linalg.norm(svec, axis=1, keepdims=True)
        parts_s.append(q_vecs @ svec.T)
        weights_s.append(r.session_dense)
    session = parts_s[0] if len(parts_s) == 1 else fuse(parts_s, r.session_fusion, weights_s)
    date_bonus = np.zeros_like(session)
    if r.date_prior:
        dates = [parse_session_date(d) for d in conv.session_dates]
        for qi, q in enumerate(questions):
            period = question_period(q)
            if period:
                date_bonus[qi] = [r.date_prior if period_match(period, d) else 0.0 for d in dates]
        session = zscore(session) + date_bonus
    if r.speaker_prior or r.date_prior or r.session_prior:
        turn = zscore(turn) + speaker_bonus + date_bonus[:, conv.turn_session]
        if r.session_prior:
            turn = turn + r.session_prior * zscore(session)[:, conv.turn_session]
    return turn, session


def evaluate(convs: Sequence[Conversation], r: Recipe) -> dict[str, dict[str, np.ndarray]]:
    """Per-question hits at turn and session level, pooled over conversations."""
    pooled: dict[str, dict[str, list[np.ndarray]]] = {"turn": {}, "session": {}}
    for conv in convs:
        turn, session = run_conversation(conv, r)
        for level, scores, rel in (
            ("turn", turn, [q.evidence for q in conv.questions]),
            ("session", session, [q.sessions for q in conv.questions]),
        ):
            for k, v in metrics(scores, rel).items():
                pooled[level].setdefault(k, []).append(v)
    return {lvl: {k: np.concatenate(v) for k, v in d.items()} for lvl, d in pooled.items()}


def summary(result: dict[str, dict[str, np.ndarray]]) -> dict[str, float]:
    out = {}
    for lvl, d in result.items():
        for k, v in d.items():
            out[f"{lvl} {k}"] = float(v.mean())
    return out


def bm25s_reference(convs: Sequence[Conversation]) -> dict[str, float]:
    """The README's baseline with the bm25s package itself (turn '{speaker}: {text}', 'en')."""
    import bm25s

    hits: dict[str, list[float]] = {"turn any@10": [], "session any@5": []}
    for conv in convs:
        turns = [turn_text(t, caption=False) for t in conv.turns]
        sessions = ["\n".join(turns[i] for i in m) for m in conv.session_turns]
        for docs, rel, k, key in (
            (turns, [q.evidence for q in conv.questions], 10, "turn any@10"),
            (sessions, [q.sessions for q in conv.questions], 5, "session any@5"),
        ):
            retriever = bm25s.BM25()
            retriever.index(
                bm25s.tokenize(docs, stopwords="en", show_progress=False), show_progress=False
            )
            scores = np.stack(
                [
                    retriever.get_scores(
                        bm25s.tokenize(
                            q.text, stopwords="en", show_progress=False, return_ids=False
                        )[0]
                    )
                    for q in conv.questions
                ]
            )
            hits[key] += metrics(scores, rel)[f"any@{k}"].tolist()
    return {k: float(np.mean(v)) for k, v in hits.items()}


def load(data: Path, names: Sequence[str]) -> list[Conversation]:
    return [load_conversation(data / f"{n}.json") for n in names]


def resolve_data(arg: str | None) -> Path:
    return dataset("locomo", arg)


# ---------------------------------------------------------------- the ablation

FULL = Lexical(stop="nltk", stem="snowball", k1=1.2, b=0.75)
WINDOW = (2, 0.5)

BASELINE_BM25 = Recipe(name="BM25 (bm25s defaults)", session_turns=0.0, session_bm25=1.0)
BASELINE_BESTTURN = replace(
    BASELINE_BM25, name="BM25, session = its best turn", session_turns=1.0, session_bm25=0.0
)
BASELINE_RRF = Recipe(
    name="plain RRF: BM25 + MiniLM",
    dense=True,
    session_turns=0.0,
    session_bm25=1.0,
    session_dense=1.0,
    session_vector="whole",
    session_fusion="rrf",
)
# The lexical/dense/fusion core, then the query-side priors. Each row adds one thing.
STEP_STOP = Recipe(name="+ NLTK stop list", lexical=replace(Lexical(), stop="nltk"))
STEP_STEM = replace(
    STEP_STOP, name="+ Snowball stemming", lexical=replace(STEP_STOP.lexical, stem="snowball")
)
STEP_CAPTION = replace(STEP_STEM, name="+ photo captions, k1 1.2", caption=True, lexical=FULL)
STEP_WINDOW = replace(
    STEP_CAPTION, name="+ neighbour window (2, 0.5)", bm25_window=WINDOW, neighbour_speaker=False
)
STEP_DATE = replace(STEP_WINDOW, name="+ session date in the unit", date=True, dense_date=True)
STEP_DENSE = replace(
    STEP_DATE, name="+ MiniLM, z-score fusion (1:1) = CORE", dense=True, fusion="z"
)
STEP_SPEAKER = replace(STEP_DENSE, name="+ speaker prior 1.0", speaker_prior=1.0)
STEP_PERIOD = replace(STEP_SPEAKER, name="+ date prior 1.0", date_prior=1.0)
RECIPE = replace(STEP_PERIOD, name="+ session prior 1.0 = RECIPE", session_prior=1.0)

CHAIN = [
    BASELINE_BESTTURN,
    STEP_STOP,
    STEP_STEM,
    STEP_CAPTION,
    STEP_WINDOW,
    STEP_DATE,
    STEP_DENSE,
    STEP_SPEAKER,
    STEP_PERIOD,
    RECIPE,
]

# Variations of the final recipe that did not earn their place (one knob each).
VARIANTS = [
    replace(RECIPE, name="RECIPE with RRF (k=60) instead of z", fusion="rrf"),
    replace(RECIPE, name="RECIPE with min-max instead of z", fusion="minmax"),
    replace(RECIPE, name="RECIPE, dense weight 0.5", dense_weight=0.5),
    replace(RECIPE, name="RECIPE without MiniLM (lexical only)", dense=False),
    replace(RECIPE, name="RECIPE without window", bm25_window=(0, 0.0)),
    replace(RECIPE, name="RECIPE, window (1, 0.5)", bm25_window=(1, 0.5)),
    replace(RECIPE, name="RECIPE, neighbours keep speaker names", neighbour_speaker=True),
    replace(
        RECIPE,
        name="RECIPE, score smoothing instead of tf window",
        bm25_window=(0, 0.0),
        bm25_smooth=WINDOW,
    ),
    replace(RECIPE, name="RECIPE + dense on turn with context (±2 text)", dense_text="context2"),
    replace(RECIPE, name="RECIPE + dense vector smoothing (2, 0.5)", dense_smooth=WINDOW),
    replace(RECIPE, name="RECIPE + RM3 (5 docs, 10 terms, 0.7)", rm3=(5, 10, 0.7)),
    replace(RECIPE, name="RECIPE + dense Rocchio PRF (5, 0.5)", dense_prf=(5, 0.5)),
    replace(RECIPE, name="RECIPE, session = top-3 sum", session_agg="top3"),
    replace(RECIPE, name="RECIPE + session BM25 (0.5)", session_bm25=0.5),
    replace(RECIPE, name="RECIPE + session centroid cosine (0.5)", session_dense=0.5),
    replace(
        RECIPE,
        name="RECIPE + whole-session MiniLM (0.5)",
        session_dense=0.5,
        session_vector="whole",
    ),
    replace(RECIPE, name="RECIPE, speaker prior also on sessions", speaker_prior_sessions=True),
    replace(RECIPE, name="RECIPE, speaker names dropped from query", drop_names=True),
]

TABLE_KEYS = (
    "turn any@1",
    "turn any@5",
    "turn any@10",
    "turn all@5",
    "turn all@10",
    "turn ndcg@10",
    "session any@1",
    "session any@5",
    "session any@10",
    "session all@5",
    "session all@10",
    "session ndcg@10",
)


def paired(
    base: dict[str, dict[str, np.ndarray]],
    other: dict[str, dict[str, np.ndarray]],
    level: str,
    key: str,
) -> str:
    """Questions the other recipe gets and the base misses / the reverse."""
    a, b = base[level][key], other[level][key]
    return f"+{int((b > a).sum())}/-{int((b < a).sum())}"


def run_table(convs: Sequence[Conversation], recipes: Sequence[Recipe]) -> list[dict[str, Any]]:
    rows = []
    reference = None
    for r in recipes:
        res = evaluate(convs, r)
        if r is RECIPE:
            reference = res
        rows.append({"name": r.name, "result": res, "summary": summary(res)})
    for row in rows:
        if reference is not None:
            row["vs_recipe"] = {
                "turn any@10": paired(reference, row["result"], "turn", "any@10"),
                "session any@5": paired(reference, row["result"], "session", "any@5"),
            }
    return rows


def print_table(title: str, rows: list[dict[str, Any]], n: int) -> None:
    print(f"\n## {title} ({n} questions)\n")
    short = [k.replace("turn ", "T ").replace("session ", "S ") for k in TABLE_KEYS]
    print("| recipe | " + " | ".join(short) + " | vs RECIPE T@10 / S@5 |")
    print("|---" * (len(TABLE_KEYS) + 2) + "|")
    for row in rows:
        s = row["summary"]
        vs = row.get("vs_recipe", {})
        print(
            f"| {row['name']} | "
            + " | ".join(f"{s[k]:.3f}" for k in TABLE_KEYS)
            + f" | {vs.get('turn any@10', '')} {vs.get('session any@5', '')} |"
        )


def sweep(convs: Sequence[Conversation]) -> None:
    """Dev-only sensitivity of every tuned number around its chosen value (the plateaus)."""

    def line(r: Recipe) -> None:
        s = summary(evaluate(convs, r))
        cells = (s["turn any@10"], s["turn ndcg@10"], s["session any@5"])
        print(f"| {r.name} | " + " | ".join(f"{c:.3f}" for c in cells) + " |")

    print("\n## Sensitivity on dev (turn any@10, turn nDCG@10, session any@5)\n")
    print("| variant | T any@10 | T nDCG@10 | S any@5 |\n|---|---|---|---|")
    for k1 in (0.9, 1.2, 1.5, 2.0):
        for b in (0.4, 0.75, 1.0):
            line(replace(RECIPE, name=f"k1={k1} b={b}", lexical=replace(FULL, k1=k1, b=b)))
    for radius in (1, 2, 3):
        for decay in (0.25, 0.5, 0.75, 1.0):
            line(
                replace(
                    RECIPE, name=f"window r={radius} decay={decay}", bm25_window=(radius, decay)
                )
            )
    for w in (0.25, 0.5, 0.75, 1.0, 1.5, 2.0):
        line(replace(RECIPE, name=f"dense weight {w}", dense_weight=w))
    for field_name in ("speaker_prior", "date_prior", "session_prior"):
        for w in (0.0, 0.5, 1.0, 2.0):
            line(replace(RECIPE, name=f"{field_name} {w}", **{field_name: w}))


# ---------------------------------------------------------------- product-shaped implementation


class RecipeIndex:
    """The chosen recipe as the product would run it: cached indexes, per-query numpy only.

    One store = one conversation here. Built once (an episode is a finished run, so a unit's
    window is known when the episode is stored); a query is: tokenise + stem the question, add
    up the postings of its distinct terms, one matrix-vector product, z-scores, two additive
    priors, a per-episode max, a top-k.
    """

    def __init__(self, conv: Conversation, vectors: np.ndarray, r: Recipe = RECIPE) -> None:
        self.r = r
        lex = r.lexical
        self.conv = conv
        own = [
            Counter(tokenize(turn_text(t, speaker=True, caption=True, date=True), lex))
            for t in conv.turns
        ]
        nb = [
            Counter(tokenize(turn_text(t, speaker=False, caption=True, date=False), lex))
            for t in conv.turns
        ]
        docs = windowed_counts(conv, own, *r.bm25_window, nb)
        n = len(docs)
        lengths = np.array([sum(d.values()) for d in docs])
        avg = lengths.mean()
        postings: dict[str, tuple[list[int], list[float]]] = {}
        for i, d in enumerate(docs):
            for term, tf in d.items():
                ids, tfs = postings.setdefault(term, ([], []))
                ids.append(i)
                tfs.append(tf)
        self.postings: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        for term, (ids, tfs) in postings.items():
            ids_a = np.array(ids)
            tf_a = np.array(tfs)
            idf = math.log(1.0 + (n - len(ids) + 0.5) / (len(ids) + 0.5))
            w = (
                idf
                * tf_a
                * (lex.k1 + 1)
                / (tf_a + lex.k1 * (1 - lex.b + lex.b * lengths[ids_a] / avg))
            )
            self.postings[term] = (ids_a, w)
        self.vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        self.n = n
        # Units are stored episode by episode, so each episode is a contiguous slice.
        self.starts = np.array([m[0] for m in conv.session_turns])
        self.unit_episode = conv.turn_session
        self.speaker_masks = {
            name.lower(): np.array([t.speaker == name for t in conv.turns])
            for name in conv.speakers
        }
        self.episode_dates = [parse_session_date(d) for d in conv.session_dates]

    def query(
        self, question: str, qvec: np.ndarray, k_units: int = 10, k_episodes: int = 5
    ) -> tuple[np.ndarray, np.ndarray]:
        r = self.r
        lexical = np.zeros(self.n)
        for term in set(tokenize(question, r.lexical)):
            hit = self.postings.get(term)
            if hit is not None:
                lexical[hit[0]] += hit[1]
        dense = self.vectors @ qvec
        fused = _z(_z(lexical) + r.dense_weight * _z(dense.astype(np.float64)))
        episode = np.maximum.reduceat(fused, self.starts)
        low = question.lower()
        named = [
            m for name, m in self.speaker_masks.items() if re.search(rf"\b{re.escape(name)}\b", low)
        ]
        period = question_period(question)
        date_bonus = np.zeros(len(self.starts))
        if period:
            date_bonus = np.array(
                [r.date_prior if period_match(period, d) else 0.0 for d in self.episode_dates]
            )
        episode = _z(episode) + date_bonus
        unit = (
            fused + date_bonus[self.unit_episode] + r.session_prior * _z(episode)[self.unit_episode]
        )
        if len(named) == 1:
            unit = unit + r.speaker_prior * named[0]
        return _top(unit, k_units), _top(episode, k_episodes)


def _z(x: np.ndarray) -> np.ndarray:
    sd = x.std()
    return (x - x.mean()) / (sd if sd > 0 else 1.0)


def _top(x: np.ndarray, k: int) -> np.ndarray:
    k = min(k, len(x))
    part = np.argpartition(-x, k - 1)[:k]
    return part[np.argsort(-x[part], kind="stable")]


def latency(convs: Sequence[Conversation], repeats: int = 3) -> dict[str, Any]:
    """Per-query wall time of RecipeIndex.query (query embedding timed apart), ms."""
    out: dict[str, Any] = {}
    check_agree = 0
    check_total = 0
    times: list[float] = []
    embed_times: list[float] = []
    builds: list[float] = []
    for conv in convs:
        texts = [turn_text(t, speaker=True, caption=True, date=True) for t in conv.turns]
        vectors = embed(texts)
        started = time.perf_counter()
        index = RecipeIndex(conv, vectors)
        builds.append((time.perf_counter() - started) * 1000 / len(conv.turns))
        qvecs = embed([q.text for q in conv.questions])
        turn_scores, _ = run_conversation(conv, RECIPE)
        for qi, q in enumerate(conv.questions):
            top_units, _ = index.query(q.text, qvecs[qi])
            expected = np.argsort(-turn_scores[qi], kind="stable")[:10]
            check_agree += len(set(top_units.tolist()) & set(expected.tolist()))
            check_total += 10
        for _ in range(repeats):
            for qi, q in enumerate(conv.questions):
                started = time.perf_counter()
                index.query(q.text, qvecs[qi])
                times.append((time.perf_counter() - started) * 1000)
        model = embedder()
        for q in conv.questions[:50]:
            started = time.perf_counter()
            model.embed_query(q.text)
            embed_times.append((time.perf_counter() - started) * 1000)
    out["top10_agreement_with_eval_path"] = check_agree / max(check_total, 1)
    out["query_ms_p50"] = float(np.percentile(times, 50))
    out["query_ms_p95"] = float(np.percentile(times, 95))
    out["embed_query_ms_p50"] = float(np.percentile(embed_times, 50))
    out["embed_query_ms_p95"] = float(np.percentile(embed_times, 95))
    out["build_ms_per_unit"] = float(np.mean(builds))
    out["units_per_store"] = [len(c.turns) for c in convs]
    # Scale: every unit repeated into one big store (each copy of a session is its own episode).
    scaled = {}
    queries = [
        (q.text, v)
        for conv in convs
        for q, v in zip(conv.questions, embed([q.text for q in conv.questions]), strict=True)
    ]
    for copies in (4, 20):
        turns: list[Turn] = []
        sessions: list[list[int]] = []
        dates: list[str] = []
        vecs = []
        for _ in range(copies):
            for conv in convs:
                vecs.append(
                    embed([turn_text(t, speaker=True, caption=True, date=True) for t in conv.turns])
                )
                for members, date in zip(conv.session_turns, conv.session_dates, strict=True):
                    ids = []
                    for i in members:
                        ids.append(len(turns))
                        turns.append(
                            replace(conv.turns[i], index=len(turns), session=len(sessions))
                        )
                    sessions.append(ids)
                    dates.append(date)
        fake = Conversation("scaled", convs[0].speakers, turns, sessions, dates, [])
        index = RecipeIndex(fake, np.concatenate(vecs))
        ts = []
        for text, v in queries[:300]:
            started = time.perf_counter()
            index.query(text, v)
            ts.append((time.perf_counter() - started) * 1000)
        scaled[len(turns)] = {
            "p50": float(np.percentile(ts, 50)),
            "p95": float(np.percentile(ts, 95)),
        }
    out["scaled_store_ms"] = scaled
    return out


# ---------------------------------------------------------------- CLI


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", help="LoCoMo folder (default $AGENT_MEMORY_BENCH_DATA/locomo)")
    parser.add_argument(
        "--heldout", action="store_true", help="also score conversations 41-43 (report once!)"
    )
    parser.add_argument(
        "--sweep", action="store_true", help="dev sensitivity grid around the chosen values"
    )
    parser.add_argument(
        "--latency", action="store_true", help="time the product-shaped implementation"
    )
    parser.add_argument("--json", help="write all figures to this file")
    args = parser.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    data = resolve_data(args.data)
    report: dict[str, Any] = {}
    sets = [("dev", DEV)] + ([("held-out", HELDOUT)] if args.heldout else [])
    for label, names in sets:
        convs = load(data, names)
        n = sum(len(c.questions) for c in convs)
        try:
            ref = bm25s_reference(convs)
            print(
                f"\n[{label}] bm25s package itself: turn any@10 {ref['turn any@10']:.3f},"
                f" session any@5 {ref['session any@5']:.3f}"
            )
        except ImportError:
            ref = {}
        rows = run_table(convs, [BASELINE_BM25, BASELINE_RRF, *CHAIN])
        print_table(f"{label}: ablation, cumulative", rows, n)
        var_rows = run_table(convs, [RECIPE, *VARIANTS])
        print_table(f"{label}: one change to RECIPE", var_rows, n)
        by_cat = {}
        res = rows[-1]["result"]
        cats = np.array([q.category for c in convs for q in c.questions])
        for cat in sorted(set(cats.tolist())):
            m = cats == cat
            by_cat[cat] = {
                "n": int(m.sum()),
                "turn any@10": float(res["turn"]["any@10"][m].mean()),
                "session any@5": float(res["session"]["any@5"][m].mean()),
            }
        print(f"\n[{label}] RECIPE by category: " + json.dumps(by_cat))
        report[label] = {
            "questions": n,
            "bm25s_package": ref,
            "ablation": {r["name"]: r["summary"] for r in rows},
            "variants": {
                r["name"]: {**r["summary"], **{"vs": r.get("vs_recipe")}} for r in var_rows
            },
            "recipe_by_category": by_cat,
        }
    if args.sweep:
        sweep(load(data, DEV))
    if args.latency:
        lat = latency(load(data, DEV + HELDOUT))
        print("\n## Latency\n" + json.dumps(lat, indent=2))
        report["latency"] = lat
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
