"""The consolidation state machine's steps: each parses its input, hands the application one
message and reports metrics.

Handlers (``functions/<name>/handler.py``) are decorators and one call into this module (or,
for the functions agents and schedules call, into ``requests`` and ``schedules``). Tenant data
is reached only through credentials narrowed to the event's tenant. Metrics go to the
``AgentMemory/<stack>`` namespace under the ``service`` dimension; the dashboard and alarms of
``stacks/observability.py`` read them by these names.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from agent_memory.app.messages import ContinueRun, ExtractRun, RecordFailure
from agent_memory.core.model.run_records import FailureRecord
from agent_memory.core.workflows.consolidation import summary
from agent_memory.core.workflows.run_state import (
    FactResults,
    RunState,
    state_to_json,
)
from agent_memory.serverless import caller_tenancy
from agent_memory.serverless.metrics import count
from agent_memory.serverless.observability import logger
from agent_memory.serverless.parsing import parse_run_finished_event, parse_step_state
from agent_memory.wiring.aws import runtime

State = dict[str, Any]
Step = Literal["scrub", "write_episode", "confirm_facts", "stage_kb_docs", "propose_procedure"]


def _continue(step: Step, event: Any) -> RunState:
    """The step's input, read once into the run's state, and the step run on it."""
    state = parse_step_state(event)
    logger.append_keys(tenant_id=state.run.tenant_id, run_id=state.run.run_id)
    return runtime().application(state.run.tenant_id).handle(ContinueRun(step, state))


def extract(event: Any) -> State:
    """Validate a RunFinished event and distil the run (no write happens here)."""
    run = parse_run_finished_event(event)
    logger.append_keys(tenant_id=run.tenant_id, run_id=run.run_id)
    caller_tenancy.check_source(runtime(), event, run.tenant_id)
    state = runtime().application(run.tenant_id).handle(ExtractRun(run))
    count("RunsReceived", 1)
    logger.info("run extracted", extracted_by=state.extracted_by)
    return state_to_json(state)


def scrub(event: Any) -> State:
    """Remove PII from every field, as read (fails closed)."""
    result = _continue("scrub", event)
    count("PiiEntitiesScrubbed", sum((result.pii_entities or {}).values()))
    return state_to_json(result)


def write_episode(event: Any) -> State:
    """Store the run's episode once."""
    result = _continue("write_episode", event)
    count("EpisodesWritten", int(bool(result.episode_written)))
    return state_to_json(result)


def confirm_facts(event: Any) -> State:
    """Log the run's facts and promote those confirmed by enough independent runs."""
    result = _continue("confirm_facts", event)
    facts = result.facts or FactResults()
    count("FactsObserved", len(facts.observed))
    count("FactsConfirmed", len(facts.newly_confirmed))
    count("FactsContested", len(facts.contested))
    if facts.newly_confirmed:
        logger.info("facts confirmed", fact_hashes=list(facts.newly_confirmed))
    return state_to_json(result)


def stage_kb_docs(event: Any) -> State:
    """Write KB documents of newly confirmed facts (ingestion is batched elsewhere)."""
    result = _continue("stage_kb_docs", event)
    count("KbDocumentsStaged", len(result.kb_staged or ()))
    return state_to_json(result)


def propose_procedure(event: Any) -> State:
    """Propose the run's procedure and count its procedure feedback."""
    result = _continue("propose_procedure", event)
    procedure = result.procedure
    count("ProceduresProposed", int(bool(procedure and procedure.created)))
    feedback = procedure.feedback if procedure else None
    count("ProcedureFeedbackCounted", int(bool(feedback and feedback.counted)))
    said = summary(result, review="aws")
    if result.reused:
        logger.warning("run_id reused with other content: nothing written", **said)
    else:
        logger.info("run consolidated", **said)
    # The execution's output: the run's state, and its summary as the other surfaces give it.
    return {**state_to_json(result), "summary": said}


# The dead-letter message carries this much of the error's cause (Step Functions allows 32,768
# characters); the failed-run record keeps all of it.
MAX_MESSAGE_CAUSE_CHARS = 4_096


def record_failure(event: Any) -> State:
    """Keep a failed run replayable and return the (small) dead-letter message.

    The state machine sends the error and the execution's ARN, never the run's event (which
    may be near Step Functions' 256 KiB state limit already): the event is read back from the
    execution itself. So does the rule for executions that ended without their Catch
    (timed out, aborted, failed); an execution already recorded counts once. A payload that
    carries ``event`` (the local pipeline's form) is kept as it is.
    """
    payload = dict(event) if isinstance(event, dict) else {"error": event}
    execution = payload.get("execution")
    if "event" not in payload and execution:
        payload["event"] = _execution_input(str(execution))
    recorded = (
        runtime()
        .application(None)
        .handle(
            RecordFailure(payload.get("event"), error=payload.get("error"), execution=execution)
        )
    )
    record, identity = recorded.record, recorded.identity
    if not recorded.repeated:
        count("ConsolidationFailures", 1)
        logger.warning("run failed", key=record.key, error=record.error)
    if identity is None:
        raise RuntimeError(f"{record.key!r} names no run: record_failure keeps none there")
    return failure_message(record, identity)


def failure_message(record: FailureRecord, identity: tuple[str, str | None, str]) -> State:
    """What a dead-letter message says of a failed-run record (named ``identity``): enough
    to find and replay it.
    """
    error = dict(record.error) if isinstance(record.error, dict) else {}
    if isinstance(error.get("Cause"), str):
        error["Cause"] = error["Cause"][:MAX_MESSAGE_CAUSE_CHARS]
    tenant_id, agent_id, run_id = identity
    return {
        "key": record.key,
        "tenant_id": tenant_id,
        "agent_id": agent_id,
        "run_id": run_id,
        "failures": record.failures,
        "execution": record.execution,
        "error": error,
    }


def _execution_input(execution_arn: str) -> Any:
    """The input of execution ``execution_arn`` (Standard workflows keep it 90 days)."""
    described = runtime().client("stepfunctions").describe_execution(executionArn=execution_arn)
    return json.loads(described["input"]) if described.get("input") else None
