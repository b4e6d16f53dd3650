from __future__ import annotations

from stacks.memory_stack import MemoryStack
from tests.infrastructure.helpers import Resources, actions, logical_id, references, statements_of


def _schedule(resources: Resources, schedule: object) -> dict:
    return resources[logical_id(schedule)]["Properties"]  # type: ignore[arg-type]


def test_decay_runs_nightly_at_three_utc(stack: MemoryStack, resources: Resources):
    props = _schedule(resources, stack.schedules.decay)
    assert props["ScheduleExpression"] == "cron(0 3 * * ? *)"
    assert props["ScheduleExpressionTimezone"] == "UTC"
    assert props["Target"]["Arn"] == {"Fn::GetAtt": [logical_id(stack.functions["decay"]), "Arn"]}


def test_ingestion_runs_in_five_minute_windows(stack: MemoryStack, resources: Resources):
    props = _schedule(resources, stack.schedules.ingestion)
    assert props["ScheduleExpression"] == "rate(5 minutes)"
    assert props["Target"]["Arn"] == {"Fn::GetAtt": [logical_id(stack.functions["ingest"]), "Arn"]}


def test_the_scheduler_may_invoke_only_the_two_scheduled_functions(
    stack: MemoryStack, resources: Resources
):
    [statement] = statements_of(resources, logical_id(stack.schedules.role))
    assert actions(statement) == ["lambda:InvokeFunction"]
    assert references(statement["Resource"]) == {
        logical_id(stack.functions["decay"]),
        logical_id(stack.functions["ingest"]),
    }
