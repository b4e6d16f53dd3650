"""MemoryClient's listing and search by time: ``since`` and ``until`` as aware datetimes or
seconds since the epoch, locally and on a stack (the functions' requests behind a Stubber).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest

from agent_memory.sdk import InvalidInputError
from tests.sdk.conftest import (
    BOOTSTRAP_FUNCTION,
    EPISODES_FUNCTION,
    LocalMemory,
    StubbedAws,
    invoke_reply,
    run_event,
)

# Three runs a day apart, finished in the last few days (episodes are kept 90 days).
TODAY = datetime.now(UTC).replace(microsecond=0)
FINISHED = {f"day-{n}": TODAY - timedelta(days=3 - n) for n in range(3)}


def runs_a_day_apart(local: LocalMemory) -> None:
    for run_id, finished in FINISHED.items():
        event = run_event(run_id, finished_at=finished.isoformat())
        local.client.finish_run(event).wait()


def test_a_listing_by_aware_datetimes_holds_the_runs_created_between(local: LocalMemory) -> None:
    # Given three runs a day apart
    runs_a_day_apart(local)
    # When the window from the second run to the third is listed, its ends in two time zones
    since = FINISHED["day-1"].astimezone(timezone(timedelta(hours=-5)))
    page = local.client.list_episodes("acme", "reviewer", since=since, until=FINISHED["day-2"])
    # Then the second run alone is listed: since is in, until is out
    assert [e["run_id"] for e in page["episodes"]] == ["day-1"]


def test_a_listing_by_seconds_pages_on_with_the_same_window(local: LocalMemory) -> None:
    runs_a_day_apart(local)
    since = FINISHED["day-0"].timestamp()
    # When the two newest of the window are listed a page of one at a time
    first = local.client.list_episodes("acme", "reviewer", limit=1, since=since)
    rest = local.client.list_episodes("acme", "reviewer", cursor=first["cursor"], since=since)
    # Then every run of the window comes once, newest first
    runs = [e["run_id"] for e in first["episodes"] + rest["episodes"]]
    assert runs == ["day-2", "day-1", "day-0"]


def test_a_search_by_time_ranks_only_the_runs_of_its_window(local: LocalMemory) -> None:
    runs_a_day_apart(local)
    found = local.client.search_episodes(
        "acme", "reviewer", "liability cap", until=FINISHED["day-1"]
    )
    assert [e["run_id"] for e in found["episodes"]] == ["day-0"]


@pytest.mark.parametrize(
    ("bounds", "field"),
    [
        ({"since": datetime(2026, 5, 1)}, "since"),
        ({"until": datetime(2026, 5, 1)}, "until"),
        ({"since": "2026-05-01T00:00:00Z"}, "since"),
        ({"since": float("nan")}, "since"),
        ({"since": TODAY, "until": TODAY}, "until"),
        ({"since": TODAY, "until": TODAY - timedelta(seconds=1)}, "until"),
    ],
)
def test_a_bad_bound_is_refused_naming_its_field(
    local: LocalMemory, bounds: dict[str, Any], field: str
) -> None:
    # Given a naive datetime (whose moment is the caller's machine's guess), text, not a
    # number, or a window that ends where it starts: then listing and search name the bound
    with pytest.raises(InvalidInputError) as refused:
        local.client.list_episodes("acme", "reviewer", **bounds)
    assert refused.value.field == field
    with pytest.raises(InvalidInputError) as refused:
        local.client.search_episodes("acme", "reviewer", "cap", **bounds)
    assert refused.value.field == field


def expect(aws: StubbedAws, function: str, request: dict[str, Any], reply: object) -> None:
    """``function`` invoked with ``request`` exactly, answering ``reply``."""
    payload = json.dumps(request).encode()
    aws.lambda_.add_response(
        "invoke",
        invoke_reply(reply),
        {"FunctionName": function, "InvocationType": "RequestResponse", "Payload": payload},
    )


def test_on_aws_the_window_is_sent_in_seconds_since_the_epoch(aws: StubbedAws) -> None:
    # Given the functions' replies to a windowed listing and a windowed search
    since = datetime(2026, 5, 1, tzinfo=UTC)
    page = {"episodes": [], "cursor": None}
    listing = {"action": "list", "tenant_id": "acme", "limit": 100, "agent_id": "reviewer"}
    expect(aws, EPISODES_FUNCTION, {**listing, "since": since.timestamp(), "until": 1.8e9}, page)
    found = {
        "episodes": [],
        "units": [],
        "ranked_by": None,
        "left_out": {"episodes": 0, "units": 0},
    }
    searching = {"action": "search", "tenant_id": "acme", "agent_id": "reviewer", "query": "cap"}
    searching |= {"limit": 10, "units": 10, "until": since.timestamp()}
    expect(aws, BOOTSTRAP_FUNCTION, searching, found)
    # When the client lists and searches by time
    # Then each sends its window as numbers, once, and answers with the function's reply
    assert aws.client.list_episodes("acme", "reviewer", since=since, until=1.8e9) == page
    assert aws.client.search_episodes("acme", "reviewer", "cap", until=since) == found


def test_on_aws_a_bad_window_is_refused_before_invoking(aws: StubbedAws) -> None:
    # Then it names its field, and nothing is invoked (no response is queued)
    with pytest.raises(InvalidInputError) as refused:
        aws.client.list_episodes("acme", "reviewer", since=datetime(2026, 5, 1))
    assert refused.value.field == "since"
    with pytest.raises(InvalidInputError) as refused:
        aws.client.search_episodes("acme", "reviewer", "cap", since=2.0, until=1.0)
    assert refused.value.field == "until"
