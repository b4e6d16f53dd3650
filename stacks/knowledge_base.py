"""The Bedrock Knowledge Base: Titan v2 embeddings in an S3 Vectors index, fed from the bucket."""

from __future__ import annotations

import hashlib
import json

from aws_cdk import CfnResource, Stack
from aws_cdk import aws_bedrock as bedrock
from aws_cdk import aws_iam as iam
from aws_cdk import aws_s3 as s3
from aws_cdk import aws_s3vectors as s3vectors
from constructs import Construct

from stacks.bedrock_models import EMBEDDING_DIMENSIONS, EMBEDDING_MODEL_ID, foundation_model_arn
from stacks.nag import acknowledge, logical_id

# Bedrock writes these two keys itself; they are large, so S3 Vectors must not index them.
# Every other key (the sidecars' tenant_id, domain, confidence) stays filterable.
NON_FILTERABLE_KEYS = ("AMAZON_BEDROCK_TEXT", "AMAZON_BEDROCK_METADATA")
VECTOR_ACTIONS = (
    "s3vectors:GetIndex",
    "s3vectors:PutVectors",
    "s3vectors:GetVectors",
    "s3vectors:ListVectors",
    "s3vectors:QueryVectors",
    "s3vectors:DeleteVectors",
)

_KB = bedrock.CfnKnowledgeBase
_DS = bedrock.CfnDataSource
# Bedrock's names: ([0-9a-zA-Z][_-]?){1,100}.
_MAX_NAME = 100
_DIGEST = 8


class KnowledgeBase(Construct):
    """Vector bucket and index, the KB's service role, the KB and its S3 data source.

    The data source reads ``<prefix>`` of ``documents`` with chunking NONE: each document is one
    fact, and its ``.metadata.json`` sidecar supplies the filterable ``tenant_id`` and ``domain``.
    """

    def __init__(
        self, scope: Construct, construct_id: str, *, documents: s3.IBucket, prefix: str
    ) -> None:
        super().__init__(scope, construct_id)
        self._documents = documents
        self._prefix = prefix
        self.vector_bucket = self._build_vector_bucket()
        self.index = self._build_index()
        self.role = self._build_role()
        self.knowledge_base = self._build_knowledge_base()
        self.data_source = self._build_data_source()

    @property
    def knowledge_base_id(self) -> str:
        """The KB id (a token)."""
        return self.knowledge_base.attr_knowledge_base_id

    @property
    def knowledge_base_arn(self) -> str:
        """The KB ARN (a token)."""
        return self.knowledge_base.attr_knowledge_base_arn

    @property
    def data_source_id(self) -> str:
        """The data source id (a token)."""
        return self.data_source.attr_data_source_id

    def _build_vector_bucket(self) -> s3vectors.CfnVectorBucket:
        return s3vectors.CfnVectorBucket(
            self,
            "VectorBucket",
            encryption_configuration=s3vectors.CfnVectorBucket.EncryptionConfigurationProperty(
                sse_type="AES256"
            ),
        )

    def _build_index(self) -> s3vectors.CfnIndex:
        return s3vectors.CfnIndex(
            self,
            "Index",
            vector_bucket_arn=self.vector_bucket.attr_vector_bucket_arn,
            data_type="float32",
            dimension=EMBEDDING_DIMENSIONS,
            distance_metric="cosine",
            metadata_configuration=s3vectors.CfnIndex.MetadataConfigurationProperty(
                non_filterable_metadata_keys=list(NON_FILTERABLE_KEYS)
            ),
        )

    def _build_role(self) -> iam.Role:
        stack = Stack.of(self)
        # Confused-deputy guard: only knowledge bases of this account may assume the role.
        role = iam.Role(
            self,
            "ServiceRole",
            description="Bedrock KB: embed with Titan v2, read documents, write vectors",
            assumed_by=iam.ServicePrincipal(
                "bedrock.amazonaws.com",
                conditions={
                    "StringEquals": {"aws:SourceAccount": stack.account},
                    "ArnLike": {
                        "aws:SourceArn": stack.format_arn(
                            service="bedrock", resource="knowledge-base", resource_name="*"
                        )
                    },
                },
            ),
        )
        role.add_to_policy(
            iam.PolicyStatement(
                actions=["bedrock:InvokeModel"],
                resources=[foundation_model_arn(self, EMBEDDING_MODEL_ID)],
            )
        )
        role.add_to_policy(
            iam.PolicyStatement(actions=list(VECTOR_ACTIONS), resources=[self.index.attr_index_arn])
        )
        role.add_to_policy(
            iam.PolicyStatement(
                actions=["s3:ListBucket"],
                resources=[self._documents.bucket_arn],
                conditions={"StringLike": {"s3:prefix": f"{self._prefix}*"}},
            )
        )
        objects = self._documents.arn_for_objects(f"{self._prefix}*")
        role.add_to_policy(iam.PolicyStatement(actions=["s3:GetObject"], resources=[objects]))
        acknowledge(
            role,
            "IAM5",
            "The KB reads every document under the tenants/ prefix it ingests, and only those.",
            findings=[f"Resource::<{logical_id(self._documents)}.Arn>/{self._prefix}*"],
        )
        return role

    def _build_knowledge_base(self) -> bedrock.CfnKnowledgeBase:
        embedding = _KB.BedrockEmbeddingModelConfigurationProperty(
            dimensions=EMBEDDING_DIMENSIONS, embedding_data_type="FLOAT32"
        )
        kb = _KB(
            self,
            "KnowledgeBase",
            name="set below",
            description="agent-memory semantic tier: one confirmed fact per document",
            role_arn=self.role.role_arn,
            knowledge_base_configuration=_KB.KnowledgeBaseConfigurationProperty(
                type="VECTOR",
                vector_knowledge_base_configuration=_KB.VectorKnowledgeBaseConfigurationProperty(
                    embedding_model_arn=foundation_model_arn(self, EMBEDDING_MODEL_ID),
                    embedding_model_configuration=_KB.EmbeddingModelConfigurationProperty(
                        bedrock_embedding_model_configuration=embedding
                    ),
                ),
            ),
            storage_configuration=_KB.StorageConfigurationProperty(
                type="S3_VECTORS",
                s3_vectors_configuration=_KB.S3VectorsConfigurationProperty(
                    index_arn=self.index.attr_index_arn
                ),
            ),
        )
        # A replacement (a new embedding model, another vector index) creates the new KB before
        # deleting the old one: its name must differ, or Bedrock refuses it as existing.
        kb.name = replacement_name(
            kb,
            f"{Stack.of(self).stack_name}-memory",
            kb.knowledge_base_configuration,
            kb.storage_configuration,
        )
        # Bedrock checks the role's permissions when the KB is created: the policy must exist.
        kb.node.add_dependency(self.role)
        return kb

    def _build_data_source(self) -> bedrock.CfnDataSource:
        source = _DS(
            self,
            "DataSource",
            knowledge_base_id=self.knowledge_base_id,
            name="set below",
            description="One JSON document per confirmed fact, with a metadata sidecar",
            data_source_configuration=_DS.DataSourceConfigurationProperty(
                type="S3",
                s3_configuration=_DS.S3DataSourceConfigurationProperty(
                    bucket_arn=self._documents.bucket_arn, inclusion_prefixes=[self._prefix]
                ),
            ),
            vector_ingestion_configuration=_DS.VectorIngestionConfigurationProperty(
                chunking_configuration=_DS.ChunkingConfigurationProperty(chunking_strategy="NONE")
            ),
        )
        # Chunking is replaced, not updated: the new data source, beside the old in the same
        # KB until it is deleted, needs its own name.
        source.name = replacement_name(
            source, "tenant-documents", source.vector_ingestion_configuration
        )
        return source


def replacement_name(resource: CfnResource, base: str, *replaced_by: object) -> str:
    """``base`` and a digest of the properties whose change replaces ``resource``.

    CloudFormation creates a replacement before it deletes the resource it replaces, so a
    fixed name fails with "already exists"; a name that changes with exactly those
    properties stays put on every in-place update and moves on every replacement.
    """
    resolved = Stack.of(resource).resolve(list(replaced_by))
    digest = hashlib.sha256(json.dumps(resolved, sort_keys=True).encode()).hexdigest()[:_DIGEST]
    return f"{base[: _MAX_NAME - _DIGEST - 1]}-{digest}"
