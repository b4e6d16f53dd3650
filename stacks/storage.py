"""Where memory is kept: the DynamoDB tables, the KB documents bucket and the dead-letter queues."""

from __future__ import annotations

from aws_cdk import Duration, RemovalPolicy
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_s3 as s3
from aws_cdk import aws_sqs as sqs
from constructs import Construct

from agent_memory.adapters.aws import dynamodb_schema as schema
from agent_memory.core.model import keys
from stacks.nag import acknowledge

KB_PREFIX = keys.TENANTS_FOLDER
DLQ_RETENTION = Duration.days(14)

_TYPES = {
    "S": dynamodb.AttributeType.STRING,
    "N": dynamodb.AttributeType.NUMBER,
    "B": dynamodb.AttributeType.BINARY,
}
_PROJECTIONS = {
    "ALL": dynamodb.ProjectionType.ALL,
    "KEYS_ONLY": dynamodb.ProjectionType.KEYS_ONLY,
    "INCLUDE": dynamodb.ProjectionType.INCLUDE,
}


class Storage(Construct):
    """Tables from ``dynamodb_schema``, the documents bucket with its access-log bucket, and the
    two dead-letter queues.

    Everything that holds memory is retained when the stack is deleted.
    """

    def __init__(self, scope: Construct, construct_id: str) -> None:
        super().__init__(scope, construct_id)
        self.designs = {design.logical_name: design for design in schema.TABLES}
        self.tables = {name: self._build_table(design) for name, design in self.designs.items()}
        self.documents = self._build_documents_bucket(self._build_access_log_bucket())
        self.failed_runs = self._build_queue(
            "FailedRunsQueue", "consolidations that failed after their retries (replayable)"
        )
        self.undelivered_events = self._build_queue(
            "UndeliveredEventsQueue", "RunFinished events EventBridge could not deliver"
        )

    def _build_table(self, design: schema.TableDesign) -> dynamodb.Table:
        table = self._new_table(
            f"{design.logical_name.title()}Table",
            _attribute(design.partition_key),
            _attribute(design.sort_key) if design.sort_key else None,
            design.ttl_attribute,
        )
        for index in design.indexes:
            table.add_global_secondary_index(
                index_name=index.name,
                partition_key=_attribute(index.partition_key),
                sort_key=_attribute(index.sort_key) if index.sort_key else None,
                projection_type=_PROJECTIONS[index.projection],
                non_key_attributes=list(index.non_key_attributes) or None,
            )
        return table

    def _new_table(
        self,
        construct_id: str,
        partition_key: dynamodb.Attribute,
        sort_key: dynamodb.Attribute | None,
        ttl_attribute: str | None,
    ) -> dynamodb.Table:
        return dynamodb.Table(
            self,
            construct_id,
            partition_key=partition_key,
            sort_key=sort_key,
            time_to_live_attribute=ttl_attribute,
            billing_mode=dynamodb.BillingMode.PAY_PER_REQUEST,
            point_in_time_recovery_specification=dynamodb.PointInTimeRecoverySpecification(
                point_in_time_recovery_enabled=True
            ),
            encryption=dynamodb.TableEncryption.AWS_MANAGED,
            deletion_protection=True,
            removal_policy=RemovalPolicy.RETAIN,
        )

    def _build_access_log_bucket(self) -> s3.Bucket:
        return s3.Bucket(
            self,
            "AccessLogBucket",
            # Server access logs can only be delivered to SSE-S3 buckets.
            encryption=s3.BucketEncryption.S3_MANAGED,
            block_public_access=s3.BlockPublicAccess.BLOCK_ALL,
            enforce_ssl=True,
            object_ownership=s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
            lifecycle_rules=[s3.LifecycleRule(expiration=Duration.days(365))],
            removal_policy=RemovalPolicy.RETAIN,
        )

    def _build_documents_bucket(self, access_logs: s3.Bucket) -> s3.Bucket:
        return s3.Bucket(
            self,
            "DocumentsBucket",
            encryption=s3.BucketEncryption.S3_MANAGED,
            block_public_access=s3.BlockPublicAccess.BLOCK_ALL,
            enforce_ssl=True,
            versioned=True,
            object_ownership=s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
            server_access_logs_bucket=access_logs,
            server_access_logs_prefix="documents/",
            lifecycle_rules=[
                # Forgotten facts must not linger: old versions go after a week.
                s3.LifecycleRule(
                    noncurrent_version_expiration=Duration.days(7),
                    expired_object_delete_marker=True,
                    abort_incomplete_multipart_upload_after=Duration.days(1),
                )
            ],
            removal_policy=RemovalPolicy.RETAIN,
        )

    def _build_queue(self, construct_id: str, purpose: str) -> sqs.Queue:
        queue = sqs.Queue(
            self,
            construct_id,
            encryption=sqs.QueueEncryption.SQS_MANAGED,
            enforce_ssl=True,
            retention_period=DLQ_RETENTION,
        )
        acknowledge(
            queue,
            "SQS3",
            f"This queue is itself a dead-letter queue ({purpose}); it needs none of its own.",
        )
        return queue


def _attribute(key: schema.KeyAttribute) -> dynamodb.Attribute:
    return dynamodb.Attribute(name=key.name, type=_TYPES[key.type])
