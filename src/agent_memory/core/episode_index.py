"""A search index over one agent's episodes and their units, cached while the store is unchanged.

Vectors are kept in two contiguous float32 matrices (episode summaries, units), so a query costs
a few matrix-vector products and one BM25 lookup; nothing is rebuilt per query.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from agent_memory.core import vectors
from agent_memory.core.lexical import Bm25Index
from agent_memory.core.models import Episode, EpisodeUnit
from agent_memory.core.policies import EpisodicPolicy
from agent_memory.core.ports import Embedder, EpisodeStore, FloatArray
from agent_memory.core.ranking import fuse_ranks

# Similarities equal to this many decimals are ties; COMPLETED runs win them.
_TIE_DECIMALS = 4


@dataclass(frozen=True, slots=True)
class UnitHit:
    """A unit of an episode that matched the query."""

    run_id: str
    unit: EpisodeUnit
    score: float
    similarity: float


@dataclass(frozen=True, slots=True)
class EpisodeHit:
    """An episode that matched, its similarity to the query, and its best units."""

    episode: Episode
    score: float
    similarity: float
    units: tuple[UnitHit, ...]


@dataclass(frozen=True, slots=True)
class SearchResult:
    """Ranked episodes and ranked units (across episodes) for one query."""

    episodes: tuple[EpisodeHit, ...]
    units: tuple[UnitHit, ...]


class EpisodeIndex:
    """Hybrid (lexical + vector) search over fixed episodes; immutable once built."""

    def __init__(self, episodes: Sequence[Episode], model_id: str, dimension: int) -> None:
        self.episodes = list(episodes)
        self.summary_matrix, self.summary_usable = vectors.stack(
            [e.embedding for e in self.episodes], model_id, dimension
        )
        units = [(i, u) for i, e in enumerate(self.episodes) for u in e.units]
        self.unit_episode = np.array([i for i, _ in units], dtype=np.int32)
        self.units = [u for _, u in units]
        self.unit_matrix, self.unit_usable = vectors.stack(
            [u.embedding for u in self.units], model_id, dimension
        )
        self.lexical = Bm25Index.build([_unit_text(u) for u in self.units])
        self.expires_at = np.array([e.expires_at for e in self.episodes], dtype=np.float64)
        self.completed = np.array([e.outcome == "COMPLETED" for e in self.episodes])

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
    ) -> SearchResult:
        """Rank units by fusing their BM25 and cosine ranks, and episodes by their best unit
        fused with their own summary's cosine rank.

        ``min_similarity`` (the embedding model's calibrated threshold) keeps only episodes
        whose summary or some unit is at least that similar to the query; ``None`` ranks all.
        Expired episodes are never returned.
        """
        live = self.expires_at > now
        if not live.any():
            return SearchResult((), ())
        q = np.asarray(query, dtype=np.float32)
        summary_cos = np.where(self.summary_usable, self.summary_matrix @ q, -1.0)
        unit_cos = np.where(self.unit_usable, self.unit_matrix @ q, -1.0)
        unit_live = live[self.unit_episode] if len(self.units) else np.zeros(0, bool)
        lexical = self.lexical.scores(text)
        unit_score = fuse_ranks(
            [
                np.where(self.unit_usable, unit_cos, -np.inf),
                np.where(lexical > 0, lexical, -np.inf),
            ],
            usable=unit_live,
        )
        # An episode's best unit: its fused score, and its cosine for the threshold.
        best_unit = np.full(len(self.episodes), -np.inf, dtype=np.float32)
        best_unit_cos = np.full(len(self.episodes), -1.0, dtype=np.float32)
        if len(self.units):
            np.maximum.at(best_unit, self.unit_episode, unit_score)
            np.maximum.at(best_unit_cos, self.unit_episode, unit_cos)
        episode_score = fuse_ranks(
            [np.where(self.summary_usable, summary_cos, -np.inf), best_unit], usable=live
        )
        similarity = np.maximum(summary_cos, best_unit_cos)
        eligible = live.copy()
        if min_similarity is not None:
            eligible &= similarity >= min_similarity
        ranked = sorted(
            np.flatnonzero(eligible).tolist(),
            key=lambda i: (
                -round(float(episode_score[i]), _TIE_DECIMALS),
                not self.completed[i],
                -self.episodes[i].created_at,
            ),
        )[:top_episodes]
        return SearchResult(
            episodes=tuple(
                EpisodeHit(
                    self.episodes[i],
                    float(episode_score[i]),
                    float(similarity[i]),
                    self._best_units(i, unit_score, unit_cos, units_per_episode),
                )
                for i in ranked
            ),
            units=self._top_units(unit_score, unit_cos, unit_live, top_units),
        )

    def _best_units(
        self, episode: int, score: FloatArray, cos: FloatArray, count: int
    ) -> tuple[UnitHit, ...]:
        rows = np.flatnonzero(self.unit_episode == episode)
        best = rows[np.argsort(-score[rows], kind="stable")][:count]
        return tuple(self._hit(r, score, cos) for r in best if np.isfinite(score[r]))

    def _top_units(
        self, score: FloatArray, cos: FloatArray, live: npt.NDArray[np.bool_], count: int
    ) -> tuple[UnitHit, ...]:
        rows = np.flatnonzero(live)
        best = rows[np.argsort(-score[rows], kind="stable")][:count]
        return tuple(self._hit(r, score, cos) for r in best)

    def _hit(self, row: int, score: FloatArray, cos: FloatArray) -> UnitHit:
        run_id = self.episodes[int(self.unit_episode[row])].run_id
        return UnitHit(run_id, self.units[row], float(score[row]), float(cos[row]))


def _unit_text(unit: EpisodeUnit) -> str:
    return f"{unit.speaker}: {unit.text}" if unit.speaker else unit.text


@dataclass(slots=True)
class _Entry:
    version: str
    built: float
    index: EpisodeIndex


class EpisodeIndexCache:
    """The latest index of each recently searched agent, rebuilt when its store version moves.

    ``max_age`` bounds how long an index is trusted without a version change (a safety net for
    stores whose versions cannot see every deletion, such as expiry by TTL).
    """

    def __init__(self, *, capacity: int = 64, max_age: float = 300.0) -> None:
        self._entries: OrderedDict[tuple[str, str, str], _Entry] = OrderedDict()
        self._capacity = capacity
        self._max_age = max_age
        self._lock = threading.Lock()

    def index(
        self,
        store: EpisodeStore,
        embedder: Embedder,
        tenant_id: str,
        agent_id: str,
        *,
        now: float,
        policy: EpisodicPolicy,
    ) -> EpisodeIndex:
        """The agent's index, built from its newest ``policy.candidates`` episodes."""
        from agent_memory.core.episodic import recent_episodes

        key = (tenant_id, agent_id, embedder.model_id)
        version = store.version(tenant_id, agent_id)
        with self._lock:
            entry = self._entries.get(key)
            if (
                entry
                and entry.version == version
                and time.monotonic() - entry.built < self._max_age
            ):
                self._entries.move_to_end(key)
                return entry.index
        episodes = recent_episodes(store, tenant_id, agent_id, now=now, policy=policy)
        built = EpisodeIndex(episodes, embedder.model_id, embedder.dimension)
        with self._lock:
            self._entries[key] = _Entry(version, time.monotonic(), built)
            self._entries.move_to_end(key)
            while len(self._entries) > self._capacity:
                self._entries.popitem(last=False)
        return built

    def clear(self, tenant_id: str | None = None) -> None:
        """Drop cached indexes (of one tenant, or all)."""
        with self._lock:
            for key in [k for k in self._entries if tenant_id is None or k[0] == tenant_id]:
                del self._entries[key]
