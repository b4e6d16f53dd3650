import math
import subprocess
import sys

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from agent_memory.core.retrieval.lexical import Bm25Index, GroupedBm25, tokenize

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


def test_a_documents_word_share_is_the_idf_it_holds_over_the_querys() -> None:
    # Given three documents, "liability" in one of them, "cap" in two
    index = Bm25Index.build(["liability cap", "cap table", "renewal notice"])
    terms = index.terms("liability cap")
    # When one more query term is in no document
    shares = index.word_shares(terms, unknown=1)

    # Then each document's share is the IDF of the terms it holds over all three terms' IDF
    def idf(df: int) -> float:
        return math.log(1 + (3 - df + 0.5) / (df + 0.5))

    total = idf(1) + idf(2) + idf(0)
    assert np.allclose(shares, [(idf(1) + idf(2)) / total, idf(2) / total, 0.0])
    # And a query without terms is held by no document
    assert not index.word_shares([], unknown=0).any()


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


@given(
    triplets=st.lists(
        st.tuples(
            st.integers(min_value=0, max_value=9),
            st.integers(min_value=0, max_value=len(WORDS) - 1),
            st.sampled_from([1.0, 0.5, 0.25]),
        ),
        max_size=60,
    )
)
def test_postings_are_the_same_past_two_to_the_sixteen_terms(
    triplets: list[tuple[int, int, float]],
) -> None:
    # Given triplets in any order, indexed with the small vocabulary they use and with one
    # padded past 2**16 terms (the term-id sort takes another path there)
    docs = np.array([d for d, _, _ in triplets], dtype=np.int64)
    terms = np.array([t for _, t, _ in triplets], dtype=np.int64)
    counts = np.array([c for _, _, c in triplets], dtype=np.float64)
    small = {term: i for i, term in enumerate(WORDS)}
    large = small | {f"pad{i}": len(WORDS) + i for i in range(2**16)}
    # When both are indexed
    a = Bm25Index.from_triplets(docs, terms, counts, vocabulary=small, documents=10)
    b = Bm25Index.from_triplets(docs, terms, counts, vocabulary=large, documents=10)
    # Then they hold the same postings, each term's documents distinct and ascending
    assert np.array_equal(a.postings_start, b.postings_start[: len(WORDS) + 1])
    assert np.array_equal(a.postings_doc, b.postings_doc)
    assert np.array_equal(a.postings_weight, b.postings_weight)
    for t in range(len(WORDS)):
        run = a.postings_doc[a.postings_start[t] : a.postings_start[t + 1]]
        assert np.all(np.diff(run) > 0)
    assert len(a.postings_doc) == len({(d, t) for d, t, _ in triplets})


_SCORE_IN_A_FRESH_PROCESS = """
import sys
from agent_memory.core.retrieval.lexical import Bm25Index
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


def grouped(documents: list[str], sizes: list[int]) -> tuple[GroupedBm25, np.ndarray]:
    """``documents`` indexed in consecutive groups of ``sizes`` (the last takes any rest)."""
    group_of = np.minimum(
        np.repeat(np.arange(len(sizes) + 1, dtype=np.int32), [*sizes, len(documents)]),
        len(sizes) - 1,
    )[: len(documents)].astype(np.int32)
    return GroupedBm25.of(Bm25Index.build(documents), group_of, len(sizes)), group_of


DOCUMENTS = st.lists(
    st.lists(st.sampled_from(WORDS), min_size=0, max_size=6).map(" ".join),
    min_size=1,
    max_size=30,
)
SIZES = st.lists(st.integers(min_value=1, max_value=5), min_size=1, max_size=30)
QUERY = st.lists(st.sampled_from([*WORDS, "absent"]), min_size=1, max_size=4).map(" ".join)


@given(documents=DOCUMENTS, sizes=SIZES, query=QUERY)
def test_a_group_scores_the_sum_over_terms_of_its_best_document(
    documents: list[str], sizes: list[int], query: str
) -> None:
    # Given documents in consecutive groups
    index, group_of = grouped(documents, sizes)
    # When the groups are scored
    scores = index.group_scores(index.documents.terms(query))
    # Then each group scores the sum, over the query's terms, of its best document's score
    expected = np.zeros(len(sizes))
    for term in dict.fromkeys(tokenize(query)):
        best = np.zeros(len(sizes))
        np.maximum.at(best, group_of, index.documents.scores(term))
        expected += best
    assert np.allclose(scores, expected, rtol=1e-6)


@given(documents=DOCUMENTS, sizes=SIZES, query=QUERY, picks=st.sets(st.integers(0, 29)))
def test_the_documents_of_chosen_groups_score_as_in_the_full_scoring(
    documents: list[str], sizes: list[int], query: str, picks: set[int]
) -> None:
    # Given documents in groups, and some of the groups that hold documents chosen
    index, group_of = grouped(documents, sizes)
    chosen = np.array(sorted(p for p in picks if p in set(group_of.tolist())), dtype=np.int64)
    starts = np.array([np.flatnonzero(group_of == g)[0] for g in chosen], dtype=np.int64)
    ends = np.array([np.flatnonzero(group_of == g)[-1] + 1 for g in chosen], dtype=np.int64)
    # When only their documents are scored
    within = index.scores_in(index.documents.terms(query), chosen, starts, ends)
    # Then every one of them scores exactly what the full scoring gives it
    rows = np.concatenate([np.arange(s, e) for s, e in zip(starts, ends, strict=True)] or [[]])
    assert np.array_equal(within, index.documents.scores(query)[rows.astype(np.int64)])
