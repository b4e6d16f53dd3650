"""Credentials as entities: what scrubbing runs beside the PII detector in both modes."""

from .detector import CredentialDetector

__all__ = ["CredentialDetector"]
