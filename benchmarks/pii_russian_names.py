"""Russian person names: the local PII detector with and without natasha's NER tagger.

Two measurements, on data read from the machine at run time and never committed:

1. NAME recall and precision on WikiNEuRal's Russian split (github.com/Babelscape/wikineural,
   ``data/wikineural/ru/``: Wikipedia sentences with PER, ORG, LOC and MISC spans). Its
   ``val.conllu`` is the dev half (the only one whose errors were looked at), ``test.conllu`` is
   held out. Each sentence is its tokens joined by spaces and goes through ``detect`` alone. A
   NAME prediction counts when it overlaps a gold PER span; a false positive is counted by the
   gold type it lands on, or as unlabelled.
2. The share of characters scrubbed (any type, and NAME alone) in Russian technical text:
   Markdown files with Cyrillic letters from documentation translations (each ``--docs`` folder,
   e.g. ru.react.dev, ru.vuejs.org, ru.javascript.info), files sorted by path, even positions
   dev, odd held out, at most ``--doc-chars`` characters per folder and half. There is no
   personal data to find there except the docs' own authors, so every find counts against it.

"Before" is the detector with ``russian_names.with_russian_names`` replaced by one passing
the rule-based recogniser's finds through unjudged (the rules alone); "after" is the detector
as shipped.

    python benchmarks/pii_russian_names.py --wikineural WIKINEURAL_RU_DIR \
        --docs DOCS_DIR [DOCS_DIR ...] --out benchmarks/results/pii_russian_names.json \
        [--show-errors dev]

``--show-errors`` prints the dev (or held-out) misses and false positives to stdout only; the
results files hold counts and the docs' most frequent finds, no dataset sentence.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from agent_memory.adapters.local.pii import LocalPiiDetector, russian_names  # noqa: E402
from agent_memory.core.ports import PiiEntity  # noqa: E402
from benchmarks.results_file import write_results  # noqa: E402

SPLITS = {"dev": "val.conllu", "held_out": "test.conllu"}
MAX_CHUNK = 100_000


@dataclass(frozen=True)
class Sentence:
    text: str
    spans: tuple[tuple[str, int, int], ...]  # (type, begin, end)


def read_conllu(path: Path) -> Iterator[Sentence]:
    """WikiNEuRal's ``index<TAB>token<TAB>BIO-tag`` lines, a blank line between sentences."""
    tokens: list[tuple[str, str]] = []
    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        if line.strip():
            _, token, tag = line.split("\t")[:3]
            tokens.append((token, tag))
        elif tokens:
            yield _sentence(tokens)
            tokens = []


def _sentence(tokens: list[tuple[str, str]]) -> Sentence:
    parts: list[str] = []
    spans: list[tuple[str, int, int]] = []
    pos = 0
    for token, tag in tokens:
        begin = pos
        parts.append(token)
        pos += len(token) + 1
        if tag.startswith("B-") or (tag.startswith("I-") and not spans):
            spans.append((tag[2:], begin, begin + len(token)))
        elif tag.startswith("I-"):
            kind, start, _ = spans[-1]
            spans[-1] = (kind, start, begin + len(token))
    return Sentence(" ".join(parts), tuple(spans))


@dataclass
class NameScore:
    gold: int = 0
    found: int = 0
    predicted: int = 0
    correct: int = 0
    false_positive_on: Counter[str] = field(default_factory=Counter)

    def as_dict(self) -> dict[str, Any]:
        return {
            "gold_per": self.gold,
            "recall": round(self.found / self.gold, 4) if self.gold else None,
            "name_predictions": self.predicted,
            "precision": round(self.correct / self.predicted, 4) if self.predicted else None,
            "false_positives_on": dict(self.false_positive_on.most_common()),
        }


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def score_names(
    detect: Callable[[str], list[PiiEntity]], sentences: list[Sentence], show: bool
) -> NameScore:
    score = NameScore()
    for sentence in sentences:
        gold = [(b, e) for kind, b, e in sentence.spans if kind == "PER"]
        names = [(p.begin, p.end) for p in detect(sentence.text) if p.type == "NAME"]
        score.gold += len(gold)
        for g in gold:
            if any(_overlaps(g, n) for n in names):
                score.found += 1
            elif show:
                print(f"MISS {sentence.text[g[0] : g[1]]!r}\t{sentence.text}")
        for n in names:
            score.predicted += 1
            if any(_overlaps(n, g) for g in gold):
                score.correct += 1
                continue
            on = [k for k, b, e in sentence.spans if _overlaps(n, (b, e))]
            score.false_positive_on[on[0] if on else "unlabelled"] += 1
            if show:
                print(f"FP[{on[0] if on else '-'}] {sentence.text[n[0] : n[1]]!r}\t{sentence.text}")
    return score


def doc_texts(folder: Path, split: str, max_chars: int) -> list[str]:
    """Markdown files of ``folder`` with Cyrillic letters, this split's half, up to max_chars."""
    files = sorted(p for p in folder.rglob("*.md") if p.is_file())
    texts: list[str] = []
    total = 0
    for path in files[0 if split == "dev" else 1 :: 2]:
        text = path.read_text(encoding="utf-8", errors="replace")
        if not russian_names.has_cyrillic(text):
            continue
        text = text[: max_chars - total]
        texts.extend(_chunks(text))
        total += len(text)
        if total >= max_chars:
            break
    return texts


def _chunks(text: str) -> Iterator[str]:
    while len(text) > MAX_CHUNK:
        cut = text.rfind("\n", 0, MAX_CHUNK) + 1 or MAX_CHUNK
        yield text[:cut]
        text = text[cut:]
    if text:
        yield text


def over_scrub(detect: Callable[[str], list[PiiEntity]], texts: list[str]) -> dict[str, Any]:
    chars = sum(len(t) for t in texts)
    scrubbed = named = 0
    top: Counter[str] = Counter()
    for text in texts:
        for e in detect(text):
            scrubbed += e.end - e.begin
            if e.type == "NAME":
                named += e.end - e.begin
            top[f"{e.type}:{text[e.begin : e.end]}"] += 1
    return {
        "chars": chars,
        "scrubbed_share": round(scrubbed / chars, 5) if chars else None,
        "name_share": round(named / chars, 5) if chars else None,
        "top": dict(top.most_common(15)),
    }


@contextmanager
def rules_only() -> Iterator[None]:
    """The detector as it was before natasha: its Russian name recogniser finds nothing."""
    shipped = russian_names.with_russian_names
    russian_names.with_russian_names = lambda text, rule_names: list(rule_names)
    try:
        yield
    finally:
        russian_names.with_russian_names = shipped


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--wikineural", type=Path, required=True, help="folder of ru *.conllu")
    parser.add_argument("--docs", type=Path, nargs="*", default=[], help="folders of .md files")
    parser.add_argument("--doc-chars", type=int, default=400_000, help="per folder and half")
    parser.add_argument("--sentences", type=int, help="at most this many per split")
    parser.add_argument("--out", type=Path, help="JSON results; a .md beside it")
    parser.add_argument("--show-errors", choices=tuple(SPLITS))
    args = parser.parse_args()

    detector = LocalPiiDetector()
    results: dict[str, Any] = {
        "python": platform.python_version(),
        "wikineural": {},
        "docs": {},
    }
    for split, name in SPLITS.items():
        sentences = list(read_conllu(args.wikineural / name))[: args.sentences]
        entry: dict[str, Any] = {"sentences": len(sentences)}
        with rules_only():
            entry["before"] = score_names(detector.detect, sentences, False).as_dict()
        started = time.perf_counter()
        show = args.show_errors == split
        entry["after"] = score_names(detector.detect, sentences, show).as_dict()
        entry["after_seconds"] = round(time.perf_counter() - started, 1)
        entry["natasha_alone"] = score_names(
            russian_names.find_russian_names, sentences, False
        ).as_dict()
        results["wikineural"][split] = entry
        print(split, json.dumps(entry, ensure_ascii=False), flush=True)
    for folder in args.docs:
        for split in SPLITS:
            texts = doc_texts(folder, split, args.doc_chars)
            with rules_only():
                before = over_scrub(detector.detect, texts)
            after = over_scrub(detector.detect, texts)
            results["docs"][f"{folder.name}/{split}"] = {"before": before, "after": after}
            print(folder.name, split, before["scrubbed_share"], after["scrubbed_share"], flush=True)
    if args.out:
        write_results(args.out, results, render(results))


def render(results: dict[str, Any]) -> str:
    lines = [
        "# Russian person names (benchmarks/pii_russian_names.py)",
        "",
        "WikiNEuRal ru: a NAME prediction counts when it overlaps a gold PER span.",
        "",
        "| split | gold PER | recall before | precision before | recall after | precision after |",
        "|---|---|---|---|---|---|",
    ]
    for split, e in results["wikineural"].items():
        b, a = e["before"], e["after"]
        lines.append(
            f"| {split} | {b['gold_per']} | {b['recall']} | {b['precision']} "
            f"| {a['recall']} | {a['precision']} |"
        )
    lines += [
        "",
        "Russian technical text: share of characters scrubbed (any type / NAME).",
        "",
        "| corpus/split | characters | before | after | after, NAME |",
        "|---|---|---|---|---|",
    ]
    for key, d in results["docs"].items():
        b, a = d["before"], d["after"]
        lines.append(
            f"| {key} | {a['chars']:,} | {b['scrubbed_share']:.2%} | {a['scrubbed_share']:.2%} "
            f"| {a['name_share']:.2%} |"
        )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
