"""Offline PII detection for local mode."""

from agent_memory.adapters.local.pii.detector import LocalPiiDetector

__all__ = ["LocalPiiDetector"]
