"""The ``KnowledgeBase`` port on AWS: documents in S3, indexed and searched by Bedrock KB."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol

from botocore.exceptions import ClientError  # type: ignore[import-untyped, unused-ignore]

from agent_memory.adapters.aws import _kb_documents as layout
from agent_memory.adapters.aws._errors import error_code, transient_errors
from agent_memory.core.model.errors import IngestionBusy, NotFound
from agent_memory.core.model.models import (
    DocumentState,
    IngestionJob,
    IngestionState,
    IngestionStatistics,
    KbDocument,
    KbHit,
)
from agent_memory.core.ports import FloatArray

__all__ = ["BedrockKnowledgeBase"]

logger = logging.getLogger(__name__)

# Bedrock's IngestionJobStatus, as the core's states: a stopping job still blocks a new one,
# and a stopped job did not ingest everything.
_STATES: dict[str, IngestionState] = {
    "STARTING": "STARTING",
    "IN_PROGRESS": "IN_PROGRESS",
    "COMPLETE": "COMPLETE",
    "FAILED": "FAILED",
    "STOPPING": "IN_PROGRESS",
    "STOPPED": "FAILED",
}
MAX_RESULTS = 100  # Retrieve's numberOfResults range is 1..100.
# GetKnowledgeBaseDocuments takes 1..10 documentIdentifiers:
# https://docs.aws.amazon.com/bedrock/latest/APIReference/API_agent_GetKnowledgeBaseDocuments.html
MAX_DOCUMENTS_PER_CALL = 10
# Bedrock's DocumentStatus as the core's: only INDEXED is served; a document still on its way
# is PENDING; anything else (FAILED, IGNORED, NOT_FOUND, partly indexed, or its metadata,
# which carries the tenant filter, not indexed) is not reliably served.
_DOCUMENT_STATES: dict[str, DocumentState] = {
    "INDEXED": "INDEXED",
    "STARTING": "PENDING",
    "PENDING": "PENDING",
    "IN_PROGRESS": "PENDING",
}


class S3Client(Protocol):
    """The S3 calls this adapter makes."""

    def put_object(self, **kwargs: Any) -> dict[str, Any]: ...
    def delete_object(self, **kwargs: Any) -> dict[str, Any]: ...
    def list_objects_v2(self, **kwargs: Any) -> dict[str, Any]: ...


class AgentClient(Protocol):
    """The ``bedrock-agent`` calls this adapter makes."""

    def start_ingestion_job(self, **kwargs: Any) -> dict[str, Any]: ...
    def get_ingestion_job(self, **kwargs: Any) -> dict[str, Any]: ...
    def get_knowledge_base_documents(self, **kwargs: Any) -> dict[str, Any]: ...


class RuntimeClient(Protocol):
    """The ``bedrock-agent-runtime`` calls this adapter makes."""

    def retrieve(self, **kwargs: Any) -> dict[str, Any]: ...


class BedrockKnowledgeBase:
    """A ``KnowledgeBase`` on an S3 data source of a Bedrock Knowledge Base.

    Documents are written as text plus a ``.metadata.json`` sidecar (layout in
    ``_kb_documents``); Bedrock indexes them only when an ingestion job runs, and embeds query
    text itself, so ``retrieve`` ignores the core's query vector. Every retrieve filters on
    ``tenant_id`` in Bedrock and again on the results.

    ``clock_skew_margin`` is taken off Bedrock's job start time: the core counts a fact as
    ingested when it was staged before the job started, and facts are stamped with the
    caller's clock, not Bedrock's.
    """

    def __init__(
        self,
        *,
        bucket: str,
        knowledge_base_id: str,
        data_source_id: str,
        s3: S3Client,
        agent: AgentClient,
        agent_runtime: RuntimeClient,
        list_page_size: int = 1000,
        clock_skew_margin: float = 2.0,
    ) -> None:
        if not 1 <= list_page_size <= 1000:
            raise ValueError("list_page_size must be within 1..1000")
        self._bucket = bucket
        self._kb_id = knowledge_base_id
        self._ds_id = data_source_id
        self._s3 = s3
        self._agent = agent
        self._runtime = agent_runtime
        self._page_size = list_page_size
        self._margin = clock_skew_margin

    @classmethod
    def from_session(
        cls, session: Any, *, bucket: str, knowledge_base_id: str, data_source_id: str
    ) -> BedrockKnowledgeBase:
        """The adapter with clients from a ``boto3.Session`` (e.g. a tenant-scoped one)."""
        return cls(
            bucket=bucket,
            knowledge_base_id=knowledge_base_id,
            data_source_id=data_source_id,
            s3=session.client("s3"),
            agent=session.client("bedrock-agent"),
            agent_runtime=session.client("bedrock-agent-runtime"),
        )

    def put_document(self, document: KbDocument) -> None:
        """Write the sidecar, then the text: a text object never exists without its tenant."""
        name = layout.object_key(document.key)
        text = layout.document_text(document)
        sidecar = layout.sidecar_json(document)
        with transient_errors("s3 put_object"):
            self._s3.put_object(
                Bucket=self._bucket,
                Key=layout.sidecar_key(name),
                Body=sidecar,
                ContentType="application/json",
            )
            self._s3.put_object(
                Bucket=self._bucket,
                Key=name,
                Body=text.encode("utf-8"),
                ContentType="text/plain; charset=utf-8",
            )

    def delete_document(self, key: str) -> None:
        """Delete the text, then its sidecar; the index drops it at the next ingestion."""
        name = layout.object_key(key)
        with transient_errors("s3 delete_object"):
            self._s3.delete_object(Bucket=self._bucket, Key=name)
            self._s3.delete_object(Bucket=self._bucket, Key=layout.sidecar_key(name))

    def document_keys(self, tenant_id: str) -> list[str]:
        """Keys of every document under ``tenants/{tenant_id}/``, sorted (all pages)."""
        request: dict[str, Any] = {
            "Bucket": self._bucket,
            "Prefix": layout.tenant_prefix(tenant_id),
            "MaxKeys": self._page_size,
        }
        keys: list[str] = []
        while True:
            with transient_errors("s3 list_objects_v2"):
                page = self._s3.list_objects_v2(**request)
            for item in page.get("Contents", []):
                key = layout.document_key(item["Key"])
                if key is not None:
                    keys.append(key)
            if not page.get("IsTruncated"):
                return sorted(keys)
            request["ContinuationToken"] = page["NextContinuationToken"]

    def start_ingestion(self, *, now: float) -> IngestionJob:
        """Start a sync of the data source; ``IngestionBusy`` while one is running."""
        try:
            with transient_errors("bedrock start_ingestion_job"):
                response = self._agent.start_ingestion_job(
                    knowledgeBaseId=self._kb_id, dataSourceId=self._ds_id
                )
        except ClientError as error:
            if error_code(error) == "ConflictException":
                raise IngestionBusy("a knowledge-base ingestion job is running") from error
            raise
        return self._job(response["ingestionJob"], fallback_start=now)

    def ingestion_job(self, job_id: str) -> IngestionJob:
        """The job's state; ``NotFound`` if Bedrock does not know it."""
        try:
            with transient_errors("bedrock get_ingestion_job"):
                response = self._agent.get_ingestion_job(
                    knowledgeBaseId=self._kb_id, dataSourceId=self._ds_id, ingestionJobId=job_id
                )
        except ClientError as error:
            if error_code(error) == "ResourceNotFoundException":
                raise NotFound(f"no ingestion job {job_id!r}") from error
            raise
        return self._job(response["ingestionJob"], fallback_start=None)

    def document_states(self, keys: Sequence[str]) -> dict[str, DocumentState]:
        """Each document's status in the data source, ten documents a call; a document
        Bedrock does not report is FAILED (it is not in the index).

        GetIngestionJob only counts failed documents; GetKnowledgeBaseDocuments names them:
        https://docs.aws.amazon.com/bedrock/latest/userguide/kb-direct-ingestion-view.html
        """
        uris = {f"s3://{self._bucket}/{layout.object_key(key)}": key for key in keys}
        states: dict[str, DocumentState] = dict.fromkeys(keys, "FAILED")
        batch = list(uris)
        for start in range(0, len(batch), MAX_DOCUMENTS_PER_CALL):
            identifiers = [
                {"dataSourceType": "S3", "s3": {"uri": uri}}
                for uri in batch[start : start + MAX_DOCUMENTS_PER_CALL]
            ]
            with transient_errors("bedrock get_knowledge_base_documents"):
                response = self._agent.get_knowledge_base_documents(
                    knowledgeBaseId=self._kb_id,
                    dataSourceId=self._ds_id,
                    documentIdentifiers=identifiers,
                )
            for detail in response.get("documentDetails", []):
                key = uris.get(((detail.get("identifier") or {}).get("s3") or {}).get("uri", ""))
                if key is None:
                    continue
                states[key] = _DOCUMENT_STATES.get(detail.get("status", ""), "FAILED")
                if states[key] == "FAILED":
                    logger.warning(
                        "kb document not indexed",
                        extra={
                            "key": key,
                            "status": detail.get("status"),
                            "reason": detail.get("statusReason"),
                        },
                    )
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
        """The tenant's (and domain's) ingested documents nearest ``text``, best first."""
        search = {
            "numberOfResults": min(limit, MAX_RESULTS),
            "filter": layout.retrieval_filter(tenant_id, domain),
        }
        if limit <= 0 or not text.strip():
            return []
        with transient_errors("bedrock retrieve"):
            response = self._runtime.retrieve(
                knowledgeBaseId=self._kb_id,
                retrievalQuery={"text": text},
                retrievalConfiguration={"vectorSearchConfiguration": search},
            )
        hits = []
        for result in response.get("retrievalResults", []):
            metadata = dict(result.get("metadata") or {})
            content = (result.get("content") or {}).get("text")
            if metadata.get("tenant_id") != tenant_id:
                logger.warning("kb result of another tenant dropped", extra={"kb": self._kb_id})
            elif isinstance(content, str):
                hits.append(KbHit(content, float(result.get("score", 0.0)), metadata))
        return hits

    def _job(self, job: dict[str, Any], *, fallback_start: float | None) -> IngestionJob:
        status = _STATES.get(job["status"])
        if status is None:
            logger.warning("unknown ingestion job status", extra={"status": job["status"]})
            status = "FAILED"
        started: datetime | None = job.get("startedAt")
        if started is not None:
            started_at = started.timestamp() - self._margin
        elif fallback_start is not None:
            started_at = fallback_start
        else:
            raise ValueError(f"ingestion job {job['ingestionJobId']!r} has no start time")
        counts = job.get("statistics") or {}
        statistics = IngestionStatistics(
            scanned=int(counts.get("numberOfDocumentsScanned", 0)),
            indexed=int(counts.get("numberOfNewDocumentsIndexed", 0))
            + int(counts.get("numberOfModifiedDocumentsIndexed", 0)),
            failed=int(counts.get("numberOfDocumentsFailed", 0)),
        )
        return IngestionJob(
            job_id=job["ingestionJobId"],
            status=status,
            started_at=started_at,
            statistics=statistics,
            failure_reasons=tuple(job.get("failureReasons") or ()),
        )
