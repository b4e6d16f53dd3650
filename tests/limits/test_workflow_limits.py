"""The largest RunFinished event the product accepts, through the real ASL, within 256 KiB.

Step Functions caps an execution's input, every state's input and output, and a task's
parameters and result at 256 KiB of UTF-8
(https://docs.aws.amazon.com/step-functions/latest/dg/limits-overview.html); past it a state
fails with ``States.DataLimitExceeded``, which no Catch catches
(https://docs.aws.amazon.com/step-functions/latest/dg/concepts-error-handling.html), so an
oversize run would leave no failure record at all. EventBridge admits an entry of up to 256 KB
counting Source, DetailType, Detail and Resources
(https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-putevent-size.html). moto does not
enforce the Step Functions limit: every size here is measured from the execution's history.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from typing import Any

import pytest

from agent_memory.sdk.errors import EventTooLargeError
from agent_memory.sdk.events import MAX_ENTRY_BYTES, entry_size, put_events_entry
from tests.support.memory import run_event
from tests.workflow.conftest import Workflow, eventbridge_event, workflow  # noqa: F401

STATE_LIMIT_BYTES = 256 * 1024
# History fields that hold a state's data (inputs, outputs, a task's parameters and result).
_DATA_FIELDS = ("input", "output", "parameters")


def _utf8(text: str) -> int:
    return len(text.encode("utf-8"))


def data_sizes(flow: Workflow, execution_arn: str) -> list[tuple[str, str, int]]:
    """(event type, field, UTF-8 bytes) of every piece of state data in the history, as
    compact JSON (moto re-serialises with spaces; the data itself is what counts).
    """
    sizes = []
    for event in flow.history(execution_arn):
        for key, details in event.items():
            if key.endswith("EventDetails") and isinstance(details, dict):
                for field in _DATA_FIELDS:
                    if isinstance(details.get(field), str):
                        sizes.append((event["type"], field, _utf8(_as_data(details[field]))))
    return sizes


def _as_data(text: str) -> str:
    try:
        return _compact(json.loads(text))
    except ValueError:
        return text


def _grow(detail: dict[str, Any], add: Callable[[dict[str, Any], int], None]) -> dict[str, Any]:
    """``detail`` grown by ``add(detail, i)`` until the SDK refuses one more step: the largest
    event of that shape the SDK sends."""
    i = 0
    while True:
        bigger = json.loads(json.dumps(detail))
        add(bigger, i)
        try:
            put_events_entry(bigger, bus="bus", source="acme.contract-reviewer")
        except EventTooLargeError:
            return detail
        detail, i = bigger, i + 1


def _compact(value: Any) -> str:
    """JSON as EventBridge hands it on: compact, UTF-8."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _start(workflow: Workflow, detail: dict[str, Any]) -> dict[str, Any]:  # noqa: F811
    """An execution started by the rule (its input: the detail), once it has ended."""
    arn = workflow.sfn.start_execution(
        stateMachineArn=workflow.state_machine_arn,
        name=f"limits-{uuid.uuid4().hex[:12]}",
        input=_compact(detail),
    )["executionArn"]
    return workflow.wait(arn, timeout=120)


def _messages(detail: dict[str, Any], i: int) -> None:
    text = f"Turn {i}: clause {i} caps liability for the vendor; the buyer objects. " * 14
    detail.setdefault("messages", []).append({"role": "human" if i % 2 else "ai", "content": text})


def _artifacts(detail: dict[str, Any], i: int) -> None:
    artifacts = detail["artifacts"]
    item = f"Finding {i}: " + "the cap applies to direct damages only; " * 45
    for field in ("key_findings", "tools_used", "reusable_patterns"):
        if len(artifacts.setdefault(field, [])) < 50:
            artifacts[field].append(item[:2000])
            return
    _messages(detail, i)


def _pii(detail: dict[str, Any], i: int) -> None:
    # Short emails, each replaced by a longer placeholder: scrubbing grows the text.
    text = " ".join(f"a{i}x{j}@b.io" for j in range(100))
    detail.setdefault("messages", []).append({"role": "human", "content": text})
    if len(detail["artifacts"]["key_findings"]) < 50:
        detail["artifacts"]["key_findings"].append(text[:2000])


def _facts(detail: dict[str, Any], i: int) -> None:
    # As many facts as the contract takes, each one the summary reports a standing of.
    facts = detail["artifacts"].setdefault("facts", [])
    if len(facts) < 50:
        facts.append({"content": f"Fact {i}: caps below 1x fees are a red flag", "confidence": 0.9})
        return
    _messages(detail, i)


SHAPES = {
    "facts-then-messages": _facts,
    "messages": _messages,
    "artifacts-then-messages": _artifacts,
    "pii-dense": _pii,
}


def largest_event(shape: str, run_id: str) -> dict[str, Any]:
    """The largest detail of ``shape`` the SDK accepts, and the envelope around it."""
    detail = _grow(run_event(run_id, tenant_id="limits"), SHAPES[shape])
    entry = put_events_entry(detail, bus="bus", source="acme.contract-reviewer")
    assert MAX_ENTRY_BYTES - entry_size(entry) < 4_000  # the SDK's limit is reached
    return eventbridge_event(detail)


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_the_largest_event_stays_under_256_kib_at_every_step(
    workflow: Workflow,  # noqa: F811
    shape: str,
) -> None:
    # Given the largest event of this shape the SDK puts, wrapped in EventBridge's envelope
    event = largest_event(shape, f"limits-{shape}")
    assert _utf8(_compact(event)) > MAX_ENTRY_BYTES - 4_000
    # When the rule starts the state machine with what it passes on (the detail)
    execution = _start(workflow, event["detail"])
    # Then the run is consolidated, and no state's data ever reached 256 KiB
    assert execution["status"] == "SUCCEEDED", execution
    sizes = data_sizes(workflow, execution["executionArn"])
    assert sizes and max(size for *_, size in sizes) < STATE_LIMIT_BYTES, max(
        sizes, key=lambda s: s[2]
    )


def test_a_failing_largest_run_is_recorded_and_its_dead_letter_is_small(
    workflow: Workflow,  # noqa: F811
) -> None:
    # Given the largest event the SDK puts, and a PII detector that is down after Extract
    event = largest_event("artifacts-then-messages", "limits-fail-1")
    workflow.pii.fail = True
    try:
        execution = _start(workflow, event["detail"])
    finally:
        workflow.pii.fail = False
    # Then the execution failed after recording the run; every state stayed under 256 KiB
    assert execution["status"] == "FAILED"
    sizes = data_sizes(workflow, execution["executionArn"])
    assert max(size for *_, size in sizes) < STATE_LIMIT_BYTES
    ports = workflow.runtime.ports("limits")
    [record] = [e.value for e in ports.run_ledger.failures("limits")]
    assert record["error"]["Error"] == "PiiDetectionFailed"
    assert record["event"] == event["detail"]  # read back from the execution, whole
    # And the dead letter names the run and its execution, in a few KB, not the event
    [letter] = workflow.dead_letters()
    assert _utf8(json.dumps(letter)) < 8 * 1024
    assert letter["execution"] == execution["executionArn"]
    assert letter["failure"]["record"]["key"] == "limits#failed#reviewer/limits-fail-1"
    assert letter["failure"]["record"]["run_id"] == "limits-fail-1"


def test_an_event_as_large_as_eventbridge_admits_reaches_extract_within_the_limit(
    workflow: Workflow,  # noqa: F811
) -> None:
    """A producer without the SDK may send a detail up to the entry limit less its source and
    detail-type. Extract invokes its function by ARN, with no Parameters, so the task's input
    is the detail itself: a ``lambda:invoke`` wrapper (FunctionName, Payload) would push it
    past 256 KiB, and that ``States.DataLimitExceeded`` would leave no failure record.
    """
    # Given a detail of exactly what EventBridge admits beside a one-letter source
    source = "x"
    detail = run_event("limits-raw-1", tenant_id="limits")
    detail["messages"] = [{"role": "human", "content": ""}]
    room = MAX_ENTRY_BYTES - _utf8(source) - _utf8("RunFinished") - _utf8(_compact(detail))
    detail["messages"] = [
        {"role": "human", "content": "a" * min(100_000, room - i * 100_000)}
        for i in range(0, room // 100_000 + 1)
    ]
    detail["messages"] = [m for m in detail["messages"] if m["content"]]
    # (each further message adds its own JSON around its content)
    while _utf8(_compact(detail)) > MAX_ENTRY_BYTES - _utf8(source) - _utf8("RunFinished"):
        detail["messages"][-1]["content"] = detail["messages"][-1]["content"][:-1]
    assert MAX_ENTRY_BYTES - _utf8(_compact(detail)) - 12 < 8
    # When the rule starts the state machine with it
    execution = _start(workflow, detail)
    # Then it is consolidated, and no state's data, Extract's task input included, reached
    # 256 KiB
    assert execution["status"] == "SUCCEEDED", execution
    sizes = data_sizes(workflow, execution["executionArn"])
    assert max(size for *_, size in sizes) < STATE_LIMIT_BYTES, max(sizes, key=lambda s: s[2])
