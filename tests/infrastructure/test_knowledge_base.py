from __future__ import annotations

import re

from aws_cdk import App, Stack
from aws_cdk import aws_bedrock as bedrock
from aws_cdk.assertions import Match, Template

from stacks.knowledge_base import replacement_name
from stacks.memory_stack import MemoryStack
from tests.infrastructure.helpers import Resources, actions, logical_id, statements_of, text

TITAN = "::foundation-model/amazon.titan-embed-text-v2:0"


def test_kb_embeds_with_titan_v2_into_s3_vectors(stack: MemoryStack, resources: Resources):
    props = resources[logical_id(stack.knowledge_base.knowledge_base)]["Properties"]
    vector = props["KnowledgeBaseConfiguration"]["VectorKnowledgeBaseConfiguration"]
    assert text(vector["EmbeddingModelArn"]).endswith(TITAN)
    assert vector["EmbeddingModelConfiguration"]["BedrockEmbeddingModelConfiguration"] == {
        "Dimensions": 1024,
        "EmbeddingDataType": "FLOAT32",
    }
    storage = props["StorageConfiguration"]
    assert storage["Type"] == "S3_VECTORS"
    index_id = logical_id(stack.knowledge_base.index)
    assert storage["S3VectorsConfiguration"]["IndexArn"] == {"Fn::GetAtt": [index_id, "IndexArn"]}


def test_vector_index_keeps_bedrock_text_unfiltered_and_the_rest_filterable(template: Template):
    template.has_resource_properties(
        "AWS::S3Vectors::Index",
        {
            "DataType": "float32",
            "Dimension": 1024,
            "DistanceMetric": "cosine",
            "MetadataConfiguration": {
                "NonFilterableMetadataKeys": ["AMAZON_BEDROCK_TEXT", "AMAZON_BEDROCK_METADATA"]
            },
        },
    )


def test_data_source_reads_tenant_documents_one_fact_per_chunk(
    stack: MemoryStack, resources: Resources
):
    props = resources[logical_id(stack.knowledge_base.data_source)]["Properties"]
    s3 = props["DataSourceConfiguration"]["S3Configuration"]
    assert s3["BucketArn"] == {"Fn::GetAtt": [logical_id(stack.storage.documents), "Arn"]}
    assert s3["InclusionPrefixes"] == ["tenants/"]
    chunking = props["VectorIngestionConfiguration"]["ChunkingConfiguration"]
    assert chunking == {"ChunkingStrategy": "NONE"}


def test_kb_is_created_after_its_role_policy(stack: MemoryStack, resources: Resources):
    kb = resources[logical_id(stack.knowledge_base.knowledge_base)]
    policy = stack.knowledge_base.role.node.find_child("DefaultPolicy")
    assert logical_id(policy) in kb["DependsOn"]


def test_kb_role_embeds_with_titan_and_reads_only_the_tenants_prefix(
    stack: MemoryStack, resources: Resources
):
    statements = statements_of(resources, logical_id(stack.knowledge_base.role))
    by_action = {a: s for s in statements for a in actions(s)}
    assert text(by_action["bedrock:InvokeModel"]["Resource"]).endswith(TITAN)
    assert text(by_action["s3:GetObject"]["Resource"]).endswith("/tenants/*")
    assert by_action["s3:ListBucket"]["Condition"] == {"StringLike": {"s3:prefix": "tenants/*"}}
    index = {"Fn::GetAtt": [logical_id(stack.knowledge_base.index), "IndexArn"]}
    assert by_action["s3vectors:QueryVectors"]["Resource"] == index
    assert by_action["s3vectors:PutVectors"]["Resource"] == index


def test_only_bedrock_of_this_account_may_assume_the_kb_role(template: Template):
    template.has_resource_properties(
        "AWS::IAM::Role",
        {
            "AssumeRolePolicyDocument": {
                "Statement": [
                    Match.object_like(
                        {
                            "Principal": {"Service": "bedrock.amazonaws.com"},
                            "Condition": Match.object_like(
                                {"StringEquals": {"aws:SourceAccount": {"Ref": "AWS::AccountId"}}}
                            ),
                        }
                    )
                ]
            }
        },
    )


def _knowledge_base(model: str, description: str) -> bedrock.CfnKnowledgeBase:
    stack = Stack(App(), "Probe")
    kb = bedrock.CfnKnowledgeBase(
        stack,
        "KnowledgeBase",
        name="set below",
        description=description,
        role_arn="arn:aws:iam::123456789012:role/kb",
        knowledge_base_configuration=bedrock.CfnKnowledgeBase.KnowledgeBaseConfigurationProperty(
            type="VECTOR",
            vector_knowledge_base_configuration=(
                bedrock.CfnKnowledgeBase.VectorKnowledgeBaseConfigurationProperty(
                    embedding_model_arn=f"arn:aws:bedrock:us-east-1::foundation-model/{model}"
                )
            ),
        ),
    )
    return kb


def _name(kb: bedrock.CfnKnowledgeBase) -> str:
    return replacement_name(kb, "AgentMemory-memory", kb.knowledge_base_configuration)


def test_a_replaced_kb_gets_a_new_name_and_an_updated_one_keeps_it() -> None:
    # Given the same KB, then with another embedding model (a replacement, per the
    # AWS::Bedrock::KnowledgeBase reference: KnowledgeBaseConfiguration "Update requires:
    # Replacement"), then with another description (an update in place)
    first = _name(_knowledge_base("amazon.titan-embed-text-v2:0", "a"))
    replaced = _name(_knowledge_base("cohere.embed-english-v3", "a"))
    updated = _name(_knowledge_base("amazon.titan-embed-text-v2:0", "b"))
    # Then only the replacement changes the name, which CloudFormation creates beside the old
    assert replaced != first
    assert updated == first
    assert first.startswith("AgentMemory-memory-") and len(first) <= 100


def test_the_kb_and_data_source_names_follow_what_replaces_them(
    stack: MemoryStack, resources: Resources
) -> None:
    # Given the synthesized KB and data source
    kb = resources[logical_id(stack.knowledge_base.knowledge_base)]["Properties"]["Name"]
    source = resources[logical_id(stack.knowledge_base.data_source)]["Properties"]["Name"]
    # Then neither name is fixed: each ends in its replacement properties' digest
    assert re.fullmatch(r"AgentMemory-memory-[0-9a-f]{8}", kb), kb
    assert re.fullmatch(r"tenant-documents-[0-9a-f]{8}", source), source


def test_a_longest_stack_name_still_gives_a_valid_kb_name() -> None:
    # Given a stack name of CloudFormation's 128 characters
    kb = _knowledge_base("amazon.titan-embed-text-v2:0", "a")
    name = replacement_name(kb, "S" * 128 + "-memory", kb.knowledge_base_configuration)
    # Then the name fits Bedrock's 100 characters and pattern
    assert len(name) <= 100 and re.fullmatch(r"([0-9a-zA-Z][_-]?){1,100}", name)
