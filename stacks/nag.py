"""cdk-nag acknowledgements, each on the narrowest construct and finding that needs one."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

import aws_cdk as cdk
from constructs import IConstruct


def acknowledge(scope: IConstruct, rule: str, reason: str, findings: Iterable[str] = ()) -> None:
    """Acknowledge ``AwsSolutions-<rule>`` on ``scope`` and below, for these findings only.

    With ``findings`` (e.g. ``"Resource::*"``) only those granular findings are acknowledged;
    without, the whole rule is, which suits rules that have no granular findings.
    """
    ids = [f"AwsSolutions-{rule}[{f}]" for f in findings] or [f"AwsSolutions-{rule}"]
    cdk.Validations.of(scope).acknowledge(
        *(cdk.Acknowledgment(id=rule_id, reason=reason) for rule_id in ids)
    )


def logical_id(construct: IConstruct) -> str:
    """The logical id of ``construct``'s resource, as cdk-nag's granular findings spell it."""
    child = construct.node.default_child
    if not isinstance(child, cdk.CfnElement):
        raise TypeError(f"{construct.node.path} has no CloudFormation resource of its own")
    return str(cdk.Stack.of(construct).resolve(child.logical_id))


def resource_findings(scope: IConstruct, *arns: str) -> list[str]:
    """The ``Resource::...`` findings cdk-nag reports for these resources, spelled from the very
    values the policy holds: a Region or account bound at synth (``-c region=...``) shows in
    them as a literal, an unbound one as ``<AWS::Region>``, as cdk-nag flattens the template.
    """
    stack = cdk.Stack.of(scope)
    return [f"Resource::{_flattened(stack.resolve(arn))}" for arn in arns]


def _flattened(node: Any) -> str:
    """cdk-nag's ``flattenCfnReference``: ``Fn::Join`` joined, ``Ref`` and ``Fn::GetAtt`` as
    ``<Name>`` and ``<Resource.Attribute>``, ``${...}`` of ``Fn::Sub`` as ``<...>``.
    """
    if node is None:
        return ""
    if isinstance(node, str):
        return re.sub(r"\$\{", "<", node).replace("}", ">")
    if isinstance(node, dict):
        if "Fn::Join" in node:
            delimiter, items = node["Fn::Join"]
            return str(delimiter).join(_flattened(item) for item in items)
        if "Fn::Sub" in node:
            return _flattened(node["Fn::Sub"])
        if "Fn::GetAtt" in node:
            resource, attribute = node["Fn::GetAtt"]
            return f"<{_flattened(resource)}.{_flattened(attribute)}>"
        if "Fn::ImportValue" in node:
            return _flattened(node["Fn::ImportValue"])
        if "Ref" in node:
            return f"<{_flattened(node['Ref'])}>"
    return json.dumps(node, separators=(",", ":"))
