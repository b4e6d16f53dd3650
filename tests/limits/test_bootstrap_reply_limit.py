"""Bootstrap's reply within Lambda's response payload, at the product's own maxima.

A synchronous invocation's response payload is at most 6 MB ("Lambda quotas",
https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html; the Invoke API says
the same: https://docs.aws.amazon.com/lambda/latest/dg/API_Invoke.html). Bootstrap is invoked
synchronously by the agent, so a reply over 6 MB is an error the agent cannot work around.

The maxima: the policy's top 3 episodes with their 3 best units each, top 5 facts, and one
procedure; every text at the contract's longest, of 4-byte UTF-8 characters; the context block
repeats an episode's findings and patterns. Sizes are the reply as JSON: UTF-8 as written, and
with non-ASCII escaped (a 4-byte character becomes a 12-byte surrogate pair), the form
``json.dumps`` gives by default and the larger one.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from agent_memory.core.api.bootstrap_reply import reply_bytes
from agent_memory.core.api.contracts import MAX_ITEM_CHARS, MAX_LIST_ITEMS, MAX_TASK_CHARS
from agent_memory.core.model import markers
from agent_memory.core.model.models import (
    Episode,
    EpisodeHit,
    EpisodeUnit,
    FactObservation,
    KbHit,
    ProcedureStatus,
    Review,
    SearchResult,
    UnitHit,
)
from agent_memory.core.model.policies import EpisodicPolicy, Policies, SemanticPolicy
from agent_memory.core.model.requests import BootstrapRequest
from agent_memory.core.workflows.bootstrap import bootstrap
from tests.contract.builders import procedure
from tests.support.memory import Memory, make_memory

LAMBDA_RESPONSE_BYTES = 6 * 1024 * 1024
WIDE = "📨"  # a 4-byte UTF-8 character
EPISODIC = EpisodicPolicy()
SEMANTIC = SemanticPolicy()
REQUEST = BootstrapRequest("acme", "reviewer", "Review the vendor MSA", "contract_review")


def wide(chars: int, mark: str = "") -> str:
    return mark + WIDE * (chars - len(mark))


def largest_hit(rank: int) -> EpisodeHit:
    """An episode at the contract's longest, found with its best units at the policy's
    longest."""
    episode = Episode(
        tenant_id="acme",
        agent_id="reviewer",
        run_id=f"run-{rank}",
        task=wide(MAX_TASK_CHARS),
        task_summary=wide(MAX_ITEM_CHARS, f"episode {rank}"),
        outcome="COMPLETED",
        created_at=1_750_000_000.0,
        expires_at=1_760_000_000.0,
        key_findings=tuple(wide(MAX_ITEM_CHARS) for _ in range(MAX_LIST_ITEMS)),
        approach_used=wide(MAX_TASK_CHARS),
        reusable_patterns=tuple(wide(MAX_ITEM_CHARS) for _ in range(MAX_LIST_ITEMS)),
    )
    units = tuple(
        UnitHit(
            episode.run_id,
            EpisodeUnit("message", i, wide(EPISODIC.max_unit_chars), "user"),
            score=1.0 - i / 10,
            similarity=0.9,
        )
        for i in range(EPISODIC.units_per_episode)
    )
    return EpisodeHit(episode, score=1.0 - rank / 10, similarity=0.9, units=units)


class FoundEpisodes:
    """An episode index cache whose every index finds ``hits``."""

    def __init__(self, hits: tuple[EpisodeHit, ...]) -> None:
        self._hits = hits

    def index(self, *args: Any, **kwargs: Any) -> FoundEpisodes:
        return self

    def search(self, *args: Any, **kwargs: Any) -> SearchResult:
        return SearchResult(self._hits, ())


class FoundFacts:
    """A knowledge base whose every retrieval finds ``count`` facts of the longest content."""

    def __init__(self, count: int) -> None:
        self._count = count

    def retrieve(self, *args: Any, **kwargs: Any) -> list[KbHit]:
        return [
            KbHit(
                wide(MAX_ITEM_CHARS, f"fact {rank}"),
                0.9 - rank / 100,
                {"tenant_id": "acme", "domain": "contracts", "fact_hash": f"h-{rank}"},
            )
            for rank in range(self._count)
        ]


def memory_at_the_maxima(
    root: Path, *, episodes: int = EPISODIC.top_k, facts: int = SEMANTIC.top_k, **policy: Any
) -> Memory:
    """A memory whose bootstrap finds the longest episodes and facts, and a validated
    procedure of 50 steps of 2,000 four-byte characters under a 200-character title."""
    memory = make_memory(root, policies=Policies(**policy))
    memory.ports = replace(
        memory.ports,
        episode_indexes=FoundEpisodes(tuple(largest_hit(r) for r in range(episodes))),  # type: ignore[arg-type]
        knowledge_base=FoundFacts(facts),  # type: ignore[arg-type]
    )
    # The KB's facts are confirmed (and ingested) in the store, as a KB only serves such.
    for rank in range(facts):
        key = ("acme", "contracts", f"h-{rank}")
        memory.ports.facts.observe(
            FactObservation(*key, f"fact {rank}", 0.9, run_id="r", seen_at=1.0, agent_id="reviewer")
        )
        memory.ports.facts.confirm(*key, now=1.0)
        memory.ports.facts.mark_ingested(*key, now=1.0)
    store = memory.ports.procedures
    largest = procedure(
        task_type="contract_review",
        title=wide(200),
        steps=tuple(wide(MAX_ITEM_CHARS, f"step {i}") for i in range(MAX_LIST_ITEMS)),
    )
    store.propose(largest, "run-0")
    assert store.set_status(
        "proc-1",
        tenant_id="acme",
        status=ProcedureStatus.VALIDATED,
        allowed_from=[ProcedureStatus.PENDING],
        now=1.0,
        review=Review("ana"),
    )
    return memory


def sizes(reply: dict[str, Any]) -> tuple[int, int]:
    """(escaped, UTF-8) bytes of the reply as JSON."""
    return len(json.dumps(reply).encode()), len(json.dumps(reply, ensure_ascii=False).encode())


def test_untrimmed_the_reply_at_the_maxima_would_pass_6_mb(tmp_path: Path) -> None:
    # Given memory at the product's maxima, and no budget to speak of
    memory = memory_at_the_maxima(tmp_path, max_reply_bytes=10**9)
    # When a run bootstraps
    reply = bootstrap(REQUEST, memory.ports)
    # Then nothing is trimmed, and the reply is over Lambda's 6 MB as escaped JSON (and not
    # far under it as UTF-8): the limit can bite
    escaped, utf8 = sizes(reply)
    assert reply["truncated"] == {}
    assert escaped > 2 * LAMBDA_RESPONSE_BYTES
    assert utf8 > 0.8 * LAMBDA_RESPONSE_BYTES


def test_the_reply_at_the_maxima_fits_the_budget_and_keeps_the_best_of_every_tier(
    tmp_path: Path,
) -> None:
    # Given memory at the product's maxima, under the default budget
    memory = memory_at_the_maxima(tmp_path)
    budget = Policies().max_reply_bytes
    # When a run bootstraps
    reply = bootstrap(REQUEST, memory.ports)
    # Then the reply, as JSON in either form, is within the budget, far under 6 MB
    escaped, utf8 = sizes(reply)
    assert utf8 <= escaped <= budget < LAMBDA_RESPONSE_BYTES
    # And it says what it trimmed: the lower-ranked episodes and facts first
    assert reply["truncated"]["episodes"] == EPISODIC.top_k - 1
    assert reply["truncated"]["facts"] == SEMANTIC.top_k - 1
    # And it keeps the best of each tier, and every marker of the block
    assert [e["run_id"] for e in reply["episodes"]] == ["run-0"]
    assert [f["fact_hash"] for f in reply["facts"]] == ["h-0"]
    assert reply["procedure"]["procedure_id"] == "proc-1"
    assert reply["procedure"]["steps"][0].startswith("step 0")
    context = reply["context"]
    sections = markers.parse(context).sections
    assert [s.kind for s in sections] == [markers.EPISODIC, markers.SEMANTIC, markers.PROCEDURAL]
    assert "episode 0" in context and "fact 0" in context


@pytest.mark.parametrize("budget", [64 * 1024, 256 * 1024, 4 * 1024 * 1024])
def test_any_budget_from_64_kib_is_held(tmp_path: Path, budget: int) -> None:
    # Given memory at the product's maxima under a budget
    memory = memory_at_the_maxima(tmp_path, max_reply_bytes=budget)
    # When a run bootstraps
    reply = bootstrap(REQUEST, memory.ports)
    # Then the reply is within it, with a section for every tier
    assert reply_bytes(reply) <= sizes(reply)[0] <= budget
    assert reply["episodes"] and reply["facts"] and reply["procedure"]
    assert len(markers.parse(reply["context"]).sections) == 3


def test_the_lowest_ranked_episode_goes_first_and_only_as_much_as_needed(
    tmp_path: Path,
) -> None:
    # Given three of the longest episodes (no facts), under a budget a little smaller than
    # the reply they make
    unbounded = memory_at_the_maxima(tmp_path / "a", facts=0, max_reply_bytes=10**9)
    whole = bootstrap(REQUEST, unbounded.ports)
    budget = reply_bytes(whole) - 1_000_000
    memory = memory_at_the_maxima(tmp_path / "b", facts=0, max_reply_bytes=budget)
    # When a run bootstraps
    reply = bootstrap(REQUEST, memory.ports)
    # Then only the lowest-ranked episode was dropped, and the reply is within the budget
    assert reply["truncated"] == {"episodes": 1}
    assert [e["run_id"] for e in reply["episodes"]] == ["run-0", "run-1"]
    assert reply_bytes(reply) <= budget


def test_a_reply_within_the_budget_is_served_whole(tmp_path: Path) -> None:
    # Given one episode and one fact of the longest (no procedure for this task type), under
    # a budget they fit
    memory = memory_at_the_maxima(tmp_path, episodes=1, facts=1, max_reply_bytes=16 * 2**20)
    request = replace(REQUEST, task_type="other")
    # When a run bootstraps
    reply = bootstrap(request, memory.ports)
    # Then nothing is trimmed
    assert reply["truncated"] == {}
    assert len(reply["episodes"]) == len(reply["facts"]) == 1
    assert len(reply["episodes"][0]["key_findings"]) == MAX_LIST_ITEMS
