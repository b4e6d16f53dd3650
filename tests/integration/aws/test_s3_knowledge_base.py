"""BedrockKnowledgeBase: S3 documents on moto; Bedrock ingestion and retrieve on Stubber.

moto implements S3 but not ingestion jobs or ``retrieve``; those calls go to stubbed clients that
assert the exact request and raise on any call not expected.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import boto3
import numpy as np
import pytest
from botocore.stub import Stubber
from moto import mock_aws

from agent_memory.adapters.aws.s3_knowledge_base import BedrockKnowledgeBase
from agent_memory.core.model.errors import IngestionBusy, InvalidInput, NotFound, TransientError
from agent_memory.core.model.keys import document_key
from agent_memory.core.model.models import Fact, FactStatus, KbDocument
from agent_memory.core.ports import KnowledgeBase
from agent_memory.core.tiers.semantic import kb_document

BUCKET = "kb-documents"
KB_ID = "KBABCDE123"
DS_ID = "DSABCDE123"
JOB_ID = "JOBABCDE12"
STARTED = datetime(2026, 11, 30, 12, 0, 0, tzinfo=UTC)
REGION = "us-east-1"


pytestmark = pytest.mark.usefixtures("stub_credentials")


@pytest.fixture
def s3() -> Iterator[Any]:
    with mock_aws():
        client = boto3.client("s3", region_name=REGION)
        client.create_bucket(Bucket=BUCKET)
        yield client


@pytest.fixture
def agent() -> Iterator[Stubber]:
    with Stubber(boto3.client("bedrock-agent", region_name=REGION)) as stubber:
        yield stubber
        stubber.assert_no_pending_responses()


@pytest.fixture
def runtime() -> Iterator[Stubber]:
    with Stubber(boto3.client("bedrock-agent-runtime", region_name=REGION)) as stubber:
        yield stubber
        stubber.assert_no_pending_responses()


def make_kb(s3: Any, agent: Stubber, runtime: Stubber, **options: Any) -> BedrockKnowledgeBase:
    return BedrockKnowledgeBase(
        bucket=BUCKET,
        knowledge_base_id=KB_ID,
        data_source_id=DS_ID,
        s3=s3,
        agent=agent.client,
        agent_runtime=runtime.client,
        **options,
    )


@pytest.fixture
def kb(s3: Any, agent: Stubber, runtime: Stubber) -> BedrockKnowledgeBase:
    return make_kb(s3, agent, runtime)


def doc(tenant: str, name: str, content: str = "Deploys need the VPC flag.") -> KbDocument:
    return KbDocument(
        key=f"tenants/{tenant}/domains/devops/{name}.txt",
        text=content,
        metadata={"tenant_id": tenant, "domain": "devops", "confidence": 0.9, "fact_hash": name},
    )


def object_names(s3: Any) -> list[str]:
    return sorted(o["Key"] for o in s3.list_objects_v2(Bucket=BUCKET).get("Contents", []))


def read(s3: Any, key: str) -> bytes:
    body: bytes = s3.get_object(Bucket=BUCKET, Key=key)["Body"].read()
    return body


# --- documents (S3 on moto) ---------------------------------------------------------------


def test_adapter_satisfies_the_knowledge_base_port(kb: BedrockKnowledgeBase) -> None:
    assert isinstance(kb, KnowledgeBase)


def test_document_is_stored_as_text_bedrock_can_ingest(kb: BedrockKnowledgeBase, s3: Any) -> None:
    kb.put_document(doc("acme", "f1", "Deploys need the VPC flag."))

    assert read(s3, "tenants/acme/domains/devops/f1.txt") == b"Deploys need the VPC flag."


def test_sidecar_holds_metadata_attributes_beside_the_text(
    kb: BedrockKnowledgeBase, s3: Any
) -> None:
    kb.put_document(doc("acme", "f1"))

    sidecar = json.loads(read(s3, "tenants/acme/domains/devops/f1.txt.metadata.json"))
    assert sidecar == {
        "metadataAttributes": {
            "tenant_id": "acme",
            "domain": "devops",
            "confidence": 0.9,
            "fact_hash": "f1",
        }
    }


def test_sidecar_is_written_before_the_text(kb: BedrockKnowledgeBase, s3: Any) -> None:
    # Given a recorder of the order in which keys are written
    written: list[str] = []
    s3.meta.events.register(
        "before-call.s3.PutObject", lambda params, **_: written.append(params["url_path"])
    )

    kb.put_document(doc("acme", "f1"))

    # Then the text object never exists without its tenant metadata
    assert [path.rsplit("/", 1)[-1] for path in written] == ["f1.txt.metadata.json", "f1.txt"]


def test_core_document_round_trips_through_document_keys(
    kb: BedrockKnowledgeBase,
) -> None:
    fact = Fact(
        tenant_id="acme",
        domain="devops",
        fact_hash="ab12",
        content="Deploys need the VPC flag.",
        status=FactStatus.CONFIRMED,
        confidence=0.91234,
        run_ids=frozenset({"r1", "r2", "r3"}),
        first_seen=1.0,
        last_seen=2.0,
        confirmed_at=2.0,
    )

    kb.put_document(kb_document(fact))

    assert kb.document_keys("acme") == [document_key("acme", "devops", "ab12")]


def test_document_keys_lists_only_the_tenants_documents(kb: BedrockKnowledgeBase) -> None:
    # Given a tenant whose id is a prefix of another's
    kb.put_document(doc("acme", "f2"))
    kb.put_document(doc("acme", "f1"))
    kb.put_document(doc("acme-2", "g1"))
    kb.put_document(doc("other", "h1"))

    assert kb.document_keys("acme") == [
        "tenants/acme/domains/devops/f1.txt",
        "tenants/acme/domains/devops/f2.txt",
    ]


def test_document_keys_follows_every_page(s3: Any, agent: Stubber, runtime: Stubber) -> None:
    # Given pages of two objects and five documents (ten objects with their sidecars)
    kb = make_kb(s3, agent, runtime, list_page_size=2)
    for index in range(5):
        kb.put_document(doc("acme", f"f{index}"))

    assert kb.document_keys("acme") == [
        f"tenants/acme/domains/devops/f{index}.txt" for index in range(5)
    ]


def test_delete_document_removes_text_and_sidecar(kb: BedrockKnowledgeBase, s3: Any) -> None:
    kb.put_document(doc("acme", "f1"))
    kb.put_document(doc("acme", "f2"))

    kb.delete_document("tenants/acme/domains/devops/f1.txt")

    assert object_names(s3) == [
        "tenants/acme/domains/devops/f2.txt",
        "tenants/acme/domains/devops/f2.txt.metadata.json",
    ]


def test_metadata_of_another_tenant_is_refused(kb: BedrockKnowledgeBase, s3: Any) -> None:
    mislabelled = KbDocument(
        key="tenants/acme/domains/devops/f1.txt",
        text="x",
        metadata={"tenant_id": "other", "domain": "devops"},
    )

    with pytest.raises(ValueError, match="tenant_id"):
        kb.put_document(mislabelled)
    assert object_names(s3) == []


@pytest.mark.parametrize("value", [None, {"nested": 1}, float("nan"), [1, 2]])
def test_metadata_bedrock_cannot_filter_on_is_refused(
    kb: BedrockKnowledgeBase, s3: Any, value: object
) -> None:
    document = doc("acme", "f1")
    document.metadata["extra"] = value

    with pytest.raises(ValueError, match="extra"):
        kb.put_document(document)
    assert object_names(s3) == []


@pytest.mark.parametrize(
    "key",
    [
        "tenants/acme/../other/f1.txt",
        "other/acme/f1.txt",
        "tenants/acme/domains/devops/f1.json",
        "tenants/acme/domains/devops/f1.metadata.json",
        "tenants/acme//f1.txt",
        "tenants/ac*me/domains/devops/f1.txt",
    ],
)
def test_unsafe_keys_are_refused(kb: BedrockKnowledgeBase, s3: Any, key: str) -> None:
    document = KbDocument(key=key, text="x", metadata={"tenant_id": "acme"})

    with pytest.raises((ValueError, InvalidInput)):
        kb.put_document(document)
    assert object_names(s3) == []


@pytest.mark.parametrize("tenant", ["", "acme/", "acme/domains", "ac#me", "acme\n"])
def test_document_keys_refuses_a_tenant_id_that_widens_the_prefix(
    kb: BedrockKnowledgeBase, tenant: str
) -> None:
    with pytest.raises(InvalidInput):
        kb.document_keys(tenant)


def test_throttled_s3_write_is_transient(agent: Stubber, runtime: Stubber) -> None:
    # Given an S3 client whose puts are throttled past botocore's retries
    with Stubber(boto3.client("s3", region_name=REGION)) as s3:
        s3.add_client_error("put_object", "SlowDown", "Reduce your request rate", 503)
        kb = make_kb(s3.client, agent, runtime)

        with pytest.raises(TransientError):
            kb.put_document(doc("acme", "f1"))


# --- ingestion (bedrock-agent on Stubber) ---------------------------------------------------

JOB_REQUEST = {"knowledgeBaseId": KB_ID, "dataSourceId": DS_ID}


def job(status: str) -> dict[str, Any]:
    return {
        "ingestionJob": {
            "knowledgeBaseId": KB_ID,
            "dataSourceId": DS_ID,
            "ingestionJobId": JOB_ID,
            "status": status,
            "startedAt": STARTED,
            "updatedAt": STARTED,
        }
    }


def test_start_ingestion_starts_a_job_on_the_data_source(
    kb: BedrockKnowledgeBase, agent: Stubber
) -> None:
    agent.add_response("start_ingestion_job", job("STARTING"), JOB_REQUEST)

    started = kb.start_ingestion(now=STARTED.timestamp())

    assert (started.job_id, started.status) == (JOB_ID, "STARTING")


def test_job_start_time_allows_for_clock_skew(kb: BedrockKnowledgeBase, agent: Stubber) -> None:
    agent.add_response("start_ingestion_job", job("STARTING"), JOB_REQUEST)

    started = kb.start_ingestion(now=STARTED.timestamp())

    assert started.started_at == STARTED.timestamp() - 2.0


def test_running_job_makes_start_ingestion_busy(kb: BedrockKnowledgeBase, agent: Stubber) -> None:
    agent.add_client_error("start_ingestion_job", "ConflictException", "job running", 409)

    with pytest.raises(IngestionBusy):
        kb.start_ingestion(now=0.0)


def test_throttled_start_ingestion_is_transient(kb: BedrockKnowledgeBase, agent: Stubber) -> None:
    agent.add_client_error("start_ingestion_job", "ThrottlingException", "slow down", 429)

    with pytest.raises(TransientError):
        kb.start_ingestion(now=0.0)


def test_other_start_failures_propagate(kb: BedrockKnowledgeBase, agent: Stubber) -> None:
    agent.add_client_error("start_ingestion_job", "AccessDeniedException", "no", 403)

    with pytest.raises(Exception, match="AccessDenied") as raised:
        kb.start_ingestion(now=0.0)
    assert not isinstance(raised.value, IngestionBusy | TransientError)


@pytest.mark.parametrize(
    ("bedrock", "core"),
    [
        ("STARTING", "STARTING"),
        ("IN_PROGRESS", "IN_PROGRESS"),
        ("COMPLETE", "COMPLETE"),
        ("FAILED", "FAILED"),
        ("STOPPING", "IN_PROGRESS"),
        ("STOPPED", "FAILED"),
    ],
)
def test_ingestion_job_maps_bedrock_status(
    kb: BedrockKnowledgeBase, agent: Stubber, bedrock: str, core: str
) -> None:
    agent.add_response("get_ingestion_job", job(bedrock), {**JOB_REQUEST, "ingestionJobId": JOB_ID})

    assert kb.ingestion_job(JOB_ID).status == core


def test_unknown_ingestion_job_is_not_found(kb: BedrockKnowledgeBase, agent: Stubber) -> None:
    agent.add_client_error("get_ingestion_job", "ResourceNotFoundException", "no job", 404)

    with pytest.raises(NotFound):
        kb.ingestion_job(JOB_ID)


def test_a_complete_job_carries_its_failed_documents(
    kb: BedrockKnowledgeBase, agent: Stubber
) -> None:
    # Given GetIngestionJob's answer for a job that COMPLETEd with two failed documents, in
    # Bedrock's shape (the Stubber checks it against the service model):
    # https://docs.aws.amazon.com/bedrock/latest/APIReference/API_agent_GetIngestionJob.html
    response = job("COMPLETE")
    response["ingestionJob"]["statistics"] = {
        "numberOfDocumentsScanned": 12,
        "numberOfMetadataDocumentsScanned": 12,
        "numberOfNewDocumentsIndexed": 9,
        "numberOfModifiedDocumentsIndexed": 1,
        "numberOfMetadataDocumentsModified": 0,
        "numberOfDocumentsDeleted": 0,
        "numberOfDocumentsFailed": 2,
    }
    response["ingestionJob"]["failureReasons"] = ["Encountered error: file is empty"]
    agent.add_response("get_ingestion_job", response, {**JOB_REQUEST, "ingestionJobId": JOB_ID})
    # When the adapter reads the job
    settled = kb.ingestion_job(JOB_ID)
    # Then the core sees a COMPLETE job that did not index everything
    assert settled.status == "COMPLETE"
    assert (settled.statistics.scanned, settled.statistics.indexed) == (12, 10)
    assert settled.statistics.failed == 2
    assert settled.failure_reasons == ("Encountered error: file is empty",)


def test_a_job_without_statistics_reports_no_failure(
    kb: BedrockKnowledgeBase, agent: Stubber
) -> None:
    # Given a job Bedrock reports without statistics (the field is optional)
    agent.add_response(
        "get_ingestion_job", job("COMPLETE"), {**JOB_REQUEST, "ingestionJobId": JOB_ID}
    )
    # Then it reads as having failed nothing
    assert kb.ingestion_job(JOB_ID).statistics.failed == 0


def document_detail(key: str, status: str) -> dict[str, Any]:
    return {
        "knowledgeBaseId": KB_ID,
        "dataSourceId": DS_ID,
        "status": status,
        "identifier": {"dataSourceType": "S3", "s3": {"uri": f"s3://{BUCKET}/{key}"}},
        "statusReason": "reason" if status != "INDEXED" else "",
        "updatedAt": STARTED,
    }


def documents_request(keys: list[str]) -> dict[str, Any]:
    return {
        **JOB_REQUEST,
        "documentIdentifiers": [
            {"dataSourceType": "S3", "s3": {"uri": f"s3://{BUCKET}/{k}"}} for k in keys
        ],
    }


def test_document_states_ask_bedrock_ten_documents_at_a_time(
    kb: BedrockKnowledgeBase, agent: Stubber
) -> None:
    # Given twelve documents: GetKnowledgeBaseDocuments takes at most 10 identifiers a call
    # (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_agent_GetKnowledgeBaseDocuments.html)
    keys = [f"tenants/acme/domains/devops/f{i:02d}.txt" for i in range(12)]
    statuses = ["INDEXED"] * 7 + ["FAILED", "IGNORED", "IN_PROGRESS", "METADATA_UPDATE_FAILED"]
    agent.add_response(
        "get_knowledge_base_documents",
        {
            "documentDetails": [
                document_detail(k, s) for k, s in zip(keys[:10], statuses[:10], strict=True)
            ]
        },
        documents_request(keys[:10]),
    )
    # (Bedrock leaves the last document out of its answer)
    agent.add_response(
        "get_knowledge_base_documents",
        {"documentDetails": [document_detail(keys[10], statuses[10])]},
        documents_request(keys[10:]),
    )
    # When the adapter is asked about them
    states = kb.document_states(keys)
    # Then only INDEXED documents are served; one still in progress is PENDING; a failed,
    # ignored, half-indexed or unreported document is FAILED
    assert [states[k] for k in keys] == [
        *["INDEXED"] * 7,
        "FAILED",
        "FAILED",
        "PENDING",
        "FAILED",
        "FAILED",
    ]


def test_throttled_document_states_are_transient(kb: BedrockKnowledgeBase, agent: Stubber) -> None:
    agent.add_client_error("get_knowledge_base_documents", "ThrottlingException", "slow", 429)

    with pytest.raises(TransientError):
        kb.document_states(["tenants/acme/domains/devops/f1.txt"])


# --- retrieve (bedrock-agent-runtime on Stubber) --------------------------------------------

TENANT_FILTER = {"equals": {"key": "tenant_id", "value": "acme"}}


def retrieve_request(
    limit: int, filter_: dict[str, Any], text: str = "vpc deploys"
) -> dict[str, Any]:
    return {
        "knowledgeBaseId": KB_ID,
        "retrievalQuery": {"text": text},
        "retrievalConfiguration": {
            "vectorSearchConfiguration": {"numberOfResults": limit, "filter": filter_}
        },
    }


def result(text: str, score: float, tenant: str = "acme") -> dict[str, Any]:
    return {
        "content": {"type": "TEXT", "text": text},
        "score": score,
        "metadata": {"tenant_id": tenant, "domain": "devops", "fact_hash": text[:4]},
    }


def test_retrieve_filters_on_the_tenant_when_no_domain_is_given(
    kb: BedrockKnowledgeBase, runtime: Stubber
) -> None:
    runtime.add_response("retrieve", {"retrievalResults": []}, retrieve_request(5, TENANT_FILTER))

    kb.retrieve("vpc deploys", tenant_id="acme", domain=None, limit=5)


def test_retrieve_adds_the_domain_with_and_all(kb: BedrockKnowledgeBase, runtime: Stubber) -> None:
    both = {"andAll": [TENANT_FILTER, {"equals": {"key": "domain", "value": "devops"}}]}
    runtime.add_response("retrieve", {"retrievalResults": []}, retrieve_request(5, both))

    kb.retrieve("vpc deploys", tenant_id="acme", domain="devops", limit=5)


def test_retrieve_ignores_the_query_vector(kb: BedrockKnowledgeBase, runtime: Stubber) -> None:
    # Given a query vector: Bedrock embeds the text itself, so the request holds only the text
    runtime.add_response("retrieve", {"retrievalResults": []}, retrieve_request(3, TENANT_FILTER))

    kb.retrieve(
        "vpc deploys",
        tenant_id="acme",
        domain=None,
        limit=3,
        query_vector=np.ones(4, dtype=np.float32),
        query_model_id="amazon.titan-embed-text-v2:0",
    )


def test_retrieve_maps_results_to_hits(kb: BedrockKnowledgeBase, runtime: Stubber) -> None:
    runtime.add_response(
        "retrieve",
        {"retrievalResults": [result("Deploys need VPC.", 0.82), result("Use blue/green.", 0.7)]},
        retrieve_request(5, TENANT_FILTER),
    )

    hits = kb.retrieve("vpc deploys", tenant_id="acme", domain=None, limit=5)

    assert [(h.text, h.score, h.metadata["fact_hash"]) for h in hits] == [
        ("Deploys need VPC.", 0.82, "Depl"),
        ("Use blue/green.", 0.7, "Use "),
    ]


def test_retrieve_drops_a_result_of_another_tenant(
    kb: BedrockKnowledgeBase, runtime: Stubber
) -> None:
    # Given a misconfigured index that answers with another tenant's document
    runtime.add_response(
        "retrieve",
        {"retrievalResults": [result("theirs", 0.9, tenant="other"), result("ours", 0.8)]},
        retrieve_request(5, TENANT_FILTER),
    )

    hits = kb.retrieve("vpc deploys", tenant_id="acme", domain=None, limit=5)

    assert [h.text for h in hits] == ["ours"]


def test_retrieve_asks_for_at_most_one_hundred_results(
    kb: BedrockKnowledgeBase, runtime: Stubber
) -> None:
    runtime.add_response("retrieve", {"retrievalResults": []}, retrieve_request(100, TENANT_FILTER))

    kb.retrieve("vpc deploys", tenant_id="acme", domain=None, limit=500)


def test_retrieve_of_nothing_makes_no_call(kb: BedrockKnowledgeBase) -> None:
    # The stubbed runtime has no responses queued: any call would raise.
    assert kb.retrieve("vpc deploys", tenant_id="acme", domain=None, limit=0) == []
    assert kb.retrieve("   ", tenant_id="acme", domain=None, limit=5) == []


@pytest.mark.parametrize(("tenant", "domain"), [("acme*", None), ("acme", "dev#ops"), ("", None)])
def test_retrieve_refuses_identifiers_outside_the_pattern(
    kb: BedrockKnowledgeBase, tenant: str, domain: str | None
) -> None:
    with pytest.raises(InvalidInput):
        kb.retrieve("vpc deploys", tenant_id=tenant, domain=domain, limit=5)


def test_throttled_retrieve_is_transient(kb: BedrockKnowledgeBase, runtime: Stubber) -> None:
    runtime.add_client_error("retrieve", "ThrottlingException", "slow down", 429)

    with pytest.raises(TransientError):
        kb.retrieve("vpc deploys", tenant_id="acme", domain=None, limit=5)
