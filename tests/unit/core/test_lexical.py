import math
import subprocess
import sys

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from agent_memory.core.lexical import Bm25Index, tokenize

WORDS = ["contract", "clause", "liability", "renewal", "payment", "audit", "notice", "term"]


def test_a_single_match_scores_by_the_okapi_formula() -> None:
    # Given three documents, one of which holds "liability" once
    index = Bm25Index.build(["liability cap", "payment terms", "renewal notice"])
    # When the index is asked about liability
    scores = index.scores("What is the liability?")
    # Then that document scores idf * (k1 + 1) / (1 + k1) (its length equals the average)
    idf = math.log(1 + (3 - 1 + 0.5) / (1 + 0.5))
    assert scores[0] == np.float32(idf)
    assert scores[1] == scores[2] == 0.0


@given(
    documents=st.lists(
        st.lists(st.sampled_from(WORDS), min_size=0, max_size=6).map(" ".join),
        min_size=1,
        max_size=40,
    ),
    cuts=st.lists(st.integers(min_value=0, max_value=40), max_size=10),
    query=st.lists(st.sampled_from([*WORDS, "absent"]), min_size=1, max_size=4).map(" ".join),
)
def test_scores_within_ranges_equal_the_full_scores_there(
    documents: list[str], cuts: list[int], query: str
) -> None:
    # Given an index and sorted disjoint ranges of its documents
    index = Bm25Index.build(documents)
    bounds = sorted({min(c, len(documents)) for c in cuts} | {0, len(documents)})
    starts = np.array(bounds[:-1:2], dtype=np.int64)
    ends = np.array(bounds[1::2][: len(starts)], dtype=np.int64)
    starts = starts[: len(ends)]
    # When the ranges alone are scored
    within = index.scores_in(query, starts, ends)
    # Then every document there scores exactly what the full scoring gives it
    rows = np.concatenate([np.arange(s, e) for s, e in zip(starts, ends, strict=True)] or [[]])
    assert np.array_equal(within, index.scores(query)[rows.astype(np.int64)])


def test_stop_words_are_dropped_and_words_stemmed() -> None:
    assert tokenize("What did the renewals say?") == ["renew", "say"]


@given(
    triplets=st.lists(
        st.tuples(
            st.integers(min_value=0, max_value=9),
            st.sampled_from(WORDS),
            st.sampled_from([1.0, 0.5, 0.25]),
        ),
        max_size=60,
    )
)
def test_triplets_with_repeats_index_as_their_summed_counts(
    triplets: list[tuple[int, str, float]],
) -> None:
    # Given (document, term, count) triplets, a pair possibly repeated, and the same summed up
    counts: list[dict[str, float]] = [{} for _ in range(10)]
    for doc, term, count in triplets:
        counts[doc][term] = counts[doc].get(term, 0.0) + count
    vocabulary = {term: i for i, term in enumerate(WORDS)}
    # When both are indexed
    from_triplets = Bm25Index.from_triplets(
        np.array([d for d, _, _ in triplets], dtype=np.int64),
        np.array([vocabulary[t] for _, t, _ in triplets], dtype=np.int64),
        np.array([c for _, _, c in triplets], dtype=np.float64),
        vocabulary=vocabulary,
        documents=10,
    )
    from_counts = Bm25Index.from_counts(counts)
    # Then every query scores every document identically
    for word in WORDS:
        assert np.array_equal(from_triplets.scores(word), from_counts.scores(word))


_SCORE_IN_A_FRESH_PROCESS = """
import sys
from agent_memory.core.lexical import Bm25Index
words = "contract clause liability renewal payment audit notice term indemnity cap".split()
docs = [" ".join(words[(i * 7 + j * 3) % 10] for j in range(1 + i % 9)) for i in range(300)]
index = Bm25Index.build(docs)
query = "liability cap payment renewal audit notice indemnity term clause contract"
sys.stdout.write(index.scores(query).tobytes().hex())
"""


def test_scores_do_not_depend_on_the_process_hash_seed() -> None:
    # Given the same index and query in processes with different hash seeds
    def scores(seed: str) -> str:
        done = subprocess.run(
            [sys.executable, "-c", _SCORE_IN_A_FRESH_PROCESS],
            env={"PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stdout

    # Then every document's score is the same, bit for bit (ties break the same everywhere)
    first = scores("1")
    assert all(scores(seed) == first for seed in ("2", "3", "4"))


@given(
    documents=st.lists(
        st.lists(st.sampled_from(WORDS), min_size=0, max_size=6).map(" ".join),
        min_size=1,
        max_size=30,
    ),
    sizes=st.lists(st.integers(min_value=1, max_value=5), min_size=1, max_size=30),
    query=st.lists(st.sampled_from([*WORDS, "absent"]), min_size=1, max_size=4).map(" ".join),
)
def test_a_grouped_index_scores_each_group_by_its_best_document_per_term(
    documents: list[str], sizes: list[int], query: str
) -> None:
    # Given documents in consecutive groups
    index = Bm25Index.build(documents)
    group_of = np.repeat(np.arange(len(sizes), dtype=np.int32), sizes)[: len(documents)]
    group_of = np.concatenate(
        [group_of, np.full(len(documents) - len(group_of), len(sizes) - 1, dtype=np.int32)]
    )
    # When the groups are indexed and scored
    grouped = index.grouped(group_of, len(sizes))
    scores = grouped.scores(query)
    # Then each group scores the sum, over the query's terms, of its best document's score
    expected = np.zeros(len(sizes))
    for term in dict.fromkeys(tokenize(query)):
        per_document = index.scores(term)
        best = np.zeros(len(sizes))
        np.maximum.at(best, group_of, per_document)
        expected += best
    assert np.allclose(scores, expected, rtol=1e-6)
