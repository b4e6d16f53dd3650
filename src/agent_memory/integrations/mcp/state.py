"""Who the server speaks for and what it has served: one tenant and agent, fixed at start.

Tenant and agent come from the server's configuration only, never from a tool's arguments,
so a model cannot read or write another tenant's memory by asking.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from agent_memory.core.model.scope import ScopeKind
from agent_memory.sdk import MemoryClient, RunHandle
from agent_memory.sdk.types import BootstrapReply

# Runs recorded through this server whose status a client may still ask for (memory://runs/…).
MAX_RUNS_KEPT = 256


@dataclass(frozen=True)
class ServerIdentity:
    """The tenant and agent the server acts for, and whose past runs its reads see."""

    tenant_id: str
    agent_id: str
    scope: ScopeKind = "agent"
    team: tuple[str, ...] | None = None

    def read_scope(self) -> dict[str, Any]:
        """The ``scope`` and ``team`` keywords of the SDK's reads."""
        return {"scope": self.scope, "team": list(self.team) if self.team else None}


@dataclass
class ServerState:
    """The memory client, the identity, and what this server process served or recorded."""

    memory: MemoryClient
    identity: ServerIdentity
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False)
    _last_task: str | None = field(default=None, init=False)
    _last_reply: BootstrapReply | None = field(default=None, init=False)
    _runs: OrderedDict[str, RunHandle] = field(default_factory=OrderedDict, init=False)

    def bootstrap(
        self, task: str, task_type: str | None = None, domain: str | None = None
    ) -> BootstrapReply:
        """The memory context of ``task`` (kept as the current context of this server)."""
        identity = self.identity
        reply = self.memory.bootstrap(
            identity.tenant_id,
            identity.agent_id,
            task,
            task_type=task_type,
            domain=domain,
            **identity.read_scope(),
            surface="mcp",
        )
        with self._lock:
            self._last_task, self._last_reply = task, reply
        return reply

    def last_served(self) -> tuple[str, BootstrapReply] | None:
        """The task and reply memory_context last served here, if it served any."""
        with self._lock:
            if self._last_task is None or self._last_reply is None:
                return None
            return self._last_task, self._last_reply

    def kept(self, handle: RunHandle) -> None:
        """Keep a recorded run's handle, to answer for its status."""
        with self._lock:
            self._runs.pop(handle.run_id, None)
            self._runs[handle.run_id] = handle
            while len(self._runs) > MAX_RUNS_KEPT:
                self._runs.popitem(last=False)

    def run_status(self, run_id: str) -> dict[str, Any]:
        """What became of a run recorded through this server (``UNKNOWN`` for any other)."""
        with self._lock:
            handle = self._runs.get(run_id)
        if handle is None:
            return {"run_id": run_id, "status": "UNKNOWN"}
        if not handle.done():
            return {"run_id": run_id, "status": "PENDING"}
        try:
            return dict(handle.wait())
        except Exception as error:  # recorded for replay already (locally), or a bug
            return {"run_id": run_id, "status": "FAILED", "error": str(error)}


def identity_of(
    tenant_id: str, agent_id: str, scope: ScopeKind = "agent", team: Sequence[str] | None = None
) -> ServerIdentity:
    """The server's identity, as the CLI options give it."""
    return ServerIdentity(tenant_id, agent_id, scope, tuple(team) if team else None)
