"""Serving receipts: bootstrap's signed statement that it served a procedure to one agent.

Procedure feedback counts only with the receipt of the bootstrap that served the procedure
(``procedural.record_feedback``), so an agent never served a procedure cannot move its
record, and a receipt counts once. A receipt is ``payload.signature``: the payload is compact
JSON ``{"v", "tenant_id", "agent_id", "procedure_id", "issued_at", "nonce"}`` and the signature
an HMAC-SHA256 of it, both base64url without padding. It is opaque to agents: they hand it
back unchanged in ``procedure_feedback.receipt``.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
import secrets
from dataclasses import dataclass
from typing import Any

VERSION = 1
# The longest receipt: a payload of three 128-character identifiers, a time and a nonce is
# under 600 characters encoded; the signature is 43.
MAX_RECEIPT_CHARS = 1_024
PATTERN = r"^[A-Za-z0-9_-]{1,960}\.[A-Za-z0-9_-]{43}$"
# Derivation label: a pseudonym HMACs "{tenant}\0{kind}\0{text}" under the same secret, which
# never starts with NUL (tenant ids are not empty), so the two uses can never coincide.
_KEY_LABEL = b"\0agent-memory/serving-receipt-key/v1"
_SIGNED = b"agent-memory serving receipt\0"
_NONCE_BYTES = 16
_BASE64URL = re.compile(r"[A-Za-z0-9_-]*")

NO_RECEIPT = "no receipt"
NOT_CONFIGURED = "receipts not configured"
INVALID = "receipt invalid"
OTHER_TENANT = "receipt for another tenant"
OTHER_AGENT = "receipt for another agent"
OTHER_PROCEDURE = "receipt for another procedure"
EXPIRED = "receipt expired"


@dataclass(frozen=True, slots=True)
class Receipt:
    """What a valid receipt says: who was served which procedure, when; ``nonce`` names it."""

    tenant_id: str
    agent_id: str
    procedure_id: str
    issued_at: float
    nonce: str


class ReceiptRefused(Exception):
    """A receipt that cannot make feedback count; ``reason`` is one of this module's reasons."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def derive_key(secret: bytes) -> bytes:
    """The receipt-signing key of a deployment secret: its own key, never the secret itself."""
    return hmac.new(secret, _KEY_LABEL, hashlib.sha256).digest()


def issue(key: bytes, *, tenant_id: str, agent_id: str, procedure_id: str, now: float) -> str:
    """A fresh receipt for serving ``procedure_id`` to ``agent_id`` of ``tenant_id`` at ``now``."""
    payload = {
        "v": VERSION,
        "tenant_id": tenant_id,
        "agent_id": agent_id,
        "procedure_id": procedure_id,
        "issued_at": round(now, 3),
        "nonce": secrets.token_urlsafe(_NONCE_BYTES),
    }
    body = _encode(json.dumps(payload, separators=(",", ":")).encode())
    return f"{body}.{_encode(_sign(key, body))}"


def verify(
    token: str | None,
    key: bytes | None,
    *,
    tenant_id: str,
    agent_id: str,
    procedure_id: str,
    now: float,
    valid_for: float,
) -> Receipt:
    """The receipt ``token`` states, if it makes a report on ``procedure_id`` by ``agent_id``
    of ``tenant_id`` count at ``now``: signed with ``key``, naming them, at most ``valid_for``
    seconds old. Raises :class:`ReceiptRefused` saying why not.

    Whether it was used before is the store's to say (``ProcedureStore.record_feedback``).
    """
    if token is None:
        raise ReceiptRefused(NO_RECEIPT)
    if key is None:
        raise ReceiptRefused(NOT_CONFIGURED)
    receipt = _read(token, key)
    if receipt.tenant_id != tenant_id:
        raise ReceiptRefused(OTHER_TENANT)
    if receipt.agent_id != agent_id:
        raise ReceiptRefused(OTHER_AGENT)
    if receipt.procedure_id != procedure_id:
        raise ReceiptRefused(OTHER_PROCEDURE)
    if now - receipt.issued_at > valid_for:
        raise ReceiptRefused(EXPIRED)
    return receipt


def _read(token: str, key: bytes) -> Receipt:
    """The signed content of ``token``; :data:`INVALID` if it is not one this key signed."""
    body, dot, signature = token.partition(".")
    if not dot or len(token) > MAX_RECEIPT_CHARS:
        raise ReceiptRefused(INVALID)
    try:
        given = _decode(signature)
        if not hmac.compare_digest(given, _sign(key, body)):
            raise ReceiptRefused(INVALID)
        # Signed by this key, so written by ``issue``: only a newer format could fail here.
        payload: Any = json.loads(_decode(body))
        if payload.get("v") != VERSION:
            raise ReceiptRefused(INVALID)
        return Receipt(
            tenant_id=str(payload["tenant_id"]),
            agent_id=str(payload["agent_id"]),
            procedure_id=str(payload["procedure_id"]),
            issued_at=float(payload["issued_at"]),
            nonce=str(payload["nonce"]),
        )
    except (ValueError, KeyError, TypeError, AttributeError, binascii.Error):
        raise ReceiptRefused(INVALID) from None


def _sign(key: bytes, body: str) -> bytes:
    return hmac.new(key, _SIGNED + body.encode("ascii"), hashlib.sha256).digest()


def _encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _decode(text: str) -> bytes:
    if not _BASE64URL.fullmatch(text):
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
