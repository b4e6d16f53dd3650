"""The credential detector's former home: ``agent_memory.adapters.credentials`` holds it now."""

from agent_memory.adapters.credentials import CredentialDetector

__all__ = ["CredentialDetector"]
