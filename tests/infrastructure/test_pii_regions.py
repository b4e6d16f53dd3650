"""The countries a deployment declares reach the functions that scrub, and only those."""

from __future__ import annotations

from typing import Any

import aws_cdk as cdk
import pytest
from aws_cdk.assertions import Template

from stacks.functions import SPECS
from stacks.memory_stack import MemoryStack
from tests.infrastructure.helpers import Resources, logical_id


def _variables(stack: MemoryStack, resources: Resources, name: str) -> dict[str, Any]:
    function = resources[logical_id(stack.functions[name])]
    variables: dict[str, Any] = function["Properties"]["Environment"]["Variables"]
    return variables


@pytest.mark.parametrize("declared", ["de, br", ["DE", "BR"]])
def test_declared_regions_reach_every_scrubbing_function(
    context: dict[str, Any], tmp_path_factory: pytest.TempPathFactory, declared: object
) -> None:
    # Given a deployment declaring Germany and Brazil (as -c piiRegions=de,br or a cdk.json list)
    app = cdk.App(
        context={**context, "piiRegions": declared},
        outdir=str(tmp_path_factory.mktemp("regions.out")),
        builtin_cloud_formation_validation=False,
    )
    stack = MemoryStack(app, "AgentMemoryRegions")
    resources: Resources = Template.from_stack(stack).to_json()["Resources"]
    # Then each function that scrubs reads them, normalised; no other function is told
    for spec in SPECS:
        variables = _variables(stack, resources, spec.name)
        if spec.scrubs_pii:
            assert variables["PII_REGIONS"] == "DE,BR", spec.name
        else:
            assert "PII_REGIONS" not in variables, spec.name


def test_the_default_deployment_declares_no_region(stack: MemoryStack) -> None:
    resources: Resources = Template.from_stack(stack).to_json()["Resources"]
    for spec in SPECS:
        assert "PII_REGIONS" not in _variables(stack, resources, spec.name)


def test_a_region_that_is_no_country_code_fails_synth_naming_the_setting(
    context: dict[str, Any],
) -> None:
    app = cdk.App(context={**context, "piiRegions": "DE,Germany"})
    with pytest.raises(Exception, match="piiRegions"):
        MemoryStack(app, "AgentMemoryBadRegions")


def test_a_code_no_country_has_fails_synth_naming_the_setting(context: dict[str, Any]) -> None:
    app = cdk.App(context={**context, "piiRegions": "DE,XX"})
    with pytest.raises(Exception, match="piiRegions"):
        MemoryStack(app, "AgentMemoryUnknownRegion")
