"""The local stand-in for a Bedrock Knowledge Base: a document folder plus an ingested index."""

from __future__ import annotations

import logging
import shutil
import threading
import uuid
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

from agent_memory.adapters.local.kb.documents import DocumentFolder, Removed
from agent_memory.adapters.local.kb.ingest import next_snapshot
from agent_memory.adapters.local.kb.jobs import JobLog
from agent_memory.adapters.local.kb.keys import validate_segment
from agent_memory.adapters.local.kb.lock import ingestion_lock
from agent_memory.adapters.local.kb.snapshot import IndexSnapshot
from agent_memory.adapters.local.kb.store import IndexStore, IndexUnreadable, Stamp
from agent_memory.core.model import keys as key_scheme
from agent_memory.core.model.errors import NotFound
from agent_memory.core.model.models import (
    DocumentState,
    IngestionJob,
    IngestionStatistics,
    KbDocument,
    KbHit,
)
from agent_memory.core.ports import Embedder, FloatArray, KbErasure

__all__ = ["LocalKnowledgeBase"]

logger = logging.getLogger(__name__)

# How long erasing a tenant waits for a running ingestion (forget is rare; an ingestion of a
# large batch on a CPU model can take this long).
ERASE_WAIT_SECONDS = 120.0


class LocalKnowledgeBase:
    """A ``KnowledgeBase`` on local disk that, like Bedrock, only searches what was ingested.

    ``root/documents/`` mirrors the KB bucket (``<key>`` plus ``<key>.metadata.json``);
    ``root/index/`` holds the vector index that ``start_ingestion`` rebuilds from it. Writes
    never touch the index, so a document is invisible to ``retrieve`` until the next ingestion.

    It is also a ``ReindexableKnowledgeBase``: ahead of a change of embedding model,
    ``root/index-next/`` holds the new model's index, built while the old one is served and
    swapped in as the next generation of ``root/index/`` when the store switches.

    And it is an ``ErasingKnowledgeBase``: ``erase_tenant`` drops a tenant from the documents
    and from both indexes at once, so no file keeps a byte of it.
    """

    def __init__(
        self,
        root: Path,
        embedder: Embedder,
        *,
        batch_size: int = 64,
        erase_wait: float = ERASE_WAIT_SECONDS,
    ) -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size}")
        self._embedder = embedder
        self._batch_size = batch_size
        self._erase_wait = erase_wait
        self._documents = DocumentFolder(root / "documents")
        self._store = IndexStore(root / "index")
        self._prepared = IndexStore(root / "index-next")
        self._jobs = JobLog(root / "index" / "jobs.json")
        self._lock_path = root / "index" / "ingest.lock"
        self._cache_lock = threading.Lock()
        self._cached: tuple[Stamp, IndexSnapshot] | None = None

    def put_document(self, document: KbDocument) -> None:
        """Write (or overwrite) the document and its sidecar; ValueError for an unsafe key."""
        self._documents.put(document)

    def delete_document(self, key: str) -> None:
        """Remove the document, its sidecar and any folder left empty; the index drops it at
        the next ingestion.
        """
        self._documents.delete(key)

    def document_keys(self, tenant_id: str) -> list[str]:
        """Keys of every document under ``tenants/{tenant_id}/``, sorted."""
        return self._documents.keys(tenant_id)

    def erase_tenant(self, tenant_id: str) -> KbErasure:
        """Delete the tenant's documents, and its rows from the served and the prepared index
        now (each rewritten as a new generation, older generations removed), and the failure
        reasons naming its documents in the job log; no vector is computed.

        Waits for a running ingestion up to ``erase_wait`` seconds, then raises
        ``IngestionBusy`` having changed nothing.
        """
        prefix = key_scheme.tenant_folder(validate_segment(tenant_id, "tenant id"))
        with ingestion_lock(self._lock_path, wait=self._erase_wait):
            keys = self._documents.keys(tenant_id)
            removed = Removed()
            for key in keys:
                done = self._documents.delete(key)
                removed.files += done.files
                removed.folders += done.folders
            rewritten, pruned, rebuild = 0, 0, False
            for store in (self._store, self._prepared):
                before, written = store.generations(), 0
                try:
                    written = self._erase_from(store, tenant_id)
                except IndexUnreadable:
                    # It cannot be filtered, so it goes: the served index is rebuilt by the
                    # next ingestion, the prepared one by the next prepare or publish.
                    if store is self._store:
                        store.clear()
                        rebuild = True
                    else:
                        _remove(store.directory)
                rewritten += written
                pruned += before + written - store.generations()
            self._jobs.drop_reasons(prefix)
        return KbErasure(
            documents=len(keys),
            files_removed=removed.files,
            folders_removed=removed.folders,
            index_generations_rewritten=rewritten,
            index_generations_removed=pruned,
            index_rebuild_needed=rebuild,
        )

    def _erase_from(self, store: IndexStore, tenant_id: str) -> int:
        """Publish the index in ``store`` without the tenant's rows, if it has any, and remove
        every older generation; how many generations were written.
        """
        loaded = store.load()
        if loaded is None or not loaded[1].holds_tenant(tenant_id):
            store.prune()
            return 0
        snapshot = loaded[1].without_tenant(tenant_id, generation=store.next_generation())
        stamp = store.write(snapshot, keep_previous=False)
        if store is self._store:
            with self._cache_lock:
                self._cached = (stamp, snapshot)
        return 1

    def start_ingestion(self, *, now: float) -> IngestionJob:
        """Index the documents as they are now and return the finished job.

        Runs synchronously; raises ``IngestionBusy`` while another ingestion (in any thread or
        process using the same root) holds the lock.
        """
        with ingestion_lock(self._lock_path):
            self._jobs.abandon_running()
            job = IngestionJob(job_id=uuid.uuid4().hex, status="IN_PROGRESS", started_at=now)
            self._jobs.record(job)
            try:
                statistics, failures = self._ingest()
            except BaseException:
                self._jobs.record(replace(job, status="FAILED"))
                raise
            # Like Bedrock, a job that could not index some documents still completes.
            reasons = tuple(f"{key}: {why}" for key, why in failures.items())
            done = replace(job, status="COMPLETE", statistics=statistics, failure_reasons=reasons)
            self._jobs.record(done)
            return done

    def ingestion_job(self, job_id: str) -> IngestionJob:
        """Return the job's state; ``NotFound`` for an id this knowledge base never issued."""
        job = self._jobs.get(job_id)
        if job is None:
            raise NotFound(f"no ingestion job {job_id!r}")
        return job

    def document_states(self, keys: Sequence[str]) -> dict[str, DocumentState]:
        """INDEXED when the served index holds the document as it is on disk; FAILED when it
        is missing or cannot be indexed; PENDING when the next ingestion will take it.
        """
        try:
            snapshot = self._snapshot()
        except IndexUnreadable:
            snapshot = None
        states: dict[str, DocumentState] = {}
        for key in keys:
            document = self._documents.inspect(key)
            if isinstance(document, str):
                states[key] = "FAILED"
            elif (
                snapshot is not None and snapshot.vector_of(key, document.content_hash) is not None
            ):
                states[key] = "INDEXED"
            else:
                states[key] = "PENDING"
        return states

    def retrieve(
        self,
        text: str,
        *,
        tenant_id: str,
        domain: str | None,
        limit: int,
        query_vector: FloatArray | None = None,
        query_model_id: str | None = None,
    ) -> list[KbHit]:
        """Find the tenant's (and domain's) ingested documents nearest ``text``, best first.

        ``query_vector`` is used instead of embedding ``text`` when ``query_model_id`` is the
        index's model. An index built by another model than the embedder's answers nothing
        until it is re-ingested.
        """
        snapshot = self._snapshot()
        # A blank query matches nothing, as Bedrock's Retrieve answers it.
        if snapshot is None or limit <= 0 or not text.strip():
            return []
        if query_vector is not None and query_model_id == snapshot.model_id:
            query = query_vector
        elif self._embedder.model_id == snapshot.model_id:
            query = self._embedder.embed_query(text)
        else:
            logger.warning(
                "kb index built by another embedding model; ingest again",
                extra={"index_model": snapshot.model_id, "embedder": self._embedder.model_id},
            )
            return []
        return snapshot.search(
            np.asarray(query, dtype=np.float32), tenant_id=tenant_id, domain=domain, limit=limit
        )

    def index_model(self) -> str | None:
        """Read from the served snapshot; None while none is readable."""
        try:
            snapshot = self._snapshot()
        except IndexUnreadable:
            return None
        return None if snapshot is None else snapshot.model_id

    def prepare_index(self, embedder: Embedder) -> int:
        """Build, or bring up to date, the index in ``embedder``'s space beside the served one.

        Vectors of documents already prepared are reused; raises ``IngestionBusy`` while an
        ingestion runs. Returns the number of documents in the prepared index.
        """
        with ingestion_lock(self._lock_path):
            documents = list(self._documents.scan())
            snapshot = next_snapshot(
                documents,
                self._prepared_in(embedder),
                embedder,
                generation=self._prepared.next_generation(),
                batch_size=self._batch_size,
            )
            if snapshot is not None:
                self._prepared.write(snapshot)
            return len(documents)

    def publish_index(self, embedder: Embedder) -> None:
        """Serve the index in ``embedder``'s space: the prepared one brought up to date (or built
        now), published as the next generation in one pointer swap.

        Nothing is published before the first ingestion (that one will use the new model) or
        when the served index already is in that space. Raises ``IngestionBusy`` like ingestion.
        """
        with ingestion_lock(self._lock_path):
            try:
                served = self._snapshot()
            except IndexUnreadable:
                served = None
            if served is not None and served.model_id != embedder.model_id:
                documents = list(self._documents.scan())
                prepared = self._prepared_in(embedder)
                generation = self._store.next_generation()
                snapshot = next_snapshot(
                    documents,
                    prepared,
                    embedder,
                    generation=generation,
                    batch_size=self._batch_size,
                )
                if snapshot is None:  # the prepared index is exactly the documents' index
                    assert prepared is not None
                    snapshot = IndexSnapshot(
                        generation=generation,
                        model_id=prepared.model_id,
                        dimension=prepared.dimension,
                        rows=prepared.rows,
                        matrix=prepared.matrix,
                    )
                stamp = self._store.write(snapshot)
                with self._cache_lock:
                    self._cached = (stamp, snapshot)
            _remove(self._prepared.directory)

    def discard_prepared_index(self) -> None:
        """Remove the prepared folder under the ingestion lock."""
        with ingestion_lock(self._lock_path):
            _remove(self._prepared.directory)

    def _prepared_in(self, embedder: Embedder) -> IndexSnapshot | None:
        """The prepared index, if it is in ``embedder``'s space and readable."""
        try:
            loaded = self._prepared.load()
        except IndexUnreadable:
            return None
        if loaded is None or loaded[1].model_id != embedder.model_id:
            return None
        return loaded[1]

    def _ingest(self) -> tuple[IngestionStatistics, dict[str, str]]:
        """Index the documents on disk; the job's statistics and the documents that failed."""
        try:
            previous = self._snapshot()
        except IndexUnreadable:
            logger.warning("kb index unreadable; rebuilding it", exc_info=True)
            previous = None
        failures: dict[str, str] = {}
        documents = list(self._documents.scan(failures))
        # Documents whose vectors ingestion reuses were indexed before: not counted again.
        reusable = previous if previous and previous.model_id == self._embedder.model_id else None
        kept = sum(
            reusable is not None and reusable.vector_of(d.key, d.content_hash) is not None
            for d in documents
        )
        statistics = IngestionStatistics(
            scanned=len(documents) + len(failures),
            indexed=len(documents) - kept,
            failed=len(failures),
        )
        snapshot = next_snapshot(
            documents,
            previous,
            self._embedder,
            generation=self._store.next_generation(),
            batch_size=self._batch_size,
        )
        if snapshot is not None:
            # The previous generation stays for readers only if it holds no deleted document.
            keep = previous is None or snapshot.holds_all_of(previous)
            stamp = self._store.write(snapshot, keep_previous=keep)
            with self._cache_lock:
                self._cached = (stamp, snapshot)
        return statistics, failures

    def _snapshot(self) -> IndexSnapshot | None:
        """Return the newest published index, read from disk only when its pointer changed."""
        stamp = self._store.stamp()
        with self._cache_lock:
            cached = self._cached
            if cached is not None and cached[0] == stamp:
                return cached[1]
            loaded = self._store.load(known=None if cached is None else cached[1])
            self._cached = loaded
            return None if loaded is None else loaded[1]


def _remove(directory: Path) -> None:
    shutil.rmtree(directory, ignore_errors=True)
