"""What an agent needs to use the memory, as one managed policy to attach to its role.

An agent puts RunFinished events on the bus, invokes bootstrap, and invokes the episodes
function (reading, listing and forgetting its tenant's runs one at a time: what LangGraph's
``store.get`` / ``put`` / ``delete`` do), and reads the stack's outputs to find them
(``MemoryClient.aws_from_stack``); nothing else. The policy
is an output (``AgentPolicyArn``), so a deployer attaches it instead of writing one. Under
principal-tag tenancy the agent's role also needs its ``tenant_id`` tag.
"""

from __future__ import annotations

from aws_cdk import Stack
from aws_cdk import aws_events as events
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from constructs import Construct

from stacks.consolidation import DETAIL_TYPE
from stacks.nag import acknowledge, resource_findings


class AgentAccess(Construct):
    """The managed policy an agent's role needs: PutEvents on the bus, Invoke on bootstrap and
    on the episodes function.
    """

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        bus: events.IEventBus,
        bootstrap: lambda_.IFunction,
        episodes: lambda_.IFunction,
    ) -> None:
        super().__init__(scope, construct_id)
        stack = Stack.of(self)
        stack_arn = stack.format_arn(
            service="cloudformation", resource="stack", resource_name=f"{stack.stack_name}/*"
        )
        self.policy = iam.ManagedPolicy(
            self,
            "Policy",
            description=(
                "agent-memory: report finished runs, ask for memory at a run's start, read "
                "and forget single episodes"
            ),
            statements=[
                iam.PolicyStatement(
                    sid="ReportFinishedRuns",
                    actions=["events:PutEvents"],
                    resources=[bus.event_bus_arn],
                    conditions={"StringEquals": {"events:detail-type": DETAIL_TYPE}},
                ),
                iam.PolicyStatement(
                    sid="AskForMemory",
                    actions=["lambda:InvokeFunction"],
                    resources=[bootstrap.function_arn],
                ),
                iam.PolicyStatement(
                    sid="ReadAndForgetEpisodes",
                    actions=["lambda:InvokeFunction"],
                    resources=[episodes.function_arn],
                ),
                # MemoryClient.aws_from_stack reads the stack's outputs (the bus, the
                # functions' names); a stack's ARN ends in its id, unknown until it exists.
                iam.PolicyStatement(
                    sid="FindTheMemory",
                    actions=["cloudformation:DescribeStacks"],
                    resources=[stack_arn],
                ),
            ],
        )
        acknowledge(
            self.policy,
            "IAM5",
            "This stack only: its ARN ends in an id CloudFormation assigns at creation.",
            findings=resource_findings(self.policy, stack_arn),
        )
