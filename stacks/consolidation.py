"""Consolidation: the RunFinished bus (archived), its rule, the state machine it starts, and the
rule that records the executions which end without running their Catch.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path

from aws_cdk import ArnFormat, Duration, RemovalPolicy, Stack
from aws_cdk import aws_events as events
from aws_cdk import aws_events_targets as targets
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from aws_cdk import aws_sqs as sqs
from aws_cdk import aws_stepfunctions as sfn
from constructs import Construct

from agent_memory.core.workflows.consolidation import INCOMPLETE_AFTER_SECONDS
from stacks.config import ROOT
from stacks.nag import acknowledge, resource_findings

DEFINITION = ROOT / "statemachines" / "consolidation.asl.json"
DETAIL_TYPE = "RunFinished"
# The ASL's Lambda tasks, by the name of the function they invoke.
STEP_FUNCTIONS = (
    "extract",
    "scrub",
    "write_episode",
    "confirm_facts",
    "stage_kb_docs",
    "propose_procedure",
    "record_failure",
)
DEAD_LETTER_QUEUE_URL = "DeadLetterQueueUrl"
# Replays are for runs that failed within the dead-letter queue's 14 days; keeping raw events
# (which still hold unscrubbed text) longer would outlive their purpose.
ARCHIVE_RETENTION = Duration.days(14)
_PLACEHOLDER = re.compile(r"\$\{([^}]*)\}")
# A whole execution's bound is the ASL's own TimeoutSeconds (CDK drops the construct's
# ``timeout`` for a definition given as a string). The core lists a run started longer ago
# and not consolidated as incomplete: by then no execution can still be working on it.
WORKFLOW_TIMEOUT_SECONDS = INCOMPLETE_AFTER_SECONDS
# Step Functions' event for an execution's end, on the account's default bus
# (eb-integration-events.html in the Step Functions guide). These three end an execution that
# may not have run its Catch: a timeout or an abort never does.
EXECUTION_STATUS_CHANGE = "Step Functions Execution Status Change"
UNFINISHED_STATUSES = ("TIMED_OUT", "ABORTED", "FAILED")


def bus_name(stack_name: str) -> str:
    """The RunFinished bus of the stack ``stack_name`` (one per stack, never shared)."""
    return f"{stack_name}-events"


def substitution_name(function_name: str) -> str:
    """``write_episode`` -> ``WriteEpisodeFunctionArn``, as the ASL spells its placeholders."""
    return "".join(part.title() for part in function_name.split("_")) + "FunctionArn"


def placeholders(definition: str) -> set[str]:
    """Every ``${Name}`` in an ASL definition."""
    return set(_PLACEHOLDER.findall(definition))


class Consolidation(Construct):
    """The state machine from ``statemachines/consolidation.asl.json``, the stack's RunFinished
    bus with an archive for replay, and the rule that starts one execution per RunFinished.
    """

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        functions: Mapping[str, lambda_.IFunction],
        failed_runs: sqs.IQueue,
        undelivered_events: sqs.IQueue,
        definition: Path = DEFINITION,
        with_source: bool = False,
    ) -> None:
        super().__init__(scope, construct_id)
        self._with_source = with_source
        steps = [functions[name] for name in STEP_FUNCTIONS]
        self.state_machine = self._build_state_machine(
            definition, _substitutions(definition, functions, failed_runs)
        )
        self._grant_steps(steps, failed_runs)
        self._grant_reading_executions(functions["record_failure"])
        self.bus = self._build_bus()
        self.archive = self._build_archive()
        self.rule = self._build_rule(undelivered_events)
        self.unfinished_rule = self._build_unfinished_rule(
            functions["record_failure"], undelivered_events
        )

    def _build_state_machine(
        self, definition: Path, substitutions: dict[str, str]
    ) -> sfn.StateMachine:
        return sfn.StateMachine(
            self,
            "StateMachine",
            comment="RunFinished -> episodic, semantic and procedural memory",
            definition_body=sfn.DefinitionBody.from_string(definition.read_text()),
            definition_substitutions=substitutions,
            state_machine_type=sfn.StateMachineType.STANDARD,
            tracing_enabled=True,
            logs=sfn.LogOptions(
                destination=logs.LogGroup(
                    self,
                    "ExecutionLogs",
                    retention=logs.RetentionDays.ONE_MONTH,
                    removal_policy=RemovalPolicy.DESTROY,
                ),
                level=sfn.LogLevel.ALL,
                # State data is the raw event and Extract's unscrubbed output: never logged.
                include_execution_data=False,
            ),
        )

    def _grant_steps(self, steps: list[lambda_.IFunction], dlq: sqs.IQueue) -> None:
        machine = self.state_machine
        # Exactly the unqualified ARNs the ASL invokes (grant_invoke would add every version).
        machine.add_to_role_policy(
            iam.PolicyStatement(
                actions=["lambda:InvokeFunction"], resources=[fn.function_arn for fn in steps]
            )
        )
        machine.add_to_role_policy(
            iam.PolicyStatement(actions=["sqs:SendMessage"], resources=[dlq.queue_arn])
        )
        acknowledge(
            machine.role,
            "IAM5",
            "CloudWatch Logs delivery and X-Ray APIs have no resource-level permissions.",
            findings=["Resource::*"],
        )

    def _grant_reading_executions(self, recorder: lambda_.IFunction) -> None:
        """record_failure reads a failed run's event back from its execution (the state machine
        sends it only the execution's ARN and the error, so its input stays small).

        A policy of its own, not the role's default one: the function depends on that one, and
        the state machine on the function, so naming the state machine there would be a cycle.
        """
        assert recorder.role is not None
        executions = Stack.of(self).format_arn(
            service="states",
            resource="execution",
            resource_name=f"{self.state_machine.state_machine_name}:*",
            arn_format=ArnFormat.COLON_RESOURCE_NAME,
        )
        policy = iam.Policy(
            self,
            "RecordFailureReadsExecutions",
            roles=[recorder.role],
            statements=[
                iam.PolicyStatement(actions=["states:DescribeExecution"], resources=[executions])
            ],
        )
        acknowledge(
            policy,
            "IAM5",
            "Executions of this state machine only: their names are not known in advance.",
            findings=resource_findings(policy, executions),
        )

    def _cfn_machine(self) -> sfn.CfnStateMachine:
        cfn = self.state_machine.node.default_child
        assert isinstance(cfn, sfn.CfnStateMachine)
        return cfn

    def _build_bus(self) -> events.EventBus:
        # Named after the stack, so a second stack in the account and Region has its own bus;
        # callers read the name from the EventBusName output.
        return events.EventBus(self, "Bus", event_bus_name=bus_name(Stack.of(self).stack_name))

    def _build_archive(self) -> events.Archive:
        archive = self.bus.archive(
            "Archive",
            description="RunFinished events, for replay after a fix",
            event_pattern=events.EventPattern(detail_type=[DETAIL_TYPE]),
            retention=ARCHIVE_RETENTION,
        )
        # CDK writes KmsKeyIdentifier "" when no key is given (aws/aws-cdk#37847), which
        # CloudFormation rejects in some Regions; absent, the archive uses an AWS owned key.
        cfn = archive.node.default_child
        assert isinstance(cfn, events.CfnArchive)
        if not cfn.kms_key_identifier:
            cfn.add_property_deletion_override("KmsKeyIdentifier")
        return archive

    def _rule_input(self) -> events.RuleTargetInput:
        """The detail; with ``with_source`` (principal-tag tenancy), the detail and its source,
        which the bus policy bound to the caller's tenant tag and extract checks (a few bytes
        within the SDK's 1 KiB margin).
        """
        if not self._with_source:
            return events.RuleTargetInput.from_event_path("$.detail")
        return events.RuleTargetInput.from_object(
            {"source": events.EventField.source, "detail": events.EventField.from_path("$.detail")}
        )

    def _build_rule(self, undelivered_events: sqs.IQueue) -> events.Rule:
        # The detail alone is the input: PutEvents admitted it within 256 KB with its source
        # and detail-type, so it fits Step Functions' 256 KiB input; the envelope would not
        # (eb-putevent-size.html, limits-overview.html). Consolidation reads nothing else.
        return events.Rule(
            self,
            "RunFinishedRule",
            description="Consolidate every finished run",
            event_bus=self.bus,
            event_pattern=events.EventPattern(detail_type=[DETAIL_TYPE]),
            targets=[
                targets.SfnStateMachine(
                    self.state_machine,
                    input=self._rule_input(),
                    dead_letter_queue=undelivered_events,
                    retry_attempts=185,
                    max_event_age=Duration.hours(24),
                )
            ],
        )

    def _build_unfinished_rule(
        self, recorder: lambda_.IFunction, undelivered_events: sqs.IQueue
    ) -> events.Rule:
        """Executions of this state machine that timed out, were aborted, or failed are
        recorded as failed runs by ``record_failure``, which reads the run's event back from
        the execution (``states:DescribeExecution``, granted above). One its Catch already
        recorded counts once: the record names its execution.
        """
        return events.Rule(
            self,
            "UnfinishedExecutionsRule",
            description="Record consolidations that ended without their Catch (timeout, abort)",
            event_pattern=events.EventPattern(
                source=["aws.states"],
                detail_type=[EXECUTION_STATUS_CHANGE],
                detail={
                    "stateMachineArn": [self.state_machine.state_machine_arn],
                    "status": list(UNFINISHED_STATUSES),
                },
            ),
            targets=[
                targets.LambdaFunction(
                    recorder,
                    event=events.RuleTargetInput.from_object(
                        {
                            "execution": events.EventField.from_path("$.detail.executionArn"),
                            "error": {
                                "Error": events.EventField.from_path("$.detail.status"),
                                "Cause": "the execution ended before its last step",
                            },
                        }
                    ),
                    dead_letter_queue=undelivered_events,
                    retry_attempts=185,
                    max_event_age=Duration.hours(24),
                )
            ],
        )


def _substitutions(
    definition: Path, functions: Mapping[str, lambda_.IFunction], dlq: sqs.IQueue
) -> dict[str, str]:
    """A value for every ``${…}`` of the ASL, and no value without its placeholder."""
    values = {substitution_name(name): functions[name].function_arn for name in STEP_FUNCTIONS}
    values[DEAD_LETTER_QUEUE_URL] = dlq.queue_url
    timeout = json.loads(definition.read_text()).get("TimeoutSeconds")
    if timeout != WORKFLOW_TIMEOUT_SECONDS:
        raise ValueError(
            f"{definition.name}: TimeoutSeconds is {timeout}, not the {WORKFLOW_TIMEOUT_SECONDS} "
            "after which the core lists a run as incomplete"
        )
    found = placeholders(definition.read_text())
    missing, unused = found - values.keys(), values.keys() - found
    if missing or unused:
        raise ValueError(
            f"{definition.name}: no value for {sorted(missing)}, "
            f"no placeholder for {sorted(unused)}"
        )
    return values
