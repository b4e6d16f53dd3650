"""Settings of the Lambda functions, read from their environment once per cold start."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.model.regions import parse_regions
from agent_memory.core.model.tenant_identity import TenantIdentity
from agent_memory.wiring.detectors import PiiDetectorChoice, check_regions

DEFAULT_EMBEDDING_MODEL = "amazon.titan-embed-text-v2:0"
# A Bedrock foundation model's ARN; its Region is the one to call the model in.
FOUNDATION_MODEL_ARN = re.compile(
    r"arn:aws[a-z-]*:bedrock:[a-z0-9-]+::foundation-model/[A-Za-z0-9.:-]+"
)


@dataclass(frozen=True, slots=True)
class AwsSettings:
    """Where the deployed stack keeps memory, and which models it uses.

    ``chat_model_id`` empty means no LLM: events must carry their artifacts (or be distilled
    deterministically). ``tenant_role_arn`` empty disables tenant-scoped credentials, which only
    tests should do; with it, ``tenant_table_arns`` are the tables its session policy opens.
    ``pseudonym_secret_arn`` names the Secrets Manager secret keying name pseudonyms and
    serving receipts (set on the functions that scrub, query or check receipts); empty means
    names are replaced by plain labels and no procedure feedback counts.
    ``rerank_model_arn`` names the Bedrock reranker model that orders bootstrap's episodes
    (set on bootstrap only); empty means the index's own order. ``timeout_seconds`` is the
    function's own timeout, which its AWS clients' timeouts and retries are sized to; None
    outside a function. ``tenant_identity`` says where a request's tenant comes from
    (:class:`TenantIdentity`); under ``principal-tag``, ``function_name`` (Lambda's own) is the
    audience a caller's identity proof must name and ``caller_account`` the account whose
    roles may call. ``pii_regions`` are the countries whose national phone numbers the local
    PII detector reads without a country code (set on the functions that scrub).
    ``pii_detector`` says whether Amazon Comprehend runs beside the local PII detector
    (:class:`PiiDetectorChoice`; set on the functions that scrub, and a stack output for the
    operator CLI and SDK).
    """

    episodes_table: str
    facts_table: str
    procedures_table: str
    ledger_table: str
    kb_bucket: str
    knowledge_base_id: str
    kb_data_source_id: str
    embedding_model_id: str = DEFAULT_EMBEDDING_MODEL
    chat_model_id: str | None = None
    tenant_role_arn: str | None = None
    tenant_table_arns: tuple[str, ...] = ()
    knowledge_base_arn: str | None = None
    pseudonym_secret_arn: str | None = None
    rerank_model_arn: str | None = None
    timeout_seconds: int | None = None
    tenant_identity: TenantIdentity = TenantIdentity.PAYLOAD
    function_name: str | None = None
    caller_account: str | None = None
    pii_regions: tuple[str, ...] = ()
    pii_detector: PiiDetectorChoice = PiiDetectorChoice.LOCAL

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> AwsSettings:
        """Read every setting; a missing required variable is named in the error."""
        env = os.environ if environ is None else environ
        return cls(
            **_required_fields(env, 0, "environment variable is not set"),
            embedding_model_id=env.get("EMBEDDING_MODEL_ID") or DEFAULT_EMBEDDING_MODEL,
            chat_model_id=env.get("CHAT_MODEL_ID") or None,
            tenant_role_arn=env.get("TENANT_ROLE_ARN") or None,
            tenant_table_arns=tuple(a for a in env.get("TENANT_TABLE_ARNS", "").split(",") if a),
            knowledge_base_arn=env.get("KNOWLEDGE_BASE_ARN") or None,
            pseudonym_secret_arn=env.get("PSEUDONYM_SECRET_ARN") or None,
            rerank_model_arn=_model_arn(env, "RERANK_MODEL_ARN"),
            timeout_seconds=_seconds(env, "FUNCTION_TIMEOUT_SECONDS"),
            tenant_identity=TenantIdentity.parse(
                env.get("TENANT_IDENTITY"), field="TENANT_IDENTITY"
            ),
            function_name=env.get("AWS_LAMBDA_FUNCTION_NAME") or None,
            caller_account=env.get("CALLER_ACCOUNT") or None,
            pii_regions=check_regions(
                parse_regions(env.get("PII_REGIONS"), field="PII_REGIONS"), field="PII_REGIONS"
            ),
            pii_detector=PiiDetectorChoice.parse(env.get("PII_DETECTOR"), field="PII_DETECTOR"),
        )

    @classmethod
    def from_stack_outputs(cls, outputs: Mapping[str, str]) -> AwsSettings:
        """The settings of a deployed stack, from its CloudFormation outputs (an operator's
        view: no tenant role, so the caller's own credentials are used as they are).

        A stack without a ``PiiDetector`` output (deployed before the choice existed) scrubs
        with the local detectors, which need no grant.
        """
        return cls(
            **_required_fields(outputs, 1, "the stack has no such output"),
            pii_detector=PiiDetectorChoice.parse(outputs.get("PiiDetector"), field="PiiDetector"),
        )


# Required settings: (Lambda environment variable, stack output) of each.
_REQUIRED = {
    "episodes_table": ("EPISODES_TABLE", "EpisodesTableName"),
    "facts_table": ("FACTS_TABLE", "FactsTableName"),
    "procedures_table": ("PROCEDURES_TABLE", "ProceduresTableName"),
    "ledger_table": ("LEDGER_TABLE", "LedgerTableName"),
    "kb_bucket": ("KB_BUCKET", "DocumentsBucketName"),
    "knowledge_base_id": ("KNOWLEDGE_BASE_ID", "KnowledgeBaseId"),
    "kb_data_source_id": ("KB_DATA_SOURCE_ID", "DataSourceId"),
}


def _required_fields(values: Mapping[str, str], source: int, missing: str) -> dict[str, Any]:
    """The required settings from ``values``, named as in ``_REQUIRED``'s column ``source``."""
    return {field: _required(values, names[source], missing) for field, names in _REQUIRED.items()}


def _model_arn(values: Mapping[str, str], name: str) -> str | None:
    """The foundation-model ARN in ``values[name]``, if set; its Region is where it is called."""
    value = values.get(name, "").strip()
    if value and FOUNDATION_MODEL_ARN.fullmatch(value) is None:
        raise InvalidInput(name, "must be arn:<partition>:bedrock:<region>::foundation-model/<id>")
    return value or None


def _seconds(values: Mapping[str, str], name: str) -> int | None:
    """A positive whole number of seconds in ``values[name]``, if set."""
    value = values.get(name, "").strip()
    if not value:
        return None
    if not value.isdigit() or int(value) < 1:
        raise InvalidInput(name, "must be a whole number of seconds, at least 1")
    return int(value)


def _required(values: Mapping[str, str], name: str, missing: str) -> str:
    value = values.get(name, "").strip()
    if not value:
        raise InvalidInput(name, missing)
    return value
