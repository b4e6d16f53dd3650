"""Lambda `bootstrap`: the memory context for a run about to start, a search of past runs, or
the agent's flag on an item it was served (invoked by the agent).
"""

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from agent_memory.core.api.bootstrap_reply import BootstrapReply
from agent_memory.core.api.episode_search import EpisodeSearch
from agent_memory.serverless import agent_calls
from agent_memory.serverless.observability import logger, metrics, tracer


@logger.inject_lambda_context
@tracer.capture_lambda_handler
@metrics.log_metrics(capture_cold_start_metric=True)
def handler(
    event: dict[str, Any], context: LambdaContext
) -> BootstrapReply | EpisodeSearch | dict[str, Any]:
    """Parse, call the application, reply."""
    return agent_calls.bootstrap_reply(event)
