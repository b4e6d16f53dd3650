"""The four DynamoDB tables as plain data: keys, indexes, TTL (read by the adapters, tests, CDK).

Stdlib only, so ``stacks/`` can import it without the runtime's dependencies.

Tenancy: every item a tenant owns has a table partition key starting ``{tenant_id}#``, and so do
the partition keys of the indexes a tenant-scoped caller queries (``agent-time-index``,
``tenant-index``, ``fast-path-index``, the ledger's ``prefix-index``), so a session policy with
``dynamodb:LeadingKeys = ["{tenant_id}#*"]`` confines a handler to its tenant on tables and
indexes alike. The cross-tenant indexes (``failed-time-index``, ``pending-index``,
``awaiting-index``, ``status-index``) serve the nightly decay, the ingestion schedule and
reviewers, which run unscoped; ``procedure-id-index`` is KEYS_ONLY, so a scoped caller that
queries it learns at most the key of an item it still cannot read.

Cross-tenant indexes are sparse (the attribute exists only while the item qualifies) and write
sharded: their partition key is ``{LABEL}#{n}`` with ``n`` a stable hash of the item key modulo
:data:`SHARDS`, so no single index partition takes every tenant's writes; readers query the
shards one after another. :data:`SHARDS` may grow but never shrink (items keep their shard).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from typing import Any, Literal

AttributeType = Literal["S", "N", "B"]
Projection = Literal["ALL", "KEYS_ONLY", "INCLUDE"]

SHARDS = 4
"""Write shards of every cross-tenant index."""


@dataclass(frozen=True, slots=True)
class KeyAttribute:
    """A key attribute and its DynamoDB scalar type."""

    name: str
    type: AttributeType


@dataclass(frozen=True, slots=True)
class Index:
    """A global secondary index."""

    name: str
    partition_key: KeyAttribute
    sort_key: KeyAttribute | None = None
    projection: Projection = "ALL"
    non_key_attributes: tuple[str, ...] = ()

    @property
    def key_names(self) -> tuple[str, ...]:
        """The index's own key attribute names, partition first."""
        return tuple(k.name for k in (self.partition_key, self.sort_key) if k is not None)


@dataclass(frozen=True, slots=True)
class TableDesign:
    """One table: its key, indexes and TTL attribute; ``logical_name`` names it in settings."""

    logical_name: str
    partition_key: KeyAttribute
    sort_key: KeyAttribute | None = None
    indexes: tuple[Index, ...] = ()
    ttl_attribute: str | None = None
    purpose: str = field(default="", compare=False)

    @property
    def key_names(self) -> tuple[str, ...]:
        """The table's key attribute names, partition first."""
        return tuple(k.name for k in (self.partition_key, self.sort_key) if k is not None)

    def index(self, name: str) -> Index:
        """The index called ``name``."""
        for index in self.indexes:
            if index.name == name:
                return index
        raise KeyError(f"{self.logical_name} has no index {name!r}")

    def attribute_definitions(self) -> tuple[KeyAttribute, ...]:
        """Every attribute used in a key of the table or an index, once."""
        seen: dict[str, KeyAttribute] = {}
        keys = [self.partition_key, self.sort_key]
        for index in self.indexes:
            keys += [index.partition_key, index.sort_key]
        for key in keys:
            if key is not None:
                seen.setdefault(key.name, key)
        return tuple(seen.values())

    def create_table_request(self, table_name: str) -> dict[str, Any]:
        """Keyword arguments of DynamoDB ``CreateTable`` for this design (on-demand billing)."""
        return {
            "TableName": table_name,
            "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [
                {"AttributeName": k.name, "AttributeType": k.type}
                for k in self.attribute_definitions()
            ],
            "KeySchema": _key_schema(self.partition_key, self.sort_key),
            **(
                {
                    "GlobalSecondaryIndexes": [
                        {
                            "IndexName": i.name,
                            "KeySchema": _key_schema(i.partition_key, i.sort_key),
                            "Projection": _projection(i),
                        }
                        for i in self.indexes
                    ]
                }
                if self.indexes
                else {}
            ),
        }


def _key_schema(partition: KeyAttribute, sort: KeyAttribute | None) -> list[dict[str, str]]:
    schema = [{"AttributeName": partition.name, "KeyType": "HASH"}]
    if sort is not None:
        schema.append({"AttributeName": sort.name, "KeyType": "RANGE"})
    return schema


def _projection(index: Index) -> dict[str, Any]:
    projection: dict[str, Any] = {"ProjectionType": index.projection}
    if index.projection == "INCLUDE":
        projection["NonKeyAttributes"] = list(index.non_key_attributes)
    return projection


def shard_of(*key_parts: str) -> int:
    """The write shard of the item with these key values (stable across processes)."""
    return zlib.crc32("\x00".join(key_parts).encode()) % SHARDS


def shard_key(label: str, shard: int) -> str:
    """Partition value of shard ``shard`` of a cross-tenant index: ``_{label}#{shard}``.

    The leading ``_`` can never start a tenant id, so no tenant's ``LeadingKeys`` grant (say,
    of a tenant named ``PENDING``) can reach a cross-tenant index partition.
    """
    return f"_{label}#{shard}"


_S: AttributeType = "S"
_N: AttributeType = "N"

# Sparse and tenant-wide attributes written by the adapters.
TENANT_KEY = "tenant_key"
FAILED_SHARD = "failed_shard"
PENDING_SHARD = "pending_shard"
AWAITING_SHARD = "awaiting_shard"
FAST_PATH_KEY = "fast_path_key"
STATUS_SHARD = "status_shard"
KEY_HEAD = "key_head"

AGENT_TIME_INDEX = "agent-time-index"
TENANT_INDEX = "tenant-index"
FAILED_TIME_INDEX = "failed-time-index"
PENDING_INDEX = "pending-index"
AWAITING_INDEX = "awaiting-index"
FAST_PATH_INDEX = "fast-path-index"
PROCEDURE_ID_INDEX = "procedure-id-index"
STATUS_INDEX = "status-index"
PREFIX_INDEX = "prefix-index"

EPISODES = TableDesign(
    logical_name="episodes",
    partition_key=KeyAttribute("pk", _S),  # "{tenant}#{agent}"
    sort_key=KeyAttribute("run_id", _S),
    indexes=(
        # Newest-first reads of one agent (the bootstrap hot path): full items.
        Index(AGENT_TIME_INDEX, KeyAttribute("pk", _S), KeyAttribute("created_at", _N)),
        # Export and forget of a tenant: keys only ("{tenant}#"), items read back by key.
        Index(TENANT_INDEX, KeyAttribute(TENANT_KEY, _S), projection="KEYS_ONLY"),
        # Decay: FAILED episodes only ("_FAILED#{n}"), oldest first; short-lived, so ALL is cheap.
        Index(FAILED_TIME_INDEX, KeyAttribute(FAILED_SHARD, _S), KeyAttribute("created_at", _N)),
    ),
    ttl_attribute="expires_at",
    purpose="episodic memory: one distilled record per (tenant, agent, run)",
)

FACTS = TableDesign(
    logical_name="facts",
    partition_key=KeyAttribute("pk", _S),  # "{tenant}#{domain}"
    sort_key=KeyAttribute("fact_hash", _S),
    indexes=(
        Index(TENANT_INDEX, KeyAttribute(TENANT_KEY, _S), projection="KEYS_ONLY"),
        # Decay: PENDING facts ("_PENDING#{n}") by last_seen; most facts stay pending, so keys
        # only, read back (consistently) by key.
        Index(
            PENDING_INDEX,
            KeyAttribute(PENDING_SHARD, _S),
            KeyAttribute("last_seen", _N),
            projection="KEYS_ONLY",
        ),
        # Ingestion: staged and not yet ingested ("_AWAITING#{n}"), oldest staging first.
        Index(AWAITING_INDEX, KeyAttribute(AWAITING_SHARD, _S), KeyAttribute("staged_at", _N)),
        # Bootstrap: confirmed facts the KB does not serve yet, per tenant ("{tenant}#"),
        # sorted by the table's pk so one domain is a key condition too.
        Index(FAST_PATH_INDEX, KeyAttribute(FAST_PATH_KEY, _S), KeyAttribute("pk", _S)),
    ),
    purpose="semantic facts and their confirmation log (distinct run ids)",
)

PROCEDURES = TableDesign(
    logical_name="procedures",
    # Procedures: pk "{tenant}#{task_type}", sk the procedure id. Feedback dedup markers:
    # pk "{tenant}#{task_type}#feedback#{procedure_id}", sk the run id; serving-receipt markers:
    # pk "{tenant}#{task_type}#receipts#{procedure_id}", sk the receipt's nonce; proposing-run
    # markers past the kept log: pk "{tenant}#{task_type}#runs#{procedure_id}", sk the run id
    # (two '#' in the pk, so never a procedure's partition, never read by ``for_task_type``).
    partition_key=KeyAttribute("pk", _S),
    sort_key=KeyAttribute("sk", _S),
    indexes=(
        # Lookup by id alone; only procedures carry ``procedure_id`` (markers do not).
        Index(PROCEDURE_ID_INDEX, KeyAttribute("procedure_id", _S), projection="KEYS_ONLY"),
        # Procedures ("{tenant}#") and feedback, receipt and run markers ("{tenant}#feedback",
        # "{tenant}#receipts", "{tenant}#runs") of a tenant;
        # items are small, so listings are served from the index.
        # Sorted by id, so a tenant-scoped lookup by id is one key condition under LeadingKeys.
        Index(TENANT_INDEX, KeyAttribute(TENANT_KEY, _S), KeyAttribute("sk", _S)),
        # Reviewers and decay across tenants: "_{status}#{n}".
        Index(STATUS_INDEX, KeyAttribute(STATUS_SHARD, _S), KeyAttribute("procedure_id", _S)),
    ),
    purpose="procedures gated by review, with atomic feedback counters",
)

LEDGER = TableDesign(
    logical_name="ledger",
    partition_key=KeyAttribute("key", _S),
    indexes=(
        # Prefix scans: a key's head is everything up to its first '#' ("{tenant}#" for
        # tenant records), so a prefix containing '#' is one key condition.
        Index(PREFIX_INDEX, KeyAttribute(KEY_HEAD, _S), KeyAttribute("key", _S)),
    ),
    ttl_attribute="expires_at",
    purpose="run records (what decides a run's consolidation), failed runs and job state",
)

TABLES: tuple[TableDesign, ...] = (EPISODES, FACTS, PROCEDURES, LEDGER)
