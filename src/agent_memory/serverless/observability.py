"""Logger, Tracer and Metrics: created once, shared by every handler of a function."""

from __future__ import annotations

import logging
import os
import warnings

from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.logging.utils import copy_config_to_registered_loggers

SERVICE = "agent-memory"
# The stack sets its own (``AgentMemory/<stack name>``), so two stacks in one account and
# Region never share a metric; this is the namespace outside a stack (tests, local runs).
NAMESPACE = os.environ.get("POWERTOOLS_METRICS_NAMESPACE") or "AgentMemory"
# The package's loggers (adapters log with ``extra=``: a document's failure reason, a throttled
# call's code).
PACKAGE_LOGGER = "agent_memory"

# An ingestion window that found nothing publishes no metric on purpose (each metric is billed
# for every hour it is published in); Powertools would warn of it.
warnings.filterwarnings("ignore", message="No application metrics to publish", category=UserWarning)

logger = Logger(service=SERVICE)
tracer = Tracer(service=SERVICE)
metrics = Metrics(service=SERVICE, namespace=NAMESPACE)


def route_package_logs() -> None:
    """Send the package's standard-library log records through Powertools' JSON formatter.

    Lambda's own handler writes a record's message alone, so the ``extra`` fields (which the
    runbook reads: the document, Bedrock's reason) would be lost. One JSON line per record,
    not propagated to Lambda's text handler as well.
    """
    logging.getLogger(PACKAGE_LOGGER)
    copy_config_to_registered_loggers(source_logger=logger, include={PACKAGE_LOGGER})


if os.environ.get("AWS_LAMBDA_FUNCTION_NAME"):
    route_package_logs()
