"""The serving receipts a client's bootstraps were handed, for the runs' feedback to carry.

Procedure feedback counts only with the receipt of the bootstrap that served the procedure
(one receipt, one count). A client keeps the receipts it has not yet handed back, per tenant,
agent and procedure, so a run reporting on its procedure carries one without the caller
passing it; any unused receipt of the same (tenant, agent, procedure) is as good as another.
"""

from __future__ import annotations

import threading
from collections import OrderedDict, deque
from collections.abc import Mapping
from typing import Any

Key = tuple[str, str, str]

# A client serving many agents keeps at most this many (tenant, agent, procedure) triples,
# each with at most PER_KEY receipts not yet used: memory stays bounded when runs never report.
MAX_KEYS = 1_024
PER_KEY = 16


class ServedReceipts:
    """Receipts handed out to this client and not yet sent back; safe between threads."""

    def __init__(self, *, max_keys: int = MAX_KEYS, per_key: int = PER_KEY) -> None:
        self._pools: OrderedDict[Key, deque[str]] = OrderedDict()
        self._max_keys = max_keys
        self._per_key = per_key
        self._lock = threading.Lock()

    def keep(self, tenant_id: str, agent_id: str, reply: Mapping[str, Any]) -> None:
        """Remember the receipt of a bootstrap reply's procedure, if it has one."""
        procedure = reply.get("procedure")
        receipt = procedure.get("receipt") if isinstance(procedure, Mapping) else None
        if not isinstance(receipt, str):
            return
        key = (tenant_id, agent_id, str(procedure["procedure_id"]))  # type: ignore[index]
        with self._lock:
            pool = self._pools.pop(key, None) or deque(maxlen=self._per_key)
            pool.append(receipt)
            self._pools[key] = pool
            while len(self._pools) > self._max_keys:
                self._pools.popitem(last=False)

    def attach(self, detail: dict[str, Any]) -> str | None:
        """Give ``detail``'s procedure feedback a kept receipt if it has none (the oldest of
        its tenant, agent and procedure, taken from the pool); a receipt it carries already is
        dropped from the pool. The receipt taken, to :meth:`give_back` if the run is not sent.
        """
        feedback = detail.get("procedure_feedback")
        if not isinstance(feedback, dict):
            return None
        key = (detail["tenant_id"], detail["agent_id"], feedback["procedure_id"])
        with self._lock:
            pool = self._pools.get(key)
            if feedback.get("receipt") is not None:
                if pool is not None and feedback["receipt"] in pool:
                    pool.remove(feedback["receipt"])
                return None
            if not pool:
                return None
            receipt = pool.popleft()
        feedback["receipt"] = receipt
        return receipt

    def give_back(self, detail: dict[str, Any], receipt: str) -> None:
        """Return a receipt :meth:`attach` took for a run that was not sent after all."""
        procedure_id = detail["procedure_feedback"]["procedure_id"]
        key = (detail["tenant_id"], detail["agent_id"], procedure_id)
        with self._lock:
            pool = self._pools.setdefault(key, deque(maxlen=self._per_key))
            pool.appendleft(receipt)
