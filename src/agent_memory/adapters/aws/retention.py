"""What the deployed stack keeps of a tenant that ``forget`` cannot delete, and for how long.

``forget`` deletes the tenant's items from the four tables and its objects from the KB bucket
(the index drops them when the ingestion it starts completes). Copies made by the stack's
safety nets stay until they expire. Each figure below is either the stack's own, read from the
synthesised template by ``tests/infrastructure/test_retention.py``, or a fixed AWS rule (the
page is named beside it).
"""

from __future__ import annotations

from agent_memory.core.model.models import Retention

# DynamoDB point-in-time recovery, on for every table; RecoveryPeriodInDays unset, so 35 days
# (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_PointInTimeRecoverySpecification.html).
PITR_DAYS = 35
# The documents bucket's lifecycle rule: NoncurrentDays 7. S3 counts from the delete marker's
# creation and rounds up to the next midnight UTC, then removes the version asynchronously
# (https://docs.aws.amazon.com/AmazonS3/latest/userguide/intro-lifecycle-rules.html).
NONCURRENT_VERSION_DAYS = 7
ARCHIVE_DAYS = 14  # the bus's archive of RunFinished events
DEAD_LETTER_DAYS = 14  # both dead-letter queues' message retention
LOG_DAYS = 30  # the functions' and the state machine's log groups (RetentionDays.ONE_MONTH)
ACCESS_LOG_DAYS = 365  # the documents bucket's server access logs
# Step Functions removes a Standard workflow's execution history 90 days after it closes
# (https://docs.aws.amazon.com/step-functions/latest/dg/express-at-least-once-execution.html).
EXECUTION_HISTORY_DAYS = 90

AWS_RETENTION: tuple[Retention, ...] = (
    Retention(
        "DynamoDB point-in-time recovery (every table)",
        "the deleted items, restorable into a new table by anyone allowed to restore",
        PITR_DAYS,
    ),
    Retention(
        "KB documents bucket: noncurrent versions and delete markers",
        "the deleted documents' old versions (fact text, metadata) under tenants/<tenant>/, "
        "removed by the lifecycle rule after S3 rounds to the next midnight UTC",
        NONCURRENT_VERSION_DAYS + 1,
    ),
    Retention(
        "EventBridge archive",
        "the tenant's RunFinished events as sent (before scrubbing)",
        ARCHIVE_DAYS,
    ),
    Retention(
        "Step Functions execution history",
        "each consolidation's input, the RunFinished event as sent (before scrubbing); "
        "90 days after each execution closed",
        EXECUTION_HISTORY_DAYS,
    ),
    Retention(
        "dead-letter queues",
        "failed and undelivered runs of the tenant (ids, errors; undelivered events whole)",
        DEAD_LETTER_DAYS,
    ),
    Retention(
        "CloudWatch Logs (functions, state machine)",
        "log lines naming the tenant id, run ids, agent ids and fact hashes",
        LOG_DAYS,
    ),
    Retention(
        "documents bucket server access logs",
        "requests naming the tenant's object keys (tenant id and fact hashes)",
        ACCESS_LOG_DAYS,
    ),
)
