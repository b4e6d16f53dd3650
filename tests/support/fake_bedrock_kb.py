"""A stateful in-process Bedrock Knowledge Base over an S3 data source (moto's bucket).

moto has S3 but neither ingestion jobs nor ``Retrieve``. This fake answers, on real
``bedrock-agent`` and ``bedrock-agent-runtime`` clients (``tests.support.botocore_answers``),
the calls ``BedrockKnowledgeBase`` makes, with the behaviour Bedrock documents:

- ``StartIngestionJob`` reads the bucket as it is then (text objects and their
  ``.metadata.json`` sidecars) and answers STARTING; a second start while a job is STARTING or
  IN_PROGRESS is a ``ConflictException``.
- ``GetIngestionJob`` moves the job one state on per call (STARTING, IN_PROGRESS, COMPLETE), so a
  caller that polls sees it finish; at COMPLETE the index becomes what the job read (documents
  gone from the bucket are dropped), with Bedrock's statistics.
- ``Retrieve`` embeds the query with a deterministic embedder, honours the metadata filter
  (``equals``, ``notEquals``, ``in``, ``andAll``, ``orAll``; anything else is refused so a
  filter the fake cannot honour fails loudly) and returns results in Bedrock's shape, metadata
  including Bedrock's own ``x-amz-bedrock-kb-*`` attributes.
- ``GetKnowledgeBaseDocuments`` reports INDEXED, IN_PROGRESS (in a running job), FAILED or
  NOT_FOUND per S3 URI, ten identifiers a call at most.

Shapes: https://docs.aws.amazon.com/bedrock/latest/APIReference/API_agent_StartIngestionJob.html,
API_agent_GetIngestionJob.html, API_agent_GetKnowledgeBaseDocuments.html,
API_agent-runtime_Retrieve.html. One document is one chunk (the texts here are short).

Switches for the resilience suite, where the workflow under faults is tested, not Bedrock:
``instant`` jobs finish as they start and the index always holds the bucket as it is;
``honour_filter`` False ignores the metadata filter, like a misconfigured knowledge base.
``retrievals`` lists every ``Retrieve`` request, ``offered_foreign`` counts the results of a
tenant other than the one the filter names.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np

from agent_memory.core.ports import Embedder
from tests.support.botocore_answers import ServiceError, answer

TEXT_SUFFIX = ".txt"
SIDECAR_SUFFIX = ".metadata.json"
MAX_DOCUMENT_IDENTIFIERS = 10
_RUNNING = ("STARTING", "IN_PROGRESS")
_NEXT = {"STARTING": "IN_PROGRESS", "IN_PROGRESS": "COMPLETE"}
# The adapter takes 2 s off a job's start for clock skew; an instant job stamped 3 s ahead
# starts after everything already staged, as a job started now would.
INSTANT_JOB_LEAD = timedelta(seconds=3)


@dataclass(frozen=True)
class _Chunk:
    uri: str
    text: str
    metadata: dict[str, Any]
    vector: Any


@dataclass
class _Job:
    job_id: str
    started: datetime
    read: dict[str, _Chunk]
    failed: dict[str, str]
    status: str = "STARTING"
    statistics: dict[str, int] = field(default_factory=dict)


class FakeBedrockKnowledgeBase:
    """One knowledge base with one S3 data source on ``bucket`` of the ``s3`` client."""

    def __init__(
        self,
        s3: Any,
        *,
        bucket: str,
        knowledge_base_id: str,
        data_source_id: str,
        embedder: Embedder,
        instant: bool = False,
    ) -> None:
        self._s3 = s3
        self._bucket = bucket
        self._kb_id = knowledge_base_id
        self._ds_id = data_source_id
        self._embedder = embedder
        # Reentrant: a job starts under it and reads the bucket, which takes it too.
        self._lock = threading.RLock()
        self._index: dict[str, _Chunk] = {}
        self._failed: dict[str, str] = {}
        self._jobs: dict[str, _Job] = {}
        # Objects read from the bucket, by key: the ETags read (text, sidecar) and the chunk,
        # or why it cannot be ingested.
        self._read: dict[str, tuple[tuple[str, str | None], _Chunk | str]] = {}
        self._instant = instant
        self.honour_filter = True
        self.retrievals: list[dict[str, Any]] = []
        self.offered_foreign = 0

    def serve(self, agent: Any, runtime: Any) -> None:
        """Answer the KB calls of these ``bedrock-agent`` and ``bedrock-agent-runtime`` clients."""
        self.serve_on(agent)
        self.serve_on(runtime)

    def serve_on(self, client: Any) -> None:
        """Answer the KB calls of ``client`` if it is a ``bedrock-agent`` or
        ``bedrock-agent-runtime`` one; any other client is left as it is.
        """
        service = client.meta.service_model.service_name
        if service == "bedrock-agent":
            answer(client, "StartIngestionJob", self._start_ingestion_job)
            answer(client, "GetIngestionJob", self._get_ingestion_job)
            answer(client, "GetKnowledgeBaseDocuments", self._get_knowledge_base_documents)
        elif service == "bedrock-agent-runtime":
            answer(client, "Retrieve", self._retrieve)

    def documents(self) -> Iterator[tuple[str, str, dict[str, Any]]]:
        """Every document in the bucket now, ingested or not: (key, text, metadata)."""
        read, _ = self._read_bucket()
        prefix = f"s3://{self._bucket}/"
        for uri, chunk in read.items():
            yield uri.removeprefix(prefix), chunk.text, chunk.metadata

    # --- bedrock-agent ----------------------------------------------------------------------

    def _start_ingestion_job(self, params: dict[str, Any]) -> dict[str, Any]:
        self._check_data_source(params)
        with self._lock:
            if any(job.status in _RUNNING for job in self._jobs.values()):
                raise ServiceError("ConflictException", "an ingestion job is running", 409)
            read, failed = self._read_bucket()
            started = datetime.now(UTC) + (INSTANT_JOB_LEAD if self._instant else timedelta())
            job = _Job(uuid.uuid4().hex[:10].upper(), started, read, failed)
            self._jobs[job.job_id] = job
            if self._instant:
                job.status = "COMPLETE"
                self._complete(job)
            return {"ingestionJob": self._describe(job)}

    def _get_ingestion_job(self, params: dict[str, Any]) -> dict[str, Any]:
        self._check_data_source(params)
        with self._lock:
            job = self._jobs.get(params["ingestionJobId"])
            if job is None:
                raise ServiceError("ResourceNotFoundException", "no such ingestion job", 404)
            if job.status in _NEXT:
                job.status = _NEXT[job.status]
                if job.status == "COMPLETE":
                    self._complete(job)
            return {"ingestionJob": self._describe(job)}

    def _get_knowledge_base_documents(self, params: dict[str, Any]) -> dict[str, Any]:
        self._check_data_source(params)
        identifiers = params["documentIdentifiers"]
        if len(identifiers) > MAX_DOCUMENT_IDENTIFIERS:
            raise ServiceError("ValidationException", "at most 10 documentIdentifiers")
        self._follow_bucket()
        with self._lock:
            running = [job for job in self._jobs.values() if job.status in _RUNNING]
            details = []
            for identifier in identifiers:
                uri = identifier["s3"]["uri"]
                status, reason = "NOT_FOUND", "not in the data source"
                if any(uri in job.read for job in running):
                    status, reason = "IN_PROGRESS", ""
                elif uri in self._index:
                    status, reason = "INDEXED", ""
                elif uri in self._failed:
                    status, reason = "FAILED", self._failed[uri]
                details.append(
                    {
                        "knowledgeBaseId": self._kb_id,
                        "dataSourceId": self._ds_id,
                        "status": status,
                        "statusReason": reason,
                        "identifier": {"dataSourceType": "S3", "s3": {"uri": uri}},
                        "updatedAt": datetime.now(UTC),
                    }
                )
        return {"documentDetails": details}

    # --- bedrock-agent-runtime --------------------------------------------------------------

    def _retrieve(self, params: dict[str, Any]) -> dict[str, Any]:
        if params["knowledgeBaseId"] != self._kb_id:
            raise ServiceError("ResourceNotFoundException", "no such knowledge base", 404)
        search = params.get("retrievalConfiguration", {}).get("vectorSearchConfiguration", {})
        wanted = search.get("numberOfResults", 5)
        if not 1 <= wanted <= 100:
            raise ServiceError("ValidationException", "numberOfResults must be within 1..100")
        condition = search.get("filter")
        query = self._embedder.embed_query(params["retrievalQuery"]["text"])
        self._follow_bucket()
        with self._lock:
            self.retrievals.append(params)
            honoured = self.honour_filter and condition is not None
            chunks = [
                c for c in self._index.values() if not honoured or _matches(condition, c.metadata)
            ]
        scored = sorted(
            ((float(np.dot(c.vector, query)), c) for c in chunks),
            key=lambda pair: (-pair[0], pair[1].uri),
        )[:wanted]
        asked = _tenant_of(condition)
        with self._lock:
            self.offered_foreign += sum(c.metadata.get("tenant_id") != asked for _, c in scored)
        return {
            "retrievalResults": [
                {
                    "content": {"type": "TEXT", "text": chunk.text},
                    "location": {"type": "S3", "s3Location": {"uri": chunk.uri}},
                    "score": score,
                    "metadata": {
                        **chunk.metadata,
                        "x-amz-bedrock-kb-source-uri": chunk.uri,
                        "x-amz-bedrock-kb-chunk-id": f"{chunk.uri}#0",
                        "x-amz-bedrock-kb-data-source-id": self._ds_id,
                    },
                }
                for score, chunk in scored
            ]
        }

    # --- state ------------------------------------------------------------------------------

    def _check_data_source(self, params: dict[str, Any]) -> None:
        if (params["knowledgeBaseId"], params["dataSourceId"]) != (self._kb_id, self._ds_id):
            raise ServiceError("ResourceNotFoundException", "no such data source", 404)

    def _follow_bucket(self) -> None:
        """An instant KB's index is the bucket as it is now."""
        if self._instant:
            read, failed = self._read_bucket()
            with self._lock:
                self._index, self._failed = read, failed

    def _read_bucket(self) -> tuple[dict[str, _Chunk], dict[str, str]]:
        """The bucket's documents as an ingestion reads them, and those it cannot take.

        An object read before is read again only if its ETag (or its sidecar's) changed.
        """
        tags: dict[str, str] = {}
        request: dict[str, Any] = {"Bucket": self._bucket}
        while True:
            page = self._s3.list_objects_v2(**request)
            tags.update((item["Key"], item["ETag"]) for item in page.get("Contents", []))
            if not page.get("IsTruncated"):
                break
            request["ContinuationToken"] = page["NextContinuationToken"]
        versions = {n: (tags[n], tags.get(n + SIDECAR_SUFFIX)) for n in sorted(tags) if _is_text(n)}
        with self._lock:
            known = {
                n: self._read[n] for n in versions if self._read.get(n, ((), ""))[0] == versions[n]
            }
        fresh = [n for n in versions if n not in known]
        texts = {n: self._object(n).decode("utf-8") for n in fresh}
        vectors: Any = self._embedder.embed_documents(list(texts.values())) if texts else []
        for (name, text), vector in zip(texts.items(), vectors, strict=True):
            uri = f"s3://{self._bucket}/{name}"
            entry: _Chunk | str
            try:
                metadata = (
                    json.loads(self._object(name + SIDECAR_SUFFIX))["metadataAttributes"]
                    if versions[name][1] is not None
                    else {}
                )
                entry = _Chunk(uri, text, metadata, np.asarray(vector, dtype=np.float32))
            except (ValueError, KeyError, TypeError):
                entry = "Encountered error: invalid metadata file"
            known[name] = (versions[name], entry)
        with self._lock:
            self._read = {**{n: e for n, e in self._read.items() if n in tags}, **known}
        read: dict[str, _Chunk] = {}
        failed: dict[str, str] = {}
        for name in versions:
            uri = f"s3://{self._bucket}/{name}"
            entry = known[name][1]
            if isinstance(entry, _Chunk):
                read[uri] = entry
            else:
                failed[uri] = entry
        return read, failed

    def _object(self, name: str) -> bytes:
        body: bytes = self._s3.get_object(Bucket=self._bucket, Key=name)["Body"].read()
        return body

    def _complete(self, job: _Job) -> None:
        before = self._index
        changed = [u for u in job.read if u in before and _differs(before[u], job.read[u])]
        job.statistics = {
            "numberOfDocumentsScanned": len(job.read) + len(job.failed),
            "numberOfMetadataDocumentsScanned": sum(bool(c.metadata) for c in job.read.values()),
            "numberOfNewDocumentsIndexed": sum(u not in before for u in job.read),
            "numberOfModifiedDocumentsIndexed": len(changed),
            "numberOfMetadataDocumentsModified": 0,
            "numberOfDocumentsDeleted": sum(u not in job.read for u in before),
            "numberOfDocumentsFailed": len(job.failed),
        }
        self._index = dict(job.read)
        self._failed = dict(job.failed)

    def _describe(self, job: _Job) -> dict[str, Any]:
        described: dict[str, Any] = {
            "knowledgeBaseId": self._kb_id,
            "dataSourceId": self._ds_id,
            "ingestionJobId": job.job_id,
            "status": job.status,
            "startedAt": job.started,
            "updatedAt": datetime.now(UTC),
        }
        if job.statistics:
            described["statistics"] = dict(job.statistics)
        if job.failed and job.status == "COMPLETE":
            described["failureReasons"] = [f"{u}: {why}" for u, why in job.failed.items()]
        return described


def _is_text(name: str) -> bool:
    return name.endswith(TEXT_SUFFIX) and not name.endswith(SIDECAR_SUFFIX)


def _differs(old: _Chunk, new: _Chunk) -> bool:
    return (old.text, old.metadata) != (new.text, new.metadata)


def _tenant_of(condition: dict[str, Any] | None) -> str | None:
    """The tenant an ``equals`` on ``tenant_id`` in ``condition`` (or its ``andAll``) names."""
    if not condition:
        return None
    if "andAll" in condition:
        return next((t for c in condition["andAll"] if (t := _tenant_of(c))), None)
    equals = condition.get("equals", {})
    return str(equals["value"]) if equals.get("key") == "tenant_id" else None


def _matches(condition: dict[str, Any], metadata: dict[str, Any]) -> bool:
    """Whether ``metadata`` passes a Bedrock ``RetrievalFilter``."""
    if len(condition) != 1:
        raise ServiceError("ValidationException", "a filter holds exactly one operator")
    ((operator, operand),) = condition.items()
    if operator == "andAll":
        return all(_matches(c, metadata) for c in operand)
    if operator == "orAll":
        return any(_matches(c, metadata) for c in operand)
    value = metadata.get(operand["key"])
    if operator == "equals":
        return bool(value == operand["value"])
    if operator == "notEquals":
        return bool(value != operand["value"])
    if operator == "in":
        return value in operand["value"]
    raise ServiceError("ValidationException", f"filter operator {operator!r} not in this fake")
