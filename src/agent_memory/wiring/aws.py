"""Where the Lambda side is wired: settings -> AWS adapters -> the core's ports."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import boto3

from agent_memory.adapters.aws.bedrock_models import BedrockEmbedder, bedrock_chat
from agent_memory.adapters.aws.bedrock_rerank import BedrockReranker
from agent_memory.adapters.aws.comprehend_pii import ComprehendPiiDetector
from agent_memory.adapters.aws.dynamodb_episodes import DynamoDbEpisodeStore
from agent_memory.adapters.aws.dynamodb_facts import DynamoDbFactStore
from agent_memory.adapters.aws.dynamodb_ledger import DynamoDbLedger
from agent_memory.adapters.aws.dynamodb_procedures import DynamoDbProcedureStore
from agent_memory.adapters.aws.s3_knowledge_base import BedrockKnowledgeBase
from agent_memory.adapters.aws.tenant_credentials import DEFAULT_MAX_TENANTS, TenantSessions
from agent_memory.adapters.ledger_records import ledger_ports
from agent_memory.app import Application
from agent_memory.core.model import receipts
from agent_memory.core.model.calibration import DEFAULT_CALIBRATIONS, Calibration
from agent_memory.core.model.errors import PiiDetectionFailed
from agent_memory.core.ports import ChatModel, Embedder, MemoryPorts, PiiDetector, Reranker
from agent_memory.core.privacy.scrubbing import AllDetectors
from agent_memory.core.retrieval.episode_index import EpisodeIndexCache
from agent_memory.wiring.aws_client_config import configured_session
from agent_memory.wiring.aws_settings import AwsSettings
from agent_memory.wiring.detectors import (
    DetectorsOnFirstUse,
    PiiDetectorChoice,
    every_detector,
)

# An HMAC-SHA256 key should carry at least the hash's 256 bits.
MIN_PSEUDONYM_KEY_BYTES = 32


class OnFirstUse:
    """A client made when one of its attributes is first used, by ``make`` (once)."""

    def __init__(self, make: Callable[[], Any]) -> None:
        self._make = make
        self._client: Any = None
        self._lock = threading.Lock()

    def __getattr__(self, name: str) -> Any:
        with self._lock:
            if self._client is None:
                self._client = self._make()
        return getattr(self._client, name)


@dataclass
class AwsRuntime:
    """The adapters of one Lambda container, built lazily and reused across invocations.

    Data clients for a tenant come from a session narrowed to that tenant's keys and prefix
    (when a tenant role is configured); cross-tenant jobs pass ``tenant_id=None`` and use the
    function's own role, which the stack grants only what those jobs need.
    """

    settings: AwsSettings
    session: boto3.Session = field(default_factory=boto3.Session)
    embedder: Embedder | None = None
    # Comprehend's stand-in (tests): when given, it runs beside the local detectors whatever
    # ``settings.pii_detector`` says (the test asked for a service detector).
    pii: PiiDetector | None = None
    # Every write's local PII detector and credential detector, built on first use (or given);
    # under ``comprehend``, Comprehend runs beside them.
    local_detectors: PiiDetector | None = None
    chat: ChatModel | None = None
    calibrations: dict[str, Calibration] = field(default_factory=lambda: dict(DEFAULT_CALIBRATIONS))
    # Embedders of other models than the deployed one, by id (a re-embedding job's target).
    embedders: dict[str, Embedder] = field(default_factory=dict)
    # The name-pseudonym key, read once per container from ``settings.pseudonym_secret_arn``.
    pseudonym_key: bytes | None = None
    # The serving-receipt key: derived from that same secret (its own key, never the secret
    # itself), or given.
    receipt_key: bytes | None = None
    # The reranker of ``settings.rerank_model_arn``, built on first use (or given).
    reranker: Reranker | None = None
    # Tenant-scoped credentials and clients, built on first use (or given); at most
    # ``tenant_cache_size`` tenants are kept, so a warm container's memory stays bounded.
    tenants: TenantSessions | None = None
    tenant_cache_size: int = DEFAULT_MAX_TENANTS
    # The function's own-role clients, by service.
    _clients: dict[str, Any] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    # The agents' search indexes, kept across invocations: a warm container serves a bootstrap
    # from memory unless the agent's episodes changed (EpisodeIndexCache).
    episode_indexes: EpisodeIndexCache = field(default_factory=EpisodeIndexCache)

    def client(self, service: str, tenant_id: str | None = None) -> Any:
        """A boto3 client, on credentials narrowed to the tenant when ``tenant_id`` is given.

        Every client is made from ``session``. A tenant's credentials are renewed before they
        expire, and its clients with them; the least recently served tenants are forgotten.
        """
        if tenant_id is not None and self.settings.tenant_role_arn is not None:
            return self._tenant_sessions(self.settings.tenant_role_arn).client(tenant_id, service)
        with self._lock:
            if service not in self._clients:
                self._clients[service] = self.session.client(service)
            return self._clients[service]

    def _tenant_sessions(self, role_arn: str) -> TenantSessions:
        with self._lock:
            if self.tenants is None:
                self.tenants = TenantSessions(
                    role_arn,
                    session=self.session,
                    # Clients of both roles come from one session, which is not thread-safe.
                    session_lock=self._lock,
                    sts=self.session.client("sts"),
                    table_arns=self.settings.tenant_table_arns,
                    bucket=self.settings.kb_bucket,
                    knowledge_base_arn=self.settings.knowledge_base_arn,
                    max_tenants=self.tenant_cache_size,
                )
            return self.tenants

    def application(self, tenant_id: str | None) -> Application:
        """The application over :meth:`ports` of the tenant (or of a cross-tenant job)."""
        return Application(self.ports(tenant_id))

    def ports(self, tenant_id: str | None) -> MemoryPorts:
        """The core's ports for one tenant's work (or for a cross-tenant job)."""
        dynamodb = self.client("dynamodb", tenant_id)
        s = self.settings
        embedder = self._embedder()
        ledgers = ledger_ports(DynamoDbLedger(dynamodb, s.ledger_table))
        return MemoryPorts(
            # Stores present each record with the vectors of the model queries are embedded
            # with, so a store carrying a second model's vectors (a migration) serves this one.
            episodes=DynamoDbEpisodeStore(
                dynamodb, s.episodes_table, active_model=embedder.model_id
            ),
            facts=DynamoDbFactStore(dynamodb, s.facts_table, active_model=embedder.model_id),
            procedures=DynamoDbProcedureStore(dynamodb, s.procedures_table),
            run_ledger=ledgers.run_ledger,
            checkpoints=ledgers.checkpoints,
            model_registry=ledgers.model_registry,
            decisions=ledgers.decisions,
            flags=ledgers.flags,
            # Clients most steps never call are made on first use: each costs a few ms at a
            # cold start, and a tenant's S3 client a quarter MiB for as long as it is cached.
            knowledge_base=BedrockKnowledgeBase(
                s3=OnFirstUse(lambda: self.client("s3", tenant_id)),
                agent=OnFirstUse(lambda: self.client("bedrock-agent")),
                agent_runtime=OnFirstUse(lambda: self.client("bedrock-agent-runtime")),
                bucket=s.kb_bucket,
                knowledge_base_id=s.knowledge_base_id,
                data_source_id=s.kb_data_source_id,
            ),
            embedder=embedder,
            pii=self.pii_detectors(),
            chat=self._chat(),
            calibrations=self.calibrations,
            pseudonym_key=self._pseudonym_key(),
            receipt_key=self._receipt_key(),
            episode_indexes=self.episode_indexes,
            reranker=self._reranker(),
        )

    def _pseudonym_key(self) -> bytes | None:
        """The secret's value as the HMAC key, fetched with the function's own role.

        No secret configured: None (plain labels). A secret that cannot be read, or is too
        short to be a key, raises: scrubbing fails closed and the run goes to the DLQ rather
        than being stored with names the rest of memory cannot match.
        """
        arn = self.settings.pseudonym_secret_arn
        if arn is None:
            return None
        with self._lock:
            if self.pseudonym_key is None:
                value = self.session.client("secretsmanager").get_secret_value(SecretId=arn)
                key = str(value.get("SecretString") or "").encode()
                if len(key) < MIN_PSEUDONYM_KEY_BYTES:
                    raise PiiDetectionFailed(
                        f"the pseudonym secret {arn} holds {len(key)} characters; "
                        f"a key needs at least {MIN_PSEUDONYM_KEY_BYTES}"
                    )
                self.pseudonym_key = key
            return self.pseudonym_key

    def _receipt_key(self) -> bytes | None:
        """The key of serving receipts: bootstrap signs with it, propose_procedure checks.

        Both functions read the deployment's secret (``settings.pseudonym_secret_arn``), and
        derive this key from it. No secret and no key given: None, so no feedback counts.
        """
        if self.receipt_key is None:
            secret = self._pseudonym_key()
            if secret is not None:
                with self._lock:
                    self.receipt_key = receipts.derive_key(secret)
        return self.receipt_key

    def pii_detectors(self) -> PiiDetector:
        """What every write is scrubbed by: the local PII and credential detectors, and beside
        them Comprehend when ``settings.pii_detector`` is ``comprehend`` (or the given stand-in
        ``pii``, whatever the setting). Under ``local`` no Comprehend client is made, let alone
        called.
        """
        service = self.pii
        if service is None and self.settings.pii_detector is PiiDetectorChoice.COMPREHEND:
            service = ComprehendPiiDetector(OnFirstUse(lambda: self.client("comprehend")))
        with self._lock:
            if self.local_detectors is None:
                regions = self.settings.pii_regions
                self.local_detectors = DetectorsOnFirstUse(lambda: every_detector(regions=regions))
            local = self.local_detectors
        return local if service is None else AllDetectors(service, local)

    def _reranker(self) -> Reranker | None:
        """The configured reranker, called in its model's Region (rerankers run in a few
        Regions only, which need not be the stack's); None without one.
        """
        arn = self.settings.rerank_model_arn
        with self._lock:
            if self.reranker is None and arn is not None:
                client = self.session.client("bedrock-agent-runtime", region_name=arn.split(":")[3])
                self.reranker = BedrockReranker(client, arn)
            return self.reranker

    def _embedder(self) -> Embedder:
        with self._lock:
            if self.embedder is None:
                self.embedder = BedrockEmbedder(
                    self.session.client("bedrock-runtime"), self.settings.embedding_model_id
                )
            return self.embedder

    def embedder_for(self, model_id: str) -> Embedder:
        """An embedder of ``model_id``: the deployed one, an injected one, or Titan-style
        Bedrock (the function's role must be granted ``bedrock:InvokeModel`` on it).
        """
        if model_id == self._embedder().model_id:
            return self._embedder()
        with self._lock:
            if model_id not in self.embedders:
                self.embedders[model_id] = BedrockEmbedder(
                    self.session.client("bedrock-runtime"), model_id
                )
            return self.embedders[model_id]

    def _chat(self) -> ChatModel | None:
        if self.chat is None and self.settings.chat_model_id:
            self.chat = bedrock_chat(self.settings.chat_model_id, self.client("bedrock-runtime"))
        return self.chat


_current: AwsRuntime | None = None
_current_lock = threading.Lock()


def runtime() -> AwsRuntime:
    """The container's runtime, built from the environment on first use."""
    global _current
    with _current_lock:
        if _current is None:
            settings = AwsSettings.from_environment()
            # Every client's timeouts and retries fit inside the function's own timeout.
            _current = AwsRuntime(settings, session=configured_session(settings))
        return _current
