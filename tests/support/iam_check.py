"""IAM, evaluated offline: which permission each recorded AWS call needs, and whether the
synthesized template grants it to the function that made it.

moto enforces no IAM, so a call that no policy grants passes every moto test and fails on AWS
(ConfirmFacts' ``bedrock:Retrieve`` was one). This module turns a recorded call into the IAM
requests AWS authorizes (action, resource ARN, the condition keys this product's policies test),
resolves the template's policies to concrete ARNs by binding its logical resources to the
physical names a harness used, and evaluates them: explicit Deny wins, else some Allow is
needed; a call made with tenant credentials needs the tenant role's policy *and* the session
policy of its AssumeRole (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic.html).

Anything it cannot evaluate exactly (an operation it does not know, a condition operator, a
NotAction, a managed policy) raises :class:`Unsupported`: a check that silently allowed it
would hide the next missing grant.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agent_memory.adapters.aws import dynamodb_schema as schema
from agent_memory.wiring.aws_settings import AwsSettings
from tests.support.iam_strings import Pattern, parse

ACCOUNT = "123456789012"  # moto's default account

Context = Mapping[str, tuple[str, ...]]
# A request's context as it is kept: sorted (key, values) pairs, so requests can be set members.
FrozenContext = tuple[tuple[str, tuple[str, ...]], ...]


class Unsupported(Exception):
    """A call or a policy this checker cannot evaluate exactly (so it fails, never allows)."""


@dataclass(frozen=True, slots=True)
class Request:
    """One authorization AWS makes for a call: an action on a resource, with condition keys.

    ``context`` holds only the keys the request carries (an absent key is absent, not empty).
    """

    action: str
    resource: str
    context: FrozenContext = ()

    @classmethod
    def of(cls, action: str, resource: str, context: Context | None = None) -> Request:
        return cls(action, resource, tuple(sorted((context or {}).items())))

    @property
    def keys(self) -> dict[str, tuple[str, ...]]:
        """The condition keys the request carries, with their values."""
        return dict(self.context)


@dataclass(frozen=True, slots=True)
class Tables:
    """Where a deployment keeps its tables: physical name -> partition key by index
    (``None`` for the table itself).
    """

    partition_keys: Mapping[str, Mapping[str | None, str]]

    @classmethod
    def of(cls, settings: AwsSettings) -> Tables:
        keys: dict[str, dict[str | None, str]] = {}
        for design in schema.TABLES:
            name = getattr(settings, f"{design.logical_name}_table")
            keys[name] = {None: design.partition_key.name}
            keys[name].update({i.name: i.partition_key.name for i in design.indexes})
        return cls(keys)

    def partition_key(self, table: str, index: str | None = None) -> str:
        try:
            return self.partition_keys[table][index]
        except KeyError:
            where = f"{table}/index/{index}" if index else table
            raise Unsupported(f"{where} is not a table of the deployment") from None


# --- calls -> IAM requests -------------------------------------------------------------


def requests_for(
    service: str,
    operation: str,
    params: Mapping[str, Any],
    *,
    region: str,
    tables: Tables,
    account: str = ACCOUNT,
) -> list[Request]:
    """The IAM requests AWS authorizes for one API call."""
    derive = _DERIVATIONS.get(service)
    if derive is None:
        raise Unsupported(f"{service}:{operation}: no IAM mapping for service {service!r}")
    found: list[Request] = derive(operation, params, _Where(region, account, tables))
    return found


@dataclass(frozen=True, slots=True)
class _Where:
    region: str
    account: str
    tables: Tables

    def arn(self, service: str, resource: str, *, account: bool = True) -> str:
        return f"arn:aws:{service}:{self.region}:{self.account if account else ''}:{resource}"


def _unknown(service: str, operation: str) -> Unsupported:
    return Unsupported(f"{service}:{operation}: no IAM mapping for this operation (add one)")


# DynamoDB: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/api-permissions-reference.html
# Transactions are authorized per item, as the item action (ConditionCheck as
# ConditionCheckItem): https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis-iam.html
_TRANSACT_ACTIONS = {
    "Put": "PutItem",
    "Update": "UpdateItem",
    "Delete": "DeleteItem",
    "ConditionCheck": "ConditionCheckItem",
    "Get": "GetItem",
}


def _dynamodb(operation: str, params: Mapping[str, Any], where: _Where) -> list[Request]:
    def table_arn(table: str, index: str | None = None) -> str:
        arn = where.arn("dynamodb", f"table/{table}")
        return f"{arn}/index/{index}" if index else arn

    def leading(table: str, keys: Iterable[Mapping[str, Any]], index: str | None = None) -> Context:
        name = where.tables.partition_key(table, index)
        return {"dynamodb:LeadingKeys": tuple(sorted({_scalar(k[name]) for k in keys}))}

    table = str(params.get("TableName", ""))
    if operation in {"GetItem", "UpdateItem", "DeleteItem"}:
        return [
            Request.of(f"dynamodb:{operation}", table_arn(table), leading(table, [params["Key"]]))
        ]
    if operation == "PutItem":
        return [Request.of("dynamodb:PutItem", table_arn(table), leading(table, [params["Item"]]))]
    if operation == "Query":
        index = params.get("IndexName")
        value = _query_partition_value(params, where.tables.partition_key(table, index))
        return [
            Request.of(
                "dynamodb:Query", table_arn(table, index), {"dynamodb:LeadingKeys": (value,)}
            )
        ]
    if operation == "Scan":
        return [Request.of("dynamodb:Scan", table_arn(table, params.get("IndexName")))]
    if operation == "BatchGetItem":
        return [
            Request.of("dynamodb:BatchGetItem", table_arn(name), leading(name, request["Keys"]))
            for name, request in params["RequestItems"].items()
        ]
    if operation == "BatchWriteItem":
        return [
            Request.of(
                "dynamodb:BatchWriteItem",
                table_arn(name),
                leading(
                    name,
                    [
                        w["PutRequest"]["Item"] if "PutRequest" in w else w["DeleteRequest"]["Key"]
                        for w in writes
                    ],
                ),
            )
            for name, writes in params["RequestItems"].items()
        ]
    if operation in {"TransactWriteItems", "TransactGetItems"}:
        found = []
        for item in params["TransactItems"]:
            ((kind, body),) = item.items()
            key = body.get("Key") or body["Item"]
            name = body["TableName"]
            found.append(
                Request.of(
                    f"dynamodb:{_TRANSACT_ACTIONS[kind]}", table_arn(name), leading(name, [key])
                )
            )
        return found
    raise _unknown("dynamodb", operation)


_CLAUSE = re.compile(r"^\(?\s*([#\w.]+)\s*=\s*(:\w+)\s*\)?$")


def _query_partition_value(params: Mapping[str, Any], partition_key: str) -> str:
    """The partition key's value in a Query's KeyConditionExpression (``pk = :v AND ...``)."""
    if "KeyConditionExpression" not in params:
        raise Unsupported("dynamodb:Query without KeyConditionExpression")
    names = params.get("ExpressionAttributeNames", {})
    values = params.get("ExpressionAttributeValues", {})
    for clause in re.split(r"\s+AND\s+", params["KeyConditionExpression"], flags=re.IGNORECASE):
        matched = _CLAUSE.match(clause.strip())
        if matched and names.get(matched.group(1), matched.group(1)) == partition_key:
            return _scalar(values[matched.group(2)])
    raise Unsupported(f"no {partition_key} = :value in {params['KeyConditionExpression']!r}")


def _scalar(value: Mapping[str, Any]) -> str:
    ((kind, inner),) = value.items()
    if kind not in {"S", "N", "B"}:
        raise Unsupported(f"a key attribute of type {kind}")
    return str(inner)


# S3: https://docs.aws.amazon.com/AmazonS3/latest/userguide/using-with-s3-policy-actions.html
def _s3(operation: str, params: Mapping[str, Any], where: _Where) -> list[Request]:
    bucket = params.get("Bucket", "")
    objects = {
        "GetObject": "s3:GetObject",
        "HeadObject": "s3:GetObject",
        "PutObject": "s3:PutObject",
        "DeleteObject": "s3:DeleteObject",
    }
    if operation in objects:
        return [Request.of(objects[operation], f"arn:aws:s3:::{bucket}/{params['Key']}")]
    if operation == "DeleteObjects":
        return [
            Request.of("s3:DeleteObject", f"arn:aws:s3:::{bucket}/{o['Key']}")
            for o in params["Delete"]["Objects"]
        ]
    if operation in {"ListObjectsV2", "ListObjects"}:
        context = {"s3:prefix": (params["Prefix"],)} if "Prefix" in params else {}
        return [Request.of("s3:ListBucket", f"arn:aws:s3:::{bucket}", context)]
    if operation == "HeadBucket":
        return [Request.of("s3:ListBucket", f"arn:aws:s3:::{bucket}")]
    raise _unknown("s3", operation)


def _sts(operation: str, params: Mapping[str, Any], where: _Where) -> list[Request]:
    if operation == "GetCallerIdentity":
        return []  # needs no permission
    if operation != "AssumeRole":
        raise _unknown("sts", operation)
    tags = params.get("Tags", [])
    context: dict[str, tuple[str, ...]] = {
        f"aws:RequestTag/{t['Key']}": (t["Value"],) for t in tags
    }
    if tags:
        context["aws:TagKeys"] = tuple(t["Key"] for t in tags)
    found = [Request.of("sts:AssumeRole", params["RoleArn"], context)]
    # Session tags need sts:TagSession too: https://docs.aws.amazon.com/IAM/latest/UserGuide/id_session-tags.html
    if tags:
        found.append(Request.of("sts:TagSession", params["RoleArn"], context))
    return found


def _model_arn(model_id: str, where: _Where) -> str:
    if model_id.startswith("arn:"):
        return model_id
    if re.match(r"^(us|eu|apac|global)\.", model_id):
        return where.arn("bedrock", f"inference-profile/{model_id}")
    return where.arn("bedrock", f"foundation-model/{model_id}", account=False)


def _bedrock_runtime(operation: str, params: Mapping[str, Any], where: _Where) -> list[Request]:
    actions = {
        "InvokeModel": "bedrock:InvokeModel",
        "Converse": "bedrock:InvokeModel",
        "InvokeModelWithResponseStream": "bedrock:InvokeModelWithResponseStream",
        "ConverseStream": "bedrock:InvokeModelWithResponseStream",
    }
    if operation not in actions:
        raise _unknown("bedrock-runtime", operation)
    return [Request.of(actions[operation], _model_arn(params["modelId"], where))]


def _bedrock_agent(operation: str, params: Mapping[str, Any], where: _Where) -> list[Request]:
    if operation not in {
        "StartIngestionJob",
        "GetIngestionJob",
        "ListIngestionJobs",
        "GetKnowledgeBaseDocuments",
    }:
        raise _unknown("bedrock-agent", operation)
    kb = where.arn("bedrock", f"knowledge-base/{params['knowledgeBaseId']}")
    return [Request.of(f"bedrock:{operation}", kb)]


def _bedrock_agent_runtime(
    operation: str, params: Mapping[str, Any], where: _Where
) -> list[Request]:
    if operation == "Retrieve":
        kb = where.arn("bedrock", f"knowledge-base/{params['knowledgeBaseId']}")
        return [Request.of("bedrock:Retrieve", kb)]
    if operation == "Rerank":
        # Rerank has no resource; the model it runs is authorized as InvokeModel.
        # https://docs.aws.amazon.com/bedrock/latest/userguide/rerank-prereq.html
        configuration = params["rerankingConfiguration"]["bedrockRerankingConfiguration"]
        model = configuration["modelConfiguration"]["modelArn"]
        return [Request.of("bedrock:Rerank", "*"), Request.of("bedrock:InvokeModel", model)]
    raise _unknown("bedrock-agent-runtime", operation)


def _anywhere(service: str, prefix: str, operations: set[str]) -> Any:
    """A service whose actions have no resource-level permissions."""

    def derive(operation: str, params: Mapping[str, Any], where: _Where) -> list[Request]:
        if operation not in operations:
            raise _unknown(service, operation)
        return [Request.of(f"{prefix}:{operation}", "*")]

    return derive


def _secretsmanager(operation: str, params: Mapping[str, Any], where: _Where) -> list[Request]:
    if operation not in {"GetSecretValue", "DescribeSecret"}:
        raise _unknown("secretsmanager", operation)
    secret = params["SecretId"]
    if not secret.startswith("arn:"):
        secret = where.arn("secretsmanager", f"secret:{secret}")
    return [Request.of(f"secretsmanager:{operation}", secret)]


def _sqs(operation: str, params: Mapping[str, Any], where: _Where) -> list[Request]:
    if operation not in {
        "SendMessage",
        "SendMessageBatch",
        "ReceiveMessage",
        "DeleteMessage",
        "ChangeMessageVisibility",
    }:
        raise _unknown("sqs", operation)
    account, name = params["QueueUrl"].rstrip("/").split("/")[-2:]
    action = "SendMessage" if operation == "SendMessageBatch" else operation
    return [Request.of(f"sqs:{action}", f"arn:aws:sqs:{where.region}:{account}:{name}")]


def _states(operation: str, params: Mapping[str, Any], where: _Where) -> list[Request]:
    if operation == "StartExecution":
        return [Request.of("states:StartExecution", params["stateMachineArn"])]
    if operation in {"DescribeExecution", "GetExecutionHistory", "StopExecution"}:
        return [Request.of(f"states:{operation}", params["executionArn"])]
    raise _unknown("stepfunctions", operation)


def _events(operation: str, params: Mapping[str, Any], where: _Where) -> list[Request]:
    if operation != "PutEvents":
        raise _unknown("events", operation)
    buses = {e.get("EventBusName", "default") for e in params["Entries"]}
    # The entries' detail types and sources are the request's (multivalued) condition keys:
    # https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-use-conditions.html
    context = {
        "events:detail-type": tuple(sorted({e["DetailType"] for e in params["Entries"]})),
        "events:source": tuple(sorted({e["Source"] for e in params["Entries"]})),
    }
    return [
        Request.of(
            "events:PutEvents",
            b if b.startswith("arn:") else where.arn("events", f"event-bus/{b}"),
            context,
        )
        for b in sorted(buses)
    ]


def _lambda(operation: str, params: Mapping[str, Any], where: _Where) -> list[Request]:
    if operation != "Invoke":
        raise _unknown("lambda", operation)
    name = params["FunctionName"]
    function = name if name.startswith("arn:") else where.arn("lambda", f"function:{name}")
    return [Request.of("lambda:InvokeFunction", function)]


# A stack's ARN ends in its id, which a DescribeStacks by name does not carry: any id stands
# for it (a policy must allow ``stack/<name>/*``).
_STACK_ID = "00000000-0000-0000-0000-000000000000"


def _cloudformation(operation: str, params: Mapping[str, Any], where: _Where) -> list[Request]:
    if operation != "DescribeStacks":
        raise _unknown("cloudformation", operation)
    name = params["StackName"]
    stack = (
        name
        if name.startswith("arn:")
        else where.arn("cloudformation", f"stack/{name}/{_STACK_ID}")
    )
    return [Request.of("cloudformation:DescribeStacks", stack)]


def _cloudwatch(operation: str, params: Mapping[str, Any], where: _Where) -> list[Request]:
    if operation != "PutMetricData":
        raise _unknown("cloudwatch", operation)
    return [
        Request.of(
            "cloudwatch:PutMetricData", "*", {"cloudwatch:namespace": (params["Namespace"],)}
        )
    ]


def _iam(operation: str, params: Mapping[str, Any], where: _Where) -> list[Request]:
    # Roles and users are global: their ARNs name no Region.
    kinds = {"ListRoleTags": ("role", "RoleName"), "ListUserTags": ("user", "UserName")}
    if operation not in kinds:
        raise _unknown("iam", operation)
    kind, name = kinds[operation]
    resource = f"arn:aws:iam::{where.account}:{kind}/{params[name]}"
    return [Request.of(f"iam:{operation}", resource)]


_DERIVATIONS = {
    "dynamodb": _dynamodb,
    "iam": _iam,
    "s3": _s3,
    "sts": _sts,
    "bedrock-runtime": _bedrock_runtime,
    "bedrock-agent": _bedrock_agent,
    "bedrock-agent-runtime": _bedrock_agent_runtime,
    "comprehend": _anywhere(
        "comprehend", "comprehend", {"DetectPiiEntities", "ContainsPiiEntities"}
    ),
    "secretsmanager": _secretsmanager,
    "sqs": _sqs,
    "stepfunctions": _states,
    "events": _events,
    "lambda": _lambda,
    "cloudformation": _cloudformation,
    "cloudwatch": _cloudwatch,
    "xray": _anywhere("xray", "xray", {"PutTraceSegments", "PutTelemetryRecords"}),
}


# --- policies --------------------------------------------------------------------------


def matches(pattern: str, value: str, *, ignore_case: bool = False) -> bool:
    """IAM's wildcard match: ``*`` any run of characters, ``?`` one."""
    parsed = substitute(pattern, {})
    return parsed is not None and parsed.like(value, ignore_case=ignore_case)


def substitute(text: str, variables: Mapping[str, str]) -> Pattern | None:
    """``text`` with its policy variables filled in (``${*}``, ``${?}``, ``${$}`` literal);
    None if one has no value (IAM then matches nothing). A ``*`` in a substituted value is
    read as the character: the tenant-tag tests show no value the trust accepts holds one.
    """
    return parse(text, variables, live_values=False)


@dataclass(frozen=True, slots=True)
class Statement:
    """One statement, its ARNs resolved; ``labels`` name each resource as the template does."""

    effect: str
    actions: tuple[str, ...]
    resources: tuple[str, ...]
    labels: tuple[str, ...]
    conditions: Mapping[str, Mapping[str, tuple[str, ...]]]

    def applies(self, request: Request, variables: Mapping[str, str]) -> str | None:
        """The label of the resource that matches ``request``, if the statement applies."""
        if not any(matches(a, request.action, ignore_case=True) for a in self.actions):
            return None
        for resource, label in zip(self.resources, self.labels, strict=True):
            pattern = substitute(resource, variables)
            if pattern is not None and pattern.like(request.resource):
                return label if self._conditions_hold(request.keys, variables) else None
        return None

    def _conditions_hold(self, context: Context, variables: Mapping[str, str]) -> bool:
        return all(
            condition(operator, key, values, context, variables)
            for operator, keys in self.conditions.items()
            for key, values in keys.items()
        )


def condition(
    operator: str,
    key: str,
    values: Sequence[str],
    context: Context,
    variables: Mapping[str, str],
) -> bool:
    """One condition (operator, key, policy values) against the request's context.

    https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_condition_operators.html
    """
    present = key in context
    if operator == "Null":
        (value,) = values
        return (not present) if value == "true" else present
    qualifier, _, base = operator.rpartition(":")
    if base.endswith("IfExists"):
        raise Unsupported(f"condition operator {operator}")
    patterns = [p for p in (substitute(v, variables) for v in values) if p is not None]
    compare = _COMPARISONS.get(base.removeprefix("StringNot").removeprefix("Not"))
    if compare is None or qualifier not in {"", "ForAllValues", "ForAnyValue"}:
        raise Unsupported(f"condition operator {operator}")
    negated = base.startswith("StringNot") or base.startswith("ArnNot")

    def one(value: str) -> bool:
        hit = any(compare(p, value) for p in patterns)
        return not hit if negated else hit

    if qualifier == "ForAllValues":
        return all(one(v) for v in context.get(key, ()))
    if qualifier == "ForAnyValue":
        return any(one(v) for v in context.get(key, ()))
    if not present:
        # A negated operator holds for a key the request lacks; the others do not.
        return negated
    if len(context[key]) != 1:
        raise Unsupported(f"{operator} on the multivalued key {key}: use ForAllValues/ForAnyValue")
    return one(context[key][0])


def _arn_like(pattern: Pattern, value: str) -> bool:
    # ArnLike matches each of the six ARN segments on its own.
    wanted, got = pattern.split(":", 5), value.split(":", 5)
    return len(wanted) == len(got) == 6 and all(w.like(g) for w, g in zip(wanted, got, strict=True))


_COMPARISONS: dict[str, Callable[[Pattern, str], bool]] = {
    "StringEquals": Pattern.equals,
    "Equals": Pattern.equals,  # StringNotEquals
    "StringLike": Pattern.like,
    "Like": Pattern.like,  # StringNotLike
    "ArnLike": _arn_like,
    "ArnEquals": _arn_like,  # IAM: ArnEquals behaves as ArnLike
}


@dataclass(frozen=True, slots=True)
class Policy:
    """Identity-policy statements of one principal (or one session policy)."""

    statements: tuple[Statement, ...]

    def decide(self, request: Request, variables: Mapping[str, str]) -> tuple[bool, str | None]:
        """(allowed, label of the allowing resource); an explicit Deny always refuses."""
        allowed: str | None = None
        for statement in self.statements:
            label = statement.applies(request, variables)
            if label is None:
                continue
            if statement.effect == "Deny":
                return False, None
            allowed = allowed or label
        return allowed is not None, allowed

    @classmethod
    def from_document(cls, document: Mapping[str, Any]) -> Policy:
        """A policy from plain JSON (a session policy): labels are the ARNs themselves."""
        return cls(
            tuple(
                parse_statement(s, lambda v: (str(v), str(v))) for s in _list(document["Statement"])
            )
        )


def parse_statement(raw: Mapping[str, Any], resolve: Any) -> Statement:
    """A statement from its JSON; ``resolve(value) -> (arn, label)`` resolves a Resource."""
    unsupported = {"NotAction", "NotResource", "NotPrincipal"} & set(raw)
    if unsupported:
        raise Unsupported(f"statement with {sorted(unsupported)}")
    resolved = [resolve(r) for r in _list(raw["Resource"])]
    conditions = {
        operator: {
            key: tuple(str(v).lower() if isinstance(v, bool) else str(v) for v in _list(values))
            for key, values in keys.items()
        }
        for operator, keys in raw.get("Condition", {}).items()
    }
    return Statement(
        effect=raw["Effect"],
        actions=tuple(str(a) for a in _list(raw["Action"])),
        resources=tuple(r for r, _ in resolved),
        labels=tuple(label for _, label in resolved),
        conditions=conditions,
    )


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


# --- the template, bound to a deployment -----------------------------------------------


@dataclass(frozen=True, slots=True)
class LogicalIds:
    """The template's logical ids of what the functions touch (from the synthesized stack)."""

    tables: Mapping[str, str]
    documents: str
    knowledge_base: str
    pseudonym_key: str
    tenant_role: str
    function_roles: Mapping[str, str]
    state_machine: str


@dataclass(frozen=True, slots=True)
class Deployment:
    """Where a harness put the stack: its settings, Region and account."""

    settings: AwsSettings
    region: str
    account: str = ACCOUNT
    # The consolidation state machine the harness deployed, if any (its executions' names
    # are what record_failure may describe).
    state_machine_name: str | None = None

    def bindings(self, ids: LogicalIds) -> dict[str, dict[str, str]]:
        """Logical id -> {attribute or "Ref": physical value} for every bound resource."""
        s = self.settings

        def table(name: str) -> dict[str, str]:
            return {
                "Ref": name,
                "Arn": f"arn:aws:dynamodb:{self.region}:{self.account}:table/{name}",
            }

        bound = {ids.tables[n]: table(getattr(s, f"{n}_table")) for n in ids.tables}
        bound[ids.documents] = {"Ref": s.kb_bucket, "Arn": f"arn:aws:s3:::{s.kb_bucket}"}
        kb_arn = (
            f"arn:aws:bedrock:{self.region}:{self.account}:knowledge-base/{s.knowledge_base_id}"
        )
        bound[ids.knowledge_base] = {
            "KnowledgeBaseId": s.knowledge_base_id,
            "KnowledgeBaseArn": kb_arn,
        }
        if s.pseudonym_secret_arn:
            bound[ids.pseudonym_key] = {"Ref": s.pseudonym_secret_arn}
        if s.tenant_role_arn:
            bound[ids.tenant_role] = {
                "Arn": s.tenant_role_arn,
                "Ref": s.tenant_role_arn.rsplit("/", 1)[-1],
            }
        for role in ids.function_roles.values():
            bound[role] = {"Arn": self.function_role_arn(role), "Ref": role}
        if self.state_machine_name:
            arn = f"arn:aws:states:{self.region}:{self.account}:stateMachine:"
            arn += self.state_machine_name
            bound[ids.state_machine] = {"Ref": arn, "Arn": arn, "Name": self.state_machine_name}
        return bound

    def function_role_arn(self, logical_id: str) -> str:
        """The ARN a function role stands for here (the function's calls come from it)."""
        return f"arn:aws:iam::{self.account}:role/{logical_id}"


@dataclass(frozen=True, slots=True)
class Template:
    """A synthesized template and the logical ids of what functions touch."""

    resources: Mapping[str, Mapping[str, Any]]
    ids: LogicalIds

    def role_policy(self, role_id: str, deployment: Deployment) -> Policy:
        """Every identity-policy statement of role ``role_id``, resolved for ``deployment``."""
        role = self.resources[role_id]["Properties"]
        if role.get("ManagedPolicyArns") or role.get("Policies"):
            raise Unsupported(f"{role_id} has managed or inline role policies: not evaluated")
        resolve = _Resolver(deployment.bindings(self.ids), deployment)
        return Policy(
            tuple(
                parse_statement(statement, resolve)
                for resource in self.resources.values()
                if resource["Type"] == "AWS::IAM::Policy"
                and {"Ref": role_id} in resource["Properties"]["Roles"]
                for statement in resource["Properties"]["PolicyDocument"]["Statement"]
            )
        )

    def managed_policy(
        self,
        policy_id: str,
        deployment: Deployment,
        bindings: Mapping[str, Mapping[str, str]],
    ) -> Policy:
        """The statements of managed policy ``policy_id`` (one a person attaches to their own
        role: the agent's), resolved for ``deployment`` and the physical names in ``bindings``.
        """
        document = self.resources[policy_id]["Properties"]["PolicyDocument"]
        resolve = _Resolver({**deployment.bindings(self.ids), **bindings}, deployment)
        return Policy(tuple(parse_statement(raw, resolve) for raw in _list(document["Statement"])))

    def trusts(
        self, role_id: str, principal_arn: str, request: Request, deployment: Deployment
    ) -> bool:
        """Whether role ``role_id``'s trust policy lets ``principal_arn`` make ``request``."""
        document = self.resources[role_id]["Properties"]["AssumeRolePolicyDocument"]
        resolve = _Resolver(deployment.bindings(self.ids), deployment)
        allowed = False
        for raw in _list(document["Statement"]):
            principals = {
                str(resolve(p)[0]) for p in _list(raw.get("Principal", {}).get("AWS", []))
            }
            if principal_arn not in principals:
                continue
            statement = parse_statement({**raw, "Resource": request.resource}, lambda v: (v, v))
            if statement.applies(request, {}) is not None:
                if statement.effect == "Deny":
                    return False
                allowed = True
        return allowed


class _Resolver:
    """Resolves a template value (intrinsics included) to (ARN, label)."""

    def __init__(self, bindings: Mapping[str, Mapping[str, str]], deployment: Deployment) -> None:
        self._bindings = bindings
        self._pseudo = {
            "AWS::Partition": "aws",
            "AWS::Region": deployment.region,
            "AWS::AccountId": deployment.account,
            "AWS::URLSuffix": "amazonaws.com",
        }

    def __call__(self, value: Any) -> tuple[str, str]:
        return self._value(value), self._label(value)

    def _attribute(self, logical_id: str, attribute: str) -> str:
        # An unbound resource resolves to a name no request carries: granted nothing.
        return self._bindings.get(logical_id, {}).get(
            attribute, f"unbound:{logical_id}.{attribute}"
        )

    def _value(self, value: Any) -> str:
        if isinstance(value, str):
            return value
        ((function, argument),) = value.items()
        if function == "Ref":
            return self._pseudo.get(argument) or self._attribute(argument, "Ref")
        if function == "Fn::GetAtt":
            return self._attribute(*argument)
        if function == "Fn::Join":
            separator, parts = argument
            return str(separator).join(self._value(p) for p in parts)
        if function == "Fn::Sub" and isinstance(argument, str):
            return re.sub(r"\$\{(!?)([^}]+)\}", self._sub, argument)
        raise Unsupported(f"intrinsic {function} in a policy")

    def _sub(self, found: re.Match[str]) -> str:
        if found.group(1):
            return "${" + found.group(2) + "}"
        name = found.group(2)
        if name in self._pseudo:
            return self._pseudo[name]
        if "." in name:
            return self._attribute(*name.split(".", 1))
        return self._attribute(name, "Ref")

    def _label(self, value: Any) -> str:
        if isinstance(value, str):
            return value
        ((function, argument),) = value.items()
        if function == "Ref":
            return f"<{argument}>"
        if function == "Fn::GetAtt":
            return f"<{argument[0]}.{argument[1]}>"
        if function == "Fn::Join":
            return str(argument[0]).join(self._label(p) for p in argument[1])
        return json.dumps(value)


# --- the verdict on one request --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Assumed:
    """Credentials from an AssumeRole: the role, the session policy and the session tags."""

    role_arn: str
    session_policy: str | None
    tags: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether ``function`` may make ``request``; ``denied_by`` names the refusing policy,
    ``granted_by`` the template resource (label) of the function role's allowing statement.
    """

    function: str
    request: Request
    denied_by: str | None = None
    granted_by: str | None = None

    @property
    def allowed(self) -> bool:
        return self.denied_by is None


class Checker:
    """Evaluates recorded requests against one synthesized template."""

    def __init__(self, template: Template) -> None:
        self.template = template
        self._policies: dict[tuple[str, Deployment], Policy] = {}
        self._sessions: dict[str, Policy] = {}

    def policy(self, role_id: str, deployment: Deployment) -> Policy:
        key = (role_id, deployment)
        if key not in self._policies:
            self._policies[key] = self.template.role_policy(role_id, deployment)
        return self._policies[key]

    def verdict(
        self,
        function: str,
        request: Request,
        deployment: Deployment,
        assumed: Assumed | None = None,
    ) -> Verdict:
        """The verdict on ``request`` made by ``function`` (with ``assumed`` credentials, if
        any) in ``deployment``."""
        ids = self.template.ids
        role_id = ids.function_roles.get(function)
        if role_id is None:
            raise Unsupported(f"{function} has no role in the template")
        if assumed is None:
            allowed, label = self.policy(role_id, deployment).decide(request, {})
            if not allowed:
                return Verdict(function, request, "function role")
            tenant_role = deployment.settings.tenant_role_arn
            if (
                request.action in {"sts:AssumeRole", "sts:TagSession"}
                and request.resource == tenant_role
            ):
                principal = deployment.function_role_arn(role_id)
                if not self.template.trusts(ids.tenant_role, principal, request, deployment):
                    return Verdict(function, request, "tenant role's trust policy")
            return Verdict(function, request, granted_by=label)
        if assumed.role_arn != deployment.settings.tenant_role_arn:
            raise Unsupported(f"credentials of {assumed.role_arn}, not the tenant role")
        variables = {f"aws:PrincipalTag/{k}": v for k, v in assumed.tags}
        # A session's tags are also condition keys of its requests (aws:PrincipalTag/<key>).
        tags = {k: (v,) for k, v in variables.items()}
        tagged = Request.of(request.action, request.resource, {**request.keys, **tags})
        refused = []
        tenant_allowed, label = self.policy(ids.tenant_role, deployment).decide(tagged, variables)
        if not tenant_allowed:
            refused.append("tenant role")
        if assumed.session_policy is not None:
            session = self._sessions.get(assumed.session_policy)
            if session is None:
                session = Policy.from_document(json.loads(assumed.session_policy))
                self._sessions[assumed.session_policy] = session
            if not session.decide(tagged, variables)[0]:
                refused.append("session policy")
        granted = None if label is None else f"tenant role: {label}"
        return Verdict(function, request, " and ".join(refused) or None, granted_by=granted)
