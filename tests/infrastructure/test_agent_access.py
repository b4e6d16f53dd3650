"""The agent policy: an agent's role may report runs to this stack's bus, invoke bootstrap
and the episodes function, and read this stack's outputs, and nothing else.
"""

from __future__ import annotations

import json

from stacks.memory_stack import MemoryStack
from tests.infrastructure.helpers import Resources, logical_id


def test_the_agent_policy_grants_put_events_bootstrap_and_episodes_only(
    stack: MemoryStack, resources: Resources
) -> None:
    # Given the managed policy the stack outputs for agents' roles
    policy = resources[logical_id(stack.agent_access.policy)]
    statements = {s["Sid"]: s for s in policy["Properties"]["PolicyDocument"]["Statement"]}
    # Then it has four statements: RunFinished events onto this stack's bus
    assert set(statements) == {
        "ReportFinishedRuns",
        "AskForMemory",
        "ReadAndForgetEpisodes",
        "FindTheMemory",
    }
    put = statements["ReportFinishedRuns"]
    assert (put["Effect"], put["Action"]) == ("Allow", "events:PutEvents")
    assert put["Resource"] == {"Fn::GetAtt": [logical_id(stack.consolidation.bus), "Arn"]}
    assert put["Condition"] == {"StringEquals": {"events:detail-type": "RunFinished"}}
    # And invoking this stack's bootstrap function, by its ARN
    invoke = statements["AskForMemory"]
    assert (invoke["Effect"], invoke["Action"]) == ("Allow", "lambda:InvokeFunction")
    assert invoke["Resource"] == {"Fn::GetAtt": [logical_id(stack.functions["bootstrap"]), "Arn"]}
    # And invoking this stack's episodes function (LangGraph's store.get, put and delete)
    episodes = statements["ReadAndForgetEpisodes"]
    assert (episodes["Effect"], episodes["Action"]) == ("Allow", "lambda:InvokeFunction")
    assert episodes["Resource"] == {"Fn::GetAtt": [logical_id(stack.functions["episodes"]), "Arn"]}
    # And reading this stack's outputs (MemoryClient.aws_from_stack), whatever its id
    describe = statements["FindTheMemory"]
    assert (describe["Effect"], describe["Action"]) == ("Allow", "cloudformation:DescribeStacks")
    assert ":stack/AgentMemory/*" in json.dumps(describe["Resource"])
