"""How an episode's units are stored by every adapter: texts as JSON, vectors as one blob.

One blob per episode (each vector length-prefixed) keeps a record compact and lets an index
load thousands of episodes' vectors with a handful of reads. While the store moves to another
embedding model, the units' spare vectors (that model's) ride in a second blob of the same form.
"""

from __future__ import annotations

import json
import struct

from agent_memory.core.model.models import EpisodeUnit, StoredVector

_LENGTH = struct.Struct("<I")

PackedVectors = tuple[str | None, int | None, bytes | None]
"""``(model id, dimension, blob)`` of the vectors of an episode's units (Nones: no vectors)."""


def pack_units(units: tuple[EpisodeUnit, ...]) -> tuple[str, str | None, int | None, bytes | None]:
    """``(texts JSON, model id, dimension, vectors blob)`` of the units.

    Every unit carries a vector of one model, or none does.
    """
    texts = json.dumps(
        [{"kind": u.kind, "seq": u.seq, "speaker": u.speaker, "text": u.text} for u in units],
        ensure_ascii=False,
    )
    return (texts, *pack_vectors([u.embedding for u in units]))


def pack_spare_units(units: tuple[EpisodeUnit, ...]) -> PackedVectors:
    """``(model id, dimension, vectors blob)`` of the units' spare vectors (a re-embedding's)."""
    return pack_vectors([u.spare_embedding for u in units])


def pack_vectors(vectors: list[StoredVector | None]) -> PackedVectors:
    """One blob of vectors of one model (each length-prefixed), or Nones when there are none."""
    if not vectors or all(v is None for v in vectors):
        return None, None, None
    if (
        any(v is None for v in vectors)
        or len({(v.model_id, v.dimension) for v in vectors if v}) > 1
    ):
        raise ValueError("every unit of an episode needs a vector of the same model")
    first = vectors[0]
    assert first is not None
    blob = b"".join(_LENGTH.pack(len(v.data)) + v.data for v in vectors if v is not None)
    return first.model_id, first.dimension, blob


def unpack_units(
    texts: str,
    model_id: str | None,
    dimension: int | None,
    blob: bytes | None,
    spare: PackedVectors = (None, None, None),
) -> tuple[EpisodeUnit, ...]:
    """Inverse of :func:`pack_units` (and of :func:`pack_spare_units`, given ``spare``)."""
    items = json.loads(texts) if texts else []
    vectors = _unpack_vectors(len(items), model_id, dimension, blob)
    spares = _unpack_vectors(len(items), *spare)
    return tuple(
        EpisodeUnit(
            kind=item["kind"],
            seq=int(item["seq"]),
            text=item["text"],
            speaker=item.get("speaker"),
            embedding=vector,
            spare_embedding=spare_vector,
        )
        for item, vector, spare_vector in zip(items, vectors, spares, strict=True)
    )


def _unpack_vectors(
    count: int, model_id: str | None, dimension: int | None, blob: bytes | None
) -> list[StoredVector | None]:
    if blob is None or model_id is None or dimension is None:
        return [None] * count
    datas, offset = [], 0
    while offset < len(blob):
        (length,) = _LENGTH.unpack_from(blob, offset)
        offset += _LENGTH.size
        datas.append(bytes(blob[offset : offset + length]))
        offset += length
    if len(datas) != count:
        raise ValueError("unit vectors do not match the unit texts")
    return [StoredVector(str(model_id), int(dimension), data) for data in datas]
