"""The maintenance functions (decay, reembed, ingest, record_failure) touch every tenant by
design, so their roles are granted directly, each exactly what its code calls.

The sets below are written out from the code paths (the adapters' calls), not from
``stacks.functions.SPECS``; the session's call check (tests/support/aws_calls.py) fails a
test run whose handler makes a call outside them. Item actions are authorized on a table,
never on an index; a Query of an index needs that index's ARN
(https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/api-permissions-reference.html).
"""

from __future__ import annotations

from typing import Any

import pytest

from stacks.memory_stack import MemoryStack
from tests.infrastructure.helpers import Resources, actions, as_list, logical_id, statements_of

MAINTENANCE = ("decay", "reembed", "ingest", "record_failure")
LOGS = {("logs:CreateLogStream", "own-logs"), ("logs:PutLogEvents", "own-logs")}
XRAY = {("xray:PutTraceSegments", "*"), ("xray:PutTelemetryRecords", "*")}
LEDGER = {(f"dynamodb:{a}", "ledger") for a in ("GetItem", "PutItem", "DeleteItem")}
# An asynchronous invocation that fails after its retries: Lambda sends its record to the
# undelivered-events queue with the function's role.
ON_FAILURE = {("sqs:SendMessage", "undelivered-events")}


def _on(resource: str, *names: str) -> set[tuple[str, str]]:
    return {(f"dynamodb:{n}", resource) for n in names}


EXPECTED: dict[str, set[tuple[str, str]]] = {
    "decay": LOGS
    | XRAY
    | ON_FAILURE
    | LEDGER
    | _on("episodes", "GetItem", "BatchGetItem", "Scan", "DeleteItem", "PutItem")
    | _on("episodes/index/failed-time-index", "Query")
    | _on("facts", "BatchGetItem", "Query", "Scan", "DeleteItem")
    | _on("facts/index/pending-index", "Query")
    | _on("facts/index/awaiting-index", "Query")
    | _on("procedures", "UpdateItem")
    | _on("procedures/index/status-index", "Query")
    | _on("procedures/index/tenant-index", "Query"),
    "reembed": LOGS
    | XRAY
    | LEDGER
    | _on("episodes", "Scan", "GetItem", "BatchGetItem", "UpdateItem", "PutItem", "DeleteItem")
    | _on("facts", "Scan", "UpdateItem")
    | {
        (
            "bedrock:InvokeModel",
            "arn:<partition>:bedrock:<region>::foundation-model/amazon.titan-embed-text-v2:0",
        )
    },
    "ingest": LOGS
    | XRAY
    | ON_FAILURE
    | LEDGER
    | _on("facts", "UpdateItem")
    | _on("facts/index/awaiting-index", "Query")
    | {
        ("bedrock:StartIngestionJob", "knowledge-base"),
        ("bedrock:GetIngestionJob", "knowledge-base"),
        ("bedrock:GetKnowledgeBaseDocuments", "knowledge-base"),
        ("s3:PutObject", "documents/tenants/*"),
    },
    "record_failure": LOGS
    | XRAY
    | ON_FAILURE
    | {("dynamodb:GetItem", "ledger"), ("dynamodb:PutItem", "ledger")}
    | {
        (
            "states:DescribeExecution",
            "arn:<partition>:states:<region>:<account>:execution:<state-machine>:*",
        )
    },
}


_PSEUDO = {
    "AWS::Partition": "<partition>",
    "AWS::Region": "<region>",
    "AWS::AccountId": "<account>",
}


class _Labels:
    """Template values as readable names: tables by their design's name, the function's own
    log group as ``own-logs``, pseudo parameters as ``<partition>``, ``<region>``, ...
    """

    def __init__(self, stack: MemoryStack, resources: Resources, function: str) -> None:
        self._names = {logical_id(t): n for n, t in stack.storage.tables.items()}
        self._names[logical_id(stack.storage.documents)] = "documents"
        self._names[logical_id(stack.knowledge_base.knowledge_base)] = "knowledge-base"
        self._names[logical_id(stack.consolidation.state_machine)] = "<state-machine>"
        self._names[logical_id(stack.storage.undelivered_events)] = "undelivered-events"
        config = resources[logical_id(stack.functions[function])]["Properties"]
        self._names[config["LoggingConfig"]["LogGroup"]["Ref"]] = "own-logs"

    def __call__(self, value: Any) -> str:
        if isinstance(value, str):
            return value
        ((function, argument),) = value.items()
        if function == "Fn::GetAtt":
            return self._names.get(argument[0], f"<{argument[0]}.{argument[1]}>")
        if function == "Ref":
            return _PSEUDO.get(argument, f"<{argument}>")
        if function == "Fn::Join":
            return str(argument[0]).join(self(part) for part in argument[1])
        raise AssertionError(f"unexpected {function} in a policy")


def granted(stack: MemoryStack, resources: Resources, function: str) -> set[tuple[str, str]]:
    """Every (action, resource) the function's role allows, resources named by ``_Labels``."""
    role = stack.functions.roles[function]
    properties = resources[logical_id(role)]["Properties"]
    assert not properties.get("ManagedPolicyArns") and not properties.get("Policies")
    label = _Labels(stack, resources, function)
    found: set[tuple[str, str]] = set()
    for statement in statements_of(resources, logical_id(role)):
        assert statement["Effect"] == "Allow" and "Condition" not in statement, statement
        for resource in as_list(statement["Resource"]):
            found |= {(a, label(resource)) for a in actions(statement)}
    return found


@pytest.mark.parametrize("function", MAINTENANCE)
def test_a_maintenance_function_is_granted_exactly_what_its_code_calls(
    stack: MemoryStack, resources: Resources, function: str
) -> None:
    # Given the synthesized role of a job that touches every tenant
    # Then it allows exactly the calls its code makes: no item action on an index, no index
    # it does not query, no action it never calls
    assert granted(stack, resources, function) == EXPECTED[function]


@pytest.mark.parametrize("function", MAINTENANCE)
def test_a_maintenance_function_cannot_become_a_tenant(
    stack: MemoryStack, resources: Resources, function: str
) -> None:
    # Given the tenant data role's trust
    tenant_role = logical_id(stack.functions.tenant_data.role)
    trust = resources[tenant_role]["Properties"]["AssumeRolePolicyDocument"]["Statement"]
    trusted = {p["Fn::GetAtt"][0] for s in trust for p in as_list(s["Principal"]["AWS"])}
    # Then a maintenance function's role is not trusted, and may call no STS action at all
    assert logical_id(stack.functions.roles[function]) not in trusted
    assert not [a for a, _ in granted(stack, resources, function) if a.startswith("sts:")]
