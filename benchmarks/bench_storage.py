"""Bytes per stored embedding: the product's int8 encoding vs float32 vs the reference's list of
``Decimal``, sized as DynamoDB bills them (see :mod:`benchmarks.dynamodb_size`).
"""

from __future__ import annotations

import json
import statistics
from decimal import Decimal
from pathlib import Path
from typing import Any

import numpy as np

from agent_memory.core.retrieval import vectors
from benchmarks import dynamodb_size as ddb
from benchmarks.baselines import decimal_list
from benchmarks.synthetic import FloatArray

ATTRIBUTE = "embedding"
# The product stores the model id and dimension beside the bytes (models.StoredVector).
MODEL_ATTRIBUTE = "embedding_model"
DIMENSION_ATTRIBUTE = "embedding_dimension"
# Each unit vector sits in one per-episode blob behind a 4-byte length prefix (unit_codec).
UNIT_PREFIX_BYTES = 4
ENCODINGS = ("int8", "float32")


def storage_benchmark(
    matrix: FloatArray, model_id: str, *, units_per_episode: float | None = None
) -> dict[str, Any]:
    """Mean DynamoDB bytes of one embedding attribute per encoding, over ``matrix``'s rows."""
    dimension = int(matrix.shape[1])
    int8 = [vectors.encode(row, model_id) for row in matrix]
    float32 = [vectors.encode(row, model_id, encoding="float32") for row in matrix]
    decimals = [decimal_list(row) for row in matrix]
    short = [[Decimal(str(np.float32(x))) for x in row.tolist()] for row in matrix]
    sizes = {
        "int8_product": statistics.mean(ddb.binary_size(v.data, ATTRIBUTE) for v in int8),
        "float32_product": statistics.mean(ddb.binary_size(v.data, ATTRIBUTE) for v in float32),
        "decimal_list_reference": statistics.mean(
            ddb.number_list_size(d, ATTRIBUTE) for d in decimals
        ),
        "decimal_list_float32_shortest": statistics.mean(
            ddb.number_list_size(d, ATTRIBUTE) for d in short
        ),
    }
    side = ddb.string_size(model_id, MODEL_ATTRIBUTE) + ddb.number_size(
        Decimal(dimension), DIMENSION_ATTRIBUTE
    )
    digits = [ddb.significant_digits(x) for row in decimals for x in row]
    result: dict[str, Any] = {
        "dimension": dimension,
        "vectors_sized": len(int8),
        "bytes_per_embedding_attribute": {k: round(v, 1) for k, v in sizes.items()},
        "payload_bytes": {
            "int8_product": len(int8[0].data),
            "float32_product": len(float32[0].data),
            "float32_raw": 4 * dimension,
        },
        "decimal_significant_digits_mean": round(statistics.mean(digits), 2),
        "product_side_attributes_bytes": side,
        "ratios": {
            "decimal_list_over_int8": round(
                sizes["decimal_list_reference"] / sizes["int8_product"], 2
            ),
            "decimal_list_over_int8_with_side_attributes": round(
                sizes["decimal_list_reference"] / (sizes["int8_product"] + side), 2
            ),
            "float32_over_int8": round(sizes["float32_product"] / sizes["int8_product"], 2),
            "decimal_list_over_float32": round(
                sizes["decimal_list_reference"] / sizes["float32_product"], 2
            ),
            "float32_shortest_decimal_list_over_int8": round(
                sizes["decimal_list_float32_shortest"] / sizes["int8_product"], 2
            ),
        },
    }
    if units_per_episode is not None:
        unit_bytes = units_per_episode * (len(int8[0].data) + UNIT_PREFIX_BYTES)
        result["per_episode_all_vectors"] = {
            "units_per_episode_mean": round(units_per_episode, 2),
            "product_summary_plus_unit_vectors_bytes": round(
                sizes["int8_product"] + side + unit_bytes, 1
            ),
            "reference_summary_vector_bytes": round(sizes["decimal_list_reference"], 1),
            "note": "the product also stores one int8 vector per unit (messages, findings); "
            "the reference stores one vector per episode and searches nothing finer",
        }
    return result


def int8_recall_note(path: Path) -> dict[str, Any]:
    """The int8-vs-float32 recall figure of the retrieval benchmark, if its result file exists."""
    source = "benchmarks/results/retrieval.json"
    if not path.exists():
        return {
            "source": source,
            "note": "see retrieval benchmark (benchmarks/retrieval.py): no result file yet",
        }
    data = json.loads(path.read_text())
    found = _find_int8(data)
    if not found:
        return {"source": source, "note": "result file has no int8 entry; see retrieval benchmark"}
    return {"source": source, "figures": found}


def _find_int8(data: Any, prefix: str = "") -> dict[str, Any]:
    """Recall figures whose own key names int8 or float32 (the retrieval benchmark's schema is
    its own, so it is searched rather than assumed).
    """
    found: dict[str, Any] = {}
    items = (
        data.items()
        if isinstance(data, dict)
        else enumerate(data)
        if isinstance(data, list)
        else ()
    )
    for key, value in items:
        path = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, dict | list):
            found.update(_find_int8(value, path))
        elif (
            isinstance(value, int | float)
            and "recall" in str(key).lower()
            and any(e in str(key).lower() for e in ENCODINGS)
        ):
            found[path] = value
    return found
