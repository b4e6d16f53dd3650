"""What both modes leave in stored text: the PII types kept, and which URLs are personal data.

Local mode (``LocalPiiDetector``) and AWS mode (Amazon Comprehend) make the same promise:

- Dates, times and ages (Comprehend's ``DATE_TIME`` and ``AGE``) are kept: they are what
  time-aware recall is built on ("the outage on 3 May"), and alone they identify nobody. The
  local detector does not look for them; the Comprehend adapter drops them by default.
- A URL is scrubbed, whole, when it holds an ``@``: a user name and password
  (``https://jdoe:pw@host``), an email address in its query, a handle in its path
  (``/@jdoe``). Any other URL is kept: "the docs at https://docs.aws.amazon.com/..." is memory
  worth keeping, and Comprehend labels every URL.
"""

from __future__ import annotations

__all__ = ["KEPT_TYPES", "url_is_personal"]

KEPT_TYPES = frozenset({"DATE_TIME", "AGE"})


def url_is_personal(url: str) -> bool:
    """True if ``url`` names a user or carries credentials or an address: it holds an ``@``."""
    return "@" in url
