"""A LangGraph ``BaseStore`` whose items are agent-memory episodes.

Needs ``langgraph`` (the ``langgraph`` extra). LangGraph tools that keep long-term memory
through ``store.put`` / ``get`` / ``search`` / ``delete`` / ``list_namespaces`` (LangMem's
manage and search memory tools, a node's ``store`` argument) get agent-memory without glue::

    from agent_memory.integrations.langgraph_store import AgentMemoryStore
    from agent_memory.sdk import MemoryClient

    with MemoryClient.local() as memory:
        store = AgentMemoryStore(memory, tenant_id="acme")
        store.put(("memories", "u42"), "editor", {"content": "Prefers dark mode in the editor"})
        hits = store.search(("memories", "u42"), query="dark mode in the editor")
        print(hits[0].value["content"])  # Prefers dark mode in the editor
        # builder.compile(store=store): the graph's tools reach it (InjectedStore, get_store)

How namespaces map: a store serves ONE tenant, given when it is built; a namespace is an agent
of that tenant, its labels joined by ``.`` (LangGraph refuses ``.`` in labels, so the mapping is
one to one): ``("memories", "u42")`` is agent ``memories.u42``. A namespace cannot name a
tenant, so no namespace reaches another tenant's memory. Labels must spell an agent id
(letters, digits, ``_`` and ``-``, the first a letter or digit; 128 characters joined).

What an item is: one episode of that agent, written by the product's own path. ``put`` reports
a RunFinished event (run id ``k-<key>``, or ``h-<digest>`` for a key that is not an
identifier) whose task holds the item as JSON and whose summary and findings are the item's
indexed texts; consolidation scrubs it of PII, embeds it and writes the episode. So an item
read back is its value as scrubbed (an email in it reads ``[EMAIL]``), and the agent's
bootstrap serves it like any other past run. A second ``put`` of a key forgets the first
episode (``MemoryClient.forget_run``) and writes the new one: the key's ``created_at`` is kept,
``updated_at`` is the new write's. ``delete`` forgets the run.

Reads: ``get`` reads the episode by its run id. ``search`` with a ``query`` ranks the items
under the prefix as the product's retrieval ranks past runs (``MemoryClient.search_episodes``:
words and meaning together, over the namespaces under the prefix: one agent, else a team of
them), best first, and returns up to ``limit`` of them after ``offset``, ``filter`` applied,
as LangGraph's ``InMemoryStore`` does: with no threshold by default (``min_similarity`` sets
bootstrap's kind of gate). Without a query, every item under the prefix is listed, newest
``updated_at`` first, then filtered and paged. Episodes of an agent that are not store items
(its ordinary runs) are not items, though bootstrap serves both. A key that is an identifier
(LangMem's UUIDs among them) is read back from its run id, as it was put; any other key is
stored scrubbed too: ``get`` answers under the key asked for, a listing under the key as
stored.

Timing: ``put`` waits for the consolidation, so a ``get`` after a ``put`` returns the item, as
LangGraph expects. Locally it waits for the run's handle (a consolidation that fails raises
``ConsolidationError`` from ``put``: the run is kept for replay, and the key's previous value
is already forgotten). On AWS (a client from ``MemoryClient.aws_from_stack``; the stack's
episodes function serves the reads and forgets) consolidation is asynchronous: ``put`` puts
the run on the bus, then reads the episode back until Step Functions has written it, first
after ``poll_interval`` seconds, then twice as long each time (at most
:data:`MAX_POLL_SECONDS`). Past ``timeout`` seconds it raises ``TimeoutError``: the run may
still be written later, or have gone to the consolidation dead-letter queue (its failure is
not reported back to the agent). A put on AWS takes as long as the consolidation (seconds).
Puts in one process are serialized; two processes putting the same key at once may lose one
of the writes.

Items expire with the episode retention (``episodic.retention_days``); LangGraph TTLs are not
supported. Listing namespaces, and searching a prefix, reads every
episode of the tenant to find its agents (the episode store lists no agents yet).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import threading
import time
from collections.abc import Iterable, Iterator, Mapping
from datetime import UTC, datetime
from typing import Any, cast

try:
    from langgraph.store.base import (
        BaseStore,
        GetOp,
        InvalidNamespaceError,
        Item,
        ListNamespacesOp,
        MatchCondition,
        Op,
        PutOp,
        Result,
        SearchItem,
        SearchOp,
        get_text_at_path,
        tokenize_path,
        validate_op_namespace,
    )
except ImportError as error:
    from agent_memory.adapters.install import install_command

    raise ImportError(
        "agent_memory.integrations.langgraph_store needs LangGraph: " + install_command("langgraph")
    ) from error

from agent_memory.core.api.contracts import MAX_ITEM_CHARS, MAX_LIST_ITEMS, MAX_TASK_CHARS
from agent_memory.core.api.episode_record import EpisodeRecord
from agent_memory.core.api.episode_search import MAX_RESULTS
from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.model.identifiers import ID_PATTERN, checked_id
from agent_memory.core.model.scope import MAX_TEAM_AGENTS
from agent_memory.core.model.store_items import STORE_ITEM_MARK
from agent_memory.sdk import MemoryClient
from agent_memory.sdk.bounds import plain, plain_terms, text_of
from agent_memory.sdk.errors import EventTooLargeError, invalid

# The first key of an item's JSON record: marks an episode as a store item.
ITEM_MARK = STORE_ITEM_MARK
# Keys that are identifiers keep their spelling in the run id (``k-<key>``).
_PLAIN_KEY = re.compile(r"[A-Za-z0-9._-]{1,120}")
# What the store indexes an item by when neither the store nor the put says: every text in it.
WHOLE_ITEM = "$"
# A put reads, forgets and rewrites one run: two at once of one key (through any store of the
# process) would race, the second finding the first not yet written.
_WRITING = threading.Lock()
# The longest wait between two reads of a put's episode on AWS.
MAX_POLL_SECONDS = 2.0
# A query search's scores are rounded to this many decimals, as the ranking tells ties apart.
SCORE_DECIMALS = 4


class AgentMemoryStore(BaseStore):
    """LangGraph's store interface over agent-memory, for one tenant (see the module doc).

    ``memory`` is a :class:`MemoryClient`, local or AWS; ``tenant_id`` the tenant every namespace
    belongs to; ``index`` the fields (LangGraph paths such as ``"content"`` or
    ``"facts[*].text"``) an item is found by, ``["$"]`` (every text in it) by default;
    ``domain`` the domain its episodes are written under. A ``put`` returns once its episode is
    written (``timeout`` seconds at most, None for no bound), so it is read back at once: a
    second put of the key must see the first to replace it. On AWS a put reads its episode back
    until it is written, first after ``poll_interval`` seconds, then with doubling waits (see
    the module doc). ``min_similarity`` (from -1 to 1; None, the default, for none) gates a
    query search as bootstrap's threshold gates runs: items are returned down to the last one
    that reaches it (a text at least that similar to the query, or, as in bootstrap, the
    policy's ``min_word_share`` of its words), none when none does.

    How it differs from LangGraph's ``InMemoryStore``:

    - Values are read back as scrubbed of PII (an email reads ``[EMAIL]``), and so are keys
      in a search unless they are identifiers (up to 120 letters, digits, ``.``, ``_``,
      ``-``); a namespace must spell an agent id of the store's tenant.
    - A query search's ``score`` is the ranking's own (words and meaning together, to 4
      decimals; the reranker's score when one is configured), not a cosine similarity: results
      come best first by it, but it is no fixed scale to compare with a threshold.
    - A query ranks what the product's episode index ranks: when the namespaces hold more than
      ``episodic.rerank_candidates`` items (64 by default), the candidates nearest the query by
      meaning and by words, among each agent's newest ``episodic.candidates`` (500); at most
      100 items reach ``offset`` + ``limit``. An item its agent flagged (still open) is not
      found by a query, as bootstrap leaves it out.
    - Items expire with the episode retention; TTLs are refused. A put takes a consolidation's
      time (seconds on AWS).
    """

    supports_ttl = False

    def __init__(
        self,
        memory: MemoryClient,
        tenant_id: str,
        *,
        index: list[str] | None = None,
        domain: str | None = None,
        timeout: float | None = 120.0,
        poll_interval: float = 0.1,
        min_similarity: float | None = None,
    ) -> None:
        try:
            self.tenant_id = checked_id(tenant_id, "tenant_id", "tenant id")
            if domain is not None:
                checked_id(domain, "domain", "domain")
            self.min_similarity = similarity_threshold(min_similarity)
        except InvalidInput as error:
            raise invalid(error) from None
        self.memory = memory
        self.domain = domain
        self.index_fields = list(index or [WHOLE_ITEM])
        self.timeout = timeout
        self.poll_interval = poll_interval

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Carry out the operations in order; their results in the same order."""
        results: list[Result] = []
        for op in ops:
            validate_op_namespace(op)
            if isinstance(op, GetOp):
                results.append(self._get(op))
            elif isinstance(op, PutOp):
                self._put(op)
                results.append(None)
            elif isinstance(op, SearchOp):
                results.append(self._search(op))
            elif isinstance(op, ListNamespacesOp):
                results.append(self._list_namespaces(op))
            else:
                raise ValueError(f"Unknown operation type: {type(op).__name__}")
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """:meth:`batch` on a worker thread, so the event loop is not blocked."""
        return await asyncio.to_thread(self.batch, list(ops))

    def _get(self, op: GetOp) -> Item | None:
        agent_id = agent_of(op.namespace)
        key = text_of(op.key, "key")
        found = self.memory.get_episode(self.tenant_id, agent_id, run_id_of(key))
        item = None if found is None else item_of(found)
        if item is None:
            return None
        # The key asked for: the stored one may read scrubbed.
        return Item(
            value=item.value,
            key=key,
            namespace=item.namespace,
            created_at=item.created_at,
            updated_at=item.updated_at,
        )

    def _put(self, op: PutOp) -> None:
        if op.ttl is not None:
            raise NotImplementedError("AgentMemoryStore does not support TTLs")
        agent_id = agent_of(op.namespace)
        key = text_of(op.key, "key")
        run_id = run_id_of(key)
        # Read within bounds before anything is forgotten: a value refused leaves the key's
        # item as it was.
        value = None if op.value is None else item_value(op.value)
        with _WRITING:
            previous = self.memory.get_episode(self.tenant_id, agent_id, run_id)
            if value is None:
                if previous is not None:
                    self.memory.forget_run(self.tenant_id, agent_id, run_id)
                return
            now = datetime.now(UTC)
            kept = None if previous is None else item_of(previous)
            created = now if kept is None else kept.created_at
            detail = self._event(op, key, value, agent_id, run_id, created=created, now=now)
            if previous is not None:
                self.memory.forget_run(self.tenant_id, agent_id, run_id)
            deadline = None if self.timeout is None else time.monotonic() + self.timeout
            self.memory.finish_run(detail).wait(self.timeout)
            if self.memory.mode == "aws":
                self._await_episode(op.key, agent_id, run_id, deadline)

    def _await_episode(self, key: str, agent_id: str, run_id: str, deadline: float | None) -> None:
        """Read the run's episode back until consolidation has written it (on AWS, where it
        runs elsewhere); ``TimeoutError`` past ``deadline`` (``time.monotonic()``).
        """
        delay = self.poll_interval
        while True:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise TimeoutError(
                    f"item {key!r} of {namespace_of(agent_id)} was not written within "
                    f"{self.timeout} s: its consolidation may still write it, or have failed "
                    "(see the stack's consolidation dead-letter queue)"
                )
            # The state machine takes seconds: no read before the first wait.
            time.sleep(delay if left is None else min(delay, left))
            if self.memory.get_episode(self.tenant_id, agent_id, run_id) is not None:
                return
            delay = min(delay * 2, MAX_POLL_SECONDS)

    def _event(
        self,
        op: PutOp,
        key: str,
        value: dict[str, Any],
        agent_id: str,
        run_id: str,
        *,
        created: datetime,
        now: datetime,
    ) -> dict[str, Any]:
        # A date-time to the millisecond, which scrubbing keeps: beside a phone number in the
        # value, a bare epoch or microseconds ("09.448338") can read as one and be replaced.
        stamp = created.isoformat(timespec="milliseconds")
        record = {ITEM_MARK: 1, "key": key, "created_at": stamp}
        text = json.dumps(
            {**record, "value": value}, ensure_ascii=False, separators=(",", ":"), default=str
        )
        if len(text) > MAX_TASK_CHARS:
            raise invalid(
                InvalidInput(
                    "value",
                    f"is {len(text)} characters as an item record; an item holds at most "
                    f"{MAX_TASK_CHARS} (its key included)",
                )
            )
        texts = indexed_texts(value, self.index_fields if op.index is None else op.index)
        detail: dict[str, Any] = {
            "tenant_id": self.tenant_id,
            "agent_id": agent_id,
            "run_id": run_id,
            "task": text,
            "outcome": "COMPLETED",
            "finished_at": now.isoformat(),
            "artifacts": {
                # Never empty: an item indexed by nothing is found by its key alone.
                "task_summary": (texts[0] if texts else f"Stored item {key}")[:MAX_ITEM_CHARS],
                "key_findings": texts,
            },
        }
        if self.domain is not None:
            detail["domain"] = self.domain
        return detail

    def _search(self, op: SearchOp) -> list[SearchItem]:
        agents = [a for a in self._agents() if under(namespace_of(a), op.namespace_prefix)]
        if not agents or op.limit <= 0:
            return []
        wanted = None if op.filter is None else plain_terms(op.filter, "filter")
        found: list[tuple[Item, float | None]]
        if op.query is None:
            found = [(item, None) for agent in agents for item in self._items(agent)]
            found.sort(key=lambda pair: pair[0].updated_at, reverse=True)
            found = [(i, s) for i, s in found if matches(i.value, wanted)]
        else:
            found = [*self._ranked(op.query, agents, wanted, op.offset + op.limit)]
        return [
            SearchItem(
                namespace=item.namespace,
                key=item.key,
                value=item.value,
                created_at=item.created_at,
                updated_at=item.updated_at,
                score=score,
            )
            for item, score in found[op.offset : op.offset + op.limit]
        ]

    def _ranked(
        self, query: str, agents: list[str], wanted: Mapping[str, Any] | None, needed: int
    ) -> list[tuple[Item, float]]:
        """The items of ``agents`` that meet ``wanted``, best first for ``query``: at least
        ``needed`` of them when there are (and the search can return as many).
        """
        asking, others = agents[0], agents[1:]
        scope: dict[str, Any] = {}
        if len(agents) > MAX_TEAM_AGENTS:
            scope = {"scope": "tenant"}
        elif others:
            scope = {"scope": "team", "team": others}
        members = set(agents)
        asked = min(needed, MAX_RESULTS)
        while True:
            reply = self.memory.search_episodes(
                self.tenant_id,
                asking,
                query,
                limit=asked,
                units=1,
                min_similarity=self.min_similarity,
                **scope,
            )
            ranked: list[tuple[Item, float]] = []
            for hit in reply["episodes"]:
                item = item_of(hit) if hit["agent_id"] in members else None
                if item is not None and matches(item.value, wanted):
                    ranked.append((item, round(hit["score"], SCORE_DECIMALS)))
            # Runs that are not items (or not under the prefix, or filtered out) took places:
            # ask for more, unless the search has no more to give.
            if (
                len(ranked) >= needed
                or asked >= MAX_RESULTS
                or len(reply["episodes"]) < asked
                or reply["left_out"]["episodes"]
            ):
                break
            asked = min(2 * asked, MAX_RESULTS)
        # Scores equal to SCORE_DECIMALS are ties, which the ranking breaks (completed, then
        # newer runs first); a stable sort keeps that order.
        ranked.sort(key=lambda pair: -pair[1])
        return ranked

    def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        namespaces = [
            namespace_of(a)
            for a in self._agents()
            if all(fits(c, namespace_of(a)) for c in op.match_conditions or ())
            and next(iter(self._items(a)), None) is not None
        ]
        if op.max_depth is not None:
            namespaces = [ns[: op.max_depth] for ns in namespaces]
        return sorted(set(namespaces))[op.offset : op.offset + op.limit]

    def _agents(self) -> list[str]:
        return self.memory.list_agents(self.tenant_id)

    def _items(self, agent_id: str) -> Iterator[Item]:
        """The agent's store items, newest first, read a page at a time."""
        cursor: str | None = None
        while True:
            page = self.memory.list_episodes(self.tenant_id, agent_id, cursor=cursor)
            for record in page["episodes"]:
                item = item_of(record)
                if item is not None:
                    yield item
            cursor = page["cursor"]
            if cursor is None:
                return


def similarity_threshold(value: object) -> float | None:
    """A store's ``min_similarity``: None, or a number from -1 to 1 (``InvalidInput`` naming
    ``min_similarity`` otherwise).
    """
    if value is None:
        return None
    if type(value) is bool or not isinstance(value, int | float) or not -1.0 <= value <= 1.0:
        raise InvalidInput("min_similarity", "must be a number from -1 to 1, or None")
    return float(value)


def item_value(value: object) -> dict[str, Any]:
    """An item's value as plain JSON data, read within bounds (``InvalidInputError`` naming
    ``value``): an object, at most 64 levels deep, holding no value twice over itself, and no
    larger than an item record may be (``MAX_TASK_CHARS`` characters of JSON, so at most four
    times as many bytes; the record's exact length is checked once it is written).
    """
    if not issubclass(type(value), dict):
        raise invalid(InvalidInput("value", "must be a dict (a JSON object)"))
    try:
        checked: dict[str, Any] = plain(value, "value", max_bytes=4 * MAX_TASK_CHARS, max_keys=None)
    except EventTooLargeError:
        raise invalid(
            InvalidInput(
                "value",
                f"is more than {MAX_TASK_CHARS} characters as an item record; an item holds "
                f"at most {MAX_TASK_CHARS} (its key included)",
            )
        ) from None
    return checked


def agent_of(namespace: tuple[str, ...]) -> str:
    """The agent a namespace is: its labels joined by ``.``."""
    if not namespace:
        raise InvalidNamespaceError("Namespace cannot be empty.")
    agent_id = ".".join(namespace)
    if not re.fullmatch(ID_PATTERN, agent_id):
        raise InvalidNamespaceError(
            f"Namespace {namespace} is not an agent of agent-memory: its labels, joined by "
            "'.', must be at most 128 letters, digits, '_' or '-', the first a letter or digit."
        )
    return agent_id


def namespace_of(agent_id: str) -> tuple[str, ...]:
    """The namespace an agent is."""
    return tuple(agent_id.split("."))


def run_id_of(key: str) -> str:
    """The run id of a key's episode: ``k-<key>`` for an identifier, else ``h-<digest>``."""
    if _PLAIN_KEY.fullmatch(key):
        return f"k-{key}"
    return f"h-{hashlib.sha256(key.encode('utf-8', 'surrogatepass')).hexdigest()[:48]}"


def item_of(record: EpisodeRecord) -> Item | None:
    """The store item an episode holds, or None for an episode that is not one."""
    try:
        data = json.loads(record["task"])
    except ValueError:
        data = None
    if not isinstance(data, dict) or data.get(ITEM_MARK) != 1:
        if not record["task"].startswith('{"' + ITEM_MARK + '":1,'):
            return None
        # Scrubbing replaced a span that ran across the record's JSON syntax: what is left is
        # kept as text rather than dropped.
        data = {"key": record["run_id"], "value": {"text": record["task"]}}
    try:
        created = datetime.fromisoformat(str(data["created_at"]))
    except (KeyError, ValueError):
        created = datetime.fromtimestamp(record["created_at"], UTC)
    run_id = record["run_id"]
    # An identifier's run id holds it as it was put (ids are not scrubbed), where the record
    # may read scrubbed: a UUID can read as a secret, and the key must find its item again.
    key = run_id[2:] if run_id.startswith("k-") else str(data.get("key", run_id))
    return Item(
        value=cast(dict[str, Any], data.get("value", {})),
        key=key,
        namespace=namespace_of(record["agent_id"]),
        created_at=created,
        updated_at=datetime.fromtimestamp(record["created_at"], UTC),
    )


def indexed_texts(value: dict[str, Any], fields: Iterable[str] | bool) -> list[str]:
    """The texts an item is found by (its episode's findings), at ``fields``; ``False``: none.

    ``"$"`` is every string in the item, in order (its JSON when it holds none).
    """
    if fields is False or fields is True:
        fields = [WHOLE_ITEM] if fields else []
    texts: list[str] = []
    for field in fields:
        if field == WHOLE_ITEM:
            texts += list(_strings(value)) or [json.dumps(value, ensure_ascii=False)]
        else:
            texts += get_text_at_path(value, tokenize_path(field))
    kept = [t.strip()[:MAX_ITEM_CHARS] for t in texts if t.strip()]
    return list(dict.fromkeys(kept))[:MAX_LIST_ITEMS]


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for inner in value.values():
            yield from _strings(inner)
    elif isinstance(value, list | tuple):
        for inner in value:
            yield from _strings(inner)


def under(namespace: tuple[str, ...], prefix: tuple[str, ...]) -> bool:
    """Whether ``namespace`` starts with ``prefix``, label by label."""
    return namespace[: len(prefix)] == tuple(prefix)


def fits(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    """Whether a namespace meets a listing's condition (``*`` matches any one label)."""
    path = condition.path
    if len(namespace) < len(path):
        return False
    if condition.match_type == "prefix":
        pairs = zip(namespace, path, strict=False)
    elif condition.match_type == "suffix":
        pairs = zip(reversed(namespace), reversed(path), strict=False)
    else:
        raise ValueError(f"Unsupported match type: {condition.match_type}")
    return all(p == "*" or n == p for n, p in pairs)


def matches(value: Mapping[str, Any], conditions: Mapping[str, Any] | None) -> bool:
    """Whether an item's value meets a search filter, as LangGraph's stores read one:
    equality (nested objects and lists compared within), or ``$eq``, ``$ne``, ``$gt``,
    ``$gte``, ``$lt``, ``$lte``; a key may be a dotted path into nested objects.
    """
    return all(_compare(_at(value, k), wanted) for k, wanted in (conditions or {}).items())


def _at(value: Mapping[str, Any], key: str) -> Any:
    """The value's field ``key``, or, for a dotted key it does not hold, the nested field (as
    LangGraph's SQL stores read ``"user.access-level"``).
    """
    if key in value or "." not in key:
        return value.get(key)
    found: Any = value
    for part in key.split("."):
        if not isinstance(found, Mapping):
            return None
        found = found.get(part)
    return found


def _compare(actual: Any, wanted: Any) -> bool:
    if isinstance(wanted, Mapping):
        if any(str(k).startswith("$") for k in wanted):
            return all(_apply(actual, op, operand) for op, operand in wanted.items())
        if not isinstance(actual, Mapping):
            return False
        return all(_compare(actual.get(k), v) for k, v in wanted.items())
    if isinstance(wanted, list | tuple):
        return (
            isinstance(actual, list | tuple)
            and len(actual) == len(wanted)
            and all(_compare(a, w) for a, w in zip(actual, wanted, strict=True))
        )
    return bool(actual == wanted)


def _apply(actual: Any, operator: str, operand: Any) -> bool:
    if operator == "$eq":
        return bool(actual == operand)
    if operator == "$ne":
        return bool(actual != operand)
    if operator not in ("$gt", "$gte", "$lt", "$lte"):
        raise ValueError(f"Unsupported operator: {operator}")
    try:
        left, right = float(actual), float(operand)
    except (TypeError, ValueError):
        return False
    if operator == "$gt":
        return left > right
    if operator == "$gte":
        return left >= right
    if operator == "$lt":
        return left < right
    return left <= right
