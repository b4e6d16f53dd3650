"""The SQLite schema, as numbered migrations: opening a file at version n applies n+1 onwards."""

from __future__ import annotations

from collections.abc import Sequence

SCHEMA_VERSION = 9

# Every key starts with the tenant, as in DynamoDB (adapters/aws/dynamodb_schema.py); tenant_id
# is kept beside it so tenant-wide operations can also match the column exactly.
_SCHEMA_V1 = (
    """
    CREATE TABLE episodes (
        pk TEXT NOT NULL,
        run_id TEXT NOT NULL,
        tenant_id TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        task TEXT NOT NULL,
        task_summary TEXT NOT NULL,
        outcome TEXT NOT NULL,
        created_at REAL NOT NULL,
        expires_at REAL NOT NULL,
        task_type TEXT,
        domain TEXT,
        key_findings TEXT NOT NULL,
        approach_used TEXT NOT NULL,
        tools_used TEXT NOT NULL,
        reusable_patterns TEXT NOT NULL,
        embedding_model TEXT,
        embedding_dimension INTEGER,
        embedding BLOB,
        units TEXT NOT NULL DEFAULT '[]',
        unit_model TEXT,
        unit_dimension INTEGER,
        unit_vectors BLOB,
        PRIMARY KEY (pk, run_id)
    )
    """,
    # Per agent, the store generation of its last change: an index cache rebuilds when it moves.
    """
    CREATE TABLE episode_versions (
        pk TEXT PRIMARY KEY,
        generation INTEGER NOT NULL
    )
    """,
    "CREATE TABLE store_generation (id INTEGER PRIMARY KEY CHECK (id = 1), value INTEGER NOT NULL)",
    "INSERT INTO store_generation (id, value) VALUES (1, 0)",
    "CREATE INDEX episodes_agent_time ON episodes (pk, created_at, run_id)",
    "CREATE INDEX episodes_outcome_time ON episodes (outcome, created_at, pk, run_id)",
    "CREATE INDEX episodes_expires ON episodes (expires_at)",
    """
    CREATE TABLE facts (
        pk TEXT NOT NULL,
        fact_hash TEXT NOT NULL,
        tenant_id TEXT NOT NULL,
        domain TEXT NOT NULL,
        content TEXT NOT NULL,
        status TEXT NOT NULL,
        confidence REAL NOT NULL,
        first_seen REAL NOT NULL,
        last_seen REAL NOT NULL,
        confirmed_at REAL,
        staged_at REAL,
        ingested_at REAL,
        embedding_model TEXT,
        embedding_dimension INTEGER,
        embedding BLOB,
        review_note TEXT,
        PRIMARY KEY (pk, fact_hash)
    )
    """,
    # A child table makes adding a run id an atomic insert-or-ignore and counting it cheap.
    """
    CREATE TABLE fact_runs (
        pk TEXT NOT NULL,
        fact_hash TEXT NOT NULL,
        run_id TEXT NOT NULL,
        tenant_id TEXT NOT NULL,
        PRIMARY KEY (pk, fact_hash, run_id)
    )
    """,
    "CREATE INDEX facts_status_seen ON facts (status, last_seen, pk, fact_hash)",
    """
    CREATE INDEX facts_awaiting_ingestion ON facts (pk, fact_hash)
    WHERE staged_at IS NOT NULL AND ingested_at IS NULL
    """,
    """
    CREATE TABLE procedures (
        pk TEXT NOT NULL,
        procedure_id TEXT NOT NULL UNIQUE,
        tenant_id TEXT NOT NULL,
        task_type TEXT NOT NULL,
        title TEXT NOT NULL,
        steps TEXT NOT NULL,
        status TEXT NOT NULL,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL,
        times_applied INTEGER NOT NULL,
        times_succeeded INTEGER NOT NULL,
        last_applied_at REAL,
        reviewer TEXT,
        reviewed_at REAL,
        review_note TEXT,
        PRIMARY KEY (pk, procedure_id)
    )
    """,
    "CREATE INDEX procedures_tenant_status ON procedures (tenant_id, status, procedure_id)",
    "CREATE INDEX procedures_status ON procedures (status, procedure_id)",
    """
    CREATE TABLE procedure_sources (
        procedure_id TEXT NOT NULL,
        run_id TEXT NOT NULL,
        tenant_id TEXT NOT NULL,
        PRIMARY KEY (procedure_id, run_id)
    )
    """,
    # One row per counted (procedure, run): the dedup record of record_feedback.
    """
    CREATE TABLE procedure_feedback (
        procedure_id TEXT NOT NULL,
        run_id TEXT NOT NULL,
        tenant_id TEXT NOT NULL,
        succeeded INTEGER NOT NULL,
        recorded_at REAL NOT NULL,
        PRIMARY KEY (procedure_id, run_id)
    )
    """,
    """
    CREATE TABLE ledger (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        expires_at REAL
    )
    """,
    "CREATE INDEX ledger_expires ON ledger (expires_at) WHERE expires_at IS NOT NULL",
)

# A second vector per record, in another embedding model's space, written while the store moves
# to that model (core/workflows/reembed.py); searches read the slot holding the active model's
# vector.
_SCHEMA_V2 = (
    "ALTER TABLE episodes ADD COLUMN spare_embedding_model TEXT",
    "ALTER TABLE episodes ADD COLUMN spare_embedding_dimension INTEGER",
    "ALTER TABLE episodes ADD COLUMN spare_embedding BLOB",
    "ALTER TABLE episodes ADD COLUMN unit_spare_model TEXT",
    "ALTER TABLE episodes ADD COLUMN unit_spare_dimension INTEGER",
    "ALTER TABLE episodes ADD COLUMN unit_spare_vectors BLOB",
    "ALTER TABLE facts ADD COLUMN spare_embedding_model TEXT",
    "ALTER TABLE facts ADD COLUMN spare_embedding_dimension INTEGER",
    "ALTER TABLE facts ADD COLUMN spare_embedding BLOB",
)

# Forget deletes a tenant's version rows; this count, part of every version token, keeps a token
# from ever repeating once its row is gone.
_SCHEMA_V3 = ("ALTER TABLE store_generation ADD COLUMN forgets INTEGER NOT NULL DEFAULT 0",)

# Which store generation added each episode, and per agent the generation of its last change
# other than an addition: together they tell a cache which episodes are new since its token.
_SCHEMA_V4 = (
    "ALTER TABLE episodes ADD COLUMN added INTEGER",
    "ALTER TABLE episode_versions ADD COLUMN rewritten INTEGER NOT NULL DEFAULT 0",
    "CREATE INDEX episodes_agent_added ON episodes (pk, added)",
)

# Independent confirmations of a fact, and per agent when its last one counted (JSON object of
# agent id to time, the AGENTS_KEPT latest). A fact logged before counts its log once: its runs
# were never judged independent, and it is known to have been seen.
_SCHEMA_V5 = (
    "ALTER TABLE facts ADD COLUMN confirmations INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE facts ADD COLUMN counted_by TEXT NOT NULL DEFAULT '{}'",
    "UPDATE facts SET confirmations = 1",
)

# One row per serving receipt that counted (its nonce), beside the per-run rows: a receipt
# counts once, whichever run carries it.
_SCHEMA_V6 = (
    """
    CREATE TABLE procedure_receipts (
        procedure_id TEXT NOT NULL,
        receipt_id TEXT NOT NULL,
        tenant_id TEXT NOT NULL,
        run_id TEXT NOT NULL,
        recorded_at REAL NOT NULL,
        PRIMARY KEY (procedure_id, receipt_id)
    )
    """,
)

# Whether each run's sighting counted as a confirmation (NULL: logged before this was kept, taken
# as counted), so forgetting a run takes back exactly what it added.
_SCHEMA_V7 = ("ALTER TABLE fact_runs ADD COLUMN counted INTEGER",)

# A person's edit of a procedure's steps: how many there were (the revision an edit must still
# find, so two edits never overwrite each other unseen), and who made the last one and when.
_SCHEMA_V8 = (
    "ALTER TABLE procedures ADD COLUMN revision INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE procedures ADD COLUMN edited_by TEXT",
    "ALTER TABLE procedures ADD COLUMN edited_at REAL",
)

# Who asserted a fact (a person's, confirmed at once) and the fact a person's correction put in
# a retracted fact's place.
_SCHEMA_V9 = (
    "ALTER TABLE facts ADD COLUMN asserted_by TEXT",
    "ALTER TABLE facts ADD COLUMN superseded_by TEXT",
)

MIGRATIONS: dict[int, Sequence[str]] = {
    1: _SCHEMA_V1,
    2: _SCHEMA_V2,
    3: _SCHEMA_V3,
    4: _SCHEMA_V4,
    5: _SCHEMA_V5,
    6: _SCHEMA_V6,
    7: _SCHEMA_V7,
    8: _SCHEMA_V8,
    9: _SCHEMA_V9,
}
