"""The reranker's ordering of what the index found (a fake reranker at the model boundary)."""

from collections.abc import Sequence

import pytest

from agent_memory.core.model.models import Episode, EpisodeHit, EpisodeUnit, SearchResult, UnitHit
from agent_memory.core.retrieval.reranking import rerank
from tests.support.fakes import WordReranker


def episode(run_id: str, summary: str = "Reviewed a contract") -> Episode:
    return Episode(
        tenant_id="t",
        agent_id="a",
        run_id=run_id,
        task="Review a contract",
        task_summary=summary,
        outcome="COMPLETED",
        created_at=0.0,
        expires_at=1e12,
    )


def unit_hit(run_id: str, seq: int, text: str, score: float = 1.0) -> UnitHit:
    return UnitHit(run_id, EpisodeUnit("message", seq, text, "Ana"), score, 0.5)


def hit(run_id: str, *texts: str, summary: str = "Reviewed a contract") -> EpisodeHit:
    units = tuple(unit_hit(run_id, seq, text) for seq, text in enumerate(texts))
    return EpisodeHit(episode(run_id, summary), 9.0, 0.4, units)


def result(*hits: EpisodeHit) -> SearchResult:
    return SearchResult(hits, tuple(u for h in hits for u in h.units))


def test_the_episode_with_the_best_passage_is_served_first_and_ties_keep_the_index_order():
    # Given the index's order a, b, c, d, where only d's unit answers (says "cap")
    found = result(hit("a", "hello"), hit("b", "hi"), hit("c", "hey"), hit("d", "the cap is low"))

    # When the reranker orders them and three are served
    ranked = rerank(found, "liability cap?", WordReranker("cap"), top_episodes=3)

    # Then d comes first, a and b keep their order, and the scores are the reranker's
    assert [h.episode.run_id for h in ranked.episodes] == ["d", "a", "b"]
    assert [h.score for h in ranked.episodes] == [1.0, 0.0, 0.0]
    assert all(h.similarity == 0.4 for h in ranked.episodes)
    assert ranked.ranked_by == "fake-reranker"


def test_an_episode_scores_by_its_summary_too():
    # Given b's units say nothing, but its summary answers
    found = result(hit("a", "hello"), hit("b", "hi", summary="Found the cap in clause 7.3"))

    # When reranked
    ranked = rerank(found, "cap?", WordReranker("cap"), top_episodes=2)

    # Then b is first, on its summary's score
    assert [(h.episode.run_id, h.score) for h in ranked.episodes] == [("b", 1.0), ("a", 0.0)]


def test_units_are_ordered_by_their_own_scores_within_episodes_and_across_them():
    # Given a's units in the index's order, the last one answering twice, the middle once
    found = result(hit("a", "no", "cap", "cap and cap"), hit("b", "cap cap cap"))

    # When reranked
    ranked = rerank(found, "cap?", WordReranker("cap"), top_episodes=2)

    # Then a's units, and all units, run from the best answer down
    a = next(h for h in ranked.episodes if h.episode.run_id == "a")
    assert [u.unit.text for u in a.units] == ["cap and cap", "cap", "no"]
    assert [u.score for u in ranked.units] == [3.0, 2.0, 1.0, 0.0]


def test_every_passage_is_scored_once_in_one_call_with_the_query():
    # Given units that appear both under their episode and among the result's units
    found = result(hit("a", "one", "two"), hit("b", "three"))
    reranker = WordReranker("two")

    # When reranked
    rerank(found, "which two?", reranker, top_episodes=1)

    # Then one call scored each summary and each unit exactly once, speaker included
    [(query, passages)] = reranker.calls
    assert query == "which two?"
    assert sorted(passages) == sorted(
        ["Reviewed a contract", "Reviewed a contract", "Ana: one", "Ana: two", "Ana: three"]
    )


def test_an_unavailable_reranker_leaves_the_index_order_cut_to_size():
    # Given a reranker that is throttled
    found = result(hit("a", "x"), hit("b", "cap"), hit("c", "y"))
    reranker = WordReranker("cap")
    reranker.unavailable = True

    # When reranked
    ranked = rerank(found, "cap?", reranker, top_episodes=2)

    # Then the index's first two are served, marked as the index's order
    assert [h.episode.run_id for h in ranked.episodes] == ["a", "b"]
    assert ranked.ranked_by is None and ranked.units == found.units


def test_without_a_reranker_or_anything_found_the_result_is_returned_as_it_is():
    # Given no reranker, and an empty result
    found = result(hit("a", "x"))
    reranker = WordReranker("x")

    # When reranked, Then nothing changes and no model is called
    assert rerank(found, "q", None, top_episodes=1) is found
    assert rerank(SearchResult((), ()), "q", reranker, top_episodes=3) == SearchResult((), ())
    assert reranker.calls == []


def test_a_reranker_that_answers_for_other_passages_is_an_error_naming_it():
    # Given a reranker that returns one score too few
    class Short(WordReranker):
        def scores(self, query: str, passages: Sequence[str]) -> list[float]:
            return super().scores(query, passages)[:-1]

    # When reranked, Then it fails loudly rather than pairing scores with the wrong passages
    with pytest.raises(ValueError, match="fake-reranker returned 2 scores for 3 passages"):
        rerank(result(hit("a", "x", "y")), "q", Short("x"), top_episodes=1)
