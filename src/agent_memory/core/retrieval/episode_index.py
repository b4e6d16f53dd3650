"""A search index over the episodes of an agent (or a team, or a tenant) and their units,
cached while the store is unchanged.

Unit vectors (and each episode's summary vector) are kept in one contiguous int8 matrix with a
scale per row, beside one float32 centroid per episode and, per term, each episode's best BM25
weight. A query first picks candidate episodes (a matrix-vector product over the centroids,
one BM25 lookup over episodes), then ranks the candidates' units: one product over their
vectors, a BM25 lookup and a few vector operations; nothing is rebuilt per query.
"""

from __future__ import annotations

import heapq
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import chain
from math import inf
from typing import Any

import numpy as np
import numpy.typing as npt

from agent_memory.core.model.models import Episode, EpisodeHit, SearchResult, UnitHit
from agent_memory.core.model.policies import EpisodicPolicy, RankingPolicy
from agent_memory.core.model.scope import AGENT_SCOPE, Scope
from agent_memory.core.model.time_window import OPEN, TimeWindow
from agent_memory.core.ports import Embedder, EpisodeStore, FloatArray
from agent_memory.core.retrieval.index_rows import (
    NEIGHBOURS,
    OBJECT_BYTES,
    SUMMARY,
    EpisodeKey,
    PreparedEpisode,
    Vocabulary,
    as_views,
    episode_key,
    lexical_index,
    prepare,
    speaker_codes,
)
from agent_memory.core.retrieval.lexical import GroupedBm25
from agent_memory.core.retrieval.periods import (
    Period,
    asks_for_latest,
    asks_when,
    question_period,
    without_durations,
)
from agent_memory.core.retrieval.selection import top_positions

# Similarities equal to this many decimals are ties; COMPLETED runs win them.
_TIE_DECIMALS = 4


class EpisodeIndex:
    """Hybrid search over fixed episodes: immutable once built, cheap per query.

    The recipe, each part kept by cross-validation on both benchmarks' dev questions
    (``benchmarks/research/CROSS_VALIDATION.md``): every unit is matched lexically (BM25 over
    its own text plus its neighbours' at half weight per step) and by its vector; the two
    z-scored scores are added; an episode is as relevant as its best unit; by default a unit
    gains one standard deviation when the query names its speaker or a period its run falls
    in (absolute, or relative to the search's ``now``); a query about the current state adds
    up to one more for the newest runs; a query about time (or naming a period) adds half of
    one to units that date what they tell ("yesterday", "on 3 May"). Its episode's standing
    is added only when the policy weighs it. Each weight is the search's
    :class:`RankingPolicy`.
    """

    def __init__(
        self,
        episodes: Sequence[Episode],
        model_id: str,
        dimension: int,
        *,
        reuse: EpisodeIndex | None = None,
        quantized: bool = True,
        neighbours: tuple[int, float] = NEIGHBOURS,
    ) -> None:
        """Index ``episodes``; rows ``reuse`` (the agent's previous index) already prepared
        for an episode are laid out again rather than recomputed. ``quantized``: vectors held
        as int8 rows (a quarter of float32's memory), else as float32. ``neighbours``: how
        many messages away, at what weight per step, a message's neighbours' words count.
        """
        self.episodes = list(episodes)
        self.model_id, self.dimension = model_id, dimension
        self.quantized = quantized
        self.neighbours = neighbours
        earlier: dict[EpisodeKey, PreparedEpisode] = {}
        self.vocabulary = Vocabulary()
        if reuse is not None and reuse.reusable_for(model_id, dimension, quantized, neighbours):
            earlier = reuse.prepared
            self.vocabulary = Vocabulary(reuse.vocabulary.ids)
        keys = [episode_key(e) for e in self.episodes]
        fresh = [
            earlier.get(key)
            or prepare(
                episode,
                self.vocabulary,
                model_id,
                dimension,
                quantized=quantized,
                neighbours=neighbours,
            )
            for key, episode in zip(keys, self.episodes, strict=True)
        ]
        lengths = np.array([p.rows for p in fresh], dtype=np.int64)
        self.starts = np.cumsum(lengths) - lengths
        self.ends = self.starts + lengths
        self.unit_episode = np.repeat(np.arange(len(fresh), dtype=np.int32), lengths)
        self.unit_kind = _concat([p.kinds for p in fresh], np.int8)
        self.units = list(chain.from_iterable(p.units for p in fresh))
        # Units stay int8 (a quarter of float32's memory) unless the policy keeps float32;
        # only candidates are expanded.
        self.unit_matrix = (
            np.concatenate([p.matrix for p in fresh])
            if fresh
            else np.zeros((0, dimension), dtype=np.int8)
        )
        self.unit_scale = _concat([p.scale for p in fresh], np.float32)
        self.expires_at = np.array([e.expires_at for e in self.episodes], dtype=np.float64)
        self.usable = _concat([p.usable for p in fresh], np.bool_)
        self.prepared: dict[EpisodeKey, PreparedEpisode] = dict(
            zip(
                keys,
                as_views(fresh, self.starts, self.unit_matrix, self.unit_scale, self.usable),
                strict=True,
            )
        )
        self.episode_matrix = _centroids([p.vector_sum for p in fresh], dimension)
        self.projection = _projection(self.episode_matrix)
        self.earliest_expiry = float(self.expires_at.min()) if self.episodes else np.inf
        self.lexical = lexical_index(fresh, self.starts, self.vocabulary)
        self.episode_lexical = GroupedBm25.of(self.lexical, self.unit_episode, len(self.episodes))
        self.created_at = np.array([e.created_at for e in self.episodes], dtype=np.float64)
        self.completed = np.array([e.outcome == "COMPLETED" for e in self.episodes])
        self.speakers, self.speaker_code = speaker_codes(fresh, lengths)
        self.dated = _concat([p.dated for p in fresh], np.bool_)
        self.nbytes = self._footprint()

    def reusable_for(
        self,
        model_id: str,
        dimension: int,
        quantized: bool = True,
        neighbours: tuple[int, float] = NEIGHBOURS,
    ) -> bool:
        """Whether the next index of ``model_id`` may build on this one's prepared rows: same
        vector space, words matched with the same neighbours, and a vocabulary not mostly
        made of terms no episode uses any more.
        """
        live = int(np.count_nonzero(np.diff(self.lexical.postings_start)))
        ours = (self.model_id, self.dimension, self.quantized, self.neighbours)
        same = (model_id, dimension, quantized, neighbours) == ours
        return same and len(self.vocabulary.ids) <= 2 * live + _SPARE_TERMS

    def _footprint(self) -> int:
        """Bytes this index keeps alive, estimated: its arrays, plus the episodes it holds."""
        arrays = [v for v in vars(self).values() if isinstance(v, np.ndarray)]
        for lexical in (self.lexical, self.episode_lexical.groups):
            arrays += [lexical.postings_start, lexical.postings_doc, lexical.postings_weight]
        arrays += [self.episode_lexical.first, self.episode_lexical.keys]
        prepared = sum(p.nbytes for p in self.prepared.values())
        terms = OBJECT_BYTES * len(self.vocabulary.ids)
        return sum(a.nbytes for a in arrays) + prepared + terms + OBJECT_BYTES * len(self.episodes)

    def search(
        self,
        text: str,
        query: FloatArray,
        *,
        now: float,
        top_episodes: int,
        top_units: int = 10,
        units_per_episode: int = 3,
        min_similarity: float | None = None,
        candidates: int = 64,
        min_word_share: float | None = None,
        excluded: frozenset[tuple[str, str]] = frozenset(),
        window: TimeWindow = OPEN,
        ranking: RankingPolicy = RankingPolicy(),  # noqa: B008 (frozen: one shared default)
    ) -> SearchResult:
        """Rank the live episodes and their units for ``text`` (and its vector ``query``),
        weighing what is known of each unit as ``ranking`` says.

        Two stages: the episodes' centroid vectors and their best-matching units' words pick
        ``candidates`` episodes (see ``_candidates``), whose units are then ranked in full.
        With no more live episodes than ``candidates``, every episode is ranked in full.
        ``min_similarity`` (the embedding model's calibrated threshold) is the gate: the
        lowest-ranked episode with some unit (or summary) at least that similar to the query
        is the last one returned, and none is when no episode reaches it; ``None`` ranks all.
        With ``min_word_share`` too, an episode holding that share of the query's word weight
        (IDF over episodes, see ``Bm25Index.word_shares``) reaches the gate by its words.
        Expired episodes are never returned; ties go to COMPLETED runs, then newer ones, and
        neither are the ``excluded`` ones, by (agent, run): the reader flagged them, and the
        flags are read afresh for each search, never kept in the index. Only episodes created
        in ``window`` are live: the candidates are chosen among them, so a window fills the
        result from its own episodes, however many better ones lie outside it.
        """
        q = np.asarray(query, dtype=np.float32)
        # "Four weeks ago" says when (the period prior below), not what to match.
        terms, unknown = self.lexical.query_terms(without_durations(text))
        live = self._candidates(terms, q, now, candidates, window)
        if excluded:
            kept = [i for i in live.tolist() if self._identity(i) not in excluded]
            live = np.asarray(kept, dtype=np.int64)
        if not len(live):
            return SearchResult((), ())
        starts, ends = self.starts[live], self.ends[live]
        lengths = ends - starts
        local_starts = np.cumsum(lengths) - lengths
        rows = np.arange(int(lengths.sum())) + np.repeat(starts - local_starts, lengths)
        usable = self.usable[rows]
        cosine = self._cosines(rows, q)
        cosine[~usable] = 0.0
        # A unit without a comparable vector counts as average on the vector side.
        dense = cosine if usable.all() else np.where(usable, cosine, _mean(cosine[usable]))
        lexical = self.episode_lexical.scores_in(terms, live, starts, ends)
        fused = _z(ranking.lexical * _z(lexical) + ranking.dense * _z(dense))
        best = np.maximum.reduceat(fused, local_starts)
        period = question_period(text, now=now)
        in_period = ranking.period * self._in_period(period, live)
        in_period = in_period + ranking.recency * self._recency(text, live)
        episode_score = _z(best) + in_period
        standing = _z(episode_score)
        unit_score = fused + np.repeat(in_period + ranking.standing * standing, lengths)
        if period is not None or asks_when(text):
            unit_score += ranking.dated * self.dated[rows]
        named = self._named_speaker(text)
        if named is not None:
            unit_score += ranking.speaker * (self.speaker_code[rows] == named)
        similarity = np.maximum.reduceat(np.where(usable, cosine, -1.0), local_starts)
        order = np.lexsort(
            (
                -self.created_at[live],
                ~self.completed[live],
                -np.round(episode_score, _TIE_DECIMALS),
            )
        )
        if min_similarity is not None:
            passing = similarity >= min_similarity
            compared = np.logical_or.reduceat(usable, local_starts)
            if min_word_share is not None:
                shares = self.episode_lexical.groups.word_shares(terms, unknown)[live]
                worded = shares >= min_word_share
                passing |= worded
                compared |= worded
            order = _gated(order, passing[order], compared[order])
        ranked = order[:top_episodes]
        returnable = self.unit_kind[rows] != SUMMARY
        hits = []
        for i in ranked:
            own = slice(int(local_starts[i]), int(local_starts[i] + lengths[i]))
            units = self._top(
                rows[own], returnable[own], unit_score[own], cosine[own], units_per_episode
            )
            episode = self.episodes[int(live[i])]
            hits.append(EpisodeHit(episode, float(episode_score[i]), float(similarity[i]), units))
        return SearchResult(
            episodes=tuple(hits),
            units=self._top(rows, returnable, unit_score, cosine, top_units),
        )

    def _identity(self, position: int) -> tuple[str, str]:
        episode = self.episodes[position]
        return episode.agent_id, episode.run_id

    def word_shares(self, text: str) -> FloatArray:
        """Each episode's share of ``text``'s word weight (IDF over episodes, in index order),
        as the gate of :meth:`search` reads it.
        """
        terms, unknown = self.lexical.query_terms(without_durations(text))
        return self.episode_lexical.groups.word_shares(terms, unknown)

    def _candidates(
        self,
        terms: Sequence[int],
        q: FloatArray,
        now: float,
        candidates: int,
        window: TimeWindow = OPEN,
    ) -> npt.NDArray[np.int64]:
        """The live episodes whose units are ranked, in index order: all of them, or
        ``candidates`` of them: half the nearest by centroid, the rest those whose units best
        match the query's words (then the next nearest, if few match).

        The words matter: a centroid averages every message of a run, so the one message that
        answers a question barely moves it. On the LoCoMo sessions pooled into one memory,
        keeping 1 episode in 16 by centroid alone drops session recall@5 from 0.93 to 0.65,
        and by centroid and words together only to 0.93 (benchmarks/research).
        """
        everyone = now < self.earliest_expiry and not window.bounded
        alive = None if everyone else self._alive(now, window)
        if (len(self.episodes) if alive is None else int(alive.sum())) <= candidates:
            return np.arange(len(self.episodes)) if alive is None else np.flatnonzero(alive)
        half = (candidates + 1) // 2
        chosen = dict.fromkeys(self._nearest(q, alive, half).tolist())

        def add(ranked: npt.NDArray[np.int64]) -> None:
            for episode in ranked.tolist():
                if len(chosen) >= candidates:
                    return
                chosen.setdefault(episode)

        words = self.episode_lexical.group_scores(terms)
        if alive is not None:
            words[~alive] = 0.0
        matched = top_positions(words, candidates)
        matched = matched[words[matched] > 0]
        add(matched[np.argsort(-words[matched], kind="stable")])
        if len(chosen) < candidates:  # few episodes share a word with the query
            add(self._nearest(q, alive, candidates))
        return np.sort(np.fromiter(chosen, dtype=np.int64, count=len(chosen)))

    def _alive(self, now: float, window: TimeWindow) -> npt.NDArray[np.bool_]:
        """Which episodes are unexpired at ``now`` and created in ``window``."""
        alive = self.expires_at > now
        if window.since is not None:
            alive &= self.created_at >= window.since
        if window.until is not None:
            alive &= self.created_at < window.until
        return alive

    def _nearest(
        self, q: FloatArray, alive: npt.NDArray[np.bool_] | None, count: int
    ) -> npt.NDArray[np.int64]:
        """The ``count`` live episodes with centroids nearest ``q``, nearest first.

        Over many episodes, a product in the centroids' principal subspace (a quarter of the
        dimensions, so a quarter of the bytes read) first keeps ``_OVERSAMPLE`` times as many,
        and the exact centroids order those: the exact nearest survive that cut at a rate of
        0.9995 on LoCoMo's MiniLM vectors.
        """
        wide = count * _OVERSAMPLE
        if self.projection is not None and len(self.episodes) > 2 * wide:
            basis, projected = self.projection
            rough = projected @ (q @ basis)
            if alive is not None:
                rough[~alive] = -np.inf
            pool = top_positions(rough, wide)
            exact = self.episode_matrix[pool] @ q
            if alive is not None:
                exact[~alive[pool]] = -np.inf
        else:
            pool = np.arange(len(self.episodes))
            exact = self.episode_matrix @ q
            if alive is not None:
                exact[~alive] = -np.inf
        best = top_positions(exact, min(count, len(pool)))
        return pool[best[np.argsort(-exact[best], kind="stable")]]

    def _cosines(self, rows: npt.NDArray[np.int64], q: FloatArray) -> FloatArray:
        """Cosine of each row's int8 vector with ``q``.

        Expanded to float32 a cache-sized block at a time: expanding every candidate at once
        costs more in memory traffic than the product itself.
        """
        result = np.empty(len(rows), dtype=np.float32)
        for first in range(0, len(rows), _BLOCK):
            block = rows[first : first + _BLOCK]
            result[first : first + len(block)] = self.unit_matrix[block].astype(np.float32) @ q
        result *= self.unit_scale[rows]
        return result

    def _in_period(self, period: Period | None, live: npt.NDArray[np.int64]) -> FloatArray:
        """1 for each run inside the period the query names ("in May", "two weeks ago",
        resolved against the search's ``now``), else 0.
        """
        if period is None:
            return np.zeros(len(live), dtype=np.float32)
        created = self.created_at[live]
        bounds = period.bounds()
        if bounds is None:
            return np.array([period.contains(float(t)) for t in created], dtype=np.float32)
        low, high = bounds
        return ((created >= low) & (created < high)).astype(np.float32)

    def _recency(self, text: str, live: npt.NDArray[np.int64]) -> FloatArray | float:
        """For a query about the current state ("where do I keep it now?"), each run's place
        between the oldest (0) and the newest (1) of those ranked: where a later run updates
        an earlier one, the later wins a tie, and the earlier stays findable.
        """
        if not asks_for_latest(text) or len(live) < 2:
            return 0.0
        created = self.created_at[live]
        oldest, span = float(created.min()), float(np.ptp(created))
        if span <= 0:
            return 0.0
        return ((created - oldest) / span).astype(np.float32)

    def _named_speaker(self, text: str) -> int | None:
        """The code of the one speaker the query names (whole word, any case), if exactly one."""
        low = text.lower()
        named = [
            i
            for i, sp in enumerate(self.speakers)
            if sp.lower() in low and re.search(rf"(?<!\w){re.escape(sp.lower())}(?!\w)", low)
        ]
        return named[0] if len(named) == 1 else None

    def _top(
        self,
        rows: npt.NDArray[np.int64],
        mask: npt.NDArray[np.bool_],
        score: FloatArray,
        cosine: FloatArray,
        count: int,
    ) -> tuple[UnitHit, ...]:
        """The ``count`` best of the masked candidate units (positions into ``rows``), best
        first; equal scores in position order.
        """
        if len(score) <= _FEW:  # one episode's units: plain Python beats numpy's call costs
            keep = mask.tolist()
            returnable = [p for p in range(len(keep)) if keep[p]]
            # Like sorted(..., reverse=True)[:count]: stable, so ties stay in position order.
            picked = heapq.nlargest(count, returnable, key=score.tolist().__getitem__)
        else:
            positions = np.flatnonzero(mask)
            if len(positions) > count:
                positions = positions[top_positions(score[positions], count)]
                positions.sort()
            picked = positions[np.argsort(-score[positions], kind="stable")].tolist()
        return tuple(self._hit(int(rows[p]), float(score[p]), float(cosine[p])) for p in picked)

    def _hit(self, row: int, score: float, cosine: float) -> UnitHit:
        unit = self.units[row]
        assert unit is not None  # summaries are never returned
        episode = self.episodes[int(self.unit_episode[row])]
        return UnitHit(episode.run_id, unit, score, cosine, episode.agent_id)


# A vocabulary may hold this many terms beyond twice those in use before it is started afresh.
_SPARE_TERMS = 10_000
# Indexes of more episodes than this also keep their centroids projected on their principal
# subspace of a quarter of the dimensions (85-90% of the variance of MiniLM sentence vectors).
PROJECT_ABOVE = 2_048
_OVERSAMPLE = 4
# Below this many candidate units, the best few are sorted in plain Python.
_FEW = 64
# Candidate unit vectors expanded from int8 per block: 512 x 1,024 float32 fits in L2.
_BLOCK = 512


def _projection(matrix: FloatArray) -> tuple[FloatArray, FloatArray] | None:
    """The top principal directions of ``matrix``'s rows (uncentred: dot products are what is
    kept) as a d x d/4 basis, and the rows projected on it; ``None`` for small matrices.
    """
    if len(matrix) <= PROJECT_ABOVE:
        return None
    _, directions = np.linalg.eigh((matrix.T @ matrix).astype(np.float64))
    basis = np.ascontiguousarray(directions[:, ::-1][:, : matrix.shape[1] // 4], np.float32)
    return basis, np.ascontiguousarray(matrix @ basis)


def _centroids(sums: list[FloatArray], dimension: int) -> FloatArray:
    """One unit vector per episode: its rows' vector sum (units' and summary's), normalised."""
    if not sums:
        return np.zeros((0, dimension), dtype=np.float32)
    centroids = np.stack(sums)
    norms = np.linalg.norm(centroids, axis=1, keepdims=True)
    np.divide(centroids, norms, out=centroids, where=norms > 0)
    return centroids


def _concat(arrays: list[npt.NDArray[Any]], dtype: type) -> npt.NDArray[Any]:
    return np.concatenate(arrays) if arrays else np.zeros(0, dtype=dtype)


def _gated(
    order: npt.NDArray[np.int64], passing: npt.NDArray[np.bool_], compared: npt.NDArray[np.bool_]
) -> npt.NDArray[np.int64]:
    """The ranked episodes ``order`` the similarity gate lets through: down to the last one
    ``passing`` it, so an episode ranked above a passing one is kept although its own best
    similarity is under the threshold, if it was ``compared`` at all (an episode holding no
    vector of the query's model, while it is re-embedded, has no similarity to judge).

    The threshold judges relatedness by meaning alone, the ranking by words and meaning
    together: an episode the ranking puts above a related one is no less related. Filtering
    each episode by the threshold instead lost evidence whose words matched plainly (served
    evidence on LoCoMo 0.903 against 0.920 anchored, at the same tokens: benchmarks/research).
    """
    passed = np.flatnonzero(passing)
    if not len(passed):
        return order[:0]
    above = order[: passed[-1] + 1]
    return above[compared[: passed[-1] + 1]]


def _mean(values: FloatArray) -> float:
    return float(values.mean()) if len(values) else 0.0


def _z(values: FloatArray) -> FloatArray:
    """Standard scores of ``values`` (population std; 1 if flat), as float32."""
    if not len(values):
        return np.zeros(0, dtype=np.float32)
    # np.std's Python-level bookkeeping costs more than its arithmetic on a few thousand values.
    centred = values - float(values.sum(dtype=np.float64)) / len(values)
    spread = float(np.sqrt(np.dot(centred, centred) / len(values))) or 1.0
    return (centred / spread).astype(np.float32)


def neighbours_of(policy: EpisodicPolicy) -> tuple[int, float]:
    """How far and how much a message's neighbours' words count, as ``policy`` says."""
    return policy.neighbour_window, policy.neighbour_weight


@dataclass(slots=True)
class _Entry:
    versions: dict[str, str]  # each member agent's store version the index was built at
    built: float
    index: EpisodeIndex
    limit: int  # the most episodes of each member it was built from (the policy's candidates)

    def stale(self, max_age: float) -> bool:
        return time.monotonic() - self.built >= max_age

    def held(self, agent_id: str) -> list[Episode]:
        """The member's episodes in the index, newest first."""
        if len(self.versions) == 1:
            return self.index.episodes
        return [e for e in self.index.episodes if e.agent_id == agent_id]


def _with_added(
    held: list[Episode], limit: int, added: list[Episode], *, now: float
) -> list[Episode] | None:
    """The newest ``limit`` unexpired episodes of an agent, from those ``held`` and those
    ``added`` since; None if the store must be read again.
    """
    kept = [e for e in held if e.expires_at > now]
    if len(kept) < len(held) and len(held) >= limit:
        return None  # older episodes than it holds may now be among the newest
    known = {e.run_id for e in kept}
    merged = kept + [e for e in added if e.run_id not in known]
    # The order of EpisodeStore.recent, which a full read would give.
    merged.sort(key=_recency, reverse=True)
    return merged[:limit]


def _recency(episode: Episode) -> tuple[float, str]:
    return episode.created_at, episode.run_id


def recent_episodes(
    store: EpisodeStore,
    tenant_id: str,
    agent_id: str,
    *,
    now: float,
    policy: EpisodicPolicy,
    window: TimeWindow = OPEN,
) -> list[Episode]:
    """The agent's newest unexpired episodes (of those created in ``window``), at most
    ``policy.candidates``, across pages.
    """
    episodes: list[Episode] = []
    cursor: str | None = None
    while len(episodes) < policy.candidates:
        page = store.recent(
            tenant_id,
            agent_id,
            now=now,
            limit=min(policy.page_size, policy.candidates - len(episodes)),
            cursor=cursor,
            since=window.since,
            until=window.until,
        )
        episodes.extend(page.items)
        cursor = page.cursor
        if cursor is None:
            break
    return episodes


# A scope's index holds at most about this many episodes, shared equally by its members: a
# team of 10 keeps the default policy's 500 each; past that, each member keeps fewer, so a
# large tenant cannot build an index past a process's memory (500 episodes of 20-odd
# messages take some 22 MiB at 384 dimensions: benchmarks/results/scoped_reads.md).
SCOPE_EPISODES = 5_000


def member_candidates(policy: EpisodicPolicy, members: int) -> int:
    """How many of its newest episodes each of ``members`` agents brings to one index."""
    if members <= 1:
        return policy.candidates
    return max(1, min(policy.candidates, SCOPE_EPISODES // members))


def _covers(index: EpisodeIndex, members: Sequence[str], limit: int, window: TimeWindow) -> bool:
    """Whether ``index`` (built from each member's newest ``limit`` episodes) holds every
    unexpired episode of the members created in ``window``: a member with fewer held holds all
    of its own, and one with ``limit`` holds all created after its oldest held one (not every
    one created at that same moment).
    """
    oldest: dict[str, float] = {}
    held: dict[str, int] = dict.fromkeys(members, 0)
    for episode in index.episodes:
        held[episode.agent_id] = held.get(episode.agent_id, 0) + 1
        oldest[episode.agent_id] = min(oldest.get(episode.agent_id, inf), episode.created_at)
    return all(
        held[m] < limit or (window.since is not None and window.since > oldest[m]) for m in members
    )


# An index's key: tenant, its member agents (None: the tenant's, whoever they are), model.
_Key = tuple[str, tuple[str, ...] | None, str]


class EpisodeIndexCache:
    """The latest index of each recently searched scope (an agent, a team, a tenant), rebuilt
    when a member agent's store version moves: from the episodes it held and those added
    since, when the store can tell which (``EpisodeStore.changes_since``), or else from a full
    read of that member's newest episodes (the other members' are taken from the index).

    A scope of several agents is one index over the union of each member's newest
    ``policy.candidates`` episodes (fewer each past :data:`SCOPE_EPISODES`): scores are
    standardised within an index, so rankings of separate indexes cannot be merged. A warm
    lookup costs one read of the members' versions (``EpisodeStore.versions``; for a tenant,
    one more of its agents), and a member whose version moved one more read.

    Bounded by ``capacity`` indexes and by ``max_bytes`` of estimated memory (least recently
    used first out; the newest always stays): a process serving many agents, such as a Lambda
    container, must not grow past its memory. ``max_age`` bounds how long an index is trusted
    without a version change (a safety net for stores whose versions cannot see every
    deletion, such as expiry by TTL).
    """

    def __init__(
        self, *, capacity: int = 64, max_bytes: int = 256 * 2**20, max_age: float = 300.0
    ) -> None:
        self._entries: OrderedDict[_Key, _Entry] = OrderedDict()
        self._capacity = capacity
        self._max_bytes = max_bytes
        self._max_age = max_age
        self._lock = threading.Lock()

    @property
    def nbytes(self) -> int:
        """Estimated bytes held by the cached indexes."""
        with self._lock:
            return sum(e.index.nbytes for e in self._entries.values())

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)

    def index(
        self,
        store: EpisodeStore,
        embedder: Embedder,
        tenant_id: str,
        agent_id: str,
        *,
        now: float,
        policy: EpisodicPolicy,
        scope: Scope = AGENT_SCOPE,
        window: TimeWindow = OPEN,
    ) -> EpisodeIndex:
        """The index of the scope's agents (by default ``agent_id`` alone), built from each
        member's newest ``policy.candidates`` episodes (fewer past :data:`SCOPE_EPISODES` in
        all: :func:`member_candidates`).

        With a bounded ``window``, the kept index serves when it holds every episode of the
        window (each member's held episodes reach back past ``since``); otherwise an index of
        each member's newest episodes in the window, read by the store's windowed query, is
        built for this search alone (from the kept index's rows where it holds them) and not
        kept: a window further back than the newest episodes is an occasional look.
        """
        named = scope.agents(agent_id)
        members = named if named is not None else tuple(store.agents(tenant_id))
        policy = replace(policy, candidates=member_candidates(policy, len(members)))
        kept = self._kept(store, embedder, tenant_id, named, members, now=now, policy=policy)
        if not window.bounded or _covers(kept, members, policy.candidates, window):
            return kept
        episodes = [
            episode
            for member in members
            for episode in recent_episodes(
                store, tenant_id, member, now=now, policy=policy, window=window
            )
        ]
        return EpisodeIndex(
            episodes,
            embedder.model_id,
            embedder.dimension,
            reuse=kept,
            quantized=policy.vector_encoding == "int8",
            neighbours=neighbours_of(policy),
        )

    def _kept(
        self,
        store: EpisodeStore,
        embedder: Embedder,
        tenant_id: str,
        named: tuple[str, ...] | None,
        members: Sequence[str],
        *,
        now: float,
        policy: EpisodicPolicy,
    ) -> EpisodeIndex:
        """The scope's kept index, brought up to date with the store (or built and kept)."""
        key: _Key = (tenant_id, named, embedder.model_id)
        with self._lock:
            previous = self._entries.get(key)
        entry = previous
        if entry is not None and (
            entry.limit != policy.candidates
            or entry.index.neighbours != neighbours_of(policy)
            or entry.stale(self._max_age)
        ):
            entry = None
        changes = self._changes(store, entry, tenant_id, members, now)
        versions = {m: version for m, (version, _) in changes.items()}
        if entry is not None and versions == entry.versions:
            with self._lock:
                if key in self._entries:
                    self._entries.move_to_end(key)
            return entry.index
        episodes: list[Episode] = []
        for member, (version, added) in changes.items():
            mine = None
            if entry is not None and added is not None:
                held = entry.held(member)
                same = version == entry.versions[member]
                mine = held if same else _with_added(held, entry.limit, added, now=now)
            if mine is None:
                mine = recent_episodes(store, tenant_id, member, now=now, policy=policy)
            episodes.extend(mine)
        # The scope's last index lends the rows of the episodes both hold: after a new run,
        # only that run's episode is prepared.
        built = EpisodeIndex(
            episodes,
            embedder.model_id,
            embedder.dimension,
            reuse=previous.index if previous is not None else None,
            quantized=policy.vector_encoding == "int8",
            neighbours=neighbours_of(policy),
        )
        with self._lock:
            self._entries[key] = _Entry(versions, time.monotonic(), built, policy.candidates)
            self._entries.move_to_end(key)
            held_bytes = sum(e.index.nbytes for e in self._entries.values())
            while len(self._entries) > 1 and (
                len(self._entries) > self._capacity or held_bytes > self._max_bytes
            ):
                _, dropped = self._entries.popitem(last=False)
                held_bytes -= dropped.index.nbytes
        return built

    @staticmethod
    def _changes(
        store: EpisodeStore,
        entry: _Entry | None,
        tenant_id: str,
        members: Sequence[str],
        now: float,
    ) -> dict[str, tuple[str, list[Episode] | None]]:
        """Each member's version now, and its episodes added since the entry's version of it
        (``[]``: unchanged; None: read them again).

        One agent: one read tells whether anything changed and, if only additions, which.
        Several: one read of every member's version, then that read for each one that moved.
        """
        if len(members) == 1 and entry is not None and members[0] in entry.versions:
            (member,) = members
            found = store.changes_since(
                tenant_id, member, entry.versions[member], now=now, limit=entry.limit
            )
            return {member: (found.version, found.added)}
        if len(members) == 1:
            return {members[0]: (store.version(tenant_id, members[0]), None)}
        now_at = store.versions(tenant_id, members)
        held = entry.versions if entry is not None else {}
        limit = entry.limit if entry is not None else 0
        changes: dict[str, tuple[str, list[Episode] | None]] = {}
        for member in members:
            before = held.get(member)
            if before is None:
                changes[member] = (now_at[member], None)
            elif now_at[member] == before:
                changes[member] = (before, [])
            else:
                found = store.changes_since(tenant_id, member, before, now=now, limit=limit)
                changes[member] = (found.version, found.added)
        return changes

    def clear(self, tenant_id: str | None = None) -> None:
        """Drop cached indexes (of one tenant, or all)."""
        with self._lock:
            for key in [k for k in self._entries if tenant_id is None or k[0] == tenant_id]:
                del self._entries[key]
