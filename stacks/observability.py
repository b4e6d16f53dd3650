"""Observability: the dashboard of the four tiers and the pipeline, alarms, and their topic."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from aws_cdk import ArnFormat, Duration, RemovalPolicy, Stack
from aws_cdk import aws_cloudwatch as cw
from aws_cdk import aws_cloudwatch_actions as cw_actions
from aws_cdk import aws_iam as iam
from aws_cdk import aws_kms as kms
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from aws_cdk import aws_sns as sns
from aws_cdk import aws_sqs as sqs
from aws_cdk import aws_stepfunctions as sfn
from constructs import Construct

from stacks.consolidation import STEP_FUNCTIONS
from stacks.functions import SERVICE_NAME, SPECS, metrics_namespace

ALARM_PERIOD = Duration.minutes(5)
# The ingest schedule runs one window every 5 minutes (stacks/schedules.py): six periods are
# six windows in a row.
INGESTION_WINDOWS = 6
# Facts still waiting in every one of those windows before the backlog is an incident.
BACKLOG_FACTS = 100
# Bootstrap is on the agent's path: its p99 (Lambda's own Duration) over three periods.
BOOTSTRAP_P99_MS = 3_000
BOOTSTRAP_PERIODS = 3
# What the Comprehend adapter logs when a call stays throttled after botocore's retries
# (the agent_memory.adapters.aws.comprehend_pii module logs it; a test checks they agree).
COMPREHEND_THROTTLED_LOG = "comprehend throttled"
# Every function that scrubs may call Comprehend (under piiDetector=comprehend).
PII_FUNCTIONS = tuple(spec.name for spec in SPECS if spec.scrubs_pii)
GRAPH_PERIOD = Duration.minutes(5)
# The store gauges are emitted once a night, by the decay function after its pass.
GAUGE_PERIOD = Duration.days(1)

EPISODE_GAUGES = (
    "StoredEpisodesCompleted",
    "StoredEpisodesPartial",
    "StoredEpisodesFailed",
    "StoredEpisodesUnknown",
)
FACT_GAUGES = (
    "StoredFactsPending",
    "StoredFactsConfirmed",
    "StoredFactsContested",
    "StoredFactsRetracted",
    "StoredFactsAwaitingIngestion",
)
PROCEDURE_GAUGES = (
    "StoredProceduresPending",
    "StoredProceduresValidated",
    "StoredProceduresOnTrial",
    "StoredProceduresRejected",
    "StoredProceduresNeedsReview",
    "StoredProceduresRetired",
)


def memory_metric(
    namespace: str,
    name: str,
    *,
    statistic: str = "Sum",
    period: Duration = GRAPH_PERIOD,
    label: str = "",
) -> cw.Metric:
    """A metric the functions emit through Powertools (the stack's namespace, ``service``
    dimension).
    """
    return cw.Metric(
        namespace=namespace,
        metric_name=name,
        dimensions_map={"service": SERVICE_NAME},
        statistic=statistic,
        period=period,
        label=label or None,
    )


class Observability(Construct):
    """The alarms that need a human, notifying an encrypted SNS topic, and with ``dashboard``
    a CloudWatch dashboard (retrieval per tier, consolidation, ingestion, store gauges,
    failures): $3 a month beyond an account's first three, the largest part of what an idle
    stack costs, so it is the deployer's choice (``-c dashboard=true``).

    Alarms: a dead-letter queue holds messages (a failed run, or a RunFinished event never
    delivered), a consolidation failed or timed out, a KB ingestion job failed, a COMPLETE job
    failed documents (or they stay failed after every retry), the ingestion backlog or a busy
    data source lasts, bootstrap's p99 is slow, Comprehend stays throttled (only when the stack
    scrubs with it, ``comprehend``), and errors or throttles of every function outside the state
    machine. Consolidation steps are left to the execution alarms: the state machine retries
    their transient errors, and any that survive end in a failed execution (and a dead-letter
    message).
    """

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        functions: Mapping[str, lambda_.IFunction],
        state_machine: sfn.IStateMachine,
        failed_runs_queue: sqs.IQueue,
        undelivered_queue: sqs.IQueue,
        consolidation_steps: Collection[str] = STEP_FUNCTIONS,
        comprehend: bool = False,
        dashboard: bool = False,
    ) -> None:
        super().__init__(scope, construct_id)
        self._prefix = Stack.of(self).stack_name
        self._namespace = metrics_namespace(Stack.of(self))
        self._functions = functions
        self._state_machine = state_machine
        self._queues = {"FailedRuns": failed_runs_queue, "UndeliveredEvents": undelivered_queue}
        self.key = self._build_key()
        self.topic = self._build_topic()
        self.alarms: dict[str, cw.Alarm] = {}
        self._build_pipeline_alarms()
        self._build_ingestion_alarms()
        self._build_latency_alarm()
        if comprehend:
            self._build_comprehend_alarm()
        # Steps' errors end in failed executions, alarmed above; a function invoked
        # asynchronously (a rule's, a schedule's) has nobody waiting on it but its alarms.
        async_invoked = {spec.name for spec in SPECS if spec.async_invocation is not None}
        self._build_function_alarms(
            [n for n in functions if n not in consolidation_steps or n in async_invoked]
        )
        self.dashboard = self._build_dashboard() if dashboard else None

    def _alarm_source(self) -> dict[str, dict[str, str]]:
        """Conditions confining the CloudWatch service principal to this stack's alarms."""
        stack = Stack.of(self)
        alarms = stack.format_arn(
            service="cloudwatch",
            resource="alarm",
            resource_name=f"{self._prefix}-*",
            arn_format=ArnFormat.COLON_RESOURCE_NAME,
        )
        return {
            "StringEquals": {"aws:SourceAccount": stack.account},
            "ArnLike": {"aws:SourceArn": alarms},
        }

    def _metric(
        self, name: str, *, statistic: str = "Sum", period: Duration = GRAPH_PERIOD, label: str = ""
    ) -> cw.Metric:
        return memory_metric(self._namespace, name, statistic=statistic, period=period, label=label)

    def _build_key(self) -> kms.Key:
        # CloudWatch cannot publish to a topic under the AWS managed SNS key: it needs a
        # customer managed key whose policy lets it encrypt. The key serves this topic alone,
        # and the topic policy decides which alarms may publish; the key grant carries no
        # source conditions, since a KMS request that lacked them would drop every alarm.
        key = kms.Key(
            self,
            "AlarmTopicKey",
            description="agent-memory: encrypts the alarm notification topic",
            enable_key_rotation=True,
            pending_window=Duration.days(7),
            # Notifications are transient: nothing stays encrypted under this key.
            removal_policy=RemovalPolicy.DESTROY,
        )
        key.add_to_resource_policy(
            iam.PolicyStatement(
                principals=[iam.ServicePrincipal("cloudwatch.amazonaws.com")],
                actions=["kms:Decrypt", "kms:GenerateDataKey*"],
                resources=["*"],
            )
        )
        return key

    def _build_topic(self) -> sns.Topic:
        topic = sns.Topic(
            self,
            "AlarmTopic",
            display_name="agent-memory alarms",
            master_key=self.key,
            enforce_ssl=True,
        )
        # The topic policy replaces SNS's default one: CloudWatch must be allowed explicitly.
        topic.add_to_resource_policy(
            iam.PolicyStatement(
                principals=[iam.ServicePrincipal("cloudwatch.amazonaws.com")],
                actions=["sns:Publish"],
                resources=[topic.topic_arn],
                conditions=self._alarm_source(),
            )
        )
        return topic

    def _alarm(
        self,
        construct_id: str,
        metric: cw.IMetric,
        description: str,
        *,
        threshold: float = 0,
        periods: int = 1,
    ) -> cw.Alarm:
        """An alarm when ``metric`` exceeds ``threshold`` in ``periods`` periods in a row,
        notifying the topic both ways.
        """
        alarm = cw.Alarm(
            self,
            f"{construct_id}Alarm",
            alarm_name=f"{self._prefix}-{construct_id}",
            alarm_description=description,
            metric=metric,
            threshold=threshold,
            comparison_operator=cw.ComparisonOperator.GREATER_THAN_THRESHOLD,
            evaluation_periods=periods,
            datapoints_to_alarm=periods,
            treat_missing_data=cw.TreatMissingData.NOT_BREACHING,
        )
        action = cw_actions.SnsAction(self.topic)
        alarm.add_alarm_action(action)
        alarm.add_ok_action(action)
        self.alarms[construct_id] = alarm
        return alarm

    def _build_pipeline_alarms(self) -> None:
        machine = self._state_machine
        self._alarm(
            "FailedRunsWaiting",
            self._queue_depth("FailedRuns"),
            "Consolidations failed after their retries and wait in the dead-letter queue: fix "
            "the cause, re-send each message's event to the bus (every step is idempotent per "
            "run_id), then delete the message.",
        )
        self._alarm(
            "UndeliveredEvents",
            self._queue_depth("UndeliveredEvents"),
            "EventBridge could not start consolidations (RunFinished events), or an "
            "asynchronous invocation (record_failure, ingest, decay) failed after its "
            "retries: the message holds the event or the invocation record.",
        )
        self._alarm(
            "ConsolidationFailed",
            machine.metric_failed(period=ALARM_PERIOD, statistic="Sum"),
            "A consolidation execution failed (its run is recorded for replay).",
        )
        self._alarm(
            "ConsolidationAborted",
            machine.metric_aborted(period=ALARM_PERIOD, statistic="Sum"),
            "A consolidation execution was aborted (by a person or a deployment): its run is "
            "recorded for replay by the unfinished-executions rule; replay it once the cause "
            "is known.",
        )
        self._alarm(
            "ConsolidationTimedOut",
            machine.metric_timed_out(period=ALARM_PERIOD, statistic="Sum"),
            "A consolidation execution timed out: no Catch ran; the unfinished-executions rule "
            "records its run for replay (agent-memory failed list).",
        )
        self._alarm(
            "IngestionJobsFailed",
            self._metric("IngestionJobsFailed", period=ALARM_PERIOD),
            "A knowledge-base ingestion job failed: confirmed facts stay on the fast path "
            "until a later job succeeds.",
        )

    def _build_ingestion_alarms(self) -> None:
        self._alarm(
            "KbDocumentsFailed",
            self._metric("KbDocumentsFailed", period=ALARM_PERIOD),
            "A COMPLETE ingestion job could not index some documents: their facts stay on the "
            "fast path and their documents are written again for the next jobs. The ingest "
            "function's log names each document and Bedrock's reason.",
        )
        self._alarm(
            "KbDocumentsStuck",
            memory_metric(
                self._namespace, "FactsIngestionStuck", statistic="Maximum", period=ALARM_PERIOD
            ),
            "Documents failed to ingest after every retry: their facts are served from the "
            "fast path only. Fix the cause (the ingest log names the documents), then ask for "
            "an ingestion (agent-memory ingest).",
        )
        self._alarm(
            "IngestionBacklog",
            memory_metric(
                self._namespace, "FactsAwaitingIngestion", statistic="Minimum", period=ALARM_PERIOD
            ),
            f"More than {BACKLOG_FACTS} facts have waited for the knowledge base in every "
            f"ingestion window for {INGESTION_WINDOWS * 5} minutes: jobs fail, stay busy or "
            "cannot keep up. They are served from the fast path meanwhile.",
            threshold=BACKLOG_FACTS,
            periods=INGESTION_WINDOWS,
        )
        self._alarm(
            "IngestionBusy",
            memory_metric(
                self._namespace, "IngestionBusy", statistic="Minimum", period=ALARM_PERIOD
            ),
            f"Every ingestion window for {INGESTION_WINDOWS * 5} minutes found a job still "
            "running (or another sync of the data source): check the job in the Bedrock "
            "console.",
            periods=INGESTION_WINDOWS,
        )

    def _build_latency_alarm(self) -> None:
        bootstrap = self._functions.get("bootstrap")
        if bootstrap is None:
            return
        self._alarm(
            "BootstrapLatencyP99",
            bootstrap.metric_duration(period=ALARM_PERIOD, statistic="p99"),
            f"Bootstrap's p99 duration stayed above {BOOTSTRAP_P99_MS} ms for "
            f"{BOOTSTRAP_PERIODS * 5} minutes: see the BootstrapLatency metrics per tier.",
            threshold=BOOTSTRAP_P99_MS,
            periods=BOOTSTRAP_PERIODS,
        )

    def _build_comprehend_alarm(self) -> None:
        # Comprehend publishes no throttling metric for DetectPiiEntities: the adapter logs
        # each call still throttled after botocore's retries, and a filter counts the lines.
        for name in PII_FUNCTIONS:
            function = self._functions.get(name)
            if not isinstance(function, lambda_.Function):
                continue
            logs.MetricFilter(
                self,
                f"{_pascal(name)}ComprehendThrottled",
                log_group=function.log_group,
                metric_namespace=self._namespace,
                metric_name="ComprehendThrottled",
                filter_pattern=logs.FilterPattern.any_term(COMPREHEND_THROTTLED_LOG),
                metric_value="1",
                default_value=0,
            )
        self._alarm(
            "ComprehendThrottled",
            cw.Metric(
                namespace=self._namespace,
                metric_name="ComprehendThrottled",
                statistic="Sum",
                period=ALARM_PERIOD,
            ),
            "Comprehend DetectPiiEntities stayed throttled after retries: scrub steps retry "
            "(or dead-letter) and bootstraps fail. Ask for a higher DetectPiiEntities quota.",
        )

    def _build_function_alarms(self, names: Sequence[str]) -> None:
        for name in names:
            function, label = self._functions[name], _pascal(name)
            self._alarm(
                f"{label}Errors",
                function.metric_errors(period=ALARM_PERIOD, statistic="Sum"),
                f"The {name} function failed.",
            )
            self._alarm(
                f"{label}Throttles",
                function.metric_throttles(period=ALARM_PERIOD, statistic="Sum"),
                f"The {name} function was throttled (concurrency exhausted).",
            )

    def _queue_depth(self, queue: str) -> cw.Metric:
        return self._queues[queue].metric_approximate_number_of_messages_visible(
            period=ALARM_PERIOD, statistic="Maximum"
        )

    def _build_dashboard(self) -> cw.Dashboard:
        dashboard = cw.Dashboard(
            self,
            "Dashboard",
            dashboard_name=self._prefix,
            default_interval=Duration.days(7),
        )
        for row in (
            self._status_row(),
            self._retrieval_row(),
            self._consolidation_row(),
            self._ingestion_row(),
            self._store_row(),
            self._failure_row(),
        ):
            dashboard.add_widgets(*row)
        return dashboard

    def _status_row(self) -> list[cw.IWidget]:
        return [
            cw.TextWidget(
                markdown=(
                    "# agent-memory\nRetrieval per tier (bootstrap), consolidation, KB "
                    "ingestion, what the stores hold (nightly gauges) and what failed. "
                    "Alarms notify the AlarmTopicArn output's topic."
                ),
                width=8,
                height=4,
            ),
            cw.AlarmStatusWidget(
                title="Alarms", alarms=list(self.alarms.values()), width=16, height=4
            ),
        ]

    def _retrieval_row(self) -> list[cw.IWidget]:
        tiers = ("Episodic", "Semantic", "Procedural")
        return [
            _graph(
                "Retrieval hits per tier (per bootstrap)",
                [self._metric(f"{t}Hits", statistic="Average") for t in tiers],
            ),
            _graph(
                "Best score per tier",
                [self._metric(f"{t}BestScore", statistic="Average") for t in tiers[:2]],
                right=[self._metric("ProceduralSuccessRate", statistic="Average")],
            ),
            _graph(
                "Empty retrievals and fast-path facts",
                [
                    self._metric("EmptyRetrievals"),
                    self._metric("SemanticFastPathHits"),
                ],
            ),
            _graph(
                "Bootstrap latency (ms)",
                [
                    memory_metric(
                        self._namespace, "BootstrapLatency", statistic="p50", label="p50"
                    ),
                    memory_metric(
                        self._namespace, "BootstrapLatency", statistic="p95", label="p95"
                    ),
                    *(
                        memory_metric(
                            self._namespace, f"{t}Latency", statistic="p95", label=f"{t} p95"
                        )
                        for t in tiers
                    ),
                ],
            ),
        ]

    def _consolidation_row(self) -> list[cw.IWidget]:
        machine = self._state_machine
        return [
            _graph(
                "Consolidation executions",
                [
                    machine.metric_succeeded(period=GRAPH_PERIOD, statistic="Sum"),
                    machine.metric_failed(period=GRAPH_PERIOD, statistic="Sum"),
                    machine.metric_timed_out(period=GRAPH_PERIOD, statistic="Sum"),
                ],
                right=[self._metric("ConsolidationFailures")],
            ),
            _graph(
                "Runs, episodes and PII scrubbed",
                [
                    self._metric("RunsReceived"),
                    self._metric("EpisodesWritten"),
                ],
                right=[self._metric("PiiEntitiesScrubbed")],
            ),
            _graph(
                "Facts observed, confirmed, contested",
                [
                    self._metric("FactsObserved"),
                    self._metric("FactsConfirmed"),
                    self._metric("FactsContested"),
                    self._metric("KbDocumentsStaged"),
                ],
            ),
            _graph(
                "Procedures proposed and feedback",
                [
                    self._metric("ProceduresProposed"),
                    self._metric("ProcedureFeedbackCounted"),
                ],
            ),
        ]

    def _ingestion_row(self) -> list[cw.IWidget]:
        return [
            _graph(
                "KB ingestion windows",
                [
                    self._metric("IngestionJobsStarted"),
                    self._metric("IngestionBusy"),
                    self._metric("IngestionJobsFailed"),
                    self._metric("KbDocumentsFailed"),
                    self._metric("KbDocumentsRetried"),
                ],
                width=12,
            ),
            _graph(
                "Facts ingested, waiting and stuck",
                [self._metric("FactsIngested")],
                right=[
                    self._metric("FactsAwaitingIngestion", statistic="Maximum"),
                    self._metric("FactsIngestionStuck", statistic="Maximum"),
                ],
                width=12,
            ),
        ]

    def _store_row(self) -> list[cw.IWidget]:
        def gauges(names: Sequence[str]) -> list[cw.IMetric]:
            return [self._metric(n, statistic="Maximum", period=GAUGE_PERIOD) for n in names]

        decay = ("FailedEpisodesDeleted", "PendingFactsExpired", "ProceduresFlagged")
        return [
            _graph("Episodes stored, by outcome (nightly)", gauges(EPISODE_GAUGES), width=6),
            _graph("Facts stored, by status (nightly)", gauges(FACT_GAUGES), width=6),
            _graph("Procedures stored, by status (nightly)", gauges(PROCEDURE_GAUGES), width=6),
            _graph(
                "Decay: deleted, expired, flagged (nightly)",
                [self._metric(n, period=GAUGE_PERIOD) for n in decay],
                width=6,
            ),
        ]

    def _failure_row(self) -> list[cw.IWidget]:
        functions = self._functions.items()
        return [
            _graph(
                "Dead-letter queues (messages waiting)",
                [self._queue_depth(q).with_(label=f"{q} waiting") for q in self._queues],
                width=8,
            ),
            _graph(
                "Lambda errors",
                [
                    fn.metric_errors(period=GRAPH_PERIOD, statistic="Sum", label=name)
                    for name, fn in functions
                ],
                width=8,
            ),
            _graph(
                "Lambda throttles",
                [
                    fn.metric_throttles(period=GRAPH_PERIOD, statistic="Sum", label=name)
                    for name, fn in functions
                ],
                width=8,
            ),
        ]


def _graph(
    title: str,
    left: Sequence[cw.IMetric],
    *,
    right: Sequence[cw.IMetric] = (),
    width: int = 6,
) -> cw.GraphWidget:
    return cw.GraphWidget(title=title, left=list(left), right=list(right), width=width, height=6)


def _pascal(name: str) -> str:
    """``procedure_review`` -> ``ProcedureReview``."""
    return "".join(part.title() for part in name.split("_"))
