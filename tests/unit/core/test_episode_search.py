"""A search reply held to the deployment's reply size: best first, what is left out counted."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from agent_memory.core.api.bootstrap_reply import reply_bytes
from agent_memory.core.api.episode_search import episode_search
from agent_memory.core.model.models import EpisodeHit, EpisodeUnit, SearchResult, UnitHit
from tests.contract.builders import episode

_TEXTS = st.text(max_size=3_000)


@st.composite
def results(draw: st.DrawFn) -> SearchResult:
    summaries = draw(st.lists(_TEXTS, max_size=8))
    hits = []
    for n, summary in enumerate(summaries):
        unit = UnitHit(f"run-{n}", EpisodeUnit("message", 0, draw(_TEXTS)), 0.5, 0.5, "agent-1")
        stored = episode(run_id=f"run-{n}", task_summary=summary)
        hits.append(EpisodeHit(stored, 1.0 - n / 10, 0.5, (unit,)))
    units = [
        UnitHit(f"run-{n}", EpisodeUnit("finding", n, text), 0.1, 0.1, "agent-1")
        for n, text in enumerate(draw(st.lists(_TEXTS, max_size=8)))
    ]
    return SearchResult(tuple(hits), tuple(units))


@given(results(), st.integers(min_value=200, max_value=40_000))
def test_a_reply_keeps_the_best_that_fit_and_counts_the_rest(
    result: SearchResult, max_bytes: int
) -> None:
    # When the result is written for a reply of at most max_bytes
    reply = episode_search(result, max_bytes=max_bytes)
    whole = episode_search(result, max_bytes=10**9)
    kept_e, kept_u = len(reply["episodes"]), len(reply["units"])
    # Then what it keeps is the best of each, in rank order, and the rest is counted
    assert reply["episodes"] == whole["episodes"][:kept_e]
    assert reply["units"] == whole["units"][:kept_u]
    assert reply["left_out"] == {
        "episodes": len(result.episodes) - kept_e,
        "units": len(result.units) - kept_u,
    }
    # And it fits, unless its one record alone does not (the best is always sent)
    if kept_e + kept_u > 1:
        assert reply_bytes(reply) <= max_bytes
    # And it stops at the first record that would not fit: ranks alternate, episode first
    if reply["left_out"] != {"episodes": 0, "units": 0}:
        assert abs(kept_e - kept_u) <= 1 or min(kept_e, kept_u) in (
            len(result.episodes),
            len(result.units),
        )
