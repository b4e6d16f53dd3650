"""A search index over one agent's episodes and their units, cached while the store is unchanged.

Unit vectors (and each episode's summary vector) are kept in one contiguous float32 matrix, so a
query costs one matrix-vector product, one BM25 lookup and a few vector operations; nothing is
rebuilt per query.
"""

from __future__ import annotations

import re
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from agent_memory.core import vectors
from agent_memory.core.lexical import Bm25Index, term_counts
from agent_memory.core.models import Episode, EpisodeUnit, StoredVector
from agent_memory.core.periods import calendar_day, question_period
from agent_memory.core.policies import EpisodicPolicy
from agent_memory.core.ports import Embedder, EpisodeStore, FloatArray

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
    """Hybrid search over fixed episodes: immutable once built, cheap per query.

    The recipe, measured on LoCoMo (``benchmarks/research/RETRIEVAL_RECIPE.md``): every unit is
    matched lexically (BM25 over its own text plus its neighbours' at half weight per step) and
    by its vector; the two z-scored scores are added; an episode is as relevant as its best
    unit; a unit's final score adds its episode's standing, and one standard deviation each
    when the query names its speaker or a calendar period its run falls in.
    """

    def __init__(self, episodes: Sequence[Episode], model_id: str, dimension: int) -> None:
        self.episodes = list(episodes)
        rows: list[tuple[int, int, EpisodeUnit | None]] = []  # (episode, kind, unit)
        counts: list[Mapping[str, float]] = []
        stored: list[StoredVector | None] = []
        starts = []
        for number, episode in enumerate(self.episodes):
            starts.append(len(rows))
            day = calendar_day(episode.created_at)
            messages = sorted((u for u in episode.units if u.kind == "message"), key=_seq)
            own = [term_counts(unit_text(u, day)) for u in messages]
            plain = [term_counts(u.text) for u in messages]
            for position, unit in enumerate(messages):
                rows.append((number, _MESSAGE, unit))
                counts.append(_windowed(own[position], plain, position))
                stored.append(unit.embedding)
            for unit in episode.units:
                if unit.kind != "message":
                    rows.append((number, _FINDING, unit))
                    counts.append(term_counts(unit_text(unit, day)))
                    stored.append(unit.embedding)
            # The episode's own summary competes as one more (unreturned) unit.
            rows.append((number, _SUMMARY, None))
            counts.append(term_counts(f"({day}) {episode.task_summary or episode.task}"))
            stored.append(episode.embedding)
        self.starts = np.array(starts, dtype=np.int64)
        self.unit_episode = np.array([r[0] for r in rows], dtype=np.int32)
        self.unit_kind = np.array([r[1] for r in rows], dtype=np.int8)
        self.units = [r[2] for r in rows]
        self.matrix, self.usable = vectors.stack(stored, model_id, dimension)
        self.lexical = Bm25Index.from_counts(counts)
        self.expires_at = np.array([e.expires_at for e in self.episodes], dtype=np.float64)
        self.created_at = [e.created_at for e in self.episodes]
        self.completed = np.array([e.outcome == "COMPLETED" for e in self.episodes])
        speakers = [u.speaker if u is not None and u.speaker else "" for u in self.units]
        self.speaker_of = np.array(speakers, dtype=object)
        self.speakers = sorted({sp for sp in speakers if sp})

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
        """Rank the live episodes and their units for ``text`` (and its vector ``query``).

        ``min_similarity`` (the embedding model's calibrated threshold) keeps only episodes
        with some unit (or summary) at least that similar to the query; ``None`` ranks all.
        Expired episodes are never returned; ties go to COMPLETED runs, then newer ones.
        """
        live = self.expires_at > now
        if not self.episodes or not live.any():
            return SearchResult((), ())
        unit_live = live[self.unit_episode]
        cosine = np.where(self.usable, self.matrix @ np.asarray(query, dtype=np.float32), 0.0)
        # A unit without a comparable vector counts as average on the vector side.
        dense = np.where(self.usable, cosine, _mean(cosine[unit_live & self.usable]))
        fused = _z(_z(self.lexical.scores(text), unit_live) + _z(dense, unit_live), unit_live)
        best = np.maximum.reduceat(np.where(unit_live, fused, -np.inf), self.starts)
        period = question_period(text)
        in_period = np.array(
            [period is not None and period.contains(t) for t in self.created_at], dtype=np.float32
        )
        episode_score = _z(np.where(live, best, 0.0), live) + in_period
        standing = _z(np.where(live, episode_score, 0.0), live)
        unit_score = fused + in_period[self.unit_episode] + standing[self.unit_episode]
        named = self._named_speaker(text)
        if named is not None:
            unit_score = unit_score + (self.speaker_of == named)
        unit_score = np.where(unit_live, unit_score, -np.inf).astype(np.float32)
        similarity = np.maximum.reduceat(np.where(self.usable, cosine, -1.0), self.starts)
        eligible = live if min_similarity is None else live & (similarity >= min_similarity)
        ranked = sorted(
            np.flatnonzero(eligible).tolist(),
            key=lambda i: (
                -round(float(episode_score[i]), _TIE_DECIMALS),
                not self.completed[i],
                -self.created_at[i],
            ),
        )[:top_episodes]
        returnable = unit_live & (self.unit_kind != _SUMMARY)
        return SearchResult(
            episodes=tuple(
                EpisodeHit(
                    self.episodes[i],
                    float(episode_score[i]),
                    float(similarity[i]),
                    self._top(
                        returnable & (self.unit_episode == i), unit_score, cosine, units_per_episode
                    ),
                )
                for i in ranked
            ),
            units=self._top(returnable, unit_score, cosine, top_units),
        )

    def _named_speaker(self, text: str) -> str | None:
        """The one speaker the query names (whole word, any case), if exactly one."""
        low = text.lower()
        named = [
            sp for sp in self.speakers if re.search(rf"(?<!\w){re.escape(sp.lower())}(?!\w)", low)
        ]
        return named[0] if len(named) == 1 else None

    def _top(
        self, mask: npt.NDArray[np.bool_], score: FloatArray, cosine: FloatArray, count: int
    ) -> tuple[UnitHit, ...]:
        rows = np.flatnonzero(mask)
        if len(rows) > count:
            rows = rows[np.argpartition(-score[rows], count - 1)[:count]]
        rows = rows[np.argsort(-score[rows], kind="stable")]
        return tuple(self._hit(int(r), score, cosine) for r in rows)

    def _hit(self, row: int, score: FloatArray, cosine: FloatArray) -> UnitHit:
        unit = self.units[row]
        assert unit is not None  # summaries are never returned
        run_id = self.episodes[int(self.unit_episode[row])].run_id
        return UnitHit(run_id, unit, float(score[row]), float(cosine[row]))


_MESSAGE, _FINDING, _SUMMARY = 0, 1, 2
# A neighbour lends its words at this weight, halving per step, up to this many steps away.
_NEIGHBOUR_WEIGHT = 0.5
_WINDOW = 2


def _seq(unit: EpisodeUnit) -> int:
    return unit.seq


def unit_text(unit: EpisodeUnit, day: str | None = None) -> str:
    """What a unit is matched as: its run's calendar day, its speaker and its text."""
    body = f"{unit.speaker}: {unit.text}" if unit.speaker else unit.text
    return f"({day}) {body}" if day else body


def _windowed(own: Counter[str], plain: list[Counter[str]], position: int) -> dict[str, float]:
    """A message's own terms plus its neighbours' (their text only: a neighbour's speaker and
    date would put every name in every window).
    """
    window: dict[str, float] = dict(own)
    for step in range(1, _WINDOW + 1):
        weight = _NEIGHBOUR_WEIGHT**step
        for neighbour in (position - step, position + step):
            if 0 <= neighbour < len(plain):
                for term, count in plain[neighbour].items():
                    window[term] = window.get(term, 0.0) + weight * count
    return window


def _mean(values: FloatArray) -> float:
    return float(values.mean()) if len(values) else 0.0


def _z(values: FloatArray, mask: npt.NDArray[np.bool_]) -> FloatArray:
    """Standard scores of ``values`` over the masked items (population std; 1 if flat)."""
    chosen = values[mask]
    if not len(chosen):
        return np.zeros_like(values, dtype=np.float32)
    spread = float(chosen.std()) or 1.0
    return ((values - float(chosen.mean())) / spread).astype(np.float32)


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
