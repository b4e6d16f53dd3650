"""Every AWS call a Lambda handler makes in the test suite, checked against its role.

moto grants everything, so a handler calling an API its role lacks passes on moto and fails on
AWS. This pytest plugin wraps botocore's ``BaseClient._make_api_call`` for the whole session (it
sees stubbed and ``before-call``-answered calls too), attributes each call to the function whose
``functions/<name>/handler.py`` is on the call stack (or submitted the thread-pool task making
it), and turns it into the IAM requests AWS would authorize (:mod:`tests.support.iam_check`).
Credentials an ``AssumeRole`` returned are remembered with its role, session policy and tags,
so a tenant-scoped call is checked against the tenant role *and* the session policy.

At the end of the session the stack is synthesized once per configuration the harnesses used,
every recorded request is evaluated, and a request no policy grants fails the session, naming
function, action, resource and the refusing policy. ``build/aws-calls.json`` lists what was
observed and which granted actions no test exercised.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from botocore.client import BaseClient

from tests.support.iam_check import (
    Assumed,
    Checker,
    Deployment,
    LogicalIds,
    Request,
    Tables,
    Template,
    Unsupported,
    Verdict,
    requests_for,
)

ROOT = Path(__file__).resolve().parents[2]
FUNCTIONS_DIR = ROOT / "functions"
REPORT = ROOT / "build" / "aws-calls.json"
_HANDLER_PREFIX = f"{FUNCTIONS_DIR}{os.sep}"
_HANDLER_SUFFIX = f"{os.sep}handler.py"

_local = threading.local()
# Code of the recording wrapper: a frame of it is an API call in progress.
_IN_CALL: set[Any] = set()


def function_on_stack() -> str | None:
    """The function whose handler is running on this thread (or submitted its task).

    A call made inside another API call, before any handler frame, is a fake answering that
    call on its client's ``before-call`` (reading the bucket to serve Retrieve): the service's
    own work, not the function's. A handler inside an API call (moto's Step Functions invoking
    a task) is the function's.
    """
    frame = sys._getframe(2)  # the caller of the recording wrapper
    while frame is not None:
        if frame.f_code in _IN_CALL:
            return None
        name = _handler_name(frame.f_code.co_filename)
        if name is not None:
            return name
        frame = frame.f_back  # type: ignore[assignment]
    inherited: str | None = getattr(_local, "function", None)
    return inherited


def _handler_name(path: str) -> str | None:
    """The function whose handler file ``path`` is, or None."""
    if path.startswith(_HANDLER_PREFIX) and path.endswith(_HANDLER_SUFFIX):
        return path[len(_HANDLER_PREFIX) : -len(_HANDLER_SUFFIX)]
    return None


@dataclass(frozen=True, slots=True)
class Recorded:
    """One IAM request a function's call needs, where and with which credentials."""

    function: str
    request: Request
    deployment: Deployment
    assumed: Assumed | None


@dataclass
class CallRecorder:
    """Records, while installed, the IAM requests of every call a handler makes."""

    recorded: set[Recorded] = field(default_factory=set)
    # (function, operation) -> why its call could not be evaluated.
    unevaluable: dict[tuple[str, str], str] = field(default_factory=dict)
    calls: int = 0
    _assumed: dict[str, Assumed] = field(default_factory=dict)
    _tables: dict[Any, Tables] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _originals: list[tuple[Any, str, Any]] = field(default_factory=list)

    def install(self) -> None:
        """Wrap botocore's call path and the thread pool's submit."""
        make_api_call = BaseClient._make_api_call
        submit = ThreadPoolExecutor.submit
        recorder = self

        def recorded_call(client: Any, operation: str, params: dict[str, Any]) -> Any:
            function = function_on_stack()
            if function is not None:
                recorder.record(function, client, operation, params)
            response = make_api_call(client, operation, params)
            if operation == "AssumeRole":
                recorder.remember_assumed(params, response)
            return response

        _IN_CALL.add(recorded_call.__code__)

        def attributed_submit(pool: Any, fn: Callable[..., Any], /, *a: Any, **k: Any) -> Any:
            function = function_on_stack()
            if function is None:
                return submit(pool, fn, *a, **k)

            def run(*args: Any, **kwargs: Any) -> Any:
                previous = getattr(_local, "function", None)
                _local.function = function
                try:
                    return fn(*args, **kwargs)
                finally:
                    _local.function = previous

            return submit(pool, run, *a, **k)

        self._originals = [
            (BaseClient, "_make_api_call", make_api_call),
            (ThreadPoolExecutor, "submit", submit),
        ]
        BaseClient._make_api_call = recorded_call
        ThreadPoolExecutor.submit = attributed_submit  # type: ignore[method-assign]

    def uninstall(self) -> None:
        for owner, name, original in self._originals:
            setattr(owner, name, original)
        self._originals = []

    def record(self, function: str, client: Any, operation: str, params: dict[str, Any]) -> None:
        """Derive and keep the IAM requests of ``function``'s call (an underivable one is kept
        as such: it fails the session too)."""
        service = client.meta.service_model.service_name
        try:
            deployment = _deployment(client)
            with self._lock:
                tables = self._tables.get(deployment.settings)
                if tables is None:
                    tables = self._tables[deployment.settings] = Tables.of(deployment.settings)
            requests = requests_for(
                service, operation, params, region=client.meta.region_name, tables=tables
            )
        except (Unsupported, KeyError, ValueError) as error:
            with self._lock:
                self.calls += 1
                self.unevaluable.setdefault((function, f"{service}:{operation}"), repr(error))
            return
        assumed = self._assumed.get(_access_key(client) or "")
        with self._lock:
            self.calls += 1
            self.recorded.update(Recorded(function, r, deployment, assumed) for r in requests)

    def remember_assumed(self, params: dict[str, Any], response: dict[str, Any]) -> None:
        """Credentials from this AssumeRole act as its role, narrowed by its session policy."""
        key = response["Credentials"]["AccessKeyId"]
        tags = tuple((t["Key"], t["Value"]) for t in params.get("Tags", []))
        with self._lock:
            self._assumed[key] = Assumed(params["RoleArn"], params.get("Policy"), tags)


def _access_key(client: Any) -> str | None:
    credentials = client._request_signer._credentials
    return None if credentials is None else str(credentials.access_key)


def _deployment(client: Any) -> Deployment:
    """The deployment the running handler's container is wired to."""
    from agent_memory.wiring import aws as wiring

    runtime = wiring._current
    if runtime is None:
        raise Unsupported("a handler called AWS with no runtime wired (wiring._current)")
    from tests.support.moto_workflow import DEPLOYED_MACHINES

    region = runtime.session.region_name or client.meta.region_name
    machine = DEPLOYED_MACHINES[-1] if DEPLOYED_MACHINES else None
    return Deployment(runtime.settings, region, state_machine_name=machine)


# --- the end-of-session check ----------------------------------------------------------


@dataclass
class Report:
    """What the check found: refused requests, unevaluable calls, and the observed grants."""

    verdicts: list[Verdict]
    unevaluable: dict[tuple[str, str], str]
    never_exercised: list[tuple[str, str, str]]

    @property
    def refused(self) -> list[Verdict]:
        return [v for v in self.verdicts if not v.allowed]

    @property
    def failed(self) -> bool:
        return bool(self.refused or self.unevaluable)

    def lines(self) -> list[str]:
        found = [
            f"NOT GRANTED: {v.function} calls {v.request.action} on {v.request.resource}"
            f"{_context(v.request)} (denied by the {v.denied_by})"
            for v in _unique(self.refused)
        ]
        found += [
            f"UNEVALUABLE: {function} calls {operation}: {why}"
            for (function, operation), why in sorted(self.unevaluable.items())
        ]
        return found

    def as_json(self) -> dict[str, Any]:
        observed = sorted(
            {(v.function, v.request.action, v.granted_by or "") for v in self.verdicts if v.allowed}
        )
        return {
            "observed": [{"function": f, "action": a, "granted_by": g} for f, a, g in observed],
            "never_exercised": [
                {"function": f, "action": a, "resource": r} for f, a, r in self.never_exercised
            ],
            "not_granted": self.lines(),
        }


def _context(request: Request) -> str:
    if not request.context:
        return ""
    shown = {k: list(v) for k, v in request.context}
    return f" with {json.dumps(shown)}"


def _unique(verdicts: list[Verdict]) -> list[Verdict]:
    """One refused request per (function, action, resource, refusing policy)."""
    seen: dict[tuple[str, str, str, str | None], Verdict] = {}
    for v in verdicts:
        seen.setdefault((v.function, v.request.action, v.request.resource, v.denied_by), v)
    return sorted(seen.values(), key=lambda v: (v.function, v.request.action, v.request.resource))


def check(recorder: CallRecorder, templates: Callable[[AwsSettingsKey], Template]) -> Report:
    """Evaluate every recorded request against the template of its deployment."""
    checkers: dict[AwsSettingsKey, Checker] = {}
    verdicts: list[Verdict] = []
    unevaluable = dict(recorder.unevaluable)
    for item in sorted(recorder.recorded, key=_order):
        key = configuration(item.deployment)
        if key not in checkers:
            checkers[key] = Checker(templates(key))
        try:
            verdicts.append(
                checkers[key].verdict(item.function, item.request, item.deployment, item.assumed)
            )
        except Unsupported as error:
            unevaluable.setdefault((item.function, item.request.action), str(error))
    return Report(verdicts, unevaluable, _never_exercised(checkers, verdicts))


def _order(item: Recorded) -> tuple[str, str, str]:
    return item.function, item.request.action, item.request.resource


def _never_exercised(
    checkers: dict[AwsSettingsKey, Checker], verdicts: list[Verdict]
) -> list[tuple[str, str, str]]:
    """(function, action, resource label) granted to a function role that no call used."""
    used = {(v.function, v.request.action.lower(), v.granted_by) for v in verdicts if v.allowed}
    unused: set[tuple[str, str, str]] = set()
    for checker in list(checkers.values())[:1]:  # labels are the same in every template
        for function, role_id in checker.template.ids.function_roles.items():
            for statement in _labelled_statements(checker.template, role_id):
                for action in statement.actions:
                    for label in statement.labels:
                        if (function, action.lower(), label) not in used:
                            unused.add((function, action, label))
    return sorted(unused)


def _labelled_statements(template: Template, role_id: str) -> list[Any]:
    from agent_memory.wiring.aws_settings import AwsSettings

    placeholder = AwsSettings(
        episodes_table="unbound-episodes",
        facts_table="unbound-facts",
        procedures_table="unbound-procedures",
        ledger_table="unbound-ledger",
        kb_bucket="unbound-bucket",
        knowledge_base_id="unbound-kb",
        kb_data_source_id="unbound-ds",
    )
    return list(template.role_policy(role_id, Deployment(placeholder, "us-east-1")).statements)


AwsSettingsKey = tuple[str, str, str, str]


def configuration(deployment: Deployment) -> AwsSettingsKey:
    """The CDK context a deployment's settings imply: (chatModelId, rerankModelArn,
    tenantIdentity, piiDetector). A harness calling Comprehend runs under ``comprehend``, so
    its calls are checked against that template's grants."""
    s = deployment.settings
    return (
        s.chat_model_id or "",
        s.rerank_model_arn or "",
        s.tenant_identity.value,
        s.pii_detector.value,
    )


def synthesize(key: AwsSettingsKey) -> Template:
    """The stack synthesized offline with ``key``'s context, and its logical ids."""
    from app import STACK_NAME, cdk_json_context, use_local_node

    os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")
    os.environ.setdefault("CDK_DISABLE_VERSION_CHECK", "1")
    use_local_node()
    import aws_cdk as cdk
    from aws_cdk.assertions import Template as CdkTemplate

    from stacks.memory_stack import MemoryStack

    chat, rerank, tenant_identity, pii_detector = key
    with tempfile.TemporaryDirectory() as layer, tempfile.TemporaryDirectory() as out:
        context = {
            **cdk_json_context(),
            "layerPath": layer,
            "chatModelId": chat,
            "rerankModelArn": rerank,
            "tenantIdentity": tenant_identity,
            "piiDetector": pii_detector,
        }
        app = cdk.App(context=context, outdir=out, builtin_cloud_formation_validation=False)
        stack = MemoryStack(app, STACK_NAME)
        return template_of(stack, CdkTemplate.from_stack(stack).to_json()["Resources"])


def template_of(stack: Any, resources: dict[str, Any]) -> Template:
    """``resources`` of the synthesized ``stack``, with the logical ids of what functions use."""
    from tests.infrastructure.helpers import logical_id

    functions, storage = stack.functions, stack.storage
    ids = LogicalIds(
        tables={name: logical_id(table) for name, table in storage.tables.items()},
        documents=logical_id(storage.documents),
        knowledge_base=logical_id(stack.knowledge_base.knowledge_base),
        pseudonym_key=logical_id(functions.pseudonym_key),
        tenant_role=logical_id(functions.tenant_data.role),
        function_roles={name: logical_id(role) for name, role in functions.roles.items()},
        state_machine=logical_id(stack.consolidation.state_machine),
    )
    return Template(resources, ids)


class AwsCallsPlugin:
    """The pytest plugin: record for the whole session, check at its end."""

    def __init__(self) -> None:
        self.recorder = CallRecorder()
        self.report: Report | None = None

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionstart(self, session: pytest.Session) -> None:
        self.recorder.install()

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        self.recorder.uninstall()
        if not (self.recorder.recorded or self.recorder.unevaluable):
            return
        templates: dict[AwsSettingsKey, Template] = {}

        def template(key: AwsSettingsKey) -> Template:
            if key not in templates:
                templates[key] = synthesize(key)
            return templates[key]

        self.report = check(self.recorder, template)
        REPORT.parent.mkdir(exist_ok=True)
        REPORT.write_text(json.dumps(self.report.as_json(), indent=1) + "\n")
        if self.report.failed:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.report is None:
            return
        verdicts = self.report.verdicts
        functions = len({v.function for v in verdicts})
        title = "every AWS call granted"
        if self.report.failed:
            terminalreporter.section(f"{title}: NO", sep="=", red=True, bold=True)
            for line in self.report.lines():
                terminalreporter.write_line(line)
        else:
            terminalreporter.section(title, sep="-")
        terminalreporter.write_line(
            f"{self.recorder.calls} handler calls, {len(verdicts)} distinct IAM requests of "
            f"{functions} functions checked against the synthesized roles ({REPORT.name})"
        )
