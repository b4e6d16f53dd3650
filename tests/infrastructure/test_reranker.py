"""The optional reranker: only bootstrap is told of it and allowed to run it, only when set."""

from __future__ import annotations

from typing import Any

import aws_cdk as cdk
import pytest
from aws_cdk.assertions import Template
from cdk_nag import AwsSolutionsChecks

from app import STACK_NAME
from stacks.functions import SPECS
from stacks.memory_stack import MemoryStack
from tests.infrastructure.helpers import (
    Resources,
    actions,
    as_list,
    logical_id,
    statements_of,
    text,
)

ARN = "arn:aws:bedrock:us-west-2::foundation-model/amazon.rerank-v1:0"


def synthesize(context: dict[str, Any], tmp: Any, **extra: str) -> MemoryStack:
    app = cdk.App(
        context={**context, **extra}, outdir=str(tmp), builtin_cloud_formation_validation=False
    )
    return MemoryStack(app, STACK_NAME)


@pytest.fixture(scope="module")
def reranking(context: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> MemoryStack:
    return synthesize(context, tmp_path_factory.mktemp("cdk.out"), rerankModelArn=ARN)


def variables(stack: MemoryStack, resources: Resources, name: str) -> dict[str, Any]:
    function = resources[logical_id(stack.functions[name])]["Properties"]
    return dict(function["Environment"]["Variables"])


def rerank_grants(stack: MemoryStack, resources: Resources, name: str) -> set[tuple[str, str]]:
    """The (action, resource) pairs of the role of ``name`` that concern a reranker (CDK merges
    statements that share a resource, so they are read pair by pair).
    """
    role = logical_id(stack.functions.roles[name])
    pairs = {
        (action, text(resource))
        for s in statements_of(resources, role)
        for action in actions(s)
        for resource in as_list(s["Resource"])
    }
    return {(a, r) for a, r in pairs if a == "bedrock:Rerank" or r == ARN}


def test_without_a_reranker_no_function_is_told_of_one_or_may_run_one(
    stack: MemoryStack, resources: Resources
):
    for spec in SPECS:
        assert "RERANK_MODEL_ARN" not in variables(stack, resources, spec.name), spec.name
        assert rerank_grants(stack, resources, spec.name) == set(), spec.name


def test_with_a_reranker_only_bootstrap_is_told_of_it_and_may_run_exactly_that_model(
    reranking: MemoryStack,
):
    # Given the stack synthesized with -c rerankModelArn=<the Amazon reranker in us-west-2>
    resources = Template.from_stack(reranking).to_json()["Resources"]

    # Then bootstrap is given the ARN, and may call Rerank and invoke that model only
    assert variables(reranking, resources, "bootstrap")["RERANK_MODEL_ARN"] == ARN
    assert rerank_grants(reranking, resources, "bootstrap") == {
        ("bedrock:InvokeModel", ARN),
        ("bedrock:Rerank", "*"),
    }
    # And no other function is told of it or may run it
    for spec in SPECS:
        if spec.name != "bootstrap":
            assert "RERANK_MODEL_ARN" not in variables(reranking, resources, spec.name)
            assert rerank_grants(reranking, resources, spec.name) == set(), spec.name

    # And cdk-nag finds nothing unacknowledged: Rerank's wildcard is acknowledged, with why
    report = AwsSolutionsChecks(reranking).validate_scope(reranking)
    assert [v.rule_name for v in report.violations] == []


@pytest.mark.parametrize(
    "bad", ["amazon.rerank-v1:0", "arn:aws:bedrock:us-west-2::inference-profile/x"]
)
def test_a_reranker_that_is_not_a_foundation_model_arn_stops_the_synthesis(
    context: dict[str, Any], tmp_path: Any, bad: str
):
    with pytest.raises(ValueError, match="rerankModelArn must be arn:"):
        synthesize(context, tmp_path, rerankModelArn=bad)
