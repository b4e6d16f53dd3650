"""What an agent needs to use the memory, as one managed policy to attach to its role.

An agent puts RunFinished events on the bus, invokes bootstrap, and invokes the episodes
function (reading, listing and forgetting its tenant's runs one at a time: what LangGraph's
``store.get`` / ``put`` / ``delete`` do); nothing else. The policy
is an output (``AgentPolicyArn``), so a deployer attaches it instead of writing one. Under
principal-tag tenancy the agent's role also needs its ``tenant_id`` tag.
"""

from __future__ import annotations

from aws_cdk import aws_events as events
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from constructs import Construct

from stacks.consolidation import DETAIL_TYPE


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
            ],
        )
