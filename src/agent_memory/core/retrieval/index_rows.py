"""An episode's rows in a search index, prepared once and reused by the agent's next index.

An index lays every episode out as rows: its messages in order, then its other units, then its
summary. What a row is matched by (its terms, its int8 vector) depends on the episode alone, so
when an agent's episodes change, the next index prepares only the episodes it has not seen and
lays out the rest again from what the last index prepared.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from agent_memory.core.model.models import Episode, EpisodeUnit, StoredVector
from agent_memory.core.ports import FloatArray
from agent_memory.core.retrieval import vectors
from agent_memory.core.retrieval.lexical import Bm25Index, tokenize
from agent_memory.core.retrieval.periods import calendar_day, tells_when

MESSAGE, FINDING, SUMMARY = 0, 1, 2
# A neighbour lends its words at this weight, halving per step, up to this many steps away.
# How far and how much a message's neighbours' words count (EpisodicPolicy's defaults).
NEIGHBOURS = (2, 0.5)
# What a small Python object (a unit, its strings and vector) costs beyond its payload, roughly.
OBJECT_BYTES = 400

Ids = npt.NDArray[np.int32]
EpisodeKey = tuple[str, str, float, bytes, int]


def episode_key(episode: Episode) -> EpisodeKey:
    """What identifies an episode's prepared rows: episodes are written once, so its run id,
    time, summary vector and unit count change only if it was rewritten (re-embedded); its
    author tells apart two agents' runs of one id in a team's index.
    """
    summary = episode.embedding.data if episode.embedding is not None else b""
    return (episode.agent_id, episode.run_id, episode.created_at, summary, len(episode.units))


@dataclass(frozen=True, slots=True)
class PreparedEpisode:
    """One episode's rows: kinds, units, lexical postings and int8 vectors (row 0 = its first
    message).

    ``own``/``own_counts``: the episode's own postings, summed and in row order: each distinct
    (row, term id) pair's term and count, a row's own terms ("(day) speaker: text") once each
    and the text terms neighbouring messages lend it (see :func:`_postings`); ``per_row``: how
    many postings each row has; ``lengths``: each row's summed counts. An index of many
    episodes only concatenates them and sorts by term.
    ``speakers``: its units' distinct speakers; ``speaker_rows``: each row's, as a position
    in ``speakers`` (-1: none). ``dated``: whether a row's own text dates what it tells
    (``periods.tells_when``; never the summary row).
    ``vector_sum``: the sum of its rows' vectors (the index normalises it into a centroid).
    """

    kinds: npt.NDArray[np.int8]
    units: tuple[EpisodeUnit | None, ...]
    own: Ids
    per_row: Ids
    own_counts: npt.NDArray[np.float32]
    lengths: npt.NDArray[np.float32]
    speakers: tuple[str, ...]
    speaker_rows: Ids
    dated: npt.NDArray[np.bool_]
    messages: int
    # int8 rows with a scale each (quantized), or float32 rows with a scale of one.
    matrix: npt.NDArray[np.int8] | FloatArray
    scale: FloatArray
    usable: npt.NDArray[np.bool_]
    vector_sum: FloatArray
    # What nbytes reports, summed once here: an index adds up thousands of episodes'.
    held_bytes: int

    @property
    def rows(self) -> int:
        """How many rows the episode takes."""
        return len(self.units)

    def with_vectors(
        self,
        matrix: npt.NDArray[np.int8] | FloatArray,
        scale: FloatArray,
        usable: npt.NDArray[np.bool_],
    ) -> PreparedEpisode:
        """The same rows with these vectors (``dataclasses.replace``, without its per-call
        introspection: an index lays out thousands of episodes).
        """
        return PreparedEpisode(
            self.kinds,
            self.units,
            self.own,
            self.per_row,
            self.own_counts,
            self.lengths,
            self.speakers,
            self.speaker_rows,
            self.dated,
            self.messages,
            matrix,
            scale,
            usable,
            self.vector_sum,
            self.held_bytes,
        )

    @property
    def nbytes(self) -> int:
        """Bytes it keeps alive: term arrays, vector sum and units (estimated); its rows'
        vectors are counted with the index's matrix.
        """
        return self.held_bytes


class Vocabulary:
    """Term ids, shared by an index and the next one built from its prepared rows."""

    def __init__(self, ids: dict[str, int] | None = None) -> None:
        self.ids: dict[str, int] = dict(ids or {})
        self._speakers: dict[str | None, list[int]] = {None: [], "": []}

    def of(self, text: str) -> list[int]:
        """Term ids of ``text``'s tokens, new terms added."""
        ids = self.ids
        return [ids.setdefault(t, len(ids)) for t in tokenize(text)]

    def speaker(self, name: str | None) -> list[int]:
        """Term ids of a speaker's name (tokenised once per vocabulary)."""
        if name not in self._speakers:
            self._speakers[name] = self.of(name or "")
        return self._speakers[name]


def prepare(
    episode: Episode,
    vocabulary: Vocabulary,
    model_id: str,
    dimension: int,
    *,
    quantized: bool = True,
    neighbours: tuple[int, float] = NEIGHBOURS,
) -> PreparedEpisode:
    """Lay out one episode's rows and compute what each is matched by; with ``quantized``,
    its vectors held as int8 rows with a scale each, else as float32 rows. ``neighbours``:
    how many messages away, and at what weight per step, a message's neighbours' words count.
    """
    # A row is matched as "(day) speaker: text" (unit_text): its day's, speaker's and text's
    # terms, tokenised apart (the separators keep words from joining).
    day = vocabulary.of(f"({calendar_day(episode.created_at)})")
    messages = sorted((u for u in episode.units if u.kind == "message"), key=_seq)
    others = [u for u in episode.units if u.kind != "message"]
    own: list[int] = []
    own_rows: list[int] = []
    plain: list[int] = []
    plain_rows: list[int] = []
    for row, unit in enumerate(messages):
        text = vocabulary.of(unit.text)
        plain += text
        plain_rows += [row] * len(text)
        terms = day + vocabulary.speaker(unit.speaker) + text
        own += terms
        own_rows += [row] * len(terms)
    for row, unit in enumerate(others, start=len(messages)):
        terms = day + vocabulary.speaker(unit.speaker) + vocabulary.of(unit.text)
        own += terms
        own_rows += [row] * len(terms)
    # The episode's own summary competes as one more (unreturned) row.
    terms = day + vocabulary.of(episode.task_summary or episode.task)
    own += terms
    own_rows += [len(messages) + len(others)] * len(terms)
    units: tuple[EpisodeUnit | None, ...] = (*messages, *others, None)
    per_row, own_terms, counts, lengths = _postings(
        np.array(own, dtype=np.int32),
        np.array(own_rows, dtype=np.int32),
        np.array(plain, dtype=np.int32),
        np.array(plain_rows, dtype=np.int32),
        messages=len(messages),
        rows=len(units),
        neighbours=neighbours,
    )
    speakers = {u.speaker: None for u in units if u is not None and u.speaker}
    position = {name: i for i, name in enumerate(speakers)}
    speaker_rows = [position[u.speaker] if u is not None and u.speaker else -1 for u in units]
    stored: list[StoredVector | None] = [u.embedding for u in (*messages, *others)]
    rows = [*stored, episode.embedding]
    matrix: npt.NDArray[np.int8] | FloatArray
    if quantized:
        matrix, scale, usable = vectors.stack_quantized(rows, model_id, dimension)
    else:
        matrix, usable = vectors.stack(rows, model_id, dimension)
        scale = np.ones(len(rows), dtype=np.float32)
    rows_speaker = np.array(speaker_rows, dtype=np.int32)
    dated = np.array([u is not None and tells_when(u.text) for u in units], dtype=np.bool_)
    vector_sum = np.add.reduceat(matrix.astype(np.float32) * scale[:, None], [0], axis=0)[0]
    arrays = (own_terms, per_row, counts, lengths, rows_speaker, dated, vector_sum)
    unit_bytes = sum(
        OBJECT_BYTES + len(u.text) + (len(u.embedding.data) if u.embedding else 0)
        for u in episode.units
    )
    return PreparedEpisode(
        kinds=np.array(
            [MESSAGE] * len(messages) + [FINDING] * len(others) + [SUMMARY], dtype=np.int8
        ),
        units=units,
        own=own_terms,
        per_row=per_row,
        own_counts=counts,
        lengths=lengths,
        speakers=tuple(speakers),
        speaker_rows=rows_speaker,
        dated=dated,
        messages=len(messages),
        matrix=matrix,
        scale=scale,
        usable=usable,
        vector_sum=vector_sum,
        held_bytes=sum(a.nbytes for a in arrays) + unit_bytes,
    )


def _postings(
    own: Ids,
    own_rows: Ids,
    plain: Ids,
    plain_rows: Ids,
    *,
    messages: int,
    rows: int,
    neighbours: tuple[int, float] = NEIGHBOURS,
) -> tuple[Ids, Ids, npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """An episode's postings from its rows' own terms (``own``, the row of each in
    ``own_rows``) and its messages' text terms (``plain``, ``plain_rows``): each distinct
    (row, term) pair's term and summed count, in (row, term) order; how many pairs each row
    has; and each row's length.

    A row counts its own terms once, and each message the text terms of the messages up to
    ``window`` away at ``weight`` per step (``neighbours``; their text only: a neighbour's
    speaker and date would put every name in every window).
    """
    window, weight = neighbours
    docs, terms, counts = [own_rows], [own], [np.ones(len(own))]
    for step in range(1, window + 1):
        for target in (plain_rows - step, plain_rows + step):
            lent = (target >= 0) & (target < messages)
            docs.append(target[lent])
            terms.append(plain[lent])
            counts.append(np.full(int(lent.sum()), weight**step))
    all_docs = np.concatenate(docs).astype(np.int64)
    all_terms = np.concatenate(terms).astype(np.int64)
    all_counts = np.concatenate(counts)
    span = int(all_terms.max()) + 1 if len(all_terms) else 1
    pairs, at = np.unique(all_docs * span + all_terms, return_inverse=True)
    # Counts are small sums of powers of two: exact in float64 in any order of addition.
    summed = np.bincount(at.ravel(), weights=all_counts, minlength=len(pairs))
    lengths = np.bincount(all_docs, weights=all_counts, minlength=rows)
    return (
        np.bincount(pairs // span, minlength=rows).astype(np.int32),
        (pairs % span).astype(np.int32),
        summed.astype(np.float32),
        lengths.astype(np.float32),
    )


def lexical_index(
    prepared: Sequence[PreparedEpisode], starts: npt.NDArray[np.int64], vocabulary: Vocabulary
) -> Bm25Index:
    """BM25 over every row of the laid-out episodes (episode ``i`` from row ``starts[i]``),
    from each episode's own postings (:class:`PreparedEpisode`): concatenated, they are in row
    order, and one stable sort by term orders them for the index.
    """
    rows = int(starts[-1] + prepared[-1].rows) if prepared else 0
    docs = np.repeat(np.arange(rows, dtype=np.int32), _concat([p.per_row for p in prepared]))
    return Bm25Index.from_postings(
        docs,
        _concat([p.own for p in prepared]),
        _concat_float([p.own_counts for p in prepared]),
        _concat_float([p.lengths for p in prepared]),
        vocabulary=vocabulary.ids,
        documents=rows,
    )


def speaker_codes(
    prepared: Sequence[PreparedEpisode], lengths: npt.NDArray[np.int64]
) -> tuple[list[str], Ids]:
    """The laid-out episodes' distinct speakers, sorted, and each row's as a position in
    them (-1: none); episode ``i`` has ``lengths[i]`` rows. Python touches each episode's
    few names, not every row.
    """
    names = [name for p in prepared for name in p.speakers]
    ordered = sorted(set(names))
    code = {name: i for i, name in enumerate(ordered)}
    # Each episode's names' codes in a row, and one more -1 for rows with none.
    codes = np.array([code[name] for name in names] + [-1], dtype=np.int32)
    counts = np.array([len(p.speakers) for p in prepared], dtype=np.int64)
    offset = np.repeat(np.cumsum(counts) - counts, lengths)
    local = _concat([p.speaker_rows for p in prepared])
    return ordered, codes[np.where(local >= 0, local + offset, -1)]


def as_views(
    prepared: Sequence[PreparedEpisode],
    starts: npt.NDArray[np.int64],
    matrix: npt.NDArray[np.int8] | FloatArray,
    scale: FloatArray,
    usable: npt.NDArray[np.bool_],
) -> list[PreparedEpisode]:
    """The same rows, their vectors now views into the laid-out arrays (held once, not twice)."""
    return [
        p.with_vectors(matrix[s : s + p.rows], scale[s : s + p.rows], usable[s : s + p.rows])
        for p, s in zip(prepared, starts.tolist(), strict=True)
    ]


def _concat(arrays: list[Ids]) -> Ids:
    return np.concatenate(arrays) if arrays else np.zeros(0, dtype=np.int32)


def _concat_float(arrays: list[npt.NDArray[np.float32]]) -> npt.NDArray[np.float32]:
    return np.concatenate(arrays) if arrays else np.zeros(0, dtype=np.float32)


def _seq(unit: EpisodeUnit) -> int:
    return unit.seq
