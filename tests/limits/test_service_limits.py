"""Request limits of Comprehend, the knowledge base, STS and Secrets Manager at the product's
maxima: the longest identifiers (128 characters, ``ID_PATTERN``), the longest texts, 4-byte
UTF-8 characters. Each test names the documentation page of its limit.
"""

from __future__ import annotations

import fnmatch
import json
import os
from typing import Any
from unittest import mock

import boto3
import pytest
from botocore.validate import validate_parameters
from moto import mock_aws

from agent_memory.adapters.aws import _kb_documents as layout
from agent_memory.adapters.aws.caller_identity import identity_proof
from agent_memory.adapters.aws.comprehend_pii import (
    MAX_REQUEST_BYTES,
    SAFE_CHUNK_CHARS,
    ComprehendPiiDetector,
)
from agent_memory.adapters.aws.tenant_credentials import (
    MAX_POLICY_CHARS,
    packed_policy,
    tenant_session_policy,
)
from agent_memory.core.api.contracts import MAX_ITEM_CHARS, MAX_MESSAGE_CHARS, MAX_TASK_CHARS
from agent_memory.core.model.models import Fact, FactStatus
from agent_memory.core.model.tenant_identity import tenant_source
from agent_memory.core.tiers.semantic import kb_document
from agent_memory.sdk.events import MAX_DETAIL_BYTES, put_events_entry
from agent_memory.wiring.aws import AwsRuntime
from agent_memory.wiring.aws_settings import AwsSettings
from tests.integration.aws.moto_dynamodb import FAKE_CREDENTIALS, REGION

LONGEST_ID = "a" * 128
# The longest bucket name S3 allows, and the longest hash a fact key has.
LONGEST_BUCKET = "b" * 63
# One character of each UTF-8 length, repeated: chunk cuts land on every kind of boundary.
MIXED = "a" + "é" + "€" + "📨"


class RecordingComprehend:
    """Answers DetectPiiEntities with no entities and remembers each request's UTF-8 size."""

    def __init__(self) -> None:
        self.sizes: list[int] = []

    def detect_pii_entities(self, *, Text: str, LanguageCode: str) -> dict[str, Any]:
        del LanguageCode
        self.sizes.append(len(Text.encode()))
        return {"Entities": []}


def test_every_detect_pii_entities_request_is_at_most_100_kb_of_utf8() -> None:
    # DetectPiiEntities: "A UTF-8 text string. The maximum string size is 100 KB."
    # (https://docs.aws.amazon.com/comprehend/latest/APIReference/API_DetectPiiEntities.html)
    # Given the longest message the contract accepts, of 1- to 4-byte characters, handed to
    # the detector whole (a caller ignoring max_chunk_chars) and in its own chunks
    client = RecordingComprehend()
    detector = ComprehendPiiDetector(client)
    text = (MIXED * MAX_MESSAGE_CHARS)[:MAX_MESSAGE_CHARS]
    # When it is scanned
    detector.detect(text)
    for start in range(0, len(text), detector.max_chunk_chars):
        detector.detect(text[start : start + detector.max_chunk_chars])
    # Then no request passes 100,000 bytes (under 100 KB read as 1,000 or 1,024), counting
    # UTF-8 bytes, not characters; and a chunk of the core's size always fits one request
    assert len(text.encode()) > MAX_REQUEST_BYTES
    assert max(client.sizes) <= MAX_REQUEST_BYTES <= 100 * 1_000
    assert SAFE_CHUNK_CHARS * 4 <= MAX_REQUEST_BYTES


def _largest_fact() -> Fact:
    return Fact(
        tenant_id=LONGEST_ID,
        domain=LONGEST_ID,
        fact_hash="f" * 32,
        content="📨" * MAX_ITEM_CHARS,
        status=FactStatus.CONFIRMED,
        confidence=0.123456789,
        run_ids=frozenset({LONGEST_ID}),
        first_seen=1_750_000_000.123_456_7,
        last_seen=1_750_000_000.123_456_7,
        confirmed_at=1_750_000_000.123_456_7,
        sightings=10**12,
    )


def test_a_kb_documents_metadata_fits_s3_vectors_filterable_and_total_limits() -> None:
    # S3 Vectors: "Filterable metadata per vector: Up to 2 KB", "Total metadata per vector:
    # Up to 40 KB (filterable + non-filterable)", "Total metadata keys per vector: Up to 50"
    # (https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-vectors-limitations.html).
    # The sidecar's attributes are filterable; Bedrock adds the document's source URI (also
    # filterable) and keeps the chunk's text under AMAZON_BEDROCK_TEXT (non-filterable here).
    # Given the largest confirmed fact: longest ids and content, a huge count, long floats
    document = kb_document(_largest_fact())
    sidecar = layout.sidecar_json(document)
    attributes = json.loads(sidecar)["metadataAttributes"]
    source_uri = f"s3://{LONGEST_BUCKET}/{document.key}"
    # When its filterable metadata is measured as UTF-8 names and values
    filterable = (
        sum(len(name.encode()) + len(str(value).encode()) for name, value in attributes.items())
        + len(b"x-amz-bedrock-kb-source-uri")
        + len(source_uri.encode())
    )
    total = filterable + len(document.text.encode()) + len(sidecar)
    # Then it fits both limits, and the sidecar fits Bedrock's metadata file quota
    assert filterable <= 2 * 1024
    assert total <= 40 * 1024
    assert len(attributes) + 4 <= 50
    assert len(sidecar) <= layout.MAX_SIDECAR_BYTES


def test_the_retrieve_filter_at_the_longest_ids_is_a_valid_retrieval_filter() -> None:
    # RetrievalFilter: andAll takes at least two filters; equals a key and a value
    # (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_agent-runtime_RetrievalFilter.html)
    # Given the longest tenant id and domain
    both = layout.retrieval_filter(LONGEST_ID, LONGEST_ID)
    tenant_only = layout.retrieval_filter(LONGEST_ID, None)
    # Then each is a filter botocore's model of Retrieve accepts
    client = boto3.client(
        "bedrock-agent-runtime",
        region_name=REGION,
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )
    model = client.meta.service_model.operation_model("Retrieve")
    for shape in (both, tenant_only):
        request = {
            "knowledgeBaseId": "KB12345678",
            "retrievalQuery": {"text": "q"},
            "retrievalConfiguration": {
                "vectorSearchConfiguration": {"numberOfResults": 5, "filter": shape}
            },
        }
        # Raises ParamValidationError for a filter the API model does not accept.
        validate_parameters(request, model.input_shape)
    assert len(both["andAll"]) == 2


def _table_arns(stack: str) -> list[str]:
    # CloudFormation names a table {stack}-{logical id}-{suffix} (the stack sets no names).
    return [
        f"arn:aws:dynamodb:ap-southeast-5:123456789012:table/{stack}-Storage{name}TableA1B2C3D4-"
        "ABCDEFGHIJKLM"
        for name in ("Episodes", "Facts", "Procedures", "Ledger")
    ]


@pytest.mark.parametrize(
    ("tenant_chars", "stack"),
    [(8, "AgentMemory"), (128, "AgentMemory"), (128, "AgentMemory-Staging-" + "s" * 100)],
)
def test_the_tenant_session_policy_fits_sts_at_the_longest_tenant_id(
    tenant_chars: int, stack: str
) -> None:
    # AssumeRole Policy: "The plaintext that you use for both inline and managed session
    # policies can't exceed 2,048 characters"
    # (https://docs.aws.amazon.com/STS/latest/APIReference/API_AssumeRole.html)
    # Given the stack's four tables (named by CloudFormation from the default stack name), the
    # longest bucket name and the knowledge base
    policy = tenant_session_policy(
        "t" * tenant_chars,
        table_arns=_table_arns(stack),
        bucket=LONGEST_BUCKET,
        knowledge_base_arn="arn:aws:bedrock:ap-southeast-5:123456789012:knowledge-base/ABCDEFGHIJ",
    )
    # Then the packed policy fits
    assert len(packed_policy(policy)) <= MAX_POLICY_CHARS == 2_048
    # And it still reaches every table and index, only where the keys are the tenant's
    [dynamodb] = [s for s in policy["Statement"] if "dynamodb:Query" in s["Action"]]
    resources = [dynamodb["Resource"]] if isinstance(dynamodb["Resource"], str) else None
    for arn in _table_arns(stack):
        for wanted in (arn, f"{arn}/index/agent-time-index"):
            patterns = resources or dynamodb["Resource"]
            assert any(fnmatch.fnmatchcase(wanted, p) for p in patterns), wanted
    leading = dynamodb["Condition"]["ForAllValues:StringLike"]["dynamodb:LeadingKeys"]
    assert leading == ["t" * tenant_chars + "#*"]


def test_the_pseudonym_key_is_read_whole_up_to_the_secrets_manager_maximum() -> None:
    # Secrets Manager: a SecretString holds at most 65,536 bytes
    # (https://docs.aws.amazon.com/secretsmanager/latest/apireference/API_CreateSecret.html);
    # the stack generates a 64-character key (stacks/functions.py), far below it.
    with mock.patch.dict(os.environ, FAKE_CREDENTIALS), mock_aws():
        # Given a pseudonym secret of the largest size Secrets Manager stores
        secrets = boto3.client("secretsmanager", region_name=REGION)
        value = "k" * 65_536
        arn = secrets.create_secret(Name="pseudonym-key", SecretString=value)["ARN"]
        settings = AwsSettings(
            episodes_table="e",
            facts_table="f",
            procedures_table="p",
            ledger_table="l",
            kb_bucket="kb-docs",
            knowledge_base_id="KB12345678",
            kb_data_source_id="DS12345678",
            pseudonym_secret_arn=arn,
        )
        runtime = AwsRuntime(settings, session=boto3.Session(region_name=REGION))
        # When a container reads it
        key = runtime._pseudonym_key()
        # Then it holds the whole value
        assert key == value.encode()


# --- principal-tag tenancy: the source, the rule's input and the identity proof ----------
EVENTBRIDGE_MAX_SOURCE = 256
STEP_FUNCTIONS_MAX_INPUT = 256 * 1024
LAMBDA_MAX_REQUEST = 6 * 1024 * 1024


def test_a_tenants_source_fits_eventbridge_at_the_longest_tenant_id() -> None:
    # PutEventsRequestEntry Source: "Maximum length of 256"
    # (https://docs.aws.amazon.com/eventbridge/latest/APIReference/API_PutEventsRequestEntry.html)
    assert len(tenant_source(LONGEST_ID)) <= EVENTBRIDGE_MAX_SOURCE


def test_the_largest_sdk_run_with_its_source_fits_the_state_machines_input() -> None:
    # Under principal-tag tenancy the rule hands the state machine {"source", "detail"}; an
    # execution's input is at most 256 KiB
    # (https://docs.aws.amazon.com/step-functions/latest/dg/limits-overview.html).
    # Given a detail of exactly the SDK's largest, sent with the longest tenant's source
    detail: dict[str, Any] = {"tenant_id": LONGEST_ID, "messages": [{"content": ""}]}
    padding = MAX_DETAIL_BYTES - len(_compact(detail).encode())
    detail["messages"][0]["content"] = "a" * padding
    entry = put_events_entry(detail, bus="bus", source=tenant_source(LONGEST_ID))
    assert len(entry["Detail"].encode()) == MAX_DETAIL_BYTES
    # Then the rule's input for it is within the limit
    sourced = {"source": entry["Source"], "detail": detail}
    assert len(_compact(sourced).encode()) < STEP_FUNCTIONS_MAX_INPUT


def test_a_bootstrap_request_with_its_identity_proof_fits_lambdas_request_limit() -> None:
    # Synchronous invocation request payload: 6 MB
    # (https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html)
    session = boto3.Session(
        aws_access_key_id="ASIA" + "A" * 16,
        aws_secret_access_key="s" * 40,
        aws_session_token="t" * 2_048,
        region_name=REGION,
    )
    proof = identity_proof(session.get_credentials(), audience="f" * 64, region=REGION)
    request = {
        "tenant_id": LONGEST_ID,
        "agent_id": LONGEST_ID,
        "task": "\U0001f600" * MAX_TASK_CHARS,
        "task_type": LONGEST_ID,
        "domain": LONGEST_ID,
        "caller_identity": proof,
    }
    assert len(json.dumps(request).encode()) < LAMBDA_MAX_REQUEST


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
