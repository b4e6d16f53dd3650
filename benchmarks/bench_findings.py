"""Judging a bootstrap benchmark result: each target met or not, and plain findings that say
where the time goes when one is missed.
"""

from __future__ import annotations

from typing import Any

TARGET_REFERENCE = 500.0
TARGET_LANGGRAPH = 100.0
TARGET_MATVEC = 2.0
TARGET_P50_MS = 25.0
TARGET_RECALL_LOSS = 0.01
TARGET_BYTES = 8.0
TARGET_SIZE = 10_000
# A BLAS library's own threading is called pathological when it is this much slower than one
# thread on the same matvec.
BLAS_SLOWDOWN = 3.0


def ranking_at(results: dict[str, Any], n: int, dimension: int = 384) -> dict[str, Any] | None:
    """The ranking result for ``n`` episodes of ``dimension``, if measured."""
    return next(
        (r for r in results["ranking"] if r["episodes"] == n and r["dimension"] == dimension),
        None,
    )


def targets(results: dict[str, Any]) -> list[dict[str, Any]]:
    """Each target with its measured value and whether it is met (None: not measured)."""
    at = ranking_at(results, TARGET_SIZE)
    ratios = at["ratios"] if at else {}

    def ratio_target(name: str, key: str, goal: float, above: bool) -> dict[str, Any]:
        entry = ratios.get(key)
        if entry is None:
            return {"target": name, "measured": "not measured", "met": None}
        value = float(entry["median"])
        return {
            "target": name,
            "measured": f"{value:,.3g}×",
            "met": value >= goal if above else value <= goal,
        }

    judged = [
        ratio_target(
            "product ≥ 500× faster than the reference loop (N=10,000, 384 dims)",
            "reference_over_product",
            TARGET_REFERENCE,
            True,
        ),
        ratio_target(
            "product ≥ 100× faster than LangGraph InMemoryStore (N=10,000)",
            "langgraph_over_product",
            TARGET_LANGGRAPH,
            True,
        ),
        ratio_target(
            "product within 2× of one matvec over the N×384 summary matrix (N=10,000)",
            "product_over_matvec",
            TARGET_MATVEC,
            False,
        ),
        ratio_target(
            "(cold caches) product within 2× of one matvec over the N×384 summary matrix, "
            "each timed one call at a time after the CPU caches are evicted (N=10,000)",
            "product_over_matvec_cold",
            TARGET_MATVEC,
            False,
        ),
        ratio_target(
            "(second reading) product within 2× of one matvec over every vector it ranks, "
            "summaries + units (N=10,000)",
            "product_over_matvec_all_vectors",
            TARGET_MATVEC,
            False,
        ),
    ]
    boot = next((b for b in results["bootstrap"] if b["episodes"] == TARGET_SIZE), None)
    for policy, label in (
        ("default_policy", "default policy: newest 500 indexed"),
        ("all_episodes_indexed", "all 10,000 indexed"),
    ):
        v = boot.get(policy) if boot else None
        if v is None:
            continue
        p50 = float(v["excluding_model"]["wall_ms"]["p50"])
        judged.append(
            {
                "target": f"bootstrap p50 ≤ 25 ms at N=10,000 excluding model time ({label})",
                "measured": f"{p50:.3g} ms",
                "met": p50 <= TARGET_P50_MS,
            }
        )
    for row in results["storage"]:
        value = float(row["ratios"]["decimal_list_over_int8"])
        judged.append(
            {
                "target": "int8 embedding ≥ 8× smaller than the Decimal list "
                f"({row['dimension']} dims)",
                "measured": f"{value:.3g}×",
                "met": value >= TARGET_BYTES,
            }
        )
    lost = _recall_lost(results.get("int8_recall"))
    if lost is not None:
        judged.append(
            {
                "target": "turn recall_any@10 on LoCoMo with int8 within "
                f"{TARGET_RECALL_LOSS} of float32 (retrieval benchmark)",
                "measured": f"{lost:+.4f}",
                "met": lost <= TARGET_RECALL_LOSS,
            }
        )
    return judged


def _recall_lost(note: dict[str, Any] | None) -> float | None:
    """float32 minus int8 recall, from the retrieval benchmark's figures if they are there."""
    for key, value in ((note or {}).get("figures") or {}).items():
        if key.endswith("(float32 - int8)"):
            return float(value)
    return None


def findings(results: dict[str, Any]) -> list[str]:
    """Plain statements: what was missed, where the time goes, and what the figures imply."""
    notes = [
        f"MISSED: {t['target']}: measured {t['measured']}."
        for t in results["targets"]
        if t["met"] is False
    ]
    at = ranking_at(results, TARGET_SIZE)
    if at:
        notes += _ranking_notes(at)
    notes += _bootstrap_notes(results.get("bootstrap", []))
    notes += _other_notes(results)
    return notes


def _ranking_notes(at: dict[str, Any]) -> list[str]:
    lines = at["profile"]["lines"][:4]
    q = at["ratios"]

    def med(key: str) -> float:
        return float(q[key]["median"]) if key in q else float("nan")

    return [
        f"Where search's time goes at N={at['episodes']:,} ({at['units']:,} units, "
        f"{at['units_per_episode_mean']} per episode), by source line (callees included): "
        + "; ".join(
            f"{r['line']} `{r['source']}` {r['ms_per_call']:.3g} ms ({r['share']:.0%})"
            for r in lines
        )
        + ".",
        f"The product ranks units as well as episodes ({at['units_per_episode_mean']} "
        "units per episode; every unit of its candidate episodes, chosen by centroid and by "
        f"words): {med('product_over_matvec_all_vectors'):.3g}× one matvec over every unit "
        "vector. Like for like (the same index over episodes without units), it is "
        f"{med('reference_over_product_summaries_only'):,.0f}× faster than the reference, "
        f"{med('langgraph_over_product_summaries_only'):,.3g}× faster than InMemoryStore and "
        f"{med('product_summaries_only_over_matvec'):.3g}× the summary matvec.",
    ]


def _bootstrap_notes(rows: list[dict[str, Any]]) -> list[str]:
    notes = []
    default = [(r["episodes"], r["default_policy"]) for r in rows if "default_policy" in r]
    if default:
        notes.append(
            "Bootstrap indexes only the agent's newest 500 episodes (EpisodicPolicy.candidates), "
            "so its latency is flat in N: p50 "
            + ", ".join(
                f"{v['excluding_model']['wall_ms']['p50']:.3g} ms at {n:,}" for n, v in default
            )
            + " (model excluded); the first call of a process builds the index: "
            + ", ".join(f"{v['first_call_builds_index_ms']:,.0f} ms at {n:,}" for n, v in default)
            + " (a fresh CLI process pays this on every bootstrap); a long-lived process pays "
            + ", ".join(
                f"{v['after_new_run_ms']['p50']:,.0f} ms at {n:,}"
                for n, v in default
                if "after_new_run_ms" in v
            )
            + " on the first bootstrap after a new run (only the new episode is read from the"
            " store and prepared; the index is laid out again from the rows it had)."
        )
    full = [(r["episodes"], r["all_episodes_indexed"]) for r in rows if "all_episodes_indexed" in r]
    if full:
        notes.append(
            "With every episode indexed: p50 "
            + ", ".join(
                f"{v['excluding_model']['wall_ms']['p50']:.3g} ms at {n:,}" for n, v in full
            )
            + "; index build "
            + ", ".join(f"{v['first_call_builds_index_ms'] / 1000:.3g} s at {n:,}" for n, v in full)
            + "."
        )
    return notes


def _other_notes(results: dict[str, Any]) -> list[str]:
    notes = []
    blas = results.get("blas_matvec_10000x384_ms", {})
    default, one = blas.get("library_default_threads"), blas.get("one_thread")
    if default and one and default > BLAS_SLOWDOWN * one:
        notes.append(
            f"Threaded BLAS on this loaded machine: one 10,000×384 matvec took {default} ms with "
            f"the library's default threads vs {one} ms with one thread."
        )
    for row in results.get("storage", []):
        per = row.get("per_episode_all_vectors")
        if per:
            notes.append(
                f"{row['dimension']} dims: one int8 vector is "
                f"{row['ratios']['decimal_list_over_int8']}× smaller than the reference's "
                "Decimal list, but a product episode also stores its units' vectors "
                f"({per['units_per_episode_mean']} on average): "
                f"{per['product_summary_plus_unit_vectors_bytes']:,.0f} B of vectors per "
                f"episode vs {per['reference_summary_vector_bytes']:,.0f} B for the reference's "
                "single vector."
            )
    consolidation = results.get("consolidation") or {}
    fast, real = consolidation.get("excluding_model"), consolidation.get("with_local_model")
    if fast and real:
        notes.append(
            f"Consolidation: {fast['runs_per_second']} runs/s without model time "
            f"({fast['share_in_pii_detector']:.0%} of it in the PII detector), "
            f"{real['runs_per_second']} runs/s with the local model "
            f"({real['share_in_embedder']:.0%} in embedding every unit)."
        )
    return notes
