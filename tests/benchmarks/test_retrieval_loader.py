"""The retrieval benchmark's LoCoMo loader, on a tiny synthetic conversation (not real data)."""

import json
from pathlib import Path
from typing import Any

import pytest

from agent_memory.core.api.contracts import parse_run_finished
from agent_memory.core.workflows.extraction import message_units
from benchmarks.retrieval import (
    DEV,
    HELD_OUT,
    Question,
    conversation_files,
    events_from_sessions,
    load_conversation,
    served_scores,
    session_misses,
    split_of,
)
from benchmarks.served import served

# Annotation fields carry this marker: it must never reach an event.
ANNOTATION = "ANNOTATION-MUST-NOT-LEAK"


def synthetic_conversation() -> dict[str, Any]:
    return {
        "speaker_a": "Ada",
        "speaker_b": "Bo",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": "Ada", "dia_id": "D1:1", "text": "I adopted a cat."},
            {
                "speaker": "Bo",
                "dia_id": "D1:2",
                "text": "Lovely! Look at mine.",
                "blip_caption": "a photo of a dog on a sofa",
                "img_url": ["https://example.invalid/dog.jpg"],
                "query": f"dog sofa {ANNOTATION}",
            },
            {"speaker": "Ada", "dia_id": "D1:3", "text": "Cute dog."},
        ],
        "session_2_date_time": "10:05 am on 2 June, 2023",
        "session_2": [
            {"speaker": "Bo", "dia_id": "D2:1", "text": "How is the cat?"},
            {"speaker": "Ada", "dia_id": "D2:2", "text": "She sleeps all day."},
            {"speaker": "Bo", "dia_id": "D2:3", "text": "Typical cat."},
        ],
        "events_session_1": {"Ada": [f"adopts a cat {ANNOTATION}"]},
        "events_session_2": {"Ada": [], "Bo": []},
        "session_1_observation": {"Ada": [[f"Ada has a cat {ANNOTATION}", "D1:1"]]},
        "session_2_observation": {"Bo": [[f"Bo asks {ANNOTATION}", "D2:1"]]},
        "session_1_summary": f"Ada and Bo talk about pets. {ANNOTATION}",
        "session_2_summary": f"The cat sleeps. {ANNOTATION}",
        "qa": [
            {
                "question": "What pet did Ada adopt?",
                "answer": "a cat",
                "evidence": ["D1:1"],
                "category": 4,
            },
            {
                "question": "Which pets?",
                "answer": "cat, dog",
                "evidence": ["D1:1; D1:2"],
                "category": 1,
            },
            {"question": "When?", "answer": "May", "evidence": ["D9:9", "D2:2"], "category": 2},
            {"question": "Unanswerable?", "answer": "-", "evidence": ["D:1:1"], "category": 3},
            {"question": "Adversarial?", "evidence": ["D2:3"], "category": 5},
        ],
    }


@pytest.fixture
def conversation_file(tmp_path: Path) -> Path:
    path = tmp_path / "99.json"
    path.write_text(json.dumps(synthetic_conversation()), encoding="utf-8")
    return path


def test_each_session_becomes_one_valid_run_finished_event(conversation_file: Path) -> None:
    events, _ = events_from_sessions(load_conversation(conversation_file))

    runs = [parse_run_finished(event) for event in events]

    assert [r.run_id for r in runs] == ["session-1", "session-2"]
    assert {(r.tenant_id, r.agent_id, r.outcome) for r in runs} == {
        ("locomo", "conv-99", "COMPLETED")
    }
    assert all(r.artifacts is None for r in runs)
    assert events[0]["finished_at"] == "2023-05-08T13:56:00+00:00"
    assert events[1]["finished_at"] == "2023-06-02T10:05:00+00:00"
    assert events[0]["task"] == "Conversation session 1 between Ada and Bo"


def test_messages_are_the_turns_in_order_with_roles_names_and_photo_captions(
    conversation_file: Path,
) -> None:
    events, _ = events_from_sessions(load_conversation(conversation_file))

    assert events[0]["messages"] == [
        {"role": "human", "name": "Ada", "content": "I adopted a cat."},
        {
            "role": "ai",
            "name": "Bo",
            "content": "Lovely! Look at mine. [shares a photo: a photo of a dog on a sofa]",
        },
        {"role": "human", "name": "Ada", "content": "Cute dog."},
    ]
    assert [m["role"] for m in events[1]["messages"]] == ["ai", "human", "ai"]


def test_annotations_never_reach_the_events(conversation_file: Path) -> None:
    events, _ = events_from_sessions(load_conversation(conversation_file))

    assert ANNOTATION not in json.dumps(events)
    allowed = {"tenant_id", "agent_id", "run_id", "task", "outcome", "finished_at", "messages"}
    assert all(set(event) == allowed for event in events)
    assert all(set(m) == {"role", "name", "content"} for e in events for m in e["messages"])


def test_product_units_map_back_to_their_dia_ids(conversation_file: Path) -> None:
    # Given the product's own unit extraction of each event
    events, units = events_from_sessions(load_conversation(conversation_file))
    found = {}
    for event in events:
        run = parse_run_finished(event)
        for unit in message_units(
            run.messages, max_units=300, max_chars=1_000, max_total_chars=100_000
        ):
            found[(run.run_id, unit.seq)] = unit.text

    # Then every unit's (run_id, seq) names the turn it came from
    assert units == {
        ("session-1", 0): "D1:1",
        ("session-1", 1): "D1:2",
        ("session-1", 2): "D1:3",
        ("session-2", 0): "D2:1",
        ("session-2", 1): "D2:2",
        ("session-2", 2): "D2:3",
    }
    assert set(found) == set(units)
    assert found[("session-2", 1)] == "She sleeps all day."


def test_questions_keep_categories_1_to_4_with_parsed_evidence(conversation_file: Path) -> None:
    conversation = load_conversation(conversation_file)

    assert [
        (q.text, sorted(q.evidence), sorted(q.sessions), q.qa_index) for q in conversation.questions
    ] == [
        ("What pet did Ada adopt?", ["D1:1"], [1], 0),
        ("Which pets?", ["D1:1", "D1:2"], [1], 1),
        ("When?", ["D2:2"], [2], 2),
    ]
    assert conversation.dropped_evidence == ("D9:9", "D:1:1")
    assert conversation.questions_without_evidence == 1


def test_session_misses_lists_the_questions_without_a_relevant_session_in_the_top_k(
    conversation_file: Path,
) -> None:
    # Given the three questions (relevant sessions 1, 1, 2) and their session rankings
    conversation = load_conversation(conversation_file)
    rankings = [[2, 1], [1, 2], [1]]

    # When the misses at 1 are listed
    misses = session_misses(conversation, rankings, k=1)

    # Then the first is missed at rank 2 and the third, never ranked, has no rank
    assert misses == [
        {"qa_index": 0, "category": 4, "relevant_sessions": [1], "first_relevant_rank": 2},
        {"qa_index": 2, "category": 2, "relevant_sessions": [2], "first_relevant_rank": None},
    ]
    assert session_misses(conversation, rankings, k=2) == misses[1:]


def test_a_folder_yields_every_json_file_numeric_stems_in_numeric_order(tmp_path: Path) -> None:
    # Given a folder of conversations, one with a non-numeric stem, and a non-JSON file
    for stem in ("100", "26", "7", "extra"):
        (tmp_path / f"{stem}.json").write_text(
            json.dumps(synthetic_conversation()), encoding="utf-8"
        )
    (tmp_path / "README.md").write_text("not a conversation", encoding="utf-8")

    # When the folder is listed
    files = conversation_files(tmp_path)

    # Then every *.json is there, numeric stems first by number, and each loads by its stem
    assert [f.name for f in files] == ["7.json", "26.json", "100.json", "extra.json"]
    assert [load_conversation(f).name for f in files] == ["7", "26", "100", "extra"]


def test_a_single_file_is_read_alone(conversation_file: Path) -> None:
    assert conversation_files(conversation_file) == [conversation_file]


def test_a_folder_without_conversations_is_refused(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        conversation_files(tmp_path)
    with pytest.raises(FileNotFoundError):
        conversation_files(tmp_path / "missing")


def test_conversations_26_and_30_are_dev_and_every_other_is_held_out() -> None:
    assert [split_of(n) for n in ("26", "30", "41", "7", "extra")] == [
        DEV,
        DEV,
        HELD_OUT,
        HELD_OUT,
        HELD_OUT,
    ]


class CharCounter:
    def count_tokens(self, text: str) -> int:
        return len(text)


def test_served_scores_count_only_turns_inside_the_block(conversation_file: Path) -> None:
    # Given a reply listing session 1 alone, whose block shows D1:2 but not D1:1
    conversation = load_conversation(conversation_file)
    _, units = events_from_sessions(conversation)
    reply = {
        "context": "session 1, moments: Ada: Lovely! Look at mine.",
        "episodes": [
            {
                "run_id": "session-1",
                "units": [
                    {"kind": "message", "seq": 0, "text": "I adopted a cat."},
                    {"kind": "message", "seq": 1, "text": "Lovely! Look at mine."},
                    {"kind": "finding", "seq": 2, "text": "Cute dog."},
                ],
            }
        ],
    }
    serving = served(reply, CharCounter())
    adopt, pets, when = conversation.questions  # evidence D1:1 / D1:1+D1:2 / D2:2
    both = Question("Cat and sleep?", 1, frozenset({"D1:2", "D2:2"}), frozenset({1, 2}), 9)

    # When each question is scored against it
    scores = [served_scores(serving, q, units) for q in (adopt, pets, when, both)]

    # Then a turn counts only when its line is in the block; sessions count from the episodes
    assert [s["turn recall_any"] for s in scores] == [0.0, 1.0, 0.0, 1.0]
    assert [s["session recall_any"] for s in scores] == [1.0, 1.0, 0.0, 1.0]
    assert [s["session recall_all"] for s in scores] == [1.0, 1.0, 0.0, 0.0]
