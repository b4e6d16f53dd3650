"""Logger, Tracer and Metrics: created once, shared by every handler of a function."""

from __future__ import annotations

import os

from aws_lambda_powertools import Logger, Metrics, Tracer

SERVICE = "agent-memory"
# The stack sets its own (``AgentMemory/<stack name>``), so two stacks in one account and
# Region never share a metric; this is the namespace outside a stack (tests, local runs).
NAMESPACE = os.environ.get("POWERTOOLS_METRICS_NAMESPACE") or "AgentMemory"

logger = Logger(service=SERVICE)
tracer = Tracer(service=SERVICE)
metrics = Metrics(service=SERVICE, namespace=NAMESPACE)
