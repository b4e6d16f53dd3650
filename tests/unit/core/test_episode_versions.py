"""The version-token rule every episode store shares: what a cache may take in since a token."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from agent_memory.core.model.episode_versions import EpisodeVersion, changes_since
from agent_memory.core.model.models import Episode
from tests.contract.builders import DAY, NOW, episode

_VERSIONS = st.builds(EpisodeVersion, st.text(), st.integers(min_value=0, max_value=10**12))


def _never(position: int, at_most: int) -> Sequence[Episode] | None:
    raise AssertionError("the store was asked for additions it cannot have")


@given(_VERSIONS)
def test_a_token_names_its_version(version: EpisodeVersion) -> None:
    assert EpisodeVersion.parse(version.token) == version


@given(st.text())
def test_a_token_no_store_wrote_is_named_so(token: str) -> None:
    parsed = EpisodeVersion.parse(token)
    assert parsed is None or parsed.token == token


@given(_VERSIONS)
def test_the_current_token_takes_in_nothing(current: EpisodeVersion) -> None:
    found = changes_since(current, current.token, now=NOW, limit=3, added_after=_never)
    assert (found.version, found.added) == (current.token, [])


@given(_VERSIONS, _VERSIONS)
def test_another_epoch_or_a_token_ahead_reads_everything_again(
    current: EpisodeVersion, before: EpisodeVersion
) -> None:
    if before.epoch == current.epoch and before.position <= current.position:
        before = replace(before, position=current.position + 1)
    found = changes_since(current, before.token, now=NOW, limit=3, added_after=_never)
    assert (found.version, found.added) == (current.token, None)


@given(st.text().filter(lambda token: EpisodeVersion.parse(token) is None))
def test_a_foreign_token_reads_everything_again(token: str) -> None:
    found = changes_since(EpisodeVersion("e", 4), token, now=NOW, limit=3, added_after=_never)
    assert found.added is None


def test_additions_of_the_epoch_are_taken_in_live_and_newest_first() -> None:
    # Given three episodes added after position 2, one of them expired
    older = episode(run_id="a", created_at=NOW - 2 * DAY)
    newer = episode(run_id="b", created_at=NOW - DAY)
    expired = episode(run_id="c", expires_at=NOW - 1)
    asked: list[tuple[int, int]] = []

    def added_after(position: int, at_most: int) -> list[Episode]:
        asked.append((position, at_most))
        return [older, expired, newer]

    # When a cache at position 2 asks for what changed
    found = changes_since(EpisodeVersion("e", 5), "e.2", now=NOW, limit=2, added_after=added_after)
    # Then it takes in the live ones, newest first, asked from its own position
    assert found.added == [newer, older]
    assert asked == [(2, 2)]


@given(st.integers(min_value=1, max_value=20), st.integers(min_value=0, max_value=25))
def test_more_live_additions_than_the_limit_read_everything_again(limit: int, count: int) -> None:
    added = [episode(run_id=f"r{n}") for n in range(count)]
    found = changes_since(
        EpisodeVersion("e", 30), "e.0", now=NOW, limit=limit, added_after=lambda p, m: added
    )
    assert (found.added is None) == (count > limit)


def test_a_store_that_cannot_name_the_additions_reads_everything_again() -> None:
    found = changes_since(
        EpisodeVersion("e", 9), "e.1", now=NOW, limit=5, added_after=lambda p, m: None
    )
    assert found.added is None
