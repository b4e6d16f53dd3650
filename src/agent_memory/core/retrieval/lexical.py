"""BM25 over short texts and their neighbours, in numpy: built once per index, a few vector
operations per query term.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt
import snowballstemmer

_WORD = re.compile(r"(?u)\b\w\w+\b")
# The NLTK English stop list (179 words): the standard full list. A short list keeps "what",
# "did", "when" in every query, and measurably hurts ranking (benchmarks/research).
STOP_WORDS = frozenset(
    """
    a about above after again against ain all am an and any are aren aren't as at be because
    been before being below between both but by can couldn couldn't d did didn didn't do does
    doesn doesn't doing don don't down during each few for from further had hadn hadn't has
    hasn hasn't have haven haven't having he her here hers herself him himself his how i if in
    into is isn isn't it it's its itself just ll m ma me mightn mightn't more most mustn
    mustn't my myself needn needn't no nor not now o of off on once only or other our ours
    ourselves out over own re s same shan shan't she she's should should've shouldn shouldn't
    so some such t than that that'll the their theirs them themselves then there these they
    this those through to too under until up ve very was wasn wasn't we were weren weren't what
    when where which while who whom why will with won won't wouldn wouldn't y you you'd you'll
    you're you've your yours yourself yourselves
    """.split()
)
_STEMMER = snowballstemmer.stemmer("english")


@lru_cache(maxsize=200_000)
def _stem(word: str) -> str:
    return str(_STEMMER.stemWord(word))


def tokenize(text: str) -> list[str]:
    """Lower-cased words of two or more characters, stop words dropped, Snowball-stemmed."""
    return [_stem(w) for w in _WORD.findall(text.lower()) if w not in STOP_WORDS]


def term_spans(text: str) -> list[tuple[int, str]]:
    """Each term of ``text`` (as :func:`tokenize` makes them) with the offset it starts at."""
    words = ((m.start(), m.group().lower()) for m in _WORD.finditer(text))
    return [(at, _stem(word)) for at, word in words if word not in STOP_WORDS]


def term_counts(text: str) -> Counter[str]:
    """How often each term occurs in ``text``."""
    return Counter(tokenize(text))


@dataclass(frozen=True, slots=True)
class Bm25Index:
    """Okapi BM25 over fixed documents, each a bag of (possibly fractional) term counts."""

    vocabulary: dict[str, int]
    postings_start: npt.NDArray[np.int64]
    postings_doc: npt.NDArray[np.int32]
    postings_weight: npt.NDArray[np.float32]
    documents: int

    @classmethod
    def build(cls, texts: Sequence[str], *, k1: float = 1.2, b: float = 0.75) -> Bm25Index:
        """Index plain texts."""
        return cls.from_counts([term_counts(t) for t in texts], k1=k1, b=b)

    @classmethod
    def from_counts(
        cls, counts: Sequence[Mapping[str, float]], *, k1: float = 1.2, b: float = 0.75
    ) -> Bm25Index:
        """Index documents given as term counts; each posting holds its final BM25 weight."""
        vocabulary: dict[str, int] = {}
        docs, terms, weights = [], [], []
        for doc, counter in enumerate(counts):
            for term, count in counter.items():
                docs.append(doc)
                terms.append(vocabulary.setdefault(term, len(vocabulary)))
                weights.append(count)
        return cls.from_triplets(
            np.array(docs, dtype=np.int64),
            np.array(terms, dtype=np.int64),
            np.array(weights, dtype=np.float64),
            vocabulary=vocabulary,
            documents=len(counts),
            k1=k1,
            b=b,
        )

    @classmethod
    def from_triplets(
        cls,
        docs: npt.NDArray[np.int64],
        terms: npt.NDArray[np.int64],
        counts: npt.NDArray[np.float64],
        *,
        vocabulary: dict[str, int],
        documents: int,
        k1: float = 1.2,
        b: float = 0.75,
    ) -> Bm25Index:
        """Index documents given as (document, term id, count) triplets, in any order, a pair
        possibly repeated (its counts add up). ``vocabulary`` maps each term to its id.

        Vectorised: the cost is a sort of the triplets, not a Python loop per posting.
        """
        n_terms = len(vocabulary)
        # Counts are small sums of powers of two: exact in float64 in any order of addition.
        lengths = np.bincount(docs, weights=counts, minlength=documents).astype(np.float32)
        order = _term_doc_order(terms, docs, n_terms)
        terms, docs = terms[order], docs[order]
        first = np.flatnonzero(np.diff(terms, prepend=-1) | np.diff(docs, prepend=-1))
        frequency = (
            np.add.reduceat(counts[order], first).astype(np.float32)
            if len(first)
            else np.zeros(0, dtype=np.float32)
        )
        return cls._weighted(
            np.bincount(terms[first], minlength=n_terms),
            docs[first].astype(np.int32),
            frequency,
            lengths,
            vocabulary=vocabulary,
            documents=documents,
            k1=k1,
            b=b,
        )

    @classmethod
    def from_postings(
        cls,
        docs: npt.NDArray[np.int32],
        terms: npt.NDArray[np.int32],
        counts: npt.NDArray[np.float32],
        lengths: npt.NDArray[np.float32],
        *,
        vocabulary: dict[str, int],
        documents: int,
        k1: float = 1.2,
        b: float = 0.75,
    ) -> Bm25Index:
        """Index postings already summed: distinct (document, term id, count) triplets in
        document order, and each document's length (the sum of its counts).

        The same index as :meth:`from_triplets` of those triplets, for one stable sort by term
        (a radix sort below 2**16 terms): no pair is summed, no document sorted.
        """
        order = _stable_term_order(terms, len(vocabulary))
        return cls._weighted(
            np.bincount(terms, minlength=len(vocabulary)),
            docs[order],
            counts[order],
            lengths,
            vocabulary=vocabulary,
            documents=documents,
            k1=k1,
            b=b,
        )

    @classmethod
    def _weighted(
        cls,
        df: npt.NDArray[np.int64],
        posting_doc: npt.NDArray[np.int32],
        frequency: npt.NDArray[np.float32],
        lengths: npt.NDArray[np.float32],
        *,
        vocabulary: dict[str, int],
        documents: int,
        k1: float,
        b: float,
    ) -> Bm25Index:
        """The index of postings sorted by (term, document), ``df[t]`` of them term ``t``'s:
        each one's BM25 weight.
        """
        n_terms = len(vocabulary)
        average = float(lengths.mean()) if documents and lengths.mean() > 0 else 1.0
        starts = np.zeros(n_terms + 1, dtype=np.int64)
        np.cumsum(df, out=starts[1:])
        idf = _idf(df, documents)
        # Per document (or term), then spread over the postings: the same values as computed
        # per posting, for far fewer operations.
        norm = (k1 * (1.0 - b + b * lengths / average))[posting_doc]
        weight = np.repeat(idf, df) * frequency * (k1 + 1.0) / (frequency + norm)
        return cls(
            vocabulary=vocabulary,
            postings_start=starts,
            postings_doc=posting_doc,
            postings_weight=weight.astype(np.float32),
            documents=documents,
        )

    def terms(self, query: str) -> list[int]:
        """Ids of ``query``'s distinct indexed terms, in order of first use."""
        return self.query_terms(query)[0]

    def query_terms(self, query: str) -> tuple[list[int], int]:
        """:meth:`terms` of ``query``, and how many of its distinct terms are not indexed."""
        distinct = _distinct(tokenize(query))
        ids = [i for t in distinct if (i := self.vocabulary.get(t)) is not None]
        return ids, len(distinct) - len(ids)

    def scores(self, query: str) -> npt.NDArray[np.float32]:
        """BM25 score of every document for ``query``'s distinct terms (0 where none match)."""
        return self.scores_of(self.terms(query))

    def word_shares(self, terms: Sequence[int], unknown: int = 0) -> npt.NDArray[np.float32]:
        """Per document, the share of a query's word weight it holds: the IDF of the term ids
        ``terms`` (distinct) it contains, over the IDF of all of them and of ``unknown``
        more terms that no document holds (0 everywhere for a query without terms).
        """
        ids = np.asarray(terms, dtype=np.int64)
        starts, df = self.postings_start[ids], np.diff(self.postings_start)[ids]
        idf = _idf(df, self.documents)
        total = float(idf.sum()) + unknown * float(_idf(np.zeros(1, np.int64), self.documents)[0])
        if total <= 0:
            return np.zeros(self.documents, dtype=np.float32)
        docs = [self.postings_doc[a : a + n] for a, n in zip(starts, df, strict=True)]
        held = np.bincount(
            np.concatenate(docs) if docs else np.zeros(0, dtype=np.int32),
            weights=np.repeat(idf, df),
            minlength=self.documents,
        )
        return (held / total).astype(np.float32)

    def scores_of(self, terms: Sequence[int]) -> npt.NDArray[np.float32]:
        """BM25 score of every document for the term ids ``terms`` (see :meth:`terms`)."""
        slices = [
            slice(int(self.postings_start[i]), int(self.postings_start[i + 1])) for i in terms
        ]
        if not slices:
            return np.zeros(self.documents, dtype=np.float32)
        docs = np.concatenate([self.postings_doc[s] for s in slices])
        weights = np.concatenate([self.postings_weight[s] for s in slices])
        return np.bincount(docs, weights=weights, minlength=self.documents).astype(np.float32)


@dataclass(frozen=True, slots=True)
class GroupedBm25:
    """BM25 over documents that come in consecutive runs, such as an episode's units.

    Beside the documents' index, a second one has each group once per term, weighted by the
    group's best document (``groups``), and where that group's document postings begin
    (``first``): so a query scores whole groups in one lookup, and then the documents of a few
    chosen groups with one binary search in the group postings, none in the long document
    postings.
    """

    documents: Bm25Index
    groups: Bm25Index
    # Group posting j's document postings are documents.postings_*[first[j] : first[j + 1]].
    first: npt.NDArray[np.int64]
    # Group posting j as one sortable key: term id * group count + group.
    keys: npt.NDArray[np.int64]

    @classmethod
    def of(cls, documents: Bm25Index, group_of: npt.NDArray[np.int32], count: int) -> GroupedBm25:
        """Group ``documents``: document ``d`` is in group ``group_of[d]`` (non-decreasing)."""
        per_term = np.diff(documents.postings_start)
        term = np.repeat(np.arange(len(per_term), dtype=np.int64), per_term)
        group = group_of[documents.postings_doc]
        key = term * max(count, 1) + group
        # Where a (term, group) run begins: the keys are sorted (terms, then documents, whose
        # groups do not decrease).
        begins = np.ones(len(key), dtype=np.bool_)
        np.not_equal(key[1:], key[:-1], out=begins[1:])
        first = np.flatnonzero(begins)
        starts = np.zeros(len(per_term) + 1, dtype=np.int64)
        np.cumsum(np.bincount(term[first], minlength=len(per_term)), out=starts[1:])
        best = (
            np.maximum.reduceat(documents.postings_weight, first)
            if len(first)
            else np.zeros(0, dtype=np.float32)
        )
        groups = Bm25Index(
            vocabulary=documents.vocabulary,
            postings_start=starts,
            postings_doc=group[first].astype(np.int32),
            postings_weight=best,
            documents=count,
        )
        first_of = np.append(first, len(key)).astype(np.int64)
        return cls(documents, groups, first_of, key[first].astype(np.int64))

    def group_scores(self, terms: Sequence[int]) -> npt.NDArray[np.float32]:
        """Each group's score: over the term ids ``terms`` (``documents.terms(query)``), the
        sum of its best document's.
        """
        return self.groups.scores_of(terms)

    def scores_in(
        self,
        terms: Sequence[int],
        chosen: npt.NDArray[np.int64],
        starts: npt.NDArray[np.int64],
        ends: npt.NDArray[np.int64],
    ) -> npt.NDArray[np.float32]:
        """BM25 scores of the documents of the ``chosen`` groups (sorted, distinct), which
        are documents ``[starts[k], ends[k])`` of group ``chosen[k]``, concatenated.

        Equal there to ``documents.scores_of(terms)``. One binary search of every (term, chosen
        group) pair in the short group postings finds where those groups' documents' postings
        lie; then every match is summed at once.
        """
        lengths = ends - starts
        size = int(lengths.sum())
        if not terms or not len(chosen) or not len(self.keys):
            return np.zeros(size, dtype=np.float32)
        wanted = (np.array(terms, dtype=np.int64)[:, None] * self.groups.documents + chosen).ravel()
        at = np.minimum(np.searchsorted(self.keys, wanted), len(self.keys) - 1)
        held = np.flatnonzero(self.keys[at] == wanted)
        runs = at[held]
        first, found = self.first[runs], self.first[runs + 1] - self.first[runs]
        picked = np.arange(int(found.sum())) + np.repeat(first - np.cumsum(found) + found, found)
        shift = np.cumsum(lengths) - lengths - starts  # document id -> position in the result
        documents = self.documents
        positions = documents.postings_doc[picked] + np.repeat(shift[held % len(chosen)], found)
        # Summed in float64, which is exact for these few float32 weights: the score of a
        # document does not depend on the order its terms are added in.
        summed = np.bincount(positions, weights=documents.postings_weight[picked], minlength=size)
        return summed.astype(np.float32)


def _term_doc_order(
    terms: npt.NDArray[np.int64], docs: npt.NDArray[np.int64], n_terms: int
) -> npt.NDArray[np.int64]:
    """The stable order that sorts (term, document) pairs.

    Two stable sorts, by document and then by term, instead of one over combined keys: with
    fewer than 2**16 terms the second is a radix sort, and the first meets a few presorted
    runs (the triplets come a window offset at a time), about 5x faster than ``np.unique``.
    """
    by_doc = np.argsort(docs, kind="stable")
    return by_doc[_stable_term_order(terms[by_doc], n_terms)]


def _stable_term_order(terms: npt.NDArray[np.integer[Any]], n_terms: int) -> npt.NDArray[np.int64]:
    """The stable order that sorts ``terms``: a radix sort below 2**16 term ids."""
    keys = terms.astype(np.uint16) if n_terms <= np.iinfo(np.uint16).max else terms
    return np.argsort(keys, kind="stable")


def _idf(df: npt.NDArray[np.int64], documents: int) -> npt.NDArray[np.float64]:
    """BM25's (Lucene's) inverse document frequency of terms held by ``df`` of ``documents``."""
    return np.log(1.0 + (documents - df + 0.5) / (df + 0.5))


def _distinct(terms: list[str]) -> list[str]:
    """Each term once, in order of first use (a set's order changes with the hash seed)."""
    return list(dict.fromkeys(terms))
