"""The LangGraph store over agent-memory: LangGraph's own store tests, ported, on a real local
store (SQLite, consolidation, retrieval; fake embedder and PII detector at the model boundary).

LangGraph's store tests live in its repository, not in the wheel, and build their stores
(``InMemoryStore``, ``SqliteStore``) inside each test, so they cannot run as they are. Ported
here, case for case, from ``libs/checkpoint/tests/test_store.py`` (the ``list_namespaces``
tests, ``test_cannot_put_empty_namespace``, the vector tests) and
``libs/checkpoint-sqlite/tests/test_store.py`` (the batch tests, ``TestSqliteStore``,
``test_basic_store_operations``, ``test_list_namespaces_operations``, ``test_search_items``,
the namespace-boundary tests, the numeric, boolean and hyphenated-key filter tests). Where an
assertion cannot hold, the test says why: a query search's score is the product's ranking's
(it orders one search's results, it is no similarity to compare across searches); values
are scrubbed of PII; the test embedder reads ASCII words only. Not ported: SQL-specific cases
(injection, migrations, glob escaping, index use), the ``AsyncBatchedBaseStore`` tests (a
LangGraph class this store does not use), and labels no agent id can hold (``*``, ``%``, a
trailing newline: refused here, see ``test_namespaces_that_are_not_agent_ids_are_refused``).
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterable
from pathlib import Path
from typing import cast

import pytest
from langgraph.store.base import (
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    SearchOp,
)

from agent_memory.integrations.langgraph_store import AgentMemoryStore, run_id_of
from tests.sdk.conftest import TEST_POLICIES, LocalMemory, make_local

TENANT = "acme"
# The test policies' episode threshold: the test embedder's vectors of unrelated texts sit
# below it.
THRESHOLD = TEST_POLICIES.episodic.min_similarity


@pytest.fixture
def store(memory: LocalMemory) -> AgentMemoryStore:
    return AgentMemoryStore(memory.client, TENANT)


@pytest.fixture
def gated(memory: LocalMemory) -> AgentMemoryStore:
    """The same memory as ``store``, searched under a similarity threshold."""
    return AgentMemoryStore(memory.client, TENANT, min_similarity=THRESHOLD)


# --- libs/checkpoint-sqlite/tests/test_store.py: the batch tests ---------------------------


def test_batch_order(store: AgentMemoryStore) -> None:
    # Given two items in two namespaces
    store.put(("test", "foo"), "key1", {"data": "value1"})
    store.put(("test", "bar"), "key2", {"data": "value2"})
    ops: list[Op] = [
        GetOp(namespace=("test", "foo"), key="key1"),
        PutOp(namespace=("test", "bar"), key="key2", value={"data": "value2"}),
        SearchOp(namespace_prefix=("test",), filter={"data": "value1"}, limit=10, offset=0),
        ListNamespacesOp(match_conditions=None, max_depth=None, limit=10, offset=0),
        GetOp(namespace=("test",), key="key3"),
    ]
    # When one batch mixes every kind of operation
    results = store.batch(ops)
    # Then each result answers its operation, in order
    assert len(results) == 5
    first = results[0]
    assert isinstance(first, Item)
    assert first.value == {"data": "value1"}
    assert first.key == "key1"
    assert first.namespace == ("test", "foo")
    assert results[1] is None
    found = cast(list[Item], results[2])
    assert [(i.key, i.value) for i in found] == [("key1", {"data": "value1"})]
    listed = cast(list[tuple[str, ...]], results[3])
    assert ("test", "foo") in listed
    assert ("test", "bar") in listed
    assert results[4] is None

    # When reordered, a put in the middle of the batch
    reordered: list[Op] = [
        SearchOp(namespace_prefix=("test",), filter=None, limit=5, offset=0),
        GetOp(namespace=("test", "bar"), key="key2"),
        ListNamespacesOp(match_conditions=None, max_depth=None, limit=5, offset=0),
        PutOp(namespace=("test",), key="key3", value={"data": "value3"}),
        GetOp(namespace=("test", "foo"), key="key1"),
    ]
    results = store.batch(reordered)
    # Then the results still follow the operations, and the put is there afterwards
    assert len(cast(list[Item], results[0])) >= 2
    second = results[1]
    assert isinstance(second, Item)
    assert second.value == {"data": "value2"}
    assert second.namespace == ("test", "bar")
    assert len(cast(list[tuple[str, ...]], results[2])) > 0
    assert results[3] is None
    last = results[4]
    assert isinstance(last, Item)
    assert last.value == {"data": "value1"}
    third = store.get(("test",), "key3")
    assert third is not None and third.value == {"data": "value3"}


def test_batch_get_ops(store: AgentMemoryStore) -> None:
    # Given two items
    store.put(("test",), "key1", {"data": "value1"})
    store.put(("test",), "key2", {"data": "value2"})
    # When three keys are read in one batch, one of them absent
    results = store.batch(
        [
            GetOp(namespace=("test",), key="key1"),
            GetOp(namespace=("test",), key="key2"),
            GetOp(namespace=("test",), key="key3"),
        ]
    )
    # Then the two present come back, the absent one is None
    assert [cast(Item, r).key for r in results[:2]] == ["key1", "key2"]
    assert results[2] is None


def test_batch_put_ops(store: AgentMemoryStore) -> None:
    # When a batch puts two items and deletes a third that never existed
    results = store.batch(
        [
            PutOp(namespace=("test",), key="key1", value={"data": "value1"}),
            PutOp(namespace=("test",), key="key2", value={"data": "value2"}),
            PutOp(namespace=("test",), key="key3", value=None),
        ]
    )
    # Then every result is None and the two puts are readable
    assert results == [None, None, None]
    item1, item2 = store.get(("test",), "key1"), store.get(("test",), "key2")
    assert item1 is not None and item1.value == {"data": "value1"}
    assert item2 is not None and item2.value == {"data": "value2"}
    assert store.get(("test",), "key3") is None


def test_batch_search_ops(store: AgentMemoryStore) -> None:
    # Given three items under ("test",), two tagged "a"
    for namespace, key, value in [
        (("test", "foo"), "key1", {"data": "value1", "tag": "a"}),
        (("test", "bar"), "key2", {"data": "value2", "tag": "a"}),
        (("test", "baz"), "key3", {"data": "value3", "tag": "b"}),
    ]:
        store.put(namespace, key, value)
    # When three searches run in one batch
    results = store.batch(
        [
            SearchOp(namespace_prefix=("test",), filter={"tag": "a"}, limit=10, offset=0),
            SearchOp(namespace_prefix=("test",), filter=None, limit=2, offset=0),
            SearchOp(namespace_prefix=("test", "foo"), filter=None, limit=10, offset=0),
        ]
    )
    tagged, first_two, in_foo = (cast(list[Item], r) for r in results)
    # Then the filter, the limit and the prefix each hold
    assert len(tagged) == 2 and all(i.value["tag"] == "a" for i in tagged)
    assert len(first_two) == 2
    assert [i.namespace for i in in_foo] == [("test", "foo")]


def test_batch_list_namespaces_ops(store: AgentMemoryStore) -> None:
    # Given four namespaces, three of them ending in "public"
    data = [
        (("test", "documents", "public"), "doc1", {"content": "public doc"}),
        (("test", "documents", "private"), "doc2", {"content": "private doc"}),
        (("test", "images", "public"), "img1", {"content": "public image"}),
        (("prod", "documents", "public"), "doc3", {"content": "prod doc"}),
    ]
    for namespace, key, value in data:
        store.put(namespace, key, value)
    # When listed whole, to depth 2, and by suffix
    results = store.batch(
        [
            ListNamespacesOp(match_conditions=None, max_depth=None, limit=10, offset=0),
            ListNamespacesOp(match_conditions=None, max_depth=2, limit=10, offset=0),
            ListNamespacesOp(
                match_conditions=(MatchCondition("suffix", ("public",)),),
                max_depth=None,
                limit=10,
                offset=0,
            ),
        ]
    )
    every, shallow, public = (cast(list[tuple[str, ...]], r) for r in results)
    # Then each listing holds what it asked for
    assert len(every) == len(data)
    assert shallow and all(len(ns) <= 2 for ns in shallow)
    assert len(public) == 3 and all(ns[-1] == "public" for ns in public)


# --- TestSqliteStore and test_basic_store_operations -----------------------------------------


def test_basic_store_ops(store: AgentMemoryStore) -> None:
    # Given an item put in a namespace
    namespace = ("test", "documents")
    store.put(namespace, "doc1", {"title": "Test Document", "content": "Hello, World!"})
    # When it is read back
    item = store.get(namespace, "doc1")
    # Then it is the item put
    assert item is not None
    assert (item.namespace, item.key) == (namespace, "doc1")
    assert item.value == {"title": "Test Document", "content": "Hello, World!"}

    # When the key is put again
    updated = {"title": "Updated Document", "content": "Hello, Updated!"}
    store.put(namespace, "doc1", updated)
    again = store.get(namespace, "doc1")
    # Then the new value replaces the old; its creation time is kept, its update time moves
    assert again is not None and again.value == updated
    assert again.created_at == item.created_at
    assert again.updated_at >= item.updated_at
    # And another namespace does not hold the key
    assert store.get(("test", "other_documents"), "doc1") is None

    # When it is deleted
    store.delete(namespace, "doc1")
    # Then it is gone
    assert store.get(namespace, "doc1") is None


def test_basic_store_operations(store: AgentMemoryStore) -> None:
    uid = uuid.uuid4().hex
    namespace = (uid, "test", "documents")
    # Given an empty prefix
    assert store.search((uid,)) == []
    # When an item is put, updated, and a second one added
    store.put(namespace, "doc1", {"title": "Test Document", "content": "Hello, World!"})
    item = store.get(namespace, "doc1")
    assert item is not None and item.created_at is not None and item.updated_at is not None
    store.put(namespace, "doc1", {"title": "Updated Test Document", "content": "Hello, LangGraph!"})
    updated = store.get(namespace, "doc1")
    assert updated is not None
    assert updated.value == {"title": "Updated Test Document", "content": "Hello, LangGraph!"}
    assert updated.updated_at >= item.updated_at
    assert store.get((uid, "test", "other_documents"), "doc1") is None
    store.put(namespace, "doc2", {"title": "Another Document", "content": "Greetings!"})
    # Then a search of the prefix lists both, once each (the update replaced the first)
    items = store.search((uid, "test"), limit=10)
    assert sorted(i.key for i in items) == ["doc1", "doc2"]
    assert (uid, "test", "documents") in store.list_namespaces(prefix=(uid, "test"))
    # When both are deleted, nothing is left
    store.delete(namespace, "doc1")
    store.delete(namespace, "doc2")
    assert store.get(namespace, "doc1") is None
    assert store.get(namespace, "doc2") is None
    assert store.search((uid, "test"), limit=10) == []
    assert store.list_namespaces(prefix=(uid,)) == []


def test_search(store: AgentMemoryStore) -> None:
    # Given three items, two by Alice
    data = [
        (
            ("test", "docs"),
            "doc1",
            {"title": "First Doc", "author": "Alice", "tags": ["important"]},
        ),
        (("test", "docs"), "doc2", {"title": "Second Doc", "author": "Bob", "tags": ["draft"]}),
        (("test", "images"), "img1", {"title": "Image 1", "author": "Alice", "tags": ["final"]}),
    ]
    for namespace, key, value in data:
        store.put(namespace, key, value)
    # Then the prefix, the namespace, the filter and the paging each hold
    assert len(store.search(("test",))) == 3
    docs = store.search(("test", "docs"))
    assert len(docs) == 2 and all(i.namespace == ("test", "docs") for i in docs)
    alice = store.search(("test",), filter={"author": "Alice"})
    assert len(alice) == 2 and all(i.value["author"] == "Alice" for i in alice)
    assert len(store.search(("test",), limit=2)) == 2
    assert len(store.search(("test",), offset=2)) == 1
    # And without a query the newest update comes first (the episodes' order)
    assert [i.key for i in store.search(("test",))] == ["img1", "doc2", "doc1"]


def test_search_items(store: AgentMemoryStore) -> None:
    base = "test_search_items"
    namespaces = [
        (base, "documents", "user1"),
        (base, "documents", "user2"),
        (base, "reports", "department1"),
        (base, "reports", "department2"),
    ]
    values = [
        {"title": "Doc 1", "author": "John Doe", "tags": ["important"]},
        {"title": "Doc 2", "author": "Jane Smith", "tags": ["draft"]},
        {"title": "Report A", "author": "John Doe", "tags": ["final"]},
        {"title": "Report B", "author": "Alice Johnson", "tags": ["draft"]},
    ]
    # Given four items in four namespaces
    for namespace, value in zip(namespaces, values, strict=True):
        store.put(namespace, f"item_{namespace[-1]}", value)
    # Then searches by prefix, pages, and filters (lists compared whole) each hold
    docs = store.search((base, "documents"))
    assert len(docs) == 2 and all(i.namespace[1] == "documents" for i in docs)
    reports = store.search((base, "reports"))
    assert len(reports) == 2 and all(i.namespace[1] == "reports" for i in reports)
    first = store.search((base,), limit=2, offset=0)
    second = store.search((base,), limit=2, offset=2)
    assert len(first) == len(second) == 2
    assert {i.key for i in first}.isdisjoint({i.key for i in second})
    assert len(store.search((base,))) == 4
    john = store.search((base,), filter={"author": "John Doe"})
    assert len(john) == 2 and all(i.value["author"] == "John Doe" for i in john)
    drafts = store.search((base,), filter={"tags": ["draft"]})
    assert len(drafts) == 2 and all("draft" in i.value["tags"] for i in drafts)


def test_search_namespace_segment_boundary(store: AgentMemoryStore) -> None:
    # Given namespaces whose first labels share a prefix of characters
    store.put(("user", "a"), "k", {"v": 1})
    store.put(("user_extra", "a"), "k", {"v": 2})
    store.put(("username",), "k", {"v": 3})
    # Then a prefix matches whole labels only, case-sensitively
    assert [i.value["v"] for i in store.search(("user",))] == [1]
    assert store.search(("User",)) == []
    assert store.list_namespaces(prefix=("user",)) == [("user", "a")]
    # And an empty prefix is the whole store
    assert len(store.search(())) == 3


# --- libs/checkpoint/tests/test_store.py: list_namespaces --------------------------------


def put_each(store: AgentMemoryStore, namespaces: Iterable[tuple[str, ...]]) -> None:
    for i, namespace in enumerate(namespaces):
        store.put(namespace, f"id_{i}", {"data": f"value_{i:02d}"})


def test_list_namespaces_basic(store: AgentMemoryStore) -> None:
    # Given nine namespaces
    put_each(
        store,
        [
            ("a", "b", "c"),
            ("a", "b", "d", "e"),
            ("a", "b", "d", "i"),
            ("a", "b", "f"),
            ("a", "c", "f"),
            ("b", "a", "f"),
            ("users", "123"),
            ("users", "456", "settings"),
            ("admin", "users", "789"),
        ],
    )
    # Then prefixes, suffixes, both, depth, paging and wildcards list as LangGraph's stores do
    ab = [("a", "b", "c"), ("a", "b", "d", "e"), ("a", "b", "d", "i"), ("a", "b", "f")]
    assert store.list_namespaces(prefix=("a", "b")) == ab
    assert store.list_namespaces(suffix=("f",)) == [
        ("a", "b", "f"),
        ("a", "c", "f"),
        ("b", "a", "f"),
    ]
    assert store.list_namespaces(prefix=("a",), suffix=("f",)) == [("a", "b", "f"), ("a", "c", "f")]
    assert store.list_namespaces(prefix=("a", "b"), max_depth=3) == [
        ("a", "b", "c"),
        ("a", "b", "d"),
        ("a", "b", "f"),
    ]
    assert store.list_namespaces(prefix=("a", "b"), limit=2) == ab[:2]
    assert store.list_namespaces(prefix=("a", "b"), offset=2) == ab[2:]
    assert store.list_namespaces(prefix=("a", "*", "f")) == [("a", "b", "f"), ("a", "c", "f")]
    assert store.list_namespaces(suffix=("*", "f")) == [
        ("a", "b", "f"),
        ("a", "c", "f"),
        ("b", "a", "f"),
    ]
    assert store.list_namespaces(prefix=("nonexistent",)) == []
    assert store.list_namespaces(prefix=("users", "123")) == [("users", "123")]


def test_list_namespaces_with_wildcards(store: AgentMemoryStore) -> None:
    put_each(
        store,
        [
            ("users", "123"),
            ("users", "456"),
            ("users", "789", "settings"),
            ("admin", "users", "789"),
            ("guests", "123"),
            ("guests", "456", "preferences"),
        ],
    )
    assert store.list_namespaces(prefix=("users", "*")) == [
        ("users", "123"),
        ("users", "456"),
        ("users", "789", "settings"),
    ]
    assert store.list_namespaces(suffix=("*", "preferences")) == [("guests", "456", "preferences")]
    assert store.list_namespaces(prefix=("*", "users"), suffix=("*", "settings")) == []


def test_list_namespaces_pagination_and_depth(store: AgentMemoryStore) -> None:
    # Given twenty namespaces under one prefix, and deeper ones elsewhere
    put_each(store, [("namespace", f"sub_{i:02d}") for i in range(20)])
    put_each(store, [("a", "b", "c", "d"), ("a", "g"), ("h", "i", "j", "k")])
    # Then pages follow the sorted order, and depth truncates and merges
    for offset in (0, 5, 15):
        expected = [("namespace", f"sub_{i:02d}") for i in range(offset, offset + 5)]
        assert store.list_namespaces(prefix=("namespace",), limit=5, offset=offset) == expected
    assert store.list_namespaces(max_depth=2, prefix=("a",)) == [("a", "b"), ("a", "g")]
    assert store.list_namespaces(max_depth=2, suffix=("k",)) == [("h", "i")]


def test_list_namespaces_operations(store: AgentMemoryStore) -> None:
    pref = str(uuid.uuid4())
    namespaces = [
        (pref, "test", "documents", "public", pref),
        (pref, "test", "documents", "private", pref),
        (pref, "test", "images", "public", pref),
        (pref, "test", "images", "private", pref),
        (pref, "prod", "documents", "public", pref),
        (pref, "prod", "documents", "some", "nesting", "public", pref),
        (pref, "prod", "documents", "private", pref),
    ]
    for namespace in namespaces:
        store.put(namespace, "dummy", {"content": "dummy"})
    assert len(store.list_namespaces(prefix=(pref, "test"))) == 4
    assert len(store.list_namespaces(prefix=(pref, "test", "documents"))) == 2
    assert len(store.list_namespaces(suffix=("public", pref))) == 4
    assert len(store.list_namespaces(prefix=(pref, "test"), suffix=("public", pref))) == 2
    assert len(store.list_namespaces(prefix=(pref, "*", "documents"))) == 5
    assert len(store.list_namespaces(suffix=("*", "public", pref))) == 4
    assert store.list_namespaces(suffix=("some", "*", "public", pref)) == [namespaces[5]]
    assert all(len(ns) <= 3 for ns in store.list_namespaces(max_depth=3))
    deep = store.list_namespaces(max_depth=4, prefix=(pref, "*", "documents"))
    assert len(set(deep)) == len(deep) == 5
    assert len(store.list_namespaces(prefix=(pref,), limit=3)) == 3
    assert len(store.list_namespaces(prefix=(pref,), offset=3)) == len(namespaces) - 3
    assert set(store.list_namespaces(prefix=(pref,))) == set(namespaces)
    # When every item is deleted, no namespace is left
    for namespace in namespaces:
        store.delete(namespace, "dummy")
    assert store.list_namespaces(prefix=(pref,)) == []


def test_list_namespaces_empty_store(store: AgentMemoryStore) -> None:
    assert store.list_namespaces() == []


def test_cannot_put_empty_namespace(store: AgentMemoryStore) -> None:
    doc = {"foo": "bar"}
    # Then LangGraph's own namespace rules hold, through the API and through batch
    for bad in [(), ("the", "thing.about"), ("some", "fun", ""), ("langgraph", "foo")]:
        with pytest.raises(InvalidNamespaceError):
            store.put(bad, "foo", doc)
        with pytest.raises(InvalidNamespaceError):
            asyncio.run(store.aput(bad, "foo", doc))
    with pytest.raises(InvalidNamespaceError):
        store.batch([PutOp(("the", "thing.about"), "foo", doc)])
    # And "langgraph" is a label like any other below the root, or through batch
    store.put(("foo", "langgraph", "foo"), "bar", doc)
    item = store.get(("foo", "langgraph", "foo"), "bar")
    assert item is not None and item.value == doc
    assert store.search(("foo", "langgraph", "foo"), query="bar")[0].value == doc
    store.delete(("foo", "langgraph", "foo"), "bar")
    assert store.get(("foo", "langgraph", "foo"), "bar") is None
    store.batch([PutOp(("langgraph", "foo"), "bar", doc)])
    assert store.search(("langgraph", "foo"))[0].value == doc


def test_async_operations(store: AgentMemoryStore) -> None:
    async def scenario() -> tuple[Item | None, list[str], Item | None]:
        await store.aput(("valid", "namespace"), "key", {"foo": "bar"})
        got = await store.aget(("valid", "namespace"), "key")
        found = [i.key for i in await store.asearch(("valid",), query="bar")]
        await store.adelete(("valid", "namespace"), "key")
        return got, found, await store.aget(("valid", "namespace"), "key")

    # When put, read, searched and deleted through the async API
    got, found, after = asyncio.run(scenario())
    # Then each behaves as its sync twin
    assert got is not None and got.value == {"foo": "bar"}
    assert found == ["key"]
    assert after is None


# --- libs/checkpoint/tests/test_store.py: the vector tests ---------------------------------


def test_vector_insert_with_auto_embedding(store: AgentMemoryStore) -> None:
    for key, value in [
        ("doc1", {"text": "short text"}),
        ("doc2", {"text": "longer text document"}),
        ("doc3", {"text": "longest text document here"}),
        ("doc4", {"description": "text in description field"}),
        ("doc5", {"content": "text in content field"}),
        ("doc6", {"body": "text in body field"}),
    ]:
        store.put(("test",), key, value)
    # When searched for text about documents
    keys = [r.key for r in store.search(("test",), query="text document")]
    # Then the documents rank first (LangGraph's test: "doc2" and "doc3" are found)
    assert {"doc2", "doc3"} <= set(keys)
    assert set(keys[:2]) == {"doc2", "doc3"}


def test_vector_update_with_embedding(store: AgentMemoryStore, gated: AgentMemoryStore) -> None:
    store.put(("test",), "doc1", {"text": "zany zebra Xerxes"})
    store.put(("test",), "doc2", {"text": "something about dogs"})
    store.put(("test",), "doc3", {"text": "text about birds"})
    # Given doc1 is the best match of its words
    initial = store.search(("test",), query="Zany Xerxes")
    assert initial[0].key == "doc1"
    initial_score = initial[0].score
    assert initial_score is not None
    # When doc1 is rewritten about dogs
    store.put(("test",), "doc1", {"text": "new text about dogs"})
    # Then its old words no longer find it: no item reaches a similarity threshold for them
    # (LangGraph's test compares doc1's scores: ours rank within one search, see the class doc)
    assert gated.search(("test",), query="Zany Xerxes") == []
    assert len(store.search(("test",), query="Zany Xerxes")) == 3
    # And its new words do
    assert store.search(("test",), query="new text about dogs")[0].key == "doc1"
    # And an item put with index=False is not found by its words, though it can be read:
    # ranked below the item that holds them (InMemoryStore lists it after every scored item),
    # and left out under a threshold
    store.put(("test",), "doc4", {"text": "new text about dogs"}, index=False)
    keys = [r.key for r in store.search(("test",), query="new text about dogs")]
    assert keys[0] == "doc1" and "doc4" in keys
    assert "doc4" not in [r.key for r in gated.search(("test",), query="new text about dogs")]
    assert store.get(("test",), "doc4") is not None


def test_vector_search_with_filters(store: AgentMemoryStore) -> None:
    for key, value in [
        ("doc1", {"text": "red apple", "color": "red", "score": 4.5}),
        ("doc2", {"text": "red car", "color": "red", "score": 3.0}),
        ("doc3", {"text": "green apple", "color": "green", "score": 4.0}),
        ("doc4", {"text": "blue car", "color": "blue", "score": 3.5}),
    ]:
        store.put(("test",), key, value)
    # Then the filter narrows what the query ranked: both red items, the better match first
    assert [r.key for r in store.search(("test",), query="apple", filter={"color": "red"})] == [
        "doc1",
        "doc2",
    ]
    assert [r.key for r in store.search(("test",), query="car", filter={"color": "red"})] == [
        "doc2",
        "doc1",
    ]
    over = store.search(("test",), query="blue car", filter={"score": {"$gt": 3.2}})
    assert over[0].key == "doc4"
    both = store.search(("test",), query="apple", filter={"score": {"$gte": 4.0}, "color": "green"})
    assert [r.key for r in both] == ["doc3"]
    # And without a query the same filters hold over every item
    assert sorted(r.key for r in store.search(("test",), filter={"score": {"$gt": 3.2}})) == [
        "doc1",
        "doc3",
        "doc4",
    ]
    assert [r.key for r in store.search(("test",), filter={"color": {"$ne": "red"}})] == [
        "doc4",
        "doc3",
    ]


def test_vector_search_pagination(store: AgentMemoryStore) -> None:
    for i in range(5):
        store.put(("test",), f"doc{i}", {"text": f"test document number {i}"})
    page1 = store.search(("test",), query="test", limit=2)
    page2 = store.search(("test",), query="test", limit=2, offset=2)
    # Then pages do not overlap, and a limit past the items returns them all
    assert len(page1) == 2
    assert len(page2) == 2
    assert {r.key for r in page1}.isdisjoint({r.key for r in page2})
    assert len(store.search(("test",), query="test", limit=10)) == 5


def test_embed_with_path(memory: LocalMemory) -> None:
    # Given a store indexing key0, key1 and key3 (not key2), and the same under a threshold
    fields = ["key0", "key1", "key3"]
    store = AgentMemoryStore(memory.client, TENANT, index=fields)
    gated = AgentMemoryStore(memory.client, TENANT, index=fields, min_similarity=THRESHOLD)
    store.put(("test",), "doc1", {"key1": "xxx", "key2": "yyy", "key3": "zzz"})
    store.put(("test",), "doc2", {"key0": "uuu", "key1": "vvv", "key2": "www", "key3": "xxx"})
    # Then indexed fields find their item first, an unindexed one reaches no threshold
    assert {r.key for r in store.search(("test",), query="xxx")} == {"doc1", "doc2"}
    assert store.search(("test",), query="uuu")[0].key == "doc2"
    assert [r.key for r in gated.search(("test",), query="uuu")] == ["doc2"]
    assert gated.search(("test",), query="www") == []
    # And a put's own index overrides the store's
    store.put(("test",), "doc3", {"key0": "aaa", "key1": "bbb", "key2": "ccc"}, index=["key2"])
    assert [r.key for r in gated.search(("test",), query="ccc")] == ["doc3"]
    assert gated.search(("test",), query="aaa") == []


def test_non_ascii(store: AgentMemoryStore) -> None:
    # Given items in five scripts
    texts = ["这是中文", "これは日本語です", "이건 한국어야", "Это русский", "यह रूसी है"]
    for i, text in enumerate(texts, start=1):
        store.put(("user_123", "memories"), str(i), {"text": text})
    # Then each reads back exactly. (LangGraph's test also ranks them by query: the test
    # embedder hashes ASCII words only, so it cannot tell these texts apart.)
    for i, text in enumerate(texts, start=1):
        item = store.get(("user_123", "memories"), str(i))
        assert item is not None and item.value == {"text": text}


# --- What agent-memory adds: the product's write path, tenants, keys ----------------------


def test_an_item_is_an_episode_found_by_the_agents_bootstrap(
    store: AgentMemoryStore, memory: LocalMemory
) -> None:
    # Given an item put in the namespace ("memories", "u42")
    store.put(("memories", "u42"), "deadline", {"content": "The Tailspin report is due Friday"})
    # When agent memories.u42 of the tenant starts a run about it
    reply = memory.client.bootstrap(TENANT, "memories.u42", "When is the Tailspin report due")
    # Then its memory context serves the item, and the episode is there under the key's run id
    assert "The Tailspin report is due Friday" in reply["context"]
    episode = memory.client.get_episode(TENANT, "memories.u42", run_id_of("deadline"))
    assert episode is not None
    assert episode["key_findings"] == ["The Tailspin report is due Friday"]


def test_values_are_scrubbed_of_pii(store: AgentMemoryStore) -> None:
    # When an item holding an email and a known name is put
    store.put(("memories",), "contact", {"content": "Jane Doe writes from jane@example.com"})
    # Then what is stored, and read back, is scrubbed
    item = store.get(("memories",), "contact")
    assert item is not None
    content = item.value["content"]
    # (Names become the tenant's keyed pseudonyms, e.g. "[NAME-2708a4e117]".)
    assert content.startswith("[NAME-") and content.endswith("] writes from [EMAIL]")
    assert "Jane" not in content and "jane@" not in content


def test_a_name_split_over_an_items_fields_is_scrubbed_everywhere(
    store: AgentMemoryStore, memory: LocalMemory
) -> None:
    # Given an item whose person is split over sibling keys (the test detector knows neither)
    store.put(("people",), "admiral", {"first": "Grace", "last": "Hopper", "rank": 7})
    # When it is read back, and its episode looked at
    item = store.get(("people",), "admiral")
    episode = memory.client.get_episode(TENANT, "people", run_id_of("admiral"))
    # Then neither part of the name is stored anywhere: not in the value, not in the findings
    assert item is not None and episode is not None
    assert item.value["first"].startswith("[NAME") and item.value["last"].startswith("[NAME")
    assert item.value["rank"] == 7
    stored = repr(episode)
    assert "Grace" not in stored and "Hopper" not in stored


def test_a_store_sees_only_its_tenant(memory: LocalMemory) -> None:
    # Given two stores of two tenants over one memory, the first with an item
    acme = AgentMemoryStore(memory.client, "acme")
    globex = AgentMemoryStore(memory.client, "globex")
    acme.put(("memories", "u1"), "k", {"content": "acme secret roadmap"})
    # Then the other tenant's store finds nothing of it, whatever it asks
    assert globex.get(("memories", "u1"), "k") is None
    assert globex.search(("memories",)) == []
    assert globex.search((), query="acme secret roadmap") == []
    assert globex.list_namespaces() == []
    # And deleting through it leaves the first tenant's item alone
    globex.delete(("memories", "u1"), "k")
    assert acme.get(("memories", "u1"), "k") is not None


def test_keys_that_are_not_identifiers(store: AgentMemoryStore) -> None:
    # Given keys with spaces, slashes and non-ASCII characters, and a long one
    keys = ["my key", "a/b#c", "ключ", "k" * 300]
    for key in keys:
        store.put(("test",), key, {"key": key})
    # Then each is read back under its own key, distinct from the others
    for key in keys:
        item = store.get(("test",), key)
        assert item is not None and (item.key, item.value) == (key, {"key": key})
    assert sorted(i.key for i in store.search(("test",))) == sorted(keys)


def test_namespaces_that_are_not_agent_ids_are_refused(store: AgentMemoryStore) -> None:
    # Then a label no agent id can hold is refused before anything is written
    for bad in [("user@example",), ("has space",), ("_private",), ("x" * 200,)]:
        with pytest.raises(InvalidNamespaceError):
            store.put(bad, "k", {"v": 1})
    assert store.list_namespaces() == []


def test_ordinary_runs_of_the_agent_are_not_items(
    store: AgentMemoryStore, memory: LocalMemory
) -> None:
    # Given an agent with an ordinary run and one store item
    memory.client.finish_run(
        tenant_id=TENANT, agent_id="reviewer", run_id="run-1", task="Review the MSA"
    ).wait()
    assert store.list_namespaces() == []
    store.put(("reviewer",), "note", {"content": "Check clause 7.3 first"})
    # Then only the item is listed
    assert [i.key for i in store.search(("reviewer",))] == ["note"]
    assert store.list_namespaces() == [("reviewer",)]


def test_too_large_and_non_json_values_are_refused(store: AgentMemoryStore) -> None:
    from agent_memory.sdk import InvalidInputError

    with pytest.raises(InvalidInputError) as too_large:
        store.put(("test",), "big", {"text": "x" * 9000})
    assert too_large.value.field == "value"
    with pytest.raises(InvalidInputError):
        store.put(("test",), "odd", {"when": object()})
    assert store.search(("test",)) == []


def test_ttl_is_refused(store: AgentMemoryStore) -> None:
    with pytest.raises(NotImplementedError):
        store.put(("test",), "k", {"v": 1}, ttl=5)


def test_the_products_detector_leaves_the_record_readable(tmp_path: Path) -> None:
    from agent_memory.adapters.local.pii import LocalPiiDetector

    # Given a store over the local mode's own PII detector
    local = make_local(tmp_path / "store", pii=LocalPiiDetector())
    try:
        store = AgentMemoryStore(local.client, TENANT)
        value = {"content": "Call +1 555 123 4567 or mail jane@example.com", "n": 3, "ok": True}
        # When an item with PII is put, then updated
        store.put(("memories",), "contact", value)
        first = store.get(("memories",), "contact")
        store.put(("memories",), "contact", {**value, "n": 4})
        second = store.get(("memories",), "contact")
        # Then the scrubbed value reads back whole, numbers and booleans as they were, and the
        # update keeps the creation time
        assert first is not None and second is not None
        assert first.value == {"content": "Call [PHONE] or mail [EMAIL]", "n": 3, "ok": True}
        assert second.value["n"] == 4
        assert second.created_at == first.created_at < second.updated_at
    finally:
        local.client.close()


def test_a_scrub_across_the_records_syntax_keeps_the_text(tmp_path: Path) -> None:
    from tests.support.fakes import FakePiiDetector

    # Given a detector that finds an entity running across two fields of the item's JSON
    local = make_local(tmp_path / "store", pii=FakePiiDetector(names=('one","b',)))
    try:
        store = AgentMemoryStore(local.client, TENANT)
        # When such an item is put
        store.put(("test",), "k", {"a": "one", "b": "two"})
        item = store.get(("test",), "k")
        # Then it is still an item, its scrubbed record kept as text (nothing of it unscrubbed)
        assert item is not None and set(item.value) == {"text"}
        assert '"a":"[NAME-' in item.value["text"] and "one" not in item.value["text"]
    finally:
        local.client.close()


def test_a_query_keeps_to_the_namespaces_under_its_prefix(store: AgentMemoryStore) -> None:
    # Given the same memory in a namespace under ("memories",) and in one outside it
    store.put(("memories", "u1"), "theme", {"content": "Prefers dark mode in the editor"})
    # (sorted first among the tenant's agents: the one a wrong prefix match would ask as)
    store.put(("archive",), "theme", {"content": "Prefers dark mode in the editor"})
    # When the prefix is searched by query (a team read of the agents under it)
    found = store.search(("memories",), query="dark mode in the editor")
    # Then the item under it is found, the other never
    assert [i.namespace for i in found] == [("memories", "u1")]
    assert found[0].score is not None


def test_numeric_filter_safety(store: AgentMemoryStore) -> None:
    # Given three priced items
    for key, price in [("item1", 10), ("item2", 20), ("item3", 30)]:
        store.put(("items",), key, {"price": price})

    def keys(conditions: dict[str, object]) -> list[str]:
        return sorted(r.key for r in store.search(("items",), filter=conditions))

    # Then comparisons, infinities, NaN and huge numbers behave as LangGraph's SQLite store's
    assert keys({"price": {"$gt": 15}}) == ["item2", "item3"]
    assert len(keys({"price": {"$lt": float("inf")}})) == 3
    assert len(keys({"price": {"$gt": float("-inf")}})) == 3
    assert keys({"price": {"$eq": float("nan")}}) == []
    assert len(keys({"price": {"$lt": 10**100}})) == 3
    store.put(("items",), "item4", {"price": -10})
    assert keys({"price": {"$lt": 0}}) == ["item4"]


def test_boolean_filter_safety(store: AgentMemoryStore) -> None:
    for key, active in [("flag1", True), ("flag2", False), ("flag3", True)]:
        store.put(("flags",), key, {"active": active, "name": f"Feature {key}"})
    on = store.search(("flags",), filter={"active": True})
    off = store.search(("flags",), filter={"active": False})
    assert sorted(r.key for r in on) == ["flag1", "flag3"]
    assert [r.key for r in off] == ["flag2"]


def test_filter_keys_with_hyphens_and_digits(store: AgentMemoryStore) -> None:
    store.put(("docs",), "hyphen", {"access-level": "public", "user": {"access-level": "nested"}})
    store.put(("docs",), "digit", {"123abc": "ok", "user": {"123abc": "ok2"}})

    def keys(conditions: dict[str, object]) -> list[str]:
        return [r.key for r in store.search(("docs",), filter=conditions)]

    # Then top-level and dotted nested keys of any spelling filter
    assert keys({"access-level": "public"}) == ["hyphen"]
    assert keys({"user.access-level": "nested"}) == ["hyphen"]
    assert keys({"123abc": "ok"}) == ["digit"]
    assert keys({"user.123abc": "ok2"}) == ["digit"]
