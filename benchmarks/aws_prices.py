"""The AWS prices the cost model uses: one Region, one date, each price with its source page.

On-demand list prices in US East (N. Virginia), without free tiers, savings plans or
discounts, as the pages named say on ``PRICED_ON``. A price that changes is changed here
(and the date with it); ``benchmarks/aws_cost.py`` reads nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass

PRICED_ON = "2026-12-07"
REGION = "us-east-1"

LAMBDA = "https://aws.amazon.com/lambda/pricing/"
STEP_FUNCTIONS = "https://aws.amazon.com/step-functions/pricing/"
DYNAMODB = "https://aws.amazon.com/dynamodb/pricing/on-demand/"
S3 = "https://aws.amazon.com/s3/pricing/"
COMPREHEND = "https://aws.amazon.com/comprehend/pricing/"
BEDROCK = "https://aws.amazon.com/bedrock/pricing/"
CLOUDWATCH = "https://aws.amazon.com/cloudwatch/pricing/"
XRAY = "https://aws.amazon.com/xray/pricing/"
EVENTBRIDGE = "https://aws.amazon.com/eventbridge/pricing/"
SQS = "https://aws.amazon.com/sqs/pricing/"
KMS = "https://aws.amazon.com/kms/pricing/"
SECRETS_MANAGER = "https://aws.amazon.com/secrets-manager/pricing/"
AGENTCORE = "https://aws.amazon.com/bedrock/agentcore/pricing/"


@dataclass(frozen=True, slots=True)
class Price:
    """``usd`` for every ``per`` ``unit`` (``Price(0.20, 1e6, "requests")``: $0.20 per million)."""

    usd: float
    per: float
    unit: str
    source: str

    def of(self, quantity: float) -> float:
        """What ``quantity`` units cost, in dollars."""
        return self.usd * quantity / self.per


PRICES: dict[str, Price] = {
    # Lambda, Arm (Graviton); the INIT phase is billed as duration (since 2025-08-01).
    "lambda.requests": Price(0.20, 1e6, "requests", LAMBDA),
    "lambda.arm_duration": Price(0.0000133334, 1, "GB-seconds", LAMBDA),
    # Step Functions: Standard per state transition; Express per request and per GB-second
    # (64 MB units of memory, 100 ms units of time).
    "sfn.standard_transitions": Price(0.025, 1_000, "state transitions", STEP_FUNCTIONS),
    "sfn.express_requests": Price(1.00, 1e6, "requests", STEP_FUNCTIONS),
    "sfn.express_duration": Price(0.00001667, 1, "GB-seconds", STEP_FUNCTIONS),
    # DynamoDB on demand (Standard table class).
    "dynamodb.write_units": Price(0.625, 1e6, "write request units", DYNAMODB),
    "dynamodb.read_units": Price(0.125, 1e6, "read request units", DYNAMODB),
    "dynamodb.storage": Price(0.25, 1, "GB-months", DYNAMODB),
    "dynamodb.pitr": Price(0.20, 1, "GB-months", DYNAMODB),
    # S3 Standard.
    "s3.tier1_requests": Price(0.005, 1_000, "PUT, COPY, POST, LIST requests", S3),
    "s3.tier2_requests": Price(0.0004, 1_000, "GET, HEAD and other requests", S3),
    "s3.storage": Price(0.023, 1, "GB-months", S3),
    # S3 Vectors (the knowledge base's vector store).
    "s3vectors.storage": Price(0.06, 1, "GB-months", S3),
    "s3vectors.put": Price(0.20, 1, "GB of logical vector data put", S3),
    "s3vectors.query_requests": Price(2.50, 1e6, "query requests", S3),
    # Per query: the index's vectors times their size (vector, key, filterable metadata),
    # at the first tier's price (an index under 100,000 vectors; cheaper above); what a
    # query returns is billed too, past 512 KB a query (never reached by bootstrap's top k).
    "s3vectors.query_data": Price(0.004, 1, "TB of vector data processed", S3),
    # Comprehend: one unit is 100 characters, at least 3 units a request.
    "comprehend.pii_units": Price(0.0001, 1, "units of 100 characters", COMPREHEND),
    # Bedrock, on demand.
    "bedrock.titan_embed_v2": Price(0.00002, 1_000, "input tokens", BEDROCK),
    # The reranker offered in us-east-1 (Amazon Rerank is not); a query ranks up to 100
    # documents.
    "bedrock.cohere_rerank": Price(2.00, 1_000, "queries", BEDROCK),
    # CloudWatch.
    "logs.ingestion": Price(0.50, 1, "GB ingested (Standard class)", CLOUDWATCH),
    "logs.ingestion_infrequent": Price(0.25, 1, "GB ingested (Infrequent Access)", CLOUDWATCH),
    "logs.storage": Price(0.03, 1, "GB-months archived (compressed)", CLOUDWATCH),
    "cloudwatch.custom_metric": Price(0.30, 1, "metric-months", CLOUDWATCH),
    "cloudwatch.alarm_metric": Price(0.10, 1, "alarm metric-months (standard)", CLOUDWATCH),
    "cloudwatch.dashboard": Price(3.00, 1, "dashboard-months (beyond 3)", CLOUDWATCH),
    # X-Ray.
    "xray.traces_recorded": Price(5.00, 1e6, "traces recorded", XRAY),
    # EventBridge (events of 64 KB units), its archive, and Scheduler.
    "eventbridge.custom_events": Price(1.00, 1e6, "64 KB event units", EVENTBRIDGE),
    "eventbridge.archive_ingest": Price(0.10, 1, "GB archived", EVENTBRIDGE),
    "eventbridge.archive_storage": Price(0.023, 1, "GB-months", EVENTBRIDGE),
    "scheduler.invocations": Price(1.00, 1e6, "invocations", EVENTBRIDGE),
    # SQS standard queues.
    "sqs.requests": Price(0.40, 1e6, "requests", SQS),
    # KMS and Secrets Manager.
    "kms.key": Price(1.00, 1, "key-months", KMS),
    "kms.requests": Price(0.03, 10_000, "requests", KMS),
    "secrets.secret": Price(0.40, 1, "secret-months", SECRETS_MANAGER),
    "secrets.requests": Price(0.05, 10_000, "API calls", SECRETS_MANAGER),
    # Amazon Bedrock AgentCore Memory: the managed alternative, at the prices the issue
    # compares with. Short-term memory has been billed by the GB since 2026-10-06 ($1.00 per
    # GB ingested, $0.20 per GB retrieved, $0.10 per GB-month stored); the per-event price
    # is kept as the comparison the targets were set against.
    "agentcore.short_term_events": Price(0.25, 1_000, "short-term memory events", AGENTCORE),
    "agentcore.long_term_records": Price(
        0.75, 1_000, "long-term records stored a month (built-in strategies)", AGENTCORE
    ),
    "agentcore.retrievals": Price(0.50, 1_000, "long-term memory retrievals", AGENTCORE),
}


@dataclass(frozen=True, slots=True)
class ChatModelPrice:
    """A Bedrock chat model's on-demand price per million input and output tokens."""

    model_id: str
    name: str
    input_per_million: float
    output_per_million: float
    source: str = BEDROCK

    def of(self, input_tokens: float, output_tokens: float) -> float:
        """What one call costs, in dollars."""
        return (
            input_tokens * self.input_per_million + output_tokens * self.output_per_million
        ) / 1e6


# The extraction models a deployer may choose (``-c chatModelId=...``), cheapest first. The
# ``us.`` ids are US cross-Region inference profiles, priced 10% above the global endpoint.
CHAT_MODELS: tuple[ChatModelPrice, ...] = (
    ChatModelPrice("amazon.nova-micro-v1:0", "Amazon Nova Micro", 0.035, 0.14),
    ChatModelPrice("amazon.nova-lite-v1:0", "Amazon Nova Lite", 0.06, 0.24),
    ChatModelPrice(
        "us.anthropic.claude-haiku-4-5-20251001-v1:0", "Anthropic Claude Haiku 4.5", 1.10, 5.50
    ),
    ChatModelPrice("us.anthropic.claude-sonnet-4-6", "Anthropic Claude Sonnet 4.6", 3.30, 16.50),
)
