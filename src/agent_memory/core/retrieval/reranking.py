"""The last ordering of what the episode index found, by a reranker.

The index matches words and vectors; what it misses mostly sits just below its cut, where the
evidence says the same thing in other words (benchmarks/research/RETRIEVAL_RECIPE.md). A
reranker reads the query beside each passage, which is what those misses need.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from agent_memory.core.model.errors import TransientError
from agent_memory.core.model.models import Episode, EpisodeHit, SearchResult, UnitHit, unit_text
from agent_memory.core.model.policies import EpisodicPolicy
from agent_memory.core.ports import Reranker

# (author, run id, unit kind, unit seq): two agents' runs of one id are told apart.
_Key = tuple[str, str, str, int]


def pool_size(top: int, policy: EpisodicPolicy, reranker: Reranker | None) -> int:
    """How many episodes to ask the index for when ``top`` are served: more with a reranker,
    which may lift one from below the cut.
    """
    return max(top, policy.reranked_episodes) if reranker is not None else top


def rerank(
    result: SearchResult, text: str, reranker: Reranker | None, *, top_episodes: int
) -> SearchResult:
    """``result`` ordered by ``reranker``'s scores against ``text``, cut to ``top_episodes``
    (without a reranker, ``result`` as it is).

    Each episode's summary and each unit found is scored once, in one call. An episode scores
    as its best passage; its units, and the result's units, are ordered by their own scores;
    equal scores keep the index's order. The scores replace the index's in the hits (the
    similarities stay). If the reranker cannot answer now, the index's order is served.
    """
    if reranker is None:
        return result
    passages: dict[_Key, str] = {}
    for hit in result.episodes:
        passages.setdefault(_summary_key(hit.episode), hit.episode.task_summary or hit.episode.task)
        passages.update((_key(u), unit_text(u.unit)) for u in hit.units)
    passages.update((_key(u), unit_text(u.unit)) for u in result.units)
    if not passages:
        return result
    keys = list(passages)
    try:
        scores = reranker.scores(text, [passages[k] for k in keys])
    except TransientError:
        return replace(result, episodes=result.episodes[:top_episodes])
    if len(scores) != len(keys):
        raise ValueError(
            f"reranker {reranker.model_id} returned {len(scores)} scores for {len(keys)} passages"
        )
    score = {k: float(s) for k, s in zip(keys, scores, strict=True)}

    def ordered(units: Iterable[UnitHit]) -> tuple[UnitHit, ...]:
        rescored = [replace(u, score=score[_key(u)]) for u in units]
        return tuple(sorted(rescored, key=lambda u: -u.score))

    episodes: list[EpisodeHit] = []
    for hit in result.episodes:
        units = ordered(hit.units)
        best = max([score[_summary_key(hit.episode)], *(u.score for u in units)])
        episodes.append(replace(hit, score=best, units=units))
    episodes.sort(key=lambda h: -h.score)
    return SearchResult(
        tuple(episodes[:top_episodes]), ordered(result.units), ranked_by=reranker.model_id
    )


def _key(hit: UnitHit) -> _Key:
    return (hit.agent_id, hit.run_id, hit.unit.kind, hit.unit.seq)


def _summary_key(episode: Episode) -> _Key:
    return (episode.agent_id, episode.run_id, "summary", 0)
