"""The LongMemEval benchmark's loader and per-question run, on tiny synthetic questions (not
real data).
"""

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from agent_memory.core.api.contracts import ID_PATTERN, MAX_TASK_CHARS, parse_run_finished
from benchmarks.longmemeval import (
    PRODUCT,
    CachedEmbedder,
    QuestionRun,
    TimedEmbedder,
    events_for,
    identifier,
    load_questions,
    question_from_json,
    question_row,
    run_question,
    summarize,
)
from tests.support.embedder import HashingEmbedder
from tests.support.fakes import FakePiiDetector
from tests.support.memory import HASHING_CALIBRATION

# The answer field carries this marker: it must never reach the product.
ANSWER = "ANSWER-MUST-NOT-LEAK"


def synthetic_questions() -> list[dict[str, Any]]:
    haystack_ids = ["chat_b", "answer_x_1", "chat_a"]
    haystack_dates = ["2023/05/25 (Thu) 10:04", "2023/05/02 (Tue) 05:35", "2023/05/25 (Thu) 10:04"]
    sessions = [
        [
            {"role": "user", "content": "Can you suggest a pasta recipe for tonight?"},
            {"role": "assistant", "content": "Try a lemon garlic spaghetti."},
        ],
        [
            {"role": "assistant", "content": "Hello, how can I help?"},
            {"role": "user", "content": "I keep my old sneakers in a shoe rack in my closet."},
            {
                "role": "assistant",
                "content": "A shoe rack in the closet keeps sneakers tidy.",
                "has_answer": True,
            },
        ],
        [
            {"role": "user", "content": "x" * (MAX_TASK_CHARS + 50)},
            {"role": "assistant", "content": "That is a long message about gardening tomatoes."},
        ],
    ]
    common = {
        "question_type": "knowledge-update",
        "question": "Where do I keep my old sneakers?",
        "question_date": "2023/06/23 (Fri) 07:31",
        "answer": f"in a shoe rack {ANSWER}",
        "haystack_session_ids": haystack_ids,
        "haystack_dates": haystack_dates,
        "haystack_sessions": sessions,
    }
    return [
        {**common, "question_id": "q1", "answer_session_ids": ["answer_x_1"]},
        {**common, "question_id": "q2_abs", "answer_session_ids": ["answer_x_1"]},
    ]


@pytest.fixture
def data_file(tmp_path: Path) -> Path:
    path = tmp_path / "release.json"
    path.write_text(json.dumps(synthetic_questions()), encoding="utf-8")
    return path


def test_sessions_are_loaded_in_date_order_stably(data_file: Path) -> None:
    # Given sessions out of date order, two of them on the same date
    question = load_questions(data_file)[0]

    # Then the earliest comes first and equal dates keep the file's order
    assert [s.session_id for s in question.sessions] == ["answer_x_1", "chat_b", "chat_a"]
    assert question.sessions[0].finished_at.isoformat() == "2023-05-02T05:35:00+00:00"
    assert question.asked_at.isoformat() == "2023-06-23T07:31:00+00:00"


def test_events_are_valid_runs_whose_units_map_back_to_turns(data_file: Path) -> None:
    question = load_questions(data_file)[0]

    events, units = events_for(question)

    runs = [parse_run_finished(event) for event in events]
    assert [r.run_id for r in runs] == ["answer_x_1", "chat_b", "chat_a"]
    assert [m.role for m in runs[0].messages] == ["ai", "human", "ai"]
    assert runs[0].task == "I keep my old sneakers in a shoe rack in my closet."
    assert len(runs[2].task) == MAX_TASK_CHARS
    assert units[("answer_x_1", 2)] == ("answer_x_1", 2)
    assert len(units) == 7
    assert ANSWER not in json.dumps(events)


def test_repeated_or_unusable_session_ids_become_distinct_identifiers() -> None:
    # Given a session id repeated in one haystack and ids the contract refuses
    raw = synthetic_questions()[0]
    raw["haystack_session_ids"] = ["same", "same", "bad id/#1"]
    run_ids = [s.run_id for s in question_from_json(raw, "inline.json").sessions]

    assert len(set(run_ids)) == 3
    assert all(re.fullmatch(ID_PATTERN, r) for r in run_ids)
    assert identifier("bad id/#1") != identifier("bad-id--1")
    assert identifier("x" * 300) != identifier("x" * 301)


def test_evidence_is_the_has_answer_turns_and_the_answer_sessions(data_file: Path) -> None:
    question = load_questions(data_file)[0]

    assert question.evidence_turns == {("answer_x_1", 2)}
    assert question.answer_sessions == {"answer_x_1"}


def test_abstention_questions_are_left_out_of_every_retrieval_metric(data_file: Path) -> None:
    # Given both questions ranked the same way
    questions = load_questions(data_file)
    ranking = {"session": ["answer_x_1"], "turn": [("answer_x_1", 2)]}
    rows = [question_row(q, QuestionRun(rankings={PRODUCT: ranking})) for q in questions]
    for row in rows:
        row["timings"] = {
            "load_s": 1.0,
            "load_model_s": 0.5,
            "cold_index_ms": 1.0,
            "embed_query_ms": 1.0,
            "search_ms": 1.0,
            "bootstrap_ms": 1.0,
        }
        row["counts"] = {"sessions": 3, "input_chars": 10, "chars_embedded_on_load": 5}

    # When the tables are built
    tables = summarize(rows, cached=False, hits=0)

    # Then only the answerable question is scored
    assert [r["abstention"] for r in rows] == [False, True]
    assert rows[1]["metrics"] == {PRODUCT: {}}
    assert tables["scored_questions"] == 1
    assert tables["overall"][PRODUCT]["session"]["questions"] == 1
    assert tables["throughput"]["sessions"] == 6


def test_a_folder_loads_every_json_file_in_it(data_file: Path, tmp_path: Path) -> None:
    # Given the same release split over two files of one folder
    folder = tmp_path / "folder"
    folder.mkdir()
    first, second = synthetic_questions()
    (folder / "b.json").write_text(json.dumps([second]), encoding="utf-8")
    (folder / "a.json").write_text(json.dumps([first]), encoding="utf-8")
    (folder / "notes.md").write_text("not data", encoding="utf-8")

    from_folder = load_questions(folder)

    from_file = load_questions(data_file)
    assert [q.question_id for q in from_folder] == [q.question_id for q in from_file]
    assert [q.source for q in from_folder] == ["a.json", "b.json"]


class WordCounter:
    def count_tokens(self, text: str) -> int:
        return len(text.split())


def test_one_question_end_to_end_finds_its_evidence_session(data_file: Path) -> None:
    # Given the answerable question and a fast deterministic embedder
    question = load_questions(data_file)[0]

    # When its haystack is loaded and it is asked every way
    run = run_question(
        question,
        TimedEmbedder(HashingEmbedder()),
        WordCounter(),
        pii=FakePiiDetector(),
        calibrations={"test-hashing": HASHING_CALIBRATION},
    )
    row = question_row(question, run)

    # Then the product and the baselines rank the evidence session first
    assert run.rankings[PRODUCT]["session"][0] == "answer_x_1"
    assert all(ranks["session"] == 1 for ranks in row["first_relevant_rank"].values())
    assert ("answer_x_1", 2) in run.rankings[PRODUCT]["turn"]
    assert row["counts"]["sessions"] == 3
    assert row["timings"]["load_model_s"] > 0


def test_an_answer_an_evidence_turn_says_word_for_word_is_scored_in_the_served_block() -> None:
    # Given the question, its answer said word for word by its evidence turn (in other case
    # and spacing), and the same question whose answer no evidence turn says
    raw = synthetic_questions()[0]
    said = question_from_json({**raw, "answer": "A  Shoe rack"}, "dev.json")
    unsaid = question_from_json(raw, "dev.json")
    assert said.answer_span == "a shoe rack" and unsaid.answer_span is None
    # When the first is asked through bootstrap
    run = run_question(
        said,
        TimedEmbedder(HashingEmbedder()),
        WordCounter(),
        pii=FakePiiDetector(),
        calibrations={"test-hashing": HASHING_CALIBRATION},
    )
    # Then its served row says the block shows the answer; the second has no such score
    assert question_row(said, run)["served"]["answer_shown"] == 1.0
    assert "answer_shown" not in question_row(unsaid, run)["served"]


def test_the_embedding_cache_answers_a_rerun_without_the_model(tmp_path: Path) -> None:
    # Given texts embedded once through the cache
    texts = ["shoe rack", "pasta recipe", "shoe rack"]
    first = CachedEmbedder(TimedEmbedder(HashingEmbedder()), tmp_path)
    vectors = first.embed_documents(texts)
    query = first.embed_query("shoe rack")

    # When a new process embeds them again
    again = CachedEmbedder(TimedEmbedder(HashingEmbedder()), tmp_path)

    # Then every vector comes from the cache, unchanged, and the model is never timed
    assert np.array_equal(again.embed_documents(texts), vectors)
    assert np.array_equal(again.embed_query("shoe rack"), query)
    assert (again.hits, again.misses) == (4, 0)
    assert again.inner.chars == 0
    assert first.inner.chars == sum(map(len, texts)) + len("shoe rack")
