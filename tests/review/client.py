"""A small HTTP client for the review server: real requests over loopback."""

from __future__ import annotations

import html
import http.client
import re
from dataclasses import dataclass
from urllib.parse import urlencode


@dataclass(frozen=True)
class Reply:
    status: int
    headers: dict[str, str]
    text: str

    def banner(self) -> str:
        found = re.search(r'<p class="banner [a-z]+" role="[a-z]+">(.*?)</p>', self.text, re.S)
        assert found, "no banner on the page"
        return html.unescape(found.group(1))


@dataclass(frozen=True)
class Client:
    port: int
    csrf_token: str

    def request(
        self,
        method: str,
        path: str,
        body: str | bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> Reply:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            return Reply(
                response.status,
                {k.lower(): v for k, v in response.getheaders()},
                response.read().decode("utf-8"),
            )
        finally:
            connection.close()

    def page(self, path: str = "/") -> Reply:
        return self.request("GET", path)

    def decide(
        self,
        procedure_id: str,
        decision: str,
        *,
        reviewer: str = "legal-lead",
        reason: str = "",
        tenant_id: str = "acme",
        csrf_token: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> Reply:
        form = {
            "procedure_id": procedure_id,
            "tenant_id": tenant_id,
            "decision": decision,
            "reviewer": reviewer,
            "reason": reason,
            "csrf_token": self.csrf_token if csrf_token is None else csrf_token,
        }
        return self.request(
            "POST",
            "/decide",
            body=urlencode(form),
            headers={"Content-Type": "application/x-www-form-urlencoded", **(headers or {})},
        )

    def repair(self, path: str, **fields: str) -> Reply:
        """POST an edit (``/edit``) or a retirement (``/retire``) form with this page's token."""
        form = {"tenant_id": "acme", "reviewer": "legal-lead", "csrf_token": self.csrf_token}
        return self.request(
            "POST",
            path,
            body=urlencode({**form, **fields}),
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )

    def act(self, path: str, **fields: str) -> Reply:
        """POST a browser action (``/forget``, ``/facts/retract`` ...) as its form sends it: this
        page's token, tenant acme, a reviewer, a reason and the box ticked, unless overridden.
        """
        form = {
            "tenant_id": "acme",
            "reviewer": "legal-lead",
            "reason": "Checked against the signed MSA",
            "confirm": "yes",
            "csrf_token": self.csrf_token,
        }
        return self.request(
            "POST",
            path,
            body=urlencode({**form, **fields}),
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
