"""Who is calling: a signed ``sts:GetCallerIdentity`` request, checked by STS itself.

A Lambda invocation does not tell the function who invoked it, and a payload can say anything.
So under principal-tag identity the caller sends a *proof*: a GetCallerIdentity request it
signed with its own credentials (SigV4), naming this deployment in a signed header. The
function sends the request to STS unchanged; STS answers with the caller's ARN only if the
signature is valid and at most 15 minutes old, and the signed audience header keeps a proof
made for one deployment from being replayed against another. The tenant is then the
``tenant_id`` tag of the caller's IAM role (or user), read with ``iam:ListRoleTags``. This is
the scheme of Vault's and Kubernetes' AWS IAM authenticators.
"""

from __future__ import annotations

import calendar
import re
import threading
import time
import urllib.error
import urllib.request
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit
from xml.etree import ElementTree

from botocore.auth import SigV4Auth  # type: ignore[import-untyped, unused-ignore]
from botocore.awsrequest import AWSRequest  # type: ignore[import-untyped, unused-ignore]
from botocore.exceptions import ClientError  # type: ignore[import-untyped, unused-ignore]

from agent_memory.adapters.aws._errors import error_code, require_identifier, transient_errors
from agent_memory.core.model.errors import Forbidden, InvalidInput, TransientError
from agent_memory.core.model.tenant_identity import TENANT_TAG

__all__ = ["AUDIENCE_HEADER", "CallerTenants", "identity_proof"]

AUDIENCE_HEADER = "x-agent-memory-audience"
IDENTITY_BODY = "Action=GetCallerIdentity&Version=2011-06-15"
# STS's global and Regional endpoints (https only): a proof is never sent anywhere else, so a
# caller cannot make the function fetch a URL of its choosing.
_STS_HOST = re.compile(r"sts(\.[a-z0-9-]+)?\.amazonaws\.com(\.cn)?")
_ASSUMED_ROLE = re.compile(r"arn:aws[a-z-]*:sts::(\d{12}):assumed-role/([\w+=,.@-]{1,64})/.+")
_USER = re.compile(r"arn:aws[a-z-]*:iam::(\d{12}):user/(?:[\w+=,.@/-]*/)?([\w+=,.@-]{1,64})")
_SIGNED_HEADERS = re.compile(r"SignedHeaders=([a-z0-9;-]+)")
# SigV4 signatures are accepted for 15 minutes after their X-Amz-Date.
SIGNATURE_LIFETIME_SECONDS = 900.0
_REQUEST_TIMEOUT_SECONDS = 3.0

Send = Callable[[str, bytes, Mapping[str, str]], tuple[int, bytes]]


def identity_proof(
    credentials: Any, *, audience: str, region: str, endpoint: str | None = None
) -> dict[str, Any]:
    """A proof that the caller holds ``credentials``, for the deployment named ``audience``.

    ``credentials`` are botocore credentials (``session.get_credentials()``). The proof is
    valid for 15 minutes and may be reused for as long: send it as ``caller_identity``.
    """
    url = endpoint or f"https://sts.{region}.amazonaws.com/"
    request = AWSRequest(
        method="POST",
        url=url,
        data=IDENTITY_BODY,
        headers={
            "Content-Type": "application/x-www-form-urlencoded; charset=utf-8",
            AUDIENCE_HEADER: audience,
        },
    )
    SigV4Auth(credentials.get_frozen_credentials(), "sts", region).add_auth(request)
    return {"url": url, "body": IDENTITY_BODY, "headers": dict(request.headers.items())}


@dataclass(frozen=True, slots=True)
class _Proof:
    url: str
    body: str
    headers: dict[str, str]
    signature: str


class CallerTenants:
    """The tenant of whoever signed a proof (see :func:`identity_proof`).

    ``audience`` names this deployment (the bootstrap function's name); ``account`` is the
    stack's account, the only one whose roles' tags can be read. Verified signatures are kept
    until they expire and tags for ``tag_ttl`` seconds, both in bounded LRU maps, so a warm
    container asks STS once per proof and IAM once per role every few minutes.
    """

    def __init__(
        self,
        iam: Any,
        *,
        audience: str,
        account: str | None = None,
        trusted_endpoints: tuple[str, ...] = (),
        send: Send | None = None,
        tag_ttl: float = 300.0,
        max_entries: int = 1024,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._iam = iam
        self._audience = audience
        self._account = account
        self._trusted = trusted_endpoints
        self._send = send or _post
        self._tag_ttl = tag_ttl
        self._max = max_entries
        self._clock = clock
        self._callers: OrderedDict[str, tuple[str, float]] = OrderedDict()
        self._tenants: OrderedDict[str, tuple[str, float]] = OrderedDict()
        self._lock = threading.Lock()

    def tenant_of(self, proof: object) -> str:
        """The ``tenant_id`` tag of the proof's signer; ``Forbidden`` if it proves nothing."""
        checked = self._checked(proof)
        arn = self._cached(self._callers, checked.signature)
        if arn is None:
            arn = self._caller_arn(checked)
            expires = _signed_at(checked.headers) + SIGNATURE_LIFETIME_SECONDS
            self._remember(self._callers, checked.signature, arn, expires)
        principal = self._principal(arn)
        tenant = self._cached(self._tenants, principal)
        if tenant is None:
            tenant = self._tag_of(arn)
            self._remember(self._tenants, principal, tenant, self._clock() + self._tag_ttl)
        return tenant

    def _checked(self, proof: object) -> _Proof:
        if not isinstance(proof, Mapping):
            raise Forbidden("caller_identity", "a signed identity proof is required")
        url, body, headers = proof.get("url"), proof.get("body"), proof.get("headers")
        if not isinstance(url, str) or not isinstance(body, str):
            raise InvalidInput("caller_identity", "must have string url and body")
        if not isinstance(headers, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in headers.items()
        ):
            raise InvalidInput("caller_identity.headers", "must map header names to strings")
        if not self._is_sts(url):
            raise Forbidden("caller_identity.url", "must be an AWS STS endpoint")
        action = parse_qs(body).get("Action")
        if action != ["GetCallerIdentity"] or set(parse_qs(body)) != {"Action", "Version"}:
            raise Forbidden("caller_identity.body", "must be a GetCallerIdentity request only")
        lowered = {k.lower(): v for k, v in headers.items()}
        if lowered.get(AUDIENCE_HEADER) != self._audience:
            raise Forbidden(
                "caller_identity", f"was made for another deployment than {self._audience!r}"
            )
        signed = _SIGNED_HEADERS.search(lowered.get("authorization", ""))
        if signed is None or AUDIENCE_HEADER not in signed.group(1).split(";"):
            raise Forbidden("caller_identity", f"must sign the {AUDIENCE_HEADER} header")
        return _Proof(url, body, dict(headers), lowered["authorization"])

    def _is_sts(self, url: str) -> bool:
        if url in self._trusted:
            return True
        parts = urlsplit(url)
        return (
            parts.scheme == "https"
            and parts.port is None
            and _STS_HOST.fullmatch(parts.hostname or "") is not None
            and parts.path in ("", "/")
            and not parts.query
        )

    def _caller_arn(self, proof: _Proof) -> str:
        try:
            status, payload = self._send(proof.url, proof.body.encode(), proof.headers)
        except OSError as error:
            raise TransientError(f"sts GetCallerIdentity: {error}") from error
        if status in (400, 403):
            raise Forbidden("caller_identity", "STS refused the proof (expired or not signed)")
        if status != 200:
            raise TransientError(f"sts GetCallerIdentity: HTTP {status}")
        try:
            arn = ElementTree.fromstring(payload).findtext(".//{*}Arn")
        except ElementTree.ParseError:
            arn = None
        if not arn:
            raise TransientError("sts GetCallerIdentity: no Arn in the reply")
        return arn

    def _principal(self, arn: str) -> str:
        """The role or user behind ``arn`` (every session of a role shares its tags)."""
        for pattern, kind in ((_ASSUMED_ROLE, "role"), (_USER, "user")):
            found = pattern.fullmatch(arn)
            if found is not None:
                account, name = found.groups()
                if self._account is not None and account != self._account:
                    raise Forbidden(
                        "caller_identity", f"callers must be of account {self._account}"
                    )
                return f"{kind}/{name}"
        raise Forbidden("caller_identity", "the caller must be an IAM role session or user")

    def _tag_of(self, arn: str) -> str:
        kind, name = self._principal(arn).split("/", 1)
        try:
            with transient_errors(f"iam list {kind} tags"):
                if kind == "role":
                    tags = self._iam.list_role_tags(RoleName=name)["Tags"]
                else:
                    tags = self._iam.list_user_tags(UserName=name)["Tags"]
        except ClientError as error:
            if error_code(error) == "NoSuchEntity":
                raise Forbidden("caller_identity", f"no IAM {kind} {name!r}") from None
            raise
        values = [t["Value"] for t in tags if t["Key"] == TENANT_TAG]
        if not values:
            raise Forbidden("caller_identity", f"IAM {kind} {name!r} has no {TENANT_TAG} tag")
        return require_identifier(values[0], f"the {TENANT_TAG} tag of {kind} {name!r}")

    def _cached(self, entries: OrderedDict[str, tuple[str, float]], key: str) -> str | None:
        with self._lock:
            entry = entries.get(key)
            if entry is None or entry[1] <= self._clock():
                entries.pop(key, None)
                return None
            entries.move_to_end(key)
            return entry[0]

    def _remember(
        self, entries: OrderedDict[str, tuple[str, float]], key: str, value: str, expires: float
    ) -> None:
        with self._lock:
            entries[key] = (value, expires)
            entries.move_to_end(key)
            while len(entries) > self._max:
                entries.popitem(last=False)


def _signed_at(headers: Mapping[str, str]) -> float:
    """When the proof was signed (its X-Amz-Date, UTC); 0 if unreadable, so it is not kept."""
    stamp = {k.lower(): v for k, v in headers.items()}.get("x-amz-date", "")
    try:
        return float(calendar.timegm(time.strptime(stamp, "%Y%m%dT%H%M%SZ")))
    except ValueError:
        return 0.0


def _post(url: str, body: bytes, headers: Mapping[str, str]) -> tuple[int, bytes]:
    request = urllib.request.Request(url, data=body, headers=dict(headers), method="POST")
    try:
        with urllib.request.urlopen(request, timeout=_REQUEST_TIMEOUT_SECONDS) as reply:
            return int(reply.status), bytes(reply.read())
    except urllib.error.HTTPError as error:
        return int(error.code), bytes(error.read())
