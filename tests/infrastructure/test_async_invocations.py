"""Every function AWS invokes asynchronously (an EventBridge rule's target, an EventBridge
Scheduler schedule's, an S3 or SNS notification's) has its retries and the event's maximum age
set on purpose, an on-failure destination, an Errors alarm, and runs one at a time where two
runs would be unsafe (the scheduled jobs).

Sources: EventBridge and EventBridge Scheduler invoke Lambda asynchronously
(https://docs.aws.amazon.com/lambda/latest/dg/invocation-async.html); without an
EventInvokeConfig Lambda retries twice and keeps the event six hours, then drops it
(https://docs.aws.amazon.com/lambda/latest/dg/invocation-async-error-handling.html).
"""

from __future__ import annotations

from typing import Any

from stacks.memory_stack import MemoryStack
from tests.infrastructure.helpers import Resources, logical_id, references


def _of_type(resources: Resources, kind: str) -> dict[str, dict[str, Any]]:
    return {k: r for k, r in resources.items() if r["Type"] == kind}


def asynchronously_invoked(resources: Resources) -> dict[str, str]:
    """Function logical id -> what invokes it asynchronously."""
    functions = set(_of_type(resources, "AWS::Lambda::Function"))
    found: dict[str, str] = {}
    for rule_id, rule in _of_type(resources, "AWS::Events::Rule").items():
        for target in rule["Properties"].get("Targets", []):
            for function in references(target["Arn"]) & functions:
                found[function] = rule_id
    for schedule_id, schedule in _of_type(resources, "AWS::Scheduler::Schedule").items():
        for function in references(schedule["Properties"]["Target"]["Arn"]) & functions:
            found[function] = schedule_id
    for topic_id, subscription in _of_type(resources, "AWS::SNS::Subscription").items():
        for function in references(subscription["Properties"].get("Endpoint")) & functions:
            found[function] = topic_id
    for bucket_id, bucket in _of_type(resources, "AWS::S3::Bucket").items():
        notifications = bucket["Properties"].get("NotificationConfiguration", {})
        for config in notifications.get("LambdaConfigurations", []):
            for function in references(config["Function"]) & functions:
                found[function] = bucket_id
    return found


def _invoke_config(resources: Resources, function: str) -> dict[str, Any]:
    [config] = [
        r["Properties"]
        for r in _of_type(resources, "AWS::Lambda::EventInvokeConfig").values()
        if function in references(r["Properties"]["FunctionName"])
    ]
    return config


def test_the_scheduled_jobs_and_the_failure_recorder_are_found(
    stack: MemoryStack, resources: Resources
) -> None:
    # Guards the tests below against passing on no function at all.
    found = asynchronously_invoked(resources)
    for name in ("ingest", "decay", "record_failure"):
        assert logical_id(stack.functions[name]) in found, name


def test_every_async_invocation_has_retries_an_event_age_and_a_destination(
    stack: MemoryStack, resources: Resources
) -> None:
    undelivered = logical_id(stack.storage.undelivered_events)
    for function, invoker in asynchronously_invoked(resources).items():
        # Given a function a rule, schedule or notification invokes asynchronously
        config = _invoke_config(resources, function)
        # Then its retries and maximum event age are the stack's choice, not Lambda's defaults
        assert config["Qualifier"] == "$LATEST"
        assert 0 <= config["MaximumRetryAttempts"] <= 2, (function, invoker)
        assert 60 <= config["MaximumEventAgeInSeconds"] <= 6 * 3600, (function, invoker)
        # And an invocation that still fails is kept in the undelivered-events queue
        on_failure = config["DestinationConfig"]["OnFailure"]["Destination"]
        assert undelivered in references(on_failure), (function, invoker)


def test_every_async_invoked_function_has_an_errors_alarm(resources: Resources) -> None:
    alarmed = {
        function
        for alarm in _of_type(resources, "AWS::CloudWatch::Alarm").values()
        if (alarm["Properties"].get("Namespace"), alarm["Properties"].get("MetricName"))
        == ("AWS/Lambda", "Errors")
        for d in alarm["Properties"]["Dimensions"]
        for function in references(d["Value"])
    }
    assert set(asynchronously_invoked(resources)) <= alarmed


def test_a_scheduled_job_cannot_overlap_itself_or_the_next_window(
    stack: MemoryStack, resources: Resources
) -> None:
    functions = _of_type(resources, "AWS::Lambda::Function")
    for name in ("ingest", "decay"):
        function = logical_id(stack.functions[name])
        properties = functions[function]["Properties"]
        # One run at a time
        assert properties["ReservedConcurrentExecutions"] == 1, name
    # And ingest is never retried into the next 5-minute window: no retries, and an event
    # older than a window is dropped (to the queue) rather than run late
    config = _invoke_config(resources, logical_id(stack.functions["ingest"]))
    assert config["MaximumRetryAttempts"] == 0
    assert config["MaximumEventAgeInSeconds"] < 300


def test_an_aborted_consolidation_raises_an_alarm(stack: MemoryStack, resources: Resources):
    machine = logical_id(stack.consolidation.state_machine)
    aborted = [
        a["Properties"]
        for a in _of_type(resources, "AWS::CloudWatch::Alarm").values()
        if a["Properties"].get("MetricName") == "ExecutionsAborted"
    ]
    assert aborted and all(
        machine in references(d["Value"]) for a in aborted for d in a["Dimensions"]
    )
