"""Metric helpers shared by the functions: counts and latencies under one namespace."""

from __future__ import annotations

from aws_lambda_powertools.metrics import MetricUnit

from agent_memory.serverless.observability import metrics


def count(name: str, value: float) -> None:
    """Add a count."""
    metrics.add_metric(name=name, unit=MetricUnit.Count, value=value)


def milliseconds(name: str, value: float) -> None:
    """Add a latency."""
    metrics.add_metric(name=name, unit=MetricUnit.Milliseconds, value=value)
