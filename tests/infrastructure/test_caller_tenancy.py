"""Principal-tag tenancy in the template: the bus refuses other tenants' sources, bootstrap
and the episodes function may read callers' tags, and the default deployment has none of it.
"""

from __future__ import annotations

import json
from typing import Any

import aws_cdk as cdk
import pytest
from aws_cdk.assertions import Template
from cdk_nag import AwsSolutionsChecks

from stacks.memory_stack import MemoryStack
from tests.infrastructure.helpers import Resources, actions, logical_id, statements_of, text


@pytest.fixture(scope="module")
def tagged(context: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> MemoryStack:
    app = cdk.App(
        context={**context, "tenantIdentity": "principal-tag"},
        outdir=str(tmp_path_factory.mktemp("tagged.out")),
        builtin_cloud_formation_validation=False,
    )
    return MemoryStack(app, "AgentMemoryTagged")


@pytest.fixture(scope="module")
def tagged_resources(tagged: MemoryStack) -> Resources:
    resources: Resources = Template.from_stack(tagged).to_json()["Resources"]
    return resources


def _bus_policy(resources: Resources) -> list[dict[str, Any]]:
    # CDK writes one AWS::Events::EventBusPolicy per statement.
    policies = [r for r in resources.values() if r["Type"] == "AWS::Events::EventBusPolicy"]
    return [p["Properties"]["Statement"] for p in policies]


def _environment(stack: MemoryStack, resources: Resources, name: str) -> dict[str, Any]:
    function = resources[logical_id(stack.functions[name])]
    variables: dict[str, Any] = function["Properties"]["Environment"]["Variables"]
    return variables


def test_the_bus_refuses_untagged_callers_and_other_tenants_sources(
    tagged_resources: Resources,
) -> None:
    # Given the stack deployed with principal-tag tenancy
    statements = {s["Sid"].removeprefix("cdk-"): s for s in _bus_policy(tagged_resources)}
    # Then PutEvents is denied to a caller without a tenant tag
    untagged = statements["UntaggedCallersPutNoRuns"]
    assert (untagged["Effect"], untagged["Action"], untagged["Principal"]) == (
        "Deny",
        "events:PutEvents",
        {"AWS": "*"},
    )
    assert untagged["Condition"] == {"Null": {"aws:PrincipalTag/tenant_id": "true"}}
    # And to any caller one of whose entries' sources is not its own tenant's: events:source is
    # multivalued in a batched PutEvents, so the operator is the set one (ForAnyValue), which a
    # batch with one foreign entry among its own cannot slip past
    foreign = statements["RunsComeFromTheirTenantOnly"]
    assert foreign["Effect"] == "Deny"
    assert foreign["Condition"] == {
        "ForAnyValue:StringNotEquals": {
            "events:source": "agent-memory.tenant.${aws:PrincipalTag/tenant_id}"
        }
    }


def test_bootstrap_extract_and_episodes_are_told_the_mode(
    tagged: MemoryStack, tagged_resources: Resources
) -> None:
    for name in ("bootstrap", "extract", "episodes"):
        assert _environment(tagged, tagged_resources, name)["TENANT_IDENTITY"] == "principal-tag"
    # And the functions that check a caller's proof know the account its signer must be in
    for name in ("bootstrap", "episodes"):
        assert _environment(tagged, tagged_resources, name)["CALLER_ACCOUNT"] == {
            "Ref": "AWS::AccountId"
        }


def test_the_rule_hands_over_the_detail_with_its_source(
    tagged: MemoryStack, tagged_resources: Resources
) -> None:
    # Given the RunFinished rule of the tagged stack
    rule = tagged_resources[logical_id(tagged.consolidation.rule)]
    [target] = rule["Properties"]["Targets"]
    # Then the state machine receives the detail and the source the bus policy checked
    transformer = target["InputTransformer"]
    assert transformer["InputPathsMap"] == {"source": "$.source", "detail": "$.detail"}
    assert json.loads(
        transformer["InputTemplate"].replace("<source>", '"s"').replace("<detail>", "{}")
    ) == {"source": "s", "detail": {}}


def test_only_bootstrap_and_episodes_may_read_callers_tags(
    tagged: MemoryStack, tagged_resources: Resources
) -> None:
    for name, role in tagged.functions.roles.items():
        granted = [
            (a, text(s["Resource"]))
            for s in statements_of(tagged_resources, logical_id(role))
            for a in actions(s)
            if a.startswith("iam:")
        ]
        if name in ("bootstrap", "episodes"):
            assert {a for a, _ in granted} == {"iam:ListRoleTags", "iam:ListUserTags"}
        else:
            assert granted == [], name


def test_the_tagged_stack_passes_cdk_nag(tagged: MemoryStack, tagged_resources: Resources) -> None:
    report = AwsSolutionsChecks(tagged, verbose=True).validate_scope(tagged)
    assert [v.rule_name for v in report.violations] == []


def test_the_default_stack_trusts_the_payload(stack: MemoryStack, resources: Resources) -> None:
    # Given the default deployment: no bus policy, and no function told of a mode
    assert _bus_policy(resources) == []
    for name in stack.functions.functions:
        assert "TENANT_IDENTITY" not in _environment(stack, resources, name), name


def test_an_unknown_mode_fails_synth_naming_the_setting(context: dict[str, Any]) -> None:
    app = cdk.App(context={**context, "tenantIdentity": "header"})
    with pytest.raises(Exception, match="tenantIdentity"):
        MemoryStack(app, "AgentMemoryWrong")
