"""How an episode's units are stored by every adapter: texts as JSON, vectors as one blob.

One blob per episode (each vector length-prefixed) keeps a record compact and lets an index
load thousands of episodes' vectors with a handful of reads.
"""

from __future__ import annotations

import json
import struct

from agent_memory.core.models import EpisodeUnit, StoredVector

_LENGTH = struct.Struct("<I")


def pack_units(units: tuple[EpisodeUnit, ...]) -> tuple[str, str | None, int | None, bytes | None]:
    """``(texts JSON, model id, dimension, vectors blob)`` of the units.

    Every unit carries a vector of one model, or none does.
    """
    texts = json.dumps(
        [{"kind": u.kind, "seq": u.seq, "speaker": u.speaker, "text": u.text} for u in units],
        ensure_ascii=False,
    )
    vectors = [u.embedding for u in units]
    if not units or all(v is None for v in vectors):
        return texts, None, None, None
    if (
        any(v is None for v in vectors)
        or len({(v.model_id, v.dimension) for v in vectors if v}) > 1
    ):
        raise ValueError("every unit of an episode needs a vector of the same model")
    first = vectors[0]
    assert first is not None
    blob = b"".join(_LENGTH.pack(len(v.data)) + v.data for v in vectors if v is not None)
    return texts, first.model_id, first.dimension, blob


def unpack_units(
    texts: str, model_id: str | None, dimension: int | None, blob: bytes | None
) -> tuple[EpisodeUnit, ...]:
    """Inverse of :func:`pack_units`."""
    items = json.loads(texts) if texts else []
    datas: list[bytes | None] = [None] * len(items)
    if blob is not None and model_id is not None and dimension is not None:
        datas, offset = [], 0
        while offset < len(blob):
            (length,) = _LENGTH.unpack_from(blob, offset)
            offset += _LENGTH.size
            datas.append(bytes(blob[offset : offset + length]))
            offset += length
        if len(datas) != len(items):
            raise ValueError("unit vectors do not match the unit texts")
    return tuple(
        EpisodeUnit(
            kind=item["kind"],
            seq=int(item["seq"]),
            text=item["text"],
            speaker=item.get("speaker"),
            embedding=(
                StoredVector(str(model_id), int(dimension), data)
                if data is not None and dimension is not None
                else None
            ),
        )
        for item, data in zip(items, datas, strict=True)
    )
