"""The benchmark's Markdown summary: machine, targets, and one table per measurement."""

from __future__ import annotations

from typing import Any

from benchmarks.bench_ranking import COLD_REPEATS
from benchmarks.timing import EVICT_BYTES


def _ms(entry: dict[str, Any] | None) -> str:
    if not entry:
        return "—"
    value = float(entry["median"])
    return f"{value:.3g}" if value < 100 else f"{value:,.0f}"


def _x(entry: dict[str, Any] | None) -> str:
    if not entry:
        return "—"
    value = float(entry["median"])
    return f"{value:,.0f}×" if value >= 100 else f"{value:.3g}×"


def render(results: dict[str, Any]) -> str:
    """The whole report as Markdown."""
    m = results["machine"]
    blas = results["blas_matvec_10000x384_ms"]
    lines = [
        "# Bootstrap and episodic-ranking benchmark",
        "",
        f"Machine: {m['cpu_model']}, {m['cores']} cores; Python {m['python']}, numpy {m['numpy']}, "
        f"langgraph {m.get('langgraph') or 'not installed'}; {m['date']}; commit {m['commit']}"
        f"{' + uncommitted changes to src/' if m.get('src_uncommitted') else ''}. "
        f"BLAS threads: {m['blas_threads']}. Load average (1 min) {m['load_average_1min']} at "
        f"start, {results['load_average_1min_at_end']} at end (other jobs share the machine). "
        f"Command: `{results['command']}`.",
        "",
        "One 10,000 x 384 float32 matvec in a child process: "
        f"{blas['library_default_threads']} ms with the BLAS default threads, "
        f"{blas['one_thread']} ms with one thread.",
        "",
        "Medians over rounds; ratios are paired per round (same query, measured back to back). "
        + results["config"]["distribution"],
        "",
        "## Targets",
        "",
        "| target | measured | met |",
        "|---|---|---|",
    ]
    for t in results["targets"]:
        met = {True: "yes", False: "**NO**", None: "n/a"}[t["met"]]
        lines.append(f"| {t['target']} | {t['measured']} | {met} |")
    lines += _ranking(results["ranking"])
    lines += _cold(results["ranking"])
    lines += _profile(results["ranking"])
    lines += _latency(results.get("bootstrap", []))
    lines += _storage(results.get("storage", []), results.get("int8_recall"))
    lines += _consolidation(results.get("consolidation"))
    if results.get("findings"):
        lines += ["", "## Findings", ""] + [f"- {f}" for f in results["findings"]]
    return "\n".join(lines) + "\n"


def _ranking(rows: list[dict[str, Any]]) -> list[str]:
    lines = [
        "",
        "## Episodic ranking, per query (ms)",
        "",
        "`product` = `EpisodeIndex.search` over summaries and units (lexical + vector), top 3 "
        "episodes and 10 units; `summaries only` = the same index over episodes without units "
        "(the work the baselines do); `matvec` = one matrix-vector product over the N x d summary "
        "matrix; `matvec, all` = one over every vector the product ranks (summaries + units); "
        "`naive join` = frombuffer each stored float32 blob, stack, multiply.",
        "",
        "| N | dim | units | product | summaries only | matvec | matvec, all | naive join "
        "| InMemoryStore | reference | ref/product | IMS/product | product/matvec "
        "| ref/summ.-only | IMS/summ.-only | summ.-only/matvec |",
        "|" + "---|" * 16,
    ]
    for r in rows:
        t, q = r["time_ms"], r["ratios"]
        lines.append(
            f"| {r['episodes']:,} | {r['dimension']} | {r['units']:,} | {_ms(t['product'])} "
            f"| {_ms(t['product_summaries_only'])} | {_ms(t['matvec'])} "
            f"| {_ms(t['matvec_all_vectors'])} | {_ms(t['naive_join'])} "
            f"| {_ms(t.get('langgraph'))} "
            f"| {_ms(t.get('reference'))} | {_x(q.get('reference_over_product'))} "
            f"| {_x(q.get('langgraph_over_product'))} | {_x(q.get('product_over_matvec'))} "
            f"| {_x(q.get('reference_over_product_summaries_only'))} "
            f"| {_x(q.get('langgraph_over_product_summaries_only'))} "
            f"| {_x(q.get('product_summaries_only_over_matvec'))} |"
        )
    return lines


def _cold(rows: list[dict[str, Any]]) -> list[str]:
    rows = [r for r in rows if "product_cold" in r["time_ms"]]
    if not rows:
        return []
    lines = [
        "",
        "## Cold caches, per query (ms)",
        "",
        "The table above times calls in batches, so each call finds the previous one's data in "
        "the CPU caches (a 10,000 x 384 float32 matrix is 15 MB, which fits a large L3). Here "
        f"each call is timed alone, right after a {EVICT_BYTES // 2**20} MiB buffer is written: "
        "the state a bootstrap meets after its process sat idle. Median over rounds of the "
        f"median of {COLD_REPEATS} calls; the ratio is paired per round.",
        "",
        "| N | dim | product | matvec | product/matvec |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        t, q = r["time_ms"], r["ratios"]
        lines.append(
            f"| {r['episodes']:,} | {r['dimension']} | {_ms(t['product_cold'])} "
            f"| {_ms(t['matvec_cold'])} | {_x(q.get('product_over_matvec_cold'))} |"
        )
    return lines


def _profile(rows: list[dict[str, Any]]) -> list[str]:
    lines: list[str] = []
    same = [r for r in rows if r["dimension"] == rows[0]["dimension"]] if rows else []
    largest = max((r["episodes"] for r in same), default=0)
    for r in same:
        if r["episodes"] not in {10_000, largest}:
            continue
        lines += [
            "",
            f"## Where `search` spends its time, N={r['episodes']:,} ({r['units']:,} units)",
            "",
            "Per source line of `search` (callees included), ms per search:",
            "",
            "| line | source | ms | share |",
            "|---|---|---|---|",
        ]
        lines += _line_rows(r["profile"]["lines"])
        if r["profile"].get("lines_summaries_only"):
            lines += [
                "",
                "The same for the index over episodes without units (summaries only):",
                "",
                "| line | source | ms | share |",
                "|---|---|---|---|",
                *_line_rows(r["profile"]["lines_summaries_only"][:6]),
            ]
        lines += [
            "",
            "Functions with the most own time (cProfile), ms per search:",
            "",
            "| function | calls/search | own ms | cumulative ms |",
            "|---|---|---|---|",
        ]
        for row in r["profile"]["cprofile_top"]:
            lines.append(
                f"| `{row['function']}` | {row['calls_per_search']} | {row['own_ms_per_search']} "
                f"| {row['cumulative_ms_per_search']} |"
            )
    return lines


def _line_rows(rows: list[dict[str, Any]]) -> list[str]:
    return [
        f"| {row['line']} | `{row['source'].replace('|', '/')}` | {row['ms_per_call']:.3g} "
        f"| {row['share']:.0%} |"
        for row in rows
    ]


def _latency(rows: list[dict[str, Any]]) -> list[str]:
    if not rows:
        return []
    lines = [
        "",
        "## Full local bootstrap (3 tiers, SQLite), ms",
        "",
        "`default` = the product's policy (index of the newest 500 episodes); `all` = every "
        "episode indexed (candidates = N). Model time excluded = precomputed query vectors. "
        "`1st call after a new run` = the first bootstrap after one more episode of the agent "
        "was written (median of 7): the store is asked only for the episodes added since the "
        "cached index (EpisodeStore.changes_since) and the index is laid out again on the last "
        "one.",
        "",
        "| N | policy | index build (1st call) | 1st call after a new run | p50 excl. model "
        "| p95 excl. model "
        "| p50 with model | p95 with model | embed p50 | episodic p50 | semantic p50 "
        "| procedural p50 | tiers answered (E/S/P) |",
        "|" + "---|" * 13,
    ]
    for r in rows:
        for policy, label in (("default_policy", "default"), ("all_episodes_indexed", "all")):
            v = r.get(policy)
            if not v:
                continue
            fast, real = v["excluding_model"], v.get("with_local_model")
            parts, answered = fast["reply_timings_ms"], fast["tiers_answered"]
            cells = [
                f"{r['episodes']:,}",
                label,
                f"{v['first_call_builds_index_ms']:,.0f}",
                f"{v['after_new_run_ms']['p50']:,.0f}" if "after_new_run_ms" in v else "-",
                _wall(fast, "p50"),
                _wall(fast, "p95"),
                _wall(real, "p50"),
                _wall(real, "p95"),
                f"{(real or fast)['reply_timings_ms']['embed']['p50']:.3g}",
                f"{parts['episodic']['p50']:.3g}",
                f"{parts['semantic']['p50']:.3g}",
                f"{parts['procedural']['p50']:.3g}",
                f"{answered['episodic']:.0%}/{answered['semantic']:.0%}/"
                f"{answered['procedural']:.0%}",
            ]
            lines.append("| " + " | ".join(cells) + " |")
    return lines


def _wall(summary: dict[str, Any] | None, key: str) -> str:
    return f"{summary['wall_ms'][key]:.3g}" if summary else "—"


def _storage(rows: list[dict[str, Any]], recall: dict[str, Any] | None) -> list[str]:
    if not rows:
        return []
    lines = [
        "",
        "## Bytes per stored embedding (DynamoDB billing rules, attribute `embedding`)",
        "",
        "| dim | int8 + scale (product) | float32 | Decimal list (reference) "
        "| Decimal list, float32-shortest digits | Decimal / int8 | float32 / int8 "
        "| product, all vectors of an episode |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        b, q = r["bytes_per_embedding_attribute"], r["ratios"]
        per = r.get("per_episode_all_vectors", {})
        lines.append(
            f"| {r['dimension']} | {b['int8_product']:,.0f} | {b['float32_product']:,.0f} "
            f"| {b['decimal_list_reference']:,.0f} | {b['decimal_list_float32_shortest']:,.0f} "
            f"| {q['decimal_list_over_int8']}× | {q['float32_over_int8']}× "
            f"| {per.get('product_summary_plus_unit_vectors_bytes', 0):,.0f} |"
        )
    if recall:
        figures = recall.get("figures")
        text = (
            recall.get("note")
            if not figures
            else "; ".join(f"{key.rsplit('.', 1)[-1]} = {value}" for key, value in figures.items())
        )
        lines += ["", f"Recall lost by int8 (source: `{recall['source']}`): {text}"]
    return lines


def _consolidation(result: dict[str, Any] | None) -> list[str]:
    if not result:
        return []
    lines = [
        "",
        f"## Consolidation ({result['events']} events with artifacts, "
        f"{result['messages_per_event_mean']} messages each on average)",
        "",
        "| embedder | runs/s | p50 ms | p95 ms | share in embedder | share in PII detector |",
        "|---|---|---|---|---|---|",
    ]
    for name in ("excluding_model", "with_local_model"):
        v = result.get(name)
        if v:
            lines.append(
                f"| {name.replace('_', ' ')} | {v['runs_per_second']} | {v['latency_ms']['p50']} "
                f"| {v['latency_ms']['p95']} | {v['share_in_embedder']:.0%} "
                f"| {v['share_in_pii_detector']:.0%} |"
            )
    return lines
