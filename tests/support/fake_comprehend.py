"""Amazon Comprehend's ``DetectPiiEntities`` answered in-process by a fixed recogniser.

Comprehend is a model: what it finds is not this project's to test. The fake answers on a real
``comprehend`` client (``tests.support.botocore_answers``) with the entities a local recogniser
finds, in Comprehend's shape and limits: offsets in code points, end exclusive; text of more
than 100 KB of UTF-8 refused with ``TextSizeLimitExceededException``; only English and Spanish.
https://docs.aws.amazon.com/comprehend/latest/APIReference/API_DetectPiiEntities.html
"""

from __future__ import annotations

from typing import Any

from agent_memory.core.ports import PiiDetector
from tests.support.botocore_answers import Answer, ServiceError, answer, offline_client

MAX_TEXT_BYTES = 100_000
LANGUAGES = ("en", "es")


def comprehend_client(recogniser: PiiDetector) -> Any:
    """A ``comprehend`` client whose ``detect_pii_entities`` reports what ``recogniser`` finds."""
    client = offline_client("comprehend")
    answer(client, "DetectPiiEntities", detect_pii_entities(recogniser))
    return client


def detect_pii_entities(recogniser: PiiDetector) -> Answer:
    """Comprehend's ``DetectPiiEntities`` reporting what ``recogniser`` finds, to answer on
    any ``comprehend`` client (``tests.support.botocore_answers.answer``).
    """

    def detect(params: dict[str, Any]) -> dict[str, Any]:
        text = params["Text"]
        if len(text.encode("utf-8")) > MAX_TEXT_BYTES:
            raise ServiceError("TextSizeLimitExceededException", "text over 100 KB")
        if params["LanguageCode"] not in LANGUAGES:
            raise ServiceError("UnsupportedLanguageException", "language not supported")
        return {
            "Entities": [
                {"Score": e.score, "Type": e.type, "BeginOffset": e.begin, "EndOffset": e.end}
                for e in recogniser.detect(text)
            ]
        }

    return detect
