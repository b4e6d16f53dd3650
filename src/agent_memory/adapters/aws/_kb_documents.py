"""How a ``KbDocument`` is laid out in the knowledge-base bucket, and the tenant filter.

Bedrock Knowledge Bases ingest only some file types from S3 (.txt, .md, .html, .doc/.docx,
.csv, .xls/.xlsx, .pdf: https://docs.aws.amazon.com/bedrock/latest/userguide/knowledge-base-ds.html),
so a document is the plain-text object ``tenants/{t}/domains/{d}/{hash}.txt`` holding only the
fact's text (what gets embedded and what ``retrieve`` returns), beside the sidecar
``…/{hash}.txt.metadata.json`` = ``{"metadataAttributes": {...}}`` that Bedrock reads for
filtering.
"""

from __future__ import annotations

import json
import math
from typing import Any

from agent_memory.adapters.aws._errors import require_identifier
from agent_memory.core.model import keys
from agent_memory.core.model.models import KbDocument

OBJECT_SUFFIX = ".txt"
SIDECAR_SUFFIX = ".metadata.json"
# Bedrock's quota for one metadata file is 10 KB.
MAX_SIDECAR_BYTES = 10_000


def tenant_prefix(tenant_id: str) -> str:
    """The bucket prefix every object of the tenant lives under."""
    return keys.tenant_folder(require_identifier(tenant_id, "tenant_id"))


def object_key(key: str) -> str:
    """``key`` itself if it is a safe document key; ``ValueError`` otherwise."""
    parts = key.split("/")
    if (
        len(parts) < 3
        or parts[0] != "tenants"
        or not key.endswith(OBJECT_SUFFIX)
        or key.endswith(SIDECAR_SUFFIX)
        or "\\" in key
        or any(part in ("", ".", "..") for part in parts)
    ):
        raise ValueError(f"invalid document key {key!r}: expected tenants/<tenant>/…/<name>.txt")
    require_identifier(parts[1], "tenant_id")
    return key


def document_key(object_name: str) -> str | None:
    """The document key stored at ``object_name``, or None for sidecars and foreign objects."""
    return object_name if object_name.endswith(OBJECT_SUFFIX) else None


def sidecar_key(object_name: str) -> str:
    """Where Bedrock looks for the metadata of ``object_name``."""
    return object_name + SIDECAR_SUFFIX


def document_text(document: KbDocument) -> str:
    """The text Bedrock embeds and serves."""
    if not document.text.strip():
        raise ValueError(f"document {document.key!r} has no text")
    return document.text


def sidecar_json(document: KbDocument) -> bytes:
    """The metadata file of ``document``; its ``tenant_id`` must be the key's tenant.

    Bedrock accepts string, number, boolean and string-list values; anything else is refused
    here rather than silently dropped at ingestion.
    """
    tenant = document.key.split("/")[1]
    if document.metadata.get("tenant_id") != tenant:
        raise ValueError(f"document {document.key!r}: metadata tenant_id must be {tenant!r}")
    for name, value in document.metadata.items():
        if not _attribute_ok(value):
            raise ValueError(f"metadata {name!r}: unsupported value {value!r}")
    data = json.dumps({"metadataAttributes": document.metadata}, ensure_ascii=False).encode()
    if len(data) > MAX_SIDECAR_BYTES:
        raise ValueError(f"metadata of {document.key!r} exceeds {MAX_SIDECAR_BYTES} bytes")
    return data


def _attribute_ok(value: object) -> bool:
    if isinstance(value, bool | str | int):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def retrieval_filter(tenant_id: str, domain: str | None) -> dict[str, Any]:
    """The metadata filter of every retrieve: the tenant always, the domain when given.

    ``andAll`` takes at least two conditions, so the tenant alone is a bare ``equals``.
    """
    tenant = {"equals": {"key": "tenant_id", "value": require_identifier(tenant_id, "tenant_id")}}
    if domain is None:
        return tenant
    return {
        "andAll": [
            tenant,
            {"equals": {"key": "domain", "value": require_identifier(domain, "domain")}},
        ]
    }
