"""The ablation benchmark's logic (patches, scores, paired counts, sampling, one tiny run), on
synthetic data written here (never real data).
"""

import json
import re
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from agent_memory.core.model.models import Episode, EpisodeHit, EpisodeUnit, SearchResult
from agent_memory.core.model.policies import EpisodicPolicy
from agent_memory.core.model.requests import BootstrapRequest
from agent_memory.core.ports import MemoryPorts
from agent_memory.core.retrieval import episode_index
from agent_memory.core.retrieval.lexical import tokenize
from agent_memory.core.tiers import episodic
from agent_memory.core.workflows.bootstrap import bootstrap
from agent_memory.core.workflows.consolidation import consolidate
from benchmarks import longmemeval as lme
from benchmarks import retrieval as locomo
from benchmarks.research.longmemeval_ablation import (
    PRODUCT,
    READ_VARIANTS,
    SERVED_VARIANTS,
    WRITE_VARIANTS,
    Case,
    Outcome,
    _top_k_as_ranked,
    paired,
    run_locomo,
    run_longmemeval,
    scores,
    spread,
    summarize,
    variant_keys,
    with_episodic,
)
from tests.benchmarks.test_retrieval_loader import synthetic_conversation
from tests.support.embedder import HashingEmbedder
from tests.support.fakes import FakePiiDetector
from tests.support.memory import HASHING_CALIBRATION, make_memory, run_event

NOW = datetime(2023, 6, 23, 7, 31, tzinfo=UTC).timestamp()


def test_relative_periods_off_keeps_absolute_periods_only() -> None:
    # Given a relative and an absolute period question
    relative, absolute = "What did I buy yesterday?", "What did I buy in May 2023?"

    # When relative periods are switched off around the query
    with READ_VARIANTS["no relative periods"]():
        off = (
            episode_index.question_period(relative, now=NOW),
            episode_index.question_period(absolute, now=NOW),
        )

    # Then only the absolute one still names a period, and the patch is gone afterwards
    assert off[0] is None and off[1] is not None
    assert episode_index.question_period(relative, now=NOW) is not None


def test_priors_off_patch_period_and_recency_only_while_in_use() -> None:
    # Given a question naming a period and asking for the current state
    text = "Where do I keep my bike now, since last month?"

    # When both priors are switched off
    with READ_VARIANTS["no period nor recency prior"]():
        during = episode_index.question_period(text, now=NOW), episode_index.asks_for_latest(text)

    # Then neither fires inside, both do outside
    assert during == (None, False)
    assert episode_index.asks_for_latest(text)
    assert episode_index.question_period(text, now=NOW) is not None


def test_dated_prior_variants_set_its_weight_only_while_in_use() -> None:
    # Given the product's weight for messages that date their event
    product = episode_index.DATED_WEIGHT

    # When the variants without it and at 1 are in use
    with READ_VARIANTS["no dated-message prior (before)"]():
        off = episode_index.DATED_WEIGHT
    with READ_VARIANTS["dated-message prior at 1"]():
        doubled = episode_index.DATED_WEIGHT

    # Then each sets its weight inside, and the product's is back afterwards
    assert (off, doubled) == (0.0, 1.0)
    assert episode_index.DATED_WEIGHT == product == 0.5


def test_policy_overrides_replace_only_the_named_fields(tmp_path: Path) -> None:
    # Given a memory with the default policies
    ports = make_memory(tmp_path).ports

    # When the served budget is overridden
    changed = with_episodic(ports, {"served_moment_chars": 1, "served_episodes": 3})

    # Then those two fields move, the rest stay
    policy = changed.policies.episodic
    assert (policy.served_moment_chars, policy.served_episodes) == (1, 3)
    assert changed.policies.episodic.top_k == ports.policies.episodic.top_k
    assert changed.policies.semantic == ports.policies.semantic
    assert with_episodic(ports, {}) is ports


def _hit(run_id: str) -> EpisodeHit:
    episode = Episode("t", "a", run_id, "task", "task", "COMPLETED", 0.0, 1.0)
    return EpisodeHit(episode, 1.0, 0.5, ())


def test_old_composition_serves_the_top_k_episodes_as_ranked() -> None:
    # Given a search with five ranked episodes
    found = SearchResult(tuple(_hit(f"r{i}") for i in range(5)), ())

    # When composed the old way
    shown = _top_k_as_ranked(found, top_k=3, moment_chars=4000, max_episodes=8)

    # Then the first three come back untouched
    assert [h.episode.run_id for h in shown] == ["r0", "r1", "r2"]


def test_scores_leave_out_levels_without_evidence_or_search() -> None:
    # Given a case with sessions only, and a served-only outcome
    case = Case("q", "multi-session", frozenset({"s1", "s2"}), frozenset())
    outcome = Outcome(served_sessions={"s1", "s2", "s3"}, tokens=12)

    # When scored
    got = scores(case, outcome)

    # Then only served session recall and tokens are there
    assert got == {"tokens": 12.0, "served session recall_all": 1.0}


def test_the_answer_is_scored_where_the_case_has_one() -> None:
    # Given a case whose answer an evidence turn says, and blocks with and without it
    case = Case("q", "single-session-user", frozenset(), frozenset(), answer="a shoe rack")
    shown = Outcome(block="- user: i keep them in a shoe rack by the door")
    left_out = Outcome(block="- user: i keep them by the door")
    # Then the block is scored on whether it says the answer
    assert scores(case, shown)["served answer shown"] == 1.0
    assert scores(case, left_out)["served answer shown"] == 0.0


def test_paired_counts_gains_and_losses_on_questions_both_scored() -> None:
    # Given per-question hits of a variant and of the product
    variant = [1.0, 0.0, 1.0, None, 0.0]
    product = [0.0, 1.0, 1.0, 1.0, 1.0]

    # Then gains and losses count only questions both scored
    assert paired(variant, product) == "+1/-2"


def test_summary_has_means_types_tokens_and_paired_counts() -> None:
    # Given two questions of two types, the product and one read variant
    cases = [
        Case("a", "x", frozenset({"s"}), frozenset({("s", 0)})),
        Case("b", "y", frozenset({"s"}), frozenset({("s", 1)})),
    ]
    hit = Outcome(["s"], [("s", 0), ("s", 1)], {"s"}, {("s", 0), ("s", 1)}, 10)
    miss = Outcome(["t"], [("t", 0)], {"t"}, set(), 30)
    rows = [
        {PRODUCT: scores(cases[0], hit), "read: no recency prior": scores(cases[0], miss)},
        {PRODUCT: scores(cases[1], miss), "read: no recency prior": scores(cases[1], hit)},
    ]

    # When summarized
    tables = summarize(cases, rows, [PRODUCT, "read: no recency prior"])

    # Then means, per-type recall, median tokens and the paired counts are reported
    variant = tables["read: no recency prior"]
    assert tables[PRODUCT]["turn recall_any@10"] == 0.5
    assert variant["turn recall_any@10 by type"]["y"] == {"mean": 1.0, "questions": 1}
    assert variant["tokens median"] == 20
    assert variant["paired vs product"]["turn recall_any@10"] == "+1/-1"


def _question(question_id: str, question_type: str) -> lme.Question:
    asked = datetime(2023, 1, 1, tzinfo=UTC)
    return lme.Question(question_id, question_type, "?", asked, (), frozenset(), "f")


def test_spread_takes_the_types_in_turn() -> None:
    # Given three questions of one type, then one of another
    questions = [_question(f"a{i}", "a") for i in range(3)] + [_question("b0", "b")]

    # When three are spread over the types
    chosen = spread(questions, 3)

    # Then each type gives its first before any gives a second
    assert [q.question_id for q in chosen] == ["a0", "b0", "a1"]


class WordCounter:
    def count_tokens(self, text: str) -> int:
        return len(text.split())


def synthetic_release() -> list[dict[str, Any]]:
    sessions = [
        [
            {"role": "user", "content": "Can you suggest a pasta recipe for tonight?"},
            {"role": "assistant", "content": "Try a lemon garlic spaghetti."},
        ],
        [
            {"role": "user", "content": "I keep my old sneakers in a shoe rack in my closet."},
            {"role": "assistant", "content": "A shoe rack is tidy.", "has_answer": True},
        ],
    ]
    return [
        {
            "question_id": "q1",
            "question_type": "knowledge-update",
            "question": "Where do I keep my old sneakers?",
            "question_date": "2023/06/23 (Fri) 07:31",
            "answer": "never read",
            "haystack_session_ids": ["chat", "answer_1"],
            "haystack_dates": ["2023/05/25 (Thu) 10:04", "2023/05/02 (Tue) 05:35"],
            "haystack_sessions": sessions,
            "answer_session_ids": ["answer_1"],
        }
    ]


def test_one_question_runs_every_variant_and_counts_write_costs(tmp_path: Path) -> None:
    # Given one synthetic question and a fast deterministic embedder behind the cache
    path = tmp_path / "release.json"
    path.write_text(json.dumps(synthetic_release()), encoding="utf-8")
    questions = lme.load_questions(path)
    embedder = lme.CachedEmbedder(lme.TimedEmbedder(HashingEmbedder()), tmp_path / "cache")

    # When every variant is run on it
    result = run_longmemeval(
        questions,
        embedder,
        WordCounter(),
        pii=FakePiiDetector(),
        calibrations={"test-hashing": HASHING_CALIBRATION},
    )

    # Then every variant is scored, the product finds the evidence, and a write variant
    # embedding the same texts costs no cache miss
    tables = result["tables"]
    assert list(tables) == variant_keys()
    assert tables[PRODUCT]["session recall_any@5"] == 1.0
    assert tables[PRODUCT]["served turn recall_any"] == 1.0
    assert tables["served: moment budget 2000"]["turn recall_any@10"] is None
    costs = {k: t["write cost"] for k, t in tables.items() if "write cost" in t}
    assert costs[PRODUCT]["cache misses"] > 0
    assert costs["write: max_unit_chars 2000"]["cache misses"] == 0
    assert (
        costs["write: max_unit_chars 2000"]["chars embedded per question (mean)"]
        == costs[PRODUCT]["chars embedded per question (mean)"]
    )


def test_without_write_variants_only_the_product_memory_is_written(tmp_path: Path) -> None:
    # Given one synthetic question
    path = tmp_path / "release.json"
    path.write_text(json.dumps(synthetic_release()), encoding="utf-8")
    embedder = lme.CachedEmbedder(lme.TimedEmbedder(HashingEmbedder()), tmp_path / "cache")

    # When the write variants are left out
    result = run_longmemeval(
        lme.load_questions(path),
        embedder,
        WordCounter(),
        pii=FakePiiDetector(),
        calibrations={"test-hashing": HASHING_CALIBRATION},
        writes=(),
    )

    # Then the read and served variants are there, no write variant
    assert list(result["tables"]) == variant_keys(())
    assert list(result["questions"][0]["write"]) == [PRODUCT]


def test_the_time_word_variant_keeps_a_durations_words_only_while_in_use() -> None:
    # Given a question with a relative period
    relative = "Which trips did I take in the past three months?"

    # When the variant is in use, and after
    with READ_VARIANTS["relative-time words matched as query words"]():
        kept = episode_index.without_durations(relative)

    # Then the period's words stay in the query inside, and leave it outside
    assert kept == relative
    assert episode_index.without_durations(relative) != relative


def _calibrate_locomo(monkeypatch: pytest.MonkeyPatch) -> None:
    """LoCoMo memories opened with the hashing test embedder's calibration."""
    open_memory = locomo.open_memory

    def calibrated(*args: Any) -> MemoryPorts:
        return replace(open_memory(*args), calibrations={"test-hashing": HASHING_CALIBRATION})

    monkeypatch.setattr(locomo, "open_memory", calibrated)


def test_locomo_runs_each_write_variant_on_a_memory_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a tiny synthetic LoCoMo conversation and a deterministic embedder
    path = tmp_path / "99.json"
    path.write_text(json.dumps(synthetic_conversation()), encoding="utf-8")
    load_into_memory = locomo.load_into_memory
    written: list[EpisodicPolicy] = []

    def recorded(ports: MemoryPorts, events: Any) -> Any:
        written.append(ports.policies.episodic)
        return load_into_memory(ports, events)

    _calibrate_locomo(monkeypatch)
    monkeypatch.setattr(locomo, "load_into_memory", recorded)
    # When the ablation's LoCoMo part runs with its write variants
    result = run_locomo([path], HashingEmbedder(), WordCounter())
    # Then every variant is scored on every question
    tables = result["tables"]
    assert list(tables) == variant_keys()
    assert tables[PRODUCT]["session recall_any@5"] is not None
    for name in WRITE_VARIANTS:
        key = PRODUCT if name == PRODUCT else f"write: {name}"
        assert tables[key]["questions"] == result["questions"] > 0
    # And each write variant's memory was written with its own policy
    assert len(written) == len(WRITE_VARIANTS)
    for policy, overrides in zip(written, WRITE_VARIANTS.values(), strict=True):
        assert all(getattr(policy, field) == value for field, value in overrides.items())
    assert len(set(written)) == len(WRITE_VARIANTS)


@pytest.fixture
def memory_with_names(tmp_path: Path) -> tuple[MemoryPorts, BootstrapRequest]:
    memory = make_memory(tmp_path, stores="memory")
    memory.ports = replace(memory.ports, pii=FakePiiDetector(names=("Jane Doe", "Raj Patel")))
    messages = [
        {"role": "human", "content": f"I prefer {when} invoices, {who}", "name": name}
        for when, who, name in [
            ("quarterly", "Raj Patel", "Jane Doe"),
            ("monthly", "Jane Doe", "Raj Patel"),
        ]
        * 2
    ]
    consolidate(run_event("r1", messages=messages), memory.ports)
    return memory.ports, BootstrapRequest("acme", "reviewer", "Who prefers which invoices?")


def test_the_full_pseudonym_variant_shows_and_budgets_names_as_stored_only_while_in_use(
    memory_with_names: Any,
) -> None:
    # Given a memory whose moments name people
    ports, request = memory_with_names
    # When bootstrap runs inside the variant's patch, then outside it
    with SERVED_VARIANTS["pseudonyms in full (before)"][1]():
        before = bootstrap(request, ports)["context"]
    after = bootstrap(request, ports)["context"]
    # Then the block showed the stored pseudonyms and no legend, and the product's block
    # shows short forms again
    assert re.search(r"\[NAME-[0-9a-f]{10}\]: ", before) and "shortened here" not in before
    assert "[NAME-1]: " in after and "shortened here" in after


def test_the_short_moment_variant_cuts_moments_to_200_characters_only_while_in_use() -> None:
    # Given a moment of 500 characters whose task's words sit in its middle
    text = " ".join(["filler"] * 40 + ["invoice", "ledger"] + ["filler"] * 30)
    terms = frozenset(tokenize("invoice ledger"))
    # When it is shown inside the variant's patch, then outside it
    with SERVED_VARIANTS["moments of 200 characters"][1]():
        inside = episodic._short(text, terms=terms)
        budgeted = episodic._shown_size(EpisodeUnit("message", 0, text))
    after = episodic._short(text, terms=terms)
    # Then the line and the size the budget counts were 200 characters, around the task's
    # words, and the product's 300 came back
    assert len(inside) == budgeted == 200 and "invoice ledger" in inside
    assert len(after) == episodic.MOMENT_CHARS == 300


def test_locomo_tables_are_also_given_for_the_dev_and_held_out_conversations(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given the same tiny conversation as a dev conversation (26) and a held-out one (99)
    paths = [tmp_path / "26.json", tmp_path / "99.json"]
    for path in paths:
        path.write_text(json.dumps(synthetic_conversation()), encoding="utf-8")
    _calibrate_locomo(monkeypatch)
    # When the ablation's LoCoMo part runs on both, the product's write path only
    result = run_locomo(paths, HashingEmbedder(), WordCounter(), writes=[])
    # Then each split has its own tables, over its own questions, with every variant
    splits = result["by_split"]
    assert list(splits) == [locomo.DEV, locomo.HELD_OUT]
    assert splits[locomo.DEV]["questions"] == splits[locomo.HELD_OUT]["questions"] > 0
    assert 2 * splits[locomo.DEV]["questions"] == result["questions"]
    for part in splits.values():
        assert list(part["tables"]) == list(result["tables"]) == variant_keys([])
        assert part["tables"][PRODUCT]["questions"] == part["questions"]
    # And the same conversation scores the same in either split
    dev, held = (splits[s]["tables"][PRODUCT] for s in (locomo.DEV, locomo.HELD_OUT))
    assert dev == held
