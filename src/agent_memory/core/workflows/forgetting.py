"""Forgetting runs everywhere they counted: one run of an agent, or every run of one agent.

A run leaves more than its episode: its sightings of facts (perhaps what confirmed one), its
proposals of procedures and its feedback on them, its records in the run ledger. Forgetting
it takes each of these back: the episode (its units and vectors with it) and the ledger
records are deleted; each fact it saw counts it no more, and a fact that no longer meets its
confirmation rule stops being served (back to PENDING, its KB document deleted and the
deletion ingested), one no run sees any more is deleted (a fact a person asserted or retracted
stays as the person left it); each procedure it proposed or
reported on counts it no more, and a PENDING proposal no other run made is deleted. What a
person decided stays: a procedure approved or rejected keeps its decision.

Forgetting is idempotent (what is gone is not found again) and recorded in the tenant's
history (who, why, which run or agent; never the content).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from agent_memory.core.model.decisions import Action, RecordKind
from agent_memory.core.model.flags import MAX_OPEN_FLAGS_PER_AGENT, Flag
from agent_memory.core.model.keys import document_key, marks_agent, run_marker, run_name
from agent_memory.core.model.models import Fact, FactStatus, Procedure, ProcedureStatus
from agent_memory.core.ports import MemoryPorts, RunTrace
from agent_memory.core.tiers.semantic import is_confirmed
from agent_memory.core.workflows.history import record_decision, scrubbed
from agent_memory.core.workflows.ingestion import request_ingestion, run_ingestion
from agent_memory.core.workflows.tenants import iso_time


@dataclass(frozen=True, slots=True)
class RunsForgotten:
    """What forgetting one run (or one agent's runs) took back, store by store.

    ``runs`` names the runs found anywhere (as ``agent/run``, or a run's marker where only a
    digest of its name was kept); ``facts_withdrawn`` the facts no longer served, now
    pending again, and ``facts_deleted`` those no run sees any more (both as
    ``domain/fact_hash``); ``kb_index`` how the KB index dropped the deleted documents
    (``untouched``, or ``ingestion <status>`` of the window run at once). ``decision_id``
    names the history entry (None when nothing was found: there was nothing to decide).
    """

    tenant_id: str
    agent_id: str
    at: float
    runs: tuple[str, ...] = ()
    episodes: int = 0
    ledger_records: int = 0
    sightings: int = 0
    facts_withdrawn: tuple[str, ...] = ()
    facts_deleted: tuple[str, ...] = ()
    proposals: int = 0
    feedback: int = 0
    procedures_deleted: tuple[str, ...] = ()
    kb_documents: int = 0
    flags: int = 0
    kb_index: str = "untouched"
    ingestion_job: str | None = None
    decision_id: str | None = None

    @property
    def found(self) -> bool:
        """Whether anything of the runs (or the agent's flags) was left to forget."""
        return bool(self.runs or self.flags)

    def as_json(self) -> dict[str, Any]:
        """The receipt as JSON, its time in ISO 8601."""
        return {
            "operation": "forget",
            "tenant_id": self.tenant_id,
            "agent_id": self.agent_id,
            "at": iso_time(self.at),
            "runs": list(self.runs),
            "episodes": self.episodes,
            "ledger_records": self.ledger_records,
            "sightings": self.sightings,
            "facts_withdrawn": list(self.facts_withdrawn),
            "facts_deleted": list(self.facts_deleted),
            "proposals": self.proposals,
            "feedback": self.feedback,
            "procedures_deleted": list(self.procedures_deleted),
            "kb_documents": self.kb_documents,
            "flags": self.flags,
            "kb_index": self.kb_index,
            "ingestion_job": self.ingestion_job,
            "decision_id": self.decision_id,
        }


@dataclass(slots=True)
class _Found:
    """The run's traces, found before anything is deleted."""

    markers: set[str] = field(default_factory=set)
    episodes: list[str] = field(default_factory=list)
    ledger_keys: list[str] = field(default_factory=list)
    ledger_runs: set[str] = field(default_factory=set)


def forget_runs(
    ports: MemoryPorts,
    tenant_id: str,
    agent_id: str,
    run_id: str | None,
    *,
    actor: str,
    reason: str | None,
) -> RunsForgotten:
    """Forget the agent's run ``run_id`` (every run of the agent when None) everywhere it
    counted; the receipt. Who and why are scrubbed and bounded before anything changes.
    """
    actor, reason = scrubbed(ports, tenant_id, actor, reason)
    at = ports.clock()
    # Each tenant-wide log is read once: it both names an agent's runs and is taken back from.
    logged_sightings = list(ports.facts.sightings(tenant_id))
    logged_traces = list(ports.procedures.run_traces(tenant_id))
    logged = [s.run_id for s in logged_sightings] + [t.run_id for t in logged_traces]
    found = _find(ports, tenant_id, agent_id, run_id, logged)
    sightings = [s for s in logged_sightings if s.run_id in found.markers]
    traces = [t for t in logged_traces if t.run_id in found.markers]
    runs = _names(agent_id, found, [s.run_id for s in sightings], [t.run_id for t in traces])
    flagged = run_id is None and bool(_open_flags(ports, tenant_id, agent_id))
    if not runs and not flagged:
        return RunsForgotten(tenant_id, agent_id, at)
    kind, record = (
        (RecordKind.AGENT, agent_id)
        if run_id is None
        else (RecordKind.RUN, run_name(agent_id, run_id))
    )
    decision = record_decision(ports, tenant_id, Action.FORGET, kind, record, actor, reason=reason)
    facts = _FactsTaken(ports, tenant_id)
    for sighting in sightings:
        facts.take_back(sighting.domain, sighting.fact_hash, sighting.run_id)
    deleted = [
        after.procedure_id
        for after in _untraced(ports, tenant_id, traces)
        if ports.procedures.delete(after.procedure_id, tenant_id=tenant_id)
    ]
    episodes = sum(ports.episodes.delete(tenant_id, agent_id, run) for run in found.episodes)
    for key in found.ledger_keys:
        ports.run_ledger.delete(key)
    ports.episode_indexes.clear(tenant_id)
    flags = _forget_flags(ports, tenant_id, agent_id) if run_id is None else 0
    index, job = facts.settle(at)
    return RunsForgotten(
        tenant_id,
        agent_id,
        at,
        runs=runs,
        episodes=episodes,
        ledger_records=len(found.ledger_keys),
        sightings=facts.sightings,
        facts_withdrawn=tuple(facts.withdrawn),
        facts_deleted=tuple(facts.deleted),
        proposals=sum(t.source for t in traces),
        feedback=sum(t.feedback for t in traces),
        procedures_deleted=tuple(deleted),
        kb_documents=facts.documents,
        flags=flags,
        kb_index=index,
        ingestion_job=job,
        decision_id=decision.decision_id,
    )


def _open_flags(ports: MemoryPorts, tenant_id: str, agent_id: str) -> list[Flag]:
    return ports.flags.of_agent(tenant_id, agent_id, limit=MAX_OPEN_FLAGS_PER_AGENT)


def _forget_flags(ports: MemoryPorts, tenant_id: str, agent_id: str) -> int:
    """Close every open flag of the agent (its reports go with it); how many."""
    closed = 0
    while held := _open_flags(ports, tenant_id, agent_id):
        now = sum(ports.flags.close(tenant_id, f.flag_id) is not None for f in held)
        if not now:
            break  # a listing that lags its closes (an eventually consistent index)
        closed += now
    return closed


def _untraced(ports: MemoryPorts, tenant_id: str, traces: list[RunTrace]) -> list[Procedure]:
    """Take the traces back; the PENDING proposals no run makes any more (a procedure a
    person approved or rejected keeps that decision, sources or not).
    """
    orphans = []
    for trace in traces:
        store = ports.procedures
        after = store.untrace(trace.procedure_id, tenant_id=tenant_id, run_id=trace.run_id)
        if after is not None and after.proposed_by == 0 and after.status is ProcedureStatus.PENDING:
            orphans.append(after)
    return orphans


def _find(
    ports: MemoryPorts, tenant_id: str, agent_id: str, run_id: str | None, logged: list[str]
) -> _Found:
    """The run's (or the agent's runs') episodes, ledger records and markers; ``logged`` are
    the run markers facts and procedures log, which name an agent's runs whose episodes went.
    """
    found = _Found()
    if run_id is not None:
        found.markers.add(run_marker(agent_id, run_id))
        if ports.episodes.get(tenant_id, agent_id, run_id, now=0.0) is not None:
            found.episodes.append(run_id)
    else:
        for episode in ports.episodes.export(tenant_id):
            if episode.agent_id == agent_id:
                found.episodes.append(episode.run_id)
                found.markers.add(run_marker(agent_id, episode.run_id))
    ledger = ports.run_ledger
    for entry in ledger.entries(tenant_id):
        named = ledger.identify(entry.key)
        if named is None or named[1] != agent_id or run_id not in (None, named[2]):
            continue
        found.ledger_keys.append(entry.key)
        found.ledger_runs.add(named[2])
        found.markers.add(run_marker(agent_id, named[2]))
    if run_id is None:
        found.markers |= {marker for marker in logged if marks_agent(marker, agent_id)}
    return found


def _names(agent_id: str, found: _Found, *logged: Iterable[str]) -> tuple[str, ...]:
    """The runs found anywhere, by name (a digest marker stands for its run)."""
    known = {*found.episodes, *found.ledger_runs}
    names = {run_name(agent_id, run) for run in known}
    named = {run_marker(agent_id, run) for run in known}
    names |= {marker for group in logged for marker in group if marker not in named}
    return tuple(sorted(names))


class _FactsTaken:
    """The facts a run's sightings are taken back from, and what that did to each."""

    def __init__(self, ports: MemoryPorts, tenant_id: str) -> None:
        self._ports = ports
        self._tenant = tenant_id
        self.sightings = 0
        self.documents = 0
        self.withdrawn: list[str] = []
        self.deleted: list[str] = []

    def take_back(self, domain: str, fact_hash: str, run: str) -> None:
        """Take one sighting back; withdraw or delete the fact when the rule says so."""
        ports, tenant = self._ports, self._tenant
        after = ports.facts.unsee(tenant, domain, fact_hash, run)
        if after is None:
            return  # taken back meanwhile (forget run twice at once)
        self.sightings += 1
        name = f"{domain}/{fact_hash}"
        key = (tenant, domain, fact_hash)
        if after.asserted_by is not None or after.status is FactStatus.RETRACTED:
            return  # a person's fact, or a person's retraction: it stays theirs
        if after.runs == 0:
            if ports.facts.delete(*key):
                self._drop_document(after)
                self.deleted.append(name)
            return
        short = not is_confirmed(after, ports.policies.semantic)
        if after.status is FactStatus.CONFIRMED and short and ports.facts.withdraw(*key):
            self._drop_document(after)
            self.withdrawn.append(name)

    def _drop_document(self, fact: Fact) -> None:
        if fact.staged_at is None and fact.ingested_at is None:
            return
        self._ports.knowledge_base.delete_document(
            document_key(fact.tenant_id, fact.domain, fact.fact_hash)
        )
        self.documents += 1

    def settle(self, at: float) -> tuple[str, str | None]:
        """Have the KB index drop the deleted documents now (or at the next window)."""
        if not self.documents:
            return "untouched", None
        ports = self._ports
        request_ingestion(ports.checkpoints, now=at)
        report = run_ingestion(
            ports.facts, ports.knowledge_base, ports.checkpoints, now=ports.clock()
        )
        return f"ingestion {report.status}", report.job_id
