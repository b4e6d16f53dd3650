"""Which PII detectors a deployment runs (``-c piiDetector``): the local detector alone by
default, Amazon Comprehend beside it under ``comprehend``; what the stack grants, alarms and
outputs follows the choice.

Comprehend's DetectPiiEntities is billed per 100 characters, 3 units at least per request
(https://aws.amazon.com/comprehend/pricing/), and has no resource-level permissions
(https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazoncomprehend.html).
"""

from __future__ import annotations

from typing import Any

import aws_cdk as cdk
import pytest
from aws_cdk.assertions import Template

from app import cdk_json_context
from stacks import regions
from stacks.functions import SPECS
from stacks.memory_stack import MemoryStack
from tests.infrastructure.helpers import Resources, actions, logical_id

DETECTS = "comprehend:DetectPiiEntities"


def _variables(stack: MemoryStack, resources: Resources, name: str) -> dict[str, Any]:
    function = resources[logical_id(stack.functions[name])]
    variables: dict[str, Any] = function["Properties"]["Environment"]["Variables"]
    return variables


def _operator_statements(stack: MemoryStack, resources: Resources) -> list[dict[str, Any]]:
    policy = resources[logical_id(stack.operator_access.policy)]
    statements: list[dict[str, Any]] = policy["Properties"]["PolicyDocument"]["Statement"]
    return statements


def _output(template: Template, name: str) -> Any:
    return template.to_json()["Outputs"][name]["Value"]


def test_cdk_json_chooses_the_local_detector() -> None:
    # Given the context every `cdk deploy` starts from
    # Then the PII detector is the local one
    assert cdk_json_context()["piiDetector"] == "local"


@pytest.mark.parametrize(
    ("deployment", "expected"), [("stack", "local"), ("comprehend_stack", "comprehend")]
)
def test_the_scrubbing_functions_are_told_the_choice_and_the_others_nothing(
    request: pytest.FixtureRequest, deployment: str, expected: str
) -> None:
    # Given the default deployment, or one with -c piiDetector=comprehend
    stack: MemoryStack = request.getfixturevalue(deployment)
    resources = Template.from_stack(stack).to_json()["Resources"]
    for spec in SPECS:
        variables = _variables(stack, resources, spec.name)
        # Then each function that scrubs runs the chosen detectors; no other is told
        if spec.scrubs_pii:
            assert variables["PII_DETECTOR"] == expected, spec.name
        else:
            assert "PII_DETECTOR" not in variables, spec.name


def test_by_default_the_operator_policy_grants_no_comprehend(
    stack: MemoryStack, resources: Resources
) -> None:
    # Given the default deployment's operator policy
    statements = _operator_statements(stack, resources)
    # Then it has no statement for Comprehend: the CLI scrubs with the local detectors
    assert not [s for s in statements if DETECTS in actions(s)]
    assert "ScrubDecisions" not in {s.get("Sid") for s in statements}


def test_under_comprehend_the_operator_policy_scrubs_decisions_with_it(
    comprehend_stack: MemoryStack, comprehend_resources: Resources
) -> None:
    # Given a deployment with -c piiDetector=comprehend
    statements = _operator_statements(comprehend_stack, comprehend_resources)
    # Then the operator may call DetectPiiEntities (an API without a resource), nothing more
    [scrub] = [s for s in statements if s.get("Sid") == "ScrubDecisions"]
    assert (actions(scrub), scrub["Resource"]) == ([DETECTS], "*")


def test_the_choice_is_an_output_for_the_operator_cli_and_sdk(
    template: Template, comprehend_template: Template
) -> None:
    # Given both deployments
    # Then each names its choice, which AwsSettings.from_stack_outputs reads
    assert _output(template, "PiiDetector") == "local"
    assert _output(comprehend_template, "PiiDetector") == "comprehend"


@pytest.mark.parametrize("value", ["presidio", "aws", "comprehend,local"])
def test_an_unknown_detector_fails_synth_naming_the_setting_and_the_choices(
    context: dict[str, Any], value: str
) -> None:
    # Given a deployment naming a detector that does not exist
    app = cdk.App(context={**context, "piiDetector": value})
    # When it is synthesized, Then the error names the setting and what it may be
    with pytest.raises(Exception, match="piiDetector") as raised:
        MemoryStack(app, "AgentMemoryBadDetector")
    assert "local" in str(raised.value) and "comprehend" in str(raised.value)


def test_a_region_without_comprehend_is_refused_only_under_comprehend(
    context: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a supported Region where Comprehend would not run (none is today: a stand-in list)
    monkeypatch.setattr(regions, "COMPREHEND_REGIONS", ("us-east-1",))

    def stack_in(region: str, detector: str) -> None:
        app = cdk.App(context={**context, "piiDetector": detector})
        MemoryStack(app, "AgentMemoryRegion", env=cdk.Environment(region=region))

    # When the stack is bound to it, Then the local detector deploys there
    stack_in("eu-central-1", "local")
    # And Comprehend is refused, naming the Region and the setting
    with pytest.raises(regions.UnsupportedRegion, match=r"eu-central-1.*piiDetector"):
        stack_in("eu-central-1", "comprehend")
    stack_in("us-east-1", "comprehend")
