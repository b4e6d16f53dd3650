import numpy as np
import pytest

from agent_memory.core.model.models import Episode, EpisodeUnit
from agent_memory.core.model.policies import RankingPolicy
from agent_memory.core.retrieval import vectors
from agent_memory.core.retrieval.episode_index import EpisodeIndex
from tests.support.embedder import HashingEmbedder

DIM = 256
EMBEDDER = HashingEmbedder()
QUERY = np.eye(DIM, dtype=np.float32)[0]
DEFAULT_RANKING = RankingPolicy()


def unit_vector(first: float, spread: int = 1) -> np.ndarray:
    # A unit vector whose cosine with the query e0 is exactly ``first``.
    v = np.zeros(DIM, dtype=np.float32)
    v[0], v[spread] = first, np.sqrt(1 - first * first)
    return v


def episode(
    run_id: str,
    first: float,
    *,
    outcome: str = "COMPLETED",
    model: str | None = None,
    created_at: float = 0.0,
    expires_at: float = 1e12,
    units: tuple[EpisodeUnit, ...] = (),
) -> Episode:
    return Episode(
        tenant_id="t",
        agent_id="a",
        run_id=run_id,
        task="x",
        task_summary="x",
        outcome=outcome,  # type: ignore[arg-type]
        created_at=created_at,
        expires_at=expires_at,
        units=units,
        embedding=vectors.encode(
            unit_vector(first), model or EMBEDDER.model_id, encoding="float32"
        ),
    )


def unit(seq: int, text: str, first: float) -> EpisodeUnit:
    return EpisodeUnit(
        "message",
        seq,
        text,
        "Ana",
        vectors.encode(unit_vector(first, 2), EMBEDDER.model_id, encoding="float32"),
    )


def ranked(
    episodes: list[Episode],
    threshold: float | None,
    top_k: int = 3,
    text: str = "",
    now: float = 0.0,
    ranking: RankingPolicy = DEFAULT_RANKING,
) -> list[str]:
    index = EpisodeIndex(episodes, EMBEDDER.model_id, DIM)
    found = index.search(
        text, QUERY, now=now, top_episodes=top_k, min_similarity=threshold, ranking=ranking
    )
    return [hit.episode.run_id for hit in found.episodes]


def test_threshold_is_inclusive() -> None:
    # Given an episode, and its similarity to the query exactly as the index computes it
    eps = [episode("at", 0.5)]
    index = EpisodeIndex(eps, EMBEDDER.model_id, DIM)
    [hit] = index.search("", QUERY, now=0.0, top_episodes=1).episodes
    at = np.float32(hit.similarity)
    # Then a threshold equal to it keeps the episode, and the next float up drops it
    assert ranked(eps, float(at)) == ["at"]
    assert ranked(eps, float(np.nextafter(at, np.float32(1)))) == []
    assert hit.similarity == pytest.approx(0.5, abs=0.01)  # int8 storage, same ranking


def test_an_episode_ranked_above_one_that_passes_the_gate_is_kept() -> None:
    # Given an episode whose vector is under the threshold but whose words match the query,
    # ranked above one whose vector passes it, and a third under it, ranked last
    worded = unit(0, "the Lisbon marathon route changed", 0.2)
    eps = [
        episode("words", 0.1, units=(worded,)),
        episode("meaning", 0.6),
        episode("neither", 0.3),
    ]
    # When the index ranks them behind a gate of 0.5
    found = ranked(eps, 0.5, text="Lisbon marathon route")
    # Then the gate ends at the last episode that passes it: the one ranked above is kept,
    # the one below is not
    assert found == ["words", "meaning"]


def test_nothing_passes_the_gate_when_no_episode_reaches_it() -> None:
    # Given episodes whose words match but no vector reaches the threshold
    eps = [episode("words", 0.1, units=(unit(0, "the Lisbon marathon route", 0.2),))]
    # Then the gate lets none through, however well the words rank them
    assert ranked(eps, 0.5, text="Lisbon marathon route") == []


def test_a_run_that_says_the_querys_words_passes_the_gate_by_them() -> None:
    # Given four runs under the similarity threshold: one says every word of the query, two
    # only its commonest word, one none of them
    eps = [
        episode("says it", 0.1, units=(unit(0, "the clipboard has a notepad attached", 0.2),)),
        episode("one word", 0.1, units=(unit(0, "an attached file", 0.2),)),
        episode("other", 0.1, units=(unit(0, "we talked about dancing", 0.2),)),
        episode("attached", 0.1, units=(unit(0, "attached photos", 0.2),)),
    ]
    index = EpisodeIndex(eps, EMBEDDER.model_id, DIM)

    def gated(text: str) -> list[str]:
        found = index.search(
            text, QUERY, now=0.0, top_episodes=4, min_similarity=0.5, min_word_share=0.6
        )
        return [hit.episode.run_id for hit in found.episodes]

    # When the query asks about the clipboard with a notepad attached
    # Then the run that says all of it passes by its words, and the gate ends there
    assert gated("the clipboard with a notepad attached to it") == ["says it"]
    # And a query none of whose words the memory holds passes nothing
    assert gated("where is the swimming pool") == []
    # And the shares the gate read are the index's own: all of the words in the first run
    shares = index.word_shares("the clipboard with a notepad attached to it")
    assert shares[0] == pytest.approx(1.0) and (shares[1:] < 0.6).all()


def test_best_first_and_top_k() -> None:
    eps = [episode(f"e{i}", s) for i, s in enumerate((0.6, 0.9, 0.7, 0.8))]
    assert ranked(eps, 0.0, top_k=3) == ["e1", "e3", "e2"]


@pytest.mark.parametrize("newer_outcome", ["FAILED", "PARTIAL", "UNKNOWN"])
def test_completed_wins_a_tie_even_when_older(newer_outcome: str) -> None:
    eps = [
        episode("new", 0.8, outcome=newer_outcome, created_at=10.0),
        episode("old", 0.8, outcome="COMPLETED", created_at=1.0),
    ]
    assert ranked(eps, 0.0) == ["old", "new"]


def test_vectors_of_another_model_are_never_compared() -> None:
    assert ranked([episode("alien", 0.99, model="amazon.titan-embed-text-v2:0")], 0.0) == []


def test_expired_episodes_are_never_returned() -> None:
    eps = [episode("gone", 0.9, expires_at=5.0), episode("live", 0.5, expires_at=50.0)]
    assert ranked(eps, None, now=5.0) == ["live"]


def test_a_unit_can_carry_an_episode_whose_summary_is_unrelated() -> None:
    # Given an episode whose summary is far from the query but one of its turns is close
    eps = [
        episode("summary-only", 0.3),
        episode(
            "has-moment",
            0.0,
            units=(unit(0, "small talk", 0.0), unit(7, "the liability cap is low", 0.9)),
        ),
    ]
    index = EpisodeIndex(eps, EMBEDDER.model_id, DIM)
    found = index.search("liability cap", QUERY, now=0.0, top_episodes=2, min_similarity=0.5)
    # Then it is found through its unit, and the unit is named as its best moment
    assert [h.episode.run_id for h in found.episodes] == ["has-moment"]
    assert found.episodes[0].units[0].unit.seq == 7
    assert found.units[0].run_id == "has-moment"


def test_lexical_matches_rank_units_the_vectors_miss() -> None:
    # Given two units equally far from the query vector, one sharing a rare word with the query
    eps = [
        episode(
            "e", 0.1, units=(unit(0, "we met in Lisbon", 0.2), unit(1, "we met in the office", 0.2))
        )
    ]
    index = EpisodeIndex(eps, EMBEDDER.model_id, DIM)
    found = index.search("where was Lisbon", QUERY, now=0.0, top_episodes=1, top_units=2)
    assert [u.unit.seq for u in found.units] == [0, 1]


def test_only_the_nearest_candidates_are_ranked_in_full() -> None:
    # Given many episodes, one of them near the query
    eps = [episode(f"far{i}", 0.0, created_at=float(i)) for i in range(30)]
    eps.append(episode("near", 0.9))
    index = EpisodeIndex(eps, EMBEDDER.model_id, DIM)
    # When only 5 candidates may be ranked in full
    found = index.search("", QUERY, now=0.0, top_episodes=10, candidates=5)
    # Then at most 5 come back, the near one first
    assert len(found.episodes) == 5 and found.episodes[0].episode.run_id == "near"


def test_an_episode_whose_words_match_is_a_candidate_though_its_centroid_is_far() -> None:
    # Given many episodes nearer the query vector, and one far from it whose one message
    # names what the query asks about (its centroid averages that message away)
    eps = [episode(f"near{i}", 0.6, created_at=float(i)) for i in range(30)]
    answer = unit(0, "the marathon in Lisbon was in May", 0.0)
    chatter = tuple(unit(i, f"small talk number {i}", 0.0) for i in range(1, 12))
    eps.append(episode("answer", 0.0, units=(answer, *chatter)))
    index = EpisodeIndex(eps, EMBEDDER.model_id, DIM)
    # When only 6 candidates may be ranked in full
    found = index.search(
        "When was the Lisbon marathon?", QUERY, now=0.0, top_episodes=10, top_units=1, candidates=6
    )
    # Then the answering episode was among them, and its message is the best unit
    assert "answer" in [hit.episode.run_id for hit in found.episodes]
    assert found.units[0].unit.text == answer.text
    # And half the candidates are still the nearest by vector
    assert len(found.episodes) == 6


def test_expired_episodes_are_never_candidates_by_their_words() -> None:
    # Given an expired episode that matches the query's words, among live ones
    eps = [episode(f"live{i}", 0.5, created_at=float(i)) for i in range(20)]
    eps.append(episode("gone", 0.0, expires_at=1.0, units=(unit(0, "Lisbon marathon", 0.0),)))
    index = EpisodeIndex(eps, EMBEDDER.model_id, DIM)
    # When it is searched for after its expiry with a cut
    found = index.search("Lisbon marathon", QUERY, now=2.0, top_episodes=20, candidates=4)
    # Then it is not returned, and the cut is still filled with live episodes
    assert [h.episode.run_id for h in found.episodes if h.episode.run_id == "gone"] == []
    assert len(found.episodes) == 4


JUNE_1_2023 = 1_685_577_600.0  # 2023-06-01 00:00 UTC
DAY_SECONDS = 86_400.0


def dated_runs(days_before: list[int], text: str) -> list[Episode]:
    """Runs that say the same thing, ``days_before`` June 1st 2023, equally similar."""
    return [
        episode(
            f"r{d}",
            0.5,
            created_at=JUNE_1_2023 - d * DAY_SECONDS,
            units=(unit(0, text, 0.5),),
        )
        for d in days_before
    ]


def test_a_relative_period_is_resolved_against_the_searchs_now() -> None:
    # Given three runs telling of a concert, 3, 14 and 40 days before "now"
    runs = dated_runs([3, 14, 40], "I went to a concert")
    # When the query asks about two weeks ago, now being June 1st
    top = ranked(runs, None, top_k=1, text="which concert two weeks ago?", now=JUNE_1_2023)
    # Then the run of two weeks before comes first
    assert top == ["r14"]


def test_a_question_about_the_current_state_prefers_the_newest_run() -> None:
    # Given an older and a newer run saying where the sneakers are kept, the older a little
    # closer to the query, among runs about other things
    runs = [
        episode("old", 0.5, created_at=JUNE_1_2023 - 30 * DAY_SECONDS, units=(unit(0, "", 0.5),)),
        episode("new", 0.48, created_at=JUNE_1_2023 - 5 * DAY_SECONDS, units=(unit(0, "", 0.48),)),
        *(episode(f"other{i}", 0.1, created_at=JUNE_1_2023 - i * DAY_SECONDS) for i in range(1, 7)),
    ]
    # When the query asks where they are kept now, and when it does not say so
    latest = ranked(runs, None, top_k=2, text="where do I keep my sneakers now?", now=JUNE_1_2023)
    plain = ranked(runs, None, top_k=2, text="where do I keep my sneakers?", now=JUNE_1_2023)
    # Then asked about now, the newer run comes first; otherwise the closer one; both are found
    assert latest == ["new", "old"]
    assert plain == ["old", "new"]


def test_the_words_of_a_relative_period_are_not_matched_as_content() -> None:
    # Given two runs of the past three months, equally similar to the query: a trip, and one
    # that only shares the period's words
    runs = [
        episode(
            "stamps",
            0.5,
            created_at=JUNE_1_2023 - 10 * DAY_SECONDS,
            units=(unit(0, "I have collected stamps for three months", 0.5),),
        ),
        episode(
            "trip",
            0.5,
            created_at=JUNE_1_2023 - 20 * DAY_SECONDS,
            units=(unit(0, "I am back from a camping trip", 0.5),),
        ),
    ]
    # When the query asks for the trips of the past three months
    top = ranked(
        runs, None, top_k=1, text="which trip did I take in the past three months?", now=JUNE_1_2023
    )
    # Then the trip comes first: "three months" said when, not what
    assert top == ["trip"]


def ranked_units(
    episodes: list[Episode], text: str, ranking: RankingPolicy = DEFAULT_RANKING
) -> list[tuple[str, int]]:
    index = EpisodeIndex(episodes, EMBEDDER.model_id, DIM)
    found = index.search(text, QUERY, now=JUNE_1_2023, top_episodes=3, top_units=3, ranking=ranking)
    return [(hit.run_id, hit.unit.seq) for hit in found.units]


def two_charity_runs() -> list[Episode]:
    """Two runs about a charity 5K, equally similar and worded alike (the same length, the
    same words of the query); only the older run's message dates the race.
    """
    return [
        episode(
            "undated",
            0.5,
            created_at=JUNE_1_2023 - 7 * DAY_SECONDS,
            units=(unit(0, "I ran the charity 5K race recently", 0.5),),
        ),
        episode(
            "dated",
            0.5,
            created_at=JUNE_1_2023 - 9 * DAY_SECONDS,
            units=(unit(0, "I ran the charity 5K race today", 0.5),),
        ),
    ]


def test_a_question_about_time_prefers_the_message_that_dates_its_event() -> None:
    # Given two runs about a charity 5K, one message saying when the race was
    runs = two_charity_runs()
    # When the query asks how long ago the race was, and when it asks only what it was
    when = ranked_units(runs, "how many days ago did I do the charity 5K race?")
    what = ranked_units(runs, "what about the charity 5K race?")
    # Then asked about time, the dated message comes first; otherwise the newer run's
    assert when[0] == ("dated", 0)
    assert what[0] == ("undated", 0)


def test_a_named_period_also_prefers_the_dated_message() -> None:
    # Given the same two runs, both inside the period the query names
    runs = two_charity_runs()
    # When the query names the past two weeks
    top = ranked_units(runs, "what charity 5K race did I do in the past two weeks?")
    # Then the dated message comes first
    assert top[0] == ("dated", 0)


def test_a_ranking_weight_of_zero_turns_its_component_off() -> None:
    # Given the runs of the tests above where the dated message and the newest run win
    runs = two_charity_runs()
    when = "how many days ago did I do the charity 5K race?"
    latest_runs = [
        episode("old", 0.5, created_at=JUNE_1_2023 - 30 * DAY_SECONDS, units=(unit(0, "", 0.5),)),
        episode("new", 0.48, created_at=JUNE_1_2023 - 5 * DAY_SECONDS, units=(unit(0, "", 0.48),)),
        *(episode(f"other{i}", 0.1, created_at=JUNE_1_2023 - i * DAY_SECONDS) for i in range(1, 7)),
    ]
    latest = "where do I keep my sneakers now?"
    # When the dated prior, and then the recency prior, weigh nothing
    undated = ranked_units(runs, when, ranking=RankingPolicy(dated=0.0))
    timeless = ranked(
        latest_runs, None, top_k=2, text=latest, now=JUNE_1_2023, ranking=RankingPolicy(recency=0)
    )
    # Then each question ranks as one without that hint does
    assert undated[0] == ranked_units(runs, "what about the charity 5K race?")[0]
    assert timeless == ["old", "new"]


def test_words_alone_or_vectors_alone_rank_by_their_side() -> None:
    # Given a unit sharing a rare word with the query and a unit nearer it by vector
    eps = [
        episode(
            "e", 0.1, units=(unit(0, "we met in Lisbon", 0.2), unit(1, "we met at the office", 0.9))
        )
    ]
    index = EpisodeIndex(eps, EMBEDDER.model_id, DIM)

    def order(ranking: RankingPolicy) -> list[int]:
        found = index.search(
            "where was Lisbon", QUERY, now=0.0, top_episodes=1, top_units=2, ranking=ranking
        )
        return [u.unit.seq for u in found.units]

    # Then words alone put the word's unit first, vectors alone the nearer one
    assert order(RankingPolicy(dense=0.0)) == [0, 1]
    assert order(RankingPolicy(lexical=0.0)) == [1, 0]


@pytest.mark.parametrize("weight", [-0.5, float("nan"), float("inf")])
def test_a_ranking_weight_must_be_a_finite_number_not_below_zero(weight: float) -> None:
    with pytest.raises(ValueError, match=r"ranking\.dated must be a finite number >= 0"):
        RankingPolicy(dated=weight)


def test_a_message_is_matched_by_its_neighbours_words_only_within_the_window() -> None:
    # Given a run where only the message after "it was great" names the city
    eps = [
        episode(
            "e",
            0.1,
            units=(
                unit(0, "how was the trip", 0.2),
                unit(1, "it was great", 0.2),
                unit(2, "Lisbon in spring", 0.2),
                unit(3, "we ate well", 0.2),
                unit(4, "the hotel was small", 0.2),
            ),
        )
    ]

    def matched(neighbours: tuple[int, float]) -> float:
        index = EpisodeIndex(eps, EMBEDDER.model_id, DIM, neighbours=neighbours)
        found = index.search(
            "Lisbon", QUERY, now=0.0, top_episodes=1, top_units=5, ranking=RankingPolicy(dense=0)
        )
        scores = {u.unit.seq: u.score for u in found.units}
        return scores[1] - scores[4]

    # Then with one neighbour each side the message before the city's is lifted by its word;
    # with none, it scores as one that never met the word
    assert matched((1, 0.5)) > 0
    assert matched((0, 0.5)) == pytest.approx(0.0, abs=1e-6)
