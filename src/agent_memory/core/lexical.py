"""BM25 over short texts, in numpy: built once per index, one sparse product per query."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

_TOKEN = re.compile(r"[a-z0-9]+")
# A small English stop list: words that match everywhere and rank nothing.
STOP_WORDS = frozenset(
    (
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "am",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "down",
        "during",
        "each",
        "few",
        "for",
        "from",
        "further",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "me",
        "more",
        "most",
        "my",
        "myself",
        "no",
        "nor",
        "not",
        "now",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
    )
)


def tokenize(text: str) -> list[str]:
    """Lower-cased alphanumeric tokens without stop words, lightly stemmed."""
    return [_stem(t) for t in _TOKEN.findall(text.lower()) if t not in STOP_WORDS]


def _stem(token: str) -> str:
    # Plural and verb endings only: enough to match "papers"/"paper", "painted"/"painting".
    if len(token) > 4:
        for suffix in ("ing", "ed", "es", "s"):
            if token.endswith(suffix) and len(token) - len(suffix) >= 3:
                return token[: -len(suffix)]
    return token


@dataclass(frozen=True, slots=True)
class Bm25Index:
    """Okapi BM25 postings of a fixed set of documents."""

    vocabulary: dict[str, int]
    postings_start: npt.NDArray[np.int64]
    postings_doc: npt.NDArray[np.int32]
    postings_weight: npt.NDArray[np.float32]
    documents: int

    @classmethod
    def build(cls, texts: Sequence[str], *, k1: float = 1.2, b: float = 0.75) -> Bm25Index:
        """Index ``texts``; each posting holds its precomputed BM25 term weight."""
        counts = [Counter(tokenize(t)) for t in texts]
        lengths = np.array([sum(c.values()) for c in counts], dtype=np.float32)
        average = float(lengths.mean()) if len(lengths) and lengths.mean() > 0 else 1.0
        by_term: dict[str, list[tuple[int, int]]] = {}
        for doc, counter in enumerate(counts):
            for term, tf in counter.items():
                by_term.setdefault(term, []).append((doc, tf))
        vocabulary = {term: i for i, term in enumerate(by_term)}
        starts = np.zeros(len(vocabulary) + 1, dtype=np.int64)
        docs, weights = [], []
        n = max(len(texts), 1)
        for term, i in vocabulary.items():
            entries = by_term[term]
            idf = np.log(1.0 + (n - len(entries) + 0.5) / (len(entries) + 0.5))
            ids = np.array([d for d, _ in entries], dtype=np.int32)
            frequency = np.array([f for _, f in entries], dtype=np.float32)
            norm = k1 * (1.0 - b + b * lengths[ids] / average)
            docs.append(ids)
            weight = idf * frequency * (k1 + 1.0) / (frequency + norm)
            weights.append(weight.astype(np.float32))
            starts[i + 1] = starts[i] + len(entries)
        return cls(
            vocabulary=vocabulary,
            postings_start=starts,
            postings_doc=np.concatenate(docs) if docs else np.zeros(0, np.int32),
            postings_weight=np.concatenate(weights) if weights else np.zeros(0, np.float32),
            documents=len(texts),
        )

    def scores(self, query: str) -> npt.NDArray[np.float32]:
        """BM25 score of every document for ``query`` (0 where nothing matches)."""
        result = np.zeros(self.documents, dtype=np.float32)
        for term in set(tokenize(query)):
            i = self.vocabulary.get(term)
            if i is None:
                continue
            start, end = self.postings_start[i], self.postings_start[i + 1]
            # A term lists each document once, so plain fancy-index addition is exact.
            result[self.postings_doc[start:end]] += self.postings_weight[start:end]
        return result
