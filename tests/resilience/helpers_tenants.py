"""Tenants that look alike: overlapping ids, the same agents, domains, task types and texts.

:func:`tenant_events` gives every tenant the same runs (same run ids, same words) except for
one codeword per tenant in a finding and a fact, and a ``finished_at`` unique to the tenant, so
a reply's episode (run id, created_at) names its owner. :class:`Auditor` wraps the stores and
the knowledge base and records every record they hand out for a tenant-scoped read, so a store
that leaked would be caught even if a later filter hid it. :func:`reply_leaks` checks a
bootstrap reply or a search result against what each tenant owns.
"""

from __future__ import annotations

import random
import re
import sqlite3
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from agent_memory.core.api.episode_search import EpisodeSearch
from agent_memory.core.model.models import FactStatus
from agent_memory.core.ports import MemoryPorts
from agent_memory.core.tiers import procedural
from agent_memory.core.workflows.consolidation import consolidate
from agent_memory.core.workflows.ingestion import run_ingestion

Event = dict[str, Any]

# Prefixes of one another, differing by a separator, or by case: key ranges must not overlap.
TENANTS = ("acme", "acme-eu", "acme.eu", "acme_eu", "acm", "ACME")
CODEWORDS = ("amber", "birch", "cedar", "delta", "ember", "fjord", "gorse", "heath")
AGENTS = ("reviewer", "drafter", "reviewer-2")
DOMAINS = {"contracts": "contract_review", "privacy": "dpa_review"}
SHARED_FACTS = {
    "contracts": ("Indemnity clauses deserve a second reader", "Governing law belongs up front"),
    "privacy": ("Processors must list every subprocessor", "Breach notices run on a clock"),
}
TASKS = (
    "Review the vendor agreement for liability",
    "Check the data processing addendum",
    "Summarise the renewal terms",
    "Find the governing law clause",
    "List the subprocessors and transfers",
)
STEPS = {
    "contract_review": ("Read the liability clause", "Compare the cap with annual fees"),
    "dpa_review": ("List the subprocessors", "Check the breach window"),
}
BASE_TIME = 1_789_900_000.0  # a day before tests.support.memory.T0


def codeword(tenant_id: str) -> str:
    """The word only this tenant's texts contain."""
    return CODEWORDS[TENANTS.index(tenant_id)]


def tenant_events(tenant_id: str, *, runs_per_agent: int = 6) -> list[Event]:
    """The tenant's runs: identical to every other tenant's but for its codeword and times.

    The agents take turns, so the first runs already confirm facts: runs consolidated within
    the hour count as independent confirmations once per agent.
    """
    offset = TENANTS.index(tenant_id)
    word = codeword(tenant_id)
    events = []
    for number in range(runs_per_agent):
        for a, agent in enumerate(AGENTS):
            domain = sorted(DOMAINS)[number % 2]
            finished = BASE_TIME + (a * 100 + number) * 60 + offset
            events.append(
                {
                    "tenant_id": tenant_id,
                    "agent_id": agent,
                    "run_id": f"run-{a}-{number:03d}",
                    "task": TASKS[number % len(TASKS)],
                    "task_type": DOMAINS[domain],
                    "domain": domain,
                    "outcome": "COMPLETED",
                    "finished_at": datetime.fromtimestamp(finished, UTC).isoformat(),
                    "artifacts": {
                        "task_summary": TASKS[number % len(TASKS)],
                        "key_findings": [f"The {word} desk signed off", "Clause seven needs care"],
                        "facts": [
                            *(
                                {"content": text, "confidence": 0.9}
                                for text in SHARED_FACTS[domain]
                            ),
                            {
                                "content": f"The {word} desk owns {domain} escalations",
                                "confidence": 0.9,
                            },
                        ],
                        "procedure": {"title": "Review", "steps": list(STEPS[DOMAINS[domain]])},
                    },
                }
            )
    return events


def populate(
    ports_of: Callable[[str | None], MemoryPorts],
    tenants: Iterable[str],
    *,
    runs_per_agent: int = 6,
) -> None:
    """Consolidate every tenant's runs (on ``ports_of(tenant)``), ingest what the first half
    confirmed (``ports_of(None)``: the cross-tenant job), leave the rest on the fast path, and
    approve every tenant's procedures.
    """
    tenants = tuple(tenants)
    events = {t: tenant_events(t, runs_per_agent=runs_per_agent) for t in tenants}
    for tenant in tenants:
        for event in events[tenant][: len(events[tenant]) // 2]:
            consolidate(event, ports_of(tenant))
    jobs = ports_of(None)
    run_ingestion(jobs.facts, jobs.knowledge_base, jobs.checkpoints, now=jobs.clock())
    for tenant in tenants:
        ports = ports_of(tenant)
        for event in events[tenant][len(events[tenant]) // 2 :]:
            consolidate(event, ports)
        for task_type in sorted(set(DOMAINS.values())):
            for p in ports.procedures.for_task_type(tenant, task_type):
                procedural.review(
                    ports.procedures,
                    p.procedure_id,
                    approve=True,
                    reviewer="lead",
                    now=ports.clock(),
                    tenant_id=tenant,
                )


@dataclass
class Owned:
    """What one tenant owns, to recognise it in a reply."""

    episodes: dict[tuple[str, float], str] = field(default_factory=dict)  # (run, created) -> agent
    fact_contents: set[str] = field(default_factory=set)
    procedures: set[str] = field(default_factory=set)


def owned_by(ports: MemoryPorts, tenants: Iterable[str]) -> dict[str, Owned]:
    owned = {}
    for tenant in tenants:
        mine = Owned()
        for e in ports.episodes.export(tenant):
            mine.episodes[(e.run_id, e.created_at)] = e.agent_id
        mine.fact_contents = {
            f.content for f in ports.facts.export(tenant) if f.status is FactStatus.CONFIRMED
        }
        mine.procedures = {p.procedure_id for p in ports.procedures.export(tenant)}
        owned[tenant] = mine
    return owned


def reply_leaks(
    reply: Mapping[str, Any], tenant_id: str, agent_id: str, owned: dict[str, Owned]
) -> tuple[int, list[str]]:
    """(records checked, what in a bootstrap reply is not the tenant's, or not the agent's):
    the core's reply, or the Lambda's as JSON.
    """
    mine, leaks, checked = owned[tenant_id], [], 0
    for episode in reply["episodes"]:
        checked += 1
        agent = mine.episodes.get((episode["run_id"], episode["created_at"]))
        if agent != agent_id:
            leaks.append(f"episode {episode['run_id']}@{episode['created_at']} (agent {agent})")
    for fact in reply["facts"]:
        checked += 1
        if fact["content"] not in mine.fact_contents:
            leaks.append(f"fact {fact['content']!r}")
    procedure = reply["procedure"]
    if procedure is not None:
        checked += 1
        if procedure["tenant_id"] != tenant_id or procedure["procedure_id"] not in mine.procedures:
            leaks.append(f"procedure {procedure['procedure_id']} of {procedure['tenant_id']}")
    # Whole words: a run's date in the block ("When: 8 September 2026") holds "ember".
    said = set(re.findall(r"\w+", reply["context"].lower()))
    for other, word in zip(TENANTS, CODEWORDS, strict=False):
        if other != tenant_id and other in owned and word in said:
            leaks.append(f"context mentions {other}'s codeword {word!r}")
    return checked, leaks


def search_leaks(
    result: EpisodeSearch, tenant_id: str, agent_id: str, owned: dict[str, Owned]
) -> tuple[int, list[str]]:
    """(records checked, episodes or units of a search result not the tenant's agent's).

    A search names no tenant in its reply: a record is the tenant's agent's when its agent is
    and the tenant stored its run (the auditor sees every record the ports read, with its
    tenant).
    """
    runs = {run for (run, _), agent in owned[tenant_id].episodes.items() if agent == agent_id}
    found = [*result["episodes"], *result["units"]]
    leaks = [
        f"{'episode' if 'task' in hit else 'unit'} {hit['agent_id']}/{hit['run_id']}"
        for hit in found
        if hit["agent_id"] != agent_id or hit["run_id"] not in runs
    ]
    return len(found), leaks


class Auditor:
    """Wraps the ports so every record a tenant-scoped read returns is checked for its owner."""

    def __init__(self) -> None:
        self.returned: Counter[str] = Counter()
        self.foreign: list[str] = []
        self._lock = threading.Lock()

    def wrap(self, ports: MemoryPorts) -> MemoryPorts:
        return replace(
            ports,
            episodes=_Audited(ports.episodes, self, _EPISODE_READS),
            facts=_Audited(ports.facts, self, _FACT_READS),
            procedures=_Audited(ports.procedures, self, _PROCEDURE_READS),
            knowledge_base=_Audited(ports.knowledge_base, self, _KB_READS),
        )

    def see(self, kind: str, tenant_id: str, owners: list[str]) -> None:
        with self._lock:
            self.returned[kind] += len(owners)
            self.foreign += [f"{kind} of {o} for {tenant_id}" for o in owners if o != tenant_id]


def _owner(record: Any) -> str:
    if hasattr(record, "tenant_id"):
        return str(record.tenant_id)
    return str(record.metadata.get("tenant_id"))  # a KB hit


def _items(result: Any) -> list[Any]:
    if result is None:
        return []
    if hasattr(result, "items"):
        return list(result.items)  # a Page
    if isinstance(result, list | tuple):
        return list(result)
    return [result]


# Reads that name a tenant: method -> (record kind, whether the tenant may come first).
_EPISODE_READS = {"get": ("episode", True), "recent": ("episode", True)}
_FACT_READS = {"get": ("fact", True), "fast_path": ("fact", True), "contested": ("fact", True)}
_PROCEDURE_READS = {
    "for_task_type": ("procedure", True),
    "get": ("procedure", False),
    "list": ("procedure", False),
}
_KB_READS = {"retrieve": ("kb hit", False)}


class _Audited:
    def __init__(self, inner: Any, auditor: Auditor, reads: dict[str, tuple[str, bool]]) -> None:
        self._inner, self._auditor, self._reads = inner, auditor, reads

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._inner, name)
        if name not in self._reads:
            return method

        kind, positional = self._reads[name]

        def read(*args: Any, **kwargs: Any) -> Any:
            result = method(*args, **kwargs)
            tenant = kwargs.get("tenant_id", args[0] if args and positional else None)
            if tenant is not None:
                self._auditor.see(kind, str(tenant), [_owner(r) for r in _items(result)])
            return result

        return read


def random_queries(count: int, *, seed: int, tenants: tuple[str, ...]) -> list[dict[str, Any]]:
    """Bootstrap/search requests across tenants, agents (one no tenant has), domains, types."""
    rng = random.Random(seed)
    queries = []
    for _ in range(count):
        domain = rng.choice([*sorted(DOMAINS), None])
        queries.append(
            {
                "kind": rng.choices(("bootstrap", "search"), weights=(6, 4))[0],
                "tenant_id": rng.choice(tenants),
                "agent_id": rng.choice([*AGENTS, "auditor"]),
                "task": rng.choice(TASKS) + rng.choice(("", " again", " for the board")),
                "domain": domain,
                "task_type": rng.choice([DOMAINS[domain] if domain else None, "contract_review"]),
            }
        )
    return queries


# --- what is left of a tenant in the embedded store -------------------------------------------


def sqlite_rows_of(database: Path, tenant_id: str) -> dict[str, int]:
    """Rows of every table that belong to the tenant (by tenant_id, or by a key it starts)."""
    found = {}
    with sqlite3.connect(database) as conn:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        for table in tables:
            columns = {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}
            conditions: list[str] = []
            params: list[str | int] = []
            if "tenant_id" in columns:
                conditions.append("tenant_id = ?")
                params.append(tenant_id)
            for key in ("pk", "key"):
                if key in columns:
                    conditions.append(f"substr({key}, 1, ?) = ?")
                    params += [len(tenant_id) + 1, f"{tenant_id}#"]
            if conditions:
                (count,) = conn.execute(
                    f"SELECT COUNT(*) FROM {table} WHERE {' OR '.join(conditions)}", params
                ).fetchone()
                found[table] = count
    return found
