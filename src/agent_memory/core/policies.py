"""Memory policies (DESIGN.md §5) as typed settings with their defaults."""

from __future__ import annotations

from dataclasses import dataclass, field

DAY = 86_400.0


@dataclass(frozen=True, slots=True)
class WorkingMemoryPolicy:
    """When to compress a run's messages and how much to keep verbatim."""

    compress_at: int = 30
    keep_recent: int = 15


@dataclass(frozen=True, slots=True)
class EpisodicPolicy:
    """How episodes are kept and found again."""

    retention_days: float = 90.0
    candidates: int = 500
    page_size: int = 100
    top_k: int = 3
    # None: use the threshold calibrated for the embedding model (see ``calibration``).
    min_similarity: float | None = None
    # Each human/AI message of a run is kept as a searchable unit, within these bounds (the
    # total also keeps a consolidation step's state under Step Functions' 256 KB).
    max_units: int = 300
    max_unit_chars: int = 1_000
    max_unit_total_chars: int = 100_000
    units_per_episode: int = 3
    # Episodes whose units are ranked in full when more are live: half nearest by centroid,
    # half best matching the query's words (benchmarks/research/RETRIEVAL_RECIPE.md).
    rerank_candidates: int = 64
    # With a reranker (MemoryPorts.reranker), this many of the index's best episodes are
    # reordered by it before the top_k are served: the misses of the index alone mostly sit
    # just below the cut (benchmarks/research/RETRIEVAL_RECIPE.md).
    reranked_episodes: int = 10


@dataclass(frozen=True, slots=True)
class SemanticPolicy:
    """Which facts are kept, when they are promoted, and how they are served."""

    min_confidence: float = 0.7
    confirmations: int = 3
    top_k: int = 5
    # Bedrock KB relevance score floor; None: the embedding model's calibrated value.
    min_score: float | None = None
    default_domain: str = "general"


@dataclass(frozen=True, slots=True)
class ProceduralPolicy:
    """When a procedure is trusted and when it is flagged."""

    trial_uses: int = 3


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
    """Every policy, with DESIGN.md §5 defaults; each field can be overridden."""

    working: WorkingMemoryPolicy = field(default_factory=WorkingMemoryPolicy)
    episodic: EpisodicPolicy = field(default_factory=EpisodicPolicy)
    semantic: SemanticPolicy = field(default_factory=SemanticPolicy)
    procedural: ProceduralPolicy = field(default_factory=ProceduralPolicy)
    decay: DecayPolicy = field(default_factory=DecayPolicy)
    # Bootstrap's reply is trimmed, lowest-ranked content first, to this many bytes of JSON
    # (non-ASCII escaped: the larger form). Lambda refuses a synchronous response over 6 MB,
    # which the longest memories the product accepts would pass; at least 64 KiB.
    max_reply_bytes: int = 1_048_576
