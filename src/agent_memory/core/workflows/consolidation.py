"""The consolidation workflow: six steps from a RunFinished event to the three stores.

Each step is a function of (run state, ports) returning the run state with its result set
(:class:`~agent_memory.core.workflows.run_state.RunState`), so the same functions run as Lambda
tasks of
``statemachines/consolidation.asl.json`` (their handlers read and write the state's JSON form)
and in-process locally (:func:`consolidate`, in the ASL's order, with no JSON in between).
Every step is idempotent per run, and a run is (tenant, agent, run id): a redelivered event, a
replayed execution or a step retried on the same input changes nothing that was already
written, and two agents' runs of the same id are two runs. A delivery whose content differs
from the run recorded under its id (its digest, kept with the record) is another run reusing
the id: no step writes anything of it, and its summary says so. The run ledger is the one
authority on a run: extract reads its record (a run recorded once is continued from it), scrub's
conditional start lets the first delivery's scrub stand, a run recorded consolidated calls no
model, and the last step marks it so. Beneath it, each store's conditional writes make a step's
own writes idempotent when deliveries of one run overlap: the episode is put if absent, a fact
counts each run once, a procedure counts each source run and each run's feedback once.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, Literal

from agent_memory.core.api import not_kept
from agent_memory.core.api.contracts import ID_PATTERN, parse_run_finished, unwrap_event
from agent_memory.core.model.errors import InvalidInput, NotFound
from agent_memory.core.model.keys import run_marker
from agent_memory.core.model.models import (
    FactCandidate,
    ProcedureDraft,
    RunArtifacts,
    RunFinished,
)
from agent_memory.core.model.policies import DAY, SemanticPolicy
from agent_memory.core.model.records import to_json
from agent_memory.core.model.run_records import FailureRecord, IncompleteRun, RunRecord
from agent_memory.core.ports import (
    Embedder,
    FloatArray,
    MemoryPorts,
    RunEntry,
    RunEntryKind,
    RunLedger,
)
from agent_memory.core.privacy.scrubbing import pseudonyms_for, scrub_texts
from agent_memory.core.retrieval.periods import calendar_day
from agent_memory.core.tiers import episodic, procedural, semantic
from agent_memory.core.tiers.semantic import FactProgress
from agent_memory.core.workflows.extraction import (
    complete_artifacts,
    extract_deterministically,
    extract_with_model,
    first_sentence,
    kept_units,
)
from agent_memory.core.workflows.run_state import (
    ExtractedBy,
    FactResults,
    ProcedureResult,
    RunState,
    state_from_json,
    state_to_json,
    unit_to_json,
)

State = dict[str, Any]
Step = Callable[[RunState, MemoryPorts], RunState]

# How long a run's scrubbed artifacts are kept to answer redeliveries identically.
RUN_RECORD_DAYS = 90.0
# A run scrubbed this long ago and not consolidated is incomplete (a crash, a timed-out or
# aborted execution): listed beside the failed runs and completed by replay. It is the state
# machine's own timeout (stacks/consolidation.py), so no execution can still be working on it.
INCOMPLETE_AFTER_SECONDS = 30 * 60
# Message units leave ``extract`` this much longer than they are kept and are cut to length only
# after ``scrub``: an entity on the cut is scrubbed whole, never stored as a fragment the
# detector could not recognise (a cut email's local part, a cut card's first digits).
CUT_MARGIN = 256
# Most UTF-8 bytes of JSON the state may hold as it leaves extract and scrub. Step Functions
# caps every state and task result at 256 KiB; this leaves room for the Lambda result's wrapper
# and what the later steps add (fact hashes, staged paths: about 20 KB at the contract's most).
STATE_BUDGET_BYTES = 200 * 1024
# Artifact lists trimmed, last items first, when the units alone do not make room.
_TRIMMABLE = ("reusable_patterns", "tools_used", "key_findings")


def run_record(
    runs: RunLedger, tenant_id: str, agent_id: str, run_id: str, *, now: float
) -> RunEntry | None:
    """The run's scrubbed-artifacts record, or None."""
    return runs.run(tenant_id, agent_id, run_id, now=now)


def _ids(run: RunFinished) -> tuple[str, str, str]:
    return run.tenant_id, run.agent_id, run.run_id


def _recorded(ports: MemoryPorts, run: RunFinished) -> RunEntry | None:
    return run_record(ports.run_ledger, *_ids(run), now=ports.clock())


_DIGEST_LABEL = b"agent-memory run content\0"


def content_digest(run: RunFinished) -> str:
    """The SHA-256 (hex) of a validated event's whole content: the same for every delivery of
    one run, another for any other content under the same run id.

    Unkeyed: on AWS, extract (which compares it) cannot read the pseudonym key. Checking a
    guess against it takes the whole unscrubbed event, and a redaction drops it from the
    records it rewrites (:func:`~agent_memory.core.model.run_records.without_digest`).
    """
    data = json.dumps(
        to_json(run), sort_keys=True, ensure_ascii=False, separators=(",", ":")
    ).encode("utf-8")
    return hashlib.sha256(_DIGEST_LABEL + data).hexdigest()


def extract(event: State, ports: MemoryPorts) -> RunState:
    """Validate the event and distil the run's artifacts.

    The event's own ``artifacts`` are used when present (no model needed), completed from the
    messages where empty; otherwise the chat model extracts them, or, with no model configured,
    a deterministic extractor does. A run already consolidated returns its stored artifacts
    without calling the model again.
    """
    return extract_run(parse_run_finished(unwrap_event(event)), ports)


def extract_run(run: RunFinished, ports: MemoryPorts) -> RunState:
    """:func:`extract` for an event already validated (e.g. by a Lambda's parser)."""
    digest = content_digest(run)
    recorded = _recorded(ports, run)
    if recorded is not None:
        # A replay continues from the record; another run under the same id writes nothing.
        state = _from_record(recorded, digest)
        if state.reused and _redelivers(recorded, digest):
            return state.but(reused=False)
        return state
    source: ExtractedBy
    notes: tuple[str, ...] = ()
    if run.artifacts is not None:
        artifacts, source = complete_artifacts(run, run.artifacts), "event"
    elif ports.chat is not None and run.messages:
        extracted, notes = extract_with_model(run.messages, ports.chat)
        artifacts, source = complete_artifacts(run, extracted), "model"
    else:
        artifacts, source = extract_deterministically(run), "deterministic"
    policy = ports.policies.episodic
    kept = kept_units(
        run.messages,
        max_units=policy.max_units,
        max_chars=policy.max_unit_chars + CUT_MARGIN,
        max_total_chars=policy.max_unit_total_chars,
    )
    lines = kept.lines(max_units=policy.max_units, max_total_chars=policy.max_unit_total_chars)
    # Messages are distilled into artifacts and units by now: the state does not carry them.
    bare = replace(run, messages=(), artifacts=None, not_kept=())
    return fit_state(
        RunState(
            bare,
            artifacts,
            tuple(kept.units),
            extracted_by=source,
            not_kept=(*run.not_kept, *notes, *lines),
            cut_units=kept.cut,
            digest=digest,
        )
    )


def json_bytes(value: Any) -> int:
    """UTF-8 bytes of ``value`` as compact JSON (how Step Functions measures a state)."""
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def fit_state(state: RunState, budget: int = STATE_BUDGET_BYTES) -> RunState:
    """``state`` within ``budget`` bytes of JSON: message units dropped, last first, then the
    last items of the artifacts' longest lists; what was dropped is counted in ``trimmed`` and
    said in ``not_kept``.

    Units are search aids beside the episode's summary, and the trimmed lists are its
    free-text detail: the run's identity, facts and procedure are always kept whole. An
    event within the contract fits with its facts and procedure (they are at most ~100 KB).
    """
    if json_bytes(state_to_json(state)) <= budget:
        return state
    units = list(state.units)
    artifacts = state.artifacts
    trimmed = dict(state.trimmed or {})
    fixed = json_bytes(state_to_json(state.but(units=(), trimmed=trimmed))) + 64
    # Keep the first units that fit beside everything else (each costs its JSON and a comma).
    room, kept = budget - fixed, 0
    for unit in units:
        room -= json_bytes(unit_to_json(unit)) + 1
        if room < 0:
            break
        kept += 1
    trimmed["units"] = trimmed.get("units", 0) + len(units) - kept
    why = f"(what one consolidation step hands the next is at most {budget // 1024:,} KiB)"
    lines = list(state.not_kept)
    if kept < len(units):
        dropped = not_kept.messages(u.seq for u in units[kept:])
        lines.append(f"human and ai {dropped} not kept as searchable units {why}")
    fitted = state.but(units=tuple(units[:kept]), trimmed=trimmed, not_kept=tuple(lines))
    cut: dict[str, int] = {}
    while json_bytes(state_to_json(fitted)) > budget:
        lists = [f for f in _TRIMMABLE if getattr(artifacts, f)]
        if not lists:
            break
        longest = max(lists, key=lambda f: json_bytes(list(getattr(artifacts, f))))
        artifacts = replace(artifacts, **{longest: getattr(artifacts, longest)[:-1]})
        trimmed[longest] = trimmed.get(longest, 0) + 1
        cut[longest] = cut.get(longest, 0) + 1
        listed = [
            f"the last {not_kept.counted(n, 'item')} of {f} not kept {why}" for f, n in cut.items()
        ]
        fitted = fitted.but(artifacts=artifacts, trimmed=dict(trimmed), not_kept=(*lines, *listed))
    return fitted


def scrub(state: RunState, ports: MemoryPorts) -> RunState:
    """Remove PII from every text field, before any write.

    The whole of every text is checked (in chunks), as a reader sees it
    (:mod:`~agent_memory.core.privacy.reading_form`); if the detector fails, this step fails and
    nothing is written. Nothing transforms the texts after the scrub: what was scrubbed is
    what is stored (stored text cannot forge the memory context, however it is spelled: the
    block quotes it, :mod:`~agent_memory.core.model.markers`). The scrubbed result is recorded per
    run, so every later delivery of the same run sees the same artifacts.
    """
    if state.extracted_by == "ledger":
        return state  # extract read it back from the run's record: scrubbed already
    run = state.run
    now = ports.clock()
    artifacts = state.artifacts
    units = state.units
    unit_texts = [text for u in units for text in (u.speaker or "", u.text)]
    texts = _texts_of(run, artifacts)
    # A summary cut from the task is cut again from the scrubbed task, for the same reason.
    summary_from_task = artifacts.task_summary == first_sentence(run.task)
    result = scrub_texts(
        [*texts, *unit_texts], ports.pii, pseudonyms_for(ports.pseudonym_key, run.tenant_id)
    )
    clean = list(result.texts)
    run, artifacts = _with_texts(run, artifacts, clean[: len(texts)])
    if summary_from_task:
        artifacts = replace(artifacts, task_summary=first_sentence(run.task))
    clean_units = clean[len(texts) :]
    cut = ports.policies.episodic.max_unit_chars
    # A unit loses text when extract cut it, or when its scrubbed text is past the length.
    shortened = [
        u.seq
        for i, u in enumerate(units)
        if u.seq in state.cut_units or len(clean_units[2 * i + 1]) > cut
    ]
    lines = list(state.not_kept)
    if shortened:
        lines.append(
            f"{not_kept.messages(shortened)} not kept past their first {cut:,} characters as "
            "searchable units (a unit holds at most that)"
        )
    # Placeholders can be longer than what they replace: the scrubbed state is fitted again.
    scrubbed = fit_state(
        state.but(
            run=run,
            artifacts=artifacts,
            units=tuple(
                replace(u, speaker=clean_units[2 * i] or None, text=clean_units[2 * i + 1][:cut])
                for i, u in enumerate(units)
            ),
            pii_entities=result.counts,
            not_kept=tuple(lines),
            cut_units=(),
        )
    )
    # The record is also the run's start: a crash from here on leaves it incomplete, and
    # incomplete_runs finds it.
    won = ports.run_ledger.start_run(
        *_ids(run),
        RunRecord(state_to_json(scrubbed), scrubbed_at=now, digest=state.digest).json(),
        now=now,
        expires_at=math.ceil(now + RUN_RECORD_DAYS * DAY),
    )
    if won:
        return scrubbed
    # A concurrent delivery (or an earlier attempt of this step) recorded the run first:
    # continue with what it recorded, as every later delivery will.
    recorded = ports.run_ledger.run(*_ids(run), now=now)
    if recorded is None:
        return scrubbed
    record = RunRecord.read(recorded.value)
    return state_from_json(record.state).but(
        consolidated=record.consolidated, reused=record.differs(state.digest)
    )


def _from_record(entry: RunEntry, digest: str | None = None) -> RunState:
    """The run's state as its record holds it (scrubbed), whether it was completed, and
    whether the event of content ``digest`` is another run reusing its id (None: a replay).
    """
    record = RunRecord.read(entry.value)
    return state_from_json(record.state).but(
        extracted_by="ledger",
        consolidated=record.consolidated,
        digest=record.digest,
        reused=record.differs(digest),
    )


def _redelivers(entry: RunEntry, digest: str) -> bool:
    """Whether an event of content ``digest`` is the :func:`redelivery_event` of the recorded
    run (what replaying an incomplete run on AWS sends): that run's own delivery, not another's.
    """
    try:
        run = parse_run_finished(redelivery_event(RunRecord.read(entry.value)))
    except InvalidInput:  # a scrubbed task past the contract's length: no event can be it
        return False
    return content_digest(run) == digest


def _unless_reused(step: Step) -> Step:
    """``step``, answering the state unchanged for an event that reuses a recorded run's id
    with other content: nothing of it is written, and its summary says so.
    """

    @functools.wraps(step)
    def guarded(state: RunState, ports: MemoryPorts) -> RunState:
        return state if state.reused else step(state, ports)

    return guarded


def _calls_a_model(done: Step) -> Callable[[Step], Step]:
    """A step that calls a model answers ``done(state, ports)`` instead, calling nothing, for
    a run already consolidated: a redelivery costs a ledger read, not a model call per unit.
    """

    def decorate(step: Step) -> Step:
        @functools.wraps(step)
        def once(state: RunState, ports: MemoryPorts) -> RunState:
            if state.consolidated:
                return done(state, ports)
            return step(state, ports)

        return once

    return decorate


def _episode_present(state: RunState, ports: MemoryPorts) -> RunState:
    """What write_episode answers for a run whose episode was dealt with already."""
    lines, expired = _episode_not_kept(state, ports)
    return state.but(
        episode_written=False, episode_expired=expired, not_kept=(*state.not_kept, *lines)
    )


def _episode_not_kept(state: RunState, ports: MemoryPorts) -> tuple[list[str], bool]:
    """What of the run's episode is not kept, and whether it is not kept at all: an episode
    whose retention already ended (its run finished more than ``retention_days`` ago, or, a
    FAILED one, more than decay's ``failed_episode_days``) is not written.
    """
    finished, now = state.run.finished_at, ports.clock()
    if finished is None:
        return [], False
    if finished > now:
        return [
            f"finished_at ({_instant(finished)}) not kept: it is after the run was "
            f"consolidated ({_instant(now)}), and the episode is dated when it was consolidated"
        ], False
    days = ports.policies.episodic.retention_days
    if math.ceil(finished + days * DAY) <= now:
        return [
            f"episode not kept: the run finished {_instant(finished)}, more than {days:g} days "
            f"before it was consolidated (an episode is kept {days:g} days after its run "
            "finished)"
        ], True
    failed_days = ports.policies.decay.failed_episode_days
    if state.artifacts.outcome == "FAILED" and finished < now - failed_days * DAY:
        return [
            f"episode not kept: the run FAILED and finished {_instant(finished)}, more than "
            f"{failed_days:g} days before it was consolidated (decay deletes a FAILED run's "
            f"episode {failed_days:g} days after it finished)"
        ], True
    return [], False


def _instant(moment: float) -> str:
    return datetime.fromtimestamp(moment, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


@_calls_a_model(_episode_present)
def write_episode(state: RunState, ports: MemoryPorts) -> RunState:
    """Store the episode once per run (a redelivery finds it present before embedding); an
    episode whose retention has already ended is not written, and ``not_kept`` says so.
    """
    run = state.run
    lines, expired = _episode_not_kept(state, ports)
    if expired or (
        ports.episodes.get(run.tenant_id, run.agent_id, run.run_id, now=ports.clock()) is not None
    ):
        return _episode_present(state, ports)
    artifacts = state.artifacts
    units = episodic.episode_units(state.units, artifacts)
    if not episodic.says_more_than_its_task(run.task, artifacts, units):
        return state.but(
            episode_written=False,
            episode_expired=True,
            not_kept=(*state.not_kept, *lines, _no_episode(run)),
        )
    # Units are embedded as the index matches them: with their run's calendar day.
    day = calendar_day(run.finished_at or ports.clock())
    texts = episodic.embedding_inputs(artifacts, units, day, ports.policies.episodic)
    embeddings = embed_once(ports.embedder, texts)
    episode = episodic.build_episode(
        run,
        artifacts,
        embeddings[0],
        ports.embedder.model_id,
        now=ports.clock(),
        policy=ports.policies.episodic,
        units=episodic.embed_units(
            units, embeddings[1:], ports.embedder.model_id, ports.policies.episodic
        ),
    )
    return state.but(
        episode_written=ports.episodes.add(episode), not_kept=(*state.not_kept, *lines)
    )


def _no_episode(run: RunFinished) -> str:
    """Why a run with nothing beyond its task has no episode (it would rank first for the
    same task again, and say nothing).
    """
    if run.procedure_feedback is not None:
        return "episode not kept: the run reports a procedure's result only (no episode)"
    return (
        "episode not kept: the run holds nothing beyond its task (no messages with words, "
        "findings, patterns, approach, tools or summary)"
    )


def embed_once(embedder: Embedder, texts: Sequence[str]) -> FloatArray:
    """Vectors of ``texts``, a text repeated in the run (a pasted log, a retried answer)
    embedded once.
    """
    distinct = list(dict.fromkeys(texts))
    vectors = embedder.embed_documents(distinct)
    if len(distinct) == len(texts):
        return vectors
    position = {text: i for i, text in enumerate(distinct)}
    return vectors[[position[text] for text in texts]]


def _facts_seen(state: RunState, ports: MemoryPorts) -> RunState:
    """What confirm_facts answers for a run already consolidated: nothing observed again, the
    facts' standings as its record kept them when it was consolidated.
    """
    lines = _facts_not_kept(state.artifacts, ports.policies.semantic)
    kept = state.facts.progress if state.facts else ()
    return state.but(facts=FactResults(progress=kept), not_kept=(*state.not_kept, *lines))


def _facts_not_kept(artifacts: RunArtifacts, policy: SemanticPolicy) -> list[str]:
    """The run's facts that do not enter the confirmation log, and why."""
    facts = artifacts.facts
    if not facts:
        return []
    if artifacts.outcome != "COMPLETED":
        return [
            f"{not_kept.counted(len(facts), 'fact')} not kept: only COMPLETED runs teach facts "
            f"(this run is {artifacts.outcome})"
        ]
    unsure = sum(f.confidence < policy.min_confidence for f in facts)
    empty = sum(
        f.confidence >= policy.min_confidence and not semantic.normalize_fact(f.content)
        for f in facts
    )
    lines = []
    if unsure:
        lines.append(
            f"{not_kept.counted(unsure, 'fact')} not kept: confidence below "
            f"{policy.min_confidence:g}"
        )
    if empty:
        lines.append(f"{not_kept.counted(empty, 'fact')} not kept: no words left once normalised")
    return lines


@_calls_a_model(_facts_seen)
def confirm_facts(state: RunState, ports: MemoryPorts) -> RunState:
    """Log the run's confident facts and promote those confirmed by enough independent runs."""
    run = state.run
    artifacts = state.artifacts
    policy = ports.policies.semantic
    confirmation = semantic.observe_facts(
        ports.facts,
        ports.embedder,
        ports.knowledge_base,
        tenant_id=run.tenant_id,
        domain=run.domain or policy.default_domain,
        agent_id=run.agent_id,
        run_id=run_marker(run.agent_id, run.run_id),
        facts=semantic.facts_worth_keeping(artifacts, policy),
        now=ports.clock(),
        policy=policy,
    )
    return state.but(
        facts=FactResults(
            confirmation.observed,
            confirmation.confirmed,
            confirmation.newly_confirmed,
            confirmation.contested,
            confirmation.progress,
        ),
        not_kept=(*state.not_kept, *_facts_not_kept(artifacts, policy)),
    )


def stage_kb_docs(state: RunState, ports: MemoryPorts) -> RunState:
    """Write KB documents (with metadata sidecars) for confirmed facts; ingestion is batched."""
    run = state.run
    staged = semantic.stage_documents(
        ports.facts,
        ports.knowledge_base,
        tenant_id=run.tenant_id,
        domain=run.domain or ports.policies.semantic.default_domain,
        fact_hashes=state.facts.confirmed if state.facts else (),
        now=ports.clock(),
    )
    return state.but(kb_staged=tuple(staged))


def propose_procedure(state: RunState, ports: MemoryPorts) -> RunState:
    """Propose the run's procedure (PENDING, deduplicated) and count its procedure feedback."""
    run = state.run
    artifacts = state.artifacts
    now = ports.clock()
    # Procedures count the run by its marker: two agents' runs of one id are two runs.
    counted = replace(run, run_id=run_marker(run.agent_id, run.run_id))
    proposed, created = procedural.propose(ports.procedures, counted, artifacts, now=now)
    found = None if proposed is None else ports.procedures.get(proposed, tenant_id=run.tenant_id)
    feedback = procedural.record_feedback(
        ports.procedures, counted, now=now, key=ports.receipt_key, policy=ports.policies.procedural
    )
    # The last step closes the run: it is marked complete, then a failure recorded by an
    # earlier attempt is resolved. record_failure looks for the mark after writing, so a
    # failure recorded after this deletion (by an overlapping delivery of the run that
    # failed) is resolved there instead.
    if not state.consolidated:
        recorded = run_record(ports.run_ledger, *_ids(run), now=now)
        if recorded is not None:
            _mark_consolidated(recorded, ports, now, state.facts)
    ports.run_ledger.delete(ports.run_ledger.failure_key(*_ids(run)))
    return state.but(
        procedure=ProcedureResult(
            proposed, created, feedback, None if found is None else found.status.value
        ),
        not_kept=(*state.not_kept, *_procedure_not_kept(run, artifacts)),
    )


def _procedure_not_kept(run: RunFinished, artifacts: RunArtifacts) -> list[str]:
    """Why the run's procedure is not proposed, if it is not."""
    if artifacts.procedure is None:
        return []
    if artifacts.outcome != "COMPLETED":
        return [
            "procedure not proposed: only COMPLETED runs propose procedures "
            f"(this run is {artifacts.outcome})"
        ]
    if not run.task_type:
        return ["procedure not proposed: the event names no task_type"]
    return []


STEPS: dict[str, Step] = {
    name: _unless_reused(step)
    for name, step in (
        ("scrub", scrub),
        ("write_episode", write_episode),
        ("confirm_facts", confirm_facts),
        ("stage_kb_docs", stage_kb_docs),
        ("propose_procedure", propose_procedure),
    )
}
"""The steps after ``extract`` (which reads the event), by name, in the order of
``statemachines/consolidation.asl.json``; none writes for an event reusing a run's id."""
AFTER_EXTRACT = tuple(STEPS)
STEP_NAMES = ("extract", *AFTER_EXTRACT)
"""Every step's name, in the state machine's order."""


@dataclass(frozen=True, slots=True)
class StepFailed(Exception):
    """A consolidation step raised; ``state`` is the input it failed on, ``failure_key`` the
    key the run was recorded under for replay (None: not recorded).
    """

    step: str
    error: BaseException
    state: RunState | State  # the event itself when extract failed
    failure_key: str | None = None

    def __str__(self) -> str:
        return f"{self.step} failed: {type(self.error).__name__}: {self.error}"


def consolidate(event: State, ports: MemoryPorts, *, run: RunFinished | None = None) -> RunState:
    """Run every step in order on one event; the final state.

    ``run`` is the event already validated into its domain record (by the SDK), which is then
    consolidated as it is; otherwise the event is validated here.
    Raises :class:`StepFailed` naming the step; invalid input surfaces as ``InvalidInput`` from
    the first step, before anything is written (it is refused, not recorded for replay).
    """
    try:
        state = extract(event, ports) if run is None else extract_run(run, ports)
    except InvalidInput:
        raise
    except Exception as error:
        raise StepFailed("extract", error, event) from error
    return _run_steps(state, ports, AFTER_EXTRACT)


def _run_steps(state: RunState, ports: MemoryPorts, steps: tuple[str, ...]) -> RunState:
    for name in steps:
        try:
            state = STEPS[name](state, ports)
        except InvalidInput:
            raise
        except Exception as error:
            raise StepFailed(name, error, state) from error
    return state


# The steps that follow scrub: they read only the run's recorded (scrubbed) state.
AFTER_SCRUB = AFTER_EXTRACT[1:]
# Failed runs whose event is too broken to name its tenant, agent and run are kept here.
UNROUTABLE = "_unroutable"


def failed_runs(runs: RunLedger, tenant_id: str | None = None) -> list[FailureRecord]:
    """Every recorded failed run still to replay, of the tenant (its failures alone are read)
    or of every tenant (an operator's view, a pass over the whole ledger).
    """
    if tenant_id is not None:
        failures = runs.failures(tenant_id)
    else:
        failures = (e for e in runs.entries() if e.kind is RunEntryKind.FAILURE)
    records = (FailureRecord.read(entry.value) for entry in failures)
    return [record for record in records if not record.resolved]


@dataclass(frozen=True, slots=True)
class RunsToReplay:
    """Runs awaiting replay: ``failed`` ones (a step raised; their failure records) and
    ``incomplete`` ones (scrubbed, then not consolidated within the bound).
    """

    failed: list[FailureRecord]
    incomplete: list[IncompleteRun]

    def listed(self) -> list[dict[str, Any]]:
        """Both, as a listing shows them (failed first; no event)."""
        return [*(r.listed() for r in self.failed), *(r.listed() for r in self.incomplete)]


def runs_to_replay(
    runs: RunLedger, *, now: float, incomplete_after: float = INCOMPLETE_AFTER_SECONDS
) -> RunsToReplay:
    """Every run of every tenant awaiting replay, found in one pass over the ledger.

    A run with a failure record is listed as failed only.
    """
    failed: list[FailureRecord] = []
    named: set[tuple[str, str | None, str]] = set()
    started: list[IncompleteRun] = []
    for entry in runs.entries():
        if entry.kind is RunEntryKind.FAILURE:
            failure = FailureRecord.read(entry.value)
            if not failure.resolved:
                failed.append(failure)
                named.add((entry.tenant_id, entry.agent_id, entry.run_id))
        elif entry.kind is RunEntryKind.RUN:
            record = RunRecord.read(entry.value)
            if not record.consolidated and now - record.scrubbed_at >= incomplete_after:
                started.append(_incomplete(entry.key, record))
    incomplete = [
        run
        for run in started
        if (run.tenant_id, run.agent_id, run.run_id) not in named
        and (run.tenant_id, None, run.run_id) not in named
    ]
    return RunsToReplay(failed, incomplete)


def _incomplete(key: str, record: RunRecord) -> IncompleteRun:
    run = record.run_json()
    return IncompleteRun(
        key, str(run["tenant_id"]), str(run["agent_id"]), str(run["run_id"]), record.scrubbed_at
    )


def redelivery_event(record: RunRecord) -> State:
    """A RunFinished detail that completes an incomplete run's record: its identity and
    (scrubbed) task. Delivered, extract answers it from the run's record, never from this.
    """
    run = record.run_json()
    return {key: run[key] for key in ("tenant_id", "agent_id", "run_id", "task")}


@dataclass(frozen=True, slots=True)
class FailureKept:
    """A failed run's record as kept, and whether this report repeated an earlier one (the
    same execution reported twice: nothing changed).
    """

    record: FailureRecord
    repeated: bool = False


def record_failure(payload: State, ports: MemoryPorts) -> FailureKept:
    """Keep a failed run where it can be replayed from; the dead-letter message.

    ``payload`` holds the original ``event``, the ``error`` and optionally the ``execution``.
    The record is kept until the run is replayed or its tenant forgotten. An event too broken
    to name its tenant, agent and run is still kept, under a digest of its content. One
    execution reported twice (its Catch, then its status-change event) counts one failure:
    the second report is ``repeated`` and changes nothing. If another delivery has completed
    the run, the record is returned ``resolved`` and left to expire.
    """
    event = payload.get("event")
    detail = unwrap_event(event) if isinstance(event, dict) else event
    identity = _identity(detail)
    named: tuple[str, str | None, str]
    if identity is None:
        digest = hashlib.sha256(json.dumps(event, sort_keys=True, default=str).encode()).hexdigest()
        named = (UNROUTABLE, None, digest[:24])
    else:
        named = identity
    tenant_id, agent_id, run_id = named
    key = ports.run_ledger.failure_key(tenant_id, agent_id, run_id)
    now = ports.clock()
    found = ports.run_ledger.entry(key, now=now)
    previous = None if found is None else FailureRecord.read(found.value)
    execution = payload.get("execution")
    repeated = previous is not None and execution is not None and previous.execution == execution
    if previous is not None and repeated:
        record = previous
    else:
        record = FailureRecord(
            key=key,
            event=event,
            error=payload.get("error"),
            execution=execution,
            failed_at=now,
            failures=(previous.failures if previous else 0) + 1,
        )
        ledger = ports.run_ledger
        ledger.put_failure(tenant_id, agent_id, run_id, record.json(), now=now, expires_at=None)
    # A repeated report checks too: the first may have written its record and failed before
    # this check, after the delivery that completed the run had cleaned up, and no replay may
    # ever come to remove it.
    if (
        not record.resolved
        and identity is not None
        and _is_consolidated(ports.run_ledger, *identity, now=now)
    ):
        # Nothing is left to replay. Resolved rather than deleted: the failure path may only
        # read and write the ledger.
        record = record.resolved_now()
        ports.run_ledger.put_failure(
            tenant_id, agent_id, run_id, record.json(), now=now, expires_at=now
        )
    return FailureKept(record, repeated)


def _mark_consolidated(
    entry: RunEntry, ports: MemoryPorts, now: float, facts: FactResults | None = None
) -> None:
    record = RunRecord.read(entry.value)
    if not record.consolidated:
        expires_at = math.ceil(now + RUN_RECORD_DAYS * DAY)
        state = dict(record.state)
        if facts is not None and facts.progress:
            # A replay's summary says where the facts stood, as this one does.
            state["facts"] = {"progress": [to_json(p) for p in facts.progress]}
        done = replace(record, consolidated_at=now, state=state).json()
        ports.run_ledger.rewrite(entry, done, now=now, expires_at=expires_at)


def _is_consolidated(
    runs: RunLedger, tenant_id: str, agent_id: str, run_id: str, *, now: float
) -> bool:
    found = run_record(runs, tenant_id, agent_id, run_id, now=now)
    return found is not None and RunRecord.read(found.value).consolidated


def _identity(detail: object) -> tuple[str, str, str] | None:
    if not isinstance(detail, dict):
        return None
    ids = tuple(detail.get(field) for field in ("tenant_id", "agent_id", "run_id"))
    if all(isinstance(v, str) and re.fullmatch(ID_PATTERN, v) for v in ids):
        return str(ids[0]), str(ids[1]), str(ids[2])
    return None


def consolidate_or_record(
    event: State, ports: MemoryPorts, *, run: RunFinished | None = None
) -> RunState:
    """:func:`consolidate`, recording a run whose step failed for replay (its ``event``)
    before re-raising.

    Invalid events are refused (``InvalidInput``) and not recorded: the caller is told at once
    and nothing is written.
    """
    try:
        return consolidate(event, ports, run=run)
    except StepFailed as failure:
        record = record_failure(
            {
                "event": event,
                "error": {
                    "Error": type(failure.error).__name__,
                    "Cause": str(failure.error),
                    "Step": failure.step,
                },
            },
            ports,
        )
        raise replace(failure, failure_key=record.record.key) from failure.error


def replay(key: str, ports: MemoryPorts) -> RunState:
    """Complete a run awaiting replay, by the key :func:`runs_to_replay` lists it under.

    A failed run's event is consolidated again, and its record removed once that succeeds.
    An incomplete run's steps after scrub run on its recorded state (each is idempotent per
    run: what was written is not written again); if one fails, the run stays incomplete.
    """
    entry = ports.run_ledger.entry(key, now=ports.clock())
    if entry is None:
        raise NotFound(f"no failed or incomplete run {key!r}")
    if entry.kind is RunEntryKind.RUN:
        return _run_steps(_from_record(entry), ports, AFTER_SCRUB)
    state = consolidate_or_record(FailureRecord.read(entry.value).event, ports)
    ports.run_ledger.delete(key)
    return state


ReviewSurface = Literal["local", "aws"]
"""Where people review a tenant's procedures: the local CLI, or a deployed stack."""


def review_where(tenant_id: str, surface: ReviewSurface = "local") -> str:
    """Where a person reviews the tenant's proposed procedures."""
    if surface == "aws":
        return (
            "the stack's procedure-review function (ProcedureReviewFunctionName) with "
            f'{{"action": "list", "tenant_id": "{tenant_id}", "status": "PENDING"}}'
        )
    return (
        f"agent-memory review --tenant {tenant_id} or "
        f"agent-memory procedures list --tenant {tenant_id}"
    )


def summary(state: RunState, *, review: ReviewSurface = "local") -> State:
    """What one consolidation did, for people and scripts: per fact the run reported, how far
    the tenant's rule has it (``facts``), the proposed procedure's review (``procedure_review``),
    and ``notes``, the same said a line each (``review``: where people review procedures).

    An exact replay of a consolidated run is marked ``already_consolidated``; an event reusing
    a recorded run's id with other content is ``run_id_reused`` and wrote nothing.
    """
    facts = state.facts or FactResults()
    procedure = state.procedure or ProcedureResult(None, False)
    run = state.run
    reused = _reused_note(state)
    replayed = state.consolidated and not state.reused
    facts_said = [] if reused else _facts_said(facts, run.agent_id)
    review_said = None if reused else _procedure_review(procedure, run.tenant_id, review)
    return {
        "run_id": run.run_id,
        "agent_id": run.agent_id,
        "tenant_id": run.tenant_id,
        "outcome": state.artifacts.outcome,
        "extracted_by": state.extracted_by,
        "episode": "not written" if reused else _episode_word(state),
        "already_consolidated": state.consolidated and not state.reused,
        "run_id_reused": state.reused,
        "facts_observed": len(facts.observed),
        "facts_confirmed": list(facts.newly_confirmed),
        "facts_contested": list(facts.contested),
        "facts": facts_said,
        "kb_documents_staged": len(state.kb_staged or ()),
        "procedure_proposed": procedure.proposed,
        "procedure_created": procedure.created,
        "procedure_feedback": to_json(procedure.feedback) if procedure.feedback else None,
        "procedure_review": review_said,
        "pii_entities": dict(state.pii_entities or {}),
        # A reused id's record is another run's: what it did not keep is not this event's.
        "not_kept": [] if reused else list(state.not_kept),
        "notes": [
            *([reused] if reused else ()),
            *([_replayed_note(state)] if replayed else ()),
            *(f["said"] for f in facts_said),
            *([review_said["said"]] if review_said else ()),
        ],
    }


def _replayed_note(state: RunState) -> str:
    return (
        f"run {state.run.run_id} was consolidated already: this exact replay wrote nothing "
        "again (the facts stand as they did then)"
    )


def _reused_note(state: RunState) -> str | None:
    if not state.reused:
        return None
    done = "consolidated" if state.consolidated else "recorded"
    return (
        f"nothing written: run_id {state.run.run_id} was already {done} with different content "
        "(an exact replay is consolidated once; a new run needs its own run_id)"
    )


def _facts_said(facts: FactResults, agent_id: str) -> list[State]:
    newly = set(facts.newly_confirmed)
    return [
        {
            **to_json(p),
            "confirmed_now": p.fact_hash in newly,
            "said": _fact_said(p, agent_id, p.fact_hash in newly),
        }
        for p in facts.progress
    ]


def _fact_said(progress: FactProgress, agent_id: str, confirmed_now: bool) -> str:
    """One fact's standing, as a person reads it."""
    count = f"{progress.confirmations} of {progress.needed} independent runs"
    if progress.agents_needed > 1:
        count += f" from {progress.agents} of {progress.agents_needed} agents"
    standing = {
        "CONFIRMED": "confirmed now" if confirmed_now else "confirmed",
        "PENDING": "not confirmed yet",
        "CONTESTED": "held for a person's review: it contradicts a confirmed fact",
        "RETRACTED": "retracted by a person: runs do not bring it back",
    }.get(progress.status, progress.status)
    said = f"fact {progress.fact_hash}: {count}, {standing}"
    if progress.counted or progress.counts_again_at is None:
        return said + " (this run counted)" if progress.counted else said
    others = progress.others_count_from
    at_once = others is None or others <= progress.seen_at
    return (
        f"{said}; this run did not count ({_gap_said(agent_id, progress.agent_gap)}): "
        f"{agent_id}'s next run counts from {_instant(math.ceil(progress.counts_again_at))}, "
        "another agent's run counts "
        + ("at once" if at_once else f"from {_instant(math.ceil(others or 0))}")
    )


def _gap_said(agent_id: str, gap: float | None) -> str:
    """The Independence rule's gap, in the largest unit that divides it."""
    if not gap:
        return f"{agent_id}'s runs count once per window"
    for unit, seconds in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if gap >= seconds and gap % seconds == 0:
            n = int(gap // seconds)
            return f"{agent_id}'s runs count at most once every " + (
                unit if n == 1 else f"{n} {unit}s"
            )
    return f"{agent_id}'s runs count at most once every {gap:g} seconds"


def _procedure_review(
    procedure: ProcedureResult, tenant_id: str, surface: ReviewSurface
) -> State | None:
    """Whether the run's proposed procedure waits for a person, and where they review it."""
    if procedure.proposed is None:
        return None
    status = procedure.status
    pid = procedure.proposed
    where = None
    if status in (None, "PENDING", "NEEDS_REVIEW"):
        where = review_where(tenant_id, surface)
        said = f"procedure {pid} waits for a person's review ({status or 'PENDING'}): {where}"
    elif status == "VALIDATED":
        said = (
            f"procedure {pid} was approved by a person already: runs of its task type are served it"
        )
    else:
        said = f"procedure {pid} is {status} (a person's decision): it is not served"
    return {
        "procedure_id": pid,
        "status": status,
        "waits_for_review": where is not None,
        "where": where,
        "said": said,
    }


def _episode_word(state: RunState) -> str:
    if state.episode_written:
        return "written"
    return "not kept" if state.episode_expired else "already present"


def _texts_of(run: RunFinished, artifacts: RunArtifacts) -> list[str]:
    procedure = artifacts.procedure
    return [
        run.task,
        artifacts.task_summary,
        artifacts.approach_used,
        *artifacts.key_findings,
        *artifacts.tools_used,
        *artifacts.reusable_patterns,
        *(fact.content for fact in artifacts.facts),
        *((procedure.title, *procedure.steps) if procedure else ()),
    ]


def _with_texts(
    run: RunFinished, artifacts: RunArtifacts, texts: list[str]
) -> tuple[RunFinished, RunArtifacts]:
    """Put scrubbed texts back in the order :func:`_texts_of` took them out."""
    items = iter(texts)

    def take(count: int) -> tuple[str, ...]:
        return tuple(next(items) for _ in range(count))

    task, summary_, approach = take(3)
    findings = take(len(artifacts.key_findings))
    tools = take(len(artifacts.tools_used))
    patterns = take(len(artifacts.reusable_patterns))
    facts = tuple(
        FactCandidate(text, fact.confidence)
        for fact, text in zip(artifacts.facts, take(len(artifacts.facts)), strict=True)
    )
    procedure = None
    if artifacts.procedure is not None:
        title, *steps = take(1 + len(artifacts.procedure.steps))
        procedure = ProcedureDraft(title, tuple(steps))
    return replace(run, task=task), replace(
        artifacts,
        task_summary=summary_,
        approach_used=approach,
        key_findings=findings,
        tools_used=tools,
        reusable_patterns=patterns,
        facts=facts,
        procedure=procedure,
    )
