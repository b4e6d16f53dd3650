"""The read path: one memory-context block for a run about to start."""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import TypeVar

from agent_memory.core.api.bootstrap_reply import (
    BootstrapReply,
    EpisodeView,
    ProcedureView,
    ReplyContent,
    reply_bytes,
)
from agent_memory.core.model import markers, receipts
from agent_memory.core.model.calibration import episode_threshold, fact_threshold
from agent_memory.core.model.errors import StoreUnavailable
from agent_memory.core.model.flags import Flagged
from agent_memory.core.model.markers import Section
from agent_memory.core.model.models import EpisodeHit, Procedure, SearchResult
from agent_memory.core.model.requests import BootstrapRequest
from agent_memory.core.model.visible import shown
from agent_memory.core.ports import FloatArray, MemoryPorts
from agent_memory.core.privacy.aliases import Aliases
from agent_memory.core.privacy.scrubbing import pseudonyms_for, query_form
from agent_memory.core.retrieval import reranking
from agent_memory.core.tiers import episodic, procedural, semantic
from agent_memory.core.workflows.flags import flagged_by

T = TypeVar("T")

# What the reply holds besides its content (ranker, timings, what was trimmed, the serving
# receipt), at most.
_RESERVED_BYTES = 1_024 + receipts.MAX_RECEIPT_CHARS
# A text still too long once every lower-ranked piece is gone is cut to this many characters.
_SHORTEST_TEXT = 200

_shared_pool: ThreadPoolExecutor | None = None


def _pool() -> ThreadPoolExecutor:
    global _shared_pool
    if _shared_pool is None:
        _shared_pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="bootstrap")
    return _shared_pool


def bootstrap(
    request: BootstrapRequest, ports: MemoryPorts, *, executor: Executor | None = None
) -> BootstrapReply:
    """Retrieve all three tiers and assemble the memory context.

    The procedural lookup needs no embedding, so it starts at once; the episodic and semantic
    lookups start as soon as the task is embedded. The reply carries the context block, what
    each tier found, how long each took (milliseconds), and what was trimmed to keep it within
    ``max_reply_bytes`` (:func:`fit_reply`; empty when nothing was). A tier whose store cannot
    be read (damaged, failing) is left out and named in ``unavailable`` with the reason; the
    others are served.

    Nothing the requesting agent flagged and is still open is served to it: its open flags are
    read once, first, with every read (so a flag takes effect at the next call, whatever a warm
    process keeps); other agents are served the item until a person decides.
    """
    pool = executor or _pool()
    started = time.perf_counter()
    now = ports.clock()
    unavailable: dict[str, str] = {}
    flags_job = pool.submit(
        _read(
            "flags",
            lambda: flagged_by(ports, request.tenant_id, request.agent_id),
            Flagged(),
            unavailable,
        )
    )
    procedure_job = pool.submit(
        _timed,
        _read(
            "procedural",
            lambda: _procedure(request, ports, flags_job.result()),
            None,
            unavailable,
        ),
    )
    # Memory stores names as pseudonyms: the query must say them the same way.
    text, query_ms = _timed(
        lambda: query_form(
            request.task, ports.pii, pseudonyms_for(ports.pseudonym_key, request.tenant_id)
        )
    )
    query, embed_ms = _timed(lambda: ports.embedder.embed_query(text))
    episodes_job = pool.submit(
        _timed,
        _read(
            "episodic",
            lambda: _episodes(request, ports, text, query, now, flags_job.result()),
            SearchResult((), ()),
            unavailable,
        ),
    )
    no_facts: list[semantic.ScoredFact] = []
    facts_job = pool.submit(
        _timed,
        _read(
            "semantic",
            lambda: _facts(request, ports, text, query, flags_job.result()),
            no_facts,
            unavailable,
        ),
    )
    found, episodic_ms = episodes_job.result()
    policy = ports.policies.episodic
    found, rerank_ms = _timed(
        lambda: reranking.rerank(
            found, text, ports.reranker, top_episodes=max(policy.top_k, policy.served_episodes)
        )
    )
    episodes = episodic.served_hits(
        found,
        top_k=policy.top_k,
        moment_chars=policy.served_moment_chars,
        max_episodes=policy.served_episodes,
    )
    facts, semantic_ms = facts_job.result()
    procedure, procedural_ms = procedure_job.result()
    # Drawn for this reply alone: no stored text can know it (core/model/markers.py).
    token = markers.new_token()
    content, truncated = fit_reply(
        Found(episodes, tuple(facts), procedure),
        lambda draft: _content(draft, ports, token, request, focus=text),
        ports.policies.max_reply_bytes,
    )
    if procedure is not None and content["procedure"] is not None:
        # Feedback on the procedure counts only with this receipt (core/model/receipts.py).
        receipt = procedural.serving_receipt(
            ports.receipt_key, procedure, agent_id=request.agent_id, now=now
        )
        content["procedure"] = {**content["procedure"], "receipt": receipt}
    return {
        **content,
        "episodes_ranked_by": found.ranked_by,
        "truncated": truncated,
        "unavailable": dict(sorted(unavailable.items())),
        "timings_ms": {
            "query": query_ms,
            "embed": embed_ms,
            "episodic": episodic_ms,
            "rerank": rerank_ms,
            "semantic": semantic_ms,
            "procedural": procedural_ms,
            "total": round((time.perf_counter() - started) * 1000, 3),
        },
    }


def _read(
    tier: str, lookup: Callable[[], T], missing: T, unavailable: dict[str, str]
) -> Callable[[], T]:
    """``lookup`` of ``tier``, answering ``missing`` instead when the tier's store cannot be
    read, its reason (one line) kept in ``unavailable``: a read serves what it can. Transient
    failures (a lock, throttling) still raise, for the caller to try the whole read again.
    """

    def read() -> T:
        try:
            return lookup()
        except (StoreUnavailable, OSError) as error:
            unavailable[tier] = _reason(error)
            return missing

    return read


# A reason's length at most: three of them fit in what the reply reserves besides its content.
_MAX_REASON_CHARS = 200


def _reason(error: BaseException) -> str:
    """Why a store could not be read, in one line of at most :data:`_MAX_REASON_CHARS`."""
    if isinstance(error, OSError) and error.strerror:
        where = f"{error.filename}: " if error.filename else ""
        text = f"{where}{error.strerror}"
    else:
        text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= _MAX_REASON_CHARS else text[: _MAX_REASON_CHARS - 3] + "..."


@dataclass(frozen=True, slots=True)
class Found:
    """What the tiers found, best first, as the reply will show it."""

    episodes: tuple[EpisodeHit, ...]
    facts: tuple[semantic.ScoredFact, ...]
    procedure: Procedure | None


def fit_reply(
    found: Found, render: Callable[[Found], ReplyContent], budget: int
) -> tuple[ReplyContent, dict[str, int]]:
    """``render`` of ``found`` trimmed, lowest-ranked content first, until it plus what a reply
    holds besides is at most ``budget`` bytes of JSON (:func:`reply_bytes`); with how many
    pieces of each kind were trimmed (empty when none was). ``found`` is rendered once when
    it fits, and once per measurement when it does not.

    Lambda refuses a synchronous response over 6 MB, and the longest memories the product
    accepts reach that: so the lower-ranked episodes and facts go first, then the best
    episode's moments, patterns, findings and approach, then the procedure's last steps, then
    every long text is cut short. Each tier keeps its best entry, so the block keeps every
    section (and marker) it had; a budget under some 64 KiB may not be reached.
    """
    limit = budget - _RESERVED_BYTES
    content = render(found)
    size = reply_bytes(content)
    trimmed: Counter[str] = Counter()
    estimated = 0  # bytes saved (by estimate) since the size was last measured
    for kind, smaller, saving in _trims(found):
        if size - estimated <= limit:
            break
        found, estimated = smaller, estimated + saving
        trimmed[kind] += 1
        if size - estimated <= limit:
            content = render(found)
            size, estimated = reply_bytes(content), 0
    if estimated:  # trimmed past the last measurement (every trim spent)
        content = render(found)
    return content, dict(trimmed)


def _trims(found: Found) -> Iterator[tuple[str, Found, int]]:
    """Ever smaller versions of ``found``, one piece fewer each: (kind, version, bytes saved
    by estimate: the piece as escaped JSON, once in the lists and once in the context).
    """
    f = found
    while len(f.episodes) > 1:
        f = replace(f, episodes=f.episodes[:-1])
        yield "episodes", f, _episode_bytes(found.episodes[len(f.episodes)])
    while len(f.facts) > 1:
        f = replace(f, facts=f.facts[:-1])
        yield "facts", f, 2 * _escaped(found.facts[len(f.facts)].content) + 100
    if f.episodes:
        hit = f.episodes[0]
        while hit.units:
            text = hit.units[-1].unit.text
            hit = replace(hit, units=hit.units[:-1])
            f = replace(f, episodes=(hit,))
            yield "episode_parts", f, _escaped(text) + _escaped(text[:300]) + 100
        for name in ("reusable_patterns", "key_findings"):
            while items := getattr(hit.episode, name):
                hit = replace(hit, episode=replace(hit.episode, **{name: items[:-1]}))
                f = replace(f, episodes=(hit,))
                yield "episode_parts", f, 2 * _escaped(items[-1]) + 10
        if hit.episode.approach_used:
            saving = _escaped(hit.episode.approach_used)
            hit = replace(hit, episode=replace(hit.episode, approach_used=""))
            f = replace(f, episodes=(hit,))
            yield "episode_parts", f, saving
    while f.procedure is not None and len(f.procedure.steps) > 1:
        step = f.procedure.steps[-1]
        f = replace(f, procedure=replace(f.procedure, steps=f.procedure.steps[:-1]))
        yield "procedure_steps", f, 2 * _escaped(step) + 10
    yield from _cut_texts(f)


def _cut_texts(f: Found) -> Iterator[tuple[str, Found, int]]:
    """``f`` with each text still long cut to :data:`_SHORTEST_TEXT` characters, one by one."""
    if f.episodes:
        e = f.episodes[0].episode
        # The block shows the task only for want of a summary (the lists show the summary).
        text, weight = (e.task_summary, 2) if e.task_summary else (e.task, 1)
        if len(text) > _SHORTEST_TEXT:
            shorter = (
                replace(e, task_summary=_cut(text))
                if e.task_summary
                else replace(e, task=_cut(text))
            )
            f = replace(f, episodes=(replace(f.episodes[0], episode=shorter),))
            yield "texts", f, weight * (_escaped(text) - _escaped(_cut(text)))
    if f.facts and len(f.facts[0].content) > _SHORTEST_TEXT:
        text = f.facts[0].content
        f = replace(f, facts=(replace(f.facts[0], content=_cut(text)),))
        yield "texts", f, 2 * (_escaped(text) - _escaped(_cut(text)))
    if f.procedure is not None and len(f.procedure.title) > _SHORTEST_TEXT:
        title = f.procedure.title
        f = replace(f, procedure=replace(f.procedure, title=_cut(title)))
        yield "texts", f, 2 * (_escaped(title) - _escaped(_cut(title)))
    if f.procedure is not None and len((f.procedure.steps or ("",))[0]) > _SHORTEST_TEXT:
        step = f.procedure.steps[0]
        f = replace(f, procedure=replace(f.procedure, steps=(_cut(step), *f.procedure.steps[1:])))
        yield "texts", f, 2 * (_escaped(step) - _escaped(_cut(step)))


def _cut(text: str) -> str:
    return text if len(text) <= _SHORTEST_TEXT else text[: _SHORTEST_TEXT - 3] + "..."


def _escaped(text: str) -> int:
    """Bytes of ``text`` in escaped JSON (without its quotes)."""
    return len(json.dumps(text)) - 2


def _episode_bytes(hit: EpisodeHit) -> int:
    """A whole episode's bytes in the reply, by estimate: its lists' view and its section."""
    e = hit.episode
    texts = [*e.key_findings, *e.reusable_patterns]
    listed = _escaped(e.task_summary) + sum(_escaped(text) for text in texts)
    shown = _escaped(e.task_summary or e.task) + _escaped(e.approach_used or "")
    shown += sum(_escaped(text) for text in texts)
    units = sum(_escaped(u.unit.text) + _escaped(u.unit.text[:300]) for u in hit.units)
    return listed + shown + units + 300


def _content(
    found: Found, ports: MemoryPorts, token: str, request: BootstrapRequest, *, focus: str
) -> ReplyContent:
    """The reply's context block (its boundaries carrying ``token``; its instructions for the
    request's surface; episodes of agents other than the requester name their author; a long
    moment shows its part nearest ``focus``, the task as memory words it) and per-tier views
    of ``found``.
    """
    procedure = found.procedure
    alias = Aliases(_stored_texts(found))
    sections = [
        episodic.format_episodes(
            found.episodes,
            reader=request.agent_id,
            full=ports.policies.episodic.top_k,
            focus=focus,
            alias=alias,
        ),
        semantic.format_facts(list(found.facts)),
        procedural.format_procedure(procedure, ports.policies.procedural, request.surface)
        if procedure
        else None,
    ]
    context = markers.render(markers.CONTEXT, _with_legend(sections, alias), token)
    return {
        "context": context,
        "context_token": token if context else None,
        "context_guidance": markers.guidance(token) if context else None,
        "episodes": [_episode_json(e) for e in found.episodes],
        "facts": [
            {
                "content": shown(f.content),
                "score": round(f.score, 4),
                "source": f.source,
                "fact_hash": f.fact_hash,
            }
            for f in found.facts
        ],
        "procedure": _procedure_json(procedure, ports) if procedure else None,
    }


def _procedure_json(procedure: Procedure, ports: MemoryPorts) -> ProcedureView:
    """The reply's view of ``procedure``, its stored text shown as the block shows it."""
    view = procedural.procedure_view(procedure, ports.policies.procedural)
    view["title"] = shown(view["title"])
    view["steps"] = [shown(step) for step in view["steps"]]
    view["reviewer"] = shown(view["reviewer"]) if view["reviewer"] is not None else None
    note = view["review_note"]
    view["review_note"] = shown(note) if note is not None else None
    return view


def _stored_texts(found: Found) -> Iterator[str]:
    """Every stored text ``found`` may show (where a short form could already be written)."""
    for hit in found.episodes:
        episode = hit.episode
        yield episode.task_summary or episode.task
        yield episode.approach_used
        yield from episode.key_findings
        yield from episode.reusable_patterns
        yield from (u.unit.text for u in hit.units)
    yield from (f.content for f in found.facts)
    if found.procedure is not None:
        yield found.procedure.title
        yield from found.procedure.steps


def _with_legend(sections: Sequence[Section | None], alias: Aliases) -> list[Section]:
    """The sections with their stored text's pseudonyms in short forms, numbered in the order
    the block shows them, the first section opening with their legend (when any is shown).
    """
    shown = [s for s in sections if s is not None]
    drafts = [s if s.kind == markers.EPISODIC else s.map_text(alias) for s in shown]
    texts, legend = alias.finish([line.text for s in drafts for line in s.lines])
    finished, at = [], 0
    for section in drafts:
        own = texts[at : at + len(section.lines)]
        lines = (line.with_text(text) for line, text in zip(section.lines, own, strict=True))
        finished.append(replace(section, lines=tuple(lines)))
        at += len(section.lines)
    if legend is None or not finished:
        return finished
    return [replace(finished[0], lines=(legend, *finished[0].lines)), *finished[1:]]


def _timed(work: Callable[[], T]) -> tuple[T, float]:
    started = time.perf_counter()
    result = work()
    return result, round((time.perf_counter() - started) * 1000, 3)


def _episodes(
    request: BootstrapRequest,
    ports: MemoryPorts,
    text: str,
    query: FloatArray,
    now: float,
    flagged: Flagged,
) -> SearchResult:
    policy = ports.policies.episodic
    return episodic.search(
        ports,
        request.tenant_id,
        request.agent_id,
        text,
        query,
        now=now,
        scope=request.scope,
        top_episodes=max(policy.top_k, policy.served_episodes),
        # Enough units to fill the moments' budget: a moment is rarely under 100 characters.
        top_units=max(10, policy.served_moment_chars // 100),
        min_similarity=episode_threshold(
            ports.policies, ports.embedder.model_id, ports.calibrations
        ),
        excluded=flagged.episodes,
    )


def _facts(
    request: BootstrapRequest, ports: MemoryPorts, text: str, query: FloatArray, flagged: Flagged
) -> list[semantic.ScoredFact]:
    top_k = ports.policies.semantic.top_k
    found = semantic.retrieve_facts(
        ports.knowledge_base,
        ports.facts,
        tenant_id=request.tenant_id,
        domain=request.domain,
        task=text,
        query=query,
        model_id=ports.embedder.model_id,
        min_score=fact_threshold(ports.policies, ports.embedder.model_id, ports.calibrations),
        # As many more as were flagged, so the agent is still served top_k of the others.
        top_k=top_k + len(flagged.facts),
    )
    return [f for f in found if f.fact_hash not in flagged.facts][:top_k]


def _procedure(request: BootstrapRequest, ports: MemoryPorts, flagged: Flagged) -> Procedure | None:
    if not request.task_type:
        return None
    candidates = ports.procedures.for_task_type(request.tenant_id, request.task_type)
    # A flagged procedure is not a candidate: the agent is served the next one, if any.
    candidates = [p for p in candidates if p.procedure_id not in flagged.procedures]
    return procedural.select_procedure(candidates, ports.policies.procedural)


def _episode_json(hit: EpisodeHit) -> EpisodeView:
    e = hit.episode
    return {
        "run_id": e.run_id,
        "agent_id": e.agent_id,
        "task_summary": shown(e.task_summary),
        "outcome": e.outcome,
        "similarity": round(hit.similarity, 4),
        "score": round(hit.score, 6),
        "created_at": e.created_at,
        "key_findings": [shown(text) for text in e.key_findings],
        "reusable_patterns": [shown(text) for text in e.reusable_patterns],
        "units": [
            {
                "kind": u.unit.kind,
                "seq": u.unit.seq,
                "speaker": shown(u.unit.speaker) if u.unit.speaker else u.unit.speaker,
                "text": shown(u.unit.text),
                "score": round(u.score, 6),
            }
            for u in hit.units
        ],
    }
