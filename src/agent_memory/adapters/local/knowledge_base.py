"""The local stand-in for a Bedrock Knowledge Base: a document folder plus an ingested index."""

from __future__ import annotations

import logging
import threading
import uuid
from dataclasses import replace
from pathlib import Path

import numpy as np

from agent_memory.adapters.local.kb.documents import DocumentFolder
from agent_memory.adapters.local.kb.ingest import next_snapshot
from agent_memory.adapters.local.kb.jobs import JobLog
from agent_memory.adapters.local.kb.lock import ingestion_lock
from agent_memory.adapters.local.kb.snapshot import IndexSnapshot
from agent_memory.adapters.local.kb.store import IndexStore, IndexUnreadable, Stamp
from agent_memory.core.errors import NotFound
from agent_memory.core.models import IngestionJob, KbDocument, KbHit
from agent_memory.core.ports import Embedder, FloatArray

__all__ = ["LocalKnowledgeBase"]

logger = logging.getLogger(__name__)


class LocalKnowledgeBase:
    """A ``KnowledgeBase`` on local disk that, like Bedrock, only searches what was ingested.

    ``root/documents/`` mirrors the KB bucket (``<key>`` plus ``<key>.metadata.json``);
    ``root/index/`` holds the vector index that ``start_ingestion`` rebuilds from it. Writes
    never touch the index, so a document is invisible to ``retrieve`` until the next ingestion.
    """

    def __init__(self, root: Path, embedder: Embedder, *, batch_size: int = 64) -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size}")
        self._embedder = embedder
        self._batch_size = batch_size
        self._documents = DocumentFolder(root / "documents")
        self._store = IndexStore(root / "index")
        self._jobs = JobLog(root / "index" / "jobs.json")
        self._lock_path = root / "index" / "ingest.lock"
        self._cache_lock = threading.Lock()
        self._cached: tuple[Stamp, IndexSnapshot] | None = None

    def put_document(self, document: KbDocument) -> None:
        """Write (or overwrite) the document and its sidecar; ValueError for an unsafe key."""
        self._documents.put(document)

    def delete_document(self, key: str) -> None:
        """Remove the document and its sidecar; the index drops it at the next ingestion."""
        self._documents.delete(key)

    def document_keys(self, tenant_id: str) -> list[str]:
        """Keys of every document under ``tenants/{tenant_id}/``, sorted."""
        return self._documents.keys(tenant_id)

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
                self._ingest()
            except BaseException:
                self._jobs.record(replace(job, status="FAILED"))
                raise
            done = replace(job, status="COMPLETE")
            self._jobs.record(done)
            return done

    def ingestion_job(self, job_id: str) -> IngestionJob:
        """Return the job's state; ``NotFound`` for an id this knowledge base never issued."""
        job = self._jobs.get(job_id)
        if job is None:
            raise NotFound(f"no ingestion job {job_id!r}")
        return job

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
        if snapshot is None or limit <= 0:
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

    def _ingest(self) -> None:
        try:
            previous = self._snapshot()
        except IndexUnreadable:
            logger.warning("kb index unreadable; rebuilding it", exc_info=True)
            previous = None
        snapshot = next_snapshot(
            list(self._documents.scan()),
            previous,
            self._embedder,
            generation=self._store.next_generation(),
            batch_size=self._batch_size,
        )
        if snapshot is not None:
            stamp = self._store.write(snapshot)
            with self._cache_lock:
                self._cached = (stamp, snapshot)

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
