"""cdk-nag acknowledgements, each on the narrowest construct and finding that needs one."""

from __future__ import annotations

from collections.abc import Iterable

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
