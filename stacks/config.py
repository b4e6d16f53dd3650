"""The stack's settings, read once from CDK context (``cdk.json``, overridable with ``-c``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from constructs import Node

from agent_memory.core.model.regions import parse_regions
from agent_memory.core.model.tenant_identity import TenantIdentity
from agent_memory.wiring.aws_settings import FOUNDATION_MODEL_ARN
from agent_memory.wiring.detectors import PiiDetectorChoice, check_regions

ROOT = Path(__file__).resolve().parent.parent
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


@dataclass(frozen=True, slots=True)
class MemoryConfig:
    """What may differ between deployments of the same code.

    ``chat_model_id`` empty means no LLM: RunFinished events must carry their artifacts.
    It may be a foundation model id or a cross-Region inference profile id (``us.…``).
    ``rerank_model_arn`` empty means bootstrap serves the index's order; else the ARN of the
    Bedrock reranker model that orders it, in a Region that offers one (maybe not the stack's).
    ``tenant_identity`` is where a request's tenant comes from: the payload (trusted callers),
    or the ``tenant_id`` tag of the caller's IAM role (``principal-tag``). ``pii_regions``
    are the countries (ISO 3166 codes, ``DE,BR``) whose national phone numbers the scrubbing
    functions read without a country code. ``pii_detector`` is what those functions scrub
    with: the local PII detector (``local``, the default) or Amazon Comprehend beside it
    (``comprehend``: English and Spanish only, billed per 100 characters). ``dashboard``
    adds the CloudWatch dashboard ($3 a month beyond an account's first three); the alarms
    are there either way.
    """

    layer_path: Path
    chat_model_id: str = ""
    log_level: str = "INFO"
    rerank_model_arn: str = ""
    tenant_identity: TenantIdentity = TenantIdentity.PAYLOAD
    pii_regions: tuple[str, ...] = ()
    pii_detector: PiiDetectorChoice = PiiDetectorChoice.LOCAL
    dashboard: bool = False

    @classmethod
    def from_context(cls, node: Node) -> MemoryConfig:
        """Read ``layerPath``, ``chatModelId``, ``logLevel``, ``rerankModelArn``,
        ``tenantIdentity``, ``piiRegions``, ``piiDetector``, ``dashboard``; a relative path is
        from the repo.
        """
        layer = Path(str(node.try_get_context("layerPath") or "build/layer"))
        config = cls(
            layer_path=layer if layer.is_absolute() else ROOT / layer,
            chat_model_id=str(node.try_get_context("chatModelId") or "").strip(),
            log_level=str(node.try_get_context("logLevel") or "INFO").upper(),
            rerank_model_arn=str(node.try_get_context("rerankModelArn") or "").strip(),
            tenant_identity=TenantIdentity.parse(
                node.try_get_context("tenantIdentity"), field="tenantIdentity"
            ),
            pii_regions=check_regions(
                parse_regions(_listed(node.try_get_context("piiRegions")), field="piiRegions"),
                field="piiRegions",
            ),
            pii_detector=PiiDetectorChoice.parse(
                _text(node.try_get_context("piiDetector")), field="piiDetector"
            ),
            dashboard=_flag(node.try_get_context("dashboard"), field="dashboard"),
        )
        if config.log_level not in LOG_LEVELS:
            raise ValueError(f"logLevel must be one of {LOG_LEVELS}, not {config.log_level!r}")
        if config.rerank_model_arn and not FOUNDATION_MODEL_ARN.fullmatch(config.rerank_model_arn):
            raise ValueError(
                "rerankModelArn must be arn:<partition>:bedrock:<region>::foundation-model/<id>, "
                f"not {config.rerank_model_arn!r}"
            )
        if not config.layer_path.is_dir():
            raise FileNotFoundError(
                f"no layer at {config.layer_path}: run `python layers/build.py` (cdk.json's build"
                " step does) or pass -c layerPath=<dir>"
            )
        return config


def _flag(value: object, *, field: str) -> bool:
    """A context flag given as ``-c dashboard=true`` or as a JSON boolean in ``cdk.json``."""
    if value is None or isinstance(value, bool):
        return bool(value)
    text = str(value).strip().lower()
    if text not in ("true", "false"):
        raise ValueError(f"{field} must be true or false, not {value!r}")
    return text == "true"


def _text(value: object) -> str | None:
    return None if value is None else str(value)


def _listed(value: object) -> str | None:
    """A context value given as ``-c piiRegions=DE,BR`` or as a JSON list in ``cdk.json``."""
    if isinstance(value, list):
        return ",".join(str(item) for item in value)
    return None if value is None else str(value)
