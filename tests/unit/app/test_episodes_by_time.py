"""Episodes by time: listing and searching only the runs created in ``[since, until)``
(app/handlers/episodes.py, app/handlers/reading.py), on both store kinds.
"""

from pathlib import Path
from typing import Any

import pytest

from agent_memory.app import Application
from agent_memory.app.messages import ListEpisodes, SearchEpisodes
from agent_memory.app.wire import episode_message, request_json, search_message
from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.model.policies import DAY, EpisodicPolicy, Policies
from agent_memory.core.workflows.consolidation import consolidate
from tests.support.memory import Memory, make_memory, run_event


@pytest.fixture(params=["sqlite", "memory"])
def memory(request: pytest.FixtureRequest, tmp_path: Path) -> Memory:
    return make_memory(tmp_path, stores=request.param)


def runs_a_day_apart(memory: Memory, days: int, **fields: Any) -> list[float]:
    """Runs ``day-0`` (the oldest) to ``day-{days-1}``, one a day; their creation times."""
    created = []
    for day in range(days):
        created.append(memory.clock.now)
        consolidate(run_event(f"day-{day}", **fields), memory.ports)
        memory.clock.advance(DAY)
    return created


def listed(memory: Memory, **fields: Any) -> list[str]:
    page = Application(memory.ports).handle(ListEpisodes("acme", "reviewer", **fields))
    return [e["run_id"] for e in page["episodes"]]


def test_a_listing_holds_only_the_runs_created_in_its_window(memory: Memory) -> None:
    # Given five runs a day apart
    at = runs_a_day_apart(memory, 5)
    # When the window runs from the second run's moment to the fourth's
    window = listed(memory, since=at[1], until=at[3])
    # Then the second and third are listed, newest first: since is in, until is out
    assert window == ["day-2", "day-1"]
    assert listed(memory, since=at[3]) == ["day-4", "day-3"]
    assert listed(memory, until=at[1]) == ["day-0"]


def test_a_windowed_listing_pages_on_with_its_cursor(memory: Memory) -> None:
    # Given six runs a day apart, and a window over the middle four
    at = runs_a_day_apart(memory, 6)
    app = Application(memory.ports)
    bounds = {"since": at[1], "until": at[5]}
    # When it is listed a page of three at a time, the cursor given back with the same window
    first = app.handle(ListEpisodes("acme", "reviewer", limit=3, **bounds))
    second = app.handle(ListEpisodes("acme", "reviewer", limit=3, cursor=first["cursor"], **bounds))
    # Then the pages hold the window's runs once each, newest first, and the listing ends
    runs = [e["run_id"] for e in first["episodes"] + second["episodes"]]
    assert runs == ["day-4", "day-3", "day-2", "day-1"]
    assert second["cursor"] is None


def test_a_window_that_ends_where_it_starts_is_refused_naming_until(memory: Memory) -> None:
    app = Application(memory.ports)
    for since, until in [(1000.0, 1000.0), (2000.0, 1000.0)]:
        with pytest.raises(InvalidInput) as refused:
            app.handle(ListEpisodes("acme", "reviewer", since=since, until=until))
        assert refused.value.field == "until"
        with pytest.raises(InvalidInput) as refused:
            app.handle(SearchEpisodes("acme", "reviewer", "cap", since=since, until=until))
        assert refused.value.field == "until"


LIST = {"action": "list", "tenant_id": "acme", "agent_id": "reviewer"}
SEARCH = {"action": "search", "tenant_id": "acme", "agent_id": "reviewer", "query": "cap"}


@pytest.mark.parametrize(
    ("bounds", "field"),
    [
        ({"since": "2026-05-01T00:00:00Z"}, "since"),
        ({"until": True}, "until"),
        ({"since": None, "until": [1]}, "until"),
        ({"since": 1e400}, "since"),
        ({"since": 10**400}, "since"),
        ({"since": 2.0, "until": 1.0}, "until"),
        ({"since": 1.0, "until": 1}, "until"),
    ],
)
def test_a_bad_bound_is_refused_naming_its_field(bounds: dict[str, Any], field: str) -> None:
    # Given a listing and a search with a bad bound, as the functions take them
    for parse, request in [(episode_message, LIST), (search_message, SEARCH)]:
        # Then each is refused, naming the bound
        with pytest.raises(InvalidInput) as refused:
            parse({**request, **bounds})
        assert refused.value.field == field


def test_a_window_sent_to_a_function_reads_back_as_itself() -> None:
    # Given a windowed listing and a windowed search (the window's ends, whole or not)
    listing = ListEpisodes("acme", "reviewer", limit=5, cursor="c", since=1.5, until=1_800_000_000)
    search = SearchEpisodes("acme", "reviewer", "cap", since=1_750_000_000.25)
    # When each is written as its function's JSON and read back
    # Then it is the same message, the window in seconds since the epoch
    assert episode_message(request_json(listing)) == listing
    assert search_message(request_json(search)) == search
    assert request_json(listing)["since"] == 1.5
    assert "until" not in request_json(search)


def search(memory: Memory, text: str, **fields: Any) -> list[str]:
    found = Application(memory.ports).handle(SearchEpisodes("acme", "reviewer", text, **fields))
    return [e["run_id"] for e in found["episodes"]]


def test_a_search_ranks_only_the_runs_created_in_its_window(memory: Memory) -> None:
    # Given four runs a day apart about the same thing
    at = runs_a_day_apart(memory, 4)
    # When the middle two days are searched
    found = search(memory, "liability cap", since=at[1], until=at[3])
    # Then only their runs are ranked
    assert sorted(found) == ["day-1", "day-2"]
    assert sorted(search(memory, "liability cap")) == [f"day-{d}" for d in range(4)]


def test_a_window_fills_the_result_from_its_own_runs_past_better_matches(tmp_path: Path) -> None:
    # Given a search index that ranks in full at most three candidate runs, and three older
    # runs about renewals before six newer ones that match the query far better
    policies = Policies(episodic=EpisodicPolicy(rerank_candidates=3))
    memory = make_memory(tmp_path, policies=policies)
    renewal = {
        "task": "Check the renewal notice period",
        "artifacts": {"key_findings": ["The notice period is 60 days"]},
    }
    at = runs_a_day_apart(memory, 3, **renewal)
    for n in range(6):
        consolidate(run_event(f"cap-{n}"), memory.ports)
        memory.clock.advance(60)
    # When the older days are searched for the newer runs' words, three at most
    found = search(memory, "liability cap", top_episodes=3, since=at[0], until=at[2] + 1)
    # Then the three come from the window, not from the candidates the whole memory offers
    assert sorted(found) == ["day-0", "day-1", "day-2"]


def test_a_window_older_than_the_kept_index_is_read_from_the_store(tmp_path: Path) -> None:
    # Given a search index that keeps each agent's newest three runs, and seven runs
    policies = Policies(episodic=EpisodicPolicy(candidates=3))
    memory = make_memory(tmp_path, policies=policies)
    at = runs_a_day_apart(memory, 7)
    # And a search that keeps the index of the newest ones
    assert sorted(search(memory, "liability cap")) == ["day-4", "day-5", "day-6"]
    # When the first days are searched
    older = search(memory, "liability cap", until=at[2])
    recent = search(memory, "liability cap", since=at[5])
    # Then their runs are found though the kept index never held them
    assert sorted(older) == ["day-0", "day-1"]
    assert sorted(recent) == ["day-5", "day-6"]
    # And the index kept for the agent's searches is still the newest runs'
    assert sorted(search(memory, "liability cap")) == ["day-4", "day-5", "day-6"]


def test_a_windowed_search_still_leaves_out_what_the_agent_flagged(memory: Memory) -> None:
    # Given three runs, the middle one flagged by the reader
    at = runs_a_day_apart(memory, 3)
    flag_one(memory, "day-1")
    # When a window holding all three is searched
    found = search(memory, "liability cap", since=at[0])
    # Then the flagged one is not among them
    assert sorted(found) == ["day-0", "day-2"]


def flag_one(memory: Memory, run_id: str) -> None:
    from agent_memory.app.messages import FlagMemory

    Application(memory.ports).handle(
        FlagMemory("acme", "reviewer", "episode", run_id, "out of date")
    )
