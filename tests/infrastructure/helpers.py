"""Reading IAM and references out of a synthesized template."""

from __future__ import annotations

from typing import Any

from aws_cdk import CfnElement, Stack
from constructs import IConstruct

Resources = dict[str, dict[str, Any]]


def logical_id(construct: IConstruct) -> str:
    """The logical id of a construct's own CloudFormation resource."""
    element = construct if isinstance(construct, CfnElement) else construct.node.default_child
    assert isinstance(element, CfnElement), construct.node.path
    return str(Stack.of(construct).resolve(element.logical_id))


def statements_of(resources: Resources, role_id: str) -> list[dict[str, Any]]:
    """Every statement of every inline policy attached to the role ``role_id``."""
    return [
        statement
        for resource in resources.values()
        if resource["Type"] == "AWS::IAM::Policy"
        and {"Ref": role_id} in resource["Properties"]["Roles"]
        for statement in resource["Properties"]["PolicyDocument"]["Statement"]
    ]


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def actions(statement: dict[str, Any]) -> list[str]:
    return [str(a) for a in as_list(statement["Action"])]


def references(value: Any) -> set[str]:
    """Logical ids a template fragment refers to (``Ref`` and ``Fn::GetAtt``)."""
    if isinstance(value, dict):
        if set(value) == {"Ref"}:
            return {value["Ref"]}
        if set(value) == {"Fn::GetAtt"}:
            return {value["Fn::GetAtt"][0]}
        return set().union(*(references(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(references(v) for v in value)) if value else set()
    return set()


def text(value: Any) -> str:
    """A resource fragment flattened to text (tokens dropped), for suffix checks."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and "Fn::Join" in value:
        return "".join(text(part) for part in value["Fn::Join"][1])
    return ""


def invoked_functions(states: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The ASL's Lambda tasks by the ``${...FunctionArn}`` placeholder each invokes: through
    ``lambda:invoke`` (its ``FunctionName``) or by the function's ARN as its ``Resource``.
    """
    found: dict[str, dict[str, Any]] = {}
    for state in states.values():
        if state.get("Type") != "Task":
            continue
        resource = state.get("Resource", "")
        if resource == "arn:aws:states:::lambda:invoke":
            found[state["Parameters"]["FunctionName"]] = state
        elif resource.startswith("${") and resource.endswith("FunctionArn}"):
            found[resource] = state
    return found
