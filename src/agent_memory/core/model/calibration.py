"""Similarity thresholds calibrated per embedding model, recorded beside the model id.

Cosine scales differ between models (Titan's related pairs score far higher than MiniLM's), so
a threshold tuned for one model silently breaks another. A model without a calibration here is
refused unless the policy sets its thresholds explicitly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.model.policies import Policies


@dataclass(frozen=True, slots=True)
class Calibration:
    """Thresholds for one embedding model family and where they came from."""

    model_family: str
    episode_min_similarity: float
    fact_min_score: float
    source: str


TITAN_V2 = Calibration(
    model_family="amazon.titan-embed-text-v2",
    episode_min_similarity=0.75,
    fact_min_score=0.6,
    source="reference design defaults for Titan Text Embeddings v2 and Bedrock KB scores",
)

DEFAULT_CALIBRATIONS: dict[str, Calibration] = {TITAN_V2.model_family: TITAN_V2}


def calibration_for(model_id: str, table: Mapping[str, Calibration]) -> Calibration:
    """The calibration whose family is the longest prefix of ``model_id``."""
    matches = [c for family, c in table.items() if model_id.startswith(family)]
    if not matches:
        raise InvalidInput(
            "embedding_model",
            f"no similarity calibration for model {model_id!r}: calibrate it or set thresholds",
        )
    return max(matches, key=lambda c: len(c.model_family))


def episode_threshold(policies: Policies, model_id: str, table: Mapping[str, Calibration]) -> float:
    """Minimum similarity of a served episode: the policy's, else the model's calibration."""
    if policies.episodic.min_similarity is not None:
        return policies.episodic.min_similarity
    return calibration_for(model_id, table).episode_min_similarity


def fact_threshold(policies: Policies, model_id: str, table: Mapping[str, Calibration]) -> float:
    """Minimum score of a served fact: the policy's, else the model's calibration."""
    if policies.semantic.min_score is not None:
        return policies.semantic.min_score
    return calibration_for(model_id, table).fact_min_score
