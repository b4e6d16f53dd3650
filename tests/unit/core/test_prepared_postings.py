"""An index's BM25 built from each episode's prepared postings is the one the recipe defines:
every row's own terms once, and each message its neighbours' text terms at half weight per step.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_memory.core.model.models import Episode, EpisodeUnit
from agent_memory.core.retrieval.episode_index import EpisodeIndex
from agent_memory.core.retrieval.index_rows import NEIGHBOURS, Vocabulary
from agent_memory.core.retrieval.lexical import Bm25Index
from agent_memory.core.retrieval.periods import calendar_day

WINDOW, NEIGHBOUR_WEIGHT = NEIGHBOURS

WORDS = ["contract", "clause", "liability", "renewal", "payment", "audit", "notice", "term"]
SPEAKERS = [None, "Jane", "Carlos"]


def episode(run: int, texts: list[tuple[str, str | None]], findings: list[str]) -> Episode:
    units = [
        EpisodeUnit("message", seq, text, speaker) for seq, (text, speaker) in enumerate(texts)
    ]
    units += [EpisodeUnit("finding", seq, text) for seq, text in enumerate(findings)]
    return Episode(
        tenant_id="acme",
        agent_id=f"agent-{run % 2}",
        run_id=f"run-{run}",
        task="Review the contract",
        task_summary=f"Reviewed {WORDS[run % len(WORDS)]} terms",
        outcome="COMPLETED",
        created_at=1_700_000_000.0 + 86_400.0 * run,
        expires_at=1_900_000_000.0,
        units=tuple(units),
    )


def postings_by_term(index: Bm25Index) -> dict[str, tuple[list[int], list[float]]]:
    """Each used term's documents and weights (term ids depend on the order terms were met)."""
    found = {}
    for term, i in index.vocabulary.items():
        run = slice(int(index.postings_start[i]), int(index.postings_start[i + 1]))
        if run.stop > run.start:
            found[term] = (index.postings_doc[run].tolist(), index.postings_weight[run].tolist())
    return found


def recipe_index(episodes: list[Episode], vocabulary: dict[str, int]) -> Bm25Index:
    """BM25 over the rows, counted as the recipe says, one (row, term, count) at a time."""
    terms = Vocabulary(vocabulary)
    docs: list[int] = []
    ids: list[int] = []
    counts: list[float] = []
    row = 0
    for ep in episodes:
        day = terms.of(f"({calendar_day(ep.created_at)})")
        messages = sorted((u for u in ep.units if u.kind == "message"), key=lambda u: u.seq)
        others = [u for u in ep.units if u.kind != "message"]
        for position, unit in enumerate([*messages, *others]):
            for term in day + terms.of(unit.speaker or "") + terms.of(unit.text):
                docs.append(row + position)
                ids.append(term)
                counts.append(1.0)
            if unit.kind == "message":
                for step in range(1, WINDOW + 1):
                    for neighbour in (position - step, position + step):
                        if 0 <= neighbour < len(messages):
                            for term in terms.of(unit.text):
                                docs.append(row + neighbour)
                                ids.append(term)
                                counts.append(NEIGHBOUR_WEIGHT**step)
        summary_row = row + len(messages) + len(others)
        for term in day + terms.of(ep.task_summary or ep.task):
            docs.append(summary_row)
            ids.append(term)
            counts.append(1.0)
        row = summary_row + 1
    return Bm25Index.from_triplets(
        np.array(docs, dtype=np.int64),
        np.array(ids, dtype=np.int64),
        np.array(counts, dtype=np.float64),
        vocabulary=terms.ids,
        documents=row,
    )


texts = st.lists(
    st.tuples(
        st.lists(st.sampled_from(WORDS), min_size=0, max_size=6).map(" ".join),
        st.sampled_from(SPEAKERS),
    ),
    max_size=8,
)
runs = st.lists(
    st.tuples(texts, st.lists(st.sampled_from(WORDS), max_size=2)), min_size=1, max_size=5
)


@settings(max_examples=60, deadline=None)
@given(runs=runs)
def test_an_index_from_prepared_postings_is_the_recipes_bm25(
    runs: list[tuple[list[tuple[str, str | None]], list[str]]],
) -> None:
    # Given episodes of messages (some empty, some repeating words) and findings
    episodes = [episode(i, messages, findings) for i, (messages, findings) in enumerate(runs)]
    # When they are indexed, and BM25 is built from the recipe's triplets one by one
    index = EpisodeIndex(episodes, "model", 4)
    expected = recipe_index(episodes, {})
    # Then both hold the same postings, weight for weight
    assert postings_by_term(index.lexical) == postings_by_term(expected)


@settings(max_examples=30, deadline=None)
@given(before=runs, added=runs)
def test_an_index_rebuilt_on_the_last_ones_postings_is_the_recipes_bm25(
    before: list[tuple[list[tuple[str, str | None]], list[str]]],
    added: list[tuple[list[tuple[str, str | None]], list[str]]],
) -> None:
    # Given an index, then new runs laid out first and the oldest run dropped
    old = [episode(i, messages, findings) for i, (messages, findings) in enumerate(before)]
    new = [episode(100 + i, m, f) for i, (m, f) in enumerate(added)]
    first = EpisodeIndex(old, "model", 4)
    episodes = new + old[:-1]
    # When the next index is built on the first one's prepared rows
    rebuilt = EpisodeIndex(episodes, "model", 4, reuse=first)
    # Then its BM25 is the recipe's over those episodes, the first index's terms kept
    assert rebuilt.vocabulary.ids.items() >= first.vocabulary.ids.items()
    assert postings_by_term(rebuilt.lexical) == postings_by_term(recipe_index(episodes, {}))


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
def test_summed_postings_index_as_their_triplets(triplets: list[tuple[int, int, float]]) -> None:
    # Given triplets, a pair possibly repeated, and the same summed into distinct pairs in
    # document order with each document's length
    summed: dict[tuple[int, int], float] = {}
    for doc, term, count in triplets:
        summed[doc, term] = summed.get((doc, term), 0.0) + count
    pairs = sorted(summed)
    lengths = np.zeros(10, dtype=np.float32)
    for (doc, _), count in summed.items():
        lengths[doc] += count
    vocabulary = {term: i for i, term in enumerate(WORDS)}
    # When both are indexed
    from_triplets = Bm25Index.from_triplets(
        np.array([d for d, _, _ in triplets], dtype=np.int64),
        np.array([t for _, t, _ in triplets], dtype=np.int64),
        np.array([c for _, _, c in triplets], dtype=np.float64),
        vocabulary=vocabulary,
        documents=10,
    )
    from_postings = Bm25Index.from_postings(
        np.array([d for d, _ in pairs], dtype=np.int32),
        np.array([t for _, t in pairs], dtype=np.int32),
        np.array([summed[p] for p in pairs], dtype=np.float32),
        lengths,
        vocabulary=vocabulary,
        documents=10,
    )
    # Then they hold the same postings
    assert np.array_equal(from_postings.postings_start, from_triplets.postings_start)
    assert np.array_equal(from_postings.postings_doc, from_triplets.postings_doc)
    assert np.array_equal(from_postings.postings_weight, from_triplets.postings_weight)
