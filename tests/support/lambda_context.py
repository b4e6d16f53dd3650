"""The Lambda context the in-process handlers receive in the workflow and resilience suites."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from tests.integration.aws.moto_dynamodb import REGION


@dataclass
class LambdaContext:
    """The attributes Powertools reads from a Lambda context; ``remaining_ms`` is what the
    handler is told it has left.
    """

    function_name: str
    remaining_ms: int = 60_000
    memory_limit_in_mb: int = 512
    aws_request_id: str = field(default_factory=lambda: str(uuid.uuid4()))

    @property
    def invoked_function_arn(self) -> str:
        return f"arn:aws:lambda:{REGION}:123456789012:function:{self.function_name}"

    def get_remaining_time_in_millis(self) -> int:
        return self.remaining_ms
