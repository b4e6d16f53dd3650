"""MemoryClient in AWS mode: PutEvents with bounded retries, bootstrap by Lambda, errors mapped."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from botocore.stub import ANY, Stubber

from agent_memory.sdk import (
    ConfigurationError,
    EventTooLargeError,
    InvalidInputError,
    MemoryClient,
    NotFoundError,
    PublishError,
    RemoteFunctionError,
)
from agent_memory.sdk.events import MAX_ENTRY_BYTES, entry_size, put_events_entry
from tests.sdk.conftest import (
    BOOTSTRAP_FUNCTION,
    BUS,
    REVIEW_FUNCTION,
    StubbedAws,
    accepted,
    boto_client,
    failed_entry,
    invoke_reply,
    run_event,
)

REPLY: dict[str, Any] = {
    "context": "[MEMORY CONTEXT - retrieved from prior runs and domain knowledge]\n...",
    "context_token": None,
    "context_guidance": None,
    "episodes": [],
    "facts": [],
    "procedure": None,
    "episodes_ranked_by": None,
    "truncated": {},
    "unavailable": {},
    "timings_ms": {"total": 12.5},
}


def put_params(detail: dict[str, Any]) -> dict[str, Any]:
    return {
        "Entries": [
            {
                "EventBusName": BUS,
                "Source": "agent-memory.sdk",
                "DetailType": "RunFinished",
                "Detail": json.dumps(detail, separators=(",", ":")),
            }
        ]
    }


def test_run_goes_to_the_bus_as_a_runfinished_entry(aws: StubbedAws) -> None:
    aws.events.add_response("put_events", accepted("evt-42"), put_params(run_event("run-1")))

    handle = aws.client.finish_run(run_event("run-1"))

    assert handle.done()
    assert handle.wait() == {
        "status": "SUBMITTED",
        "run_id": "run-1",
        "tenant_id": "acme",
        "event_id": "evt-42",
    }
    assert handle.event_id == "evt-42"


def test_throttled_put_is_retried_with_jittered_backoff(aws: StubbedAws) -> None:
    aws.events.add_client_error("put_events", "ThrottlingException", http_status_code=400)
    aws.events.add_client_error("put_events", "InternalException", http_status_code=500)
    aws.events.add_response("put_events", accepted(), {"Entries": ANY})

    handle = aws.client.finish_run(run_event("run-1"))

    assert handle.event_id == "evt-1"
    # Full jitter pinned at its maximum: base 0.1 s, doubling.
    assert aws.sleeps == [0.1, 0.2]


def test_failed_entry_is_retried(aws: StubbedAws) -> None:
    aws.events.add_response("put_events", failed_entry("ThrottlingException"), {"Entries": ANY})
    aws.events.add_response("put_events", accepted(), {"Entries": ANY})

    assert aws.client.finish_run(run_event("run-1")).event_id == "evt-1"
    assert aws.sleeps == [0.1]


def test_exhausted_retries_raise_naming_the_entry_error_code(aws: StubbedAws) -> None:
    for _ in range(3):
        aws.events.add_response(
            "put_events", failed_entry("InternalFailure", "internal"), {"Entries": ANY}
        )

    with pytest.raises(PublishError) as failed:
        aws.client.finish_run(run_event("run-1"))

    assert failed.value.error_code == "InternalFailure"
    assert failed.value.attempts == 3
    assert "InternalFailure" in str(failed.value)


def test_permanent_entry_error_is_not_retried(aws: StubbedAws) -> None:
    aws.events.add_response(
        "put_events",
        failed_entry("NotAuthorizedForSourceException", "not allowed"),
        {"Entries": ANY},
    )

    with pytest.raises(PublishError) as failed:
        aws.client.finish_run(run_event("run-1"))

    assert (failed.value.error_code, failed.value.attempts) == (
        "NotAuthorizedForSourceException",
        1,
    )
    assert aws.sleeps == []


def test_access_denied_is_not_retried(aws: StubbedAws) -> None:
    aws.events.add_client_error("put_events", "AccessDeniedException", http_status_code=400)

    with pytest.raises(PublishError) as failed:
        aws.client.finish_run(run_event("run-1"))

    assert failed.value.error_code == "AccessDeniedException"
    assert aws.sleeps == []


def test_invalid_event_never_reaches_the_bus(aws: StubbedAws) -> None:
    # Given no stubbed response: any call to the bus would fail the test
    with pytest.raises(InvalidInputError) as refused:
        aws.client.finish_run(run_event("run-1", outcome="SUCCEEDED"))

    assert refused.value.field == "outcome"


def test_event_over_256_kb_is_refused_before_sending(aws: StubbedAws) -> None:
    messages = [{"role": "ai", "content": "x" * 150_000} for _ in range(2)]

    with pytest.raises(EventTooLargeError) as refused:
        aws.client.finish_run(run_event("run-1", messages=messages))

    assert refused.value.field == "event"
    assert refused.value.size > MAX_ENTRY_BYTES == 262_144


@pytest.mark.parametrize("number", [math.nan, math.inf, -math.inf])
def test_a_detail_with_a_number_json_cannot_carry_is_never_put(number: float) -> None:
    # Python's JSON writer would send NaN or Infinity, which no JSON reader takes
    with pytest.raises(InvalidInputError) as refused:
        put_events_entry({"tenant_id": "acme", "score": number}, bus="bus", source="s")

    assert refused.value.field == "detail"


def test_entry_size_counts_what_eventbridge_counts() -> None:
    entry = {"EventBusName": "ignored", "Source": "s", "DetailType": "RunFinished", "Detail": "é"}

    assert entry_size(entry) == 1 + 11 + 2
    assert entry_size({**entry, "Time": "2026-01-01", "Resources": ["arn"]}) == 14 + 14 + 3


def test_bootstrap_invokes_the_function_with_the_request(aws: StubbedAws) -> None:
    request = {"tenant_id": "acme", "agent_id": "reviewer", "task": "Review the MSA"}
    expected = {
        "FunctionName": BOOTSTRAP_FUNCTION,
        "InvocationType": "RequestResponse",
        "Payload": json.dumps({**request, "task_type": "contract_review"}).encode(),
    }
    aws.lambda_.add_response("invoke", invoke_reply(REPLY), expected)

    reply = aws.client.bootstrap("acme", "reviewer", "Review the MSA", task_type="contract_review")

    assert reply == REPLY


# A receipt as the bootstrap function hands it out (opaque to the client).
RECEIPT = "eyJ2IjoxfQ." + "s" * 43


def served_reply(procedure_id: str = "proc-1") -> dict[str, Any]:
    """A bootstrap reply serving ``procedure_id`` with its receipt."""
    procedure = {"procedure_id": procedure_id, "trial": True, "receipt": RECEIPT}
    return {**REPLY, "procedure": procedure}


def bootstrapped(aws: StubbedAws) -> None:
    request = {"FunctionName": BOOTSTRAP_FUNCTION, "InvocationType": ANY, "Payload": ANY}
    aws.lambda_.add_response("invoke", invoke_reply(served_reply()), request)
    aws.client.bootstrap("acme", "reviewer", "Review the MSA", task_type="contract_review")


def test_a_run_reporting_on_its_served_procedure_goes_to_the_bus_with_the_receipt(
    aws: StubbedAws,
) -> None:
    # Given a bootstrap that served proc-1 with a receipt
    bootstrapped(aws)
    # When the run finishes reporting on proc-1 by its id alone
    report = {"procedure_id": "proc-1", "succeeded": True}
    carried = run_event("run-1", procedure_feedback={**report, "receipt": RECEIPT})
    aws.events.add_response("put_events", accepted(), put_params(carried))
    # Then the event on the bus carries the receipt
    aws.client.finish_run(run_event("run-1", procedure_feedback=report))


def test_a_receipt_taken_for_a_run_that_could_not_be_sent_is_kept_for_its_retry(
    aws: StubbedAws,
) -> None:
    # Given a served procedure, and a run whose event the bus refuses
    bootstrapped(aws)
    report = {"procedure_id": "proc-1", "succeeded": False}
    aws.events.add_client_error("put_events", "AccessDeniedException", http_status_code=400)
    with pytest.raises(PublishError):
        aws.client.finish_run(run_event("run-1", procedure_feedback=report))
    # When the run is sent again, then it still carries the receipt
    carried = run_event("run-1", procedure_feedback={**report, "receipt": RECEIPT})
    aws.events.add_response("put_events", accepted(), put_params(carried))
    aws.client.finish_run(run_event("run-1", procedure_feedback=report))


def test_function_reporting_invalid_input_raises_with_the_field(aws: StubbedAws) -> None:
    error = {"errorType": "InvalidInput", "errorMessage": "domain: String should match pattern"}
    aws.lambda_.add_response("invoke", invoke_reply(error, function_error="Unhandled"))

    with pytest.raises(InvalidInputError) as refused:
        aws.client.bootstrap("acme", "reviewer", "Review the MSA")

    assert refused.value.field == "domain"
    assert refused.value.message == "String should match pattern"


def test_function_failure_raises_with_its_type_and_message(aws: StubbedAws) -> None:
    error = {"errorType": "TransientError", "errorMessage": "throttled by DynamoDB"}
    aws.lambda_.add_response("invoke", invoke_reply(error, function_error="Unhandled"))

    with pytest.raises(RemoteFunctionError) as failed:
        aws.client.bootstrap("acme", "reviewer", "Review the MSA")

    assert failed.value.function_name == BOOTSTRAP_FUNCTION
    assert failed.value.error_type == "TransientError"
    assert str(failed.value) == (
        "agent-memory-bootstrap failed: TransientError: throttled by DynamoDB"
    )


def test_function_that_cannot_be_invoked_raises_with_the_service_error(aws: StubbedAws) -> None:
    aws.lambda_.add_client_error(
        "invoke", "ResourceNotFoundException", "Function not found", http_status_code=404
    )

    with pytest.raises(RemoteFunctionError) as failed:
        aws.client.bootstrap("acme", "reviewer", "Review the MSA")

    assert failed.value.error_type == "ResourceNotFoundException"


def test_reply_without_the_contract_fields_is_an_error(aws: StubbedAws) -> None:
    aws.lambda_.add_response("invoke", invoke_reply({"context": ""}))

    with pytest.raises(RemoteFunctionError, match="no context_guidance, context_token, episodes,"):
        aws.client.bootstrap("acme", "reviewer", "Review the MSA")


def test_invalid_bootstrap_request_is_refused_before_invoking(aws: StubbedAws) -> None:
    with pytest.raises(InvalidInputError) as refused:
        aws.client.bootstrap("acme", "", "Review the MSA")

    assert refused.value.field == "agent_id"


def test_procedure_review_invokes_the_review_function(aws: StubbedAws) -> None:
    expected = {
        "FunctionName": REVIEW_FUNCTION,
        "InvocationType": "RequestResponse",
        "Payload": ANY,
    }
    aws.lambda_.add_response("invoke", invoke_reply({"procedures": []}), expected)
    error = {"errorType": "NotFound", "errorMessage": "no procedure 'proc-1'"}
    aws.lambda_.add_response("invoke", invoke_reply(error, function_error="Unhandled"), expected)

    assert aws.client.list_procedures("acme", status="PENDING") == []
    with pytest.raises(NotFoundError):
        aws.client.approve_procedure("acme", "proc-1", reviewer="legal-lead")


def test_procedure_review_needs_the_review_function() -> None:
    client = MemoryClient.aws(
        event_bus_name=BUS,
        bootstrap_function_name=BOOTSTRAP_FUNCTION,
        events_client=boto_client("events"),
        lambda_client=boto_client("lambda"),
    )

    with pytest.raises(ConfigurationError, match="procedure_review_function_name"):
        client.list_procedures("acme")


class FakeSession:
    """A boto3 session handing out the given clients."""

    def __init__(self, **clients: Any) -> None:
        self.clients = clients
        self.asked: list[tuple[str, str | None]] = []

    def client(self, service: str, region_name: str | None = None, **_: Any) -> Any:
        self.asked.append((service, region_name))
        return self.clients.get(service) or boto_client(service)


def test_client_is_configured_from_the_stack_outputs() -> None:
    cloudformation = boto_client("cloudformation")
    outputs = [
        {"OutputKey": "EventBusName", "OutputValue": "agent-memory"},
        {"OutputKey": "BootstrapFunctionName", "OutputValue": "AgentMemory-Bootstrap"},
        {"OutputKey": "ProcedureReviewFunctionName", "OutputValue": "AgentMemory-Review"},
    ]
    stack = {
        "StackName": "AgentMemory",
        "CreationTime": "2026-01-01T00:00:00Z",
        "StackStatus": "CREATE_COMPLETE",
        "Outputs": outputs,
    }
    session = FakeSession(cloudformation=cloudformation)
    with Stubber(cloudformation) as stub:
        stub.add_response("describe_stacks", {"Stacks": [stack]}, {"StackName": "AgentMemory"})

        client = MemoryClient.aws_from_stack(region="eu-west-1", session=session)

    backend: Any = client._backend
    assert (backend.event_bus_name, backend.bootstrap_function_name) == (
        "agent-memory",
        "AgentMemory-Bootstrap",
    )
    assert backend.procedure_review_function_name == "AgentMemory-Review"
    assert ("events", "eu-west-1") in session.asked


def test_missing_stack_output_is_named() -> None:
    cloudformation = boto_client("cloudformation")
    stack = {
        "StackName": "AgentMemory",
        "CreationTime": "2026-01-01T00:00:00Z",
        "StackStatus": "CREATE_COMPLETE",
        "Outputs": [{"OutputKey": "EventBusName", "OutputValue": "agent-memory"}],
    }
    with Stubber(cloudformation) as stub:
        stub.add_response("describe_stacks", {"Stacks": [stack]})

        with pytest.raises(ConfigurationError, match="BootstrapFunctionName"):
            MemoryClient.aws_from_stack(session=FakeSession(cloudformation=cloudformation))


def test_unknown_stack_is_a_configuration_error() -> None:
    cloudformation = boto_client("cloudformation")
    with Stubber(cloudformation) as stub:
        stub.add_client_error(
            "describe_stacks", "ValidationError", "Stack with id Nope does not exist"
        )

        with pytest.raises(ConfigurationError, match="does not exist"):
            MemoryClient.aws_from_stack("Nope", session=FakeSession(cloudformation=cloudformation))


def test_client_is_configured_from_the_environment() -> None:
    environ = {
        "AGENT_MEMORY_EVENT_BUS": "agent-memory",
        "AGENT_MEMORY_BOOTSTRAP_FUNCTION": "AgentMemory-Bootstrap",
        "AGENT_MEMORY_REGION": "eu-west-1",
    }
    session = FakeSession()

    client = MemoryClient.aws_from_env(environ, session=session)

    backend: Any = client._backend
    assert backend.bootstrap_function_name == "AgentMemory-Bootstrap"
    assert backend.procedure_review_function_name is None
    assert ("lambda", "eu-west-1") in session.asked


def test_missing_environment_variable_is_named() -> None:
    with pytest.raises(ConfigurationError, match="AGENT_MEMORY_BOOTSTRAP_FUNCTION"):
        MemoryClient.aws_from_env({"AGENT_MEMORY_EVENT_BUS": "agent-memory"})
