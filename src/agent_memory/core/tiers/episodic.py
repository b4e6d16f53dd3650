"""Episodic memory: distilled past runs, found again by embedding similarity."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from agent_memory.core.model.markers import EPISODIC, Line, Section
from agent_memory.core.model.models import (
    Episode,
    EpisodeHit,
    EpisodeUnit,
    RunArtifacts,
    RunFinished,
    SearchResult,
    UnitHit,
    unit_text,
)
from agent_memory.core.model.policies import DAY, EpisodicPolicy
from agent_memory.core.model.scope import Scope
from agent_memory.core.model.time_window import OPEN, TimeWindow
from agent_memory.core.ports import FloatArray, MemoryPorts
from agent_memory.core.privacy.aliases import shortened, without_pseudonyms
from agent_memory.core.retrieval import vectors
from agent_memory.core.retrieval.lexical import term_spans, tokenize
from agent_memory.core.retrieval.periods import calendar_day
from agent_memory.core.retrieval.reranking import pool_size

# What the block shows of one moment, at most (benchmarks/served.py reads it this way).
MOMENT_CHARS = 300


def episode_text(artifacts: RunArtifacts) -> str:
    """What an episode is embedded from: its summary and its findings."""
    return " ".join([artifacts.task_summary, *artifacts.key_findings]).strip()


def says_more_than_its_task(
    task: str, artifacts: RunArtifacts, units: Sequence[EpisodeUnit] = ()
) -> bool:
    """Whether a run's episode would hold anything beyond its task: a finding, a pattern, an
    approach, a tool, a message with words, or a summary that is not the task restated (a
    run that only reports a procedure's result holds none of these).
    """
    texts = (
        artifacts.approach_used,
        *artifacts.key_findings,
        *artifacts.reusable_patterns,
        *artifacts.tools_used,
        *(unit.text for unit in units),
    )
    return any(text.strip() for text in texts) or not _restates(artifacts.task_summary, task)


def has_content(episode: Episode) -> bool:
    """Whether ``episode`` holds anything beyond its task (:func:`says_more_than_its_task`);
    one without is never written, nor served if an older version wrote it.
    """
    artifacts = RunArtifacts(
        episode.task_summary,
        episode.outcome,
        key_findings=episode.key_findings,
        approach_used=episode.approach_used,
        tools_used=episode.tools_used,
        reusable_patterns=episode.reusable_patterns,
    )
    return says_more_than_its_task(episode.task, artifacts, episode.units)


def _restates(summary: str, task: str) -> bool:
    """Whether ``summary`` is blank, or ``task`` (or its first sentence) restated, as the
    extractor writes a summary it has nothing else for: a summary of its own, even one the
    task begins with, is content.
    """
    words = " ".join(summary.split()).casefold()
    whole = " ".join(task.split()).casefold()
    if not words:
        return True
    if words.endswith("..."):  # the extractor's cut of a long first sentence
        return whole.startswith(words.removesuffix("..."))
    first = re.match(r"(.+?[.!?])(?:\s|$)", whole)
    return words in (whole, first.group(1) if first else whole)


def embedding_inputs(
    artifacts: RunArtifacts, units: Sequence[EpisodeUnit], day: str, policy: EpisodicPolicy
) -> list[str]:
    """What an episode's vectors embed, in order: its summary, then each unit as it is matched
    (its run's calendar ``day``, speaker and text), each cut to ``policy.embedded_chars``.

    A message shorter than that is followed by up to ``policy.embedded_context`` messages on
    each side of it (nearest first, speaker and text) in what is left: "Yes, loved it!" means
    what the conversation around it says.
    """
    chars, context = policy.embedded_chars, policy.embedded_context
    texts = [episode_text(artifacts)[:chars]]
    messages = [u for u in units if u.kind == "message"]
    place = {id(u): i for i, u in enumerate(messages)}
    for unit in units:
        text = unit_text(unit, day)
        at = place.get(id(unit))
        if context and at is not None and len(text) < chars:
            near = [at + d * side for d in range(1, context + 1) for side in (-1, 1)]
            text = "\n".join(
                [text, *(unit_text(messages[i]) for i in near if 0 <= i < len(messages))]
            )
        texts.append(text[:chars])
    return texts


def search(
    ports: MemoryPorts,
    tenant_id: str,
    agent_id: str,
    text: str,
    query: FloatArray,
    *,
    now: float,
    scope: Scope,
    top_episodes: int,
    top_units: int,
    min_similarity: float | None,
    excluded: frozenset[tuple[str, str]] = frozenset(),
    window: TimeWindow = OPEN,
) -> SearchResult:
    """The scope's episodes and units best matching ``text`` (its query form) and ``query``
    (its vector), from the scope's kept index: enough episodes for the reranker to choose
    ``top_episodes`` from, when one is configured (it orders them after). The ``excluded``
    episodes, by (agent, run), are left out (the reader flagged them), and so are those
    created outside ``window``: the ranking chooses among the window's own.
    """
    policy = ports.policies.episodic
    index = ports.episode_indexes.index(
        ports.episodes,
        ports.embedder,
        tenant_id,
        agent_id,
        now=now,
        policy=policy,
        scope=scope,
        window=window,
    )
    found = index.search(
        text,
        query,
        now=now,
        top_episodes=pool_size(top_episodes, policy, ports.reranker),
        top_units=top_units,
        units_per_episode=policy.units_per_episode,
        min_similarity=min_similarity,
        candidates=policy.rerank_candidates,
        min_word_share=policy.min_word_share,
        excluded=excluded,
        window=window,
        ranking=policy.ranking,
    )
    return _with_content(found)


def _with_content(found: SearchResult) -> SearchResult:
    """``found`` without the episodes that hold nothing beyond their task, nor their units."""
    empty = {
        (h.episode.agent_id, h.episode.run_id) for h in found.episodes if not has_content(h.episode)
    }
    if not empty:
        return found
    return replace(
        found,
        episodes=tuple(
            h for h in found.episodes if (h.episode.agent_id, h.episode.run_id) not in empty
        ),
        units=tuple(u for u in found.units if (u.agent_id, u.run_id) not in empty),
    )


def episode_units(messages: Sequence[EpisodeUnit], artifacts: RunArtifacts) -> list[EpisodeUnit]:
    """The episode's units: the run's messages (as kept by extraction), then its findings."""
    units = list(messages)
    units += [EpisodeUnit("finding", i, f) for i, f in enumerate(artifacts.key_findings)]
    return [u for u in units if u.text.strip()]


def embed_units(
    units: list[EpisodeUnit],
    embeddings: FloatArray,
    model_id: str,
    policy: EpisodicPolicy = EpisodicPolicy(),
) -> tuple[EpisodeUnit, ...]:
    """The units with their vectors attached, encoded as the policy says."""
    return tuple(
        replace(unit, embedding=vectors.encode(vector, model_id, encoding=policy.vector_encoding))
        for unit, vector in zip(units, embeddings, strict=True)
    )


def build_episode(
    run: RunFinished,
    artifacts: RunArtifacts,
    embedding: FloatArray,
    model_id: str,
    *,
    now: float,
    policy: EpisodicPolicy = EpisodicPolicy(),
    units: tuple[EpisodeUnit, ...] = (),
) -> Episode:
    """The episode record of a run; it expires ``retention_days`` after the run finished."""
    # A finish time in the future would never expire and always rank newest.
    created = min(run.finished_at or now, now)
    return Episode(
        tenant_id=run.tenant_id,
        agent_id=run.agent_id,
        run_id=run.run_id,
        task=run.task,
        task_type=run.task_type,
        domain=run.domain,
        task_summary=artifacts.task_summary,
        outcome=artifacts.outcome,
        key_findings=artifacts.key_findings,
        approach_used=artifacts.approach_used,
        tools_used=artifacts.tools_used,
        reusable_patterns=artifacts.reusable_patterns,
        embedding=vectors.encode(embedding, model_id, encoding=policy.vector_encoding),
        created_at=created,
        # Whole seconds: DynamoDB's TTL reads epoch seconds.
        expires_at=float(math.ceil(created + policy.retention_days * DAY)),
        units=units,
    )


def served_hits(
    found: SearchResult, *, top_k: int, moment_chars: int, max_episodes: int
) -> tuple[EpisodeHit, ...]:
    """The episodes a memory context shows, each with the moments it shows.

    The ``top_k`` best episodes come first, each with its best moment. Then the search's best
    units overall, best first, are shown under their episodes while the moments' shown text
    fits in ``moment_chars``; an episode below the top ``top_k`` joins (after them, in rank
    order) when one of its units is among those, up to ``max_episodes`` in all. Findings and
    units of other kinds stay with the top episodes as the index ranked them.
    """
    ranked = list(found.episodes)
    by_key = {(h.episode.agent_id, h.episode.run_id): h for h in ranked}
    shown: dict[tuple[str, str], list[UnitHit]] = {}
    for hit in ranked[:top_k]:
        key = (hit.episode.agent_id, hit.episode.run_id)
        shown[key] = [u for u in hit.units if u.unit.kind != "message"]
        best = next((u for u in hit.units if u.unit.kind == "message"), None)
        if best is not None:
            shown[key].append(best)
    spent = sum(_shown_size(u.unit) for units in shown.values() for u in units)
    for unit in found.units:
        key = (unit.agent_id, unit.run_id)
        if unit.unit.kind != "message" or key not in by_key:
            continue
        if key not in shown and len(shown) >= max_episodes:
            continue
        held = shown.setdefault(key, [])
        if any(u.unit.seq == unit.unit.seq and u.unit.kind == "message" for u in held):
            continue
        size = _shown_size(unit.unit)
        if spent + size > moment_chars:
            break
        held.append(unit)
        spent += size
    order = {key: position for position, key in enumerate(by_key)}
    return tuple(
        replace(by_key[key], units=tuple(units))
        for key, units in sorted(shown.items(), key=lambda item: order[item[0]])
    )


def format_episodes(
    hits: Sequence[EpisodeHit],
    *,
    reader: str | None = None,
    full: int | None = None,
    focus: str = "",
    alias: Callable[[str], str] = str,
) -> Section | None:
    """The episodic section of the memory context (None when nothing was found).

    An episode of another agent than ``reader`` (the agent the context is for) says who
    learned it; the reader's own episodes do not (nor any, when ``reader`` is None). Each says
    when its run finished. Past the first ``full`` (all, if None), an episode shows only its
    task, date and moments: it is there for what was said in it. A moment too long to show
    whole shows the part that holds most of ``focus``'s words (the task the context is for).
    Stored text is shown through ``alias`` (the block's short forms of pseudonyms).
    """
    if not hits:
        return None
    terms = frozenset(tokenize(without_pseudonyms(focus)))
    lines: list[Line] = []
    for position, hit in enumerate(hits):
        episode = hit.episode
        if lines:
            lines.append(Line(""))
        lines.append(Line("Task: ", alias(episode.task_summary or episode.task)))
        lines.append(Line(f"When: {calendar_day(episode.created_at)}"))
        if reader is not None and episode.agent_id != reader:
            lines.append(Line("Learned by: ", episode.agent_id))
        if full is not None and position >= full:
            _moments(lines, hit, terms, alias)
            continue
        lines.append(Line(f"Outcome: {episode.outcome} (similarity {hit.similarity:.2f})"))
        if episode.approach_used:
            lines.append(Line("Approach: ", alias(episode.approach_used)))
        if episode.key_findings:
            lines.append(Line("Key findings:"))
            lines.extend(Line("  - ", alias(finding)) for finding in episode.key_findings)
        if episode.reusable_patterns:
            lines.append(Line("Patterns that worked:"))
            lines.extend(Line("  - ", alias(pattern)) for pattern in episode.reusable_patterns)
        _moments(lines, hit, terms, alias)
    return Section(EPISODIC, "relevant past runs", tuple(lines))


def _moments(
    lines: list[Line], hit: EpisodeHit, terms: frozenset[str], alias: Callable[[str], str]
) -> None:
    moments = [u.unit for u in hit.units if u.unit.kind == "message"]
    if moments:
        lines.append(Line("Most relevant moments:"))
        lines.extend(Line("  - ", _short(alias(unit_text(u)), terms=terms)) for u in moments)


def _shown_size(unit: EpisodeUnit) -> int:
    """The characters a moment's line takes in the block, its pseudonyms as short forms (a
    name the block shows too rarely to shorten takes 9 more on each of its few uses).
    """
    return len(_short(shortened(unit_text(unit))))


def _short(text: str, limit: int = MOMENT_CHARS, terms: frozenset[str] = frozenset()) -> str:
    """``text`` on one line, whole if it fits in ``limit`` characters; else the window of
    that size holding most of ``terms`` (the earliest such, the opening when none is held),
    its cuts marked "...". Its length never depends on where the window falls, so the
    moments' budget is spent the same whatever the task.
    """
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    start = _focus(flat, limit - 6, terms) if terms else 0
    if start == 0:
        return flat[: limit - 3] + "..."
    if start >= len(flat) - (limit - 3):
        return "..." + flat[len(flat) - (limit - 3) :]
    return "..." + flat[start : start + limit - 6] + "..."


def _focus(flat: str, width: int, terms: frozenset[str]) -> int:
    """Where the ``width``-character window of ``flat`` holding the most distinct ``terms``
    starts: 0 when the opening holds as many as any window, else a word's start shortly
    before the first matched word, leading in with what room the window has left.
    """
    spans = [(at, term) for at, term in term_spans(flat) if term in terms]
    best, best_count, last = 0, len({t for at, t in spans if at < width}), 0
    for first, (at, _) in enumerate(spans):
        inside = [(a, t) for a, t in spans[first:] if a < at + width]
        if len({t for _, t in inside}) > best_count:
            best, best_count, last = at, len({t for _, t in inside}), inside[-1][0]
    if best == 0:
        return 0
    # The room left after the last matched word's start (a word's own length kept inside).
    room = max(0, best + width - last - 20)
    lead = best - min(width // 4, room)
    space = flat.find(" ", lead, best)
    return best if space < 0 else space + 1
