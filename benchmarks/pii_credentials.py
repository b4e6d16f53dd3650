"""Quality of the credential detector on credentials nobody here wrote.

1. Labelled samples from two secret scanners' own tests (``credential_corpora``): TruffleHog's
   detector pattern tests (github.com/trufflesecurity/trufflehog, ``pkg/detectors/*/*_test.go``:
   an input and the secrets its detector must report, or none) and Gitleaks' rule generators
   (github.com/gitleaks/gitleaks, ``cmd/generate/config/rules/*.go``: literal true and false
   positives). Neither is the rule set the detector adopts (CredSweeper's) nor detect-secrets'.
   Samples are split by provider (crc32 of its name): dev (the only half whose errors were
   looked at while tuning) and held out.

   - recall: gold secrets covered whole by one find (and, apart, touched by any find);
   - precision: finds that overlap a gold secret, of all finds on the positive samples, and of
     all finds on positive and negative samples (a find on a negative sample is false). The
     scanners' negatives are often credentials of another shape (a key one character short, a
     provider's key without the provider's name near it), so the second figure is a floor.

2. Over-scrubbing of ordinary text with no credential in it: this repository's documentation
   and Python source, and (as ``pii_quality.py`` reads them) the installed packages' licence
   files, their descriptions and Python modules, in dev and held-out halves. Every find there is
   counted false.

    python benchmarks/pii_credentials.py --trufflehog GIT_DIR --gitleaks GIT_DIR \
        --out benchmarks/results/pii_credentials.json [--show-errors dev]

A baseline in the same run: detect-secrets' plugins alone, as the detector began.

``GIT_DIR`` is a bare clone (``git --git-dir``). ``--show-errors`` prints the dev (or held-out)
misses and false positives to stdout only: the results hold counts, no sample text.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from agent_memory.adapters.credentials import CredentialDetector, library  # noqa: E402
from agent_memory.adapters.credentials import rules as rule_set  # noqa: E402
from agent_memory.core.ports import PiiDetector, PiiEntity  # noqa: E402
from agent_memory.core.privacy.scrubbing import masked_spans  # noqa: E402
from benchmarks.credential_corpora import Sample, commit_of, gitleaks, trufflehog  # noqa: E402
from benchmarks.pii_quality import licence_texts, metadata_descriptions, python_sources  # noqa: E402
from benchmarks.results_file import write_results  # noqa: E402

CHUNK = 20_000
MAX_CORPUS_CHARS = 3_000_000


@dataclass
class Tally:
    gold: int = 0
    covered: int = 0
    touched: int = 0
    finds_on_positives: int = 0
    true_finds: int = 0
    finds_on_negatives: int = 0
    negatives: int = 0
    negatives_flagged: int = 0
    unlocated: int = 0
    set_aside: int = 0
    misses: list[tuple[str, str]] = field(default_factory=list)
    false_positives: list[tuple[str, str, str]] = field(default_factory=list)

    def add(self, sample: Sample, found: list[PiiEntity]) -> None:
        spans = [(e.begin, e.end) for e in found]
        if not sample.positive:
            self.negatives += 1
            self.negatives_flagged += bool(found)
            self.finds_on_negatives += len(found)
            for e in found:
                self.false_positives.append((sample.provider, e.type, sample.text[e.begin : e.end]))
            return
        self.set_aside += sample.set_aside
        if not sample.golds and not sample.context:
            self.unlocated += 1
            return
        for begin, end in sample.golds:
            self.gold += 1
            whole = any(b <= begin and e >= end for b, e in spans)
            self.covered += whole
            self.touched += any(b < end and e > begin for b, e in spans)
            if not whole:
                self.misses.append((sample.provider, _line_around(sample.text, begin, end)))
        for e in found:
            self.finds_on_positives += 1
            if any(e.begin < end and e.end > begin for begin, end in sample.reported):
                self.true_finds += 1
            else:
                self.false_positives.append((sample.provider, e.type, sample.text[e.begin : e.end]))

    def as_dict(self) -> dict[str, Any]:
        all_finds = self.finds_on_positives + self.finds_on_negatives
        return {
            "gold": self.gold,
            "recall_whole": _ratio(self.covered, self.gold),
            "recall_touched": _ratio(self.touched, self.gold),
            "precision_on_positives": _ratio(self.true_finds, self.finds_on_positives),
            "precision_with_negatives": _ratio(self.true_finds, all_finds),
            "negative_samples": self.negatives,
            "negative_samples_flagged": self.negatives_flagged,
            "positives_not_located": self.unlocated,
            "set_aside_fillers_and_ids": self.set_aside,
        }


def _line_around(text: str, begin: int, end: int) -> str:
    start = text.rfind("\n", 0, begin) + 1
    stop = text.find("\n", end)
    line = text[start : stop if stop >= 0 else len(text)].strip()
    return f"{text[begin:end]}  <<  {line[:300]}"


def _ratio(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


class DetectSecretsAlone:
    """The baseline: Yelp detect-secrets' plugins alone, as the detector began."""

    max_chunk_chars = CredentialDetector().max_chunk_chars

    def __init__(self) -> None:
        self._plugins = library.load()

    def detect(self, text: str) -> list[PiiEntity]:
        return list(library.finds(text, self._plugins))


def score(detector: PiiDetector, samples: Iterable[Sample]) -> dict[str, dict[str, Tally]]:
    tallies: dict[str, dict[str, Tally]] = {}
    for sample in samples:
        by_split = tallies.setdefault(sample.corpus, {})
        found = masked_spans(sample.text, detector)
        by_split.setdefault(sample.split, Tally()).add(sample, found)
    return tallies


# -- ordinary text -------------------------------------------------------------------------------


def repo_docs() -> Iterator[tuple[str, str]]:
    for path in sorted([*ROOT.glob("*.md"), *(ROOT / "docs").rglob("*.md")]):
        yield str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")


def repo_python() -> Iterator[tuple[str, str]]:
    for path in sorted((ROOT / "src").rglob("*.py")):
        yield str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")


ORDINARY = {
    "repo_docs": repo_docs,
    "repo_python": repo_python,
    "licences": licence_texts,
    "package_descriptions": metadata_descriptions,
    "python_source": python_sources,
}


def score_plain(
    detector: CredentialDetector, docs: Iterator[tuple[str, str]]
) -> tuple[dict[str, Any], list[tuple[str, str, str]]]:
    chars = scrubbed = files = finds = 0
    seconds = 0.0
    spans: Counter[tuple[str, str]] = Counter()
    found_in: list[tuple[str, str, str]] = []
    for name, text in docs:
        if chars >= MAX_CORPUS_CHARS:
            break
        text = text[: MAX_CORPUS_CHARS - chars]
        files += 1
        for start in range(0, len(text), CHUNK):
            chunk = text[start : start + CHUNK]
            began = time.process_time()
            found = masked_spans(chunk, detector)
            seconds += time.process_time() - began
            chars += len(chunk)
            for e in found:
                finds += 1
                scrubbed += e.end - e.begin
                spans[(e.type, chunk[e.begin : e.end][:60])] += 1
                found_in.append((name, e.type, chunk[max(0, e.begin - 40) : e.end + 10]))
    return {
        "files": files,
        "chars": chars,
        "finds": finds,
        "scrubbed_chars": scrubbed,
        "scrubbed_fraction": round(scrubbed / chars, 5) if chars else 0.0,
        "cpu_ms_per_10kb": round(seconds * 1000 / (chars / 10_000), 2) if chars else None,
        "finds_by_type": dict(Counter(t for t, _ in spans.elements()).most_common()),
    }, found_in


def _half(docs: Iterator[tuple[str, str]], parity: int) -> Iterator[tuple[str, str]]:
    return (doc for n, doc in enumerate(docs) if n % 2 == parity)


# -- report --------------------------------------------------------------------------------------


def run(
    truffle: Path | None, leaks: Path | None, show: str | None
) -> tuple[dict[str, Any], list[str]]:
    detector = CredentialDetector()
    began = time.process_time()
    detector.detect("warm up: password is x")
    loaded = rule_set.load()
    result: dict[str, Any] = {
        "machine": f"{platform.machine()} Python {platform.python_version()}",
        "load_ms": round((time.process_time() - began) * 1000, 1),
        "rule_set": {
            "package": f"credsweeper {loaded.version}",
            "rules_in_file": loaded.total,
            "adopted": len(loaded.rules),
            "skipped": loaded.skipped,
            "not_compiled_by_python_re": list(loaded.uncompiled),
        },
        "corpora": {},
    }
    samples: list[Sample] = []
    if truffle is not None:
        samples += trufflehog(truffle)
        result["corpora"]["trufflehog"] = {"commit": commit_of(truffle)}
    if leaks is not None:
        samples += gitleaks(leaks)
        result["corpora"]["gitleaks"] = {"commit": commit_of(leaks)}
    errors: list[str] = []
    baseline = score(DetectSecretsAlone(), samples)
    for corpus, by_split in score(detector, samples).items():
        providers = {s.provider for s in samples if s.corpus == corpus}
        result["corpora"][corpus]["providers"] = len(providers)
        for split, tally in sorted(by_split.items()):
            result["corpora"][corpus][split] = tally.as_dict()
            result["corpora"][corpus][split]["baseline_recall_whole"] = baseline[corpus][
                split
            ].as_dict()["recall_whole"]
            if split == show:
                errors += [f"{corpus} MISS {p}: {v!r}" for p, v in tally.misses]
                errors += [f"{corpus} FP {p} {t}: {v!r}" for p, t, v in tally.false_positives]
    result["ordinary_text"] = {}
    for name, docs in ORDINARY.items():
        halves = (("all", None),) if name.startswith("repo_") else (("dev", 0), ("held_out", 1))
        for half, parity in halves:
            source = docs() if parity is None else _half(docs(), parity)
            figures, found = score_plain(detector, source)
            result["ordinary_text"][f"{name} ({half})"] = figures
            if show and half in {show, "all"}:
                errors += [f"ordinary FP {n} {t}: {v!r}" for n, t, v in found]
    return result, errors


def markdown(result: dict[str, Any]) -> str:
    rules = result["rule_set"]
    lines = [
        "# Credential detector quality",
        "",
        f"Machine: {result['machine']}; loading the detector and its rules: "
        f"{result['load_ms']} ms CPU.",
        "",
        f"Rule set: {rules['package']}, {rules['adopted']} of {rules['rules_in_file']} rules "
        f"adopted; not compiled by Python's re: {len(rules['not_compiled_by_python_re'])}.",
        "",
        "| corpus | split | gold | recall (whole) | baseline recall (whole) | recall (touched) "
        "| precision (positives) "
        "| precision (with negatives) | negatives flagged | set aside (fillers, labelled ids) |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for corpus, figures in result["corpora"].items():
        for split in ("dev", "held_out"):
            if split not in figures:
                continue
            f = figures[split]
            lines.append(
                f"| {corpus} ({figures['providers']} providers) | {split} | {f['gold']} "
                f"| {f['recall_whole']} | {f['baseline_recall_whole']} | {f['recall_touched']} "
                f"| {f['precision_on_positives']} "
                f"| {f['precision_with_negatives']} "
                f"| {f['negative_samples_flagged']} of {f['negative_samples']} "
                f"| {f['set_aside_fillers_and_ids']} |"
            )
    lines += [
        "",
        "| ordinary text | files | characters | finds | scrubbed | CPU ms / 10 KB |",
        "|---|---|---|---|---|---|",
    ]
    for name, f in result["ordinary_text"].items():
        lines.append(
            f"| {name} | {f['files']} | {f['chars']:,} | {f['finds']} "
            f"| {f['scrubbed_fraction']:.3%} | {f['cpu_ms_per_10kb']} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trufflehog", type=Path, help="git dir of trufflesecurity/trufflehog")
    parser.add_argument("--gitleaks", type=Path, help="git dir of gitleaks/gitleaks")
    parser.add_argument("--out", type=Path, help="JSON results; a .md beside it")
    parser.add_argument("--show-errors", choices=("dev", "held_out"))
    args = parser.parse_args()
    result, errors = run(args.trufflehog, args.gitleaks, args.show_errors)
    for line in errors:
        print(line)
    print(markdown(result))
    if args.out:
        write_results(args.out, result, markdown(result))


if __name__ == "__main__":
    main()
