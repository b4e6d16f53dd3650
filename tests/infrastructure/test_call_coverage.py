"""The check that every AWS call a handler makes is granted by the synthesized template.

moto enforces no IAM: the session's recorder (tests/support/aws_calls.py) sees each handler's
calls and evaluates them against the roles here. These tests show the checker finds what AWS
would refuse, by itself: a missing grant, another tenant's key, a session policy wider than
the tenant role, a call it cannot map. IAM's evaluation logic:
https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic.html
"""

from __future__ import annotations

import copy
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from unittest import mock

import boto3
import pytest
from botocore.stub import Stubber

from agent_memory.adapters.aws.tenant_credentials import packed_policy, tenant_session_policy
from agent_memory.wiring import aws as wiring
from agent_memory.wiring.aws_settings import AwsSettings
from stacks.memory_stack import MemoryStack
from tests.support.aws_calls import FUNCTIONS_DIR, CallRecorder, Recorded, check, template_of
from tests.support.iam_check import (
    ACCOUNT,
    Assumed,
    Checker,
    Deployment,
    Request,
    Tables,
    Template,
    Unsupported,
    requests_for,
)

REGION = "us-east-1"
KB_ID = "KB12345678"
KB_ARN = f"arn:aws:bedrock:{REGION}:{ACCOUNT}:knowledge-base/{KB_ID}"
TENANT_ROLE = f"arn:aws:iam::{ACCOUNT}:role/tenant-data"
TABLES = {name: f"am-{name}" for name in ("episodes", "facts", "procedures", "ledger")}
SETTINGS = AwsSettings(
    episodes_table=TABLES["episodes"],
    facts_table=TABLES["facts"],
    procedures_table=TABLES["procedures"],
    ledger_table=TABLES["ledger"],
    kb_bucket="am-kb-docs",
    knowledge_base_id=KB_ID,
    kb_data_source_id="DS12345678",
    tenant_role_arn=TENANT_ROLE,
    tenant_table_arns=tuple(
        f"arn:aws:dynamodb:{REGION}:{ACCOUNT}:table/{t}" for t in TABLES.values()
    ),
)
DEPLOYMENT = Deployment(SETTINGS, REGION)


@pytest.fixture(scope="module")
def roles(stack: MemoryStack, resources: dict[str, dict[str, Any]]) -> Template:
    return template_of(stack, resources)


def requests(service: str, operation: str, **params: Any) -> list[Request]:
    return requests_for(service, operation, params, region=REGION, tables=Tables.of(SETTINGS))


def retrieve() -> Request:
    (request,) = requests(
        "bedrock-agent-runtime",
        "Retrieve",
        knowledgeBaseId=KB_ID,
        retrievalQuery={"text": "notice period"},
    )
    return request


def tenant(tenant_id: str) -> Assumed:
    """Credentials of the tenant role as the runtime assumes it: session policy and tag."""
    policy = tenant_session_policy(
        tenant_id, table_arns=SETTINGS.tenant_table_arns, bucket=SETTINGS.kb_bucket
    )
    return Assumed(TENANT_ROLE, packed_policy(policy), (("tenant_id", tenant_id),))


def without_retrieve(template: Template, function: str) -> Template:
    """``template`` with ``function``'s bedrock:Retrieve statement taken out."""
    resources = copy.deepcopy(dict(template.resources))
    role = {"Ref": template.ids.function_roles[function]}
    for resource in resources.values():
        if resource["Type"] == "AWS::IAM::Policy" and role in resource["Properties"]["Roles"]:
            document = resource["Properties"]["PolicyDocument"]
            document["Statement"] = [
                s for s in document["Statement"] if s["Action"] != "bedrock:Retrieve"
            ]
    return Template(resources, template.ids)


def test_confirm_facts_retrieve_is_granted_by_its_role(roles: Template) -> None:
    # Given ConfirmFacts asking the knowledge base, as semantic.find_conflict does
    # When the call is checked against the synthesized template
    verdict = Checker(roles).verdict("confirm_facts", retrieve(), DEPLOYMENT)
    # Then its role's bedrock:Retrieve statement on the knowledge base allows it
    assert verdict.allowed, verdict
    assert verdict.granted_by == f"<{roles.ids.knowledge_base}.KnowledgeBaseArn>"


def test_a_removed_grant_fails_naming_function_action_and_resource(roles: Template) -> None:
    # Given the same recorded call, and a template whose ConfirmFacts role lost Retrieve
    recorder = CallRecorder()
    recorder.recorded.add(Recorded("confirm_facts", retrieve(), DEPLOYMENT, None))
    # When the session's check runs against it
    report = check(recorder, lambda _: without_retrieve(roles, "confirm_facts"))
    # Then it fails, naming the function, the action, the KB's ARN and the refusing policy
    assert report.failed
    assert report.lines() == [
        f"NOT GRANTED: confirm_facts calls bedrock:Retrieve on {KB_ARN} "
        "(denied by the function role)"
    ]
    # ... and bootstrap, which keeps its own grant, is still allowed
    assert (
        Checker(without_retrieve(roles, "confirm_facts"))
        .verdict("bootstrap", retrieve(), DEPLOYMENT)
        .allowed
    )


def test_a_tenant_session_reaches_its_own_keys_only(roles: Template) -> None:
    checker = Checker(roles)

    def get(pk: str) -> Request:
        (request,) = requests(
            "dynamodb",
            "GetItem",
            TableName=TABLES["episodes"],
            Key={"pk": {"S": pk}, "sk": {"S": "EP#1"}},
        )
        return request

    # Given write_episode on acme's credentials (tenant role, acme's session policy and tag)
    # When it reads an acme key, then a globex key
    own = checker.verdict("write_episode", get("acme#reviewer"), DEPLOYMENT, tenant("acme"))
    other = checker.verdict("write_episode", get("globex#reviewer"), DEPLOYMENT, tenant("acme"))
    # Then dynamodb:LeadingKeys allows the first and both policies refuse the second
    assert own.allowed, own
    assert other.denied_by == "tenant role and session policy"
    # ... and the function's own role, which has no table grant, refuses even acme's key
    assert checker.verdict("write_episode", get("acme#reviewer"), DEPLOYMENT).denied_by == (
        "function role"
    )


def test_a_session_policy_grant_the_tenant_role_lacks_is_refused(roles: Template) -> None:
    # Given a Query on the facts' awaiting-index, keyed "{LABEL}#{n}" across tenants: the
    # session policy opens every index of the tables, the tenant role only tenant-keyed ones
    (query,) = requests(
        "dynamodb",
        "Query",
        TableName=TABLES["facts"],
        IndexName="awaiting-index",
        KeyConditionExpression="#s = :s",
        ExpressionAttributeNames={"#s": "awaiting_shard"},
        ExpressionAttributeValues={":s": {"S": "acme#0"}},
    )
    # When acme's credentials make it
    verdict = Checker(roles).verdict("confirm_facts", query, DEPLOYMENT, tenant("acme"))
    # Then the tenant role refuses it, though the session policy alone would allow it
    assert verdict.denied_by == "tenant role"


def test_listing_another_tenants_prefix_is_refused(roles: Template) -> None:
    checker = Checker(roles)

    def listing(prefix: str) -> Request:
        (request,) = requests("s3", "ListObjectsV2", Bucket=SETTINGS.kb_bucket, Prefix=prefix)
        return request

    # Given stage_kb_docs on acme's credentials listing the documents bucket (s3:prefix)
    mine = checker.verdict("stage_kb_docs", listing("tenants/acme/"), DEPLOYMENT, tenant("acme"))
    theirs = checker.verdict(
        "stage_kb_docs", listing("tenants/globex/"), DEPLOYMENT, tenant("acme")
    )
    # Then only its own prefix may be listed
    assert mine.allowed, mine
    assert theirs.denied_by == "tenant role and session policy"


def test_assuming_the_tenant_role_needs_a_tag_its_trust_policy_accepts(roles: Template) -> None:
    checker = Checker(roles)

    def assume(tag: str) -> list[Request]:
        return requests(
            "sts",
            "AssumeRole",
            RoleArn=TENANT_ROLE,
            RoleSessionName="am-acme",
            Tags=[{"Key": "tenant_id", "Value": tag}],
        )

    # Given a tenant-scoped function assuming the tenant role with a tenant_id tag
    # Then AssumeRole and TagSession are both granted and trusted for a plain tenant id
    assert all(checker.verdict("scrub", r, DEPLOYMENT).allowed for r in assume("acme"))
    # ... the trust policy refuses a tag that would open a path
    assert {checker.verdict("scrub", r, DEPLOYMENT).denied_by for r in assume("a/b")} == {
        "tenant role's trust policy"
    }
    # ... and a cross-tenant job's role may not assume it at all
    assert checker.verdict("decay", assume("acme")[0], DEPLOYMENT).denied_by == "function role"


def test_a_call_without_an_iam_mapping_fails_loudly(roles: Template) -> None:
    # Given calls the checker has no mapping for: an operation, a whole service
    # Then deriving them raises, naming the operation
    with pytest.raises(Unsupported, match="dynamodb:DescribeTable"):
        requests("dynamodb", "DescribeTable", TableName=TABLES["facts"])
    with pytest.raises(Unsupported, match="'kinesis'"):
        requests("kinesis", "PutRecord", StreamName="s")
    # ... and a recorded unmappable call fails the session's check
    recorder = CallRecorder()
    recorder.unevaluable[("decay", "dynamodb:DescribeTable")] = "no IAM mapping"
    assert check(recorder, lambda _: roles).failed


def test_transactions_are_authorized_per_item_action() -> None:
    # Given a TransactWriteItems with a Put and a ConditionCheck
    # (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis-iam.html)
    found = requests(
        "dynamodb",
        "TransactWriteItems",
        TransactItems=[
            {"Put": {"TableName": TABLES["facts"], "Item": {"pk": {"S": "acme#x"}}}},
            {"ConditionCheck": {"TableName": TABLES["ledger"], "Key": {"key": {"S": "acme#r"}}}},
        ],
    )
    # Then each item is its own action, with its own leading key
    assert [(r.action, r.keys["dynamodb:LeadingKeys"]) for r in found] == [
        ("dynamodb:PutItem", ("acme#x",)),
        ("dynamodb:ConditionCheckItem", ("acme#r",)),
    ]


def test_the_recorder_attributes_calls_to_the_handler_on_the_stack() -> None:
    # Given code running from functions/confirm_facts/handler.py that calls Retrieve
    # directly and from a thread-pool task (bootstrap's reads run so)
    client = boto3.client(
        "bedrock-agent-runtime",
        region_name=REGION,
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )
    source = "def handler(call, pool):\n    call()\n    pool.submit(call).result()\n"
    namespace: dict[str, Any] = {}
    exec(compile(source, str(FUNCTIONS_DIR / "confirm_facts" / "handler.py"), "exec"), namespace)
    runtime = wiring.AwsRuntime(SETTINGS, session=boto3.Session(region_name=REGION))
    recorder = CallRecorder()

    def call() -> None:
        client.retrieve(knowledgeBaseId=KB_ID, retrievalQuery={"text": "q"})

    # When the recorder is installed around it (and around a call from no handler)
    recorder.install()
    try:
        with Stubber(client) as stub, mock.patch.object(wiring, "_current", runtime):
            for _ in range(3):
                stub.add_response("retrieve", {"retrievalResults": []})
            with ThreadPoolExecutor(max_workers=1) as pool:
                namespace["handler"](call, pool)
            call()
    finally:
        recorder.uninstall()
    # Then both handler calls are ConfirmFacts' Retrieve on the KB; the other is not checked
    assert recorder.calls == 2
    assert {(r.function, r.request) for r in recorder.recorded} == {
        ("confirm_facts", Request("bedrock:Retrieve", KB_ARN))
    }
