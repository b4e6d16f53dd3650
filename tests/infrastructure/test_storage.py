from __future__ import annotations

from aws_cdk.assertions import Match, Template

from agent_memory.adapters.aws import dynamodb_schema as schema
from stacks.memory_stack import MemoryStack
from tests.infrastructure.helpers import Resources, logical_id


def test_every_table_is_on_demand_with_recovery_encrypted_and_retained(template: Template):
    tables = template.find_resources("AWS::DynamoDB::Table")
    assert len(tables) == len(schema.TABLES)
    for table in tables.values():
        props = table["Properties"]
        assert props["BillingMode"] == "PAY_PER_REQUEST"
        assert props["PointInTimeRecoverySpecification"] == {"PointInTimeRecoveryEnabled": True}
        assert props["SSESpecification"]["SSEEnabled"] is True
        assert table["DeletionPolicy"] == "Retain"
        assert table["UpdateReplacePolicy"] == "Retain"


def test_episodes_and_ledger_expire_by_ttl(stack: MemoryStack, resources: Resources):
    for name in ("episodes", "ledger"):
        props = resources[logical_id(stack.storage.tables[name])]["Properties"]
        assert props["TimeToLiveSpecification"] == {"AttributeName": "expires_at", "Enabled": True}


def test_tables_follow_the_shared_table_design(stack: MemoryStack, resources: Resources):
    for design in schema.TABLES:
        props = resources[logical_id(stack.storage.tables[design.logical_name])]["Properties"]
        assert [k["AttributeName"] for k in props["KeySchema"]] == list(design.key_names)
        indexes = {i["IndexName"]: i for i in props.get("GlobalSecondaryIndexes", [])}
        assert set(indexes) == {i.name for i in design.indexes}
        for index in design.indexes:
            keys = [k["AttributeName"] for k in indexes[index.name]["KeySchema"]]
            assert keys == list(index.key_names)
            assert indexes[index.name]["Projection"]["ProjectionType"] == index.projection


def test_episodes_are_read_newest_first_per_agent(stack: MemoryStack, resources: Resources):
    props = resources[logical_id(stack.storage.tables["episodes"])]["Properties"]
    index = next(i for i in props["GlobalSecondaryIndexes"] if i["IndexName"] == "agent-time-index")
    assert index["KeySchema"] == [
        {"AttributeName": "pk", "KeyType": "HASH"},
        {"AttributeName": "created_at", "KeyType": "RANGE"},
    ]


def test_documents_bucket_is_encrypted_private_versioned_and_logged(
    stack: MemoryStack, resources: Resources
):
    props = resources[logical_id(stack.storage.documents)]["Properties"]
    encryption = props["BucketEncryption"]["ServerSideEncryptionConfiguration"][0]
    assert encryption["ServerSideEncryptionByDefault"]["SSEAlgorithm"] == "AES256"
    assert props["PublicAccessBlockConfiguration"] == {
        "BlockPublicAcls": True,
        "BlockPublicPolicy": True,
        "IgnorePublicAcls": True,
        "RestrictPublicBuckets": True,
    }
    assert props["VersioningConfiguration"] == {"Status": "Enabled"}
    log_bucket = props["LoggingConfiguration"]["DestinationBucketName"]
    assert log_bucket != {"Ref": logical_id(stack.storage.documents)}


def test_old_document_versions_expire(stack: MemoryStack, resources: Resources):
    rules = resources[logical_id(stack.storage.documents)]["Properties"]["LifecycleConfiguration"]
    assert any("NoncurrentVersionExpiration" in rule for rule in rules["Rules"])


def test_buckets_refuse_plain_http(template: Template):
    for policy in template.find_resources("AWS::S3::BucketPolicy").values():
        statements = policy["Properties"]["PolicyDocument"]["Statement"]
        assert any(
            s["Effect"] == "Deny" and s["Condition"] == {"Bool": {"aws:SecureTransport": "false"}}
            for s in statements
        )


def test_dead_letter_queues_are_encrypted_and_keep_two_weeks(template: Template):
    template.resource_count_is("AWS::SQS::Queue", 2)
    template.all_resources_properties(
        "AWS::SQS::Queue",
        {"SqsManagedSseEnabled": True, "MessageRetentionPeriod": 14 * 86400},
    )
    template.all_resources_properties(
        "AWS::SQS::QueuePolicy",
        {
            "PolicyDocument": {
                "Statement": Match.array_with(
                    [Match.object_like({"Effect": "Deny", "Condition": Match.any_value()})]
                )
            }
        },
    )
