"""Person names beyond English: the local detector's NAME recall and precision per language, and
the share of characters it scrubs in ordinary technical text of each language.

All data is read at run time from paths given as arguments and never committed:

1. WikiNEuRal (github.com/Babelscape/wikineural, ``data/wikineural/<lang>/{val,test}.conllu``:
   Wikipedia sentences in de, en, es, fr, it, nl, pl, pt, ru with PER/ORG/LOC/MISC spans). Its
   ``val`` file is the dev split (the only one whose errors were looked at while tuning), its
   ``test`` file is held out. Each sentence is its tokens joined by spaces.
2. Japanese: the Stockmark Wikipedia NER set (github.com/stockmarkteam/ner-wikipedia-dataset,
   ``ner.json``; 人名 spans are persons). It has no split: even page ids are dev, odd held out.
3. Chinese: the Resume NER set (github.com/jiesutd/LatticeLSTM, ``ResumeNER/{dev,test}.char.bmes``:
   résumés of Chinese executives, NAME spans). Its dev file is the dev split, test held out.
4. Ordinary technical text: the ``msgstr`` translations of the Python documentation in other
   languages (github.com/python/python-docs-<lang>, its ``.po`` files). Everything scrubbed
   there is counted as over-scrubbing (the translators' and authors' names it holds are people,
   and counted against us all the same); files alternate between dev and held out.

A prediction counts when it overlaps a gold person span. Predictions on an ORG/LOC/MISC span
are counted apart.

    python benchmarks/pii_names.py --wikineural REPO --japanese ner.json --chinese RESUME_DIR \
        --docs fr=DIR --docs ja=DIR ... --out benchmarks/results/pii_names.json \
        [--show-errors dev --lang ru]

``--show-errors`` prints that split's misses and false positives to stdout only; the results
files hold counts and the technical corpora's most frequent finds, no dataset sentence.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from agent_memory.adapters.local.pii import LocalPiiDetector  # noqa: E402
from benchmarks.results_file import write_results  # noqa: E402

WIKINEURAL_LANGS = ("de", "en", "es", "fr", "it", "nl", "pl", "pt", "ru")
SPLITS = ("dev", "held_out")
MAX_DOCS_CHARS = 1_000_000
CLAIM_RECALL = 0.95
CLAIM_SCRUBBED = 0.01

Span = tuple[int, int, str]  # begin, end, gold type ("PER" for a person)


@dataclass
class Doc:
    text: str
    spans: list[Span]


@dataclass
class Tally:
    docs: int = 0
    gold: int = 0
    found: int = 0
    predicted: int = 0
    correct: int = 0
    on_other_entity: int = 0
    misses: list[str] = field(default_factory=list)
    false_positives: list[str] = field(default_factory=list)

    def report(self) -> dict[str, Any]:
        return {
            "documents": self.docs,
            "gold": self.gold,
            "recall": round(self.found / self.gold, 3) if self.gold else None,
            "predicted": self.predicted,
            "precision": round(self.correct / self.predicted, 3) if self.predicted else None,
            "false_positives_on_other_entities": self.on_other_entity,
        }


def _from_tokens(tokens: list[tuple[str, str]], sep: str) -> Doc:
    """A document from (token, BIO/BMES tag) rows, tokens joined by ``sep``."""
    parts: list[str] = []
    spans: list[Span] = []
    pos = 0
    open_span: list[Any] | None = None
    for token, tag in tokens:
        if parts:
            pos += len(sep)
        begin, pos = pos, pos + len(token)
        parts.append(token)
        prefix, _, kind = tag.partition("-")
        if prefix in ("B", "S") or (prefix in ("I", "M", "E") and open_span is None):
            if open_span:
                spans.append((open_span[0], open_span[1], open_span[2]))
            open_span = [begin, pos, kind]
        elif prefix in ("I", "M", "E") and open_span is not None:
            open_span[1] = pos
        else:
            if open_span:
                spans.append((open_span[0], open_span[1], open_span[2]))
            open_span = None
    if open_span:
        spans.append((open_span[0], open_span[1], open_span[2]))
    spans = [(b, e, "PER" if k in ("PER", "NAME") else k) for b, e, k in spans]
    return Doc(sep.join(parts), spans)


def _rows(text: str, columns: slice) -> Iterator[list[tuple[str, str]]]:
    rows: list[tuple[str, str]] = []
    for line in text.splitlines():
        fields = line.split()
        if not fields:
            if rows:
                yield rows
            rows = []
            continue
        token, tag = fields[columns]
        rows.append((token, tag))
    if rows:
        yield rows


def wikineural(repo: Path, lang: str, split: str) -> Iterator[Doc]:
    name = "val" if split == "dev" else "test"
    text = (repo / "data" / "wikineural" / lang / f"{name}.conllu").read_text(encoding="utf-8")
    for rows in _rows(text, slice(1, 3)):
        yield _from_tokens(rows, " ")


def chinese_resume(folder: Path, split: str) -> Iterator[Doc]:
    name = "dev" if split == "dev" else "test"
    text = (folder / f"{name}.char.bmes").read_text(encoding="utf-8")
    for rows in _rows(text, slice(0, 2)):
        yield _from_tokens(rows, "")


def japanese(path: Path, split: str) -> Iterator[Doc]:
    parity = 0 if split == "dev" else 1
    for item in json.loads(path.read_text(encoding="utf-8")):
        if int(item["curid"]) % 2 != parity:
            continue
        spans = [
            (e["span"][0], e["span"][1], "PER" if e["type"] == "人名" else e["type"])
            for e in item["entities"]
        ]
        yield Doc(item["text"], spans)


def score(detector: LocalPiiDetector, docs: Iterator[Doc]) -> Tally:
    tally = Tally()
    for doc in docs:
        tally.docs += 1
        names = [(e.begin, e.end) for e in detector.detect(doc.text) if e.type == "NAME"]
        people = [(b, e) for b, e, kind in doc.spans if kind == "PER"]
        others = [(b, e) for b, e, kind in doc.spans if kind != "PER"]
        tally.gold += len(people)
        for b, e in people:
            if any(pb < e and b < pe for pb, pe in names):
                tally.found += 1
            else:
                tally.misses.append(f"{doc.text[b:e]!r} in {doc.text!r}")
        tally.predicted += len(names)
        for b, e in names:
            if any(gb < e and b < ge for gb, ge in people):
                tally.correct += 1
                continue
            if any(gb < e and b < ge for gb, ge in others):
                tally.on_other_entity += 1
            tally.false_positives.append(f"{doc.text[b:e]!r} in {doc.text!r}")
    return tally


_MSGSTR = re.compile(r'^msgstr(?:\[\d+\])? "(.*)"$')
_CONTINUED = re.compile(r'^"(.*)"$')
_ESCAPES = {"\\n": "\n", '\\"': '"', "\\t": "\t", "\\\\": "\\"}


def po_texts(path: Path) -> str:
    """The translated strings of one ``.po`` file, one paragraph each."""
    out: list[str] = []
    current: list[str] | None = None
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        start = _MSGSTR.match(line)
        more = _CONTINUED.match(line)
        if start:
            current = [start.group(1)]
            out.append("")
        elif more and current is not None:
            current.append(more.group(1))
        else:
            if current:
                out[-1] = re.sub(r"\\[n\"t\\]", lambda m: _ESCAPES[m.group()], "".join(current))
            current = None
    if current:
        out[-1] = "".join(current)
    return "\n\n".join(t for t in out if t.strip())


def docs_corpus(folder: Path, split: str) -> Iterator[tuple[str, str]]:
    parity = 0 if split == "dev" else 1
    files = sorted(p for p in folder.rglob("*.po") if "/." not in str(p))
    total = 0
    for n, path in enumerate(files):
        if n % 2 != parity:
            continue
        text = po_texts(path)
        if total + len(text) > MAX_DOCS_CHARS:
            text = text[: MAX_DOCS_CHARS - total]
        total += len(text)
        yield str(path.relative_to(folder)), text
        if total >= MAX_DOCS_CHARS:
            return


def score_docs(detector: LocalPiiDetector, docs: Iterator[tuple[str, str]]) -> dict[str, Any]:
    chars = scrubbed = files = 0
    top: Counter[str] = Counter()
    cpu = time.process_time()
    for _name, text in docs:
        files += 1
        chars += len(text)
        for start in range(0, len(text), 20_000):
            chunk = text[start : start + 20_000]
            for e in detector.detect(chunk):
                scrubbed += e.end - e.begin
                # Names are shown (the finds to judge); addresses and numbers only by type.
                shown = f" `{chunk[e.begin : e.end]}`" if e.type == "NAME" else ""
                top[f"{e.type}{shown}"] += 1
    cpu = time.process_time() - cpu
    return {
        "files": files,
        "characters": chars,
        "scrubbed": scrubbed,
        "share": round(scrubbed / chars, 5) if chars else None,
        "cpu_ms_per_10kb": round(cpu * 1000 / (chars / 10_000), 2) if chars else None,
        "top": top.most_common(12),
    }


def run(args: argparse.Namespace) -> tuple[dict[str, Any], dict[str, dict[str, Tally]]]:
    detector = LocalPiiDetector()
    tallies: dict[str, dict[str, Tally]] = {}
    for split in SPLITS:
        if args.wikineural:
            for lang in WIKINEURAL_LANGS:
                docs = wikineural(args.wikineural, lang, split)
                tallies.setdefault(lang, {})[split] = score(detector, docs)
        if args.japanese:
            tallies.setdefault("ja", {})[split] = score(detector, japanese(args.japanese, split))
        if args.chinese:
            docs = chinese_resume(args.chinese, split)
            tallies.setdefault("zh", {})[split] = score(detector, docs)
    plain: dict[str, dict[str, Any]] = {}
    for item in args.docs or ():
        lang, _, folder = item.partition("=")
        plain[lang] = {s: score_docs(detector, docs_corpus(Path(folder), s)) for s in SPLITS}
    result = {
        "names": {lang: {s: t.report() for s, t in by.items()} for lang, by in tallies.items()},
        "technical_text": plain,
        "claim": {"recall": CLAIM_RECALL, "scrubbed_share": CLAIM_SCRUBBED},
    }
    return result, tallies


def _fmt(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def markdown(result: dict[str, Any]) -> str:
    lines = [
        "# Person names beyond English: local detector",
        "",
        "WikiNEuRal (val = dev, test = held out), Stockmark Japanese Wikipedia NER (even page ids",
        "dev, odd held out), Resume NER Chinese (dev / test). A NAME prediction counts when it",
        "overlaps a gold person span.",
        "",
        "| language | split | sentences | gold | recall | predicted | precision "
        "| FP on ORG/LOC/MISC |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for lang, by in sorted(result["names"].items()):
        for split, r in by.items():
            lines.append(
                f"| {lang} | {split} | {r['documents']} | {r['gold']} | {_fmt(r['recall'])} "
                f"| {r['predicted']} | {_fmt(r['precision'])} "
                f"| {r['false_positives_on_other_entities']} |"
            )
    lines += [
        "",
        "## Ordinary technical text (Python documentation translations, msgstr only)",
        "",
        "| language | split | files | characters | scrubbed | share | CPU ms per 10 KB |",
        "|---|---|---|---|---|---|---|",
    ]
    for lang, by in sorted(result["technical_text"].items()):
        for split, r in by.items():
            lines.append(
                f"| {lang} | {split} | {r['files']} | {r['characters']:,} | {r['scrubbed']:,} "
                f"| {r['share']:.3%} | {r['cpu_ms_per_10kb']} |"
            )
    for lang, by in sorted(result["technical_text"].items()):
        top = by["dev"]["top"][:6]
        if top:
            finds = ", ".join(f"{what} ×{n}" for what, n in top)
            lines += ["", f"Most frequent finds, {lang} (dev): {finds}"]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--wikineural", type=Path, help="a checkout of Babelscape/wikineural")
    parser.add_argument("--japanese", type=Path, help="ner.json of the Stockmark NER set")
    parser.add_argument("--chinese", type=Path, help="folder of ResumeNER/*.char.bmes")
    parser.add_argument("--docs", action="append", help="LANG=folder of python-docs .po files")
    parser.add_argument("--out", type=Path, help="JSON results; a .md beside it")
    parser.add_argument("--show-errors", choices=SPLITS)
    parser.add_argument("--lang", action="append", help="with --show-errors: these languages")
    parser.add_argument("--limit", type=int, default=200, help="errors shown per kind")
    args = parser.parse_args()
    result, tallies = run(args)
    for lang, by in tallies.items() if args.show_errors else ():
        if args.lang and lang not in args.lang:
            continue
        tally = by[args.show_errors]
        for miss in tally.misses[: args.limit]:
            print(f"{lang} MISS {miss}")
        for fp in tally.false_positives[: args.limit]:
            print(f"{lang} FP {fp}")
    print(markdown(result))
    if args.out:
        write_results(args.out, result, markdown(result))


if __name__ == "__main__":
    main()
