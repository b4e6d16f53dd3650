"""A query search of the LangGraph store ranks up to ``limit`` items, as LangGraph's
``InMemoryStore`` does: side by side on the same items and queries, through LangMem's own
memory tools, past runs that are not items, and through the async batch.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Iterator
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langgraph.store.base import BaseStore, Op, PutOp, SearchItem, SearchOp
from langgraph.store.memory import InMemoryStore
from langmem import create_manage_memory_tool, create_search_memory_tool

from agent_memory.core.api.episode_search import MAX_RESULTS
from agent_memory.integrations.langgraph_store import AgentMemoryStore
from agent_memory.sdk import InvalidInputError, MemoryClient
from tests.sdk.conftest import LocalMemory, make_local
from tests.support.embedder import HashingEmbedder

TENANT = "acme"
TOPICS = ["dark mode in the editor", "python test fixtures", "coffee order", "deploy on friday"]
QUERIES = ["dark mode editor", "python tests", "coffee", "friday deploy", "editor theme", "zebra"]
# Namespaces ("side", "n<count>") holding that many items, from none to MOST_ITEMS.
MOST_ITEMS = 12


def item_value(i: int) -> dict[str, Any]:
    """The i-th item of a namespace: a topic's note, every third one red."""
    return {"content": f"Note {i} about {TOPICS[i % len(TOPICS)]}", "color": "red" * (i % 3 == 0)}


def reference_store() -> InMemoryStore:
    """LangGraph's own store, embedding with the test embedder."""
    embedder = HashingEmbedder()
    return InMemoryStore(
        index={
            "dims": embedder.dimension,
            "embed": lambda texts: embedder.embed_documents(texts).tolist(),
        }
    )


@pytest.fixture(scope="module")
def side_by_side(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[BaseStore, ...]]:
    """Our store and InMemoryStore, holding the same items."""
    local = make_local(tmp_path_factory.mktemp("ranking") / "store")
    ours, theirs = AgentMemoryStore(local.client, TENANT), reference_store()
    for count in range(1, MOST_ITEMS + 1):
        for i in range(count):
            for store in (ours, theirs):
                store.put(("side", f"n{count}"), f"k{i}", item_value(i))
    yield ours, theirs
    local.client.close()


@pytest.fixture
def store(memory: LocalMemory) -> AgentMemoryStore:
    return AgentMemoryStore(memory.client, TENANT)


def keys(items: list[SearchItem]) -> list[str]:
    return [i.key for i in items]


@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(0, MOST_ITEMS),
    query=st.sampled_from(QUERIES),
    limit=st.integers(0, MOST_ITEMS + 2),
    offset=st.integers(0, MOST_ITEMS + 1),
    red_only=st.booleans(),
)
def test_a_query_pages_through_every_item_as_in_memory_store_does(
    side_by_side: tuple[BaseStore, BaseStore],
    count: int,
    query: str,
    limit: int,
    offset: int,
    red_only: bool,
) -> None:
    ours, theirs = side_by_side
    # Given the same `count` items in both stores, and a filter or none
    namespace = ("side", f"n{count}")
    wanted = {"color": "red"} if red_only else None
    matching = sum(1 for i in range(count) if not red_only or item_value(i)["color"])
    # When both are searched for the same query, page and filter
    page = ours.search(namespace, query=query, filter=wanted, limit=limit, offset=offset)
    expected = theirs.search(namespace, query=query, filter=wanted, limit=limit, offset=offset)
    # Then both return as many items: up to the limit of those past the offset
    assert len(page) == len(expected) == max(0, min(limit, matching - offset))
    # And ours come best first, each scored
    scores = [i.score for i in page]
    assert None not in scores
    assert scores == sorted(scores, key=lambda s: -cast(float, s))
    # And the page is that slice of the whole ranking, which holds the same items as theirs
    whole = ours.search(namespace, query=query, filter=wanted, limit=max(matching, 1))
    assert keys(page) == keys(whole)[offset : offset + limit]
    everything = theirs.search(namespace, query=query, filter=wanted, limit=max(matching, 1))
    assert sorted(keys(whole)) == sorted(keys(everything))


def test_a_memory_is_found_by_a_query_that_shares_no_word_with_it(
    store: AgentMemoryStore,
) -> None:
    # Given one memory, stored as LangMem stores it, in both stores
    theirs = reference_store()
    for each in (store, theirs):
        each.put(("memories", "u42"), "pref", {"content": "User prefers dark mode"})
    # When it is asked for in other words, as LangMem's search tool asks
    ours = store.search(("memories", "u42"), query="editor theme", limit=10, offset=0)
    expected = theirs.search(("memories", "u42"), query="editor theme", limit=10, offset=0)
    # Then both return it: no threshold stands between a query and the namespace's memories
    assert [i.value["content"] for i in ours] == ["User prefers dark mode"]
    assert keys(ours) == keys(expected) == ["pref"]


def test_a_threshold_is_the_stores_option(memory: LocalMemory) -> None:
    # Given the same memory seen by a store with a similarity threshold and one without
    plain = AgentMemoryStore(memory.client, TENANT)
    gated = AgentMemoryStore(memory.client, TENANT, min_similarity=0.2)
    plain.put(("memories", "u42"), "pref", {"content": "User prefers dark mode"})
    # When both are asked in words the memory does not hold
    # Then only the one without a threshold returns it
    assert keys(plain.search(("memories", "u42"), query="editor theme")) == ["pref"]
    assert gated.search(("memories", "u42"), query="editor theme") == []
    # And both return it asked in its own words
    assert keys(gated.search(("memories", "u42"), query="prefers dark mode")) == ["pref"]


@pytest.mark.parametrize("bad", [1.5, -2, True, "0.5", float("nan"), float("inf")])
def test_a_threshold_out_of_range_is_refused_naming_it(memory: LocalMemory, bad: object) -> None:
    # When a store is built with a threshold that is no similarity
    with pytest.raises(InvalidInputError) as refused:
        AgentMemoryStore(memory.client, TENANT, min_similarity=bad)  # type: ignore[arg-type]
    # Then the error names the option
    assert refused.value.field == "min_similarity"


def test_langmems_own_tools_write_find_and_update_a_memory(store: AgentMemoryStore) -> None:
    # Given LangMem's manage and search tools over the store
    namespace = ("memories", "u42")
    manage = create_manage_memory_tool(namespace, store=store)
    search = create_search_memory_tool(namespace, store=store)

    def memories(query: str) -> list[dict[str, Any]]:
        """What the search tool tells the model, as the model reads it (JSON)."""
        found: list[dict[str, Any]] = json.loads(search.invoke({"query": query}))
        return found

    # When the manage tool creates a memory and the search tool asks for it in other words
    manage.invoke({"content": "User prefers dark mode", "action": "create"})
    found = memories("editor theme")
    # Then it is found, under the key LangMem made (a UUID, read back as put)
    assert [m["value"]["content"] for m in found] == ["User prefers dark mode"]
    key = found[0]["key"]
    assert str(uuid.UUID(key)) == key
    # And the manage tool updates it by that key: one memory, the new content
    manage.invoke({"content": "User prefers light mode", "action": "update", "id": key})
    after = memories("editor theme")
    assert [(m["key"], m["value"]["content"]) for m in after] == [(key, "User prefers light mode")]
    # And deletes it
    manage.invoke({"action": "delete", "id": key})
    assert memories("editor theme") == []


def test_runs_that_are_not_items_leave_the_limit_to_items(
    store: AgentMemoryStore, memory: LocalMemory
) -> None:
    # Given an agent whose ordinary runs match the query best, and five items that match less
    for n in range(12):
        memory.client.finish_run(
            tenant_id=TENANT,
            agent_id="mixed",
            run_id=f"run-{n}",
            task=f"Deploy the billing service on friday, attempt {n}",
        ).wait()
    for i in range(5):
        store.put(("mixed",), f"k{i}", {"content": f"Note {i} about a deploy"})
    # When five items are asked for
    found = store.search(("mixed",), query="deploy billing service friday", limit=5)
    # Then all five are returned, the runs ranked above them skipped
    assert sorted(keys(found)) == [f"k{i}" for i in range(5)]


def test_a_filter_reaches_items_ranked_far_down(store: AgentMemoryStore) -> None:
    # Given twelve items matching the query, and two that do not: the only red ones
    for i in range(12):
        store.put(("notes",), f"k{i}", {"content": f"Deploy note {i}", "color": "blue"})
    for i in range(2):
        store.put(("notes",), f"red{i}", {"content": f"Coffee order {i}", "color": "red"})
    # When the red ones are asked for by the query
    found = store.search(("notes",), query="deploy note", filter={"color": "red"}, limit=2)
    # Then both are returned, from the bottom of the ranking
    assert sorted(keys(found)) == ["red0", "red1"]


def test_the_async_batch_returns_what_the_batch_does(store: AgentMemoryStore) -> None:
    # Given a few items
    for i in range(6):
        store.put(("notes", "u1"), f"k{i}", item_value(i))
    ops = [
        SearchOp(("notes",), query="dark mode editor", limit=3),
        SearchOp(("notes",), query="coffee", limit=2, offset=1),
        SearchOp(("notes",), query="python tests", filter={"color": "red"}),
        SearchOp(("notes",), limit=4, offset=1),
        SearchOp(("notes",), query="dark mode editor", limit=10),
    ]
    # When the same operations run through batch, then through abatch
    synced = store.batch(ops)
    awaited = asyncio.run(store.abatch(ops))

    def shown(results: list[Any]) -> list[Any]:
        return [
            None if r is None else [(i.key, i.score) for i in cast(list[SearchItem], r)]
            for r in results
        ]

    # Then both return the same items, ranked and scored alike, each up to its limit
    assert shown(synced) == shown(awaited)
    assert [len(cast(list[SearchItem], r)) for r in synced] == [3, 2, 2, 4, 6]
    # And a delete in an async batch is seen by the search after it
    deleting: list[Op] = [
        PutOp(("notes", "u1"), "k0", None),
        SearchOp(("notes",), query="dark mode"),
    ]
    after = asyncio.run(store.abatch(deleting))
    assert after[0] is None
    assert sorted(keys(cast(list[SearchItem], after[1]))) == [f"k{i}" for i in range(1, 6)]


class RankingOfRuns:
    """A client whose search ranks ``runs`` ordinary runs (never items) and records how many
    results each search asked for.
    """

    def __init__(self, runs: int) -> None:
        self.runs, self.asked = runs, list[int]()

    def list_agents(self, tenant_id: str) -> list[str]:
        return ["notes"]

    def search_episodes(self, tenant_id: str, agent_id: str, query: str, **options: Any) -> Any:
        self.asked.append(options["limit"])
        hit = {"agent_id": "notes", "run_id": "run", "task": "Not an item", "created_at": 0.0}
        shown = min(options["limit"], self.runs)
        return {"episodes": [{**hit, "score": 0.0}] * shown, "left_out": {"episodes": 0}}


def test_a_search_asks_for_more_while_runs_fill_the_places_up_to_its_most() -> None:
    # Given a ranking of more runs than one search returns, none of them an item
    ranking = RankingOfRuns(runs=1000)
    store = AgentMemoryStore(cast(MemoryClient, ranking), TENANT)
    # When a page is asked for, then one past what a search returns
    first = store.search(("notes",), query="deploy", limit=10, offset=5)
    asked, ranking.asked = ranking.asked, []
    far = store.search(("notes",), query="deploy", limit=10, offset=95)
    # Then the search asks for twice as many each time runs took the places, up to its most
    assert first == far == []
    assert asked == [15, 30, 60, MAX_RESULTS]
    assert ranking.asked == [MAX_RESULTS]


def test_a_search_stops_asking_when_the_ranking_is_whole() -> None:
    # Given a ranking of fewer runs than a page asks for
    ranking = RankingOfRuns(runs=7)
    store = AgentMemoryStore(cast(MemoryClient, ranking), TENANT)
    # When a page is asked for
    assert store.search(("notes",), query="deploy", limit=10) == []
    # Then one search was enough: it returned fewer than asked
    assert ranking.asked == [10]
