"""Lexical expansion from WordNet, measured on the product's LoCoMo memory (research only).

The LoCoMo session misses called "other words" (RETRIEVAL_RECIPE.md) put a class in the
question and an instance in the turn ("pets" / "dog"), or a synonym. A lexicon links those
words without a model: each message word indexed with its WordNet synonyms and hypernyms at a
fraction of a word's weight (document expansion), so a question's class word matches the
instance's unit. Every variant is scored paired against the product on the same memory; the
index is rebuilt for each variant, the stored memory is not rewritten.

WordNet 3.0 comes from Debian's ``wordnet-base`` package (``apt-get download wordnet-base``,
``dpkg-deb -x``), read here from its database files; nothing of it enters the project. Run from
the repository root, dev conversations only until a variant is chosen::

    .venv/bin/python benchmarks/research/wordnet_expansion.py \
        --wordnet /tmp/wn/x/usr/share/wordnet --locomo $AGENT_MEMORY_BENCH_DATA/locomo --split dev \
        --out build/wordnet.json
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np
import numpy.typing as npt

if __package__ in {None, ""}:  # run as a script: make ``benchmarks`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from agent_memory.adapters.local.embeddings import LocalEmbedder
from agent_memory.core.retrieval import index_rows, lexical
from benchmarks import longmemeval as lme
from benchmarks import retrieval as locomo
from benchmarks.bench_consolidation import TimedEmbedder
from benchmarks.research import longmemeval_ablation as ablation

REPO = Path(__file__).resolve().parents[2]
NOUN, VERB = "noun", "verb"
# WordNet's own detachment rules (morphy), per part of speech.
_SUFFIXES = {
    NOUN: (
        ("s", ""),
        ("ses", "s"),
        ("xes", "x"),
        ("zes", "z"),
        ("ches", "ch"),
        ("shes", "sh"),
        ("men", "man"),
        ("ies", "y"),
    ),
    VERB: (
        ("s", ""),
        ("ies", "y"),
        ("es", "e"),
        ("es", ""),
        ("ed", "e"),
        ("ed", ""),
        ("ing", "e"),
        ("ing", ""),
    ),
}
_HYPERNYM = ("@", "@i")


class WordNet:
    """WordNet 3.0's database files: synsets by offset, lemmas' senses in frequency order."""

    def __init__(self, root: Path) -> None:
        self.root = root
        # Loaded once per part of speech (methods cached per instance, not by functools).
        self.synsets = functools.cache(self._synsets)
        self.senses = functools.cache(self._senses)
        self.exceptions = functools.cache(self._exceptions)

    def _synsets(self, pos: str) -> dict[int, tuple[tuple[str, ...], tuple[int, ...]]]:
        """Offset -> (its words, its hypernyms' offsets)."""
        out = {}
        for line in (self.root / f"data.{pos}").open(encoding="latin-1"):
            if line.startswith("  "):
                continue
            head = line.split(" | ")[0].split()
            n = int(head[3], 16)
            words = tuple(head[4 + 2 * i].lower() for i in range(n))
            at = 4 + 2 * n
            pointers = int(head[at])
            ptrs = [head[at + 1 + 4 * i : at + 5 + 4 * i] for i in range(pointers)]
            hyper = tuple(int(o) for sym, o, p, _ in ptrs if sym in _HYPERNYM and p == pos[0])
            out[int(head[0])] = (words, hyper)
        return out

    def _senses(self, pos: str) -> dict[str, tuple[int, ...]]:
        out = {}
        for line in (self.root / f"index.{pos}").open(encoding="latin-1"):
            if line.startswith("  "):
                continue
            f = line.split()
            out[f[0]] = tuple(int(x) for x in f[4 + int(f[3]) + 2 :])
        return out

    def _exceptions(self, pos: str) -> dict[str, str]:
        lines = (self.root / f"{pos}.exc").read_text(encoding="latin-1").splitlines()
        return {f[0]: f[1] for f in (line.split() for line in lines) if len(f) > 1}

    def lemmas(self, word: str, pos: str) -> list[str]:
        index = self.senses(pos)
        found = [w for w in (word, self.exceptions(pos).get(word)) if w and w in index]
        for suffix, ending in _SUFFIXES[pos]:
            base = word[: len(word) - len(suffix)] + ending
            if word.endswith(suffix) and base in index and base not in found:
                found.append(base)
        return found


@dataclass(frozen=True)
class Expansion:
    """Which related words a message word is indexed with, and at what weight."""

    weight: float
    parts: tuple[str, ...] = (NOUN,)
    senses: int = 1  # the most frequent senses taken (WordNet orders them by tagged count)
    depth: int = 1  # hypernym levels; 0 = synonyms only
    lengthens: bool = True  # whether related terms count in a unit's BM25 length

    def related(self, wordnet: WordNet, word: str) -> set[str]:
        out: set[str] = set()
        for pos in self.parts:
            synsets = wordnet.synsets(pos)
            for lemma in wordnet.lemmas(word, pos)[:1]:
                level = list(wordnet.senses(pos)[lemma][: self.senses])
                for step in range(self.depth + 1):
                    for offset in level:
                        out.update(w for w in synsets[offset][0] if "_" not in w)
                    if step < self.depth:
                        level = [h for o in level for h in synsets[o][1]]
        return out


def expanding(
    wordnet: WordNet, expansion: Expansion
) -> Callable[[], contextlib.AbstractContextManager[None]]:
    """A patch of the index's postings: each message term also posts its related terms."""
    surface: dict[str, set[str]] = {}
    original_tokenize = lexical.tokenize

    def tokenize(text: str) -> list[str]:
        for word in lexical._WORD.findall(text.lower()):
            if word not in lexical.STOP_WORDS:
                surface.setdefault(lexical._stem(word), set()).add(word)
        return original_tokenize(text)

    related_terms: dict[str, tuple[str, ...]] = {}

    def related(stem: str) -> tuple[str, ...]:
        if stem not in related_terms:
            words = set().union(*(expansion.related(wordnet, w) for w in surface.get(stem, ())))
            terms = {t for w in words for t in original_tokenize(w)} - {stem}
            related_terms[stem] = tuple(sorted(terms))
        return related_terms[stem]

    original_prepare = index_rows.prepare
    original_postings = index_rows._postings
    vocabulary: list[index_rows.Vocabulary] = []

    def prepare(episode: Any, voc: index_rows.Vocabulary, *args: Any) -> Any:
        vocabulary[:] = [voc]
        return original_prepare(episode, voc, *args)

    def postings(
        own: npt.NDArray[np.int32],
        own_rows: npt.NDArray[np.int32],
        plain: npt.NDArray[np.int32],
        plain_rows: npt.NDArray[np.int32],
        *,
        messages: int,
        rows: int,
    ) -> Any:
        per_row, terms, counts, lengths = original_postings(
            own, own_rows, plain, plain_rows, messages=messages, rows=rows
        )
        ids = vocabulary[0].ids
        names = {i: t for t, i in ids.items()}
        extra: dict[tuple[int, int], float] = {}
        for row, term in zip(plain_rows.tolist(), plain.tolist(), strict=True):
            for t in related(names[term]):
                key = (row, ids.setdefault(t, len(ids)))
                extra[key] = extra.get(key, 0.0) + expansion.weight
        if not extra:
            return per_row, terms, counts, lengths
        docs = np.repeat(np.arange(rows), per_row)
        keys = dict(
            zip(zip(docs.tolist(), terms.tolist(), strict=True), counts.tolist(), strict=True)
        )
        for key, weight in extra.items():
            keys[key] = keys.get(key, 0.0) + weight
        ordered = sorted(keys)
        new_docs = np.array([d for d, _ in ordered], dtype=np.int64)
        added = np.bincount([d for d, _ in extra], weights=list(extra.values()), minlength=rows)
        new_lengths = lengths + added.astype(np.float32) * expansion.lengthens
        return (
            np.bincount(new_docs, minlength=rows).astype(np.int32),
            np.array([t for _, t in ordered], dtype=np.int32),
            np.array([keys[k] for k in ordered], dtype=np.float32),
            new_lengths.astype(np.float32),
        )

    @contextlib.contextmanager
    def patched() -> Iterator[None]:
        with (
            mock.patch.object(index_rows, "tokenize", tokenize),
            mock.patch.object(index_rows, "prepare", prepare),
            mock.patch.object(index_rows, "_postings", postings),
            mock.patch("agent_memory.core.retrieval.episode_index.prepare", prepare),
        ):
            yield

    return patched


VARIANTS = {
    "nouns, first sense, synonyms + 1 hypernym level, 0.25": Expansion(0.25),
    "nouns, first sense, synonyms + 1 hypernym level, 0.5": Expansion(0.5),
    "nouns, first sense, synonyms only, 0.5": Expansion(0.5, depth=0),
    "nouns, first sense, 2 hypernym levels, 0.25": Expansion(0.25, depth=2),
    "nouns, 3 senses, 1 hypernym level, 0.25": Expansion(0.25, senses=3),
    "nouns + verbs, first sense, 1 hypernym level, 0.25": Expansion(0.25, parts=(NOUN, VERB)),
    "nouns, first sense, 1 hypernym level, 0.25, length unchanged": Expansion(
        0.25, lengthens=False
    ),
    "nouns, first sense, 1 hypernym level, 0.125": Expansion(0.125),
}


def run(files: Sequence[Path], wordnet: WordNet, embedder: Any, counter: Any) -> dict[str, Any]:
    cases, rows = [], []
    for path in files:
        conversation = locomo.load_conversation(path)
        lme.progress(f"LoCoMo {conversation.name}: {len(conversation.questions)} questions")
        events, units = locomo.events_from_sessions(conversation)
        now = locomo.benchmark_clock(conversation)
        with tempfile.TemporaryDirectory(prefix="wordnet-locomo-") as tmp:
            ports = locomo.open_memory(Path(tmp), conversation, embedder)
            locomo.load_into_memory(ports, events)
            mine: list[dict[str, dict[str, float]]] = [{} for _ in conversation.questions]
            for name, expansion in {ablation.PRODUCT: None, **VARIANTS}.items():
                ports.episode_indexes.clear()
                patch = expanding(wordnet, expansion) if expansion else contextlib.nullcontext
                with patch():
                    for question, row in zip(conversation.questions, mine, strict=True):
                        outcome = ablation.ask(
                            ports,
                            True,
                            tenant=locomo.TENANT,
                            agent=conversation.agent_id,
                            text=question.text,
                            now=now,
                            seed=f"{conversation.name}:{question.qa_index}",
                            counter=counter,
                            session_of=ablation._session_number,
                            turn_of=units.get,
                        )
                        case = ablation.locomo_case(conversation.name, question)
                        row[name] = ablation.scores(case, outcome)
            ports.episode_indexes.clear()
        cases += [ablation.locomo_case(conversation.name, q) for q in conversation.questions]
        rows += mine
    keys = [ablation.PRODUCT, *VARIANTS]
    tables = ablation.summarize(cases, rows, keys)
    for key in VARIANTS:
        tables[key]["paired vs product"]["session recall_any@5"] = ablation.paired(
            [r[key].get("session recall_any@5") for r in rows],
            [r[ablation.PRODUCT].get("session recall_any@5") for r in rows],
        )
    return {"tables": tables, "questions": len(cases)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--wordnet", type=Path, required=True, help="WordNet 3.0 dict folder")
    parser.add_argument("--locomo", type=Path, default=REPO.parent / "shared/data/locomo")
    parser.add_argument("--split", choices=["dev", "held-out", "all"], default="dev")
    parser.add_argument("--out", type=Path, default=REPO / "build" / "wordnet.json")
    parser.add_argument("--cache", type=Path, default=REPO / ablation.DEFAULT_CACHE)
    args = parser.parse_args(argv)
    files = [
        f
        for f in locomo.conversation_files(args.locomo)
        if args.split == "all" or locomo.split_of(f.stem) == args.split
    ]
    local = LocalEmbedder()
    embedder = lme.CachedEmbedder(TimedEmbedder(local), args.cache)
    result = run(files, WordNet(args.wordnet), embedder, local)
    result["files"] = [f.name for f in files]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    for key, table in result["tables"].items():
        figures = ", ".join(f"{m} {table[m]}" for m in ablation.METRICS if table.get(m) is not None)
        print(
            f"{key}: {figures}, tokens {table['tokens median']}, "
            f"{table.get('paired vs product', '')}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
