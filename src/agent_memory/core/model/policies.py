"""Memory policies (the README's Policies table) as typed settings with their defaults."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from agent_memory.core.model.models import AGENTS_KEPT

HOUR = 3_600.0
DAY = 86_400.0


@dataclass(frozen=True, slots=True)
class WorkingMemoryPolicy:
    """When to compress a run's messages and how much to keep verbatim."""

    compress_at: int = 30
    keep_recent: int = 15


@dataclass(frozen=True, slots=True)
class RankingPolicy:
    """What a search adds to a unit's score, each in standard deviations of the scores it
    sums (0 turns a component off).

    A unit is scored by its words (BM25 over its own text and its neighbours') and its vector,
    each standardized, summed and standardized again (``lexical``, ``dense``). The query's
    hints are added: a run inside the period the query names (``period``), the newest runs
    for a question about the current state (``recency``: 1 for the newest, 0 for the oldest),
    a unit that dates what it tells for a question about time (``dated``), a unit of the one
    speaker the query names (``speaker``). Its episode's standing among the ranked episodes
    may be added too (``standing``, off by default). Each default was chosen by
    cross-validation on both benchmarks' dev questions: the three time hints as one
    mechanism, and the standing left off, with no held-out gain
    (benchmarks/research/CROSS_VALIDATION.md).
    """

    lexical: float = 1.0
    dense: float = 1.0
    standing: float = 0.0
    period: float = 1.0
    recency: float = 1.0
    dated: float = 0.5
    speaker: float = 1.0

    def __post_init__(self) -> None:
        for name in self.__slots__:
            weight = getattr(self, name)
            if not (math.isfinite(weight) and weight >= 0):
                raise ValueError(f"ranking.{name} must be a finite number >= 0, not {weight!r}")


@dataclass(frozen=True, slots=True)
class EpisodicPolicy:
    """How episodes are kept and found again."""

    retention_days: float = 90.0
    # How episodes' vectors are stored and held in the search index: int8 with a scale per
    # vector (a quarter of the bytes, the default), or float32 (the full vectors: what int8 is
    # measured against, benchmarks/retrieval.py).
    vector_encoding: Literal["int8", "float32"] = "int8"
    candidates: int = 500
    page_size: int = 100
    top_k: int = 3
    # None: use the threshold calibrated for the embedding model (see ``calibration``).
    min_similarity: float | None = None
    # With a share here, a run also reaches that gate when it holds this share of the task's
    # word weight (the IDF over runs of the task's distinct terms). None, the default: the
    # gate is the embedding model's alone. At 0.5 the words served one question's evidence
    # in a hundred more and a block for 3% more tasks the memory held no answer to
    # (benchmarks/research/CROSS_VALIDATION.md).
    min_word_share: float | None = None
    # Each human/AI message of a run is kept as a searchable unit, within these bounds (the
    # total also keeps a consolidation step's state under Step Functions' 256 KB).
    max_units: int = 300
    # A chat answer kept whole: 4,000 characters hold 99.8% of the assistant messages of
    # LongMemEval's haystacks (1,000 held 24%), so its words are matched where its answer is.
    max_unit_chars: int = 4_000
    max_unit_total_chars: int = 100_000
    # A unit is embedded by its first this many characters (as it is matched: its day, speaker
    # and text); all of its kept text is matched by its words. The embedding model was trained
    # on 128-token inputs (about 500 characters of English): a longer text costs model time in
    # proportion and blurs its mean-pooled vector, while the words of a long message, the
    # assistant's answers and pasted output mostly, are what lexical search matches anyway
    # (benchmarks/research/LONGMEMEVAL.md).
    embedded_chars: int = 512
    # A message shorter than that can be embedded with this many messages on each side of it
    # in what room is left. 0, each message alone: its neighbours' words reach it anyway
    # (``neighbour_window``), and their text in its vector showed no held-out gain in the
    # cross-validation, at 30% more text through the model on LongMemEval
    # (benchmarks/research/CROSS_VALIDATION.md).
    embedded_context: int = 0
    units_per_episode: int = 3
    # The memory context shows the search's best moments (message units) overall, best first,
    # under their episodes, while their shown text (each cut to 300 characters) fits in this
    # many characters; an episode past the top_k joins the block (its task, date and moments
    # only) when it holds one of them, up to served_episodes in all. Evidence spread over
    # several runs ("how many times...") reaches the block, in about 1,000 tokens of moments
    # (benchmarks/research/LONGMEMEVAL.md).
    served_moment_chars: int = 4_000
    served_episodes: int = 8
    # Episodes whose units are ranked in full when more are live: half nearest by centroid,
    # half best matching the query's words (benchmarks/research/RETRIEVAL_RECIPE.md).
    rerank_candidates: int = 64
    # With a reranker (MemoryPorts.reranker), this many of the index's best episodes are
    # reordered by it before the top_k are served: the misses of the index alone mostly sit
    # just below the cut (benchmarks/research/RETRIEVAL_RECIPE.md).
    reranked_episodes: int = 10
    # How a search weighs the words, the vectors and the query's hints (RankingPolicy).
    ranking: RankingPolicy = field(default_factory=RankingPolicy)
    # A message is matched by its own words and by its neighbours' up to this many messages
    # away, at this weight per step (a short turn means what the turns around it say).
    neighbour_window: int = 2
    neighbour_weight: float = 0.5


@dataclass(frozen=True, slots=True)
class Independence:
    """When a run's sighting of a fact counts as an independent confirmation of it.

    A new run's sighting counts unless its agent had a counted confirmation of the fact less
    than ``same_agent_gap`` seconds away, or any agent had one less than ``any_agent_gap``
    seconds away: an agent's burst of runs counts once. Times are the consolidation clock at
    the sighting (``FactObservation.seen_at``), never a time the agent reports. Stores apply
    the rule atomically with the sighting (``FactStore.observe``).
    """

    same_agent_gap: float = HOUR
    # Agent ids are the caller's word within a tenant: a gap across agents is what holds
    # against one caller that names a new agent for every run (0: trust agent ids).
    any_agent_gap: float = 0.0

    def __post_init__(self) -> None:
        for name in ("same_agent_gap", "any_agent_gap"):
            gap = getattr(self, name)
            if not (math.isfinite(gap) and gap >= 0):
                raise ValueError(f"{name} must be a finite number of seconds >= 0, not {gap!r}")

    def counted(
        self, last_counted: Mapping[str, float], agent_id: str, at: float
    ) -> dict[str, float] | None:
        """The agents' last counted times after a new run of ``agent_id`` sees the fact at
        ``at``, or None if the sighting does not count.

        ``last_counted`` holds, per agent, when its last counted confirmation was; the result
        keeps the :data:`~agent_memory.core.model.models.AGENTS_KEPT` agents that counted last.
        """
        mine = last_counted.get(agent_id)
        # A gap either side: consolidation clocks of two machines may disagree a little.
        if mine is not None and abs(at - mine) < self.same_agent_gap:
            return None
        if any(abs(at - t) < self.any_agent_gap for t in last_counted.values()):
            return None
        after = {**last_counted, agent_id: max(at, mine if mine is not None else at)}
        latest = sorted(after.items(), key=lambda kv: (-kv[1], kv[0]))[:AGENTS_KEPT]
        return dict(sorted(latest))

    def counts_again(self, last_counted: Mapping[str, float]) -> dict[str, float]:
        """Per agent of ``last_counted``, the earliest time from which a new run of it counts
        again (after every counted confirmation so far): its own gap since its last one, and
        the gap across agents since the latest of all.
        """
        return {agent: self.counts_from(last_counted, agent) for agent in sorted(last_counted)}

    def counts_from(self, last_counted: Mapping[str, float], agent_id: str | None) -> float:
        """The earliest time a new run of ``agent_id`` counts (None: an agent with no counted
        confirmation in ``last_counted``); ``-inf`` when nothing holds it back.
        """
        across = max(last_counted.values(), default=-math.inf) + self.any_agent_gap
        own = None if agent_id is None else last_counted.get(agent_id)
        return across if own is None else max(own + self.same_agent_gap, across)


@dataclass(frozen=True, slots=True)
class SemanticPolicy:
    """Which facts are kept, when they are promoted, and how they are served.

    A fact is promoted once ``confirmations`` of its sightings counted as independent
    (``independence``) and those came from at least ``min_distinct_agents`` agents.
    """

    min_confidence: float = 0.7
    confirmations: int = 3
    independence: Independence = field(default_factory=Independence)
    min_distinct_agents: int = 1
    top_k: int = 5
    # Bedrock KB relevance score floor; None: the embedding model's calibrated value.
    min_score: float | None = None
    default_domain: str = "general"

    def __post_init__(self) -> None:
        # A fact remembers the agents of its last AGENTS_KEPT counted confirmations only.
        if not 1 <= self.min_distinct_agents <= AGENTS_KEPT:
            raise ValueError(f"min_distinct_agents must be within 1..{AGENTS_KEPT}")


@dataclass(frozen=True, slots=True)
class ProceduralPolicy:
    """When a procedure is trusted, and which reports on it count."""

    trial_uses: int = 3
    # A run's feedback counts only with the serving receipt its bootstrap handed out, for
    # this long after (a run longer than that, or replayed later, reports nothing).
    receipt_valid_days: float = 30.0


@dataclass(frozen=True, slots=True)
class DecayPolicy:
    """What forgetting removes or flags (never deletes a procedure)."""

    failed_episode_days: float = 7.0
    procedure_unused_days: float = 60.0
    procedure_min_success: float = 0.6
    procedure_min_uses: int = 3
    pending_fact_days: float = 30.0
    page_size: int = 100


@dataclass(frozen=True, slots=True)
class Policies:
    """Every policy, with the defaults the README's Policies table lists; each can be overridden."""

    working: WorkingMemoryPolicy = field(default_factory=WorkingMemoryPolicy)
    episodic: EpisodicPolicy = field(default_factory=EpisodicPolicy)
    semantic: SemanticPolicy = field(default_factory=SemanticPolicy)
    procedural: ProceduralPolicy = field(default_factory=ProceduralPolicy)
    decay: DecayPolicy = field(default_factory=DecayPolicy)
    # Bootstrap's reply is trimmed, lowest-ranked content first, to this many bytes of JSON
    # (non-ASCII escaped: the larger form). Lambda refuses a synchronous response over 6 MB,
    # which the longest memories the product accepts would pass; at least 64 KiB.
    max_reply_bytes: int = 1_048_576
