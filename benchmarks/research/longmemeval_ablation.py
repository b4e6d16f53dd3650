"""Paired ablations of the product's retrieval components on LongMemEval (and LoCoMo).

One product configuration; each variant switches one component off (or moves one setting),
and is scored on the same questions, so a variant's difference is paired: "+a/-b" counts the
questions it finds that the product misses / misses that the product finds.

- write path (a memory written per variant): ``EpisodicPolicy.embedded_chars`` (512; before,
  the whole unit was embedded) and ``max_unit_chars`` (4000; before, 1000; 2000 tried);
- read path (the product's memory, patched around the queries only): relative periods
  (``question_period`` in ``core/retrieval/episode_index`` made to ignore ``now``), the
  recency prior (``asks_for_latest`` always False), the words of a relative period kept as
  query words (``without_durations`` made the identity), the whole period prior
  (``question_period`` always None; the dated-message prior then answers time questions
  only), both priors, and the dated-message prior (``DATED_WEIGHT`` 0, and 1);
- served context (bootstrap only): the old composition (the top 3 episodes with their own 3
  best units each: ``episodic.served_hits`` patched to the search's top ``top_k``, with
  ``served_episodes`` 3), ``served_episodes`` 3 with ``served_moment_chars`` 1 (the top 3 with
  one moment each), moment budgets of 2000 / 5000 / 6000 characters, up to 12 episodes
  instead of 8, and each moment's line cut to 200 characters instead of 300 (alone, and with
  a 5000-character budget).

Each question's memory is written once per write configuration; every read and served variant
then queries the product's memory (its index is built once and cached). ``--cache`` (on by
default, ``build/lme-cache``) keeps embeddings: a rerun, or a write variant embedding the same
texts, costs no model time, so model seconds count cache misses only. Abstention questions are
skipped (no evidence to score). ``--locomo`` adds the read and served variants on LoCoMo (one
memory per conversation, as ``benchmarks/retrieval.py`` writes it). Run from the repository
root::

    nice -n 10 .venv/bin/python benchmarks/research/longmemeval_ablation.py --limit 20 --spread \
        --out build/ablation.json
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import functools
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np
import numpy.typing as npt

if __package__ in {None, ""}:  # run as a script: make ``benchmarks`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


from agent_memory.adapters.local.embeddings import LocalEmbedder
from agent_memory.app import Application
from agent_memory.app.messages import SearchEpisodes
from agent_memory.core.api.bootstrap_request import parse_bootstrap_request
from agent_memory.core.model.calibration import Calibration
from agent_memory.core.model.models import EpisodeHit, SearchResult
from agent_memory.core.ports import MemoryPorts, PiiDetector
from agent_memory.core.privacy.aliases import Aliases
from agent_memory.core.privacy.scrubbing import pseudonyms_for, query_form
from agent_memory.core.retrieval import episode_index, periods
from agent_memory.core.tiers import episodic
from agent_memory.core.workflows import bootstrap as bootstrap_module
from agent_memory.core.workflows.bootstrap import bootstrap
from benchmarks import longmemeval as lme
from benchmarks import retrieval as locomo
from benchmarks.bench_consolidation import TimedEmbedder
from benchmarks.bench_data import dataset
from benchmarks.metrics import recall_all, recall_any
from benchmarks.served import TokenCounter, served

REPO = Path(__file__).resolve().parents[2]
DEFAULT_CACHE = Path("build") / "lme-cache"  # relative to the repository root
TOP = 10
PRODUCT = "product"

# ---------------------------------------------------------------- variants

# EpisodicPolicy fields each write variant overrides (a memory is written per variant).
WRITE_VARIANTS: dict[str, dict[str, int]] = {
    PRODUCT: {},
    "no neighbours embedded (before)": {"embedded_context": 0},
    "two neighbours embedded": {"embedded_context": 2},
    "whole unit embedded (before)": {"embedded_chars": 10**9},
    "max_unit_chars 1000 (before)": {"max_unit_chars": 1_000},
    "max_unit_chars 2000": {"max_unit_chars": 2_000},
}


def _period_without_now(question: str, now: float | None = None) -> periods.Period | None:
    return periods.question_period(question)


def _no_period(question: str, now: float | None = None) -> periods.Period | None:
    return None


def _never_latest(question: str) -> bool:
    return False


def _time_words_kept(question: str) -> str:
    return question


Patch = Callable[[], contextlib.AbstractContextManager[Any]]


def _patches(**names: object) -> Patch:
    """Patch these module-level names of ``core/retrieval/episode_index`` while in use."""

    @contextlib.contextmanager
    def patched() -> Iterator[None]:
        with contextlib.ExitStack() as stack:
            for name, value in names.items():
                stack.enter_context(mock.patch.object(episode_index, name, value))
            yield

    return patched


READ_VARIANTS: dict[str, Patch] = {
    PRODUCT: contextlib.nullcontext,
    "no relative periods": _patches(question_period=_period_without_now),
    "no recency prior": _patches(asks_for_latest=_never_latest),
    "relative-time words matched as query words": _patches(without_durations=_time_words_kept),
    "no period prior": _patches(question_period=_no_period),
    "no period nor recency prior": _patches(
        question_period=_no_period, asks_for_latest=_never_latest
    ),
    "no dated-message prior (before)": _patches(DATED_WEIGHT=0.0),
    "dated-message prior at 1": _patches(DATED_WEIGHT=1.0),
}


def _top_k_as_ranked(
    found: SearchResult, *, top_k: int, moment_chars: int, max_episodes: int
) -> tuple[EpisodeHit, ...]:
    """The composition before ``served_hits``: the top ``top_k`` episodes, their own units."""
    return tuple(found.episodes[:top_k])


@contextlib.contextmanager
def _old_composition() -> Iterator[None]:
    with mock.patch.object(episodic, "served_hits", _top_k_as_ranked):
        yield


def _each_run_gated(
    order: npt.NDArray[np.int64], passing: npt.NDArray[np.bool_], compared: npt.NDArray[np.bool_]
) -> npt.NDArray[np.int64]:
    """The gate before it was anchored on the ranking: each episode by its own similarity."""
    return order[passing]


@contextlib.contextmanager
def _moments_of(chars: int) -> Iterator[None]:
    """A moment's line cut to ``chars`` characters (the window of the task's words), not
    ``episodic.MOMENT_CHARS``: shorter lines, so more of them within the moments' budget.
    """
    with mock.patch.object(episodic._short, "__defaults__", (chars, frozenset())):
        yield


@contextlib.contextmanager
def _openings() -> Iterator[None]:
    """A long moment shown by its opening, as before its window followed the task's words."""
    with mock.patch.object(episodic, "_focus", lambda flat, width, terms: 0):
        yield


class _NoAliases(Aliases):
    """Shows every pseudonym as stored: the block before short forms."""

    def __call__(self, text: str) -> str:
        return text


@contextlib.contextmanager
def _full_pseudonyms() -> Iterator[None]:
    """Pseudonyms shown and budgeted in full, as before the block's short forms."""
    with (
        mock.patch.object(bootstrap_module, "Aliases", _NoAliases),
        mock.patch.object(episodic, "shortened", lambda text: text),
    ):
        yield


# Served variants: EpisodicPolicy overrides and a patch, around bootstrap only.
SERVED_VARIANTS: dict[str, tuple[dict[str, Any], Patch]] = {
    "gate by meaning alone (before)": ({"min_word_share": None}, contextlib.nullcontext),
    "similarity gate on each run (before)": (
        {"min_word_share": None},
        _patches(_gated=_each_run_gated),
    ),
    "no similarity gate": ({"min_similarity": -1.0}, contextlib.nullcontext),
    "long moments shown by their opening (before)": ({}, _openings),
    "old composition (top 3 x 3 units)": ({"served_episodes": 3}, _old_composition),
    "served_episodes 3, moment_chars 1": (
        {"served_episodes": 3, "served_moment_chars": 1},
        contextlib.nullcontext,
    ),
    "moment budget 2000": ({"served_moment_chars": 2_000}, contextlib.nullcontext),
    "moment budget 5000": ({"served_moment_chars": 5_000}, contextlib.nullcontext),
    "moment budget 6000": ({"served_moment_chars": 6_000}, contextlib.nullcontext),
    "served_episodes 12": ({"served_episodes": 12}, contextlib.nullcontext),
    "moments of 200 characters": ({}, functools.partial(_moments_of, 200)),
    "moments of 200 characters, budget 5000": (
        {"served_moment_chars": 5_000},
        functools.partial(_moments_of, 200),
    ),
    "pseudonyms in full (before)": ({}, _full_pseudonyms),
}


def variant_keys(writes: Iterable[str] = WRITE_VARIANTS) -> list[str]:
    """Every variant's key (``part: name``), the product first; of the write variants, those
    named in ``writes``.
    """
    keys = [PRODUCT]
    keys += [f"write: {n}" for n in WRITE_VARIANTS if n != PRODUCT and n in set(writes)]
    keys += [f"read: {n}" for n in READ_VARIANTS if n != PRODUCT]
    keys += [f"served: {n}" for n in SERVED_VARIANTS]
    return keys


def chosen_writes(names: Iterable[str]) -> dict[str, dict[str, int]]:
    """The product's write path and the write variants named (in ``WRITE_VARIANTS``' order)."""
    named = set(names)
    return {n: o for n, o in WRITE_VARIANTS.items() if n == PRODUCT or n in named}


def with_episodic(ports: MemoryPorts, overrides: Mapping[str, Any]) -> MemoryPorts:
    """``ports`` with these ``EpisodicPolicy`` fields replaced (the rest of its policies kept)."""
    if not overrides:
        return ports
    episodic_policy = dataclasses.replace(ports.policies.episodic, **overrides)
    policies = dataclasses.replace(ports.policies, episodic=episodic_policy)
    return dataclasses.replace(ports, policies=policies)


# ---------------------------------------------------------------- outcomes and scores


@dataclass(frozen=True, slots=True)
class Case:
    """What one question is scored against: its relevant sessions and turns, its type, and
    its answer where an evidence turn says it word for word (LongMemEval's ``answer_span``).
    """

    case_id: str
    kind: str
    sessions: frozenset[Hashable]
    turns: frozenset[Hashable]
    answer: str | None = None


@dataclass
class Outcome:
    """What a variant returned for a question: rankings (None: not searched) and the block."""

    sessions: list[Hashable] | None = None
    turns: list[Hashable] | None = None
    served_sessions: set[Hashable] = field(default_factory=set)
    served_turns: set[Hashable] = field(default_factory=set)
    tokens: int = 0
    block: str = ""  # the context block, lower-cased on one line


def scores(case: Case, outcome: Outcome) -> dict[str, float]:
    """One question's metrics for one variant (a level without evidence is left out)."""
    out: dict[str, float] = {"tokens": float(outcome.tokens)}
    if case.sessions:
        out["served session recall_all"] = float(case.sessions <= outcome.served_sessions)
        if outcome.sessions is not None:
            out["session recall_any@5"] = recall_any(outcome.sessions, case.sessions, 5)
            out["session recall_all@5"] = recall_all(outcome.sessions, case.sessions, 5)
    if case.turns:
        out["served turn recall_any"] = float(bool(case.turns & outcome.served_turns))
        if outcome.turns is not None:
            out["turn recall_any@10"] = recall_any(outcome.turns, case.turns, TOP)
    if case.answer is not None:
        out["served answer shown"] = float(case.answer in outcome.block)
    return out


METRICS = (
    "session recall_any@5",
    "session recall_all@5",
    "turn recall_any@10",
    "served turn recall_any",
    "served session recall_all",
    "served answer shown",
)
PAIRED = ("turn recall_any@10", "served turn recall_any", "served answer shown")


def paired(variant: Sequence[float | None], product: Sequence[float | None]) -> str:
    """``+a/-b``: questions the variant finds and the product misses / the reverse."""
    both = [
        (v, p) for v, p in zip(variant, product, strict=True) if v is not None and p is not None
    ]
    gained = sum(v > p for v, p in both)
    lost = sum(v < p for v, p in both)
    return f"+{gained}/-{lost}"


def summarize(
    cases: Sequence[Case], rows: Sequence[Mapping[str, Mapping[str, float]]], keys: Sequence[str]
) -> dict[str, dict[str, Any]]:
    """Per variant: mean metrics, per-type turn recall_any@10, median tokens, paired counts.

    ``rows[i][key]`` holds case ``i``'s scores under variant ``key``; a read-only or served-only
    variant shares the product's figures where it did not run (its metric is then absent).
    """
    kinds = sorted({c.kind for c in cases})
    out: dict[str, dict[str, Any]] = {}
    for key in keys:
        mine = [r.get(key, {}) for r in rows]
        table: dict[str, Any] = {"questions": sum(bool(m) for m in mine)}
        for metric in METRICS:
            values = [m[metric] for m in mine if metric in m]
            table[metric] = round(statistics.fmean(values), 4) if values else None
        tokens = [m["tokens"] for m in mine if "tokens" in m]
        table["tokens median"] = statistics.median(tokens) if tokens else None
        table["turn recall_any@10 by type"] = {}
        for kind in kinds:
            values = [
                m["turn recall_any@10"]
                for m, c in zip(mine, cases, strict=True)
                if c.kind == kind and "turn recall_any@10" in m
            ]
            table["turn recall_any@10 by type"][kind] = (
                {"mean": round(statistics.fmean(values), 4), "questions": len(values)}
                if values
                else None
            )
        if key != PRODUCT:
            base = [r.get(PRODUCT, {}) for r in rows]
            table["paired vs product"] = {
                metric: paired([m.get(metric) for m in mine], [b.get(metric) for b in base])
                for metric in PAIRED
                if any(metric in m for m in mine)
            }
        out[key] = table
    return out


# ---------------------------------------------------------------- asking a memory


def ask(
    ports: MemoryPorts,
    search: bool,
    *,
    tenant: str,
    agent: str,
    text: str,
    now: float,
    seed: str,
    counter: TokenCounter,
    session_of: Callable[[str], Hashable],
    turn_of: Callable[[tuple[str, int]], Hashable | None],
) -> Outcome:
    """``text`` through ``search_episodes`` (unless not ``search``) and ``bootstrap``."""
    outcome = Outcome()
    if search:
        form = query_form(text, ports.pii, pseudonyms_for(ports.pseudonym_key, tenant))
        result = Application(ports).handle(
            SearchEpisodes(
                tenant,
                agent,
                text,
                top_episodes=TOP,
                top_units=TOP,
                as_of=now,
                query_vector=ports.embedder.embed_query(form),
            )
        )
        outcome.sessions = lme.unique(session_of(h.episode.run_id) for h in result.episodes)
        turns = (turn_of((h.run_id, h.unit.seq)) for h in result.units if h.unit.kind == "message")
        outcome.turns = lme.unique(t for t in turns if t is not None)
    request = parse_bootstrap_request({"tenant_id": tenant, "agent_id": agent, "task": text})
    reply = lme.reproducible_block(bootstrap(request, ports), seed)
    block = served(reply, counter)
    outcome.served_sessions = {session_of(r) for r in block.runs}
    outcome.served_turns = {t for u in block.units if (t := turn_of(u)) is not None}
    outcome.tokens = block.tokens
    outcome.block = lme.flat_lower(str(reply.get("context") or ""))
    return outcome


def ask_variants(
    ports: MemoryPorts, ask_one: Callable[[MemoryPorts, bool], Outcome], *, reads: bool = True
) -> dict[str, Outcome]:
    """The product and (with ``reads``) every read and served variant on one memory."""
    out = {PRODUCT: ask_one(ports, True)}
    if not reads:
        return out
    for name, patch in READ_VARIANTS.items():
        if name != PRODUCT:
            with patch():
                out[f"read: {name}"] = ask_one(ports, True)
    for name, (overrides, patch) in SERVED_VARIANTS.items():
        with patch():
            out[f"served: {name}"] = ask_one(with_episodic(ports, overrides), False)
    return out


# ---------------------------------------------------------------- LongMemEval


def lme_case(question: lme.Question) -> Case:
    return Case(
        question.question_id,
        question.question_type,
        frozenset(question.answer_sessions),
        frozenset(question.evidence_turns),
        question.answer_span,
    )


def run_longmemeval(
    questions: Sequence[lme.Question],
    embedder: lme.CachedEmbedder | TimedEmbedder,
    counter: TokenCounter,
    *,
    pii: PiiDetector | None = None,
    calibrations: Mapping[str, Calibration] | None = None,
    writes: Iterable[str] = WRITE_VARIANTS,
) -> dict[str, Any]:
    """Every variant on every question (of the write variants, those named in ``writes``);
    per question scores and write costs, and the tables (``pii`` and ``calibrations`` as in
    ``benchmarks.longmemeval.open_memory``).
    """
    write_variants = chosen_writes(writes)
    timed = embedder.inner if isinstance(embedder, lme.CachedEmbedder) else embedder
    counting = TimedEmbedder(embedder)
    cases, rows, costs = [], [], []
    started = time.perf_counter()
    for i, question in enumerate(questions, start=1):
        lme.progress(
            f"question {i}/{len(questions)} {question.question_id} ({question.question_type}), "
            f"elapsed {time.perf_counter() - started:.0f} s"
        )
        case = lme_case(question)
        events, unit_map = lme.events_for(question)
        session_of = {s.run_id: s.session_id for s in question.sessions}
        row: dict[str, dict[str, float]] = {}
        cost: dict[str, dict[str, Any]] = {}
        for name, overrides in write_variants.items():
            with tempfile.TemporaryDirectory(prefix="ablation-") as tmp:
                ports = with_episodic(
                    lme.open_memory(Path(tmp), question, counting, pii, calibrations), overrides
                )
                seconds, chars = timed.seconds, timed.chars
                misses = embedder.misses if isinstance(embedder, lme.CachedEmbedder) else 0
                counting.document_chars = 0
                start = time.perf_counter()
                locomo.load_into_memory(ports, events)
                embedded = counting.document_chars
                cost[name] = {
                    "load_s": round(time.perf_counter() - start, 3),
                    "model_s": round(timed.seconds - seconds, 3),
                    "model_chars": timed.chars - chars,
                    "chars_embedded": embedded,
                    "cache_misses": (
                        embedder.misses - misses
                        if isinstance(embedder, lme.CachedEmbedder)
                        else None
                    ),
                }
                warm = Application(ports).handle(
                    SearchEpisodes(
                        lme.TENANT, question.agent_id, "warm-up", top_episodes=len(events) + 1
                    )
                )
                if len(warm.episodes) != len(events):
                    raise RuntimeError(f"{len(warm.episodes)} live episodes, {len(events)} runs")

                ask_one = functools.partial(
                    ask,
                    tenant=lme.TENANT,
                    agent=question.agent_id,
                    text=question.text,
                    now=question.now,
                    seed=question.question_id,
                    counter=counter,
                    session_of=session_of.__getitem__,
                    turn_of=unit_map.get,
                )
                outcomes = ask_variants(ports, ask_one, reads=name == PRODUCT)
            for key, outcome in outcomes.items():
                row[key if name == PRODUCT else f"write: {name}"] = scores(case, outcome)
        cases.append(case)
        rows.append(row)
        costs.append(cost)
        product = row[PRODUCT]
        lme.progress(
            f"  turn@10 {product.get('turn recall_any@10')}, served turn "
            f"{product.get('served turn recall_any')}, model "
            f"{sum(c['model_s'] for c in cost.values()):.1f} s"
        )
    tables = summarize(cases, rows, variant_keys(write_variants))
    for name in write_variants:
        key = PRODUCT if name == PRODUCT else f"write: {name}"
        per = [c[name] for c in costs]
        tables[key]["write cost"] = {
            "chars embedded per question (mean)": round(
                statistics.fmean(c["chars_embedded"] for c in per)
            ),
            "model s per question (mean, cache misses only)": round(
                statistics.fmean(c["model_s"] for c in per), 2
            ),
            "model s total (cache misses only)": round(sum(c["model_s"] for c in per), 1),
            "cache misses": sum(c["cache_misses"] or 0 for c in per),
        }
    return {
        "tables": tables,
        "questions": [
            {"question_id": c.case_id, "question_type": c.kind, "scores": r, "write": w}
            for c, r, w in zip(cases, rows, costs, strict=True)
        ],
    }


# ---------------------------------------------------------------- LoCoMo


def _session_number(run_id: str) -> int:
    return int(run_id.removeprefix("session-"))


def run_locomo(
    files: Sequence[Path],
    embedder: Any,
    counter: TokenCounter,
    *,
    writes: Iterable[str] = WRITE_VARIANTS,
) -> dict[str, Any]:
    """Read and served variants on each LoCoMo conversation (one memory each), and the write
    variants named in ``writes`` (a memory each, searched as the product is).
    """
    write_variants = chosen_writes(writes)
    cases, rows = [], []
    for path in files:
        conversation = locomo.load_conversation(path)
        lme.progress(
            f"LoCoMo {conversation.name}: {len(conversation.sessions)} sessions, "
            f"{len(conversation.questions)} questions"
        )
        events, units = locomo.events_from_sessions(conversation)
        now = locomo.benchmark_clock(conversation)
        mine: list[dict[str, dict[str, float]]] = [{} for _ in conversation.questions]
        for name, overrides in write_variants.items():
            with tempfile.TemporaryDirectory(prefix="ablation-locomo-") as tmp:
                ports = with_episodic(
                    locomo.open_memory(Path(tmp), conversation, embedder), overrides
                )
                locomo.load_into_memory(ports, events)
                for question, row in zip(conversation.questions, mine, strict=True):
                    ask_one = functools.partial(
                        ask,
                        tenant=locomo.TENANT,
                        agent=conversation.agent_id,
                        text=question.text,
                        now=now,
                        seed=f"{conversation.name}:{question.qa_index}",
                        counter=counter,
                        session_of=_session_number,
                        turn_of=units.get,
                    )
                    case = locomo_case(conversation.name, question)
                    outcomes = ask_variants(ports, ask_one, reads=name == PRODUCT)
                    for key, outcome in outcomes.items():
                        row[key if name == PRODUCT else f"write: {name}"] = scores(case, outcome)
        cases += [locomo_case(conversation.name, q) for q in conversation.questions]
        rows += mine
    keys = variant_keys(write_variants)
    splits: dict[str, dict[str, Any]] = {}
    for split in (locomo.DEV, locomo.HELD_OUT):
        # A variant is chosen on dev and checked on the held-out conversations.
        inside = [i for i, case in enumerate(cases) if _split(case) == split]
        if inside:
            part = summarize([cases[i] for i in inside], [rows[i] for i in inside], keys)
            splits[split] = {"tables": part, "questions": len(inside)}
    return {"tables": summarize(cases, rows, keys), "questions": len(cases), "by_split": splits}


def _split(case: Case) -> str:
    """The split of a LoCoMo case (its id is ``conversation:qa_index``)."""
    return locomo.split_of(case.case_id.rsplit(":", 1)[0])


def locomo_case(conversation: str, question: locomo.Question) -> Case:
    return Case(
        f"{conversation}:{question.qa_index}",
        f"category {question.category}",
        frozenset(question.sessions),
        frozenset(question.evidence),
    )


# ---------------------------------------------------------------- report


def spread(questions: Sequence[lme.Question], limit: int) -> list[lme.Question]:
    """The first ``limit`` questions taken in turn from each type (file order within a type)."""
    by_type: dict[str, list[lme.Question]] = {}
    for question in questions:
        by_type.setdefault(question.question_type, []).append(question)
    chosen: list[lme.Question] = []
    depth = 0
    while len(chosen) < limit and any(depth < len(v) for v in by_type.values()):
        chosen += [v[depth] for v in by_type.values() if depth < len(v)][: limit - len(chosen)]
        depth += 1
    return chosen


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def variant_table(tables: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """One row per variant: the means, median tokens and paired counts against the product."""
    lines = [
        "| variant | n | " + " | ".join(METRICS) + " | tokens median | "
        "paired turn@10 | paired served turn | paired answer shown |",
        "|---|---|" + "---|" * (len(METRICS) + 4),
    ]
    for key, table in tables.items():
        pairs = table.get("paired vs product", {})
        cells = [_num(table[m]) for m in METRICS]
        tokens = table["tokens median"]
        lines.append(
            f"| {key} | {table['questions']} | "
            + " | ".join(cells)
            + f" | {'-' if tokens is None else f'{tokens:.0f}'} | "
            + " | ".join(pairs.get(m, "") for m in PAIRED)
            + " |"
        )
    return lines


def type_table(tables: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Turn recall_any@10 per question type and variant (variants that searched)."""
    searched = {k: t for k, t in tables.items() if t["turn recall_any@10"] is not None}
    kinds = list(next(iter(searched.values()))["turn recall_any@10 by type"]) if searched else []
    first = next(iter(searched.values())) if searched else {}
    counts = [(first["turn recall_any@10 by type"][k] or {}).get("questions", 0) for k in kinds]
    lines = [
        "| variant | "
        + " | ".join(f"{k} ({n})" for k, n in zip(kinds, counts, strict=True))
        + " |",
        "|---|" + "---|" * len(kinds),
    ]
    for key, table in searched.items():
        cells = [_num((table["turn recall_any@10 by type"][k] or {}).get("mean")) for k in kinds]
        lines.append(f"| {key} | " + " | ".join(cells) + " |")
    return lines


def cost_table(tables: Mapping[str, Mapping[str, Any]]) -> list[str]:
    lines = [
        "| write variant | chars embedded per question | model s per question | model s total "
        "| cache misses |",
        "|---|---|---|---|---|",
    ]
    for key, table in tables.items():
        cost = table.get("write cost")
        if cost:
            lines.append(
                f"| {key} | {cost['chars embedded per question (mean)']:,} | "
                f"{cost['model s per question (mean, cache misses only)']:.2f} | "
                f"{cost['model s total (cache misses only)']:.1f} | {cost['cache misses']} |"
            )
    return lines


def markdown(result: Mapping[str, Any]) -> str:
    """The tables as Markdown."""
    config = result["config"]
    lines = [
        "# Ablation of the retrieval components (paired: one product, one change at a time)",
        "",
        f"Generated by `benchmarks/research/longmemeval_ablation.py`; {config['note']}",
        "",
    ]
    if "longmemeval" in result:
        tables = result["longmemeval"]["tables"]
        lines += [
            f"## LongMemEval ({config['longmemeval_questions']} questions, no abstention)",
            "",
            *variant_table(tables),
            "",
            "Paired: +a/-b = questions the variant finds that the product misses / misses "
            "that the product finds. Read variants rerun search and bootstrap on the product's "
            "memory; served variants rerun bootstrap only (search columns blank).",
            "",
            "### Turn recall_any@10 per question type",
            "",
            *type_table(tables),
            "",
            "### Write cost (model seconds count embedding-cache misses only)",
            "",
            *cost_table(tables),
            "",
        ]
    if "locomo" in result:
        tables = result["locomo"]["tables"]
        lines += [
            f"## LoCoMo ({result['locomo']['questions']} questions)",
            "",
            *variant_table(tables),
            "",
            "### Turn recall_any@10 per category",
            "",
            *type_table(tables),
            "",
        ]
        for split, part in result["locomo"].get("by_split", {}).items():
            lines += [
                f"### {split} conversations ({part['questions']} questions)",
                "",
                *variant_table(part["tables"]),
                "",
            ]
    return "\n".join(lines)


# ---------------------------------------------------------------- entry point


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--data", type=Path, default=None, help="LongMemEval file or folder")
    parser.add_argument("--locomo", type=Path, default=None, help="LoCoMo folder (or one file)")
    parser.add_argument("--no-longmemeval", action="store_true", help="LoCoMo only")
    parser.add_argument("--out", type=Path, default=REPO / "build" / "ablation.json")
    parser.add_argument("--limit", type=int, default=None, help="the first N scored questions")
    parser.add_argument(
        "--spread", action="store_true", help="with --limit: take the types in turn"
    )
    parser.add_argument("--types", nargs="+", default=None, help="question types to keep")
    parser.add_argument(
        "--no-write-variants", action="store_true", help="the product's write path only"
    )
    parser.add_argument(
        "--writes",
        nargs="+",
        default=None,
        choices=list(WRITE_VARIANTS)[1:],
        help="the write variants to run (default: all)",
    )
    parser.add_argument("--cache", type=Path, default=REPO / DEFAULT_CACHE)
    parser.add_argument("--no-cache", action="store_true")
    args = parser.parse_args(argv)
    writes = [] if args.no_write_variants else (args.writes or list(WRITE_VARIANTS))
    local = LocalEmbedder()
    timed = TimedEmbedder(local)
    embedder: TimedEmbedder | lme.CachedEmbedder = (
        timed if args.no_cache else lme.CachedEmbedder(timed, args.cache)
    )
    result: dict[str, Any] = {
        "benchmark": "paired ablation of the retrieval components",
        "config": {
            "limit": args.limit,
            "spread": args.spread,
            "types": sorted(args.types or []),
            "write_variants_run": [n for n in WRITE_VARIANTS if n in writes and n != PRODUCT],
            "cache": not args.no_cache,
            "embedding_model": local.model_id,
            "write_variants": WRITE_VARIANTS,
            "served_variants": {k: v[0] for k, v in SERVED_VARIANTS.items()},
            "note": (
                "search_episodes(top 10 episodes, top 10 units, query form embedded) and "
                "bootstrap(task=question); served = benchmarks/served.py on the block"
            ),
        },
    }
    if not args.no_longmemeval:
        data = dataset("longmemeval", args.data)
        questions = [q for q in lme.load_questions(data) if not q.abstention]
        if args.types:
            questions = [q for q in questions if q.question_type in set(args.types)]
        if args.limit:
            questions = spread(questions, args.limit) if args.spread else questions[: args.limit]
        result["config"]["longmemeval_files"] = sorted({q.source for q in questions})
        result["config"]["longmemeval_questions"] = len(questions)
        result["longmemeval"] = run_longmemeval(questions, embedder, local, writes=writes)
    if args.locomo is not None:
        files = locomo.conversation_files(args.locomo)
        result["config"]["locomo_files"] = [f.name for f in files]
        result["locomo"] = run_locomo(files, embedder, local, writes=writes)
    if isinstance(embedder, lme.CachedEmbedder):
        result["config"]["cache_hits"], result["config"]["cache_misses"] = (
            embedder.hits,
            embedder.misses,
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    args.out.with_suffix(".md").write_text(markdown(result), encoding="utf-8")
    lme.progress(f"wrote {args.out.name} and {args.out.with_suffix('.md').name}")
    print(markdown(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
