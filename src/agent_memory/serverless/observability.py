"""Logger, Tracer and Metrics: created once, shared by every handler of a function."""

from __future__ import annotations

from aws_lambda_powertools import Logger, Metrics, Tracer

SERVICE = "agent-memory"
NAMESPACE = "AgentMemory"

logger = Logger(service=SERVICE)
tracer = Tracer(service=SERVICE)
metrics = Metrics(service=SERVICE, namespace=NAMESPACE)
