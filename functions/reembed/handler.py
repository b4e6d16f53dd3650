"""Lambda `reembed`: move stored vectors to a new embedding model, resumably (invoke until done)."""

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from agent_memory.serverless import reembed_job
from agent_memory.serverless.observability import logger, metrics, tracer


@logger.inject_lambda_context
@tracer.capture_lambda_handler
@metrics.log_metrics(capture_cold_start_metric=True)
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    """Parse, call the core until near the timeout, reply."""
    return reembed_job.run_job(event, context.get_remaining_time_in_millis)
