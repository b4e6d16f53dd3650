"""Lambda `write_episode`: consolidation step 3, store the run's episode once."""

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from agent_memory.serverless import steps
from agent_memory.serverless.observability import logger, metrics, tracer


@logger.inject_lambda_context
@tracer.capture_lambda_handler
@metrics.log_metrics(capture_cold_start_metric=True)
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    """Parse, call the application, reply."""
    return steps.write_episode(event)
