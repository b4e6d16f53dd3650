"""What an operator needs to run ``agent-memory --aws-stack NAME ...``, as one managed policy.

``export`` and ``forget`` of a tenant read (and ``forget`` deletes) its items in the four tables
and their indexes, and its documents under ``tenants/<tenant>/``; ``forget`` of one agent or
run updates the counts of the facts and procedures it counted in, and scrubs who decided and
why (as ``history`` records them); ``forget`` asks the next ingestion window to run (a ledger
record) or starts an ingestion itself; ``failed list`` reads the ledger; ``flags list`` reads
the ledger and ``flags dismiss`` deletes a flag and appends to the history there (its reviewer
and reason scrubbed); ``failed replay`` starts the state machine, reads a failed execution's
input, and receives, returns and deletes the dead-letter queue's messages. ``redact`` rewrites
items in place, embeds the rewritten texts again with the stack's embedding model (Bedrock
``InvokeModel`` on that one model), and writes a redacted fact's document again. Scrubbing runs
the local detectors in the operator's process; under ``piiDetector=comprehend`` it calls
Comprehend's ``DetectPiiEntities`` too, which only then is granted. Every command first reads
the stack's outputs. The policy is an output (``OperatorPolicyArn``): attach it to the
operators' role. Operators act across tenants: this is not an agent's policy.
"""

from __future__ import annotations

from collections.abc import Mapping

from aws_cdk import ArnFormat, Stack
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_iam as iam
from aws_cdk import aws_s3 as s3
from aws_cdk import aws_sqs as sqs
from aws_cdk import aws_stepfunctions as sfn
from constructs import Construct

from stacks.bedrock_models import EMBEDDING_MODEL_ID, foundation_model_arn
from stacks.nag import acknowledge, resource_findings

# What export, forget and failed list/replay call on the tables (the CLI's stores: items by
# key and in batches, pages of an index, the ledger scanned for failed runs); forgetting one
# run updates the facts and procedures it counted in (their counts, in place).
TABLE_ACTIONS = (
    "dynamodb:GetItem",
    "dynamodb:BatchGetItem",
    "dynamodb:Query",
    "dynamodb:Scan",
    "dynamodb:PutItem",
    "dynamodb:UpdateItem",
    "dynamodb:DeleteItem",
    "dynamodb:BatchWriteItem",
)


class OperatorAccess(Construct):
    """The managed policy the operators' role needs for the ``agent-memory --aws-stack`` CLI."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        tables: Mapping[str, dynamodb.ITable],
        documents: s3.IBucket,
        documents_prefix: str,
        knowledge_base_arn: str,
        state_machine: sfn.StateMachine,
        dead_letters: sqs.IQueue,
        scrubs_with_comprehend: bool = False,
    ) -> None:
        super().__init__(scope, construct_id)
        stack = Stack.of(self)
        stack_arn = stack.format_arn(
            service="cloudformation", resource="stack", resource_name=f"{stack.stack_name}/*"
        )
        executions = stack.format_arn(
            service="states",
            resource="execution",
            resource_name=f"{state_machine.state_machine_name}:*",
            arn_format=ArnFormat.COLON_RESOURCE_NAME,
        )
        table_arns = [t.table_arn for t in tables.values()]
        indexes = [f"{arn}/index/*" for arn in table_arns]
        tenant_objects = documents.arn_for_objects(f"{documents_prefix}*")
        if scrubs_with_comprehend:
            # Who decided and why (a forget, a redaction, a flag's dismissal) are scrubbed
            # before the history keeps them; the API has no resource to name.
            scrub: list[iam.PolicyStatement] = [
                iam.PolicyStatement(
                    sid="ScrubDecisions",
                    actions=["comprehend:DetectPiiEntities"],
                    resources=["*"],
                )
            ]
        else:
            scrub = []
        self.policy = iam.ManagedPolicy(
            self,
            "Policy",
            description=(
                "agent-memory operators: export or forget a tenant, forget an agent or a "
                "run, redact a text, read the history, list and replay failed runs"
            ),
            statements=[
                iam.PolicyStatement(
                    sid="FindTheMemory",
                    actions=["cloudformation:DescribeStacks"],
                    resources=[stack_arn],
                ),
                iam.PolicyStatement(
                    sid="TenantRecords", actions=list(TABLE_ACTIONS), resources=table_arns
                ),
                iam.PolicyStatement(
                    sid="TenantRecordsByIndex", actions=["dynamodb:Query"], resources=indexes
                ),
                iam.PolicyStatement(
                    sid="TenantDocumentsListed",
                    actions=["s3:ListBucket"],
                    resources=[documents.bucket_arn],
                    conditions={"StringLike": {"s3:prefix": [f"{documents_prefix}*"]}},
                ),
                iam.PolicyStatement(
                    sid="TenantDocuments",
                    actions=["s3:GetObject", "s3:DeleteObject", "s3:PutObject"],
                    resources=[tenant_objects],
                ),
                iam.PolicyStatement(
                    # A redaction embeds the rewritten texts with the stack's one model.
                    sid="EmbedRedactedTexts",
                    actions=["bedrock:InvokeModel"],
                    resources=[foundation_model_arn(self, EMBEDDING_MODEL_ID)],
                ),
                *scrub,
                iam.PolicyStatement(
                    sid="IngestAfterForget",
                    actions=["bedrock:StartIngestionJob"],
                    resources=[knowledge_base_arn],
                ),
                iam.PolicyStatement(
                    sid="ReplayFailedRuns",
                    actions=["states:StartExecution"],
                    resources=[state_machine.state_machine_arn],
                ),
                iam.PolicyStatement(
                    sid="ReadFailedExecutions",
                    actions=["states:DescribeExecution"],
                    resources=[executions],
                ),
                iam.PolicyStatement(
                    sid="DeadLetters",
                    actions=[
                        "sqs:ReceiveMessage",
                        "sqs:DeleteMessage",
                        "sqs:ChangeMessageVisibility",
                    ],
                    resources=[dead_letters.queue_arn],
                ),
            ],
        )
        reason = (
            "An operator exports, forgets and replays any tenant's records: every index of the "
            "four tables, every document under the tenants' prefix, this stack (whose ARN ends "
            "in an id), and this state machine's executions (named at start)."
        )
        findings = resource_findings(self.policy, stack_arn, executions, tenant_objects, *indexes)
        if scrubs_with_comprehend:
            reason += (
                " Comprehend DetectPiiEntities has no resource-level permissions (an API, not a "
                "resource)."
            )
            findings.append("Resource::*")
        acknowledge(self.policy, "IAM5", reason, findings=findings)
