"""Powertools Parser with errors that name the field, as the core's own validation does."""

from __future__ import annotations

from typing import Any, TypeVar

from aws_lambda_powertools.utilities.parser import parse
from aws_lambda_powertools.utilities.parser.models import EventBridgeModel
from pydantic import BaseModel, ValidationError

from agent_memory.core.api.contracts import (
    RunFinishedEvent,
    check_detail_type,
    check_event,
    invalid_input,
    run_from_model,
    unwrap_event,
)
from agent_memory.core.api.json_input import check_document, read_json
from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.model.identifiers import checked_id
from agent_memory.core.model.models import RunFinished
from agent_memory.core.workflows.run_state import RunState, state_from_json

M = TypeVar("M", bound=BaseModel)


def parse_model(event: Any, model: type[M]) -> M:
    """``event`` parsed as ``model``, or :class:`InvalidInput` naming every bad field.

    The event is held to what a JSON text could carry first (no object of more than
    :data:`~agent_memory.core.api.json_input.MAX_OBJECT_KEYS` keys, finite numbers): a request of a
    million keys is refused before it costs a gigabyte of validation errors.
    """
    check_document(event, max_bytes=None)
    try:
        return parse(event=event, model=model)
    except ValidationError as error:
        raise invalid_input(error, model) from None


def parse_run_finished_event(event: Any) -> RunFinished:
    """A RunFinished event as EventBridge delivers it (its envelope, its detail with its
    source, or its bare detail), validated.

    The runtime has parsed the payload already: before any model sees it, it is held to what
    its JSON text could have been (:func:`~agent_memory.core.api.contracts.check_event`). A
    payload that is itself JSON text is read by the strict reader, as every event's text is.
    The detail is taken out as everywhere else
    (:func:`~agent_memory.core.api.contracts.unwrap_event`); a document naming a detail type
    is an envelope whose own fields must be EventBridge's.
    """
    if isinstance(event, str | bytes):
        event = read_json(event)
    check_event(event)
    try:
        if isinstance(event, dict) and "detail-type" in event:
            check_detail_type(event)
            EventBridgeModel.model_validate(event)
        # Any JSON value: a detail that is not an object is refused by the model, naming it.
        detail: Any = unwrap_event(event)
        model = parse(event=detail, model=RunFinishedEvent)
    except ValidationError as error:
        # An envelope's own errors are EventBridge's fields, not the detail's.
        raise invalid_input(
            error, RunFinishedEvent if error.title != "EventBridgeModel" else None
        ) from None
    return run_from_model(model)


def parse_step_state(event: Any) -> RunState:
    """A consolidation step's input, read once into the run's state: the state machine's JSON
    between steps. The run's identity is held to the identifier rule first (every key the step
    writes is built from it); anything else missing or of the wrong shape is refused whole.
    """
    check_document(event, max_bytes=None)
    if not isinstance(event, dict):
        raise InvalidInput("state", "must be a JSON object")
    run = event.get("run")
    if not isinstance(run, dict):
        raise InvalidInput("run", "is required (an object)")
    for field, kind in (("tenant_id", "tenant id"), ("agent_id", "agent id"), ("run_id", "run id")):
        value = run.get(field)
        if not isinstance(value, str):
            raise InvalidInput(f"run.{field}", "is required (a string)")
        checked_id(value, f"run.{field}", kind)
    if not isinstance(run.get("task"), str):
        raise InvalidInput("run.task", "is required (a string)")
    if not isinstance(event.get("artifacts"), dict):
        raise InvalidInput("artifacts", "is required (an object)")
    try:
        return state_from_json(event)
    except (KeyError, TypeError, ValueError) as error:
        raise InvalidInput("state", f"is not a consolidation step's state: {error!r}") from None
