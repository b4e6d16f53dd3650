"""A seeded corpus of RunFinished events, what the stores must hold after it, and the check.

The expectation is computed from the events alone (the decay and confirmation rules restated here,
not the core's functions), so a store that double-counts, loses a sighting or half-writes a
run shows up as a difference. Only keys are derived with the product's own functions
(``fact_hash``, ``procedure_id``): they are identities, not behaviour.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from agent_memory.core.model import receipts
from agent_memory.core.model.keys import document_key, run_marker
from agent_memory.core.model.models import SOURCE_RUN_IDS_KEPT, FactStatus
from agent_memory.core.ports import MemoryPorts
from agent_memory.core.tiers import procedural
from agent_memory.core.tiers.procedural import normalize_step, procedure_id
from agent_memory.core.tiers.semantic import fact_hash

Event = dict[str, Any]

TENANTS = ("acme", "globex")
AGENTS = ("reviewer", "drafter", "auditor")
TASK_TYPES = {"contracts": "contract_review", "privacy": "dpa_review"}
# Statements that share few words, so none contradicts another (no contested facts).
FACTS = {
    "contracts": (
        "Indemnity clauses deserve a second reader",
        "Governing law belongs in every master agreement",
        "Auto renewal terms hide in schedules",
        "Termination for convenience favours the buyer",
        "Liability caps below annual fees are a red flag",
        "Payment terms beyond sixty days strain suppliers",
        "Exclusivity grants need an expiry date",
        "Assignment clauses should name successors",
    ),
    "privacy": (
        "Processors must list every subprocessor",
        "Breach notices are owed within strict windows",
        "Data residency commitments bind hosting choices",
        "Retention schedules cap how long logs live",
        "Audit rights let controllers inspect processors",
        "Standard contractual clauses govern transfers abroad",
        "Encryption at rest is a baseline safeguard",
        "Deletion certificates close an engagement",
    ),
}
STEPS = {
    "contract_review": (
        ("MSA review", ("Read the liability clause", "Compare the cap with annual fees")),
        (
            "Renewal check",
            ("Find the renewal clause", "Note the notice period", "Flag auto renewal"),
        ),
        ("Quick triage", ("Skim the definitions", "List the obligations")),
    ),
    "dpa_review": (
        ("DPA review", ("List the subprocessors", "Check the breach window")),
        ("Transfer check", ("Find the transfer mechanism", "Confirm the clauses version")),
        ("Retention check", ("Locate the retention schedule", "Compare with policy")),
    ),
}
# A fact is confirmed by three independent sightings, an agent's counting once an hour; a
# corpus is consolidated within the hour, so each agent stating a fact confirms it once.
CONFIRMATIONS = 3
MIN_CONFIDENCE = 0.7


def seeded_procedure_id(tenant_id: str, task_type: str) -> str:
    """The id of the procedure every tenant's seed run proposes for ``task_type``."""
    _, steps = STEPS[task_type][0]
    return procedure_id(tenant_id, task_type, tuple(normalize_step(s) for s in steps))


def approve_seeded(
    ports_of: Callable[[str], MemoryPorts], tenants: Iterable[str] = TENANTS
) -> None:
    """A reviewer approves every seeded procedure: only a procedure that can have been served
    counts feedback (a report on a pending one would let it skip its trial).
    """
    for tenant in tenants:
        ports = ports_of(tenant)
        for task_type in TASK_TYPES.values():
            procedural.review(
                ports.procedures,
                seeded_procedure_id(tenant, task_type),
                approve=True,
                reviewer="lead",
                now=ports.clock(),
                tenant_id=tenant,
            )


def with_receipts(events: Iterable[Event], ports_of: Callable[[str], MemoryPorts]) -> list[Event]:
    """``events`` whose procedure feedback carries the serving receipt its run was handed:
    each reporting run was served the procedure (by the deployment's key, as bootstrap
    serves it), once. Copies of an event delivered again carry the same receipt.
    """
    served = []
    for event in events:
        feedback = event.get("procedure_feedback")
        if feedback:
            ports = ports_of(event["tenant_id"])
            assert ports.receipt_key is not None, "the deployment signs no receipts"
            receipt = receipts.issue(
                ports.receipt_key,
                tenant_id=event["tenant_id"],
                agent_id=event["agent_id"],
                procedure_id=feedback["procedure_id"],
                now=ports.clock(),
            )
            event = {**event, "procedure_feedback": {**feedback, "receipt": receipt}}
        served.append(event)
    return served


def seed_events(tenants: Iterable[str] = TENANTS) -> list[Event]:
    """One COMPLETED run per tenant and task type proposing the procedure feedback names
    (approve it with :func:`approve_seeded` before delivering feedback on it).
    """
    events = []
    for tenant in tenants:
        for domain, task_type in TASK_TYPES.items():
            title, steps = STEPS[task_type][0]
            events.append(
                {
                    "tenant_id": tenant,
                    "agent_id": AGENTS[0],
                    "run_id": f"{tenant}-seed-{task_type}",
                    "task": f"Set up the {title} for {domain}",
                    "task_type": task_type,
                    "domain": domain,
                    "outcome": "COMPLETED",
                    "artifacts": {
                        "task_summary": f"Set up the {title}",
                        "procedure": {"title": title, "steps": list(steps)},
                    },
                }
            )
    return events


def primer_events(
    tenants: Iterable[str] = TENANTS, *, fact_pool: int, runs: int = CONFIRMATIONS - 1
) -> list[Event]:
    """``runs`` COMPLETED runs per tenant and domain stating the domain's first ``fact_pool``
    facts, each of another agent but the first, so that the next run of the first agent
    stating one of them confirms it (and stages its KB document).
    """
    events = []
    for tenant in tenants:
        for domain in TASK_TYPES:
            for number in range(runs):
                events.append(
                    {
                        "tenant_id": tenant,
                        "agent_id": AGENTS[1 + number % (len(AGENTS) - 1)],
                        "run_id": f"{tenant}-primer-{domain}-{number}",
                        "task": f"Survey the {domain} playbook",
                        "domain": domain,
                        "outcome": "COMPLETED",
                        "artifacts": {
                            "task_summary": f"Surveyed the {domain} playbook",
                            "facts": [
                                {"content": text, "confidence": 0.9}
                                for text in FACTS[domain][:fact_pool]
                            ],
                        },
                    }
                )
    return events


def run_events(
    count: int,
    *,
    seed: int,
    tenants: Iterable[str] = TENANTS,
    prefix: str = "run",
    fact_pool: int = len(FACTS["contracts"]),
) -> list[Event]:
    """``count`` distinct runs across ``tenants``: mixed outcomes, facts of varying confidence
    (some stated twice in one run) drawn from the first ``fact_pool`` facts of the domain,
    procedures proposed again and again, and procedure feedback on the seeded procedures (see
    :func:`seed_events`).
    """
    rng = random.Random(seed)
    tenants = tuple(tenants)
    events = []
    for number in range(count):
        tenant = tenants[number % len(tenants)]
        domain = rng.choice(sorted(TASK_TYPES))
        task_type = TASK_TYPES[domain]
        outcome = rng.choices(("COMPLETED", "PARTIAL", "FAILED"), weights=(70, 15, 15))[0]
        facts: list[Event] = [
            {"content": text, "confidence": rng.choice((0.5, 0.75, 0.9))}
            for text in rng.sample(FACTS[domain][:fact_pool], rng.randint(0, min(3, fact_pool)))
        ]
        if facts and rng.random() < 0.2:
            # The same fact in other words: one run still counts once.
            facts.append({"content": facts[0]["content"].upper() + ".", "confidence": 0.95})
        findings = [f"Finding {number} about {domain}"]
        if rng.random() < 0.1:
            findings.append("Ask jane.roe@example.com before signing")
        artifacts: Event = {
            "task_summary": f"Run {number} reviewed {domain}",
            "key_findings": findings,
            "facts": facts,
        }
        if rng.random() < 0.6:
            title, steps = rng.choice(STEPS[task_type])
            artifacts["procedure"] = {
                "title": title,
                "steps": [f"{i}. {s}" if rng.random() < 0.5 else s for i, s in enumerate(steps, 1)],
            }
        event: Event = {
            "tenant_id": tenant,
            "agent_id": rng.choice(AGENTS),
            "run_id": f"{tenant}-{prefix}-{number:05d}",
            "task": f"Review the {domain} file number {number}",
            "task_type": task_type,
            "domain": domain,
            "outcome": outcome,
            "artifacts": artifacts,
        }
        if rng.random() < 0.35:
            event["procedure_feedback"] = {
                "procedure_id": seeded_procedure_id(tenant, task_type),
                "succeeded": rng.random() < 0.7,
            }
        events.append(event)
    return events


@dataclass
class Expected:
    """What the stores must hold once every event was consolidated (any number of times)."""

    episodes: set[tuple[str, str, str]] = field(default_factory=set)
    facts: dict[tuple[str, str, str], set[str]] = field(default_factory=lambda: defaultdict(set))
    fact_agents: dict[tuple[str, str, str], set[str]] = field(
        default_factory=lambda: defaultdict(set)
    )
    procedure_sources: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    feedback: dict[str, list[bool]] = field(default_factory=lambda: defaultdict(list))
    runs: dict[tuple[str, str], Event] = field(default_factory=dict)

    @property
    def tenants(self) -> set[str]:
        return {tenant for tenant, _, _ in self.episodes}


def expected_state(events: Iterable[Event]) -> Expected:
    """The stores' content after ``events`` (each distinct run counted once)."""
    expected = Expected()
    for event in events:
        tenant, run_id = event["tenant_id"], event["run_id"]
        if (tenant, run_id) in expected.runs:
            continue
        expected.runs[(tenant, run_id)] = event
        expected.episodes.add((tenant, event["agent_id"], run_id))
        artifacts = event.get("artifacts", {})
        completed = event.get("outcome") == "COMPLETED"
        for fact in artifacts.get("facts", []) if completed else []:
            if fact["confidence"] >= MIN_CONFIDENCE:
                key = (tenant, event["domain"], fact_hash(fact["content"]))
                expected.facts[key].add(run_marker(event["agent_id"], run_id))
                expected.fact_agents[key].add(event["agent_id"])
        draft = artifacts.get("procedure")
        if completed and draft and event.get("task_type"):
            steps = tuple(normalize_step(s) for s in draft["steps"])
            pid = procedure_id(tenant, event["task_type"], steps)
            expected.procedure_sources[pid].add(run_marker(event["agent_id"], run_id))
        feedback = event.get("procedure_feedback")
        # The corpus reports only on the seeded procedures, approved before any report.
        if feedback:
            expected.feedback[feedback["procedure_id"]].append(bool(feedback["succeeded"]))
    return expected


def store_problems(ports: MemoryPorts, expected: Expected) -> list[str]:
    """Every way the stores differ from ``expected``; empty when they agree."""
    problems: list[str] = []
    problems += episode_problems(ports, expected)
    problems += fact_problems(ports, expected)
    problems += procedure_problems(ports, expected)
    problems += ledger_problems(ports, expected)
    return problems


def episode_problems(ports: MemoryPorts, expected: Expected) -> list[str]:
    """Runs without exactly one episode, and episodes of no run."""
    found: dict[tuple[str, str, str], int] = defaultdict(int)
    for tenant in expected.tenants:
        for episode in ports.episodes.export(tenant):
            found[(tenant, episode.agent_id, episode.run_id)] += 1
    problems = [f"episode of {k} stored {n} times" for k, n in found.items() if n != 1]
    problems += [f"no episode for {k}" for k in sorted(expected.episodes - set(found))]
    problems += [f"episode of no run {k}" for k in sorted(set(found) - expected.episodes)]
    return problems


def fact_problems(ports: MemoryPorts, expected: Expected) -> list[str]:
    """Facts whose distinct runs, status or KB document differ from the events'."""
    problems = []
    stored = {}
    for tenant in expected.tenants:
        documents = set(ports.knowledge_base.document_keys(tenant))
        for fact in ports.facts.export(tenant):
            key = (tenant, fact.domain, fact.fact_hash)
            stored[key] = fact
            want = expected.facts.get(key, set())
            if set(fact.run_ids) != want:
                extra, missing = set(fact.run_ids) - want, want - set(fact.run_ids)
                problems.append(
                    f"fact {key}: extra runs {sorted(extra)}, missing {sorted(missing)}"
                )
            agents = expected.fact_agents.get(key, set())
            status = FactStatus.CONFIRMED if len(agents) >= CONFIRMATIONS else FactStatus.PENDING
            if fact.status is not status:
                problems.append(f"fact {key} is {fact.status}, expected {status}")
            has_document = document_key(tenant, fact.domain, fact.fact_hash) in documents
            if has_document != (status is FactStatus.CONFIRMED):
                problems.append(f"fact {key} ({fact.status}) has KB document: {has_document}")
            if has_document and fact.staged_at is None:
                problems.append(f"fact {key} has a KB document but is not marked staged")
    problems += [f"no fact {k}" for k in sorted(set(expected.facts) - set(stored))]
    return problems


def procedure_problems(ports: MemoryPorts, expected: Expected) -> list[str]:
    """Procedures whose supporting runs or feedback counters differ from the events'."""
    problems = []
    stored = {}
    for tenant in expected.tenants:
        for procedure in ports.procedures.export(tenant):
            stored[procedure.procedure_id] = procedure
            pid = procedure.procedure_id
            want = expected.procedure_sources.get(pid, set())
            # The log names the first SOURCE_RUN_IDS_KEPT runs; the count covers them all.
            logged = set(procedure.source_run_ids)
            if (
                procedure.proposed_by != len(want)
                or not logged <= want
                or len(logged) != min(len(want), SOURCE_RUN_IDS_KEPT)
            ):
                problems.append(
                    f"procedure {pid}: {procedure.proposed_by} runs {sorted(logged)} != "
                    f"{sorted(want)}"
                )
            outcomes = expected.feedback.get(pid, [])
            counters = (procedure.times_applied, procedure.times_succeeded)
            if counters != (len(outcomes), sum(outcomes)):
                problems.append(
                    f"procedure {pid}: applied/succeeded {counters} != "
                    f"{(len(outcomes), sum(outcomes))}"
                )
    problems += [f"no procedure {p}" for p in sorted(set(expected.procedure_sources) - set(stored))]
    return problems


def ledger_problems(ports: MemoryPorts, expected: Expected) -> list[str]:
    """Runs whose scrubbed-artifacts record is missing or disagrees with the stored episode,
    and failure records left behind.
    """
    problems = []
    now = ports.clock()
    for tenant in expected.tenants:
        episodes = {e.run_id: e for e in ports.episodes.export(tenant)}
        for failure in ports.run_ledger.failures(tenant):
            # A failure another delivery made moot is kept only until it expires (at once).
            key = failure.key
            if not failure.value.get("resolved") or ports.run_ledger.entry(key, now=now):
                problems.append(f"failure record left: {key}")
        for (run_tenant, run_id), event in expected.runs.items():
            if run_tenant != tenant:
                continue
            entry = ports.run_ledger.run(tenant, event["agent_id"], run_id, now=now)
            if entry is None:
                problems.append(f"no scrubbed-artifacts record for {tenant}/{run_id}")
                continue
            artifacts = entry.value["state"]["artifacts"]
            episode = episodes.get(run_id)
            if episode is not None and (
                episode.task_summary != artifacts["task_summary"]
                or list(episode.key_findings) != artifacts["key_findings"]
            ):
                problems.append(f"episode of {tenant}/{run_id} differs from its ledger record")
    return problems


def tally(ports: MemoryPorts, expected: Expected) -> dict[str, int]:
    """Records the events call for, how many are missing, and how many are extra (counted
    twice, or of no run).

    A record is an episode, a fact's sighting by a run, a procedure's supporting run, one
    procedure-feedback count or a run's scrubbed-artifacts record.
    """
    now = ports.clock()
    counts = {"expected": 0, "lost": 0, "extra": 0}

    def sets(want: set[Any], found: set[Any]) -> None:
        counts["expected"] += len(want)
        counts["lost"] += len(want - found)
        counts["extra"] += len(found - want)

    def numbers(want: int, found: int) -> None:
        counts["expected"] += want
        counts["lost"] += max(0, want - found)
        counts["extra"] += max(0, found - want)

    episodes: dict[tuple[str, str, str], int] = defaultdict(int)
    sightings: dict[tuple[str, str, str], set[str]] = {}
    sources: dict[str, int] = {}
    applied: dict[str, int] = {}
    for tenant in expected.tenants:
        for e in ports.episodes.export(tenant):
            episodes[(tenant, e.agent_id, e.run_id)] += 1
        for f in ports.facts.export(tenant):
            sightings[(tenant, f.domain, f.fact_hash)] = set(f.run_ids)
        for p in ports.procedures.export(tenant):
            sources[p.procedure_id] = p.proposed_by
            applied[p.procedure_id] = p.times_applied
    for key in expected.episodes | set(episodes):
        numbers(int(key in expected.episodes), episodes.get(key, 0))
    for fact in set(expected.facts) | set(sightings):
        sets(expected.facts.get(fact, set()), sightings.get(fact, set()))
    for pid in set(expected.procedure_sources) | set(sources):
        numbers(len(expected.procedure_sources.get(pid, set())), sources.get(pid, 0))
    for pid in set(expected.feedback) | set(applied):
        numbers(len(expected.feedback.get(pid, [])), applied.get(pid, 0))
    for (tenant, run_id), event in expected.runs.items():
        recorded = ports.run_ledger.run(tenant, event["agent_id"], run_id, now=now)
        numbers(1, int(recorded is not None))
    return counts
