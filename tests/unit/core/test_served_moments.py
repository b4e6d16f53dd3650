"""What the memory context serves: the best moments overall, under their runs, within a budget;
and what the write path embeds."""

from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from agent_memory.core.api.bootstrap_request import parse_bootstrap_request
from agent_memory.core.model.models import (
    Episode,
    EpisodeHit,
    EpisodeUnit,
    SearchResult,
    UnitHit,
)
from agent_memory.core.model.policies import DAY, EpisodicPolicy, Policies
from agent_memory.core.tiers.episodic import format_episodes, served_hits
from agent_memory.core.workflows.bootstrap import bootstrap
from agent_memory.core.workflows.consolidation import consolidate, embed_once
from tests.support.embedder import HashingEmbedder, RecordingEmbedder
from tests.support.memory import Memory, make_memory

MAY_8_2023 = 1_683_504_000.0  # 2023-05-08 00:00 UTC


def episode(run_id: str, *, created_at: float = MAY_8_2023) -> Episode:
    return Episode(
        tenant_id="acme",
        agent_id="helper",
        run_id=run_id,
        task=f"Chat {run_id}",
        task_type=None,
        domain=None,
        task_summary=f"Chat {run_id}",
        outcome="COMPLETED",
        key_findings=("a finding",),
        approach_used="",
        tools_used=(),
        reusable_patterns=(),
        embedding=None,
        created_at=created_at,
        expires_at=created_at + 90 * DAY,
    )


def moment(run_id: str, seq: int, text: str, score: float) -> UnitHit:
    return UnitHit(run_id, EpisodeUnit("message", seq, text, "human"), score, 0.5, "helper")


def search_result(units: list[UnitHit], runs: list[str]) -> SearchResult:
    hits = tuple(
        EpisodeHit(episode(r), float(-i), 0.5, tuple(u for u in units if u.run_id == r))
        for i, r in enumerate(runs)
    )
    return SearchResult(hits, tuple(sorted(units, key=lambda u: -u.score)))


def test_a_run_below_the_top_joins_the_block_when_it_holds_one_of_the_best_moments() -> None:
    # Given five ranked runs, the fifth holding the second-best moment overall
    units = [
        moment("r1", 0, "best moment", 9.0),
        moment("r5", 2, "second best, in the fifth run", 8.0),
        moment("r2", 1, "r2's moment", 1.0),
        moment("r3", 0, "r3's moment", 0.5),
        moment("r4", 0, "r4's moment", 0.1),
    ]
    found = search_result(units, ["r1", "r2", "r3", "r4", "r5"])
    # When the block is composed with room for every moment
    served = served_hits(found, top_k=3, moment_chars=10_000, max_episodes=4)
    # Then the top three come first, each with its best moment, then the fifth run; the
    # fourth run's moment would need a fifth episode, past the cap of four
    assert [h.episode.run_id for h in served] == ["r1", "r2", "r3", "r5"]
    assert [u.unit.text for u in served[3].units] == ["second best, in the fifth run"]


def test_the_moments_budget_keeps_the_best_moment_of_each_top_run_only() -> None:
    # Given runs whose moments are long
    long = "x" * 290
    units = [moment("r1", i, f"{i} {long}", 10.0 - i) for i in range(4)] + [
        moment("r2", 0, f"r2 {long}", 0.2),
        moment("r6", 0, f"r6 {long}", 5.0),
    ]
    found = search_result(units, ["r1", "r2", "r6"])
    # When the budget is smaller than the top runs' best moments
    served = served_hits(found, top_k=2, moment_chars=100, max_episodes=8)
    # Then each of the top runs still shows its best moment, and nothing else joins
    assert [(h.episode.run_id, [u.unit.seq for u in h.units]) for h in served] == [
        ("r1", [0]),
        ("r2", [0]),
    ]


def test_the_moments_budget_counts_a_pseudonym_at_its_short_form() -> None:
    # Given a run's moments naming people by pseudonyms (17 characters; 8 as "[NAME-1]")
    said = "[NAME-23b9f54473] met [NAME-f558545bac] at the harbour"  # 54 shown as 36
    units = [moment("r1", i, f"{i} {said}", 10.0 - i) for i in range(4)]
    found = search_result(units, ["r1"])
    # When the moments' budget holds three as shown but two as stored
    served = served_hits(found, top_k=1, moment_chars=3 * (len("human: 0 ") + 36), max_episodes=8)
    # Then three are served
    assert [u.unit.seq for u in served[0].units] == [0, 1, 2]


def test_runs_past_the_top_show_their_date_and_moments_but_not_their_findings() -> None:
    # Given two served runs, the second past the top one
    hits = (
        EpisodeHit(episode("r1"), 2.0, 0.6, (moment("r1", 0, "first moment", 2.0),)),
        EpisodeHit(
            episode("r2", created_at=MAY_8_2023 + 3 * DAY),
            1.0,
            0.5,
            (moment("r2", 0, "second moment", 1.0),),
        ),
    )
    # When the section is written with one run in full
    section = format_episodes(hits, full=1)
    # Then both say when they ran; only the first shows its outcome and findings
    assert section is not None
    text = "\n".join(section.shown_lines())
    assert "When: 8 May 2023" in text and "When: 11 May 2023" in text
    assert text.count("Outcome:") == 1 and text.count("a finding") == 1
    assert "second moment" in text


LONG_ANSWER = " ".join(
    [
        *(f"General advice number {i} about packing light." for i in range(12)),
        "For Lisbon, the tram 28 ticket costs three euros on board.",
        *(f"More advice number {i} about comfortable shoes." for i in range(12)),
    ]
)


def moment_line(focus: str) -> str:
    hits = (EpisodeHit(episode("r1"), 1.0, 0.6, (moment("r1", 0, LONG_ANSWER, 1.0),)),)
    section = format_episodes(hits, full=1, focus=focus)
    assert section is not None
    [line] = [
        line for line in section.shown_lines() if line.startswith("  - ") and "advice" in line
    ]
    return line.removeprefix("  - ")


def test_a_long_moment_shows_the_part_that_holds_the_tasks_words() -> None:
    # Given a moment far longer than a line, whose one sentence about Lisbon's tram lies in
    # its middle
    assert len(LONG_ANSWER) > 1000
    # When it is shown for a task about that tram
    line = moment_line("What does a tram 28 ticket cost in Lisbon?")
    # Then the line holds that sentence, cut marked at both ends, in the usual length
    assert "the tram 28 ticket costs three euros" in line
    assert line.startswith("...") and line.endswith("...")
    assert len(line) == 300


def test_a_long_moment_shows_its_opening_when_no_part_holds_the_tasks_words() -> None:
    # Given the same moment, shown for a task none of whose words it holds
    line = moment_line("Which violin did the orchestra buy?")
    # Then the line is its opening, as long as ever
    assert line.startswith("human: General advice number 0") and line.endswith("...")
    assert len(line) == 300


def chat_event(run_id: str, messages: list[dict[str, Any]], finished_at: str) -> dict[str, Any]:
    return {
        "tenant_id": "acme",
        "agent_id": "helper",
        "run_id": run_id,
        "task": "Plan the trip",
        "outcome": "COMPLETED",
        "finished_at": finished_at,
        "messages": messages,
    }


def test_bootstrap_serves_the_evidence_of_several_runs_beyond_the_top_three(
    tmp_path: Path,
) -> None:
    # Given six runs that each mention one museum visit, among runs about other things
    memory = make_memory(tmp_path, stores="memory")
    for day in range(1, 13):
        said = (
            f"I visited the modern art museum number {day} today"
            if day % 2 == 0
            else f"I cooked pasta with tomatoes on day {day}"
        )
        event = chat_event(
            f"r{day:02d}",
            [{"role": "user", "content": said}, {"role": "assistant", "content": "Nice!"}],
            f"2026-09-{day:02d}T10:00:00+00:00",
        )
        consolidate(event, memory.ports)
    # When an agent asks how many museums it visited
    request = parse_bootstrap_request(
        {"tenant_id": "acme", "agent_id": "helper", "task": "How many art museum visits?"}
    )
    reply = bootstrap(request, memory.ports)
    # Then every museum run is in the block, not only the top three
    served_runs = {e["run_id"] for e in reply["episodes"]}
    assert {f"r{d:02d}" for d in range(2, 13, 2)} <= served_runs
    assert reply["context"].count("modern art museum") >= 6


def recorded_memory(tmp_path: Path, **episodic: int) -> tuple[Memory, list[str]]:
    """A memory with these ``EpisodicPolicy`` fields, and the texts its embedder is given."""
    policies = Policies(episodic=replace(EpisodicPolicy(), **episodic))
    memory = make_memory(tmp_path, policies=policies, stores="memory")
    embedder = RecordingEmbedder()
    memory.ports = replace(memory.ports, embedder=embedder)
    return memory, embedder.embedded


def test_the_write_path_embeds_each_unit_by_its_opening_and_repeated_text_once(
    tmp_path: Path,
) -> None:
    # Given an embedder that records what it is given, and a policy embedding 64 characters
    memory, seen = recorded_memory(tmp_path, embedded_chars=64)
    long_answer = "Here is the plan: " + "walk the old town, " * 40
    messages = [
        {"role": "user", "content": "Plan a day in Lisbon"},
        {"role": "assistant", "content": long_answer},
        {"role": "user", "content": "Plan a day in Lisbon"},
        {"role": "assistant", "content": long_answer},
    ]
    # When the run is consolidated
    consolidate(chat_event("r1", messages, "2026-09-08T10:00:00+00:00"), memory.ports)
    # Then no text reached the model past 64 characters, and each distinct one once
    assert seen and max(map(len, seen)) <= 64
    assert len(seen) == len(set(seen))
    # And the long answer is still stored whole enough for its words to be matched
    stored = memory.ports.episodes.get("acme", "helper", "r1", now=memory.clock())
    assert stored is not None
    assert any(len(u.text) > 500 for u in stored.units)


def test_a_short_message_is_embedded_with_its_neighbours_and_a_long_one_by_itself(
    tmp_path: Path,
) -> None:
    # Given an embedder that records what it is given, and a policy embedding 160 characters
    # with one neighbour on each side
    memory, seen = recorded_memory(tmp_path, embedded_chars=160, embedded_context=1)
    long_answer = "Porto has the best tiles: " + "azulejos on every church, " * 20
    messages = [
        {"role": "user", "content": "Did you like the tiles in Porto?"},
        {"role": "assistant", "content": "Yes, loved them!"},
        {"role": "user", "content": "Which ones?"},
        {"role": "assistant", "content": long_answer},
    ]
    # When the run is consolidated
    consolidate(chat_event("r1", messages, "2026-09-08T10:00:00+00:00"), memory.ports)
    # Then the short reply is embedded by its own text, then its nearest neighbours
    [reply] = [t for t in seen if "loved them" in t.split("\n")[0]]
    own, *neighbours = reply.split("\n")
    assert own.endswith("Yes, loved them!") and own.startswith("(8 September 2026)")
    assert neighbours[0].endswith("Did you like the tiles in Porto?")
    assert neighbours[1].endswith("Which ones?")
    # And the long answer by its own opening alone; nothing past 160 characters
    [answer] = [t for t in seen if "ai: Porto has the best tiles" in t.split("\n")[0]]
    assert "\n" not in answer and len(answer) == 160
    assert max(map(len, seen)) <= 160
    # And "Which ones?" reaches the long answer's opening, cut to the budget
    [question] = [t for t in seen if t.split("\n")[0].endswith("Which ones?")]
    assert question.split("\n")[2].startswith("ai: Porto has the best tiles")


def test_embed_once_gives_repeated_texts_the_same_vector() -> None:
    # Given texts with a repeat
    texts = ["alpha", "beta", "alpha"]
    # When embedded once each
    vectors = embed_once(HashingEmbedder(), texts)
    # Then the repeat's vector is the first one's, and the order is kept
    assert vectors.shape[0] == 3
    assert np.array_equal(vectors[0], vectors[2]) and not np.array_equal(vectors[0], vectors[1])
