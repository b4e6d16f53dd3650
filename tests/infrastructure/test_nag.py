from __future__ import annotations

from aws_cdk import App, Stack
from aws_cdk import aws_iam as iam
from aws_cdk.assertions import Template
from cdk_nag import AwsSolutionsChecks

from stacks.memory_stack import MemoryStack


def test_cdk_nag_finds_nothing_unacknowledged(stack: MemoryStack, template: Template):
    # The template fixture has synthesized the tree, so every lazy resource exists by now.
    report = AwsSolutionsChecks(stack, verbose=True).validate_scope(stack)
    findings = [
        (v.rule_name, [r.construct_path for r in v.violating_resources]) for v in report.violations
    ]
    assert findings == []
    assert report.success


def test_cdk_nag_finds_nothing_unacknowledged_under_comprehend(
    comprehend_stack: MemoryStack, comprehend_template: Template
):
    # Given the stack with Comprehend beside the local detectors (its grants on "*")
    report = AwsSolutionsChecks(comprehend_stack, verbose=True).validate_scope(comprehend_stack)
    findings = [
        (v.rule_name, [r.construct_path for r in v.violating_resources]) for v in report.violations
    ]
    # Then every finding is acknowledged with its reason
    assert findings == []
    assert report.success


def test_cdk_nag_reports_an_unacknowledged_wildcard():
    # Guards the test above against passing vacuously.
    stack = Stack(App(), "Wildcard")
    role = iam.Role(stack, "Role", assumed_by=iam.ServicePrincipal("lambda.amazonaws.com"))
    role.add_to_policy(iam.PolicyStatement(actions=["s3:GetObject"], resources=["*"]))
    report = AwsSolutionsChecks(stack).validate_scope(stack)
    assert "AwsSolutions-IAM5[Resource::*]" in [v.rule_name for v in report.violations]
