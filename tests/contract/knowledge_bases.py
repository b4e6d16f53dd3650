"""Knowledge bases under the contract of ``test_knowledge_base``: one factory per adapter.

A factory builds the adapter on fresh, empty storage and says how to keep an ingestion job
running (``running``), the one thing the port cannot do by itself: the local KB ingests
synchronously, Bedrock's jobs finish on their own.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path

import boto3
import numpy as np
import numpy.typing as npt
from moto import mock_aws

from agent_memory.adapters.aws.s3_knowledge_base import BedrockKnowledgeBase
from agent_memory.adapters.local.knowledge_base import LocalKnowledgeBase
from agent_memory.core.model.models import IngestionJob
from agent_memory.core.ports import KnowledgeBase
from tests.support.botocore_answers import REGION, offline_client
from tests.support.embedder import HashingEmbedder
from tests.support.fake_bedrock_kb import FakeBedrockKnowledgeBase

BUCKET = "kb-documents"
KB_ID = "KBCONTRACT1"
DS_ID = "DSCONTRACT1"
# Bounds every wait for a job in these tests: jobs here finish in a few polls.
MAX_POLLS = 50


@dataclass(frozen=True)
class KbUnderTest:
    """An adapter on empty storage, and a way to hold one of its ingestion jobs running.

    ``running()`` enters with a job running over the documents written so far (at least one
    of them new since the last ingestion) and leaves when that job has finished.
    """

    kb: KnowledgeBase
    running: Callable[[], AbstractContextManager[None]]


KbFactory = Callable[[Path], AbstractContextManager[KbUnderTest]]


def settle(kb: KnowledgeBase, job: IngestionJob) -> IngestionJob:
    """Poll ``job`` until it is COMPLETE or FAILED."""
    for _ in range(MAX_POLLS):
        if job.status in ("COMPLETE", "FAILED"):
            return job
        job = kb.ingestion_job(job.job_id)
    raise AssertionError(f"ingestion job {job.job_id} still {job.status} after {MAX_POLLS} polls")


class GatedEmbedder(HashingEmbedder):
    """A ``HashingEmbedder`` whose ``embed_documents`` can be held until released."""

    def __init__(self) -> None:
        super().__init__()
        self.armed = False
        self.entered = threading.Event()
        self.release = threading.Event()

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        if self.armed:
            self.entered.set()
            assert self.release.wait(timeout=60), "gate never released"
        return super().embed_documents(texts)


@contextmanager
def local_kb(tmp_path: Path) -> Iterator[KbUnderTest]:
    embedder = GatedEmbedder()
    kb = LocalKnowledgeBase(tmp_path / "kb", embedder)

    @contextmanager
    def running() -> Iterator[None]:
        # The local job runs inside start_ingestion: run it in a thread, held in the embedder.
        embedder.armed, outcome = True, []
        embedder.entered.clear()
        embedder.release.clear()
        worker = threading.Thread(target=lambda: outcome.append(kb.start_ingestion(now=0.0)))
        worker.start()
        try:
            assert embedder.entered.wait(timeout=60), "the ingestion never reached the embedder"
            yield
        finally:
            embedder.armed = False
            embedder.release.set()
            worker.join(timeout=60)
        assert outcome and outcome[0].status == "COMPLETE", "the held ingestion did not complete"

    yield KbUnderTest(kb=kb, running=running)


@contextmanager
def bedrock_kb(tmp_path: Path) -> Iterator[KbUnderTest]:
    del tmp_path
    with mock_aws():
        s3 = boto3.client("s3", region_name=REGION)
        s3.create_bucket(Bucket=BUCKET)
        agent, runtime = offline_client("bedrock-agent"), offline_client("bedrock-agent-runtime")
        FakeBedrockKnowledgeBase(
            s3,
            bucket=BUCKET,
            knowledge_base_id=KB_ID,
            data_source_id=DS_ID,
            embedder=HashingEmbedder(),
        ).serve(agent, runtime)
        # Two keys a page, so document_keys has to follow S3's continuation tokens.
        kb = BedrockKnowledgeBase(
            bucket=BUCKET,
            knowledge_base_id=KB_ID,
            data_source_id=DS_ID,
            s3=s3,
            agent=agent,
            agent_runtime=runtime,
            list_page_size=2,
        )

        @contextmanager
        def running() -> Iterator[None]:
            job = kb.start_ingestion(now=0.0)
            yield
            assert settle(kb, job).status == "COMPLETE", "the held ingestion did not complete"

        yield KbUnderTest(kb=kb, running=running)


ADAPTERS: dict[str, KbFactory] = {"local": local_kb, "bedrock": bedrock_kb}
