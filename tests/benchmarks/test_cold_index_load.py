"""The cold-index-load benchmark's helpers: its read-unit arithmetic, and that the attributes it
counts as "what ranking reads" are all ranking reads (so its INCLUDE figure is a real option).

Read units of a Query: the summed size of the items returned per page, rounded up to 4 KB, half
a unit when eventually consistent ("Read consumption for Query",
https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html).
"""

from dataclasses import replace

from agent_memory.adapters.aws.dynamodb_codec import s, strings
from agent_memory.adapters.aws.dynamodb_episodes import _episode, _item
from agent_memory.core.model.models import Episode
from agent_memory.core.retrieval.episode_index import EpisodeIndex
from benchmarks.cold_index_load import (
    PAGE_BYTES,
    RANKING_WITH_TASK,
    build_episodes,
    projected,
    read_units,
)
from benchmarks.synthetic import HashingEmbedder

# What the INCLUDE projection leaves out, read back as the empty values an index row would hold.
_EMPTY = {
    "task": s(""),
    "approach_used": s(""),
    "key_findings": strings(()),
    "tools_used": strings(()),
    "reusable_patterns": strings(()),
}


def test_read_units_round_each_page_up_to_4_kb_at_half_a_unit() -> None:
    # Given 150 entries of 1,000 bytes, in pages of at most 100 entries
    sizes = [1_000] * 150
    # When their read units are counted
    units = read_units(sizes, page_items=100)
    # Then page one is 100,000 bytes (25 x 4 KB, 12.5 units) and page two 50,000 (13 x 4 KB)
    assert units == 12.5 + 6.5


def test_read_units_start_a_new_page_at_1_mb() -> None:
    # Given three entries of 400 KB: two fit in a 1 MB page, the third starts the next page
    sizes = [400 * 1024] * 3
    # When their read units are counted
    units = read_units(sizes, page_items=100)
    # Then 800 KB (200 x 4 KB) then 400 KB (100 x 4 KB), half a unit each
    assert 2 * 400 * 1024 <= PAGE_BYTES < 3 * 400 * 1024
    assert units == 100 + 50


def test_an_index_of_the_projected_attributes_ranks_as_the_whole_episodes_do() -> None:
    # Given an agent's episodes written by the product's write path
    dimension = 64
    episodes = build_episodes(12, dimension, seed=3)
    embedder = HashingEmbedder(dimension, f"bench-hashing-{dimension}")
    # ... and the same episodes read back from only the attributes INCLUDE would project
    light = [_episode({**_EMPTY, **projected(_item(e), RANKING_WITH_TASK)}) for e in episodes]
    assert all(e.key_findings == () and e.approach_used == "" for e in light)
    whole_index = EpisodeIndex(episodes, embedder.model_id, dimension)
    light_index = EpisodeIndex(light, embedder.model_id, dimension)
    now = max(e.created_at for e in episodes)
    for text in ("review the liability cap", episodes[5].task_summary, "deploy failed rollback"):
        # When each index is searched
        query = embedder.embed_query(text)
        whole = whole_index.search(text, query, now=now, top_episodes=5)
        lighter = light_index.search(text, query, now=now, top_episodes=5)
        # Then they rank the same episodes and units with the same scores
        assert [(h.episode.run_id, h.score, h.units) for h in lighter.episodes] == [
            (h.episode.run_id, h.score, h.units) for h in whole.episodes
        ]
        assert lighter.units == whole.units
        # ... only the served episodes' unread fields differ (they would be read by key)
        assert [_read(h.episode) for h in lighter.episodes] == [
            _read(h.episode) for h in whole.episodes
        ]


def _read(episode: Episode) -> Episode:
    """``episode`` with the fields the projection leaves out emptied (task_type and domain too)."""
    return replace(
        episode,
        approach_used="",
        key_findings=(),
        tools_used=(),
        reusable_patterns=(),
        task_type=None,
        domain=None,
    )
