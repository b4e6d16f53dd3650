"""Changing the embedding model as a planned migration: re-embed beside, switch at once, drop.

Vectors of different models are never compared (``vectors.stack``), so a store that changes
model must re-embed everything it searches. The migration is kept in a job checkpoint and
moves through resumable passes over every record (episodes, then facts), each saving its
position after every page:

1. ``begin`` records the target, then ``advance`` writes the target model's vectors *beside*
   the active ones (the records' ``spare_embedding`` slots). Searches keep using the active
   model: stores present each record in the space of the model the process embeds its queries
   with (``Episode.in_space``). When the pass is done, a knowledge base whose index this
   application builds (the local one) prepares the target's index beside the one it serves.
2. ``request_switch`` refuses a target without a similarity calibration; ``advance`` then runs
   a catch-up pass (records written meanwhile), publishes the prepared index and records the
   target as the store's active model (``ModelRegistry``), which wiring reads: processes wired
   after it embed with the target, and stores present the target's vectors. The old vectors
   stay until step 3, so a process still on the old model keeps finding them.
3. ``request_finish`` and ``advance`` embed whatever still lacks the active model's vector
   (written by a process that still ran the old model) and drop every other vector.
   ``request_abort`` does the same before a switch, keeping the old model.

A search never mixes spaces: a query is compared with its own model's vectors only; a record
holding none is skipped, and ``status(..., coverage=True)`` counts such records.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from enum import StrEnum
from functools import partial
from typing import Any, Generic, TypeVar

from agent_memory.core.model.calibration import calibration_for
from agent_memory.core.model.errors import Conflict, IngestionBusy, InvalidInput
from agent_memory.core.model.models import Episode, Fact, RunArtifacts, StoredVector
from agent_memory.core.model.policies import EpisodicPolicy
from agent_memory.core.paging import every
from agent_memory.core.ports import (
    ActiveModel,
    Checkpoint,
    Embedder,
    Lease,
    MemoryPorts,
    Page,
    ReindexableKnowledgeBase,
)
from agent_memory.core.retrieval import vectors
from agent_memory.core.retrieval.periods import calendar_day
from agent_memory.core.tiers.episodic import embedding_inputs

# One run at a time: a run holds the lease, renewed after every page; a crashed run's lapses.
LEASE_SECONDS = 600.0
KINDS = ("episodes", "facts")
DONE = "done"
# Keys of records a pass could not write, kept in the migration record for the operator.
_FAILED_KEYS_KEPT = 20

R = TypeVar("R", Episode, Fact)
Slot = tuple[StoredVector | None, StoredVector | None]
Embedders = Callable[[str], Embedder]
"""Resolves a model id to an embedder of that model (the local registry, Bedrock, fakes)."""


class Stage(StrEnum):
    """Where a migration stands."""

    EMBEDDING = "embedding"  # the target's vectors are written beside the active ones
    SWITCHING = "switching"  # a catch-up pass, then the switch
    SWITCHED = "switched"  # the target is active; the old vectors are kept until finish
    FINISHING = "finishing"  # every vector but the active model's is dropped
    ABORTING = "aborting"  # the target's vectors are dropped; the active model stays


@dataclass(slots=True)
class PassCounts:
    """What one pass did to the records of one kind (a resumed pass includes earlier work)."""

    seen: int = 0
    embedded: int = 0  # given vectors they lacked
    unchanged: int = 0  # already as the pass wants them
    dropped: int = 0  # lost their vectors of other models
    gone: int = 0  # deleted (or changed) between reading and writing
    failed: int = 0  # refused by the store (an item over its size limit, say)


@dataclass(slots=True)
class Migration:
    """The migration's checkpoint (``Checkpoint.REEMBEDDING``): target, stage, current pass."""

    target_model_id: str
    target_dimension: int
    source_model_id: str
    stage: Stage
    started_at: float
    updated_at: float
    kind: str = KINDS[0]  # the kind the current pass is at, or DONE
    cursor: str | None = None
    counts: dict[str, PassCounts] = field(default_factory=dict)
    switched_at: float | None = None
    knowledge_base: str = ""
    failed_keys: list[str] = field(default_factory=list)

    def restart_pass(self, stage: Stage, now: float) -> None:
        """Enter ``stage`` with a fresh pass from the first record."""
        self.stage, self.kind, self.cursor, self.updated_at = stage, KINDS[0], None, now
        self.counts = {kind: PassCounts() for kind in KINDS}
        self.failed_keys = []


@dataclass(slots=True)
class ReembedReport:
    """What a call did and where the migration stands after it."""

    stage: str  # a Stage, or "finished"/"aborted" once the record is gone, "idle" without one
    done: bool  # the stage's pass is complete and its ending applied
    active_model_id: str
    target_model_id: str | None
    position: str  # the kind the pass stopped at, or DONE
    counts: dict[str, PassCounts]
    knowledge_base: str
    failed_keys: list[str]
    message: str = ""


@dataclass(slots=True)
class Coverage:
    """How many records of a kind hold vectors of the active and of the target model.

    Records without the active model's vectors (``skipped``) are invisible to searches.
    """

    records: int = 0
    active: int = 0
    target: int = 0
    skipped: int = 0


@dataclass(slots=True)
class ReembedStatus:
    """The store's embedding state, for operators."""

    active: ActiveModel
    recorded: bool  # False: no switch ever happened; the active model is the wired default
    migration: Migration | None
    target_calibrated: bool | None
    knowledge_base: str
    coverage: dict[str, Coverage] | None = None


def active_model(ports: MemoryPorts) -> ActiveModel | None:
    """The store's recorded active model; None if none was recorded (a store never migrated)."""
    return ports.model_registry.active_model(now=ports.clock())


def migration(ports: MemoryPorts) -> Migration | None:
    """The migration in progress (or switched and not finished), if any."""
    record = ports.checkpoints.load(Checkpoint.REEMBEDDING, now=ports.clock())
    if record is None:
        return None
    counts = {kind: PassCounts(**c) for kind, c in record.pop("counts").items()}
    return Migration(**{**record, "stage": Stage(record["stage"]), "counts": counts})


def begin(ports: MemoryPorts, target: Embedder) -> Migration:
    """Start re-embedding the store with ``target`` (or return the same one in progress).

    Refused while a migration to another model is under way, and for the active model itself.
    A migration switched but not finished is replaced: its target is active, and the new
    one's vectors take the spare slots (back to the old model costs little: most records
    still hold its vectors).
    """
    with _lease(ports):
        return _begin(ports, target)


def _begin(ports: MemoryPorts, target: Embedder) -> Migration:
    now = ports.clock()
    active = _active_or_record(ports, now)
    current = migration(ports)
    if current is not None and current.stage in (Stage.EMBEDDING, Stage.SWITCHING):
        if current.target_model_id == target.model_id:
            return current
        raise Conflict(
            f"a migration to {current.target_model_id!r} is in progress: switch to it or "
            "abort it first"
        )
    if current is not None and current.stage in (Stage.FINISHING, Stage.ABORTING):
        raise Conflict(f"the migration is {current.stage.value}: resume it until it is done")
    if target.model_id == active.model_id:
        raise InvalidInput("embedding_model", f"{target.model_id!r} is already the active model")
    started = Migration(
        target_model_id=target.model_id,
        target_dimension=target.dimension,
        source_model_id=active.model_id,
        stage=Stage.EMBEDDING,
        started_at=now,
        updated_at=now,
    )
    started.restart_pass(Stage.EMBEDDING, now)
    _save(ports, started)
    return started


def request_switch(ports: MemoryPorts) -> Migration:
    """Ask for the switch: checks the target's calibration and that its first pass is done,
    then starts the catch-up pass that :func:`advance` ends with the switch.
    """
    with _lease(ports):
        current = _require(ports, (Stage.EMBEDDING, Stage.SWITCHING), "switch")
        _require_calibration(ports, current.target_model_id)
        if current.stage is Stage.EMBEDDING:
            if current.kind != DONE:
                raise Conflict(
                    f"the re-embedding pass to {current.target_model_id!r} is not complete "
                    f"(at {current.kind}): resume it before switching"
                )
            current.restart_pass(Stage.SWITCHING, ports.clock())
            _save(ports, current)
        return current


def request_finish(ports: MemoryPorts) -> Migration:
    """Ask to drop the old vectors once switched; the process must embed with the new model
    (on AWS: the functions are deployed with it), since the old vectors are its last resort.
    """
    with _lease(ports):
        current = _require(ports, (Stage.SWITCHED, Stage.FINISHING), "finish")
        _active_or_record(ports, ports.clock())
        if current.stage is Stage.SWITCHED:
            current.restart_pass(Stage.FINISHING, ports.clock())
            _save(ports, current)
        return current


def request_abort(ports: MemoryPorts) -> Migration:
    """Ask to drop the target's vectors before the switch; the active model stays."""
    with _lease(ports):
        current = _require(ports, (Stage.EMBEDDING, Stage.SWITCHING, Stage.ABORTING), "abort")
        _active_or_record(ports, ports.clock())
        if current.stage is not Stage.ABORTING:
            current.restart_pass(Stage.ABORTING, ports.clock())
            _save(ports, current)
        return current


def advance(
    ports: MemoryPorts,
    embedders: Embedders,
    *,
    page_size: int = 50,
    should_stop: Callable[[], bool] = lambda: False,
) -> ReembedReport:
    """Continue the migration's current pass until it is done or ``should_stop()`` is true
    (checked before each page), then apply the stage's ending: prepare the new index, switch,
    or forget the migration. Safe to interrupt anywhere and to call again; refused while
    another run holds the lease.
    """
    with _lease(ports) as renew:
        return _advance(ports, embedders, page_size, should_stop, renew)


def _advance(
    ports: MemoryPorts,
    embedders: Embedders,
    page_size: int,
    should_stop: Callable[[], bool],
    renew: Callable[[], None],
) -> ReembedReport:
    current = migration(ports)
    if current is None:
        return _report(ports, None, "idle", done=True, message="no migration in progress")
    if current.stage is Stage.SWITCHED:
        return _report(ports, current, current.stage, done=True, message="switched; finish next")
    if current.stage in (Stage.EMBEDDING, Stage.SWITCHING):
        embedder = embedders(current.target_model_id)
        if (embedder.model_id, embedder.dimension) != (
            current.target_model_id,
            current.target_dimension,
        ):
            raise Conflict(f"{embedder.model_id!r} is not the migration's target model")
        mode = _Mode(embedder, keep_only=False)
    else:
        _active_or_record(ports, ports.clock())
        mode = _Mode(ports.embedder, keep_only=True)
    if not _run_pass(ports, current, mode, page_size, should_stop, renew):
        return _report(ports, current, current.stage, done=False, message="stopped; resume")
    return _end_stage(ports, current, mode.embedder)


def status(ports: MemoryPorts, *, coverage: bool = False) -> ReembedStatus:
    """The active model, the migration (if any) and, with ``coverage``, how many records each
    model's searches can see (a full read of the store).
    """
    recorded = active_model(ports)
    active = recorded or ActiveModel(ports.embedder.model_id, ports.embedder.dimension)
    current = migration(ports)
    calibrated = None
    if current is not None:
        calibrated = _calibrated(ports, current.target_model_id)
    result = ReembedStatus(
        active=active,
        recorded=recorded is not None,
        migration=current,
        target_calibrated=calibrated,
        knowledge_base=_index_state(ports),
    )
    if coverage:
        spaces = [(active.model_id, active.dimension)]
        if current is not None:
            spaces.append((current.target_model_id, current.target_dimension))
        result.coverage = _coverage(ports, *spaces)
    return result


# --- stages ------------------------------------------------------------------------------------


def _end_stage(ports: MemoryPorts, current: Migration, embedder: Embedder) -> ReembedReport:
    """Apply the ending of ``current``'s stage, whose pass is done (``embedder`` ran it)."""
    now = ports.clock()
    index = _reindexable(ports)
    if current.stage is Stage.EMBEDDING:
        current.knowledge_base = _FIXED
        if index is not None:
            try:
                count = index.prepare_index(embedder)
                current.knowledge_base = f"prepared: {count} documents in the new model's index"
            except IngestionBusy:
                current.knowledge_base = "not prepared (ingestion running): built at the switch"
        _save(ports, current)
        return _report(ports, current, current.stage, done=True, message="ready to switch")
    if current.stage is Stage.SWITCHING:
        _require_calibration(ports, current.target_model_id)
        if index is not None:
            try:
                index.publish_index(embedder)
            except IngestionBusy:
                message = "an ingestion is running: resume to switch"
                return _report(ports, current, current.stage, done=False, message=message)
            current.knowledge_base = "published: the index is in the new model's space"
        previous = _active_or_record(ports, now, check=False)
        switched = ActiveModel(
            current.target_model_id, current.target_dimension, now, previous.model_id
        )
        # The switch itself: one record, read by wiring.
        ports.model_registry.set_active_model(switched, now=now)
        current.stage, current.switched_at, current.updated_at = Stage.SWITCHED, now, now
        _save(ports, current)
        return _report(ports, current, current.stage, done=True, message="switched")
    if current.stage is Stage.ABORTING and index is not None:
        index.discard_prepared_index()
        current.knowledge_base = "the new model's prepared index was discarded"
    ports.checkpoints.clear(Checkpoint.REEMBEDDING)
    ending = "finished" if current.stage is Stage.FINISHING else "aborted"
    return _report(ports, current, ending, done=True, message=ending)


_FIXED = "not re-indexed: a managed knowledge base keeps the model it was created with"


@contextmanager
def _lease(ports: MemoryPorts) -> Iterator[Callable[[], None]]:
    """Hold the migration's lease for the block; yields a function that renews it."""
    holder = uuid.uuid4().hex
    now = ports.clock()
    lease = Lease.REEMBEDDING
    if not ports.checkpoints.acquire(lease, holder, now=now, until=now + LEASE_SECONDS):
        raise Conflict(
            "another re-embedding run is in progress; try again once it stops (a crashed "
            f"run's lease lapses within {LEASE_SECONDS / 60:g} minutes)"
        )

    def renew() -> None:
        moment = ports.clock()
        ports.checkpoints.renew(lease, holder, now=moment, until=moment + LEASE_SECONDS)

    try:
        yield renew
    finally:
        # Not if the lease lapsed and another run took it meanwhile.
        ports.checkpoints.release(lease, holder, now=ports.clock())


def _active_or_record(ports: MemoryPorts, now: float, *, check: bool = True) -> ActiveModel:
    """The recorded active model (recording the process's model if none was); with ``check``,
    refuse a process that embeds with another model than the store's active one.
    """
    active = active_model(ports)
    if active is None:
        active = ActiveModel(ports.embedder.model_id, ports.embedder.dimension)
        ports.model_registry.set_active_model(active, now=now)
    elif check and active.model_id != ports.embedder.model_id:
        raise Conflict(
            f"this process embeds with {ports.embedder.model_id!r} but the store's active "
            f"embedding model is {active.model_id!r}: wire it with the active model"
        )
    return active


def _require(ports: MemoryPorts, stages: Sequence[Stage], action: str) -> Migration:
    current = migration(ports)
    if current is None:
        raise Conflict(f"no migration to {action}: start one with a target model")
    if current.stage not in stages:
        raise Conflict(f"cannot {action} a migration that is {current.stage.value}")
    return current


def _calibrated(ports: MemoryPorts, model_id: str) -> bool:
    try:
        calibration_for(model_id, ports.calibrations)
    except InvalidInput:
        return False
    return True


def _require_calibration(ports: MemoryPorts, model_id: str) -> None:
    if not _calibrated(ports, model_id):
        raise Conflict(
            f"cannot switch to {model_id!r}: it has no similarity calibration, so its "
            "thresholds would be guesses; measure one (docs/embedding-model.md) and register "
            "it with the model before switching"
        )


def _save(ports: MemoryPorts, current: Migration) -> None:
    current.updated_at = ports.clock()
    ports.checkpoints.save(Checkpoint.REEMBEDDING, asdict(current), now=current.updated_at)


def _reindexable(ports: MemoryPorts) -> ReindexableKnowledgeBase | None:
    index = ports.knowledge_base
    return index if isinstance(index, ReindexableKnowledgeBase) else None


def _index_state(ports: MemoryPorts) -> str:
    index = _reindexable(ports)
    if index is None:
        return _FIXED
    served = index.index_model()
    return f"index in {served}'s space" if served else "no index yet (the next ingestion builds it)"


def _report(
    ports: MemoryPorts, current: Migration | None, stage: str, *, done: bool, message: str
) -> ReembedReport:
    active = active_model(ports)
    return ReembedReport(
        stage=str(stage),
        done=done,
        active_model_id=active.model_id if active else ports.embedder.model_id,
        target_model_id=current.target_model_id if current else None,
        position=current.kind if current else DONE,
        counts=dict(current.counts) if current else {},
        knowledge_base=current.knowledge_base if current else _index_state(ports),
        failed_keys=list(current.failed_keys) if current else [],
        message=message,
    )


# --- passes ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Mode:
    """What a pass does to each record: give it ``embedder``'s vectors where it lacks them
    (beside the others), and with ``keep_only`` also drop every vector of another model.
    """

    embedder: Embedder
    keep_only: bool

    def holds(self, vector: StoredVector | None) -> bool:
        return (
            vector is not None
            and vector.model_id == self.embedder.model_id
            and vector.dimension == self.embedder.dimension
        )

    def missing(self, slot: Slot) -> bool:
        return not (self.holds(slot[0]) or self.holds(slot[1]))

    def apply(self, slot: Slot, new: StoredVector | None) -> Slot:
        primary, spare = slot
        own = new if new is not None else (primary if self.holds(primary) else spare)
        if self.keep_only:
            return own, None
        if new is None:
            return slot
        # Beside the vector searches use now; a vector of a third model is overwritten.
        return (new, spare) if primary is None or self.holds(primary) else (primary, new)


@dataclass(frozen=True, slots=True)
class _Kind(Generic[R]):
    """How a pass reads, embeds and rewrites the records of one kind."""

    read: Callable[[str | None, int], Page[R]]
    texts: Callable[[R], list[str]]
    slots: Callable[[R], list[Slot]]
    rebuilt: Callable[[R, list[Slot]], R]
    write: Callable[[R], bool]
    key: Callable[[R], str]


def _kinds(ports: MemoryPorts) -> dict[str, _Kind[Any]]:
    now = ports.clock()
    episodes, facts = ports.episodes, ports.facts
    return {
        "episodes": _Kind(
            read=lambda cursor, limit: episodes.list_all(now=now, limit=limit, cursor=cursor),
            texts=lambda e: episode_texts(e, ports.policies.episodic),
            slots=lambda e: (
                [(e.embedding, e.spare_embedding)]
                + [(u.embedding, u.spare_embedding) for u in e.units]
            ),
            rebuilt=_episode_with,
            write=episodes.set_vectors,
            key=lambda e: f"episode {e.tenant_id}/{e.agent_id}/{e.run_id}",
        ),
        "facts": _Kind(
            read=lambda cursor, limit: facts.list_all(limit=limit, cursor=cursor),
            texts=lambda f: [f.content],
            slots=lambda f: [(f.embedding, f.spare_embedding)],
            rebuilt=lambda f, s: replace(f, embedding=s[0][0], spare_embedding=s[0][1]),
            write=facts.set_vectors,
            key=lambda f: f"fact {f.tenant_id}/{f.domain}/{f.fact_hash}",
        ),
    }


def episode_texts(episode: Episode, policy: EpisodicPolicy) -> list[str]:
    """What the episode's vectors embed, exactly as consolidation embedded them."""
    artifacts = RunArtifacts(
        task_summary=episode.task_summary,
        outcome=episode.outcome,
        key_findings=episode.key_findings,
    )
    return embedding_inputs(artifacts, episode.units, calendar_day(episode.created_at), policy)


def _episode_with(episode: Episode, slots: list[Slot]) -> Episode:
    units = tuple(
        replace(unit, embedding=primary, spare_embedding=spare)
        for unit, (primary, spare) in zip(episode.units, slots[1:], strict=True)
    )
    return replace(episode, embedding=slots[0][0], spare_embedding=slots[0][1], units=units)


def _run_pass(
    ports: MemoryPorts,
    current: Migration,
    mode: _Mode,
    page_size: int,
    should_stop: Callable[[], bool],
    renew: Callable[[], None],
) -> bool:
    """Page through every kind from the saved position; True once the pass is done."""
    kinds = _kinds(ports)
    while current.kind != DONE:
        if should_stop():
            return False
        kind = kinds[current.kind]
        page = kind.read(current.cursor, page_size)
        counts = current.counts.setdefault(current.kind, PassCounts())
        _handle(page.items, kind, mode, counts, current.failed_keys)
        if page.cursor is not None:
            current.cursor = page.cursor
        else:
            following = KINDS.index(current.kind) + 1
            current.kind = KINDS[following] if following < len(KINDS) else DONE
            current.cursor = None
        _save(ports, current)
        renew()
    return True


def _handle(
    records: Iterable[R], kind: _Kind[R], mode: _Mode, counts: PassCounts, failed: list[str]
) -> None:
    """Give one page of records the vectors ``mode`` wants: one embedding call per page."""
    work = [(record, kind.slots(record)) for record in records]
    wanted = [
        (number, position, text)
        for number, (record, slots) in enumerate(work)
        for position, (slot, text) in enumerate(zip(slots, kind.texts(record), strict=True))
        if mode.missing(slot)
    ]
    texts = [text for _, _, text in wanted]
    embedded = mode.embedder.embed_documents(texts) if texts else ()
    fresh: dict[tuple[int, int], StoredVector] = {
        (number, position): vectors.encode(vector, mode.embedder.model_id)
        for (number, position, _), vector in zip(wanted, embedded, strict=True)
    }
    for number, (record, slots) in enumerate(work):
        counts.seen += 1
        new_slots = [mode.apply(slot, fresh.get((number, i))) for i, slot in enumerate(slots)]
        if new_slots == slots:
            counts.unchanged += 1
            continue
        try:
            written = kind.write(kind.rebuilt(record, new_slots))
        except InvalidInput:
            counts.failed += 1
            if len(failed) < _FAILED_KEYS_KEPT:
                failed.append(kind.key(record))
            continue
        if not written:
            counts.gone += 1
            continue
        if any((number, i) in fresh for i in range(len(slots))):
            counts.embedded += 1
        if mode.keep_only and any(not mode.holds(v) for slot in slots for v in slot if v):
            counts.dropped += 1


def _coverage_page(kind: _Kind[R], *, cursor: str | None) -> Page[R]:
    return kind.read(cursor, 500)


def _coverage(
    ports: MemoryPorts, active: tuple[str, int], target: tuple[str, int] | None = None
) -> dict[str, Coverage]:
    """Per kind, how many records hold complete vectors of each (model, dimension)."""
    result = {}
    for name, kind in _kinds(ports).items():
        tally = Coverage()
        for record in every(partial(_coverage_page, kind)):
            slots = kind.slots(record)
            tally.records += 1
            tally.active += all(_in_space(slot, active) for slot in slots)
            tally.target += target is not None and all(_in_space(s, target) for s in slots)
        tally.skipped = tally.records - tally.active
        result[name] = tally
    return result


def _in_space(slot: Slot, space: tuple[str, int]) -> bool:
    return any(v is not None and (v.model_id, v.dimension) == space for v in slot)
