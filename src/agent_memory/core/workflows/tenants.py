"""Whole-tenant operations: export every record (audit, data-subject access) and forget them,
each with a receipt of what was done.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Any

from agent_memory.core.model.errors import IngestionBusy
from agent_memory.core.model.models import Retention
from agent_memory.core.model.records import to_json
from agent_memory.core.model.visible import json_text
from agent_memory.core.paging import every
from agent_memory.core.ports import ErasingKnowledgeBase, KbErasure, MemoryPorts
from agent_memory.core.workflows.ingestion import forget_retries, request_ingestion, run_ingestion

DAY = 86_400.0
# Decisions read per page of the history when exporting it.
HISTORY_PAGE = 100


def export_tenant(ports: MemoryPorts, tenant_id: str) -> Iterator[dict[str, Any]]:
    """Every stored record of the tenant, each as ``{"kind": ..., "record": ...}``."""
    for episode in ports.episodes.export(tenant_id):
        yield {"kind": "episode", "record": to_json(episode)}
    for fact in ports.facts.export(tenant_id):
        yield {"kind": "fact", "record": to_json(fact)}
    for procedure in ports.procedures.export(tenant_id):
        yield {"kind": "procedure", "record": to_json(procedure)}
    for key in ports.knowledge_base.document_keys(tenant_id):
        yield {"kind": "kb_document", "record": {"key": key}}
    for entry in ports.run_ledger.entries(tenant_id):
        yield {"kind": "ledger", "record": {"key": entry.key, "value": entry.value}}
    history = partial(ports.decisions.history, tenant_id, limit=HISTORY_PAGE)
    for decision in every(history):
        yield {"kind": "decision", "record": decision.as_json()}
    open_flags = partial(ports.flags.list, tenant_id, limit=HISTORY_PAGE)
    for flag in every(open_flags):
        yield {"kind": "flag", "record": flag.as_json()}


def json_lines(records: Iterator[dict[str, Any]]) -> Iterator[str]:
    """Records as JSON lines."""
    for record in records:
        yield json_text(record, sort_keys=True)


def iso_time(moment: float) -> str:
    """``moment`` (seconds since the epoch) as ISO 8601 in UTC."""
    return datetime.fromtimestamp(moment, UTC).isoformat().replace("+00:00", "Z")


# --- export ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ExportReceipt:
    """What an export handed out: how many records of each kind, and a digest of the lines.

    ``sha256`` is the hash of the exported lines exactly as written, each ending in a newline,
    so whoever holds the file can show it is the export this receipt describes.
    """

    tenant_id: str
    at: float
    episodes: int
    facts: int
    procedures: int
    kb_documents: int
    ledger_records: int
    decisions: int
    sha256: str
    flags: int = 0

    def as_json(self) -> dict[str, Any]:
        """The receipt as JSON, its time in ISO 8601."""
        return {"operation": "export", **to_json(self), "at": iso_time(self.at)}


class TenantExport:
    """The tenant's records as JSON lines and, once every line was read, their receipt.

    Example::

        export = TenantExport(ports, "acme")
        for line in export:
            print(line, file=out)
        print(export.receipt.as_json())
    """

    def __init__(self, ports: MemoryPorts, tenant_id: str) -> None:
        self._ports = ports
        self._tenant_id = tenant_id
        self._receipt: ExportReceipt | None = None

    def __iter__(self) -> Iterator[str]:
        at = self._ports.clock()
        kinds: Counter[str] = Counter()
        digest = hashlib.sha256()
        for record in export_tenant(self._ports, self._tenant_id):
            line = json_text(record, sort_keys=True)
            kinds[record["kind"]] += 1
            digest.update(line.encode() + b"\n")
            yield line
        self._receipt = ExportReceipt(
            tenant_id=self._tenant_id,
            at=at,
            episodes=kinds["episode"],
            facts=kinds["fact"],
            procedures=kinds["procedure"],
            kb_documents=kinds["kb_document"],
            ledger_records=kinds["ledger"],
            decisions=kinds["decision"],
            flags=kinds["flag"],
            sha256=digest.hexdigest(),
        )

    @property
    def receipt(self) -> ExportReceipt:
        """The receipt; ``RuntimeError`` until every line was read."""
        if self._receipt is None:
            raise RuntimeError("the export has not been read to its end")
        return self._receipt


# --- forget ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Remains:
    """Something of the tenant left after ``forget``: where, what, and until when (None: until
    the event ``what`` names).
    """

    where: str
    what: str
    until: float | None

    def as_json(self) -> dict[str, Any]:
        """As JSON, the time in ISO 8601."""
        until = None if self.until is None else iso_time(self.until)
        return {"where": self.where, "what": self.what, "until": until}


@dataclass(frozen=True, slots=True)
class ForgetReceipt:
    """What ``forget`` deleted in each store, and what it could not reach, until when.

    ``kb_index`` says how the KB index dropped the documents: ``erased`` (rewritten now, by
    the local KB), ``ingestion <status>`` with the status of the ingestion window forget ran
    (``complete``; else ``remains`` says until when the index holds them), or ``untouched``
    (the tenant had no documents).
    """

    tenant_id: str
    at: float
    episodes: int
    facts: int
    procedures: int
    kb_documents: int
    ledger_records: int
    kb_index: str
    decisions: int = 0
    flags: int = 0
    index_generations_rewritten: int = 0
    index_generations_removed: int = 0
    files_removed: int = 0
    folders_removed: int = 0
    ingestion_job: str | None = None
    remains: tuple[Remains, ...] = ()

    def as_json(self) -> dict[str, Any]:
        """The receipt as JSON, its times in ISO 8601."""
        return {
            "operation": "forget",
            **to_json(self),
            "at": iso_time(self.at),
            "remains": [r.as_json() for r in self.remains],
        }


def forget_tenant(
    ports: MemoryPorts, tenant_id: str, *, retained: Sequence[Retention] = ()
) -> ForgetReceipt:
    """Delete every record of the tenant, in every store, and nothing of any other tenant.

    A knowledge base that can erase (the local one) drops the tenant from its documents and its
    index at once. Otherwise (Bedrock) the documents are deleted from the bucket and an
    ingestion is started so the index drops them; if one is already running, the next window
    does it (until then retrieval still filters on the tenant, whose facts are gone from the
    fast path). ``retained`` are the deployment's copies ``forget`` cannot reach (backups,
    old object versions, logs): the receipt names each with the time it expires.
    """
    at = ports.clock()
    kb = ports.knowledge_base
    erased: KbErasure | None = None
    if isinstance(kb, ErasingKnowledgeBase):
        try:
            erased = kb.erase_tenant(tenant_id)
        except IngestionBusy:
            erased = None  # the documents are deleted as on Bedrock; the next window indexes
    keys = [] if erased is not None else kb.document_keys(tenant_id)
    for key in keys:
        kb.delete_document(key)
    if keys or (erased is not None and erased.index_rebuild_needed):
        request_ingestion(ports.checkpoints, now=at)
    # The retry record names the tenant's documents: rewritten before the stores' deletes,
    # which leave no old copy of any record behind them.
    forget_retries(ports.checkpoints, tenant_id, now=at)
    ledger_keys = [entry.key for entry in ports.run_ledger.entries(tenant_id)]
    for key in ledger_keys:
        ports.run_ledger.delete(key)
    episodes = ports.episodes.forget(tenant_id)
    facts = ports.facts.forget(tenant_id)
    procedures = ports.procedures.forget(tenant_id)
    decisions = ports.decisions.forget(tenant_id)
    flags = ports.flags.forget(tenant_id)
    ports.episode_indexes.clear(tenant_id)
    remains = [Remains(r.where, r.what, at + r.days * DAY) for r in retained]
    job: str | None = None
    if erased is not None:
        index = "erased" if erased.documents or erased.index_generations_rewritten else "untouched"
    elif keys:
        ingestion = run_ingestion(ports.facts, kb, ports.checkpoints, now=ports.clock())
        index, job = f"ingestion {ingestion.status}", ingestion.job_id
        if ingestion.status != "complete":
            until = f"job {job} completes" if job else "the next ingestion window"
            remains.insert(
                0,
                Remains(
                    "knowledge-base index",
                    f"the tenant's {len(keys)} document(s), searchable by no one (retrieval "
                    f"filters on the tenant), until {until}",
                    None,
                ),
            )
    else:
        index = "untouched"
    return ForgetReceipt(
        tenant_id=tenant_id,
        at=at,
        episodes=episodes,
        facts=facts,
        procedures=procedures,
        kb_documents=len(keys) if erased is None else erased.documents,
        ledger_records=len(ledger_keys),
        kb_index=index,
        decisions=decisions,
        flags=flags,
        index_generations_rewritten=0 if erased is None else erased.index_generations_rewritten,
        index_generations_removed=0 if erased is None else erased.index_generations_removed,
        files_removed=0 if erased is None else erased.files_removed,
        folders_removed=0 if erased is None else erased.folders_removed,
        ingestion_job=job,
        remains=tuple(remains),
    )
