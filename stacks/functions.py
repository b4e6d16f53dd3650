"""The Lambda functions, their shared dependency layer, their roles and what each may touch."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import KW_ONLY, dataclass
from pathlib import Path
from typing import Any

import jsii
from aws_cdk import Duration, RemovalPolicy, Stack
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from aws_cdk import aws_secretsmanager as secretsmanager
from aws_cdk import aws_sqs as sqs
from constructs import Construct

from agent_memory.adapters.aws import dynamodb_schema as schema
from agent_memory.wiring.detectors import PiiDetectorChoice
from stacks.bedrock_models import (
    EMBEDDING_MODEL_ID,
    foundation_model_arn,
    invoke_statements,
    is_inference_profile,
)
from stacks.config import ROOT, MemoryConfig
from stacks.knowledge_base import KnowledgeBase
from stacks.nag import acknowledge, resource_findings
from stacks.runtime import PYTHON_VERSION
from stacks.storage import KB_PREFIX, Storage
from stacks.tenant_access import TenantDataAccess

FUNCTIONS_DIR = ROOT / "functions"
RUNTIME = lambda_.Runtime(f"python{PYTHON_VERSION}", lambda_.RuntimeFamily.PYTHON)
ARCHITECTURE = lambda_.Architecture.ARM_64
SERVICE_NAME = "agent-memory"
METRICS_NAMESPACE_PREFIX = "AgentMemory"


def metrics_namespace(stack: Stack) -> str:
    """The stack's own CloudWatch namespace (``AgentMemory/<stack name>``): two stacks in one
    account and Region emit, graph and alarm on separate metrics.
    """
    return f"{METRICS_NAMESPACE_PREFIX}/{stack.stack_name}"


@dataclass(frozen=True, slots=True)
class AsyncInvocation:
    """How Lambda treats a function EventBridge or EventBridge Scheduler invokes (both invoke
    asynchronously: Lambda, not the caller, retries a failed invocation, twice by default,
    and drops the event after six hours unless told otherwise;
    https://docs.aws.amazon.com/lambda/latest/dg/invocation-async-error-handling.html).

    Every such function is given its retries and the event's maximum age on purpose, and an
    on-failure destination (the stack's undelivered-events queue, which raises an alarm), so
    nothing is dropped in silence. ``single`` functions run one at a time (reserved
    concurrency 1): a run that overlapped another would be unsafe.
    """

    retries: int
    max_event_age_seconds: int
    single: bool = False


@jsii.implements(lambda_.IDestination)
class QueueDestination:
    """An SQS queue as an asynchronous invocation's destination, granting only what Lambda
    needs to send to it (``sqs:SendMessage``, the queue being SQS-encrypted;
    https://docs.aws.amazon.com/lambda/latest/dg/invocation-async-retain-records.html), not the
    L2 destination's ``GetQueueUrl`` and ``GetQueueAttributes``.
    """

    def __init__(self, queue: sqs.IQueue) -> None:
        self._queue = queue

    def bind(
        self, scope: Construct, fn: lambda_.IFunction, *, type: Any = None
    ) -> lambda_.DestinationConfig:
        """Grant ``fn`` sending to the queue; the queue's ARN as the destination."""
        fn.add_to_role_policy(
            iam.PolicyStatement(actions=["sqs:SendMessage"], resources=[self._queue.queue_arn])
        )
        return lambda_.DestinationConfig(destination=self._queue.queue_arn)


@dataclass(frozen=True, slots=True)
class FunctionSpec:
    """One handler under ``functions/<name>/`` and what it needs.

    ``tenant_scoped`` functions reach tenant data only through the tenant data role;
    ``table_actions`` are the direct grants of the cross-tenant jobs on a table itself (item
    actions, and Query or Scan of the table), per table design; ``index_queries`` the indexes of
    each table they Query. Each is what the job's code calls, nothing more (the session's call
    check, tests/support/aws_calls.py, reports a call without its grant).
    ``scrubs_pii`` functions run the PII detectors (Comprehend among them under
    ``piiDetector=comprehend``) and read the name-pseudonym key: the consolidation step that
    scrubs, and bootstrap, which puts queries in the stored form.
    ``checks_receipts`` functions read that secret too, for the serving-receipt key derived
    from it (bootstrap signs receipts; propose_procedure checks them).
    """

    name: str
    description: str
    _: KW_ONLY
    tenant_scoped: bool
    timeout_seconds: int = 30
    memory_mb: int = 512
    embeds: bool = False
    scrubs_pii: bool = False
    checks_receipts: bool = False
    table_actions: Mapping[str, tuple[str, ...]] | None = None
    index_queries: Mapping[str, tuple[str, ...]] | None = None
    async_invocation: AsyncInvocation | None = None

    @property
    def construct_id(self) -> str:
        """``write_episode`` -> ``WriteEpisode``."""
        return "".join(part.title() for part in self.name.split("_"))


# Consolidation steps stay well under the ASL's 120 s task timeout.
SPECS = (
    FunctionSpec(
        "bootstrap",
        "Memory context for a run about to start",
        tenant_scoped=True,
        timeout_seconds=15,
        memory_mb=1024,
        embeds=True,
        scrubs_pii=True,
    ),
    FunctionSpec("extract", "Consolidation: validate and distil a run", tenant_scoped=True),
    FunctionSpec(
        "scrub",
        "Consolidation: remove PII",
        tenant_scoped=True,
        timeout_seconds=60,
        scrubs_pii=True,
    ),
    FunctionSpec(
        "write_episode",
        "Consolidation: store the episode",
        tenant_scoped=True,
        embeds=True,
    ),
    FunctionSpec(
        "confirm_facts",
        "Consolidation: log and promote facts",
        tenant_scoped=True,
        embeds=True,
    ),
    FunctionSpec("stage_kb_docs", "Consolidation: write KB documents", tenant_scoped=True),
    FunctionSpec(
        "propose_procedure",
        "Consolidation: propose a procedure",
        tenant_scoped=True,
        checks_receipts=True,
    ),
    FunctionSpec(
        "procedure_review",
        "Review a tenant's procedures; retract, correct or assert its facts",
        tenant_scoped=True,
        # The reviewer's name and reason, and a person's fact, are stored: scrubbed like every
        # other stored text. A person's fact is embedded as agents' facts are; its KB document
        # is written (a retracted one's deleted) through the tenant role.
        scrubs_pii=True,
        embeds=True,
    ),
    FunctionSpec(
        "episodes",
        "Read, list or forget one agent's episodes; the tenant's agents",
        tenant_scoped=True,
        # Episodes by key (GetItem, DeleteItem with its parts in a transaction, the agent's
        # version item rewritten), pages from agent-time-index, the tenant's agents from
        # tenant-index, a forgotten run's ledger records deleted: all through the tenant role.
        # Naming the tenant's agents reads every episode of the tenant: a minute, not 30 s.
        timeout_seconds=60,
    ),
    FunctionSpec(
        "record_failure",
        "Consolidation: keep a failed run replayable",
        tenant_scoped=False,
        # The failure record by key (states:DescribeExecution is granted with the machine).
        table_actions={"ledger": ("dynamodb:GetItem", "dynamodb:PutItem")},
        # The unfinished-executions rule invokes it: a lost invocation is a failed run never
        # recorded, so it is retried for the longest Lambda allows, then kept in the queue.
        async_invocation=AsyncInvocation(retries=2, max_event_age_seconds=6 * 3600),
    ),
    FunctionSpec(
        "ingest",
        "Batched knowledge-base ingestion window",
        tenant_scoped=False,
        timeout_seconds=60,
        # Every 5 minutes: a failed window is the next window's work, and a retry could run
        # beside that window (two jobs checkpointing one data source). No retries, an event
        # younger than a window, one run at a time.
        async_invocation=AsyncInvocation(retries=0, max_event_age_seconds=240, single=True),
        # Staged facts from awaiting-index (full items), marked ingested or staged again by
        # key; the ledger holds the job, the dirty mark and the retry counts.
        table_actions={
            "facts": ("dynamodb:UpdateItem",),
            "ledger": ("dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:DeleteItem"),
        },
        index_queries={"facts": (schema.AWAITING_INDEX,)},
    ),
    FunctionSpec(
        "decay",
        "Nightly forgetting pass across tenants",
        tenant_scoped=False,
        timeout_seconds=900,
        memory_mb=1024,
        # Nightly and resumable (the ledger keeps its resume point): retried twice within two
        # hours, one pass at a time.
        async_invocation=AsyncInvocation(retries=2, max_event_age_seconds=2 * 3600, single=True),
        # Expired episodes and ledger records are TTL's work, not decay's. FAILED episodes come
        # from failed-time-index, their parts (split items) by key, and are deleted by key
        # with their parts; a delete rewrites the agent's version item (PutItem). Stale
        # PENDING facts come from pending-index (keys only, read back by key) and are deleted
        # with their run markers (a Query of the fact's marker partition). VALIDATED
        # procedures come from status-index and are flagged by key once found in their
        # tenant's tenant-index partition. The ledger keeps the pass's resume point. After
        # the pass, the memory gauges count episodes and facts by status with a Scan (no index
        # holds every status), procedures from status-index and the ingestion backlog from
        # awaiting-index.
        table_actions={
            "episodes": (
                "dynamodb:GetItem",
                "dynamodb:BatchGetItem",
                "dynamodb:Scan",
                "dynamodb:DeleteItem",
                "dynamodb:PutItem",
            ),
            "facts": (
                "dynamodb:BatchGetItem",
                "dynamodb:Query",
                "dynamodb:Scan",
                "dynamodb:DeleteItem",
            ),
            "procedures": ("dynamodb:UpdateItem",),
            "ledger": ("dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:DeleteItem"),
        },
        index_queries={
            "episodes": (schema.FAILED_TIME_INDEX,),
            "facts": (schema.PENDING_INDEX, schema.AWAITING_INDEX),
            "procedures": (schema.STATUS_INDEX, schema.TENANT_INDEX),
        },
    ),
    FunctionSpec(
        "reembed",
        "Embedding-model migration: re-embed stored vectors, a page at a time (invoke until done)",
        tenant_scoped=False,
        timeout_seconds=900,
        memory_mb=1024,
        # It embeds with the deployed model; a migration to another Bedrock model also needs
        # bedrock:InvokeModel on that one (functions/reembed/README.md).
        embeds=True,
        # Every tenant's records are read by a Scan and rewritten in place (UpdateItem); a
        # rewritten episode moves its agent's version item (PutItem); an episode split into
        # part items (over 400 KB) is read with its parts by key and rewritten with them in
        # one transaction (Put and Delete); the ledger holds the migration's position and the
        # active model.
        table_actions={
            "episodes": (
                "dynamodb:Scan",
                "dynamodb:GetItem",
                "dynamodb:BatchGetItem",
                "dynamodb:UpdateItem",
                "dynamodb:PutItem",
                "dynamodb:DeleteItem",
            ),
            "facts": ("dynamodb:Scan", "dynamodb:UpdateItem"),
            "ledger": ("dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:DeleteItem"),
        },
    ),
)
# With an LLM, extraction is one model call; without, it is a deterministic pass.
LLM_EXTRACT_TIMEOUT_SECONDS = 90


class Functions(Construct):
    """One function per spec, arm64 with X-Ray, on one layer (Powertools + ``agent_memory``).

    Every role is built here, bare: no managed policy, only the statements granted below.
    """

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        config: MemoryConfig,
        storage: Storage,
        knowledge_base: KnowledgeBase,
    ) -> None:
        super().__init__(scope, construct_id)
        self._config = config
        self._storage = storage
        self._kb = knowledge_base
        self.layer = self._build_layer(config.layer_path)
        self.pseudonym_key = self._build_pseudonym_key()
        self.roles = {spec.name: self._build_role(spec) for spec in SPECS}
        self.tenant_data = TenantDataAccess(
            self,
            "TenantData",
            principals=[self.roles[s.name] for s in SPECS if s.tenant_scoped],
            tables=[(storage.designs[n], t) for n, t in storage.tables.items()],
            bucket=storage.documents,
            prefix=KB_PREFIX,
        )
        self.functions = {spec.name: self._build_function(spec) for spec in SPECS}
        for spec in SPECS:
            self._grant(spec, self.roles[spec.name])

    def __getitem__(self, name: str) -> lambda_.Function:
        return self.functions[name]

    def _build_layer(self, path: Path) -> lambda_.LayerVersion:
        return lambda_.LayerVersion(
            self,
            "Dependencies",
            code=lambda_.Code.from_asset(str(path)),
            compatible_runtimes=[RUNTIME],
            compatible_architectures=[ARCHITECTURE],
            description="aws-lambda-powertools, langchain-aws, pydantic, numpy and agent_memory",
            removal_policy=RemovalPolicy.RETAIN,
        )

    def _build_pseudonym_key(self) -> secretsmanager.Secret:
        # Generated in the account, never in the template; kept if the stack is deleted, since
        # without it new pseudonyms no longer match the ones memory holds.
        secret = secretsmanager.Secret(
            self,
            "PseudonymKey",
            description=(
                "HMAC key of name pseudonyms in scrubbed memory, and of serving receipts "
                "(derived; never rotate)"
            ),
            generate_secret_string=secretsmanager.SecretStringGenerator(
                password_length=64, exclude_punctuation=True
            ),
            removal_policy=RemovalPolicy.RETAIN,
        )
        acknowledge(
            secret,
            "SMG4",
            "An HMAC key for pseudonyms must stay fixed: a rotated key would give a person a "
            "new pseudonym, splitting what memory knows of them (and void the serving "
            "receipts signed with the key derived from it). Only the roles of bootstrap, scrub "
            "and propose_procedure can read it.",
        )
        return secret

    def _build_role(self, spec: FunctionSpec) -> iam.Role:
        role = iam.Role(
            self,
            f"{spec.construct_id}Role",
            assumed_by=iam.ServicePrincipal("lambda.amazonaws.com"),
            description=f"Lambda {spec.name}",
        )
        reason = "X-Ray PutTraceSegments/PutTelemetryRecords have no resource-level permissions."
        if self._calls_comprehend(spec):
            reason += " Comprehend DetectPiiEntities has none either (an API, not a resource)."
        if self._reranks(spec):
            reason += " Nor has bedrock:Rerank; InvokeModel, which it needs too, names the model."
        acknowledge(role, "IAM5", reason, findings=["Resource::*"])
        return role

    def _build_function(self, spec: FunctionSpec) -> lambda_.Function:
        source = FUNCTIONS_DIR / spec.name
        if not (source / "handler.py").is_file():
            raise FileNotFoundError(f"{source / 'handler.py'} is missing")
        role = self.roles[spec.name]
        log_group = logs.LogGroup(
            self,
            f"{spec.construct_id}Logs",
            retention=logs.RetentionDays.ONE_MONTH,
            removal_policy=RemovalPolicy.DESTROY,
        )
        log_group.grant_write(role)
        function = lambda_.Function(
            self,
            spec.construct_id,
            description=spec.description,
            runtime=RUNTIME,
            architecture=ARCHITECTURE,
            handler="handler.handler",
            code=lambda_.Code.from_asset(str(source), exclude=["__pycache__", "*.pyc"]),
            layers=[self.layer],
            role=role,
            environment=self._environment(spec),
            timeout=Duration.seconds(self._timeout(spec)),
            memory_size=spec.memory_mb,
            tracing=lambda_.Tracing.ACTIVE,
            log_group=log_group,
            reserved_concurrent_executions=(
                1 if spec.async_invocation and spec.async_invocation.single else None
            ),
        )
        if spec.async_invocation is not None:
            function.configure_async_invoke(
                retry_attempts=spec.async_invocation.retries,
                max_event_age=Duration.seconds(spec.async_invocation.max_event_age_seconds),
                on_failure=QueueDestination(self._storage.undelivered_events),
            )
        return function

    def _timeout(self, spec: FunctionSpec) -> int:
        if spec.name == "extract" and self._config.chat_model_id:
            return LLM_EXTRACT_TIMEOUT_SECONDS
        return spec.timeout_seconds

    def _environment(self, spec: FunctionSpec) -> dict[str, str]:
        tables = self._storage.tables
        env = {
            "EPISODES_TABLE": tables["episodes"].table_name,
            "FACTS_TABLE": tables["facts"].table_name,
            "PROCEDURES_TABLE": tables["procedures"].table_name,
            "LEDGER_TABLE": tables["ledger"].table_name,
            "KB_BUCKET": self._storage.documents.bucket_name,
            "KNOWLEDGE_BASE_ID": self._kb.knowledge_base_id,
            "KB_DATA_SOURCE_ID": self._kb.data_source_id,
            "EMBEDDING_MODEL_ID": EMBEDDING_MODEL_ID,
            "POWERTOOLS_SERVICE_NAME": SERVICE_NAME,
            "POWERTOOLS_METRICS_NAMESPACE": metrics_namespace(Stack.of(self)),
            "POWERTOOLS_LOG_LEVEL": self._config.log_level,
            # Responses carry tenant text (extract's is not even scrubbed yet): keep it out of
            # trace metadata.
            "POWERTOOLS_TRACER_CAPTURE_RESPONSE": "false",
            # The function's own timeout: its AWS clients' timeouts and retries fit inside it.
            "FUNCTION_TIMEOUT_SECONDS": str(self._timeout(spec)),
        }
        if spec.tenant_scoped:
            env["TENANT_ROLE_ARN"] = self.tenant_data.role.role_arn
            # The session policy narrows the role to these tables' tenant-prefixed keys.
            env["TENANT_TABLE_ARNS"] = ",".join(t.table_arn for t in tables.values())
        if spec.name == "extract":
            env["CHAT_MODEL_ID"] = self._config.chat_model_id
        if spec.scrubs_pii or spec.checks_receipts:
            env["PSEUDONYM_SECRET_ARN"] = self.pseudonym_key.secret_arn
        if spec.scrubs_pii:
            env["PII_DETECTOR"] = self._config.pii_detector.value
        if spec.scrubs_pii and self._config.pii_regions:
            env["PII_REGIONS"] = ",".join(self._config.pii_regions)
        if self._reranks(spec):
            env["RERANK_MODEL_ARN"] = self._config.rerank_model_arn
        return env

    def _calls_comprehend(self, spec: FunctionSpec) -> bool:
        """Whether ``spec``'s function calls Comprehend: a scrubbing one, under ``comprehend``."""
        return spec.scrubs_pii and self._config.pii_detector is PiiDetectorChoice.COMPREHEND

    def _reranks(self, spec: FunctionSpec) -> bool:
        """Whether ``spec``'s function orders episodes with a reranker: bootstrap, if set."""
        return spec.name == "bootstrap" and bool(self._config.rerank_model_arn)

    def _grant(self, spec: FunctionSpec, role: iam.Role) -> None:
        if spec.embeds:
            role.add_to_policy(
                iam.PolicyStatement(
                    actions=["bedrock:InvokeModel"],
                    resources=[foundation_model_arn(self, EMBEDDING_MODEL_ID)],
                )
            )
        for table_name, actions in (spec.table_actions or {}).items():
            self._grant_table(role, table_name, actions)
        for table_name, indexes in (spec.index_queries or {}).items():
            self._grant_index_queries(role, table_name, indexes)
        if self._calls_comprehend(spec):
            self._grant_pii_detection(role)
        if spec.scrubs_pii or spec.checks_receipts:
            self.pseudonym_key.grant_read(role)
        grants = {
            "bootstrap": self._grant_retrieve,
            # At a fact's promotion, semantic.find_conflict asks the KB for a contradicting
            # fact: without Retrieve every promotion would dead-letter, replays included.
            "confirm_facts": self._grant_retrieve,
            "extract": self._grant_chat_model,
            "ingest": self._grant_ingestion,
        }
        if spec.name in grants:
            grants[spec.name](role)
        if self._reranks(spec):
            self._grant_reranker(role)

    def _grant_table(self, role: iam.Role, logical_name: str, actions: tuple[str, ...]) -> None:
        # The table only: item actions are authorized on it, never on an index.
        table = self._storage.tables[logical_name]
        role.add_to_policy(iam.PolicyStatement(actions=list(actions), resources=[table.table_arn]))

    def _grant_index_queries(
        self, role: iam.Role, logical_name: str, indexes: tuple[str, ...]
    ) -> None:
        table = self._storage.tables[logical_name]
        design = self._storage.designs[logical_name]
        for name in indexes:
            design.index(name)  # KeyError for an index the table does not have
        role.add_to_policy(
            iam.PolicyStatement(
                actions=["dynamodb:Query"],
                resources=[f"{table.table_arn}/index/{n}" for n in indexes],
            )
        )

    def _grant_retrieve(self, role: iam.Role) -> None:
        # IAM cannot narrow Retrieve by tenant: the adapter's mandatory tenant_id filter does.
        role.add_to_policy(
            iam.PolicyStatement(
                actions=["bedrock:Retrieve"], resources=[self._kb.knowledge_base_arn]
            )
        )

    def _grant_reranker(self, role: iam.Role) -> None:
        # Rerank is an API without a resource; the model it runs is named by InvokeModel.
        role.add_to_policy(iam.PolicyStatement(actions=["bedrock:Rerank"], resources=["*"]))
        role.add_to_policy(
            iam.PolicyStatement(
                actions=["bedrock:InvokeModel"], resources=[self._config.rerank_model_arn]
            )
        )

    def _grant_chat_model(self, role: iam.Role) -> None:
        model_id = self._config.chat_model_id
        if not model_id:
            return
        for statement in invoke_statements(self, model_id):
            role.add_to_policy(statement)
        if is_inference_profile(model_id):
            model = model_id.split(".", 1)[1]
            acknowledge(
                role,
                "IAM5",
                "A cross-Region inference profile may serve the model from any Region of its "
                "geography; the bedrock:InferenceProfileArn condition pins it to this profile.",
                findings=resource_findings(role, foundation_model_arn(role, model, region="*")),
            )

    def _grant_pii_detection(self, role: iam.Role) -> None:
        role.add_to_policy(
            iam.PolicyStatement(actions=["comprehend:DetectPiiEntities"], resources=["*"])
        )

    def _grant_ingestion(self, role: iam.Role) -> None:
        # GetKnowledgeBaseDocuments names the documents a COMPLETE job failed to index (its
        # statistics only count them); the ingest function then writes those documents again
        # (the next sync only processes added or modified ones), under tenants/ only.
        role.add_to_policy(
            iam.PolicyStatement(
                actions=[
                    "bedrock:StartIngestionJob",
                    "bedrock:GetIngestionJob",
                    "bedrock:GetKnowledgeBaseDocuments",
                ],
                resources=[self._kb.knowledge_base_arn],
            )
        )
        from stacks.nag import logical_id  # (kept local: this method is the ingest grant)

        documents = self._storage.documents
        role.add_to_policy(
            iam.PolicyStatement(
                actions=["s3:PutObject"], resources=[documents.arn_for_objects(f"{KB_PREFIX}*")]
            )
        )
        acknowledge(
            role,
            "IAM5",
            "The ingestion window rewrites the KB documents that failed to ingest, of any "
            "tenant (it is the cross-tenant batch job), under the tenants/ prefix only.",
            findings=[f"Resource::<{logical_id(documents)}.Arn>/{KB_PREFIX}*"],
        )
