"""The ``KnowledgeBase`` contract: every test runs once per adapter in ``knowledge_bases.ADAPTERS``.

The local KB runs on a temporary folder; the Bedrock one on moto's S3, with Bedrock's ingestion
jobs and ``Retrieve`` answered by a stateful fake (``tests/support/fake_bedrock_kb.py``) that
indexes the bucket and honours the filter the adapter sends. Both embed with the same hashing
embedder, so the same text is the best match on both.

To put a new adapter under the contract, add a factory to ``ADAPTERS`` in
``tests/contract/knowledge_bases.py``: a context manager building it on fresh, empty storage,
with a ``running()`` that holds one of its ingestion jobs running.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agent_memory.core.model.errors import IngestionBusy, NotFound
from agent_memory.core.model.keys import document_key
from agent_memory.core.model.models import IngestionJob, KbDocument, KbHit
from agent_memory.core.ports import KnowledgeBase
from tests.contract.builders import NOW
from tests.contract.knowledge_bases import ADAPTERS, KbUnderTest, settle
from tests.support.embedder import HashingEmbedder

INVOICES = "Invoices are issued on the first business day of the month"
DEPLOYS = "Deploys to production need the VPC flag and a change ticket"
BACKUPS = "Backups of the ledger database run nightly at two"


@pytest.fixture(params=sorted(ADAPTERS))
def under_test(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[KbUnderTest]:
    with ADAPTERS[request.param](tmp_path) as built:
        yield built


@pytest.fixture
def kb(under_test: KbUnderTest) -> KnowledgeBase:
    return under_test.kb


def doc(
    text: str, *, tenant: str = "acme", domain: str = "billing", name: str = "f1", **extra: Any
) -> KbDocument:
    return KbDocument(
        key=document_key(tenant, domain, name),
        text=text,
        metadata={"tenant_id": tenant, "domain": domain, "fact_hash": name, **extra},
    )


def ingest(kb: KnowledgeBase) -> IngestionJob:
    return settle(kb, kb.start_ingestion(now=NOW))


def texts(hits: list[KbHit]) -> list[str]:
    return [hit.text for hit in hits]


def search(
    kb: KnowledgeBase,
    text: str,
    *,
    tenant: str = "acme",
    domain: str | None = None,
    limit: int = 10,
) -> list[KbHit]:
    return kb.retrieve(text, tenant_id=tenant, domain=domain, limit=limit)


def test_adapter_satisfies_the_knowledge_base_port(kb: KnowledgeBase) -> None:
    assert isinstance(kb, KnowledgeBase)


# --- ingestion ----------------------------------------------------------------------------


def test_a_document_is_not_retrieved_before_an_ingestion(kb: KnowledgeBase) -> None:
    # Given a document written but never ingested
    kb.put_document(doc(INVOICES))
    # Then retrieving its own text finds nothing
    assert search(kb, INVOICES) == []


def test_an_ingestion_makes_the_documents_written_before_it_retrievable(kb: KnowledgeBase) -> None:
    kb.put_document(doc(INVOICES, name="f1"))
    kb.put_document(doc(DEPLOYS, name="f2"))

    job = ingest(kb)

    assert job.status == "COMPLETE"
    assert texts(search(kb, INVOICES))[0] == INVOICES
    assert texts(search(kb, DEPLOYS))[0] == DEPLOYS


def test_a_document_written_while_a_job_runs_waits_for_the_next_ingestion(
    under_test: KbUnderTest,
) -> None:
    kb = under_test.kb
    # Given a job running over one document
    kb.put_document(doc(INVOICES, name="f1"))
    with under_test.running():
        # Nothing is served before the job has finished
        assert search(kb, INVOICES) == []
        # When another is written while it runs
        kb.put_document(doc(DEPLOYS, name="f2"))
    # Then the finished job served the first, not the late one
    assert INVOICES in texts(search(kb, INVOICES))
    assert DEPLOYS not in texts(search(kb, DEPLOYS))
    # And the next ingestion takes it
    ingest(kb)
    assert texts(search(kb, DEPLOYS))[0] == DEPLOYS


def test_a_polled_job_is_the_job_that_was_started(kb: KnowledgeBase) -> None:
    kb.put_document(doc(INVOICES))
    started = kb.start_ingestion(now=NOW)

    settled = settle(kb, started)

    again = kb.ingestion_job(started.job_id)
    assert (settled.job_id, settled.status) == (started.job_id, "COMPLETE")
    assert (again.job_id, again.status, again.started_at) == (
        started.job_id,
        "COMPLETE",
        started.started_at,
    )


def test_an_unknown_job_is_not_found(kb: KnowledgeBase) -> None:
    with pytest.raises(NotFound):
        kb.ingestion_job("NOSUCHJOB1")


def test_start_ingestion_is_busy_while_a_job_runs(under_test: KbUnderTest) -> None:
    kb = under_test.kb
    kb.put_document(doc(INVOICES))
    # Given a job running
    with under_test.running(), pytest.raises(IngestionBusy):
        # When another ingestion is asked for, it is refused
        kb.start_ingestion(now=NOW)
    # Then once the job has finished a new one starts
    kb.put_document(doc(DEPLOYS, name="f2"))
    assert ingest(kb).status == "COMPLETE"


def test_a_job_counts_what_it_indexed(kb: KnowledgeBase) -> None:
    for name, text in (("f1", INVOICES), ("f2", DEPLOYS), ("f3", BACKUPS)):
        kb.put_document(doc(text, name=name))
    # The first ingestion indexes every document
    first = ingest(kb).statistics
    assert (first.scanned, first.indexed, first.failed) == (3, 3, 0)
    # One with nothing changed indexes none
    assert ingest(kb).statistics.indexed == 0
    # One after an overwrite indexes that document again
    kb.put_document(doc(INVOICES + " in euros", name="f1"))
    assert ingest(kb).statistics.indexed == 1


# --- overwrite and delete -----------------------------------------------------------------


def test_an_overwrite_is_served_from_the_next_ingestion(kb: KnowledgeBase) -> None:
    kb.put_document(doc(INVOICES))
    ingest(kb)
    # When the document is rewritten with new text
    kb.put_document(doc(DEPLOYS))
    # Then the old text is served until the next ingestion, and only the new one after it
    assert texts(search(kb, INVOICES)) == [INVOICES]
    ingest(kb)
    assert texts(search(kb, DEPLOYS)) == [DEPLOYS]
    assert INVOICES not in texts(search(kb, INVOICES))


def test_a_deleted_document_is_dropped_at_the_next_ingestion(kb: KnowledgeBase) -> None:
    kept, dropped = doc(DEPLOYS, name="f1"), doc(INVOICES, name="f2")
    kb.put_document(kept)
    kb.put_document(dropped)
    ingest(kb)

    kb.delete_document(dropped.key)

    assert dropped.key not in kb.document_keys("acme")
    assert INVOICES in texts(search(kb, INVOICES)), "served until the next ingestion"
    ingest(kb)
    assert INVOICES not in texts(search(kb, INVOICES))
    assert texts(search(kb, DEPLOYS)) == [DEPLOYS]


def test_deleting_a_document_never_written_is_not_an_error(kb: KnowledgeBase) -> None:
    kb.delete_document(document_key("acme", "billing", "never"))

    assert kb.document_keys("acme") == []


def test_a_document_whose_metadata_names_another_tenant_is_never_served(
    kb: KnowledgeBase,
) -> None:
    # Given a document under our key whose metadata claims another tenant
    forged = KbDocument(
        key=document_key("acme", "billing", "f1"),
        text=INVOICES,
        metadata={"tenant_id": "globex", "domain": "billing", "fact_hash": "f1"},
    )
    # When it is written: an adapter may refuse it at once
    try:
        kb.put_document(forged)
    except ValueError:
        return
    # Or the ingestion fails it, and no tenant is ever served it
    job = ingest(kb)
    assert job.statistics.failed == 1
    assert search(kb, INVOICES, tenant="acme") == []
    assert search(kb, INVOICES, tenant="globex") == []
    assert kb.document_states([forged.key]) == {forged.key: "FAILED"}


def test_an_unsafe_key_is_refused(kb: KnowledgeBase) -> None:
    unsafe = KbDocument(
        key="tenants/acme/../globex/f1.txt", text=INVOICES, metadata={"tenant_id": "acme"}
    )

    with pytest.raises(ValueError):
        kb.put_document(unsafe)
    assert kb.document_keys("globex") == []


# --- document keys ------------------------------------------------------------------------


def test_document_keys_lists_every_document_of_the_tenant_sorted(kb: KnowledgeBase) -> None:
    # Given five documents of one tenant in two domains, written out of order (more than one
    # page of a paging adapter), and documents of tenants whose ids share its prefix
    names = [
        ("devops", "f5"),
        ("billing", "f2"),
        ("devops", "f1"),
        ("billing", "f4"),
        ("billing", "f3"),
    ]
    for domain, name in names:
        kb.put_document(doc(INVOICES, domain=domain, name=name))
    kb.put_document(doc(INVOICES, tenant="acme-eu", name="f9"))
    kb.put_document(doc(INVOICES, tenant="acm", name="f8"))
    # When its keys are listed, before any ingestion
    keys = kb.document_keys("acme")
    # Then they are all of its documents and only those, sorted
    assert keys == sorted(document_key("acme", d, n) for d, n in names)
    assert kb.document_keys("acme-eu") == [document_key("acme-eu", "billing", "f9")]


def test_document_keys_of_a_tenant_without_documents_is_empty(kb: KnowledgeBase) -> None:
    kb.put_document(doc(INVOICES, tenant="globex"))

    assert kb.document_keys("acme") == []


def test_an_overwrite_keeps_one_key(kb: KnowledgeBase) -> None:
    kb.put_document(doc(INVOICES))
    kb.put_document(doc(DEPLOYS))

    assert kb.document_keys("acme") == [document_key("acme", "billing", "f1")]


# --- retrieve -----------------------------------------------------------------------------


def test_retrieve_never_returns_another_tenants_document(kb: KnowledgeBase) -> None:
    # Given another tenant's document that is exactly the query, and a weaker match of ours
    kb.put_document(doc(INVOICES, tenant="globex"))
    kb.put_document(doc("Invoices are late", tenant="acme"))
    ingest(kb)
    # When we search for the other tenant's text
    hits = search(kb, INVOICES, tenant="acme")
    # Then only our document comes back
    assert texts(hits) == ["Invoices are late"]
    assert {hit.metadata["tenant_id"] for hit in hits} == {"acme"}
    assert texts(search(kb, INVOICES, tenant="globex")) == [INVOICES]


def test_better_matches_of_another_tenant_do_not_crowd_ours_out_of_the_limit(
    kb: KnowledgeBase,
) -> None:
    # Given another tenant with many exact matches, and one weaker match of ours
    for i in range(5):
        kb.put_document(doc(INVOICES, tenant="globex", name=f"g{i}"))
    kb.put_document(doc("Invoices are late", tenant="acme"))
    ingest(kb)
    # When we ask for the single best hit
    hits = search(kb, INVOICES, tenant="acme", limit=1)
    # Then it is ours: the tenant filter applies before the limit, not after
    assert texts(hits) == ["Invoices are late"]


def test_retrieve_for_a_tenant_without_documents_is_empty(kb: KnowledgeBase) -> None:
    kb.put_document(doc(INVOICES, tenant="globex"))
    ingest(kb)

    assert search(kb, INVOICES, tenant="acme") == []


def test_a_domain_keeps_only_its_documents(kb: KnowledgeBase) -> None:
    kb.put_document(doc(INVOICES, domain="billing", name="f1"))
    kb.put_document(doc(INVOICES + " for deploys", domain="devops", name="f2"))
    ingest(kb)

    in_billing = search(kb, INVOICES, domain="billing")
    anywhere = search(kb, INVOICES)

    assert texts(in_billing) == [INVOICES]
    assert {hit.metadata["domain"] for hit in in_billing} == {"billing"}
    assert sorted(texts(anywhere)) == sorted([INVOICES, INVOICES + " for deploys"])


def test_limit_caps_the_hits_best_first(kb: KnowledgeBase) -> None:
    variants = [
        INVOICES,
        *(f"Invoices are issued {word}" for word in ("late", "weekly", "monthly", "twice")),
    ]
    for i, text in enumerate(variants):
        kb.put_document(doc(text, name=f"f{i}"))
    ingest(kb)

    hits = search(kb, INVOICES, limit=3)

    assert len(hits) == 3
    assert hits[0].text == INVOICES
    scores = [hit.score for hit in hits]
    assert scores == sorted(scores, reverse=True)


def test_a_blank_query_finds_nothing(kb: KnowledgeBase) -> None:
    kb.put_document(doc(INVOICES))
    ingest(kb)

    assert search(kb, " \n ") == []


def test_a_limit_of_zero_returns_nothing(kb: KnowledgeBase) -> None:
    kb.put_document(doc(INVOICES))
    ingest(kb)

    assert search(kb, INVOICES, limit=0) == []


def test_a_query_vector_of_the_index_model_finds_what_the_text_finds(kb: KnowledgeBase) -> None:
    kb.put_document(doc(INVOICES, name="f1"))
    kb.put_document(doc(DEPLOYS, name="f2"))
    ingest(kb)
    embedder = HashingEmbedder()  # the model both adapters' indexes are built with here

    hits = kb.retrieve(
        INVOICES,
        tenant_id="acme",
        domain=None,
        limit=1,
        query_vector=embedder.embed_query(INVOICES),
        query_model_id=embedder.model_id,
    )

    assert texts(hits) == [INVOICES]


def test_a_query_vector_of_another_model_is_not_used(kb: KnowledgeBase) -> None:
    kb.put_document(doc(INVOICES, name="f1"))
    kb.put_document(doc(DEPLOYS, name="f2"))
    ingest(kb)
    # Given a vector that points at the other document, from a model the index was not built by
    misleading = HashingEmbedder(model_id="another-model").embed_query(DEPLOYS)

    hits = kb.retrieve(
        INVOICES,
        tenant_id="acme",
        domain=None,
        limit=1,
        query_vector=misleading,
        query_model_id="another-model",
    )

    assert texts(hits) == [INVOICES]


def test_metadata_comes_back_with_the_hit(kb: KnowledgeBase) -> None:
    # Given a document whose metadata has every kind of value the KB takes
    written = doc(
        INVOICES, confidence=0.85, confirmations=3, promoted=True, tags=["finance", "monthly"]
    )
    kb.put_document(written)
    ingest(kb)
    # When it is retrieved
    (hit,) = search(kb, INVOICES)
    # Then each attribute comes back as written (an adapter may add its own)
    assert {name: hit.metadata.get(name) for name in written.metadata} == written.metadata


# --- document states ----------------------------------------------------------------------


def test_ingested_documents_are_indexed_and_unknown_keys_failed(kb: KnowledgeBase) -> None:
    documents = [doc(f"{INVOICES} number {i}", name=f"f{i:02d}") for i in range(12)]
    for document in documents:
        kb.put_document(document)
    ingest(kb)
    unknown = document_key("acme", "billing", "never-written")

    states = kb.document_states([d.key for d in documents] + [unknown])

    assert states == {**{d.key: "INDEXED" for d in documents}, unknown: "FAILED"}


def test_a_deleted_and_reingested_document_is_failed(kb: KnowledgeBase) -> None:
    kb.put_document(doc(INVOICES))
    ingest(kb)
    key = document_key("acme", "billing", "f1")

    kb.delete_document(key)
    ingest(kb)

    assert kb.document_states([key]) == {key: "FAILED"}
