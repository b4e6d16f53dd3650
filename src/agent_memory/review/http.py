"""The review server's HTTP pieces: a response, its security headers, and a posted form read."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import parse_qs
from wsgiref.types import WSGIEnvironment

from agent_memory.review.layout import render_error

# The largest edit: 50 steps of 2,000 characters, each up to 9 bytes once form-encoded.
MAX_FORM_BYTES = 1024 * 1024


@dataclass(frozen=True, slots=True)
class Response:
    """A status line, headers and body."""

    status: str
    body: bytes = b""
    headers: list[tuple[str, str]] = field(default_factory=list)


def redirect(location: str) -> Response:
    """A 303 to ``location`` on this server (a path the server built, never one it was sent)."""
    return Response("303 See Other", headers=[("Location", location)])


def read_form(environ: WSGIEnvironment) -> tuple[dict[str, str], Response | None]:
    """The POSTed form as single values, or the response refusing it."""
    content_type = str(environ.get("CONTENT_TYPE", "")).split(";")[0].strip().lower()
    if content_type != "application/x-www-form-urlencoded":
        return {}, refused("415 Unsupported Media Type", "Post the page's form.")
    try:
        length = int(environ.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return {}, refused("400 Bad Request", "Bad Content-Length.")
    if length < 0 or length > MAX_FORM_BYTES:
        return {}, refused("413 Content Too Large", "That form is too large.")
    raw = environ["wsgi.input"].read(length)
    try:
        fields = parse_qs(raw.decode("utf-8"), keep_blank_values=True, max_num_fields=20)
    except (UnicodeDecodeError, ValueError):
        return {}, refused("400 Bad Request", "That form could not be read.")
    form: dict[str, str] = {}
    for name, values in fields.items():
        if len(set(values)) != 1:
            return {}, refused("400 Bad Request", f"The field {name!r} has several values.")
        form[name] = values[0]
    return form, None


def query_fields(query: str) -> dict[str, str]:
    """A page's query string as single values (the first of each; at most 10 fields)."""
    try:
        fields = parse_qs(query, max_num_fields=10)
    except ValueError:
        return {}
    return {name: values[0] for name, values in fields.items()}


def query_value(query: str, name: str) -> str | None:
    """One value of a query string (None when absent or unreadable)."""
    return query_fields(query).get(name)


def security_headers(nonce: str | None) -> list[tuple[str, str]]:
    """A nonce-only Content-Security-Policy (no script or style without it) and no framing."""
    scripts = f"'nonce-{nonce}'" if nonce else "'none'"
    return [
        (
            "Content-Security-Policy",
            f"default-src 'none'; script-src {scripts}; style-src {scripts}; "
            "form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
        ),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "same-origin"),
        ("Cache-Control", "no-store"),
    ]


def html(status: str, page: str, nonce: str | None = None) -> Response:
    """A page as the response, under the security headers."""
    body = page.encode("utf-8")
    headers = [
        ("Content-Type", "text/html; charset=utf-8"),
        ("Content-Length", str(len(body))),
        *security_headers(nonce),
    ]
    return Response(status, body, headers)


def refused(status: str, message: str, headers: Iterable[tuple[str, str]] = ()) -> Response:
    """A bare page refusing the request (no form, no token)."""
    bare = html(status, render_error(status.split(" ", 1)[1], message))
    return Response(bare.status, bare.body, [*bare.headers, *headers])
