"""The local review server: the page, and decisions posted from it through the core's review.

A WSGI application on the standard library's server, bound to loopback by default. Every
start draws a new CSRF token that the page embeds and every POST must carry; the ``Host``
header must name the server (so a DNS-rebinding page cannot read that token) and a POST's
``Origin``, when sent, must be the server's own.

Example::

    with ReviewServer(app) as server:
        print(server.url)
        server.serve_forever()
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
import secrets
import socket
import threading
from collections.abc import Iterable
from socketserver import TCPServer, ThreadingMixIn
from types import TracebackType
from urllib.parse import parse_qs, quote, urlsplit
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer
from wsgiref.types import StartResponse, WSGIEnvironment

from agent_memory.app import Application
from agent_memory.app.messages import (
    CloseFlag,
    DecideProcedure,
    EditProcedure,
    ListFlags,
    ListProcedures,
    Message,
    RetireProcedure,
    ReviewQueue,
    ShowProcedure,
)
from agent_memory.core.api.bootstrap_reply import ProcedureView
from agent_memory.core.model.errors import Conflict, InvalidInput, NotFound, TransientError
from agent_memory.core.model.models import ProcedureStatus
from agent_memory.review.browser import (
    ACTION_PATHS,
    FLAGS_PATH,
    MAX_FLAGS_SHOWN,
    VIEW_PATHS,
    Browser,
)
from agent_memory.review.http import MAX_FORM_BYTES as MAX_FORM_BYTES  # the tests read it here
from agent_memory.review.http import (
    Response,
    html,
    query_value,
    read_form,
    redirect,
    refused,
)
from agent_memory.review.layout import Banner, render_error
from agent_memory.review.page import (
    DECIDE_PATH,
    DISMISS_PATH,
    EDIT_PATH,
    RETIRE_PATH,
    render_page,
)

logger = logging.getLogger(__name__)

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
_LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
_WILDCARDS = ("0.0.0.0", "::", "")


class ReviewApp:
    """The review page as a WSGI application over the memory's application.

    ``allowed_hosts`` lists the ``Host`` header values accepted (``host:port``); None accepts
    any, for a server bound to every interface, where the names it is reached by are unknown.
    ``tenant_id`` limits the page and its decisions to one tenant.
    """

    def __init__(
        self,
        app: Application,
        *,
        allowed_hosts: Iterable[str] | None = None,
        tenant_id: str | None = None,
        csrf_token: str | None = None,
    ) -> None:
        self.memory = app
        self.tenant_id = tenant_id
        self.csrf_token = csrf_token or secrets.token_urlsafe(32)
        self.allowed_hosts = None if allowed_hosts is None else frozenset(allowed_hosts)
        self.browser = Browser(app, tenant_id, self.csrf_token)

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> list[bytes]:
        """Answer one request."""
        try:
            response = self.respond(environ)
        except Exception:
            logger.exception("review request failed")
            response = html("500 Internal Server Error", render_error("Error", _INTERNAL))
        start_response(response.status, response.headers)
        return [b"" if environ.get("REQUEST_METHOD") == "HEAD" else response.body]

    def respond(self, environ: WSGIEnvironment) -> Response:
        """The response to a request: route, check, then show the page or decide."""
        if not self._host_allowed(environ):
            return refused("421 Misdirected Request", "This server does not answer that name.")
        method, path = environ.get("REQUEST_METHOD", "GET"), environ.get("PATH_INFO", "/")
        if path == "/" and method in ("GET", "HEAD"):
            query = environ.get("QUERY_STRING", "")
            if query_value(query, "dismissed") is not None:
                # Not echoed: a link could put any text there.
                said = "Flag dismissed: its agent is served the item again."
                return self._page(banner=Banner("ok", said))
            return self._page(*_done(query))
        if path in VIEW_PATHS and method in ("GET", "HEAD"):
            return self.browser.view(path, environ.get("QUERY_STRING", ""))
        if path in _POSTS and method == "POST":
            return self._post(path, environ)
        if path in ("/", *VIEW_PATHS, *_POSTS):
            allowed = "GET, HEAD" if path in ("/", *VIEW_PATHS) else "POST"
            return refused("405 Method Not Allowed", f"Use {allowed}.", [("Allow", allowed)])
        return refused("404 Not Found", "There is nothing here.")

    def _host_allowed(self, environ: WSGIEnvironment) -> bool:
        if self.allowed_hosts is None:
            return True
        return str(environ.get("HTTP_HOST", "")).lower() in self.allowed_hosts

    def _page(
        self,
        decided: str | None = None,
        done: str = "decided",
        banner: Banner | None = None,
        status: str = "200 OK",
    ) -> Response:
        if banner is None and decided is not None:
            banner = self._decided_banner(decided, done)
        nonce = secrets.token_urlsafe(16)
        served = ListProcedures(self.tenant_id, ProcedureStatus.VALIDATED)
        flags = None
        if self.tenant_id is not None:
            flags = self.memory.handle(ListFlags(self.tenant_id, MAX_FLAGS_SHOWN))["flags"]
        page = render_page(
            self.memory.handle(ReviewQueue(self.tenant_id)),
            csrf_token=self.csrf_token,
            nonce=nonce,
            banner=banner,
            tenant_id=self.tenant_id,
            served=self.memory.handle(served),
            flags=flags,
        )
        return html(status, page, nonce)

    def _decided_banner(self, procedure_id: str, done: str = "decided") -> Banner | None:
        try:
            decided = self.memory.handle(ShowProcedure(procedure_id, tenant_id=self.tenant_id))
        except NotFound:
            return None
        if done == "edited" and decided["edited_by"] is not None:
            return Banner(
                "ok",
                f"{decided['procedure_id']} “{decided['title']}” edited by "
                f"{decided['edited_by']} (revision {decided['revision']}); still "
                f"{decided['status']}: approve it to serve the new steps.",
            )
        if decided["reviewer"] is None:
            return None
        return Banner(
            "ok",
            f"{decided['procedure_id']} “{decided['title']}” is now {decided['status']} "
            f"(reviewer: {decided['reviewer']}).",
        )

    def _post(self, path: str, environ: WSGIEnvironment) -> Response:
        form, problem = read_form(environ)
        if problem is not None:
            return problem
        if not self._origin_allowed(environ) or not hmac.compare_digest(
            form.get("csrf_token", "").encode(), self.csrf_token.encode()
        ):
            return refused(
                "403 Forbidden",
                "This form is not from this review server, or the server has restarted "
                "since the page was loaded: reload the page and decide again.",
            )
        if path == DECIDE_PATH:
            return self._decide(form)
        if path == DISMISS_PATH:
            return self._dismiss(form)
        if path in ACTION_PATHS:
            return self.browser.act(path, form)
        return self._repair(path, form)

    def _dismiss(self, form: dict[str, str]) -> Response:
        """A flag closed as dismissed: its agent is served the item again."""
        flag_id, tenant_id = form.get("flag_id", ""), form.get("tenant_id", "")
        if self.tenant_id is None or tenant_id != self.tenant_id or not flag_id:
            return self._failed("404 Not Found", f"no open flag {flag_id!r} on this page")
        try:
            closed = self.memory.handle(
                CloseFlag(tenant_id, flag_id, form.get("reviewer", ""), form.get("reason") or None)
            )
        except InvalidInput as error:
            return self._failed("400 Bad Request", f"Not dismissed: {error}.")
        except NotFound as error:
            return self._failed("404 Not Found", f"Not dismissed: {error} (closed already?).")
        except TransientError:
            return self._failed("503 Service Unavailable", "Not dismissed: memory is busy; retry.")
        logger.info("flag dismissed", extra={"flag_id": closed["flag_id"]})
        if form.get("back") == "flags":
            return redirect(f"{FLAGS_PATH}?dismissed=1")
        return redirect(f"/?dismissed={quote(closed['flag_id'], safe='')}")

    def _repair(self, path: str, form: dict[str, str]) -> Response:
        """An edit or a retirement, confirmed on the page (the box ticked)."""
        procedure_id, tenant_id = form.get("procedure_id", ""), form.get("tenant_id", "")
        what = "edited" if path == EDIT_PATH else "retired"
        if not procedure_id or not tenant_id:
            return self._failed("400 Bad Request", f"Not {what}: no procedure named.")
        if self.tenant_id is not None and tenant_id != self.tenant_id:
            return self._failed("404 Not Found", f"no procedure {procedure_id!r}")
        if form.get("confirm") != "yes":
            return self._failed("400 Bad Request", f"Not {what}: tick the box to confirm.")
        message: Message[ProcedureView]
        if path == EDIT_PATH:
            steps = tuple(line for line in form.get("steps", "").splitlines() if line.strip())
            message = EditProcedure(
                tenant_id,
                procedure_id,
                steps,
                form.get("reviewer", ""),
                form.get("reason", ""),
                title=form.get("title") or None,
                expected_revision=_revision(form),
            )
        else:
            reviewer, reason = form.get("reviewer", ""), form.get("reason", "")
            message = RetireProcedure(tenant_id, procedure_id, reviewer, reason)
        failed = self._handled(message, f"Not {what}")
        if isinstance(failed, Response):
            return failed
        logger.info(
            "procedure repaired",
            extra={"procedure_id": failed["procedure_id"], "status": failed["status"]},
        )
        location = f"/?{what}={quote(failed['procedure_id'], safe='')}"
        return Response("303 See Other", headers=[("Location", location)])

    def _handled(self, message: Message[ProcedureView], failure: str) -> ProcedureView | Response:
        """The application's answer to ``message``, or the page saying why it failed."""
        try:
            return self.memory.handle(message)
        except InvalidInput as error:
            return self._failed("400 Bad Request", f"{failure}: {error}.")
        except NotFound as error:
            return self._failed("404 Not Found", f"{failure}: {error} (was it forgotten?).")
        except Conflict as error:
            return self._failed(
                "409 Conflict", f"{failure}: {error}. Someone may have changed it meanwhile."
            )
        except TransientError:
            return self._failed("503 Service Unavailable", f"{failure}: memory is busy; retry.")

    def _decide(self, form: dict[str, str]) -> Response:
        decision = form.get("decision")
        procedure_id, tenant_id = form.get("procedure_id", ""), form.get("tenant_id", "")
        if decision not in ("approve", "reject") or not procedure_id or not tenant_id:
            return self._page(
                banner=Banner("error", "A decision needs a procedure and Approve or Reject."),
                status="400 Bad Request",
            )
        if self.tenant_id is not None and tenant_id != self.tenant_id:
            return self._failed("404 Not Found", f"no procedure {procedure_id!r}")
        try:
            updated = self.memory.handle(
                DecideProcedure(
                    procedure_id,
                    approve=decision == "approve",
                    reviewer=form.get("reviewer", ""),
                    note=form.get("reason") or None,
                    tenant_id=tenant_id,
                    # The steps the reviewer read: an edit made since is not decided unread.
                    expected_revision=_revision(form),
                )
            )
        except InvalidInput as error:
            return self._failed("400 Bad Request", f"Not decided: {error}.")
        except NotFound as error:
            return self._failed("404 Not Found", f"Not decided: {error} (was it forgotten?).")
        except Conflict as error:
            return self._failed(
                "409 Conflict", f"Not decided: {error}. Someone may have decided it already."
            )
        except TransientError:
            return self._failed("503 Service Unavailable", "Not decided: memory is busy; retry.")
        logger.info(
            "procedure reviewed",
            extra={"procedure_id": updated["procedure_id"], "status": updated["status"]},
        )
        return Response(
            "303 See Other",
            headers=[("Location", f"/?decided={quote(updated['procedure_id'], safe='')}")],
        )

    def _failed(self, status: str, message: str) -> Response:
        return self._page(banner=Banner("error", message), status=status)

    def _origin_allowed(self, environ: WSGIEnvironment) -> bool:
        origin = environ.get("HTTP_ORIGIN")
        if origin is None or self.allowed_hosts is None:
            return True
        parts = urlsplit(str(origin))
        return parts.scheme == "http" and parts.netloc.lower() in self.allowed_hosts


_POSTS = (DECIDE_PATH, EDIT_PATH, RETIRE_PATH, DISMISS_PATH, *ACTION_PATHS)
_INTERNAL = "The review server failed to answer; its log says why."


def _done(query: str) -> tuple[str | None, str]:
    """The procedure a form just changed, and how (``decided``, ``edited``, ``retired``)."""
    fields = parse_qs(query, max_num_fields=5)
    for done in ("decided", "edited", "retired"):
        if fields.get(done):
            return fields[done][0], done
    return None, "decided"


def allowed_hosts(host: str, port: int) -> frozenset[str] | None:
    """The ``Host`` values a server bound to ``host:port`` answers (None: any, for a wildcard)."""
    if host in _WILDCARDS:
        return None
    names = {host.lower(), *_LOOPBACK_NAMES} if is_loopback(host) else {host.lower()}
    bracketed = {f"[{n}]" if ":" in n and not n.startswith("[") else n for n in names}
    return frozenset(f"{name}:{port}" for name in bracketed)


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine only (127.0.0.0/8, ::1 or localhost)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class _ThreadingServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True

    def server_bind(self) -> None:
        # HTTPServer.server_bind looks the host's name up (a DNS query): not wanted here.
        TCPServer.server_bind(self)
        host, port = self.server_address[:2]
        self.server_name, self.server_port = str(host), int(port)
        self.setup_environ()


class _ThreadingServer6(_ThreadingServer):
    address_family = socket.AF_INET6


class _QuietHandler(WSGIRequestHandler):
    """Request lines go to the module's logger, not to stderr."""

    def log_message(self, format: str, *args: object) -> None:
        logger.debug("review request", extra={"request": format % args})


class ReviewServer:
    """The review app served on ``host:port`` (port 0: any free port), in this thread or one
    of its own (:meth:`start`); :meth:`close` stops it.
    """

    def __init__(
        self,
        app: Application,
        *,
        host: str = DEFAULT_HOST,
        port: int = DEFAULT_PORT,
        tenant_id: str | None = None,
    ) -> None:
        bind = host.strip("[]")
        server_class = _ThreadingServer6 if ":" in bind else _ThreadingServer
        self._httpd = server_class((bind, port), _QuietHandler)
        self.host = host
        self.port = int(self._httpd.server_address[1])
        self.app = ReviewApp(app, allowed_hosts=allowed_hosts(bind, self.port), tenant_id=tenant_id)
        self._httpd.set_app(self.app)
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """The page's address."""
        host = self.host if self.host not in _WILDCARDS else DEFAULT_HOST
        host = f"[{host}]" if ":" in host and not host.startswith("[") else host
        return f"http://{host}:{self.port}/"

    def serve_forever(self) -> None:
        """Answer requests until :meth:`close` is called from another thread."""
        self._httpd.serve_forever(poll_interval=0.2)

    def start(self) -> ReviewServer:
        """Serve from a background thread; the server itself."""
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop serving and release the port."""
        if self._thread is not None:
            self._httpd.shutdown()
            self._thread.join(timeout=5)
            self._thread = None
        self._httpd.server_close()

    def __enter__(self) -> ReviewServer:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


def _revision(form: dict[str, str]) -> int | None:
    """The revision a form says its reviewer read (None: the form names none)."""
    revision = form.get("expected_revision", "")
    return int(revision) if revision.isdigit() else None
