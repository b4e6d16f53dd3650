"""The extract Lambda's reading of a RunFinished event, against the core's (one unwrapping)."""

from __future__ import annotations

from typing import Any

import pytest

from agent_memory.core.api.contracts import parse_run_finished, unwrap_event
from agent_memory.core.model.errors import InvalidInput
from agent_memory.serverless.parsing import parse_run_finished_event

DETAIL = {"tenant_id": "acme", "agent_id": "reviewer", "run_id": "run-1", "task": "Review it."}


def envelope(detail: object = DETAIL, **fields: object) -> dict[str, Any]:
    """``detail`` as the RunFinished rule hands it to the state machine."""
    return {
        "version": "0",
        "id": "6a7e8feb-b491-4cf7-a9f1-bf3703467718",
        "detail-type": "RunFinished",
        "source": "my.agent",
        "account": "123456789012",
        "time": "2026-01-01T00:00:00Z",
        "region": "eu-west-1",
        "resources": [],
        "detail": detail,
        **fields,
    }


def core_reading(event: object) -> object:
    return parse_run_finished(unwrap_event(event))


SHAPES = {
    "envelope": envelope(),
    "sourced pair": {"source": "my.agent", "detail": DETAIL},
    "bare detail": DETAIL,
}


@pytest.mark.parametrize("event", SHAPES.values(), ids=SHAPES.keys())
def test_every_delivered_shape_reads_as_the_core_reads_it(event: dict[str, Any]) -> None:
    assert parse_run_finished_event(event) == core_reading(event)


REFUSED_ALIKE = {
    "another detail type": (envelope(**{"detail-type": "RunStarted"}), "detail-type"),
    "a bad field in the envelope's detail": (envelope({**DETAIL, "run_id": "a b"}), "run_id"),
    "an unknown field in the pair's detail": ({"source": "s", "detail": {**DETAIL, "x": 1}}, "x"),
}


@pytest.mark.parametrize("event, field", REFUSED_ALIKE.values(), ids=REFUSED_ALIKE.keys())
def test_a_bad_detail_is_refused_alike_naming_the_field(event: Any, field: str) -> None:
    with pytest.raises(InvalidInput) as by_lambda:
        parse_run_finished_event(event)
    with pytest.raises(InvalidInput) as by_core:
        core_reading(event)
    assert (by_lambda.value.field, str(by_lambda.value)) == (
        by_core.value.field,
        str(by_core.value),
    )
    assert by_lambda.value.field == field


ENVELOPE_REFUSALS = {
    "a bad time": (envelope(time="yesterday"), "time"),
    "no id and the rest": ({"detail-type": "RunFinished", "detail": DETAIL}, "version"),
    "a detail that is a list": (envelope([DETAIL]), "detail"),
    "another detail type, no detail": ({"detail-type": "RunStarted", **DETAIL}, "detail-type"),
}


@pytest.mark.parametrize("event, field", ENVELOPE_REFUSALS.values(), ids=ENVELOPE_REFUSALS.keys())
def test_the_lambda_holds_an_envelopes_own_fields_to_eventbridges_model(
    event: Any, field: str
) -> None:
    # Given a document naming a detail type: an envelope, whose own fields are EventBridge's
    # When the Lambda reads it, Then a field of the envelope that is not EventBridge's is named
    with pytest.raises(InvalidInput) as refused:
        parse_run_finished_event(event)
    assert refused.value.field == field
