"""The retention periods ``forget``'s receipt states are the stack's own.

``adapters.aws.retention`` names what ``forget`` cannot reach on AWS and until when; each
figure is read here from the synthesised template, so a change to the stack that the receipt
(and the README) did not follow fails.
"""

from __future__ import annotations

from aws_cdk.assertions import Template

from agent_memory.adapters.aws import retention
from stacks.memory_stack import MemoryStack
from tests.infrastructure.helpers import Resources, logical_id

DAY = 86_400


def test_every_table_keeps_point_in_time_recovery_for_the_stated_days(template: Template) -> None:
    for table in template.find_resources("AWS::DynamoDB::Table").values():
        spec = table["Properties"]["PointInTimeRecoverySpecification"]
        assert spec["PointInTimeRecoveryEnabled"] is True
        # Unset, DynamoDB keeps 35 days (API_PointInTimeRecoverySpecification.html).
        assert spec.get("RecoveryPeriodInDays", 35) == retention.PITR_DAYS


def test_deleted_documents_versions_expire_after_the_stated_days(
    stack: MemoryStack, resources: Resources
) -> None:
    props = resources[logical_id(stack.storage.documents)]["Properties"]
    assert props["VersioningConfiguration"] == {"Status": "Enabled"}
    days = [
        rule["NoncurrentVersionExpiration"]["NoncurrentDays"]
        for rule in props["LifecycleConfiguration"]["Rules"]
        if "NoncurrentVersionExpiration" in rule
    ]
    assert days == [retention.NONCURRENT_VERSION_DAYS]


def test_the_event_archive_keeps_the_stated_days(template: Template) -> None:
    archives = template.find_resources("AWS::Events::Archive").values()
    assert [a["Properties"]["RetentionDays"] for a in archives] == [retention.ARCHIVE_DAYS]


def test_dead_letter_queues_keep_messages_the_stated_days(template: Template) -> None:
    queues = template.find_resources("AWS::SQS::Queue").values()
    periods = {q["Properties"]["MessageRetentionPeriod"] for q in queues}
    assert periods == {retention.DEAD_LETTER_DAYS * DAY}


def test_every_log_group_keeps_the_stated_days(template: Template) -> None:
    groups = template.find_resources("AWS::Logs::LogGroup").values()
    assert {g["Properties"]["RetentionInDays"] for g in groups} == {retention.LOG_DAYS}


def test_access_logs_expire_after_the_stated_days(stack: MemoryStack, resources: Resources) -> None:
    documents = resources[logical_id(stack.storage.documents)]["Properties"]
    log_bucket = documents["LoggingConfiguration"]["DestinationBucketName"]["Ref"]
    rules = resources[log_bucket]["Properties"]["LifecycleConfiguration"]["Rules"]
    assert [r["ExpirationInDays"] for r in rules] == [retention.ACCESS_LOG_DAYS]


def test_consolidation_is_a_standard_workflow_whose_history_step_functions_keeps(
    template: Template,
) -> None:
    # Standard workflows' execution history is removed 90 days after they close
    # (express-at-least-once-execution.html); an Express one would keep none.
    machines = template.find_resources("AWS::StepFunctions::StateMachine").values()
    assert {m["Properties"].get("StateMachineType", "STANDARD") for m in machines} == {"STANDARD"}
