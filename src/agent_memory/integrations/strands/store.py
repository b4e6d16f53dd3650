"""``AgentMemoryStore``: agent-memory as a Strands ``MemoryStore``.

``search`` is the bootstrap of ``MemoryClient`` (episodes, facts and the procedure for the task
type, as memory entries); ``add_messages`` turns the batch of messages the ``MemoryManager``
hands over after an invocation into one RunFinished event, reported with
``MemoryClient.finish_run``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import threading
import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, TypeAlias, cast

from strands.memory import (
    AddMessagesContext,
    ExtractionConfig,
    InvocationTrigger,
    MemoryEntry,
    MemoryMessageFilter,
    MemoryStore,
    SearchOptions,
)
from strands.types.content import Message as StrandsMessage

from agent_memory.app.wire import bootstrap_message
from agent_memory.core.api.contracts import MAX_TASK_CHARS
from agent_memory.core.model import markers
from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.model.scope import ScopeKind
from agent_memory.core.privacy.aliases import in_full
from agent_memory.integrations.run_event import fit_messages, message_json
from agent_memory.integrations.strands.messages import (
    Part,
    ends_with_answer,
    first_user_text,
    message_parts,
)
from agent_memory.sdk.aio import AsyncMemoryClient
from agent_memory.sdk.bounds import listed, text_of
from agent_memory.sdk.client import MemoryClient
from agent_memory.sdk.errors import invalid
from agent_memory.sdk.handles import RunHandle
from agent_memory.sdk.types import BootstrapReply, EpisodeView

__all__ = [
    "DEFAULT_MAX_SEARCH_RESULTS",
    "AgentMemoryStore",
    "Outcome",
    "invocation_outcome",
    "memory_entries",
]

Outcome = Literal["COMPLETED", "PARTIAL", "FAILED"]
Messages: TypeAlias = Sequence[StrandsMessage]
DEFAULT_MAX_SEARCH_RESULTS = 5
_RUN_PREFIX = "strands-"


def invocation_outcome(messages: Messages) -> Outcome:
    """``COMPLETED`` when the batch ends with the model's final answer (an assistant message
    with text and no tool use), else ``PARTIAL`` (the invocation stopped on the way).
    """
    return "COMPLETED" if ends_with_answer(messages) else "PARTIAL"


class AgentMemoryStore(MemoryStore):
    """agent-memory as a Strands memory store, for ``MemoryManager(stores=[store])``.

    ``search`` asks ``client.bootstrap`` about the query (with ``task_type``, ``domain``,
    ``scope`` and ``team``) and returns the sections of its memory block as entries (the
    procedure it recommends, the past runs, the facts: at most ``max_search_results``), each a
    block of its own with the product's construction (:func:`memory_entries`); each entry's
    metadata says what it holds (``kind``) and, for past runs, whose run each was. These
    settings are checked when the store is made (``InvalidInputError`` names a bad one, a
    ``team`` scope without ``team`` say): a manager only logs a search that fails.

    Writable with extraction on by default: after every invocation the ``MemoryManager`` hands
    the invocation's messages (tool uses and results included) to ``add_messages``, which
    reports them as ONE RunFinished event. Its run id is derived from this store's id for the
    agent and the messages' sequence numbers, so a retried batch is the same run (consolidated
    once). ``outcome`` (a value, or a function of the batch; default
    :func:`invocation_outcome`) is the run's outcome; when a search served a procedure since the
    last batch, the run reports on it: ``procedure_succeeded(batch)`` when given, else whether
    the outcome is ``COMPLETED`` (the client adds the procedure's serving receipt). With
    ``wait``, ``add_messages`` also waits for the run to be consolidated.

    One store per agent: the sequence numbers are the agent's, and the store is re-keyed
    (:meth:`initialize`) each time a ``MemoryManager`` starts an agent with it.
    """

    def __init__(
        self,
        client: MemoryClient | AsyncMemoryClient,
        *,
        tenant_id: str,
        agent_id: str,
        task_type: str | None = None,
        domain: str | None = None,
        scope: ScopeKind = "agent",
        team: Sequence[str] | None = None,
        name: str = "agent-memory",
        description: str | None = (
            "What this agent (or its team) learned in earlier runs: past runs with their "
            "findings, confirmed facts and the recommended procedure for the task."
        ),
        max_search_results: int | None = None,
        writable: bool = True,
        extraction: ExtractionConfig | bool | None = None,
        outcome: Outcome | Callable[[Messages], Outcome | None] | None = invocation_outcome,
        procedure_succeeded: Callable[[Messages], bool | None] | None = None,
        task: Callable[[Messages], str] | None = None,
        wait: bool = False,
    ) -> None:
        if max_search_results is not None and max_search_results < 1:
            raise ValueError("AgentMemoryStore: max_search_results must be at least 1")
        _check_reads(tenant_id, agent_id, task_type, domain, scope, team)
        self.name = name
        self.description = description
        self.max_search_results = max_search_results
        self.writable = writable
        self.extraction = (
            extraction if extraction is not None else (every_invocation() if writable else None)
        )
        self.client = client.sync if isinstance(client, AsyncMemoryClient) else client
        self.tenant_id = tenant_id
        self.agent_id = agent_id
        self.task_type = task_type
        self.domain = domain
        self.scope: ScopeKind = scope
        self.team = team
        self._outcome = outcome
        self._procedure_succeeded = procedure_succeeded
        self._task = task or first_user_text
        self._wait = wait
        self._lock = threading.Lock()
        self._key = uuid.uuid4().hex
        self._sent: set[int] = set()
        self._served: str | None = None
        self.last_handle: RunHandle | None = None
        """The handle of the last run this store reported."""

    async def initialize(self) -> None:
        """A new key for the runs of the agent being started (its sequence numbers restart)."""
        with self._lock:
            self._key = uuid.uuid4().hex
            self._sent.clear()
            self._served = None

    async def search(self, query: str, options: SearchOptions | None = None) -> list[MemoryEntry]:
        """The procedure, episodes and facts memory holds for ``query`` (see the class)."""
        limit = (options or {}).get("max_search_results") or self.max_search_results
        if not query.strip():
            return []
        reply = await asyncio.to_thread(self.bootstrap, query)
        return memory_entries(reply, limit or DEFAULT_MAX_SEARCH_RESULTS)

    def bootstrap(self, query: str) -> BootstrapReply:
        """``client.bootstrap`` for ``query`` with this store's settings; a procedure it serves
        is the one the next batch reports on.
        """
        reply = self.client.bootstrap(
            self.tenant_id,
            self.agent_id,
            query,
            task_type=self.task_type,
            domain=self.domain,
            scope=self.scope,
            team=self.team,
            surface="strands",
        )
        procedure = reply["procedure"]
        if procedure is not None:
            with self._lock:
                self._served = procedure["procedure_id"]
        return reply

    async def add_messages(
        self, messages: list[StrandsMessage], context: AddMessagesContext | None = None
    ) -> RunHandle | None:
        """Report the batch as one RunFinished event; its handle (None when there was nothing
        new to report: no task text, or every message already reported by this store).
        """
        numbers = context.sequence_numbers if context is not None else None
        with self._lock:
            served = self._served
        detail = self._event(messages, numbers, served)
        if detail is None:
            return None
        handle = await asyncio.to_thread(self.client.finish_run, detail)
        with self._lock:
            self.last_handle = handle
            self._sent.update(numbers or ())
            # Reported on (or not judged) with this run: the next one starts afresh.
            if self._served == served:
                self._served = None
        if self._wait:
            await asyncio.to_thread(handle.wait)
        return handle

    def run_event(
        self, messages: Sequence[StrandsMessage], sequence_numbers: Sequence[int] | None = None
    ) -> dict[str, Any] | None:
        """The RunFinished detail for a batch (not yet validated or sent), or None when there
        is nothing new in it to report.
        """
        with self._lock:
            served = self._served
        return self._event(messages, sequence_numbers, served)

    def _event(
        self,
        messages: Sequence[StrandsMessage],
        sequence_numbers: Sequence[int] | None,
        served: str | None,
    ) -> dict[str, Any] | None:
        batch: list[StrandsMessage] = listed(messages, "messages", "a list of Strands messages")
        if sequence_numbers is not None:
            given = _numbers(sequence_numbers)
            if len(given) != len(batch):
                raise ValueError("AgentMemoryStore: one sequence number per message is needed")
            with self._lock:
                paired = zip(given, batch, strict=True)
                fresh = [(n, m) for n, m in paired if n not in self._sent]
            numbers: list[int] | None = [n for n, _ in fresh]
            batch = [m for _, m in fresh]
        else:
            numbers = None
        parts = message_parts(batch)
        core = [part.message for part in parts]
        stated = text_of(self._task(batch), "task").strip()
        task = stated or next((m.content for m in core if m.content.strip()), "")
        if not batch or not task.strip():
            return None
        detail: dict[str, Any] = {
            "tenant_id": self.tenant_id,
            "agent_id": self.agent_id,
            "run_id": self._run_id(batch, numbers, parts),
            "task": task[:MAX_TASK_CHARS],
        }
        for key, value in (("task_type", self.task_type), ("domain", self.domain)):
            if value is not None:
                detail[key] = value
        outcome = self._outcome(batch) if callable(self._outcome) else self._outcome
        if outcome is not None:
            detail["outcome"] = outcome
        if served is not None:
            succeeded = (
                self._procedure_succeeded(batch)
                if self._procedure_succeeded is not None
                else (outcome == "COMPLETED" if outcome is not None else None)
            )
            if succeeded is not None:
                detail["procedure_feedback"] = {"procedure_id": served, "succeeded": succeeded}
        detail["messages"] = fit_messages([message_json(m) for m in core], detail)
        return detail

    def _run_id(
        self,
        batch: Sequence[StrandsMessage],
        numbers: Sequence[int] | None,
        parts: Sequence[Part],
    ) -> str:
        # A retried batch carries the same numbers; without numbers, the messages' own tracking
        # ids (or, lacking those, what is kept of them) stand for them.
        with self._lock:
            key = self._key
        if numbers is not None:
            identity: object = list(numbers)
        else:
            kept: dict[int, list[object]] = {}
            for part in parts:
                m = part.message
                kept.setdefault(part.source, []).append(
                    [m.role, m.content, m.name, m.tool_call_id, list(m.tool_calls)]
                )
            identity = [
                _tracking_id(message, i) or kept.get(i, []) for i, message in enumerate(batch)
            ]
        digest = hashlib.sha256(
            json.dumps([key, identity], sort_keys=True).encode("utf-8", "surrogatepass")
        ).hexdigest()
        return f"{_RUN_PREFIX}{digest[:40]}"


def _numbers(sequence_numbers: object) -> list[int]:
    """The batch's sequence numbers, as whole numbers (no other value of the caller's is kept)."""
    numbers = listed(sequence_numbers, "sequence_numbers", "a list of whole numbers")
    if any(type(n) is bool or not issubclass(type(n), int) for n in numbers):
        raise invalid(InvalidInput("sequence_numbers", "must be whole numbers"))
    return [int.__int__(n) for n in numbers]


def _tracking_id(message: Mapping[str, Any], index: int) -> str | None:
    """The message's tracking id (Strands gives each message one), if it has one."""
    # Read once message_parts has checked that each message is a dict.
    found = dict.get(cast(dict[str, Any], message), "tracking_id")
    return None if found is None else text_of(found, f"messages[{index}].tracking_id") or None


def _check_reads(
    tenant_id: str,
    agent_id: str,
    task_type: str | None,
    domain: str | None,
    scope: ScopeKind,
    team: Sequence[str] | None,
) -> None:
    """Refuse a store whose searches would all be refused (a manager only logs those)."""
    data: dict[str, Any] = {"tenant_id": tenant_id, "agent_id": agent_id, "task": "check"}
    optional = {"task_type": task_type, "domain": domain, "team": team}
    data.update(
        {
            k: list(v) if k == "team" and not isinstance(v, str) else v
            for k, v in optional.items()
            if v is not None
        }
    )
    if scope != "agent":
        data["scope"] = scope
    try:
        bootstrap_message(data)
    except InvalidInput as error:
        raise invalid(error) from None


def every_invocation() -> ExtractionConfig:
    """Extraction after every invocation, tool uses and results kept: one run per invocation."""
    return ExtractionConfig(trigger=[InvocationTrigger()], filter=MemoryMessageFilter(exclude=[]))


def memory_entries(reply: BootstrapReply, limit: int) -> list[MemoryEntry]:
    """A bootstrap reply as at most ``limit`` memory entries: one per section of its memory
    block (the procedure, then the past runs, then the facts), each a block of its own as the
    block's renderer wrote it (``core/model/markers.py``: its boundaries carry the reply's
    token, every stored text is quoted on a line after the system's label), its pseudonyms in
    full. The metadata says what each holds.
    """
    kinds = {
        markers.PROCEDURAL: "procedure",
        markers.EPISODIC: "episodes",
        markers.SEMANTIC: "facts",
    }
    entries = [
        MemoryEntry(content=block, metadata=_metadata(section, reply))
        for block in markers.each_section(in_full(reply["context"]))
        for section in markers.parse(block).sections
        if section.kind in kinds
    ]
    order = list(kinds.values())
    entries.sort(key=lambda entry: order.index((entry.metadata or {})["kind"]))
    return entries[:limit]


def _metadata(section: markers.ReadSection, reply: BootstrapReply) -> dict[str, Any]:
    if section.kind == markers.PROCEDURAL:
        procedure = reply["procedure"]
        assert procedure is not None  # the block has a procedural section only with one
        return {
            "kind": "procedure",
            "procedure_id": procedure["procedure_id"],
            "status": procedure["status"],
            "trial": procedure["trial"],
            "times_applied": procedure["times_applied"],
            "success_rate": procedure["success_rate"],
        }
    if section.kind == markers.EPISODIC:
        return {"kind": "episodes", "runs": [_run(episode) for episode in reply["episodes"]]}
    return {
        "kind": "facts",
        "facts": [{"source": f["source"], "score": f["score"]} for f in reply["facts"]],
    }


def _run(episode: EpisodeView) -> dict[str, Any]:
    run = {"run_id": episode["run_id"], "outcome": episode["outcome"], "score": episode["score"]}
    author = episode.get("agent_id")
    return {**run, "agent_id": author} if author else run
