"""Where everything is wired: settings -> adapters -> the core's ports."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from agent_memory.adapters.ledger_records import ledger_ports
from agent_memory.adapters.local import key_file
from agent_memory.adapters.local.embeddings import (
    DEFAULT_MODEL_ID,
    LOCAL_MODELS,
    LocalModel,
    local_model,
)
from agent_memory.adapters.local.knowledge_base import LocalKnowledgeBase
from agent_memory.adapters.local.sqlite_db import DatabaseDamaged, SqliteDatabase
from agent_memory.adapters.local.sqlite_episodes import SqliteEpisodeStore
from agent_memory.adapters.local.sqlite_facts import SqliteFactStore
from agent_memory.adapters.local.sqlite_ledger import SqliteLedger
from agent_memory.adapters.local.sqlite_procedures import SqliteProcedureStore
from agent_memory.app import Application
from agent_memory.core.model import receipts
from agent_memory.core.model.calibration import DEFAULT_CALIBRATIONS, Calibration
from agent_memory.core.model.errors import Conflict
from agent_memory.core.model.policies import Policies
from agent_memory.core.ports import (
    ChatModel,
    Embedder,
    MemoryPorts,
    PiiDetector,
    Reranker,
)
from agent_memory.core.retrieval.episode_index import EpisodeIndexCache
from agent_memory.wiring.detectors import DetectorsOnFirstUse, check_regions, every_detector
from agent_memory.wiring.local_settings import REGIONS_VARIABLE, LocalSettings

DATABASE_FILE = "memory.db"
KB_FOLDER = "kb"
PSEUDONYM_KEY_FILE = "pseudonym.key"


def local_application(
    settings: LocalSettings, *, clock: Callable[[], float] | None = None, **options: Any
) -> Application:
    """The application over :func:`local_ports` (the same ``options``), on ``clock`` if one is
    given (the demo's story time).
    """
    ports = local_ports(settings, **options)
    return Application(ports if clock is None else replace(ports, clock=clock))


def local_ports(
    settings: LocalSettings,
    *,
    embedder: Embedder | None = None,
    pii: PiiDetector | None = None,
    chat: ChatModel | None = None,
    policies: Policies | None = None,
    models: Mapping[str, LocalModel] | None = None,
    reranker: Reranker | None = None,
    read_only: bool = False,
) -> MemoryPorts:
    """The embedded memory in ``settings.store``: SQLite, a local KB and local models.

    The embedding model is the store's active one (recorded by ``agent-memory reembed`` when
    it switches; the default model before any switch), built from ``models`` (the local
    registry by default). Models can be replaced (tests pass fakes at this boundary), but an
    embedder of another model than the store's active one is refused: its vectors would be
    invisible to the store's searches. The LLM is used only when ``settings.llm`` names one or
    ``chat`` is given; a reranker only when given (no package here ships one's weights).

    ``read_only`` opens an existing store without creating or migrating anything, for a store
    the process may not write (every write then fails). The PII detectors load on first use.
    """
    check_regions(settings.pii_regions, field=REGIONS_VARIABLE)
    if not read_only:
        settings.store.mkdir(parents=True, exist_ok=True)
    _refuse_emptied(settings.store)
    database = SqliteDatabase(settings.store / DATABASE_FILE, read_only=read_only)
    try:
        # One secret per store; each use gets its own key (receipts derive theirs from it).
        secret = pseudonym_key(settings.store, create=not read_only, database=database)
    except BaseException:
        database.close()
        raise
    ledgers = ledger_ports(SqliteLedger(database))
    registry = LOCAL_MODELS if models is None else models
    active = ledgers.model_registry.active_model(now=time.time())
    active_id = active.model_id if active else DEFAULT_MODEL_ID
    if embedder is None:
        embedder = local_model(active_id, registry).build()
    elif active is not None and embedder.model_id != active_id:
        raise Conflict(
            f"the store's active embedding model is {active_id!r}, not {embedder.model_id!r}"
        )
    if chat is None and settings.llm:
        from agent_memory.adapters.chat import chat_from_spec

        chat = chat_from_spec(settings.llm)
    return MemoryPorts(
        # Stores present each record with the vectors of the model queries are embedded with.
        episodes=SqliteEpisodeStore(database, active_model=embedder.model_id),
        facts=SqliteFactStore(database, active_model=embedder.model_id),
        procedures=SqliteProcedureStore(database),
        run_ledger=ledgers.run_ledger,
        checkpoints=ledgers.checkpoints,
        model_registry=ledgers.model_registry,
        decisions=ledgers.decisions,
        flags=ledgers.flags,
        knowledge_base=LocalKnowledgeBase(settings.store / KB_FOLDER, embedder),
        embedder=embedder,
        pii=DetectorsOnFirstUse(lambda: every_detector(pii, settings.pii_regions)),
        episode_indexes=EpisodeIndexCache(),
        chat=chat,
        reranker=reranker,
        policies=policies or Policies(),
        calibrations=calibrations(registry),
        pseudonym_key=secret,
        receipt_key=receipts.derive_key(secret),
    )


def calibrations(models: Mapping[str, LocalModel]) -> dict[str, Calibration]:
    """The default calibrations plus those of the registered local models."""
    local = {m.calibration.model_family: m.calibration for m in models.values() if m.calibration}
    return {**DEFAULT_CALIBRATIONS, **local}


def _refuse_emptied(store: Path) -> None:
    """Refuse a database file cut to nothing in a store that was written before (it has its
    key, made only once the database was): SQLite would take it for a new, empty memory.
    """
    database = store / DATABASE_FILE
    try:
        emptied = database.stat().st_size == 0 and (store / PSEUDONYM_KEY_FILE).exists()
    except FileNotFoundError:
        return
    if emptied:
        raise DatabaseDamaged(
            f"the store's database is damaged: {database} is empty, but the store was written "
            "before (restore it from a backup of the store)"
        )


def pseudonym_key(
    store: Path, *, create: bool = True, database: SqliteDatabase | None = None
) -> bytes:
    """The store's secret for name pseudonyms (and receipts), created on first use.

    The file is checked at every open: one that is not a key raises ``KeyFileInvalid`` (a
    ``StoreUnavailable``) naming it and what is wrong. A missing key is made, owner-only and
    written atomically, unless ``database`` holds memory already (names stored with the lost
    key would no longer match: that too raises). Without ``create`` (a read-only store) a
    missing key of an empty store is a key for this process only: such a store holds no
    pseudonym to match.
    """
    path = store / PSEUDONYM_KEY_FILE
    found = key_file.read_key(path)
    if found is not None:
        return found
    if database is not None and database.holds_memory():
        raise key_file.missing_key(path)
    if not create:
        return secrets.token_bytes(key_file.KEY_BYTES)
    return key_file.create_key(path)
