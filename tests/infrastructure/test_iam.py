"""Least privilege, and tenant isolation that holds even without a session policy."""

from __future__ import annotations

from aws_cdk import App, Stack
from aws_cdk import aws_iam as iam

from agent_memory.adapters.aws import dynamodb_schema as schema
from stacks.bedrock_models import invoke_statements
from stacks.functions import SPECS
from stacks.memory_stack import MemoryStack
from stacks.tenant_access import NOT_IN_TENANT_IDS, TENANT_ID_SHAPES
from tests.infrastructure.helpers import (
    Resources,
    actions,
    as_list,
    logical_id,
    references,
    statements_of,
    text,
)
from tests.support.iam_check import Tables, requests_for

TENANT_SCOPED = {s.name for s in SPECS if s.tenant_scoped}
CROSS_TENANT = {s.name for s in SPECS if not s.tenant_scoped}
TENANT = "${aws:PrincipalTag/tenant_id}"


def _role_statements(stack: MemoryStack, resources: Resources, name: str) -> list[dict]:
    return statements_of(resources, logical_id(stack.functions.roles[name]))


def _tenant_data_ids(stack: MemoryStack) -> set[str]:
    return {logical_id(t) for t in stack.storage.tables.values()} | {
        logical_id(stack.storage.documents)
    }


def test_tenant_scoped_functions_have_no_direct_access_to_tenant_data(
    stack: MemoryStack, resources: Resources
):
    assert {
        "bootstrap",
        "extract",
        "scrub",
        "write_episode",
        "confirm_facts",
        "stage_kb_docs",
        "propose_procedure",
        "procedure_review",
        "episodes",
    } == TENANT_SCOPED
    tenant_data = _tenant_data_ids(stack)
    for name in TENANT_SCOPED:
        for statement in _role_statements(stack, resources, name):
            data_actions = [a for a in actions(statement) if a.startswith(("dynamodb:", "s3:"))]
            if data_actions:
                assert not references(statement["Resource"]) & tenant_data, (name, statement)


def test_tenant_scoped_functions_may_assume_the_tenant_role_with_a_tag(
    stack: MemoryStack, resources: Resources
):
    role = {"Fn::GetAtt": [logical_id(stack.functions.tenant_data.role), "Arn"]}
    for name in TENANT_SCOPED:
        statements = _role_statements(stack, resources, name)
        assert {
            "Action": ["sts:AssumeRole", "sts:TagSession"],
            "Effect": "Allow",
            "Resource": role,
        } in statements


def test_only_tenant_scoped_functions_are_trusted_and_only_with_one_tenant_tag(
    stack: MemoryStack, resources: Resources
):
    role = resources[logical_id(stack.functions.tenant_data.role)]
    [trust] = role["Properties"]["AssumeRolePolicyDocument"]["Statement"]
    assert trust["Action"] == ["sts:AssumeRole", "sts:TagSession"]
    trusted = {ref["Fn::GetAtt"][0] for ref in trust["Principal"]["AWS"]}
    assert trusted == {logical_id(stack.functions.roles[n]) for n in TENANT_SCOPED}
    # (what the shapes let through: tests/infrastructure/test_tenant_tags.py)
    assert trust["Condition"] == {
        "StringLike": {"aws:RequestTag/tenant_id": list(TENANT_ID_SHAPES)},
        "StringNotLike": {"aws:RequestTag/tenant_id": list(NOT_IN_TENANT_IDS)},
        "ForAllValues:StringEquals": {"aws:TagKeys": ["tenant_id"]},
    }


def test_tenant_role_reaches_only_keys_that_start_with_the_tagged_tenant(
    stack: MemoryStack, resources: Resources
):
    statements = statements_of(resources, logical_id(stack.functions.tenant_data.role))
    dynamodb = [s for s in statements if any(a.startswith("dynamodb:") for a in actions(s))]
    assert len(dynamodb) == 1
    [statement] = dynamodb
    assert statement["Condition"] == {
        "ForAllValues:StringLike": {"dynamodb:LeadingKeys": [f"{TENANT}#*"]},
        "Null": {"dynamodb:LeadingKeys": "false"},
    }
    # No Scan or PartiQL: they name no leading key, which ForAllValues would let through.
    assert not [a for a in actions(statement) if "Scan" in a or "PartiQL" in a or "*" in a]
    assert references(statement["Resource"]) == {
        logical_id(t) for t in stack.storage.tables.values()
    }


def test_tenant_role_never_reaches_cross_tenant_indexes(stack: MemoryStack, resources: Resources):
    statements = statements_of(resources, logical_id(stack.functions.tenant_data.role))
    granted = {
        text(r).rsplit("/", 1)[-1]
        for s in statements
        for r in as_list(s["Resource"])
        if "/index/" in text(r)
    }
    assert granted == {
        schema.AGENT_TIME_INDEX,
        schema.TENANT_INDEX,
        schema.FAST_PATH_INDEX,
        schema.PREFIX_INDEX,
    }
    assert "*" not in granted


def test_tenant_role_reaches_only_the_tagged_tenants_documents(
    stack: MemoryStack, resources: Resources
):
    statements = statements_of(resources, logical_id(stack.functions.tenant_data.role))
    s3 = {a: s for s in statements for a in actions(s) if a.startswith("s3:")}
    assert set(s3) == {"s3:GetObject", "s3:PutObject", "s3:DeleteObject", "s3:ListBucket"}
    for action in ("s3:GetObject", "s3:PutObject", "s3:DeleteObject"):
        assert text(s3[action]["Resource"]).endswith(f"/tenants/{TENANT}/*")
    assert s3["s3:ListBucket"]["Condition"] == {"StringLike": {"s3:prefix": f"tenants/{TENANT}/*"}}


def test_cross_tenant_jobs_have_only_their_direct_grants(stack: MemoryStack, resources: Resources):
    tables = {logical_id(t): n for n, t in stack.storage.tables.items()}
    for spec in SPECS:
        granted: dict[str, set[str]] = {}
        for statement in _role_statements(stack, resources, spec.name):
            for table in references(statement["Resource"]) & tables.keys():
                granted.setdefault(tables[table], set()).update(actions(statement))
        expected = {n: set(a) for n, a in (spec.table_actions or {}).items()}
        for name in spec.index_queries or {}:
            expected.setdefault(name, set()).add("dynamodb:Query")
        assert granted == expected, spec.name
    assert {s.name for s in SPECS if s.table_actions} == CROSS_TENANT


def test_record_failure_only_reads_and_writes_the_ledger(stack: MemoryStack, resources: Resources):
    ledger = logical_id(stack.storage.tables["ledger"])
    data = [
        s
        for s in _role_statements(stack, resources, "record_failure")
        if any(a.startswith(("dynamodb:", "s3:")) for a in actions(s))
    ]
    assert [(sorted(actions(s)), references(s["Resource"])) for s in data] == [
        (["dynamodb:GetItem", "dynamodb:PutItem"], {ledger})
    ]


def test_no_function_may_call_comprehend_by_default(stack: MemoryStack, resources: Resources):
    # Given the roles of every function of the default deployment (piiDetector=local)
    for spec in SPECS:
        statements = _role_statements(stack, resources, spec.name)
        # Then none may call Comprehend: the local detectors run inside the functions
        assert not [s for s in statements if "comprehend:DetectPiiEntities" in actions(s)]


def test_under_comprehend_only_the_functions_that_store_or_match_text_detect_pii(
    comprehend_stack: MemoryStack, comprehend_resources: Resources
):
    # Given the roles of every function of a deployment with piiDetector=comprehend
    for spec in SPECS:
        statements = _role_statements(comprehend_stack, comprehend_resources, spec.name)
        detects = [s for s in statements if "comprehend:DetectPiiEntities" in actions(s)]
        # Then only the scrub step, bootstrap (which scrubs its query) and the review function
        # (which scrubs the reviewer's name and reason) may call Comprehend
        scrubbing = {"scrub", "bootstrap", "procedure_review"}
        assert bool(detects) == (spec.name in scrubbing), spec.name
        # CDK merges it with X-Ray's statement: both have no resource-level permissions.
        for statement in detects:
            others = [a for a in actions(statement) if not a.startswith("xray:")]
            assert others == ["comprehend:DetectPiiEntities"]
            assert statement["Resource"] == "*"


def test_only_the_scrubbing_and_receipt_checking_functions_read_the_secret(
    stack: MemoryStack, resources: Resources
):
    # Given the generated, retained pseudonym secret (serving receipts derive their key from it)
    secret = logical_id(stack.functions.pseudonym_key)
    properties = resources[secret]["Properties"]
    assert properties["GenerateSecretString"]["PasswordLength"] >= 32
    assert resources[secret]["DeletionPolicy"] == "Retain"
    for spec in SPECS:
        # When a function's role statements are read
        statements = _role_statements(stack, resources, spec.name)
        reads = [s for s in statements if secret in references(s["Resource"])]
        # Then only the functions that scrub, and the one checking receipts, may read it, and
        # only read it
        keyed = {"scrub", "bootstrap", "propose_procedure", "procedure_review"}
        assert bool(reads) == (spec.name in keyed), spec.name
        for statement in reads:
            assert set(actions(statement)) <= {
                "secretsmanager:GetSecretValue",
                "secretsmanager:DescribeSecret",
            }
        # And no other statement names a secret at all
        others = [s for s in statements if s not in reads]
        assert not any(a.startswith("secretsmanager:") for s in others for a in actions(s))


def test_models_are_invoked_only_where_needed_and_only_titan_v2(
    stack: MemoryStack, resources: Resources
):
    # procedure_review embeds a person's fact (a correction, an assertion) as agents' are.
    embedders = {"bootstrap", "write_episode", "confirm_facts", "reembed", "procedure_review"}
    for spec in SPECS:
        statements = _role_statements(stack, resources, spec.name)
        invoke = [s for s in statements if any(a.startswith("bedrock:Invoke") for a in actions(s))]
        assert bool(invoke) == (spec.name in embedders), spec.name
        for statement in invoke:
            assert text(statement["Resource"]).endswith(
                "::foundation-model/amazon.titan-embed-text-v2:0"
            )


def test_retrieve_and_ingestion_are_granted_on_the_kb_only_to_their_functions(
    stack: MemoryStack, resources: Resources
):
    kb = logical_id(stack.knowledge_base.knowledge_base)
    # Given the functions whose core step asks the KB: bootstrap serves facts, and
    # confirm_facts looks for a contradicting fact before it promotes one
    expected = {
        "bootstrap": {"bedrock:Retrieve"},
        "confirm_facts": {"bedrock:Retrieve"},
        "ingest": {
            "bedrock:StartIngestionJob",
            "bedrock:GetIngestionJob",
            "bedrock:GetKnowledgeBaseDocuments",
        },
    }
    for spec in SPECS:
        kb_actions = {
            a
            for s in _role_statements(stack, resources, spec.name)
            if references(s["Resource"]) == {kb}
            for a in actions(s)
        }
        assert kb_actions == expected.get(spec.name, set()), spec.name


def test_an_inference_profile_is_granted_with_its_models_pinned_to_it():
    stack = Stack(App(), "Grants")
    profile, model = invoke_statements(stack, "us.anthropic.claude-sonnet-4-5-20250929-v1:0")
    profile_arn = stack.resolve(profile.to_statement_json())["Resource"]
    assert text(profile_arn).endswith(
        ":inference-profile/us.anthropic.claude-sonnet-4-5-20250929-v1:0"
    )
    model_json = stack.resolve(model.to_statement_json())
    assert text(model_json["Resource"]).endswith(
        ":bedrock:*::foundation-model/anthropic.claude-sonnet-4-5-20250929-v1:0"
    )
    assert model_json["Condition"] == {"StringEquals": {"bedrock:InferenceProfileArn": profile_arn}}


def test_a_foundation_model_is_granted_in_this_region_only():
    stack = Stack(App(), "Grants")
    [statement] = invoke_statements(stack, "anthropic.claude-3-haiku-20240307-v1:0")
    resolved = stack.resolve(statement.to_statement_json())
    # The chat adapter streams: ConverseStream is authorized as InvokeModelWithResponseStream
    assert resolved["Action"] == "bedrock:InvokeModelWithResponseStream"
    assert {"Ref": "AWS::Region"} in resolved["Resource"]["Fn::Join"][1]
    assert isinstance(statement, iam.PolicyStatement)


def test_the_chat_models_grant_covers_the_call_the_adapter_makes():
    # Given the request the chat adapter's call derives (ConverseStream, as it streams)
    [request] = requests_for(
        "bedrock-runtime",
        "ConverseStream",
        {"modelId": "anthropic.claude-3-haiku-20240307-v1:0"},
        region="us-east-1",
        tables=Tables({}),
    )
    stack = Stack(App(), "Grants")
    [statement] = invoke_statements(stack, "anthropic.claude-3-haiku-20240307-v1:0")
    # Then the chat model's statement grants that action
    assert request.action in statement.actions
