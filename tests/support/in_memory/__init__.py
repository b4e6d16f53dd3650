"""In-memory stores: the episode, fact and procedure ports over plain Python records.

They pass the storage contract suites (``tests/contract``) beside the SQLite and DynamoDB
adapters, so fast tests can use them where nothing is about a store on disk. Everything is
lost with the process. Build them over one :class:`MemoryDatabase`, as the SQLite ones are
built over one ``SqliteDatabase``::

    db = MemoryDatabase()
    episodes = MemoryEpisodeStore(db, active_model="amazon.titan-embed-text-v2:0")
    facts = MemoryFactStore(db, active_model="amazon.titan-embed-text-v2:0")
    procedures = MemoryProcedureStore(db)

The run ledger, job checkpoints and model registry keep their records in a
:class:`MemoryLedgerTable` over the same database (``adapters.ledger_records.ledger_ports``).
"""

from tests.support.in_memory.database import MemoryDatabase
from tests.support.in_memory.episodes import MemoryEpisodeStore
from tests.support.in_memory.facts import MemoryFactStore
from tests.support.in_memory.ledger import MemoryLedgerTable
from tests.support.in_memory.procedures import MemoryProcedureStore

__all__ = [
    "MemoryDatabase",
    "MemoryEpisodeStore",
    "MemoryFactStore",
    "MemoryLedgerTable",
    "MemoryProcedureStore",
]
