"""What both modes leave in stored text: the PII types kept, and which URLs are personal data.

Local mode (``LocalPiiDetector``) and AWS mode (Amazon Comprehend) make the same promise:

- Dates, times and ages (Comprehend's ``DATE_TIME`` and ``AGE``) are kept: they are what
  time-aware recall is built on ("the outage on 3 May"), and alone they identify nobody. The
  local detector does not look for them; the Comprehend adapter drops them by default.
- A URL that names a user before its host (``https://jdoe:pw@host/...``, ``ftp://jdoe@host``)
  is scrubbed whole; an email address inside a URL is scrubbed too (locally as ``EMAIL``, on
  AWS with the URL Comprehend reports around it). Any other URL is kept: "the docs at
  https://docs.aws.amazon.com/..." is memory worth keeping, and Comprehend labels every URL.
"""

from __future__ import annotations

import re

__all__ = ["KEPT_TYPES", "url_is_personal"]

KEPT_TYPES = frozenset({"DATE_TIME", "AGE"})

# "scheme://user[:password]@": a user before the host.
_USERINFO = re.compile(r"^(?:[A-Za-z][A-Za-z0-9+.-]*:)?//[^\s/?#@]*@")
# An address: a local part that does not start after "/" (so "/@scope/pkg" and "/@media" are
# not), "@", and a dotted domain.
_EMAIL = re.compile(r"(?<![/\w.+-])[\w.+-]+@[^\W_][\w-]*(?:\.[\w-]+)+")


def url_is_personal(url: str) -> bool:
    """True if ``url`` names a user before its host, or holds an email address."""
    return _USERINFO.match(url) is not None or _EMAIL.search(url) is not None
