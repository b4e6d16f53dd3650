"""Cold calls of the ``agent-memory`` command: wall time of fresh processes, before and after.

Each command runs in a new Python process, as a user's shell starts it (the console script's
own three lines: import ``agent_memory.cli.main``, call ``main``). Two source trees run side by
side, interleaved, on one store made by the demo: a git ref exported with ``git archive``
(``--baseline``) and this checkout. Both trees are byte-compiled first and each command is run
once untimed, so neither pays for writing ``.pyc`` files or a cold disk cache; ``python -c pass``
is timed in the same rounds, and every figure is also given as a multiple of it, which carries
from one machine (or one load) to another better than milliseconds do.
``python -X importtime`` then lists, per tree and command, the packages whose imports cost most.

    python benchmarks/cold_cli.py --baseline 8becc9d --out benchmarks/results/cold_cli.json

Imports at module level are the standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

if __package__ in {None, ""}:  # run as a script: make ``benchmarks`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# The baseline tree is exported as cold_start.py exports its own (standard library only).
from benchmarks.cold_start import ROOT, export, resolved

TENANT, AGENT = "acme-legal", "contract-reviewer"
TASK = "Review the Tailspin Toys vendor MSA and flag liability risks before signature."
# What the console script runs.
SCRIPT = "import sys; from agent_memory.cli.main import main; sys.exit(main())"
COMMANDS: dict[str, list[str]] = {
    "--help": ["--help"],
    "--version": ["--version"],
    "export": ["export", "--tenant", TENANT],
    "procedures list": ["procedures", "list"],
    "bootstrap (model needed)": ["bootstrap", "--tenant", TENANT, "--agent", AGENT, "--task", TASK],
}
PASS = "python -c pass"


def environment(tree: Path, store: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENT_MEMORY_")}
    return {
        **env,
        "PYTHONPATH": f"{tree / 'src'}{os.pathsep}{tree}",
        "AGENT_MEMORY_HOME": str(store),
    }


def argv(name: str) -> list[str]:
    if name == PASS:
        return [sys.executable, "-c", "pass"]
    return [sys.executable, "-c", SCRIPT, *COMMANDS[name]]


def timed(tree: Path, store: Path, name: str) -> float:
    """Wall time (ms) of one fresh process running the command."""
    began = time.perf_counter()
    done = subprocess.run(
        argv(name),
        env=environment(tree, store),
        cwd=tree,
        stdin=subprocess.DEVNULL,
        capture_output=True,
    )
    elapsed = (time.perf_counter() - began) * 1000
    if done.returncode != 0:
        raise SystemExit(f"{name} failed in {tree}: {done.stderr.decode()[-2000:]}")
    return elapsed


def heaviest_imports(
    tree: Path, store: Path, name: str, top: int, repeats: int = 5
) -> dict[str, Any]:
    """``-X importtime`` of the command, ``repeats`` times: the median self time summed per
    top-level package, and of all imports together (ms).
    """
    totals: list[float] = []
    per_package: dict[str, list[float]] = defaultdict(list)
    for _ in range(repeats):
        err = subprocess.run(
            [sys.executable, "-X", "importtime", *argv(name)[1:]],
            env=environment(tree, store),
            cwd=tree,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
        ).stderr
        by_package: dict[str, int] = defaultdict(int)
        for line in err.splitlines():
            if not line.startswith("import time:") or "self [us]" in line:
                continue
            self_us, _, module = (part.strip() for part in line[12:].split("|"))
            by_package[module.split(".")[0]] += int(self_us)
        totals.append(sum(by_package.values()) / 1000)
        for package, us in by_package.items():
            per_package[package].append(us / 1000)
    medians = {k: statistics.median(v) for k, v in per_package.items()}
    ranked = sorted(medians.items(), key=lambda item: -item[1])[:top]
    return {
        "total_ms": statistics.median(totals),
        "packages_ms": dict(ranked),
        "numpy": "numpy" in per_package,
        "onnxruntime": "onnxruntime" in per_package,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", required=True, help="git ref (or directory) to compare")
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks/results/cold_cli.json")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        trees = {
            "baseline": Path(args.baseline).resolve()
            if Path(args.baseline).is_dir()
            else export(args.baseline, Path(scratch, "baseline")),
            "current": ROOT,
        }
        for tree in trees.values():
            subprocess.run(
                [sys.executable, "-m", "compileall", "-q", str(tree / "src")], check=True
            )
        store = Path(scratch, "store")
        demo = subprocess.run(
            [sys.executable, "-c", SCRIPT, "demo"],
            env=environment(trees["current"], store),
            capture_output=True,
        )
        if demo.returncode != 0:
            raise SystemExit(demo.stderr.decode()[-2000:])
        report = measure(trees, store, args.repeats)
    report["refs"] = {"baseline": resolved(args.baseline), "current": "working tree"}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    args.out.with_suffix(".md").write_text(markdown(report))
    print(markdown(report))


def measure(trees: dict[str, Path], store: Path, repeats: int) -> dict[str, Any]:
    """Every command of every tree, ``repeats`` rounds; the order alternates each round."""
    names = [PASS, *COMMANDS]
    for root in trees.values():  # untimed: page cache warm for both
        for name in names:
            timed(root, store, name)
    runs: dict[str, dict[str, list[float]]] = {t: {n: [] for n in names} for t in trees}
    order = [(t, n) for n in names for t in trees]
    load_before = os.getloadavg()
    for repeat in range(repeats):
        for tree, name in order if repeat % 2 == 0 else order[::-1]:
            runs[tree][name].append(timed(trees[tree], store, name))
    summary: dict[str, Any] = {}
    for tree in trees:
        passes = runs[tree][PASS]
        summary[tree] = {
            name: {
                "median_ms": statistics.median(times),
                # Paired with the same round's python -c pass.
                "x_python_pass": statistics.median(
                    t / p for t, p in zip(times, passes, strict=True)
                ),
            }
            for name, times in runs[tree].items()
        }
    summary["baseline_over_current"] = {
        name: statistics.median(
            b / c for b, c in zip(runs["baseline"][name], runs["current"][name], strict=True)
        )
        for name in COMMANDS
    }
    imports = {
        tree: {name: heaviest_imports(trees[tree], store, name, top=8) for name in COMMANDS}
        for tree in trees
    }
    return {
        "repeats": repeats,
        "python": sys.version.split()[0],
        "cpus": os.cpu_count(),
        "load_average_before_after": [load_before[0], os.getloadavg()[0]],
        "summary": summary,
        "imports": imports,
        "runs_ms": runs,
    }


def markdown(report: dict[str, Any]) -> str:
    summary, refs = report["summary"], report["refs"]
    lines = [
        "# Cold CLI calls",
        "",
        f"Fresh processes, {report['repeats']} rounds, interleaved; medians. Baseline: "
        f"`{refs['baseline']}`; current: `{refs['current']}`. Python {report['python']}, "
        f"{report['cpus']} CPUs shared with other work (load average "
        f"{report['load_average_before_after'][0]:.1f} before, "
        f"{report['load_average_before_after'][1]:.1f} after). `× pass`: the command's wall "
        f"time over `{PASS}` in the same round.",
        "",
        "| command | baseline ms | × pass | current ms | × pass | baseline / current |",
        "|---|---|---|---|---|---|",
    ]
    for name in [PASS, *COMMANDS]:
        b, c = summary["baseline"][name], summary["current"][name]
        ratio = summary["baseline_over_current"].get(name)
        lines.append(
            f"| `{name}` | {b['median_ms']:.0f} | {b['x_python_pass']:.1f} | "
            f"{c['median_ms']:.0f} | {c['x_python_pass']:.1f} | "
            + (f"{ratio:.2f}× |" if ratio else "- |")
        )
    lines += [
        "",
        "Imports (`-X importtime`, 5 runs each, medians: self time summed per top-level package,"
        " ms; and of all imports):",
        "",
    ]
    for name in COMMANDS:
        for tree in ("baseline", "current"):
            found = report["imports"][tree][name]
            listed = ", ".join(f"{k} {v:.0f}" for k, v in found["packages_ms"].items())
            lines.append(
                f"- `{name}`, {tree}: {found['total_ms']:.0f} ms in all "
                f"(numpy {'yes' if found['numpy'] else 'no'}, onnxruntime "
                f"{'yes' if found['onnxruntime'] else 'no'}): {listed}"
            )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
