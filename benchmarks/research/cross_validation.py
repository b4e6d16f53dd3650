"""Each retrieval component decided by cross-validation on the dev questions of both datasets.

Every question of LongMemEval_S dev (``$AGENT_MEMORY_BENCH_DATA/longmemeval``) and of LoCoMo's
dev conversations (26 and 30) is loaded into a fresh local memory once, through the product
(``local_ports``, the real embedder and PII detector), and asked through ``SearchEpisodes``
under each variant of the configuration the product accepts: each :class:`RankingPolicy`
weight at 0 (the component off), half, its default and twice it, the neighbours' words, the
episodic gate and candidate cut at a few values, and the write path's ``embedded_context``
(a store written per value). Nothing in the product is patched: a variant is
``EpisodicPolicy.ranking`` (or another ``EpisodicPolicy`` field) on the same stored memory.

Per question the objective is the mean of turn recall_any@10 and session recall (recall_all@5
on LongMemEval, where a question's evidence spans sessions; recall_any@5 on LoCoMo). The
questions are split into folds, stratified by dataset and question type; for each component
and fold, its value is chosen on the other folds and scored on the fold left out, beside the
component off, paired per question. A component earns its place when the cross-validated
gain over "off" is positive with its 95% bootstrap interval above zero. From the repository
root::

    .venv/bin/python benchmarks/research/cross_validation.py --cache CACHE_DIR

``--cache`` keeps embeddings between runs (the first LongMemEval pass embeds every haystack:
about half an hour here). ``--limit N`` takes the first N LongMemEval questions. Progress goes
to stderr.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import itertools
import json
import random
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

if __package__ in {None, ""}:  # run as a script: make ``benchmarks`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from agent_memory.adapters.local.embeddings import LocalEmbedder
from agent_memory.app import Application
from agent_memory.app.messages import Bootstrap, SearchEpisodes
from agent_memory.core.api.bootstrap_request import parse_bootstrap_request
from agent_memory.core.model.policies import EpisodicPolicy, RankingPolicy
from agent_memory.core.ports import Embedder, MemoryPorts
from agent_memory.core.privacy.scrubbing import pseudonyms_for, query_form
from benchmarks import longmemeval, retrieval
from benchmarks.bench_consolidation import TimedEmbedder
from benchmarks.bench_data import dataset
from benchmarks.metrics import question_metrics
from benchmarks.served import Served, TokenCounter, served

TOP = 10
FOLDS = 5
RESAMPLES = 2_000
SEED = 46

Variant = Callable[[EpisodicPolicy], EpisodicPolicy]


def ranking(**weights: float) -> Variant:
    """The policy with these ranking weights (the others at their defaults)."""

    def apply(policy: EpisodicPolicy) -> EpisodicPolicy:
        return dataclasses.replace(policy, ranking=dataclasses.replace(policy.ranking, **weights))

    return apply


def episodic(**fields: Any) -> Variant:
    """The policy with these episodic fields."""

    def apply(policy: EpisodicPolicy) -> EpisodicPolicy:
        return dataclasses.replace(policy, **fields)

    return apply


@dataclasses.dataclass(frozen=True)
class Recipe:
    """A whole retrieval configuration: what its store is written with, how it is read."""

    embedded_context: int
    neighbour_window: int
    neighbour_weight: float
    ranking: RankingPolicy

    def variant(self) -> Variant:
        return episodic(
            embedded_context=self.embedded_context,
            neighbour_window=self.neighbour_window,
            neighbour_weight=self.neighbour_weight,
            ranking=self.ranking,
        )


# The recipe as tuned on the dev questions before issue 46.
TUNED = Recipe(1, 2, 0.5, RankingPolicy(standing=1, period=1, recency=1, dated=0.5, speaker=1))


# The grid of whole recipes: each component the elimination below may drop, at its values
# ("off" first). A recipe is one value of each; the rest is the tuned recipe's.
GRID: dict[str, tuple[float, ...]] = {
    "dense": (0.0, 1.0),
    "standing": (0.0, 1.0),
    "embedded_context": (0, 1),
    "neighbour_window": (0, 1, 2),
    "time": (0.0, 1.0),
    "speaker": (0.0, 1.0),
}


def grid_recipe(point: Mapping[str, float]) -> Recipe:
    """The tuned recipe with the grid's components at ``point``."""
    hints = {name: weight * point["time"] for name, weight in TIME_HINTS.items()}
    return Recipe(
        int(point["embedded_context"]),
        int(point["neighbour_window"]),
        TUNED.neighbour_weight,
        dataclasses.replace(
            TUNED.ranking,
            dense=point["dense"],
            standing=point["standing"],
            speaker=point["speaker"],
            **hints,
        ),
    )


TUNED_POINT: dict[str, float] = {
    "dense": 1.0,
    "standing": 1.0,
    "embedded_context": TUNED.embedded_context,
    "neighbour_window": TUNED.neighbour_window,
    "time": 1.0,
    "speaker": 1.0,
}


def grid_key(point: Mapping[str, float]) -> str:
    return "grid=" + ",".join(f"{name}:{point[name]:g}" for name in GRID)


def grid_points() -> list[dict[str, float]]:
    return [dict(zip(GRID, values, strict=True)) for values in itertools.product(*GRID.values())]


# The gate that ends what bootstrap serves: the embedding model's calibrated similarity
# threshold, opened by the share of the task's word weight a run holds. Judged on the block
# served for a question, and for a question the memory cannot answer (another one's).
GATES: dict[str, Variant] = {
    "calibrated, words 0.5": episodic(min_similarity=None, min_word_share=0.5),
    "no gate": episodic(min_similarity=-1.0, min_word_share=None),
    "calibrated, no words": episodic(min_similarity=None, min_word_share=None),
    "calibrated, words 0.25": episodic(min_similarity=None, min_word_share=0.25),
    "calibrated, words 0.75": episodic(min_similarity=None, min_word_share=0.75),
}
UNRELATED_PER_QUESTION = {"longmemeval": 3, "locomo": 1}


def default_gate() -> str:
    policy = EpisodicPolicy()
    if policy.min_similarity is not None:
        return "no gate" if policy.min_similarity <= -1 else "custom"
    share = policy.min_word_share
    return "calibrated, no words" if share is None else f"calibrated, words {share:g}"


# The write path's one setting: what a short message is embedded with (its neighbours). Each
# value needs its own store; the read variants are asked of the default's.
WRITE_COMPONENT = "embedded_context"
WRITE_VALUES = (0, 1, 2)


def write_variant(value: int) -> Variant:
    return episodic(embedded_context=value)


# The query's time hints, one mechanism: the period it names, the newest runs for the current
# state, units that date their event for a question about time. Tried together, scaled from
# the weights they were tuned at.
TIME_HINTS = {"period": 1.0, "recency": 1.0, "dated": 0.5}
TIME_SCALES = (0.0, 0.5, 1.0, 2.0)


def time_hints(scale: float) -> Variant:
    return ranking(**{name: weight * scale for name, weight in TIME_HINTS.items()})


def default_time_scale() -> str:
    """The label of :data:`TIME_SCALES` the default policy's time weights sit at."""
    default = RankingPolicy()
    for scale in TIME_SCALES:
        if all(getattr(default, n) == w * scale for n, w in TIME_HINTS.items()):
            return f"{scale:g}"
    return "custom"


def component_values() -> dict[str, dict[str, Variant]]:
    """Each component and the values it is tried at, by label; the first is "off"."""
    tuned = TUNED.ranking
    components: dict[str, dict[str, Variant]] = {}
    for name in RankingPolicy.__slots__:
        base = float(getattr(tuned, name))
        values = (0.0, base / 2, base, base * 2)
        components[name] = {f"{v:g}": ranking(**{name: v}) for v in values}
    components["time"] = {f"{v:g}": time_hints(v) for v in TIME_SCALES}
    components["neighbour_window"] = {str(v): episodic(neighbour_window=v) for v in (0, 1, 2, 3)}
    components["neighbour_weight"] = {
        f"{v:g}": episodic(neighbour_weight=v) for v in (0.0, 0.25, 0.5, 1.0)
    }
    components[WRITE_COMPONENT] = {str(v): write_variant(v) for v in WRITE_VALUES}
    components["min_word_share"] = {
        str(v): episodic(min_word_share=v) for v in (None, 0.25, 0.5, 0.75)
    }
    components["rerank_candidates"] = {
        str(v): episodic(rerank_candidates=v) for v in (100_000, 16, 32, 64, 128)
    }
    return components


DEFAULTS = {
    **{name: f"{float(getattr(RankingPolicy(), name)):g}" for name in RankingPolicy.__slots__},
    "time": default_time_scale(),
    WRITE_COMPONENT: str(EpisodicPolicy().embedded_context),
    "neighbour_window": str(EpisodicPolicy().neighbour_window),
    "neighbour_weight": f"{EpisodicPolicy().neighbour_weight:g}",
    "min_word_share": str(EpisodicPolicy().min_word_share),
    "rerank_candidates": str(EpisodicPolicy().rerank_candidates),
}


def progress(message: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} {message}", file=sys.stderr, flush=True)


def with_policy(ports: MemoryPorts, variant: Variant) -> MemoryPorts:
    """``ports`` answering under ``variant`` of its episodic policy (same store, same index)."""
    policies = dataclasses.replace(ports.policies, episodic=variant(ports.policies.episodic))
    return dataclasses.replace(ports, policies=policies)


def ask(ports: MemoryPorts, agent_id: str, text: str, tenant: str, now: float | None) -> Any:
    """One ``SearchEpisodes`` of ``text``, its query embedded as the product embeds it."""
    form = query_form(text, ports.pii, pseudonyms_for(ports.pseudonym_key, tenant))
    query = ports.embedder.embed_query(form)
    return Application(ports).handle(
        SearchEpisodes(
            tenant, agent_id, text, top_episodes=TOP, top_units=TOP, as_of=now, query_vector=query
        )
    )


def scored(
    session: list[Any], turn: list[Any], relevant: Mapping[str, Any], *, all_sessions: bool
) -> dict[str, float]:
    """A question's metrics: session recall@5 (all or any), turn recall_any@10, objective."""
    s = question_metrics(session, relevant["session"])
    t = question_metrics(turn, relevant["turn"])
    session_recall = s["recall_all@5"] if all_sessions else s["recall_any@5"]
    return {
        "session_recall@5": session_recall,
        "turn_recall_any@10": t["recall_any@10"],
        "objective": (session_recall + t["recall_any@10"]) / 2,
        **{f"session {name}": value for name, value in s.items()},
        **{f"turn {name}": value for name, value in t.items()},
    }


# ---------------------------------------------------------------- the datasets


def asked_variants(
    components: Mapping[str, Mapping[str, Variant]], written: int
) -> Iterator[tuple[str, Variant]]:
    """The variants to ask of a store written with ``embedded_context=written``: every read
    variant of the default's store, the default read of the others, and each recipe of the
    grid its store is written for.
    """
    if written == EpisodicPolicy().embedded_context:
        for component, values in components.items():
            if component == WRITE_COMPONENT:
                continue
            for label, variant in values.items():
                yield f"{component}={label}", variant
    yield f"{WRITE_COMPONENT}={written}", write_variant(written)
    for point in grid_points():
        recipe = grid_recipe(point)
        if recipe.embedded_context == written:
            yield grid_key(point), recipe.variant()


def serve(
    ports: MemoryPorts, agent_id: str, task: str, tenant: str, counter: TokenCounter
) -> Served:
    """What bootstrap serves for ``task``: its block's units, runs and size."""
    request = parse_bootstrap_request({"tenant_id": tenant, "agent_id": agent_id, "task": task})
    reply = Application(ports).handle(Bootstrap(request))
    return served(longmemeval.reproducible_block(reply, task), counter)


def gate_rows(
    ports: MemoryPorts,
    agent_id: str,
    tenant: str,
    counter: TokenCounter,
    task: str,
    unrelated: Sequence[str],
    scores: Callable[[Served], tuple[float, float]],
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Per gate: what bootstrap serves for ``task`` (its evidence turn and sessions, as
    ``scores`` reads them, and tokens), and for the ``unrelated`` tasks (whether anything is
    served, and tokens).
    """
    answered: dict[str, Any] = {}
    others: dict[str, Any] = {}
    for gate, variant in GATES.items():
        gated = with_policy(ports, variant)
        block = serve(gated, agent_id, task, tenant, counter)
        turn, session = scores(block)
        answered[gate] = {
            "turn recall_any": turn,
            "session recall": session,
            "objective": (turn + session) / 2,
            "tokens": block.tokens,
        }
        blocks = [serve(gated, agent_id, text, tenant, counter) for text in unrelated]
        others[gate] = {
            "served": float(np.mean([bool(b.runs) for b in blocks])),
            "tokens": float(np.mean([b.tokens for b in blocks])),
        }
    return answered, others


def longmemeval_scores(
    question: longmemeval.Question,
    unit_map: Mapping[tuple[str, int], tuple[str, int]],
    session_of: Mapping[str, str],
    block: Served,
) -> tuple[float, float]:
    """A served block's evidence turn (any) and sessions (all) for a LongMemEval question."""
    turns = {unit_map[u] for u in block.units if u in unit_map}
    runs = {session_of[r] for r in block.runs}
    return float(bool(turns & question.evidence_turns)), float(question.answer_sessions <= runs)


def locomo_scores(
    question: retrieval.Question, units: Mapping[tuple[str, int], str], block: Served
) -> tuple[float, float]:
    """A served block's evidence turn (any) and session (any) for a LoCoMo question."""
    found = retrieval.served_scores(block, question, units)
    return found["turn recall_any"], found["session recall_any"]


def longmemeval_rows(
    questions: Sequence[longmemeval.Question],
    embedder: Embedder,
    components: Mapping[str, Mapping[str, Variant]],
    counter: TokenCounter,
) -> Iterator[dict[str, Any]]:
    """Per scored LongMemEval question: its metrics under every variant, and what bootstrap
    serves under every gate for it and for other questions' tasks.
    """
    answerable = [q for q in questions if not q.abstention]
    for i, question in enumerate(questions, start=1):
        if question.abstention or not question.answer_sessions or not question.evidence_turns:
            continue
        progress(f"longmemeval {i}/{len(questions)} {question.question_id}")
        events, unit_map = longmemeval.events_for(question)
        session_of = {s.run_id: s.session_id for s in question.sessions}
        relevant = {"session": question.answer_sessions, "turn": question.evidence_turns}
        row: dict[str, Any] = {
            "dataset": "longmemeval",
            "id": question.question_id,
            "stratum": f"longmemeval/{question.question_type}",
            "variants": {},
        }
        for written in WRITE_VALUES:
            with tempfile.TemporaryDirectory(prefix="cv-lme-") as tmp:
                opened = longmemeval.open_memory(Path(tmp), question, embedder)
                ports = with_policy(opened, write_variant(written))
                retrieval.load_into_memory(ports, events)
                for key, variant in asked_variants(components, written):
                    found = ask(
                        with_policy(ports, variant),
                        question.agent_id,
                        question.text,
                        longmemeval.TENANT,
                        question.now,
                    )
                    runs = [h["run_id"] for h in found["episodes"]]
                    sessions = list(dict.fromkeys(session_of[r] for r in runs))
                    turns = list(
                        dict.fromkeys(
                            unit_map[(h["run_id"], h["seq"])]
                            for h in found["units"]
                            if h["kind"] == "message"
                        )
                    )
                    row["variants"][key] = scored(sessions, turns, relevant, all_sessions=True)
                if written == EpisodicPolicy().embedded_context:
                    at = answerable.index(question)
                    others = [
                        answerable[(at + k) % len(answerable)].text
                        for k in range(1, UNRELATED_PER_QUESTION["longmemeval"] + 1)
                    ]

                    row["served"], row["unrelated"] = gate_rows(
                        ports,
                        question.agent_id,
                        longmemeval.TENANT,
                        counter,
                        question.text,
                        others,
                        functools.partial(longmemeval_scores, question, unit_map, session_of),
                    )
        yield row


def locomo_rows(
    conversations: Sequence[retrieval.Conversation],
    embedder: Embedder,
    components: Mapping[str, Mapping[str, Variant]],
    counter: TokenCounter,
) -> Iterator[dict[str, Any]]:
    """Per LoCoMo dev question: its metrics under every variant, and what bootstrap serves
    under every gate for it and for a question of another conversation.
    """
    for at, conversation in enumerate(conversations):
        other = conversations[(at + 1) % len(conversations)].questions
        progress(f"locomo {conversation.name}: {len(conversation.sessions)} sessions")
        events, units = retrieval.events_from_sessions(conversation)
        rows: list[dict[str, Any]] = [
            {
                "dataset": "locomo",
                "id": f"{conversation.name}/{q.qa_index}",
                "stratum": f"locomo/{q.category}",
                "variants": {},
            }
            for q in conversation.questions
        ]
        for written in WRITE_VALUES:
            with tempfile.TemporaryDirectory(prefix="cv-locomo-") as tmp:
                opened = retrieval.open_memory(Path(tmp), conversation, embedder)  # type: ignore[arg-type]
                ports = with_policy(opened, write_variant(written))
                retrieval.load_into_memory(ports, events)
                for key, variant in asked_variants(components, written):
                    asked = with_policy(ports, variant)
                    for row, q in zip(rows, conversation.questions, strict=True):
                        found = ask(asked, conversation.agent_id, q.text, retrieval.TENANT, None)
                        sessions = [
                            int(h["run_id"].removeprefix("session-")) for h in found["episodes"]
                        ]
                        turns = [
                            units[(h["run_id"], h["seq"])]
                            for h in found["units"]
                            if h["kind"] == "message"
                        ]
                        relevant = {"session": q.sessions, "turn": q.evidence}
                        row["variants"][key] = scored(sessions, turns, relevant, all_sessions=False)
                if written == EpisodicPolicy().embedded_context:
                    for j, (row, q) in enumerate(zip(rows, conversation.questions, strict=True)):
                        others = [
                            other[(j + k) % len(other)].text
                            for k in range(UNRELATED_PER_QUESTION["locomo"])
                        ]
                        row["served"], row["unrelated"] = gate_rows(
                            ports,
                            conversation.agent_id,
                            retrieval.TENANT,
                            counter,
                            q.text,
                            others,
                            functools.partial(locomo_scores, q, units),
                        )
        yield from rows


# ---------------------------------------------------------------- cross-validation


def folds(rows: Sequence[Mapping[str, Any]], k: int = FOLDS, seed: int = SEED) -> list[int]:
    """Each row's fold: rows dealt round-robin within their stratum, in a seeded shuffle."""
    rng = random.Random(seed)
    order = list(range(len(rows)))
    rng.shuffle(order)
    order.sort(key=lambda i: rows[i]["stratum"])
    fold = [0] * len(rows)
    for position, i in enumerate(order):
        fold[i] = position % k
    return fold


def mean(rows: Sequence[Mapping[str, Any]], key: str, metric: str = "objective") -> float:
    return float(np.mean([r["variants"][key][metric] for r in rows])) if rows else 0.0


def bootstrap(
    differences: Sequence[float], seed: int = SEED, groups: Sequence[str] | None = None
) -> tuple[float, float, float]:
    """The mean of ``differences`` and its 95% percentile bootstrap interval. With ``groups``
    (each difference's dataset), each group weighs the same: resampled within itself, the
    mean is the mean of the groups' means.
    """
    values = np.asarray(differences, dtype=np.float64)
    rng = np.random.default_rng(seed)
    if groups is None:
        means = rng.choice(values, size=(RESAMPLES, len(values)), replace=True).mean(axis=1)
        point = float(values.mean())
    else:
        keys = np.asarray(groups)
        parts = [values[keys == g] for g in dict.fromkeys(groups)]
        means = np.mean(
            [p[rng.integers(0, len(p), size=(RESAMPLES, len(p)))].mean(axis=1) for p in parts],
            axis=0,
        )
        point = float(np.mean([p.mean() for p in parts]))
    low, high = np.percentile(means, [2.5, 97.5])
    return point, float(low), float(high)


def pooled(rows: Sequence[Mapping[str, Any]], values: Sequence[float], balanced: bool) -> float:
    """The mean of ``values`` (one per row); ``balanced``: the mean of each dataset's mean."""
    if not balanced:
        return float(np.mean(values))
    by: dict[str, list[float]] = {}
    for r, v in zip(rows, values, strict=True):
        by.setdefault(r["dataset"], []).append(v)
    return float(np.mean([np.mean(v) for v in by.values()]))


def cross_validate(
    rows: Sequence[Mapping[str, Any]],
    components: Mapping[str, Mapping[str, Variant]],
    defaults: Mapping[str, str] = DEFAULTS,
) -> dict[str, Any]:
    """Per component: the value chosen on each fold's training folds, and the held-out
    paired gain of choosing it over turning the component off (and over the default).
    """
    fold = folds(rows)
    out: dict[str, Any] = {}
    for component, values in components.items():
        labels = list(values)
        off = f"{component}={labels[0]}"
        default = f"{component}={defaults[component]}"
        chosen, gains, over_default = [], [], []
        per_metric: dict[str, list[float]] = {"session_recall@5": [], "turn_recall_any@10": []}
        for f in range(FOLDS):
            train = [r for r, g in zip(rows, fold, strict=True) if g != f]
            test = [r for r, g in zip(rows, fold, strict=True) if g == f]
            best = max(labels, key=lambda v: (mean(train, f"{component}={v}"), v == labels[0]))
            key = f"{component}={best}"
            chosen.append(best)
            for r in test:
                picked, none = r["variants"][key], r["variants"][off]
                gains.append(picked["objective"] - none["objective"])
                over_default.append(picked["objective"] - r["variants"][default]["objective"])
                for metric in per_metric:
                    per_metric[metric].append(picked[metric] - none[metric])
        gain, low, high = bootstrap(gains)
        out[component] = {
            "chosen_per_fold": chosen,
            "gain_over_off": {"mean": gain, "ci95": [low, high]},
            "gain_over_default": dict(
                zip(("mean", "low", "high"), bootstrap(over_default), strict=True)
            ),
            "gain_over_off_by_metric": {m: bootstrap(v) for m, v in per_metric.items()},
            "paired_counts": {
                "better": sum(g > 0 for g in gains),
                "worse": sum(g < 0 for g in gains),
            },
            "dev_means": {
                label: {
                    dataset: mean(
                        [r for r in rows if r["dataset"] == dataset], f"{component}={label}"
                    )
                    for dataset in ("longmemeval", "locomo")
                }
                for label in labels
            },
            "earns_its_place": low > 0,
        }
    return out


HEADLINE = {
    "longmemeval": (
        "session recall_any@5",
        "session recall_all@5",
        "session ndcg@10",
        "turn recall_any@5",
        "turn recall_any@10",
    ),
    "locomo": ("session recall_any@5", "turn recall_any@5", "turn recall_any@10"),
}


def fold_choice(
    rows: Sequence[Mapping[str, Any]],
    keys: Sequence[str],
    score: Callable[[Mapping[str, Any], str], float],
    balanced: bool = False,
) -> tuple[list[str], list[tuple[Mapping[str, Any], str]]]:
    """Per fold, the key of ``keys`` with the best mean ``score`` on the other folds (ties to
    the first), and every row paired with the key chosen for its fold.
    """
    fold = folds(rows)
    chosen: list[str] = []
    held_out: list[tuple[Mapping[str, Any], str]] = []
    for f in range(FOLDS):
        train = [r for r, g in zip(rows, fold, strict=True) if g != f]
        best = max(
            keys,
            key=lambda k: (pooled(train, [score(r, k) for r in train], balanced), -keys.index(k)),
        )
        chosen.append(best)
        held_out += [(r, best) for r, g in zip(rows, fold, strict=True) if g == f]
    return chosen, held_out


def component_gain(
    rows: Sequence[Mapping[str, Any]],
    point: Mapping[str, float],
    component: str,
    balanced: bool = False,
) -> tuple[float, float, float]:
    """The held-out paired gain of ``component`` in the recipe at ``point``: its value chosen
    per fold among its "on" values and off (on the other folds), scored against off;
    ``balanced``: each dataset weighing the same.
    """
    off = {**point, component: GRID[component][0]}
    keys = [grid_key({**point, component: v}) for v in GRID[component]]
    _, held_out = fold_choice(rows, keys, lambda r, k: r["variants"][k]["objective"], balanced)
    return bootstrap(
        [
            r["variants"][k]["objective"] - r["variants"][grid_key(off)]["objective"]
            for r, k in held_out
        ],
        groups=[r["dataset"] for r, _ in held_out] if balanced else None,
    )


def select(
    rows: Sequence[Mapping[str, Any]], balanced: bool = False
) -> tuple[dict[str, float], list[dict[str, Any]]]:
    """Stepwise selection over :data:`GRID` from the tuned recipe. Backward: while some
    component's held-out gain in the recipe has an interval reaching zero, the one with the
    lowest mean gain is turned off. Forward: a component turned off comes back (at its tuned
    value) when its gain in the recipe as it then stands clears zero, the best first. Until
    neither moves. Returns the recipe and the steps (every gain weighed at each).
    """
    point = dict(TUNED_POINT)
    seen = {grid_key(point)}
    steps: list[dict[str, Any]] = []
    while True:
        on = [c for c in GRID if point[c] != GRID[c][0]]
        gains = {c: component_gain(rows, point, c, balanced) for c in on}
        weak = [c for c in on if gains[c][1] <= 0]
        if weak:
            dropped = min(weak, key=lambda c: gains[c][0])
            steps.append({"recipe": dict(point), "gains": gains, "move": f"- {dropped}"})
            point = {**point, dropped: GRID[dropped][0]}
            seen.add(grid_key(point))
            continue
        off = [c for c in GRID if point[c] == GRID[c][0]]
        back = {c: component_gain(rows, {**point, c: TUNED_POINT[c]}, c, balanced) for c in off}
        strong = [
            c for c in off if back[c][1] > 0 and grid_key({**point, c: TUNED_POINT[c]}) not in seen
        ]
        steps.append(
            {
                "recipe": dict(point),
                "gains": gains,
                "gains_back": back,
                "move": f"+ {max(strong, key=lambda c: back[c][0])}" if strong else None,
            }
        )
        if not strong:
            return point, steps
        added = max(strong, key=lambda c: back[c][0])
        point = {**point, added: TUNED_POINT[added]}
        seen.add(grid_key(point))


def elimination_report(rows: Sequence[Mapping[str, Any]], balanced: bool = False) -> dict[str, Any]:
    """The selection on every question, and cross-validated: run on each fold's other
    folds, the recipe it ends at scored on the fold left out (the headline figures).
    """
    point, steps = select(rows, balanced)
    fold = folds(rows)
    per_fold: list[dict[str, float]] = []
    held_out: list[tuple[Mapping[str, Any], str]] = []
    for f in range(FOLDS):
        train = [r for r, g in zip(rows, fold, strict=True) if g != f]
        chosen, _ = select(train, balanced)
        per_fold.append(chosen)
        held_out += [(r, grid_key(chosen)) for r, g in zip(rows, fold, strict=True) if g == f]
    tuned = grid_key(TUNED_POINT)
    figures: dict[str, Any] = {}
    for name in HEADLINE:
        picked = [(r, k) for r, k in held_out if r["dataset"] == name]
        figures[name] = {"questions": len(picked)}
        for metric in HEADLINE[name]:
            cv = [r["variants"][k][metric] for r, k in picked]
            figures[name][metric] = {
                "cross-validated": dict(zip(("mean", "low", "high"), bootstrap(cv), strict=True)),
                "over as tuned": dict(
                    zip(
                        ("mean", "low", "high"),
                        bootstrap(
                            [
                                c - r["variants"][tuned][metric]
                                for c, (r, _) in zip(cv, picked, strict=True)
                            ]
                        ),
                        strict=True,
                    )
                ),
                "recipe, every question": mean([r for r, _ in picked], grid_key(point), metric),
                "as tuned, every question": mean([r for r, _ in picked], tuned, metric),
            }
    by_type: dict[str, dict[str, float]] = {}
    for stratum in sorted({r["stratum"] for r in rows}):
        mine = [(r, k) for r, k in held_out if r["stratum"] == stratum]
        by_type[stratum] = {"questions": len(mine)}
        for metric in ("turn_recall_any@10", "session_recall@5"):
            selected = [r["variants"][k][metric] for r, k in mine]
            as_tuned = [r["variants"][tuned][metric] for r, _ in mine]
            by_type[stratum][f"{metric} cross-validated"] = float(np.mean(selected))
            by_type[stratum][f"{metric} tuned"] = float(np.mean(as_tuned))
    return {
        "balanced": balanced,
        "recipe": point,
        "steps": steps,
        "per_fold": per_fold,
        "figures": figures,
        "by_type": by_type,
    }


def gates_report(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Each gate on what bootstrap serves: evidence served for the question, and whether
    anything is served for a task the memory cannot answer, paired against the default and
    against no gate; and the gate chosen per fold by evidence served minus unrelated served.
    """
    gated = [r for r in rows if "served" in r]
    if not gated:
        return {}
    default = default_gate()
    keys = list(GATES)

    def utility(r: Mapping[str, Any], gate: str) -> float:
        return float(r["served"][gate]["objective"] - r["unrelated"][gate]["served"])

    chosen, held_out = fold_choice(gated, keys, utility)
    out: dict[str, Any] = {
        "default": default,
        "chosen_per_fold": chosen,
        "cross-validated utility over no gate": dict(
            zip(
                ("mean", "low", "high"),
                bootstrap([utility(r, k) - utility(r, "no gate") for r, k in held_out]),
                strict=True,
            )
        ),
        "gates": {},
    }
    for gate in keys:
        figures: dict[str, Any] = {}
        for name in HEADLINE:
            mine = [r for r in gated if r["dataset"] == name]
            served_here = [r["served"][gate] for r in mine]
            unrelated = [r["unrelated"][gate] for r in mine]
            figures[name] = {
                "served turn recall_any": float(
                    np.mean([s["turn recall_any"] for s in served_here])
                ),
                "served session recall": float(np.mean([s["session recall"] for s in served_here])),
                "tokens": float(np.mean([s["tokens"] for s in served_here])),
                "unrelated served": float(np.mean([u["served"] for u in unrelated])),
                "unrelated tokens": float(np.mean([u["tokens"] for u in unrelated])),
            }
        paired = {
            against: {
                "evidence": bootstrap(
                    [
                        r["served"][gate]["objective"] - r["served"][against]["objective"]
                        for r in gated
                    ]
                ),
                "unrelated served": bootstrap(
                    [
                        r["unrelated"][gate]["served"] - r["unrelated"][against]["served"]
                        for r in gated
                    ]
                ),
            }
            for against in (default, "no gate")
            if against != gate
        }
        out["gates"][gate] = {"by_dataset": figures, "paired": paired}
    return out


def markdown(result: Mapping[str, Any]) -> str:
    """The verdict per component, then each value's dev objective per dataset."""
    lines = [
        "# Retrieval components, cross-validated",
        "",
        f"{result['questions']} questions ({result['by_dataset']['longmemeval']} "
        f"LongMemEval, {result['by_dataset']['locomo']} LoCoMo), {FOLDS} folds stratified by "
        "dataset and question type. Objective per question: the mean of turn recall_any@10 "
        "and session recall@5 (all on LongMemEval, any on LoCoMo). A component's value is "
        "chosen on four folds and scored on the fifth; the gain is that held-out objective "
        "minus the component off (and minus its default), paired per question, with its 95% "
        f"bootstrap interval ({RESAMPLES} resamples). This table weighs each component's value "
        "(weight) in the default recipe, one at a time; which components the recipe keeps is "
        "the stepwise selection's below.",
        "",
        "| component | chosen per fold | gain over off | interval | better / worse "
        "| over the default | clears zero |",
        "|---|---|---|---|---|---|---|",
    ]
    for component, c in result["components"].items():
        g, d = c["gain_over_off"], c["gain_over_default"]
        lines.append(
            f"| {component} | {', '.join(c['chosen_per_fold'])} | {g['mean']:+.4f} | "
            f"[{g['ci95'][0]:+.4f}, {g['ci95'][1]:+.4f}] | "
            f"{c['paired_counts']['better']} / {c['paired_counts']['worse']} | "
            f"{d['mean']:+.4f} [{d['low']:+.4f}, {d['high']:+.4f}] | "
            f"{'yes' if c['earns_its_place'] else 'no'} |"
        )
    lines += [
        "",
        "Dev objective of each value (every question, no folds), LongMemEval / LoCoMo:",
        "",
        "| component | values |",
        "|---|---|",
    ]
    for component, c in result["components"].items():
        cells = ", ".join(
            f"{label}: {m['longmemeval']:.3f} / {m['locomo']:.3f}"
            for label, m in c["dev_means"].items()
        )
        lines.append(f"| {component} | {cells} |")
    if result.get("elimination"):
        lines += elimination_markdown(result["elimination"])
    if result.get("gates"):
        lines += gates_markdown(result["gates"])
    return "\n".join(lines) + "\n"


def interval(figure: Mapping[str, Any], signed: bool = False) -> str:
    """``mean [low, high]`` of a bootstrap figure (either of its two shapes)."""
    low, high = figure["ci95"] if "ci95" in figure else (figure["low"], figure["high"])
    form = "+.3f" if signed else ".3f"
    return f"{figure['mean']:{form}} [{low:{form}}, {high:{form}}]"


def recipe_name(point: Mapping[str, float]) -> str:
    on = [f"{c} {point[c]:g}" if len(GRID[c]) > 2 else c for c in GRID if point[c] != GRID[c][0]]
    return "words, " + ", ".join(on) if on else "words only"


def elimination_markdown(elimination: Mapping[str, Any]) -> list[str]:
    lines = [
        "",
        "## The recipe, by stepwise selection",
        "",
        "From the tuned recipe, each component's held-out gain in the recipe as it stands (its "
        "value chosen on four folds, scored against it off on the fifth, paired). Backward: "
        "while one's interval reaches zero, the one with the lowest gain goes. Forward: a "
        "component off comes back when its gain, added to the recipe as it then stands, "
        "clears zero. The words (BM25) stay in every recipe."
        + (
            " Each dataset weighs the same in the choices and intervals (--balanced)."
            if elimination.get("balanced")
            else ""
        ),
        "",
        "| step | recipe | gain of each component in it (95% interval) | gain of each "
        "component off, added back | move |",
        "|---|---|---|---|---|",
    ]
    for i, step in enumerate(elimination["steps"], start=1):
        gains, back = (
            "; ".join(f"{c} {g[0]:+.4f} [{g[1]:+.4f}, {g[2]:+.4f}]" for c, g in found.items())
            or "-"
            for found in (step["gains"], step.get("gains_back", {}))
        )
        lines.append(
            f"| {i} | {recipe_name(step['recipe'])} | {gains} | {back} | {step['move'] or '-'} |"
        )
    lines += [
        "",
        f"Recipe kept: **{recipe_name(elimination['recipe'])}**. Run on each fold's other "
        "folds, the selection ends at: "
        + "; ".join(recipe_name(p) for p in elimination["per_fold"])
        + ". Those recipes scored on the fold each was not chosen on give the cross-validated "
        "figures (95% intervals):",
    ]
    for name, block in elimination["figures"].items():
        lines += [
            "",
            f"{name} ({block['questions']} questions):",
            "",
            "| metric | cross-validated | over the tuned recipe | recipe kept, every question "
            "| tuned recipe, every question |",
            "|---|---|---|---|---|",
        ]
        for metric, f in block.items():
            if metric == "questions":
                continue
            lines.append(
                f"| {metric} | {interval(f['cross-validated'])} | "
                f"{interval(f['over as tuned'], signed=True)} | "
                f"{f['recipe, every question']:.3f} | {f['as tuned, every question']:.3f} |"
            )
    lines += [
        "",
        "Per question type, held out (turn recall_any@10 / session recall@5: all on "
        "LongMemEval, any on LoCoMo), the selected recipes against the tuned one on the same "
        "questions:",
        "",
        "| type | questions | cross-validated | tuned |",
        "|---|---|---|---|",
    ]
    for stratum, t in elimination["by_type"].items():
        lines.append(
            f"| {stratum} | {t['questions']:.0f} | "
            f"{t['turn_recall_any@10 cross-validated']:.3f} / "
            f"{t['session_recall@5 cross-validated']:.3f} | "
            f"{t['turn_recall_any@10 tuned']:.3f} / {t['session_recall@5 tuned']:.3f} |"
        )
    return lines


def gates_markdown(gates: Mapping[str, Any]) -> list[str]:
    lines = [
        "",
        "## The gate, on what bootstrap serves",
        "",
        "Each question asked of its memory through bootstrap, and each memory asked other "
        "questions it holds no answer to (three other LongMemEval questions, one of the other "
        "LoCoMo conversation's). Evidence served: the mean of an evidence turn in the block and "
        "the evidence sessions among its episodes (all on LongMemEval, any on LoCoMo). "
        f"Default: {gates['default']}; chosen per fold (evidence served minus unrelated "
        f"served): {', '.join(gates['chosen_per_fold'])}; its held-out gain over no gate "
        f"{interval(gates['cross-validated utility over no gate'], signed=True)}.",
        "",
        "| gate | dataset | served turn | served session | tokens | unrelated served "
        "| unrelated tokens |",
        "|---|---|---|---|---|---|---|",
    ]
    for gate, g in gates["gates"].items():
        for dataset_name, f in g["by_dataset"].items():
            lines.append(
                f"| {gate} | {dataset_name} | {f['served turn recall_any']:.3f} | "
                f"{f['served session recall']:.3f} | {f['tokens']:.0f} | "
                f"{f['unrelated served']:.3f} | {f['unrelated tokens']:.0f} |"
            )
    lines += [
        "",
        "Paired, per question (95% intervals): the change in evidence served and in "
        "unrelated tasks served.",
        "",
        "| gate | against | evidence served | unrelated served |",
        "|---|---|---|---|",
    ]
    for gate, g in gates["gates"].items():
        for against, p in g["paired"].items():
            evidence = dict(zip(("mean", "low", "high"), p["evidence"], strict=True))
            unrelated = dict(zip(("mean", "low", "high"), p["unrelated served"], strict=True))
            lines.append(
                f"| {gate} | {against} | {interval(evidence, signed=True)} | "
                f"{interval(unrelated, signed=True)} |"
            )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--cache", type=Path, default=None, help="embedding cache folder")
    parser.add_argument("--limit", type=int, default=None, help="the first N LongMemEval questions")
    parser.add_argument("--locomo-only", action="store_true")
    parser.add_argument(
        "--conversations",
        nargs="+",
        default=sorted(retrieval.DEV_CONVERSATIONS),
        help="LoCoMo conversation ids (default: the dev ones)",
    )
    parser.add_argument(
        "--balanced",
        action="store_true",
        help="the selection weighs each dataset the same (default: each question)",
    )
    parser.add_argument("--rows", type=Path, default=None, help="reuse rows --keep-rows saved")
    parser.add_argument(
        "--keep-rows", type=Path, default=None, help="save every question's metrics here"
    )
    parser.add_argument(
        "--out", type=Path, default=Path("benchmarks/results/cross_validation.json")
    )
    args = parser.parse_args(argv)
    components = component_values()
    if args.rows is not None:
        rows = json.loads(args.rows.read_text())
    else:
        local = LocalEmbedder()
        timed = TimedEmbedder(local)
        embedder: Embedder = (
            timed if args.cache is None else longmemeval.CachedEmbedder(timed, args.cache)
        )
        conversations = [
            retrieval.load_conversation(path)
            for path in retrieval.conversation_files(dataset("locomo"))
            if path.stem in set(args.conversations)
        ]
        rows = list(locomo_rows(conversations, embedder, components, local))
        if not args.locomo_only:
            questions = longmemeval.load_questions(dataset("longmemeval"))[: args.limit]
            rows += list(longmemeval_rows(questions, embedder, components, local))
        if args.keep_rows is not None:
            args.keep_rows.write_text(json.dumps(rows) + "\n")
    by_dataset = {d: sum(r["dataset"] == d for r in rows) for d in ("longmemeval", "locomo")}
    result = {
        "questions": len(rows),
        "by_dataset": by_dataset,
        "components": cross_validate(rows, components),
        "elimination": elimination_report(rows, args.balanced),
        "gates": gates_report(rows),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    args.out.with_suffix(".md").write_text(markdown(result))
    print(markdown(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
