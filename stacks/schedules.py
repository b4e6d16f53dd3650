"""The two schedules: the nightly decay pass and the batched KB ingestion window."""

from __future__ import annotations

from aws_cdk import Stack
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_scheduler as scheduler
from constructs import Construct

DECAY_SCHEDULE = "cron(0 3 * * ? *)"  # 03:00 UTC
INGESTION_SCHEDULE = "rate(5 minutes)"

_Schedule = scheduler.CfnSchedule


class Schedules(Construct):
    """EventBridge Scheduler schedules invoking ``decay`` nightly and ``ingest`` every window.

    L1 schedules with one role of their own: the L2 target grants ``InvokeFunction`` on every
    version (``<arn>:*``), this role only on the two unqualified functions. Neither schedule
    keeps a dead-letter queue: each run redoes whatever the previous one left, so a missed
    invocation is caught up by the next (errors still show in the functions' metrics).
    """

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        decay: lambda_.IFunction,
        ingest: lambda_.IFunction,
    ) -> None:
        super().__init__(scope, construct_id)
        self.role = self._build_role([decay, ingest])
        self.decay = self._build_schedule(
            "NightlyDecay",
            "Forget what the decay policy says to forget",
            DECAY_SCHEDULE,
            decay,
            _Schedule.RetryPolicyProperty(
                maximum_retry_attempts=2, maximum_event_age_in_seconds=2 * 3600
            ),
        )
        # A window that could not run is simply the next window's work: no retries pile up.
        self.ingestion = self._build_schedule(
            "KbIngestion",
            "One batched knowledge-base ingestion job per window",
            INGESTION_SCHEDULE,
            ingest,
            _Schedule.RetryPolicyProperty(
                maximum_retry_attempts=0, maximum_event_age_in_seconds=240
            ),
        )

    def _build_role(self, functions: list[lambda_.IFunction]) -> iam.Role:
        stack = Stack.of(self)
        role = iam.Role(
            self,
            "InvokeRole",
            description="EventBridge Scheduler: invoke the decay and ingestion functions",
            assumed_by=iam.ServicePrincipal(
                "scheduler.amazonaws.com",
                conditions={"StringEquals": {"aws:SourceAccount": stack.account}},
            ),
        )
        role.add_to_policy(
            iam.PolicyStatement(
                actions=["lambda:InvokeFunction"], resources=[f.function_arn for f in functions]
            )
        )
        return role

    def _build_schedule(
        self,
        construct_id: str,
        description: str,
        expression: str,
        function: lambda_.IFunction,
        retry: _Schedule.RetryPolicyProperty,
    ) -> scheduler.CfnSchedule:
        return _Schedule(
            self,
            construct_id,
            description=description,
            schedule_expression=expression,
            schedule_expression_timezone="UTC",
            flexible_time_window=_Schedule.FlexibleTimeWindowProperty(mode="OFF"),
            target=_Schedule.TargetProperty(
                arn=function.function_arn, role_arn=self.role.role_arn, retry_policy=retry
            ),
        )
