"""The folder standing in for the KB bucket: documents, their sidecars, and reading them back."""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from agent_memory.adapters.local.files import write_atomic
from agent_memory.adapters.local.kb.keys import (
    SIDECAR_SUFFIX,
    key_tenant,
    validate_key,
    validate_segment,
)
from agent_memory.core.model import keys
from agent_memory.core.model.models import KbDocument

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class IndexableDocument:
    """A document as the index sees it: its text, metadata and a hash of both files."""

    key: str
    content_hash: str
    text: str
    metadata: dict[str, object]
    tenant_id: str
    domain: str | None


@dataclass(slots=True)
class Removed:
    """How many files and folders a deletion removed."""

    files: int = 0
    folders: int = 0


class DocumentFolder:
    """Documents at ``root/<key>`` with their metadata at ``root/<key>.metadata.json``."""

    def __init__(self, root: Path) -> None:
        self._root = root

    def put(self, document: KbDocument) -> None:
        """Write the document text and its sidecar, each atomically."""
        path = self._path(validate_key(document.key))
        if not document.text.strip():
            raise ValueError(f"document {document.key!r} has no text")
        sidecar = json.dumps(
            {"metadataAttributes": document.metadata}, ensure_ascii=False, indent=2, sort_keys=True
        )
        # Text first: a scan that sees the new sidecar then also sees the new text.
        write_atomic(path, document.text.encode())
        write_atomic(_sidecar(path), sidecar.encode() + b"\n")

    def delete(self, key: str) -> Removed:
        """Remove the document and its sidecar, then the folders that left empty (their names
        hold the tenant and domain); absent files are fine.
        """
        path = self._path(validate_key(key))
        removed = Removed()
        for target in (path, _sidecar(path)):
            with contextlib.suppress(FileNotFoundError):
                target.unlink()
                removed.files += 1
        folder = path.parent
        while folder != self._root and folder.is_relative_to(self._root):
            try:
                folder.rmdir()  # only ever removes an empty folder, atomically
            except OSError:  # not empty (or already gone): the folders above are in use too
                break
            removed.folders += 1
            folder = folder.parent
        return removed

    def keys(self, tenant_id: str) -> list[str]:
        """Keys of the tenant's documents, sorted."""
        prefix = keys.tenant_folder(validate_segment(tenant_id, "tenant id")).rstrip("/")
        return sorted(self._walk(self._root / prefix))

    def scan(self, failures: dict[str, str] | None = None) -> Iterator[IndexableDocument]:
        """Every document that can be indexed, read from disk now, in key order.

        A document that cannot be indexed is skipped; ``failures`` collects its key and why.
        """
        for key in sorted(self._walk(self._root)):
            document = self._read(key)
            if isinstance(document, str):
                logger.warning("kb document skipped", extra={"key": key, "reason": document})
                if failures is not None:
                    failures[key] = document
            elif document is not None:
                yield document

    def inspect(self, key: str) -> IndexableDocument | str:
        """The document as the index would take it, or why it cannot be indexed."""
        document = self._read(validate_key(key))
        return "document not found" if document is None else document

    def _walk(self, top: Path) -> Iterator[str]:
        for directory, subdirs, names in os.walk(top):
            subdirs[:] = [d for d in subdirs if not d.startswith(".")]
            base = Path(directory).relative_to(self._root)
            for name in names:
                # Hidden names are write_atomic's temporary files; keys can never be hidden.
                if name.startswith(".") or name.endswith(SIDECAR_SUFFIX):
                    continue
                yield (base / name).as_posix()

    def _read(self, key: str) -> IndexableDocument | str | None:
        """The document; None if it is gone (or half written); why it cannot be indexed."""
        path = self._path(key)
        try:
            body_bytes = path.read_bytes()
            sidecar_bytes = _sidecar(path).read_bytes()
        except FileNotFoundError:
            # Deleted since the listing, or its sidecar is not written yet: not indexable now.
            return None
        except OSError as error:
            return f"unreadable: {error.strerror or error}"
        digest = hashlib.sha256(len(body_bytes).to_bytes(8, "big") + body_bytes + sidecar_bytes)
        parsed = _parse(key, body_bytes, sidecar_bytes)
        if isinstance(parsed, str):
            return parsed
        text, metadata, tenant_id, domain = parsed
        return IndexableDocument(key, digest.hexdigest(), text, metadata, tenant_id, domain)

    def _path(self, key: str) -> Path:
        return self._root.joinpath(*key.split("/"))


def _sidecar(path: Path) -> Path:
    return path.with_name(path.name + SIDECAR_SUFFIX)


def _parse(
    key: str, body_bytes: bytes, sidecar_bytes: bytes
) -> tuple[str, dict[str, object], str, str | None] | str:
    """Return the document's (text, metadata, tenant, domain), or why it cannot be indexed."""
    try:
        text = body_bytes.decode("utf-8")
    except UnicodeDecodeError:
        return "text is not UTF-8"
    if not text.strip():
        return "text is empty"
    try:
        sidecar = json.loads(sidecar_bytes)
    except ValueError:
        return "sidecar is not valid JSON"
    metadata = sidecar.get("metadataAttributes") if isinstance(sidecar, dict) else None
    if not isinstance(metadata, dict):
        return "sidecar has no 'metadataAttributes' object"
    tenant_id = metadata.get("tenant_id")
    # The key prefix and the metadata must agree, so a mislabelled file cannot leak across.
    if not isinstance(tenant_id, str) or tenant_id != key_tenant(key):
        return "metadata tenant_id does not match the key's tenants/{tenant_id}/ prefix"
    domain = metadata.get("domain")
    return text, metadata, tenant_id, domain if isinstance(domain, str) else None
