"""``MemoryClient.edit_procedure`` and ``retire_procedure``, locally and on a stack (moto: the
client invokes the stack's review function, whose in-process handler runs on moto's tables),
each followed by what bootstrap serves and what the history keeps.
"""

from __future__ import annotations

import io
import json
import traceback
from collections.abc import Iterator
from typing import Any

import pytest

from agent_memory.sdk import ConflictError, InvalidInputError, MemoryClient
from tests.integration.aws.test_handlers import (
    Aws,
    Context,
    aws,  # noqa: F401  (the moto stack fixture)
    consolidate_runs,
    handler,
)
from tests.sdk.conftest import LocalMemory, make_local, run_event
from tests.support.memory import proposed_procedure

REVIEW_FUNCTION = "agent-memory-procedure-review"
EDITED = ["Read clause 7.3", "Compare the cap with 1.5x the annual fees"]


class InProcessLambda:
    """A Lambda client whose invocations run the review function's handler in this process,
    answering errors as the Lambda service does.
    """

    def invoke(self, *, FunctionName: str, InvocationType: str, Payload: bytes) -> Any:
        assert (FunctionName, InvocationType) == (REVIEW_FUNCTION, "RequestResponse")
        try:
            reply = handler("procedure_review")(json.loads(Payload), Context())
            return {"Payload": io.BytesIO(json.dumps(reply).encode())}
        except Exception as error:
            failed = {
                "errorType": type(error).__name__,
                "errorMessage": str(error),
                "stackTrace": traceback.format_tb(error.__traceback__),
            }
            return {
                "Payload": io.BytesIO(json.dumps(failed).encode()),
                "FunctionError": "Unhandled",
            }


@pytest.fixture
def local(tmp_path: Any) -> Iterator[LocalMemory]:
    memory = make_local(tmp_path / "store")
    yield memory
    memory.client.close()


def _local_pending(local: LocalMemory) -> str:
    local.client.finish_run(run_event("run-1", task_type="contract_review")).wait(timeout=30)
    [found] = local.client.list_procedures("acme", status="PENDING")
    return str(found["procedure_id"])


def _stack_client() -> MemoryClient:
    return MemoryClient.aws(
        event_bus_name="agent-memory-bus",
        bootstrap_function_name="agent-memory-bootstrap",
        procedure_review_function_name=REVIEW_FUNCTION,
        events_client=object(),
        lambda_client=InProcessLambda(),
    )


def _edit_then_approve_then_retire(client: MemoryClient, procedure_id: str) -> None:
    # When a person edits the pending proposal, from the revision they read
    read = client.get_procedure("acme", procedure_id)
    edited = client.edit_procedure(
        "acme",
        procedure_id,
        EDITED,
        reviewer="dana",
        reason="twice the fees is too generous",
        expected_revision=read["revision"],
    )
    # Then it keeps its id and status, holding the new steps
    assert (edited["status"], edited["steps"], edited["revision"]) == ("PENDING", EDITED, 1)
    # And an edit from the revision read before is refused
    with pytest.raises(ConflictError, match="revision 1 by dana"):
        client.edit_procedure(
            "acme", procedure_id, ["x"], reviewer="lee", reason="r", expected_revision=0
        )
    # When it is approved, then retired
    approved = client.approve_procedure("acme", procedure_id, reviewer="lee")
    assert approved["steps"] == EDITED
    retired = client.retire_procedure("acme", procedure_id, reviewer="lee", reason="superseded")
    assert (retired["status"], retired["review_note"]) == ("RETIRED", "superseded")
    # Then approving it again is refused unless it overrules the retirement
    with pytest.raises(ConflictError, match="retired by lee"):
        client.approve_procedure("acme", procedure_id, reviewer="dana")
    assert client.approve_procedure("acme", procedure_id, reviewer="dana", overrule=True)[
        "status"
    ] == ("VALIDATED")


def test_the_local_client_edits_approves_and_retires_a_procedure(local: LocalMemory) -> None:
    # Given a pending proposal
    procedure_id = _local_pending(local)
    _edit_then_approve_then_retire(local.client, procedure_id)
    # And the history lists the edit and the retirement among the decisions
    actions = [d["action"] for d in local.client.history("acme")["decisions"]]
    assert sorted(actions) == ["approve", "approve", "edit", "retire"]


def test_the_local_client_serves_the_edited_steps_until_it_retires_them(
    local: LocalMemory,
) -> None:
    procedure_id = _local_pending(local)
    local.client.edit_procedure("acme", procedure_id, EDITED, reviewer="dana", reason="clearer")
    local.client.approve_procedure("acme", procedure_id, reviewer="lee")
    request = {"tenant_id": "acme", "agent_id": "reviewer", "task_type": "contract_review"}
    served = local.client.bootstrap(**request, task="Review the MSA")["procedure"]
    assert served is not None and served["steps"] == EDITED

    local.client.retire_procedure("acme", procedure_id, reviewer="lee", reason="superseded")

    assert local.client.bootstrap(**request, task="Review the MSA")["procedure"] is None


def test_bad_edits_are_refused_by_the_client_naming_the_field(local: LocalMemory) -> None:
    procedure_id = _local_pending(local)
    with pytest.raises(InvalidInputError) as refused:
        local.client.edit_procedure("acme", procedure_id, "one string", reviewer="d", reason="r")
    assert refused.value.field == "steps"
    with pytest.raises(InvalidInputError) as refused:
        local.client.edit_procedure("acme", procedure_id, [" "], reviewer="d", reason="r")
    assert refused.value.field == "steps"
    with pytest.raises(InvalidInputError) as refused:
        local.client.edit_procedure(
            "acme", procedure_id, EDITED, reviewer="d", reason="r", expected_revision=-1
        )
    assert refused.value.field == "expected_revision"


def test_the_stack_client_edits_approves_and_retires_through_the_review_function(
    aws: Aws,  # noqa: F811
) -> None:
    # Given a pending proposal on the stack (moto's tables)
    procedure_id = proposed_procedure(consolidate_runs(aws, "r1"))
    client = _stack_client()
    _edit_then_approve_then_retire(client, procedure_id)
    # And the tenant's history on the stack holds the edit and the retirement
    history = aws.ports("acme").decisions.history("acme", limit=10).items
    assert sorted(d.action.value for d in history) == ["approve", "approve", "edit", "retire"]
    edit = next(d for d in history if d.action.value == "edit")
    assert edit.digest is not None and edit.actor == "dana"


def test_an_approval_of_the_steps_read_is_refused_after_an_edit(local: LocalMemory) -> None:
    # Given a pending procedure its reviewer read (revision 0), then someone else edited
    local.client.finish_run(run_event("run-1")).wait(timeout=30)
    [read] = local.client.list_procedures("acme")
    local.client.edit_procedure(
        "acme", read["procedure_id"], ["Only this step"], reviewer="eve", reason="shorter"
    )
    # When the reviewer approves what they read
    with pytest.raises(ConflictError, match="edited since you read it"):
        local.client.approve_procedure(
            "acme", read["procedure_id"], reviewer="lead", expected_revision=read["revision"]
        )
    # Then nothing was approved; approving the revision now shown does
    assert local.client.get_procedure("acme", read["procedure_id"])["status"] == "PENDING"
    approved = local.client.approve_procedure(
        "acme", read["procedure_id"], reviewer="lead", expected_revision=read["revision"] + 1
    )
    assert (approved["status"], approved["steps"]) == ("VALIDATED", ["Only this step"])
