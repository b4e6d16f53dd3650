"""Quality of the local PII detector on text nobody here wrote.

Three measurements, all read from the machine at run time and never committed:

1. Precision and recall per type on Microsoft presidio-research's synthetic PII dataset
   (``data/synth_dataset_v2.json`` of github.com/microsoft/presidio-research: 1,500 labelled
   sentences from 209 templates). Its types are mapped to Comprehend's; a prediction counts when
   it overlaps a gold span of the same type. The split is by template: even template ids are the
   dev half (the only one whose errors were looked at while tuning), odd ones are held out.
   NAME predictions overlapping an ORGANIZATION or GPE span are counted apart: they are the
   "place or company taken for a person" errors.
2. The share of characters scrubbed in ordinary text with no personal data in it: the licence
   files of the installed packages, their METADATA descriptions, and Python source files of the
   standard library's and installed packages' modules. Everything found there is a false
   positive (a licence names its copyright holder: those are people, and counted all the same),
   so the figure is an upper bound of the over-scrubbing; the most frequent ones are listed.
3. Person names in social-media text written by people, not templates: WNUT 2017 emerging and
   rare entities (github.com/leondz/emerging_entities_17; tweets, Reddit, YouTube and
   StackExchange comments with person, location, corporation, group, product and creative-work
   spans). Its train and dev files are the dev split, its annotated test file is held out. Each
   document is its tokens joined by spaces; NAME recall and precision are scored as above, and a
   false positive is counted by the gold type it lands on (a band or a product taken for a
   person) or as unlabelled.

    python benchmarks/pii_quality.py --data PATH/synth_dataset_v2.json --wnut WNUT_DIR \
        --out benchmarks/results/pii_quality.json [--show-errors dev]

``--show-errors`` prints the dev (or held-out) misses and false positives to stdout only; the
results files hold counts and the technical corpora's top false positives, no dataset sentence.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import sysconfig
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from agent_memory.adapters.local.pii import LocalPiiDetector  # noqa: E402
from agent_memory.core.ports import PiiEntity  # noqa: E402
from benchmarks.results_file import write_results  # noqa: E402

TYPE_MAP = {
    "PERSON": "NAME",
    "STREET_ADDRESS": "ADDRESS",
    "PHONE_NUMBER": "PHONE",
    "EMAIL_ADDRESS": "EMAIL",
    "CREDIT_CARD": "CREDIT_DEBIT_NUMBER",
    "US_SSN": "SSN",
    "IP_ADDRESS": "IP_ADDRESS",
    "IBAN_CODE": "INTERNATIONAL_BANK_ACCOUNT_NUMBER",
    "US_DRIVER_LICENSE": "DRIVER_ID",
}
NOT_PEOPLE = ("ORGANIZATION", "GPE")
# Amazon Comprehend's published per-type precision/recall for DetectPiiEntities: AWS's
# documentation and its AI Service Card for Detect PII describe how accuracy is measured
# (precision, recall, F1 against human annotation) but publish no per-type figures.
COMPREHEND_PUBLISHED: dict[str, dict[str, float]] = {}
MAX_CORPUS_CHARS = 1_000_000
CHUNK = 20_000


@dataclass
class Tally:
    gold: int = 0
    predicted: int = 0
    found: int = 0
    correct: int = 0
    on_other_pii: int = 0  # wrong type, but over personal data of another type (a street name)

    def as_dict(self) -> dict[str, Any]:
        return {
            "gold": self.gold,
            "predicted": self.predicted,
            "found": self.found,
            "correct": self.correct,
            "recall": round(self.found / self.gold, 4) if self.gold else None,
            "precision": round(self.correct / self.predicted, 4) if self.predicted else None,
            "scrub_precision": (
                round((self.correct + self.on_other_pii) / self.predicted, 4)
                if self.predicted
                else None
            ),
        }


@dataclass
class Split:
    samples: int = 0
    tallies: dict[str, Tally] = field(default_factory=dict)
    name_on_org_or_place: int = 0
    misses: list[tuple[str, str]] = field(default_factory=list)
    false_positives: list[tuple[str, str, str]] = field(default_factory=list)


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def _match(
    split: Split,
    kind: str,
    text: str,
    gold: list[tuple[int, int]],
    predicted: list[tuple[int, int]],
) -> list[tuple[int, int]]:
    """Counts ``kind``'s gold and predicted spans into ``split`` and returns the false positives."""
    tally = split.tallies.setdefault(kind, Tally())
    tally.gold += len(gold)
    tally.predicted += len(predicted)
    for x in gold:
        if any(_overlap(x, y) for y in predicted):
            tally.found += 1
        else:
            split.misses.append((kind, text[x[0] : x[1]]))
    wrong = [y for y in predicted if not any(_overlap(y, x) for x in gold)]
    tally.correct += len(predicted) - len(wrong)
    return wrong


def score_presidio(detector: LocalPiiDetector, data: Path) -> dict[str, Split]:
    samples = json.loads(data.read_text(encoding="utf-8"))
    splits = {"dev": Split(), "held_out": Split()}
    for sample in samples:
        split = splits["dev" if sample["template_id"] % 2 == 0 else "held_out"]
        split.samples += 1
        text = sample["full_text"]
        predicted = detector.detect(text)
        gold: dict[str, list[tuple[int, int]]] = {}
        others: list[tuple[str, tuple[int, int]]] = []
        for span in sample["spans"]:
            where = (span["start_position"], span["end_position"])
            kind = TYPE_MAP.get(span["entity_type"])
            if kind:
                gold.setdefault(kind, []).append(where)
            others.append((span["entity_type"], where))
        for kind in {*TYPE_MAP.values(), *(e.type for e in predicted)}:
            tally = split.tallies.setdefault(kind, Tally())
            p = [(e.begin, e.end) for e in predicted if e.type == kind]
            for y in _match(split, kind, text, gold.get(kind, []), p):
                # What else the prediction covers: often PII of another type (a street name).
                hit = [t for t, w in others if _overlap(y, w)]
                if any(t in TYPE_MAP for t in hit):
                    tally.on_other_pii += 1
                if kind == "NAME" and any(t in NOT_PEOPLE for t in hit):
                    split.name_on_org_or_place += 1
                split.false_positives.append(
                    (kind, text[y[0] : y[1]], hit[0] if hit else "unlabelled")
                )
    return splits


# -- WNUT 2017: people named in social-media text ---------------------------------------------

WNUT_FILES = {
    "dev": ("wnut17train.conll", "emerging.dev.conll"),
    "held_out": ("emerging.test.annotated",),
}


@dataclass
class WnutDoc:
    text: str
    spans: list[tuple[str, tuple[int, int]]]  # (gold type, span), every type of entity


def wnut_docs(path: Path) -> Iterator[WnutDoc]:
    """The documents of a WNUT 2017 CoNLL file: one token and its BIO tag per line."""
    rows: list[tuple[str, str]] = []
    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        if line.strip():
            token, _, tag = line.rpartition("\t")
            rows.append((token, tag.strip()))
        elif rows:
            yield _wnut_doc(rows)
            rows = []


def _wnut_doc(rows: list[tuple[str, str]]) -> WnutDoc:
    parts: list[str] = []
    spans: list[tuple[str, tuple[int, int]]] = []
    at = 0
    for token, tag in rows:
        if parts:
            at += 1
        begin, at = at, at + len(token)
        parts.append(token)
        if tag.startswith("B-"):
            spans.append((tag[2:], (begin, at)))
        elif tag.startswith("I-") and spans and spans[-1][0] == tag[2:]:
            spans[-1] = (tag[2:], (spans[-1][1][0], at))
    return WnutDoc(" ".join(parts), spans)


def score_wnut(detector: LocalPiiDetector, folder: Path) -> dict[str, Split]:
    splits = {name: Split() for name in WNUT_FILES}
    for name, files in WNUT_FILES.items():
        split = splits[name]
        for file in files:
            for doc in wnut_docs(folder / file):
                split.samples += 1
                gold = [w for t, w in doc.spans if t == "person"]
                predicted = [
                    (e.begin, e.end) for e in detector.detect(doc.text) if e.type == "NAME"
                ]
                for y in _match(split, "NAME", doc.text, gold, predicted):
                    on = next((t for t, w in doc.spans if _overlap(y, w)), "unlabelled")
                    split.false_positives.append(("NAME", doc.text[y[0] : y[1]], on))
    return splits


def _wnut_report(split: Split) -> dict[str, Any]:
    return {
        "documents": split.samples,
        "NAME": split.tallies.get("NAME", Tally()).as_dict(),
        "false_positives_on": dict(Counter(on for _, _, on in split.false_positives).most_common()),
    }


# -- ordinary technical and contract text ------------------------------------------------------


def _site_packages() -> Path:
    return Path(sysconfig.get_paths()["purelib"])


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def licence_texts() -> Iterator[tuple[str, str]]:
    for info in sorted(_site_packages().glob("*.dist-info")):
        for path in sorted(info.rglob("*")):
            upper = path.name.upper()
            if path.is_file() and ("LICEN" in upper or "COPYING" in upper or "NOTICE" in upper):
                yield f"{info.name}/{path.name}", _read(path)


def metadata_descriptions() -> Iterator[tuple[str, str]]:
    for info in sorted(_site_packages().glob("*.dist-info")):
        text = _read(info / "METADATA")
        # The description follows the first blank line; headers hold the authors' names.
        _, _, body = text.partition("\n\n")
        if body.strip():
            yield info.name, body


def python_sources() -> Iterator[tuple[str, str]]:
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    roots = [stdlib, _site_packages()]
    for root in roots:
        for path in sorted(root.glob("*.py"))[:800]:
            yield path.name, _read(path)


def _half(docs: Iterator[tuple[str, str]], parity: int) -> Iterator[tuple[str, str]]:
    return (doc for n, doc in enumerate(docs) if n % 2 == parity)


CORPORA = {
    "licences": licence_texts,
    "package_descriptions": metadata_descriptions,
    "python_source": python_sources,
}


def score_plain(detector: LocalPiiDetector, docs: Iterator[tuple[str, str]]) -> dict[str, Any]:
    chars = scrubbed = files = 0
    by_type: Counter[str] = Counter()
    spans: Counter[tuple[str, str]] = Counter()
    seconds = 0.0
    for _name, text in docs:
        if chars >= MAX_CORPUS_CHARS:
            break
        text = text[: MAX_CORPUS_CHARS - chars]
        files += 1
        for start in range(0, len(text), CHUNK):
            chunk = text[start : start + CHUNK]
            began = time.process_time()  # CPU time: other processes share the machine
            found: list[PiiEntity] = detector.detect(chunk)
            seconds += time.process_time() - began
            chars += len(chunk)
            for e in found:
                scrubbed += e.end - e.begin
                by_type[e.type] += e.end - e.begin
                spans[(e.type, " ".join(chunk[e.begin : e.end].split()))] += 1
    return {
        "files": files,
        "chars": chars,
        "scrubbed_chars": scrubbed,
        "scrubbed_fraction": round(scrubbed / chars, 5) if chars else 0.0,
        "scrubbed_chars_by_type": dict(by_type.most_common()),
        "cpu_ms_per_10kb": round(seconds * 1000 / (chars / 10_000), 2) if chars else None,
        "top_false_positives": [
            {"type": t, "text": s, "count": n} for (t, s), n in spans.most_common(25)
        ],
    }


# -- report ------------------------------------------------------------------------------------


def run(
    data: Path | None, wnut: Path | None = None
) -> tuple[dict[str, Any], dict[str, dict[str, Split]]]:
    began = time.process_time()
    detector = LocalPiiDetector()
    detector.detect("warm up the lexicon: John Smith")
    construction_ms = (time.process_time() - began) * 1000
    result: dict[str, Any] = {
        "machine": f"{platform.machine()} Python {platform.python_version()}",
        "construction_ms": round(construction_ms, 1),
        "comprehend_published": COMPREHEND_PUBLISHED
        or "none: AWS publishes no per-type precision/recall for DetectPiiEntities",
    }
    splits: dict[str, dict[str, Split]] = {}
    if data is not None:
        splits["presidio"] = score_presidio(detector, data)
        result["presidio"] = {
            name: {
                "samples": s.samples,
                "per_type": {
                    k: t.as_dict() for k, t in sorted(s.tallies.items()) if t.gold or t.predicted
                },
                "name_predictions_on_organization_or_place": s.name_on_org_or_place,
            }
            for name, s in splits["presidio"].items()
        }
    if wnut is not None:
        splits["wnut"] = score_wnut(detector, wnut)
        result["wnut17"] = {name: _wnut_report(s) for name, s in splits["wnut"].items()}
    # Each corpus in two halves by file (even = dev, the only one whose errors were looked at).
    result["plain_text"] = {
        f"{name} ({half})": score_plain(detector, _half(docs(), parity))
        for name, docs in CORPORA.items()
        for half, parity in (("dev", 0), ("held_out", 1))
    }
    return result, splits


def markdown(result: dict[str, Any]) -> str:
    lines = ["# Local PII detector: quality on text nobody here wrote", ""]
    if "presidio" in result:
        lines += [
            "presidio-research synthetic dataset v2, split by template id (even = dev, the only",
            "half tuned on; odd = held out). A prediction counts when it overlaps a gold span of",
            "its type; scrub precision also counts one over personal data of another type (a",
            "street name taken for a person is still scrubbed). Amazon Comprehend: AWS publishes",
            "no per-type figures.",
            "",
            "| type | split | gold | recall | predicted | precision | scrub precision |",
            "|---|---|---|---|---|---|---|",
        ]
        kinds = sorted({k for s in result["presidio"].values() for k in s["per_type"]})
        for kind in kinds:
            for split, s in result["presidio"].items():
                t = s["per_type"].get(kind)
                if t is None:
                    continue
                lines.append(
                    f"| {kind} | {split} | {t['gold']} | {_fmt(t['recall'])} | "
                    f"{t['predicted']} | {_fmt(t['precision'])} | {_fmt(t['scrub_precision'])} |"
                )
        lines.append("")
        for split, s in result["presidio"].items():
            lines.append(
                f"- {split}: {s['samples']} samples; NAME predictions on an ORGANIZATION or "
                f"GPE span: {s['name_predictions_on_organization_or_place']}"
            )
        lines.append("")
    if "wnut17" in result:
        lines += [
            "## Person names in social-media text (WNUT 2017)",
            "",
            "Train and dev files are the dev split, the annotated test file is held out.",
            "",
            "| split | documents | gold | recall | predicted | precision | false positives on |",
            "|---|---|---|---|---|---|---|",
        ]
        for split, w in result["wnut17"].items():
            t = w["NAME"]
            on = ", ".join(f"{k} {n}" for k, n in w["false_positives_on"].items())
            lines.append(
                f"| {split} | {w['documents']} | {t['gold']} | {_fmt(t['recall'])} | "
                f"{t['predicted']} | {_fmt(t['precision'])} | {on} |"
            )
        lines.append("")
    lines += [
        "## Ordinary text without personal data (everything found is over-scrubbing)",
        "",
        "| corpus | files | characters | scrubbed | share | CPU ms per 10 KB |",
        "|---|---|---|---|---|---|",
    ]
    for name, c in result["plain_text"].items():
        lines.append(
            f"| {name} | {c['files']} | {c['chars']:,} | {c['scrubbed_chars']:,} | "
            f"{c['scrubbed_fraction']:.3%} | {c['cpu_ms_per_10kb']} |"
        )
    for name, c in result["plain_text"].items():
        lines += ["", f"Top false positives in {name}:", ""]
        lines += [
            f"- {fp['type']} `{fp['text']}` ×{fp['count']}" for fp in c["top_false_positives"][:12]
        ]
    lines += [
        "",
        f"Detector construction with its first call: {result['construction_ms']} ms of CPU.",
        "",
    ]
    return "\n".join(lines)


def _fmt(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, help="presidio-research synth_dataset_v2.json")
    parser.add_argument("--wnut", type=Path, help="folder of the WNUT 2017 CoNLL files")
    parser.add_argument("--out", type=Path, help="JSON results; a .md beside it")
    parser.add_argument("--show-errors", choices=("dev", "held_out"))
    args = parser.parse_args()
    result, splits = run(args.data, args.wnut)
    for dataset, by_split in splits.items() if args.show_errors else ():
        split = by_split[args.show_errors]
        for kind, value in split.misses:
            print(f"{dataset} MISS {kind}: {value!r}")
        for kind, value, on in split.false_positives:
            print(f"{dataset} FP {kind} ({on}): {value!r}")
    print(markdown(result))
    if args.out:
        write_results(args.out, result, markdown(result))


if __name__ == "__main__":
    main()
