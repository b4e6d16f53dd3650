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
from agent_memory.app.messages import SearchEpisodes
from agent_memory.core.model.policies import EpisodicPolicy, RankingPolicy
from agent_memory.core.ports import Embedder, MemoryPorts
from agent_memory.core.privacy.scrubbing import pseudonyms_for, query_form
from benchmarks import longmemeval, retrieval
from benchmarks.bench_consolidation import TimedEmbedder
from benchmarks.bench_data import dataset
from benchmarks.metrics import question_metrics

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


# The write path's one setting: what a short message is embedded with (its neighbours). Each
# value needs its own store; the read variants are asked of the default's.
WRITE_COMPONENT = "embedded_context"
WRITE_VALUES = (0, 1, 2)


def write_variant(value: int) -> Variant:
    return episodic(embedded_context=value)


def component_values() -> dict[str, dict[str, Variant]]:
    """Each component and the values it is tried at, by label; the first is "off"."""
    default = RankingPolicy()
    components: dict[str, dict[str, Variant]] = {}
    for name in RankingPolicy.__slots__:
        base = float(getattr(default, name))
        values = (0.0, base / 2, base, base * 2)
        components[name] = {f"{v:g}": ranking(**{name: v}) for v in values}
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
    }


# ---------------------------------------------------------------- the datasets


def asked_variants(
    components: Mapping[str, Mapping[str, Variant]], written: int
) -> Iterator[tuple[str, Variant]]:
    """The variants to ask of a store written with ``embedded_context=written``: every read
    variant of the default's store, the default read of the others.
    """
    if written == EpisodicPolicy().embedded_context:
        for component, values in components.items():
            if component == WRITE_COMPONENT:
                continue
            for label, variant in values.items():
                yield f"{component}={label}", variant
    yield f"{WRITE_COMPONENT}={written}", write_variant(written)


def longmemeval_rows(
    questions: Sequence[longmemeval.Question],
    embedder: Embedder,
    components: Mapping[str, Mapping[str, Variant]],
) -> Iterator[dict[str, Any]]:
    """Per scored LongMemEval question: its metrics under every variant."""
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
        yield row


def locomo_rows(
    conversations: Sequence[retrieval.Conversation],
    embedder: Embedder,
    components: Mapping[str, Mapping[str, Variant]],
) -> Iterator[dict[str, Any]]:
    """Per LoCoMo dev question: its metrics under every variant."""
    for conversation in conversations:
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


def bootstrap(differences: Sequence[float], seed: int = SEED) -> tuple[float, float, float]:
    """The mean of ``differences`` and its 95% percentile bootstrap interval."""
    values = np.asarray(differences, dtype=np.float64)
    rng = np.random.default_rng(seed)
    means = rng.choice(values, size=(RESAMPLES, len(values)), replace=True).mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return float(values.mean()), float(low), float(high)


def cross_validate(
    rows: Sequence[Mapping[str, Any]], components: Mapping[str, Mapping[str, Variant]]
) -> dict[str, Any]:
    """Per component: the value chosen on each fold's training folds, and the held-out
    paired gain of choosing it over turning the component off (and over the default).
    """
    fold = folds(rows)
    out: dict[str, Any] = {}
    for component, values in components.items():
        labels = list(values)
        off = f"{component}={labels[0]}"
        default = f"{component}={DEFAULTS[component]}"
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


def markdown(result: Mapping[str, Any]) -> str:
    """The verdict per component, then each value's dev objective per dataset."""
    lines = [
        "# Retrieval components, cross-validated",
        "",
        f"{result['questions']} dev questions ({result['by_dataset']['longmemeval']} "
        f"LongMemEval, {result['by_dataset']['locomo']} LoCoMo), {FOLDS} folds stratified by "
        "dataset and question type. Objective per question: the mean of turn recall_any@10 "
        "and session recall@5 (all on LongMemEval, any on LoCoMo). A component's value is "
        "chosen on four folds and scored on the fifth; the gain is that held-out objective "
        "minus the component off (and minus its default), paired per question, with its 95% "
        f"bootstrap interval ({RESAMPLES} resamples).",
        "",
        "| component | chosen per fold | gain over off | interval | better / worse "
        "| over the default | kept |",
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
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--cache", type=Path, default=None, help="embedding cache folder")
    parser.add_argument("--limit", type=int, default=None, help="the first N LongMemEval questions")
    parser.add_argument("--locomo-only", action="store_true")
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
            if retrieval.split_of(path.stem) == retrieval.DEV
        ]
        rows = list(locomo_rows(conversations, embedder, components))
        if not args.locomo_only:
            questions = longmemeval.load_questions(dataset("longmemeval"))[: args.limit]
            rows += list(longmemeval_rows(questions, embedder, components))
        if args.keep_rows is not None:
            args.keep_rows.write_text(json.dumps(rows) + "\n")
    by_dataset = {d: sum(r["dataset"] == d for r in rows) for d in ("longmemeval", "locomo")}
    result = {
        "questions": len(rows),
        "by_dataset": by_dataset,
        "components": cross_validate(rows, components),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    args.out.with_suffix(".md").write_text(markdown(result))
    print(markdown(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
