"""LocalKnowledgeBase: a document folder that is searchable only through ingestion."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from agent_memory.adapters.local.knowledge_base import LocalKnowledgeBase
from agent_memory.core.model.errors import IngestionBusy, NotFound
from agent_memory.core.model.models import KbDocument
from agent_memory.core.ports import KnowledgeBase
from tests.support.embedder import HashingEmbedder, RecordingEmbedder

NOW = 1_700_000_000.0


class BlockingEmbedder(HashingEmbedder):
    """Holds ``embed_documents`` until released, so an ingestion can be caught mid-run."""

    def __init__(self) -> None:
        super().__init__()
        self.entered = threading.Event()
        self.release = threading.Event()

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        self.entered.set()
        assert self.release.wait(timeout=10)
        return super().embed_documents(texts)


def fact(tenant: str, domain: str, name: str, content: str) -> KbDocument:
    return KbDocument(
        key=f"tenants/{tenant}/domains/{domain}/{name}.txt",
        text=content,
        metadata={"tenant_id": tenant, "domain": domain, "confidence": 0.9, "fact_hash": name},
    )


def texts(
    kb: LocalKnowledgeBase,
    query: str,
    *,
    tenant: str = "acme",
    domain: str | None = None,
    limit: int = 10,
) -> list[str]:
    return [hit.text for hit in kb.retrieve(query, tenant_id=tenant, domain=domain, limit=limit)]


@pytest.fixture
def embedder() -> RecordingEmbedder:
    return RecordingEmbedder()


@pytest.fixture
def kb(tmp_path: Path, embedder: RecordingEmbedder) -> LocalKnowledgeBase:
    return LocalKnowledgeBase(tmp_path, embedder)


def test_implements_the_knowledge_base_port(kb: LocalKnowledgeBase) -> None:
    assert isinstance(kb, KnowledgeBase)


def test_put_document_writes_text_and_metadata_sidecar(
    tmp_path: Path, kb: LocalKnowledgeBase
) -> None:
    document = fact("acme", "contracts", "abc123", "Contracts renew every January")

    kb.put_document(document)

    path = tmp_path / "documents" / "tenants/acme/domains/contracts/abc123.txt"
    assert path.read_text() == document.text
    sidecar = path.with_name("abc123.txt.metadata.json")
    assert json.loads(sidecar.read_text()) == {"metadataAttributes": document.metadata}
    assert sorted(p.name for p in path.parent.iterdir()) == [
        "abc123.txt",
        "abc123.txt.metadata.json",
    ]


def test_document_is_invisible_before_ingestion(kb: LocalKnowledgeBase) -> None:
    # Given a document written but never ingested
    kb.put_document(fact("acme", "contracts", "f1", "Contracts renew every January"))

    # When searching for it / Then nothing is found, as with a Bedrock KB
    assert texts(kb, "contracts renew january") == []


def test_document_is_visible_after_ingestion(kb: LocalKnowledgeBase) -> None:
    document = fact("acme", "contracts", "f1", "Contracts renew every January")
    kb.put_document(document)

    kb.start_ingestion(now=NOW)

    [hit] = kb.retrieve("contracts renew january", tenant_id="acme", domain="contracts", limit=5)
    assert hit.text == "Contracts renew every January"
    assert hit.metadata == document.metadata
    assert 0.0 < hit.score <= 1.0 + 1e-6


def test_document_written_after_ingestion_waits_for_the_next_one(kb: LocalKnowledgeBase) -> None:
    # Given an ingestion that ran before the document was written
    kb.start_ingestion(now=NOW)
    kb.put_document(fact("acme", "contracts", "f1", "Contracts renew every January"))

    # Then it is not searchable yet
    assert texts(kb, "contracts renew january") == []


def test_changed_document_serves_old_text_until_next_ingestion(kb: LocalKnowledgeBase) -> None:
    # Given an ingested document that is then rewritten
    kb.put_document(fact("acme", "contracts", "f1", "Contracts renew every January"))
    kb.start_ingestion(now=NOW)
    kb.put_document(fact("acme", "contracts", "f1", "Contracts renew every March"))

    # Then the old text is served until the next ingestion, and the new one after it
    assert texts(kb, "contracts renew") == ["Contracts renew every January"]
    kb.start_ingestion(now=NOW + 60)
    assert texts(kb, "contracts renew") == ["Contracts renew every March"]


def test_deleted_document_disappears_after_next_ingestion(kb: LocalKnowledgeBase) -> None:
    # Given an ingested document that is then deleted
    document = fact("acme", "contracts", "f1", "Contracts renew every January")
    kb.put_document(document)
    kb.start_ingestion(now=NOW)
    kb.delete_document(document.key)
    assert kb.document_keys("acme") == []

    # When the next ingestion runs
    kb.start_ingestion(now=NOW + 60)

    # Then it is no longer found
    assert texts(kb, "contracts renew january") == []


def test_deleting_a_missing_document_is_fine(kb: LocalKnowledgeBase) -> None:
    kb.delete_document("tenants/acme/domains/contracts/never-written.txt")


def test_document_keys_lists_only_the_tenants_own(kb: LocalKnowledgeBase) -> None:
    # Given documents of "acme" and of lookalike tenants
    for tenant in ("acme", "acme2", "acm"):
        kb.put_document(fact(tenant, "contracts", "f1", "Contracts renew every January"))
    kb.put_document(fact("acme", "billing", "f2", "Invoices are due in 30 days"))

    assert kb.document_keys("acme") == [
        "tenants/acme/domains/billing/f2.txt",
        "tenants/acme/domains/contracts/f1.txt",
    ]


def test_retrieve_never_returns_another_tenants_documents(kb: LocalKnowledgeBase) -> None:
    # Given the same fact stored for "acme" and for lookalike tenants "acme2" and "acm"
    for tenant in ("acme", "acme2", "acm"):
        kb.put_document(fact(tenant, "contracts", "f1", f"Contracts renew every January {tenant}"))
    kb.start_ingestion(now=NOW)

    hits = kb.retrieve("contracts renew january", tenant_id="acme", domain=None, limit=10)

    assert [h.metadata["tenant_id"] for h in hits] == ["acme"]


def test_domain_filter_keeps_only_that_domain(kb: LocalKnowledgeBase) -> None:
    kb.put_document(fact("acme", "contracts", "f1", "Payment terms are net 30"))
    kb.put_document(fact("acme", "billing", "f2", "Payment terms are net 45"))
    kb.put_document(fact("acme", "billing2", "f3", "Payment terms are net 60"))
    kb.start_ingestion(now=NOW)

    assert texts(kb, "payment terms", domain="billing") == ["Payment terms are net 45"]


def test_no_domain_searches_every_domain_of_the_tenant(kb: LocalKnowledgeBase) -> None:
    kb.put_document(fact("acme", "contracts", "f1", "Payment terms are net 30"))
    kb.put_document(fact("acme", "billing", "f2", "Payment terms are net 45"))
    kb.start_ingestion(now=NOW)

    assert sorted(texts(kb, "payment terms")) == [
        "Payment terms are net 30",
        "Payment terms are net 45",
    ]


def test_hits_are_ranked_by_cosine_similarity(kb: LocalKnowledgeBase) -> None:
    # Given documents sharing three, two, one and no words with the query
    kb.put_document(fact("acme", "d", "one", "alpha"))
    kb.put_document(fact("acme", "d", "three", "alpha beta gamma"))
    kb.put_document(fact("acme", "d", "none", "delta epsilon"))
    kb.put_document(fact("acme", "d", "two", "alpha beta"))
    kb.start_ingestion(now=NOW)

    hits = kb.retrieve("alpha beta gamma", tenant_id="acme", domain="d", limit=3)

    assert [h.text for h in hits] == ["alpha beta gamma", "alpha beta", "alpha"]
    assert hits[0].score == pytest.approx(1.0, abs=1e-5)
    assert hits[0].score > hits[1].score > hits[2].score


def test_limit_caps_the_number_of_hits(kb: LocalKnowledgeBase) -> None:
    for i in range(5):
        kb.put_document(fact("acme", "d", f"f{i}", f"shared word {i}"))
    kb.start_ingestion(now=NOW)

    assert len(texts(kb, "shared word", limit=2)) == 2
    assert texts(kb, "shared word", limit=0) == []


def test_query_vector_of_the_index_model_is_used_without_embedding(
    kb: LocalKnowledgeBase, embedder: RecordingEmbedder
) -> None:
    # Given an ingested index and a query vector the caller already computed with its model
    kb.put_document(fact("acme", "d", "f1", "alpha beta"))
    kb.put_document(fact("acme", "d", "f2", "gamma delta"))
    kb.start_ingestion(now=NOW)
    vector = HashingEmbedder().embed_query("gamma delta")
    calls = embedder.calls

    # When retrieving with that vector (the text deliberately points elsewhere)
    hits = kb.retrieve(
        "alpha beta",
        tenant_id="acme",
        domain="d",
        limit=1,
        query_vector=vector,
        query_model_id=embedder.model_id,
    )

    # Then the vector decided the ranking and the embedder was not called
    assert [h.text for h in hits] == ["gamma delta"]
    assert embedder.calls == calls


def test_query_vector_of_another_model_is_ignored(
    kb: LocalKnowledgeBase, embedder: RecordingEmbedder
) -> None:
    kb.put_document(fact("acme", "d", "f1", "alpha beta"))
    kb.put_document(fact("acme", "d", "f2", "gamma delta"))
    kb.start_ingestion(now=NOW)
    foreign = HashingEmbedder(dimension=64, model_id="other").embed_query("gamma delta")
    calls = embedder.calls

    hits = kb.retrieve(
        "alpha beta",
        tenant_id="acme",
        domain="d",
        limit=1,
        query_vector=foreign,
        query_model_id="other",
    )

    assert [h.text for h in hits] == ["alpha beta"]
    assert embedder.calls == calls + 1


def test_ingestion_is_busy_while_another_one_runs(tmp_path: Path) -> None:
    # Given an ingestion (by another instance on the same folder) stuck in embedding
    blocking = BlockingEmbedder()
    first = LocalKnowledgeBase(tmp_path, blocking)
    first.put_document(fact("acme", "d", "f1", "alpha beta"))
    runner = threading.Thread(target=first.start_ingestion, kwargs={"now": NOW})
    runner.start()
    try:
        assert blocking.entered.wait(timeout=10)

        # When a second ingestion starts / Then it is told to try the next window
        with pytest.raises(IngestionBusy):
            LocalKnowledgeBase(tmp_path, HashingEmbedder()).start_ingestion(now=NOW + 1)
    finally:
        blocking.release.set()
        runner.join(timeout=10)

    # And once the first one finished, ingestion works again
    assert (
        LocalKnowledgeBase(tmp_path, HashingEmbedder()).start_ingestion(now=NOW + 2).status
        == "COMPLETE"
    )


def test_ingestion_is_busy_while_another_process_holds_the_lock(
    tmp_path: Path, kb: LocalKnowledgeBase
) -> None:
    # Given another process holding the ingestion lock of this folder
    kb.start_ingestion(now=NOW)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, sys; f = open(sys.argv[1], 'a'); fcntl.flock(f, fcntl.LOCK_EX); "
            "print('locked', flush=True); sys.stdin.read()",
            str(tmp_path / "index" / "ingest.lock"),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"

        with pytest.raises(IngestionBusy):
            kb.start_ingestion(now=NOW + 1)
    finally:
        holder.communicate(timeout=10)


def test_ingestion_job_is_recorded(kb: LocalKnowledgeBase) -> None:
    job = kb.start_ingestion(now=NOW)

    assert job.status == "COMPLETE"
    assert job.started_at == NOW
    assert kb.ingestion_job(job.job_id) == job
    with pytest.raises(NotFound):
        kb.ingestion_job("no-such-job")


def test_model_change_re_embeds_every_document(tmp_path: Path) -> None:
    # Given an index built by one model
    old = LocalKnowledgeBase(tmp_path, RecordingEmbedder(model_id="model-a"))
    old.put_document(fact("acme", "d", "f1", "alpha beta"))
    old.put_document(fact("acme", "d", "f2", "gamma delta"))
    old.start_ingestion(now=NOW)

    # When ingesting with another model
    new_embedder = RecordingEmbedder(dimension=128, model_id="model-b")
    new = LocalKnowledgeBase(tmp_path, new_embedder)
    new.start_ingestion(now=NOW + 60)

    # Then every document was embedded again, and search works in the new space
    assert sorted(new_embedder.embedded) == ["alpha beta", "gamma delta"]
    assert texts(new, "gamma delta", domain="d", limit=1) == ["gamma delta"]


def test_index_of_another_model_answers_nothing_until_re_ingested(tmp_path: Path) -> None:
    # Given an index built by one model, read with an embedder of another model
    old = LocalKnowledgeBase(tmp_path, HashingEmbedder(model_id="model-a"))
    old.put_document(fact("acme", "d", "f1", "alpha beta"))
    old.start_ingestion(now=NOW)
    new = LocalKnowledgeBase(tmp_path, HashingEmbedder(dimension=128, model_id="model-b"))

    # Then vectors of the two spaces are never compared
    assert texts(new, "alpha beta") == []


def test_second_ingestion_embeds_only_new_and_changed_documents(
    kb: LocalKnowledgeBase, embedder: RecordingEmbedder
) -> None:
    # Given three ingested documents, of which one is then changed, one deleted, one added
    kb.put_document(fact("acme", "d", "same", "unchanged text"))
    kb.put_document(fact("acme", "d", "changed", "original text"))
    kb.put_document(fact("acme", "d", "gone", "deleted text"))
    kb.start_ingestion(now=NOW)
    kb.put_document(fact("acme", "d", "changed", "edited text"))
    kb.delete_document("tenants/acme/domains/d/gone.txt")
    kb.put_document(fact("acme", "d", "new", "added text"))
    embedder.embedded.clear()

    # When ingesting again
    kb.start_ingestion(now=NOW + 60)

    # Then only the changed and the new document were embedded, and all live ones are served
    assert sorted(embedder.embedded) == ["added text", "edited text"]
    assert sorted(texts(kb, "text")) == ["added text", "edited text", "unchanged text"]


def test_metadata_change_alone_is_picked_up_by_the_next_ingestion(
    kb: LocalKnowledgeBase, embedder: RecordingEmbedder
) -> None:
    # Given an ingested document whose sidecar (not its text) then changes domain
    document = fact("acme", "old", "f1", "alpha beta")
    kb.put_document(document)
    kb.start_ingestion(now=NOW)
    kb.put_document(KbDocument(document.key, document.text, {**document.metadata, "domain": "new"}))

    kb.start_ingestion(now=NOW + 60)

    assert texts(kb, "alpha beta", domain="new") == ["alpha beta"]
    assert texts(kb, "alpha beta", domain="old") == []


def test_ingestion_without_changes_embeds_nothing(
    kb: LocalKnowledgeBase, embedder: RecordingEmbedder
) -> None:
    kb.put_document(fact("acme", "d", "f1", "alpha beta"))
    kb.start_ingestion(now=NOW)
    calls = embedder.calls

    kb.start_ingestion(now=NOW + 60)

    assert embedder.calls == calls


def test_ingestion_embeds_in_batches(tmp_path: Path) -> None:
    embedder = RecordingEmbedder()
    kb = LocalKnowledgeBase(tmp_path, embedder, batch_size=2)
    for i in range(5):
        kb.put_document(fact("acme", "d", f"f{i}", f"text {i}"))

    kb.start_ingestion(now=NOW)

    assert embedder.calls == 3
    assert len(embedder.embedded) == 5


def test_another_instances_ingestion_is_seen_by_a_running_reader(tmp_path: Path) -> None:
    # Given a reader that has already cached an index
    reader = LocalKnowledgeBase(tmp_path, HashingEmbedder())
    writer = LocalKnowledgeBase(tmp_path, HashingEmbedder())
    writer.put_document(fact("acme", "d", "f1", "alpha beta"))
    writer.start_ingestion(now=NOW)
    assert texts(reader, "alpha") == ["alpha beta"]

    # When another instance (as another process would) ingests a new document
    writer.put_document(fact("acme", "d", "f2", "alpha gamma"))
    writer.start_ingestion(now=NOW + 60)

    # Then the reader serves the new index
    assert sorted(texts(reader, "alpha")) == ["alpha beta", "alpha gamma"]


def test_document_whose_metadata_names_another_tenant_is_not_indexed(
    kb: LocalKnowledgeBase,
) -> None:
    # Given a document under acme's prefix whose sidecar claims it belongs to "evil"
    kb.put_document(
        KbDocument(
            key="tenants/acme/domains/d/f1.txt",
            text="alpha beta",
            metadata={"tenant_id": "evil", "domain": "d"},
        )
    )

    kb.start_ingestion(now=NOW)

    assert texts(kb, "alpha beta", tenant="evil") == []
    assert texts(kb, "alpha beta", tenant="acme") == []


def test_concurrent_retrieves_agree(kb: LocalKnowledgeBase) -> None:
    for i in range(20):
        kb.put_document(fact("acme", "d", f"f{i}", f"alpha {i}"))
    kb.start_ingestion(now=NOW)

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda _: texts(kb, "alpha 7", limit=1), range(64)))

    assert results == [["alpha 7"]] * 64


@pytest.mark.parametrize(
    "key",
    [
        "/tenants/acme/domains/d/f1.txt",
        "tenants/acme/../acme2/domains/d/f1.txt",
        "..",
        "tenants\\acme\\f1.json",
        "",
        "tenants/acme//f1.txt",
        "tenants/acme/domains/d/f1.txt.metadata.json",
    ],
)
def test_unsafe_keys_are_rejected(kb: LocalKnowledgeBase, key: str) -> None:
    document = KbDocument(key=key, text="x", metadata={"tenant_id": "acme"})

    with pytest.raises(ValueError, match="invalid document key"):
        kb.put_document(document)
    with pytest.raises(ValueError, match="invalid document key"):
        kb.delete_document(key)


def test_tenant_id_that_is_not_one_path_segment_is_rejected(kb: LocalKnowledgeBase) -> None:
    with pytest.raises(ValueError, match="tenant id"):
        kb.document_keys("../acme")


def test_a_new_instance_serves_the_persisted_index_without_ingesting(tmp_path: Path) -> None:
    # Given an index ingested by one instance
    first = LocalKnowledgeBase(tmp_path, HashingEmbedder())
    first.put_document(fact("acme", "d", "f1", "alpha beta"))
    first.start_ingestion(now=NOW)

    # When a fresh instance (a later process) opens the same folder
    embedder = RecordingEmbedder()
    second = LocalKnowledgeBase(tmp_path, embedder)

    # Then it serves the index without embedding any document again
    assert texts(second, "alpha beta") == ["alpha beta"]
    assert embedder.embedded == []


def test_index_on_disk_is_a_float32_matrix_with_its_model_id(tmp_path: Path) -> None:
    kb = LocalKnowledgeBase(tmp_path, HashingEmbedder(dimension=32, model_id="m-32"))
    kb.put_document(fact("acme", "d", "f1", "alpha beta"))
    kb.put_document(fact("acme", "d", "f2", "gamma"))

    kb.start_ingestion(now=NOW)

    pointer = json.loads((tmp_path / "index" / "CURRENT").read_text())
    generation = tmp_path / "index" / pointer["directory"]
    matrix = np.load(generation / "vectors.npy")
    table = json.loads((generation / "table.json").read_text())
    assert matrix.dtype == np.float32 and matrix.shape == (2, 32)
    assert matrix.flags.c_contiguous
    assert table["model_id"] == "m-32"
    assert [row["key"] for row in table["rows"]] == [
        "tenants/acme/domains/d/f1.txt",
        "tenants/acme/domains/d/f2.txt",
    ]


class FailingEmbedder(HashingEmbedder):
    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        raise RuntimeError("model crashed")


def test_failed_ingestion_keeps_serving_the_previous_index(tmp_path: Path) -> None:
    # Given an ingested document, then a new one whose ingestion fails in the model
    good = LocalKnowledgeBase(tmp_path, HashingEmbedder())
    good.put_document(fact("acme", "d", "f1", "alpha beta"))
    good.start_ingestion(now=NOW)
    good.put_document(fact("acme", "d", "f2", "alpha gamma"))

    with pytest.raises(RuntimeError, match="model crashed"):
        LocalKnowledgeBase(tmp_path, FailingEmbedder()).start_ingestion(now=NOW + 60)

    # Then the last complete index is still served, and a later ingestion is not blocked
    assert texts(good, "alpha") == ["alpha beta"]
    assert good.start_ingestion(now=NOW + 120).status == "COMPLETE"
    assert sorted(texts(good, "alpha")) == ["alpha beta", "alpha gamma"]


def test_a_job_left_running_by_a_crashed_process_reads_failed(tmp_path: Path) -> None:
    # Given a process that dies in the middle of an ingestion
    script = (
        "import os, sys\n"
        "from pathlib import Path\n"
        "from agent_memory.adapters.local.knowledge_base import LocalKnowledgeBase\n"
        "from agent_memory.core.model.models import KbDocument\n"
        "from tests.support.embedder import HashingEmbedder, RecordingEmbedder\n"
        "class Dying(HashingEmbedder):\n"
        "    def embed_documents(self, texts):\n"
        "        os._exit(3)\n"
        "kb = LocalKnowledgeBase(Path(sys.argv[1]), Dying())\n"
        "kb.put_document(KbDocument('tenants/acme/domains/d/f1.txt', 'alpha',"
        " {'tenant_id': 'acme', 'domain': 'd'}))\n"
        "kb.start_ingestion(now=1.0)\n"
    )
    root = Path(__file__).resolve().parents[3]
    crashed = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path)], cwd=root, check=False, timeout=60
    )
    assert crashed.returncode == 3
    kb = LocalKnowledgeBase(tmp_path, HashingEmbedder())
    [abandoned] = json.loads((tmp_path / "index" / "jobs.json").read_text())

    # When the next ingestion runs (its lock proves nobody else is ingesting)
    kb.start_ingestion(now=NOW)

    # Then the dead job is reported as failed, not as running forever
    assert kb.ingestion_job(abandoned).status == "FAILED"


def test_a_job_counts_the_documents_it_could_not_index_like_bedrock(
    tmp_path: Path, kb: LocalKnowledgeBase
) -> None:
    # Given two documents, one of which got damaged on disk (its text is not UTF-8); Bedrock's
    # COMPLETE job reports such a document in numberOfDocumentsFailed and failureReasons:
    # https://docs.aws.amazon.com/bedrock/latest/APIReference/API_agent_IngestionJob.html
    kb.put_document(fact("acme", "d", "good", "alpha beta"))
    kb.put_document(fact("acme", "d", "bad", "gamma delta"))
    (tmp_path / "documents/tenants/acme/domains/d/bad.txt").write_bytes(b"\xff\xfe")
    # When a job runs
    job = kb.start_ingestion(now=NOW)
    # Then it completes with one failed document, says why, and keeps that in its record
    assert job.status == "COMPLETE"
    assert (job.statistics.scanned, job.statistics.indexed, job.statistics.failed) == (2, 1, 1)
    assert job.failure_reasons == ("tenants/acme/domains/d/bad.txt: text is not UTF-8",)
    assert kb.ingestion_job(job.job_id) == job


def test_document_states_name_what_the_index_serves(tmp_path: Path, kb: LocalKnowledgeBase) -> None:
    # Given an ingested document, a damaged one, one written after the job and one never written
    kb.put_document(fact("acme", "d", "good", "alpha beta"))
    kb.put_document(fact("acme", "d", "bad", "gamma delta"))
    (tmp_path / "documents/tenants/acme/domains/d/bad.txt.metadata.json").write_text("{")
    kb.start_ingestion(now=NOW)
    kb.put_document(fact("acme", "d", "late", "epsilon"))
    keys = [f"tenants/acme/domains/d/{n}.txt" for n in ("good", "bad", "late", "never")]
    # When the KB is asked about each
    states = kb.document_states(keys)
    # Then only the ingested one is INDEXED; the late one is PENDING; the rest FAILED
    assert [states[k] for k in keys] == ["INDEXED", "FAILED", "PENDING", "FAILED"]
    # And a later rewrite that makes the damaged one readable is indexed by the next job
    kb.put_document(fact("acme", "d", "bad", "gamma delta"))
    assert kb.start_ingestion(now=NOW + 1).statistics.failed == 0
    assert kb.document_states(keys[1:2]) == {keys[1]: "INDEXED"}


# --- deleting and erasing leave no copy -------------------------------------------------------


def files_naming(root: Path, needle: str) -> list[str]:
    """Every path under ``root`` whose name or bytes contain ``needle``."""
    return [
        p.relative_to(root).as_posix()
        for p in sorted(root.rglob("*"))
        if needle in p.name or (p.is_file() and needle.encode() in p.read_bytes())
    ]


def test_deleting_a_document_removes_the_folders_it_left_empty(
    tmp_path: Path, kb: LocalKnowledgeBase
) -> None:
    # Given two documents of one tenant in two domains
    kb.put_document(fact("acme", "contracts", "f1", "alpha"))
    kb.put_document(fact("acme", "privacy", "f2", "beta"))
    # When the one in contracts is deleted
    kb.delete_document("tenants/acme/domains/contracts/f1.txt")
    # Then its domain's folder went, the tenant's stayed (it holds privacy)
    documents = tmp_path / "documents/tenants/acme/domains"
    assert sorted(p.name for p in documents.iterdir()) == ["privacy"]
    # And when the last one goes, so does every folder naming the tenant
    kb.delete_document("tenants/acme/domains/privacy/f2.txt")
    assert files_naming(tmp_path, "acme") == []
    # And a document written there again makes its folders anew
    kb.put_document(fact("acme", "privacy", "f3", "gamma"))
    assert kb.document_keys("acme") == ["tenants/acme/domains/privacy/f3.txt"]


def test_an_ingestion_that_drops_a_document_keeps_no_generation_holding_its_text(
    tmp_path: Path, kb: LocalKnowledgeBase
) -> None:
    # Given an ingested document, deleted afterwards
    kb.put_document(fact("acme", "d", "f1", "the quetzal clause"))
    kb.put_document(fact("acme", "d", "f2", "alpha beta"))
    kb.start_ingestion(now=NOW)
    kb.delete_document("tenants/acme/domains/d/f1.txt")
    # When the next ingestion drops it from the index
    kb.start_ingestion(now=NOW + 1)
    # Then no file keeps its text: the generation before, which held it, is gone too
    assert files_naming(tmp_path, "quetzal") == []
    assert texts(kb, "alpha beta") == ["alpha beta"]


def test_an_ingestion_that_only_adds_keeps_the_previous_generation_for_readers(
    tmp_path: Path, kb: LocalKnowledgeBase
) -> None:
    # Given an index, and a document added after it
    kb.put_document(fact("acme", "d", "f1", "alpha"))
    kb.start_ingestion(now=NOW)
    kb.put_document(fact("acme", "d", "f2", "beta"))
    # When the next ingestion publishes
    kb.start_ingestion(now=NOW + 1)
    # Then the previous generation stays (everything in it is in the new one)
    assert sorted(p.name for p in (tmp_path / "index").glob("gen-*")) == [
        "gen-00000001",
        "gen-00000002",
    ]


def test_erasing_a_tenant_drops_it_from_the_index_at_once_without_embedding(
    tmp_path: Path, kb: LocalKnowledgeBase, embedder: RecordingEmbedder
) -> None:
    # Given two tenants ingested twice (so the index has a previous generation)
    kb.put_document(fact("acme", "d", "f1", "the quetzal clause"))
    kb.start_ingestion(now=NOW)
    kb.put_document(fact("globex", "d", "f2", "the okapi clause"))
    kb.start_ingestion(now=NOW + 1)
    embedded = len(embedder.embedded)
    # When acme is erased (no ingestion after it)
    erasure = kb.erase_tenant("acme")
    # Then no file names acme or holds its text, and globex is served as before
    assert files_naming(tmp_path, "acme") == files_naming(tmp_path, "quetzal") == []
    assert texts(kb, "okapi clause", tenant="globex") == ["the okapi clause"]
    assert texts(kb, "quetzal clause", tenant="acme") == []
    # And nothing was embedded again
    assert len(embedder.embedded) == embedded
    # And the erasure says what it did: one document (text and sidecar), its three folders,
    # one generation written, the two before it removed
    assert (erasure.documents, erasure.files_removed, erasure.folders_removed) == (1, 2, 3)
    assert (erasure.index_generations_rewritten, erasure.index_generations_removed) == (1, 2)


def test_a_new_instance_serves_the_erased_index(tmp_path: Path, kb: LocalKnowledgeBase) -> None:
    kb.put_document(fact("acme", "d", "f1", "alpha"))
    kb.put_document(fact("globex", "d", "f2", "alpha"))
    kb.start_ingestion(now=NOW)
    kb.erase_tenant("acme")
    fresh = LocalKnowledgeBase(tmp_path, HashingEmbedder())
    assert texts(fresh, "alpha", tenant="acme") == []
    assert texts(fresh, "alpha", tenant="globex") == ["alpha"]


def test_erasing_a_tenant_drops_it_from_an_index_prepared_for_a_new_model(
    tmp_path: Path, kb: LocalKnowledgeBase
) -> None:
    # Given an index prepared in a new model's space, holding both tenants
    kb.put_document(fact("acme", "d", "f1", "the quetzal clause"))
    kb.put_document(fact("globex", "d", "f2", "the okapi clause"))
    kb.start_ingestion(now=NOW)
    new_model = HashingEmbedder(model_id="test-hashing-next")
    assert kb.prepare_index(new_model) == 2
    # When acme is erased
    erasure = kb.erase_tenant("acme")
    # Then neither index holds it, and the prepared one is published without it
    assert files_naming(tmp_path, "quetzal") == []
    assert erasure.index_generations_rewritten == 2
    kb.publish_index(new_model)
    moved = LocalKnowledgeBase(tmp_path, new_model)
    assert texts(moved, "okapi clause", tenant="globex") == ["the okapi clause"]
    assert texts(moved, "quetzal clause", tenant="acme") == []


def test_erasing_a_tenant_drops_the_failure_reasons_naming_its_documents(
    tmp_path: Path, kb: LocalKnowledgeBase
) -> None:
    # Given a job that could not index one of acme's documents, and one of globex's
    kb.put_document(fact("acme", "d", "bad", "alpha"))
    kb.put_document(fact("globex", "d", "bad", "beta"))
    for tenant in ("acme", "globex"):
        (tmp_path / f"documents/tenants/{tenant}/domains/d/bad.txt").write_bytes(b"\xff")
    job = kb.start_ingestion(now=NOW)
    # When acme is erased
    kb.erase_tenant("acme")
    # Then the job log no longer names acme's document, still names globex's, and still counts
    # both failures
    assert files_naming(tmp_path, "acme") == []
    recorded = kb.ingestion_job(job.job_id)
    assert recorded.failure_reasons == ("tenants/globex/domains/d/bad.txt: text is not UTF-8",)
    assert recorded.statistics.failed == 2


def test_erasing_waits_for_a_running_ingestion_then_reports_busy_having_changed_nothing(
    tmp_path: Path,
) -> None:
    # Given an ingestion stuck in embedding, and an erasure that waits 0.2 s for it
    blocking = BlockingEmbedder()
    running = LocalKnowledgeBase(tmp_path, blocking)
    running.put_document(fact("acme", "d", "f1", "alpha"))
    runner = threading.Thread(target=running.start_ingestion, kwargs={"now": NOW})
    runner.start()
    try:
        assert blocking.entered.wait(timeout=10)
        erasing = LocalKnowledgeBase(tmp_path, HashingEmbedder(), erase_wait=0.2)
        # When acme is erased / Then it is told the index is busy, and the document is still there
        with pytest.raises(IngestionBusy):
            erasing.erase_tenant("acme")
        assert erasing.document_keys("acme") == ["tenants/acme/domains/d/f1.txt"]
    finally:
        blocking.release.set()
        runner.join(timeout=10)


def test_erasing_after_a_running_ingestion_ends_waits_for_it_and_erases(tmp_path: Path) -> None:
    # Given an ingestion stuck in embedding, released 0.3 s later
    blocking = BlockingEmbedder()
    running = LocalKnowledgeBase(tmp_path, blocking)
    running.put_document(fact("acme", "d", "f1", "the quetzal clause"))
    runner = threading.Thread(target=running.start_ingestion, kwargs={"now": NOW})
    runner.start()
    assert blocking.entered.wait(timeout=10)
    threading.Timer(0.3, blocking.release.set).start()
    # When acme is erased meanwhile / Then the erasure waited for the job and removed its rows
    erasure = LocalKnowledgeBase(tmp_path, HashingEmbedder(), erase_wait=10).erase_tenant("acme")
    runner.join(timeout=10)
    assert erasure.index_generations_rewritten == 1
    assert files_naming(tmp_path, "quetzal") == []
