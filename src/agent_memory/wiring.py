"""Where everything is wired: settings -> adapters -> the core's ports."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from agent_memory.adapters.local.embeddings import CALIBRATION as LOCAL_CALIBRATION
from agent_memory.adapters.local.embeddings import LocalEmbedder
from agent_memory.adapters.local.knowledge_base import LocalKnowledgeBase
from agent_memory.adapters.local.pii import LocalPiiDetector
from agent_memory.adapters.local.sqlite_db import SqliteDatabase
from agent_memory.adapters.local.sqlite_episodes import SqliteEpisodeStore
from agent_memory.adapters.local.sqlite_facts import SqliteFactStore
from agent_memory.adapters.local.sqlite_ledger import SqliteLedger
from agent_memory.adapters.local.sqlite_procedures import SqliteProcedureStore
from agent_memory.core.calibration import DEFAULT_CALIBRATIONS
from agent_memory.core.policies import Policies
from agent_memory.core.ports import ChatModel, Embedder, MemoryPorts, PiiDetector
from agent_memory.settings import LocalSettings

DATABASE_FILE = "memory.db"
KB_FOLDER = "kb"
PSEUDONYM_KEY_FILE = "pseudonym.key"


def local_ports(
    settings: LocalSettings,
    *,
    embedder: Embedder | None = None,
    pii: PiiDetector | None = None,
    chat: ChatModel | None = None,
    policies: Policies | None = None,
) -> MemoryPorts:
    """The embedded memory in ``settings.store``: SQLite, a local KB and local models.

    Models can be replaced (tests pass fakes at this boundary); the LLM is used only when
    ``settings.llm`` names one or ``chat`` is given.
    """
    settings.store.mkdir(parents=True, exist_ok=True)
    database = SqliteDatabase(settings.store / DATABASE_FILE)
    embedder = embedder or LocalEmbedder()
    if chat is None and settings.llm:
        from agent_memory.adapters.chat import chat_from_spec

        chat = chat_from_spec(settings.llm)
    return MemoryPorts(
        episodes=SqliteEpisodeStore(database),
        facts=SqliteFactStore(database),
        procedures=SqliteProcedureStore(database),
        ledger=SqliteLedger(database),
        knowledge_base=LocalKnowledgeBase(settings.store / KB_FOLDER, embedder),
        embedder=embedder,
        pii=pii or LocalPiiDetector(),
        chat=chat,
        policies=policies or Policies(),
        calibrations={**DEFAULT_CALIBRATIONS, LOCAL_CALIBRATION.model_family: LOCAL_CALIBRATION},
        pseudonym_key=pseudonym_key(settings.store),
    )


def pseudonym_key(store: Path) -> bytes:
    """The store's secret for name pseudonyms, created (owner-only) on first use.

    Losing it only means new pseudonyms no longer match old ones; keep it with the store.
    """
    path = store / PSEUDONYM_KEY_FILE
    try:
        return path.read_bytes()
    except FileNotFoundError:
        pass
    key = secrets.token_bytes(32)
    try:
        with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as out:
            out.write(key)
    except FileExistsError:
        # Another process created it first: use theirs.
        return path.read_bytes()
    return key
