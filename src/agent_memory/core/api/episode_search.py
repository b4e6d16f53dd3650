"""A search of past runs: its request and its reply, as plain JSON on every surface.

The reply ranks the scope's episodes and, across them, their units (messages and findings) by
how well they match the query, best first, the way bootstrap ranks them, but in full: no
similarity threshold (``min_similarity`` sets one) and no block around them.
"""

# No ``from __future__ import annotations`` here: TypedDict needs evaluated annotations.
from typing import Annotated, Literal, TypedDict

from pydantic import Field, StringConstraints

from agent_memory.core.api.bootstrap_reply import reply_bytes
from agent_memory.core.api.bootstrap_request import ReaderModel
from agent_memory.core.api.contracts import MAX_TASK_CHARS, NOT_BLANK
from agent_memory.core.api.episode_record import EpisodeRecord, episode_record
from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.model.models import SearchResult, UnitHit
from agent_memory.core.model.time_window import TimeWindow

# The most episodes, and units, one search returns.
MAX_RESULTS = 100
DEFAULT_RESULTS = 10


class UnitMatch(TypedDict):
    """A message or finding of a past run that matched the query."""

    run_id: str
    agent_id: str
    kind: Literal["message", "finding"]
    seq: int
    speaker: str | None
    text: str
    similarity: float
    score: float


class EpisodeMatch(EpisodeRecord):
    """A stored episode that matched the query, with its best units."""

    similarity: float
    score: float
    units: list[UnitMatch]


class LeftOut(TypedDict):
    """How many of the ranked episodes and units a reply left out to fit its size."""

    episodes: int
    units: int


class EpisodeSearch(TypedDict):
    """Episodes best first, and their units across episodes best first; ``ranked_by`` names
    the reranker that ordered them (None: the index's own order); ``left_out`` counts the
    lowest-ranked ones a reply had no room for.
    """

    episodes: list[EpisodeMatch]
    units: list[UnitMatch]
    ranked_by: str | None
    left_out: LeftOut


Results = Annotated[int, Field(ge=1, le=MAX_RESULTS)]
Moment = Annotated[float, Field(strict=True, allow_inf_nan=False)]


class SearchRequestModel(ReaderModel):
    """A search request: whose memory, which query, how many results."""

    action: Literal["search"]
    query: Annotated[str, StringConstraints(pattern=NOT_BLANK)]
    limit: Results = DEFAULT_RESULTS
    units: Results = DEFAULT_RESULTS
    min_similarity: Annotated[float, Field(ge=-1.0, le=1.0, strict=False)] | None = None
    # Only episodes created in [since, until), in seconds since the epoch.
    since: Moment | None = None
    until: Moment | None = None


def parse_search_request(data: object) -> SearchRequestModel:
    """Validate a search request; :class:`InvalidInput` names the offending field."""
    from agent_memory.core.api.contracts import validate

    if not isinstance(data, dict):
        raise InvalidInput("request", "must be a JSON object")
    request = validate(SearchRequestModel, data)
    TimeWindow(request.since, request.until)  # an until not after since is refused
    return request.model_copy(update={"query": request.query[:MAX_TASK_CHARS]})


def episode_search(result: SearchResult, *, max_bytes: int) -> EpisodeSearch:
    """The search result's JSON form (vectors left out), in at most ``max_bytes`` of JSON
    (:func:`reply_bytes`; Lambda refuses a synchronous response over 6 MB): episodes and units
    are kept in rank order, the n-th of each before the next, until the next does not fit (the
    first always is); ``left_out`` counts the rest.
    """
    episodes: list[EpisodeMatch] = [
        {
            **episode_record(hit.episode),
            "similarity": hit.similarity,
            "score": hit.score,
            "units": [_unit(u) for u in hit.units],
        }
        for hit in result.episodes
    ]
    units = [_unit(u) for u in result.units]
    whole = len(episodes), len(units)
    shell: EpisodeSearch = {
        "episodes": [],
        "units": [],
        "ranked_by": result.ranked_by,
        "left_out": {"episodes": whole[0], "units": whole[1]},
    }
    room = max_bytes - reply_bytes(shell)
    kept: tuple[list[EpisodeMatch], list[UnitMatch]] = ([], [])
    for rank in range(max(whole)):
        for found, taken in ((episodes, kept[0]), (units, kept[1])):
            if rank >= len(found):
                continue
            room -= reply_bytes(found[rank]) + 2  # its comma and space in the list
            if room < 0 and (kept[0] or kept[1]):
                return _fitted(shell, *kept, whole)
            taken.append(found[rank])  # type: ignore[arg-type]
    return _fitted(shell, *kept, whole)


def _fitted(
    shell: EpisodeSearch,
    episodes: list[EpisodeMatch],
    units: list[UnitMatch],
    whole: tuple[int, int],
) -> EpisodeSearch:
    left_out: LeftOut = {"episodes": whole[0] - len(episodes), "units": whole[1] - len(units)}
    return {**shell, "episodes": episodes, "units": units, "left_out": left_out}


def _unit(hit: UnitHit) -> UnitMatch:
    return {
        "run_id": hit.run_id,
        "agent_id": hit.agent_id,
        "kind": hit.unit.kind,
        "seq": hit.unit.seq,
        "speaker": hit.unit.speaker,
        "text": hit.unit.text,
        "similarity": hit.similarity,
        "score": hit.score,
    }
