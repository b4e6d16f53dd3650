"""The SDK's AWS mode: RunFinished onto the EventBridge bus; bootstrap, review and single
episodes by Lambda.
"""

from __future__ import annotations

import json
import logging
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from agent_memory.app import Application
from agent_memory.app.messages import (
    AssertFact,
    Bootstrap,
    CorrectFact,
    DecideProcedure,
    EditProcedure,
    FlagMemory,
    ForgetRun,
    ForgetRuns,
    GetEpisode,
    GetFact,
    History,
    ListAgents,
    ListEpisodes,
    ListFacts,
    ListProcedures,
    Message,
    RedactText,
    RetireProcedure,
    RetractFact,
    SearchEpisodes,
    ShowProcedure,
)
from agent_memory.app.wire import (
    EpisodeMessage,
    RemoteMessage,
    ReviewMessage,
    reply_of,
    request_json,
)
from agent_memory.core.model.requests import BootstrapRequest
from agent_memory.core.model.tenant_identity import tenant_source
from agent_memory.sdk.errors import (
    ConfigurationError,
    ConflictError,
    ForbiddenError,
    InvalidInputError,
    MemoryClientError,
    MissingExtraError,
    NotFoundError,
    PublishError,
    RemoteFunctionError,
    answered,
    aws_setup,
)
from agent_memory.sdk.events import ValidatedRun, put_events_entry
from agent_memory.sdk.handles import RunHandle
from agent_memory.sdk.types import BOOTSTRAP_REPLY_KEYS, BootstrapReply, RunResult

# Documented as retryable for PutEvents entries (InternalFailure, ThrottlingException), plus
# the spellings the API uses for the same conditions on the whole call.
TRANSIENT_CODES = frozenset(
    {
        "InternalFailure",
        "InternalException",
        "ThrottlingException",
        "Throttling",
        "TooManyRequestsException",
        "RequestLimitExceeded",
        "ServiceUnavailable",
        "ServiceUnavailableException",
    }
)
STACK_OUTPUTS = (
    "EventBusName",
    "BootstrapFunctionName",
    "ProcedureReviewFunctionName",
    "EpisodesFunctionName",
)
ENV_EVENT_BUS = "AGENT_MEMORY_EVENT_BUS"
ENV_BOOTSTRAP_FUNCTION = "AGENT_MEMORY_BOOTSTRAP_FUNCTION"
ENV_REVIEW_FUNCTION = "AGENT_MEMORY_PROCEDURE_REVIEW_FUNCTION"
ENV_EPISODES_FUNCTION = "AGENT_MEMORY_EPISODES_FUNCTION"
ENV_REGION = "AGENT_MEMORY_REGION"

_log = logging.getLogger(__name__)
R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How ``put_events`` is retried on throttling, 5xx and transiently failed entries.

    Exponential backoff with full jitter: attempt ``n`` (from 0) waits a uniformly random time
    up to ``min(max_delay, base_delay * 2**n)``. ``sleep`` and ``jitter`` (a number in
    [0, 1)) can be replaced, in tests for instance.
    """

    max_attempts: int = 5
    base_delay: float = 0.1
    max_delay: float = 5.0
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False)
    jitter: Callable[[], float] = field(default=random.random, repr=False)

    def delay(self, attempt: int) -> float:
        """Seconds to wait after failed attempt ``attempt`` (0-based)."""
        return self.jitter() * min(self.max_delay, self.base_delay * 2.0**attempt)


class IdentityProofs:
    """Signed identity proofs for a principal-tag deployment, each reused for 10 minutes.

    STS accepts a proof for 15 minutes after signing; a fresh one is made well before, from the
    session's current credentials (which boto3 refreshes itself).
    """

    REUSE_SECONDS = 600.0

    def __init__(
        self,
        session: Any,
        *,
        audience: str,
        region: str,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._session = session
        self._audience = audience
        self._region = region
        self._clock = clock
        self._proof: dict[str, Any] | None = None
        self._made_at = 0.0

    def current(self) -> dict[str, Any]:
        """A proof of the caller's identity, naming its audience (the function it is sent to)."""
        from agent_memory.adapters.aws.caller_identity import identity_proof

        now = self._clock()
        if self._proof is None or now - self._made_at >= self.REUSE_SECONDS:
            credentials = self._session.get_credentials()
            if credentials is None:
                raise ConfigurationError("principal-tag tenancy needs AWS credentials to sign with")
            self._proof = identity_proof(credentials, audience=self._audience, region=self._region)
            self._made_at = now
        return self._proof


# What the operator path answers (never a function an agent may invoke).
OPERATOR_MESSAGES = (History, ForgetRuns, RedactText)


def operator_application(
    stack_name: str, *, region: str | None, session: Any | None
) -> Application:
    """The application over the stack's stores on the caller's credentials (an operator's)."""
    with aws_setup():
        from agent_memory.wiring.aws import AwsRuntime
        from agent_memory.wiring.aws_settings import AwsSettings

        session = session or aws_session(region)
        outputs = stack_outputs(stack_name, region=region, session=session)
        runtime = AwsRuntime(AwsSettings.from_stack_outputs(outputs), session=session)
        return runtime.application(None)


def function_name_of(name_or_arn: str) -> str:
    """A Lambda function's name from its name or ARN (what the function knows itself as)."""
    return name_or_arn.split(":")[6] if name_or_arn.startswith("arn:") else name_or_arn


def _boto3() -> Any:
    try:
        import boto3
    except ImportError:
        raise MissingExtraError("aws", "boto3") from None
    return boto3


def aws_session(region: str | None) -> Any:
    """boto3's default session for ``region`` (credentials from the environment or profile)."""
    return _boto3().Session(region_name=region)


def aws_clients(region: str | None, session: Any | None) -> tuple[Any, Any]:
    """EventBridge and Lambda clients for the SDK.

    The events client makes one attempt per call (the SDK's own loop retries, entries
    included); the Lambda client keeps botocore's standard retries for throttling.
    """
    with aws_setup():
        from botocore.config import Config

        session = session or _boto3().Session(region_name=region)
        events = session.client(
            "events",
            region_name=region,
            config=Config(retries={"mode": "standard", "total_max_attempts": 1}),
        )
        lambda_ = session.client(
            "lambda",
            region_name=region,
            config=Config(retries={"mode": "standard", "max_attempts": 3}, read_timeout=70),
        )
        return events, lambda_


def stack_outputs(stack_name: str, *, region: str | None, session: Any | None) -> dict[str, str]:
    """The CloudFormation outputs of ``stack_name`` by output key."""
    session = session or _boto3().Session(region_name=region)
    with aws_setup():
        from botocore.exceptions import ClientError

        cloudformation = session.client("cloudformation", region_name=region)
    try:
        with aws_setup():
            stacks = cloudformation.describe_stacks(StackName=stack_name)["Stacks"]
    except ClientError as error:
        message = error.response.get("Error", {}).get("Message", str(error))
        raise ConfigurationError(f"cannot read stack {stack_name!r}: {message}") from None
    outputs = stacks[0].get("Outputs", []) if stacks else []
    return {o["OutputKey"]: o["OutputValue"] for o in outputs}


def settings_from_outputs(outputs: Mapping[str, str], stack_name: str) -> dict[str, str | None]:
    """The client's settings from the stack's outputs; the missing output is named."""
    for key in STACK_OUTPUTS[:2]:
        if not outputs.get(key):
            raise ConfigurationError(f"stack {stack_name!r} has no output {key!r}")
    return {
        "event_bus_name": outputs["EventBusName"],
        "bootstrap_function_name": outputs["BootstrapFunctionName"],
        "procedure_review_function_name": outputs.get("ProcedureReviewFunctionName"),
        # A stack deployed before the episodes function has none: single episodes then say so.
        "episodes_function_name": outputs.get("EpisodesFunctionName"),
    }


def settings_from_environment(environ: Mapping[str, str]) -> dict[str, str | None]:
    """The client's settings from ``AGENT_MEMORY_*`` variables; the missing one is named."""
    for name in (ENV_EVENT_BUS, ENV_BOOTSTRAP_FUNCTION):
        if not environ.get(name):
            raise ConfigurationError(f"environment variable {name} is not set")
    return {
        "event_bus_name": environ[ENV_EVENT_BUS],
        "bootstrap_function_name": environ[ENV_BOOTSTRAP_FUNCTION],
        "procedure_review_function_name": environ.get(ENV_REVIEW_FUNCTION) or None,
        "episodes_function_name": environ.get(ENV_EPISODES_FUNCTION) or None,
        "region": environ.get(ENV_REGION) or None,
    }


class AwsBackend:
    """Talks to a deployed stack: the bus for runs, the Lambda functions for the rest."""

    def __init__(
        self,
        *,
        events: Any,
        lambda_: Any,
        event_bus_name: str,
        bootstrap_function_name: str,
        procedure_review_function_name: str | None,
        source: str,
        retry: RetryPolicy,
        proofs: IdentityProofs | None = None,
        episodes_function_name: str | None = None,
        episode_proofs: IdentityProofs | None = None,
        operator: Application | None = None,
    ) -> None:
        self.events = events
        self.lambda_ = lambda_
        self.event_bus_name = event_bus_name
        self.bootstrap_function_name = bootstrap_function_name
        self.procedure_review_function_name = procedure_review_function_name
        self.episodes_function_name = episodes_function_name
        self.source = source
        self.retry = retry
        # Set under principal-tag tenancy: requests carry a proof, runs their tenant's source.
        # A proof names the function it is for, so the episodes function has its own.
        self.proofs = proofs
        self.episode_proofs = episode_proofs
        # An operator's decisions about tenant memory run over the stack's stores on the
        # caller's own credentials (the operator policy); no function serves them, so no
        # agent's role can reach them.
        self.operator = operator

    def handle(self, message: Message[R]) -> R:
        """The answer of the function that serves ``message``."""
        if isinstance(message, Bootstrap):
            return cast(R, self._bootstrap(message.request))
        if isinstance(
            message,
            ListProcedures
            | ShowProcedure
            | DecideProcedure
            | EditProcedure
            | RetireProcedure
            | RetractFact
            | CorrectFact
            | AssertFact,
        ):
            return cast(R, self._review(message))
        if isinstance(
            message, GetEpisode | ListEpisodes | ForgetRun | ListAgents | GetFact | ListFacts
        ):
            return cast(R, self._episodes(message))
        if isinstance(message, SearchEpisodes | FlagMemory):
            return cast(R, self._search(message))
        if isinstance(message, OPERATOR_MESSAGES):
            if self.operator is None:
                raise ConfigurationError(
                    f"{type(message).__name__} is a person's decision about tenant memory: "
                    "build the client with MemoryClient.aws_from_stack(..., operator=True), on "
                    "credentials the operator policy grants"
                )
            return cast(R, answered(self.operator, message))
        raise ConfigurationError(
            f"{type(message).__name__} is not served by the stack's functions (operators run it "
            "with the agent-memory command and --aws-stack)"
        )

    def _bootstrap(self, request: BootstrapRequest) -> BootstrapReply:
        """Invoke the bootstrap function and check the reply's shape."""
        payload: dict[str, Any] = request.as_json()
        if self.proofs is not None:
            payload["caller_identity"] = self.proofs.current()
        reply = self._invoke(self.bootstrap_function_name, payload)
        missing = sorted(BOOTSTRAP_REPLY_KEYS - reply.keys())
        if missing:
            raise RemoteFunctionError(
                self.bootstrap_function_name, "UnexpectedReply", f"no {', '.join(missing)}"
            )
        return cast(BootstrapReply, reply)

    def _search(self, message: SearchEpisodes | FlagMemory) -> Any:
        """A search, by the bootstrap function (it reads and ranks as bootstrap does); or an
        agent's flag on what it was served, by the same function, which the agent's policy
        grants already (no grant of the agent's deletes or rewrites memory).
        """
        payload = request_json(message)
        if self.proofs is not None:
            payload["caller_identity"] = self.proofs.current()
        return self._reply(message, self.bootstrap_function_name, payload)

    def submit(self, run: ValidatedRun) -> RunHandle:
        """Put the event on the bus (retrying what is transient); a handle with the receipt."""
        detail = run.detail
        source = self.source if self.proofs is None else tenant_source(str(detail["tenant_id"]))
        entry = put_events_entry(detail, bus=self.event_bus_name, source=source)
        event_id = self._put(entry)
        result: RunResult = {
            "status": "SUBMITTED",
            "run_id": detail["run_id"],
            "tenant_id": detail["tenant_id"],
            "event_id": event_id,
        }
        return RunHandle.completed(result)

    def _review(self, message: ReviewMessage) -> Any:
        """One review operation (a procedure's decision, a fact's repair), by the review
        function.
        """
        if not self.procedure_review_function_name:
            raise ConfigurationError(
                "review needs procedure_review_function_name "
                "(the stack's ProcedureReviewFunctionName output)"
            )
        return self._reply(message, self.procedure_review_function_name, request_json(message))

    def _episodes(self, message: EpisodeMessage) -> Any:
        """One single-episode operation, by the episodes function."""
        name = self.episodes_function_name
        payload = request_json(message)
        if not name:
            raise ConfigurationError(
                f"{payload['action']!r} of single episodes needs episodes_function_name "
                "(the stack's EpisodesFunctionName output; a stack deployed before it has "
                "none: deploy the stack again)"
            )
        if self.episode_proofs is not None:
            payload["caller_identity"] = self.episode_proofs.current()
        return self._reply(message, name, payload)

    def _reply(self, message: RemoteMessage, function_name: str, payload: dict[str, Any]) -> Any:
        """The function's answer to ``message``; a reply without it is an error."""
        reply = self._invoke(function_name, payload)
        try:
            return reply_of(message, reply)
        except KeyError as missing:
            what = missing.args[0]
            raise RemoteFunctionError(function_name, "UnexpectedReply", f"no {what}") from None

    def close(self, *, wait: bool = True) -> None:
        """Nothing runs in the background on AWS."""

    def _put(self, entry: dict[str, Any]) -> str:
        from botocore.exceptions import ClientError, HTTPClientError

        policy = self.retry
        code, message = "", ""
        for attempt in range(policy.max_attempts):
            if attempt:
                _log.info("PutEvents retried", extra={"error_code": code, "attempt": attempt + 1})
                policy.sleep(policy.delay(attempt - 1))
            try:
                with aws_setup():
                    reply = self.events.put_events(Entries=[entry])
            except ClientError as error:
                code, message, status = _client_error(error)
                if code in TRANSIENT_CODES or status >= 500 or status == 429:
                    continue
                raise PublishError(code, message, attempts=attempt + 1) from None
            except HTTPClientError as error:
                code, message = type(error).__name__, str(error)
                continue
            result = reply["Entries"][0]
            if not reply.get("FailedEntryCount") and result.get("EventId"):
                return str(result["EventId"])
            code = result.get("ErrorCode") or "UnknownError"
            message = result.get("ErrorMessage") or "the entry was not accepted"
            if code not in TRANSIENT_CODES:
                raise PublishError(code, message, attempts=attempt + 1)
        raise PublishError(code, message, attempts=policy.max_attempts)

    def _invoke(self, function_name: str, payload: dict[str, Any]) -> dict[str, Any]:
        from botocore.exceptions import BotoCoreError, ClientError

        try:
            with aws_setup():
                response = self.lambda_.invoke(
                    FunctionName=function_name,
                    InvocationType="RequestResponse",
                    Payload=json.dumps(payload).encode("utf-8"),
                )
                body = response["Payload"].read()
        except ClientError as error:
            code, message, _ = _client_error(error)
            raise RemoteFunctionError(function_name, code, message) from None
        except BotoCoreError as error:
            raise RemoteFunctionError(function_name, type(error).__name__, str(error)) from None
        try:
            reply = json.loads(body) if body else None
        except ValueError:
            reply = None
        if response.get("FunctionError"):
            raise _function_error(function_name, reply)
        if not isinstance(reply, dict):
            raise RemoteFunctionError(function_name, "UnexpectedReply", "not a JSON object")
        return reply


def _client_error(error: Any) -> tuple[str, str, int]:
    response = error.response
    details = response.get("Error", {})
    status = int(response.get("ResponseMetadata", {}).get("HTTPStatusCode") or 0)
    return str(details.get("Code", "Unknown")), str(details.get("Message", error)), status


def _function_error(function_name: str, reply: object) -> MemoryClientError:
    """The SDK error for a function's error payload (``errorType``, ``errorMessage``)."""
    payload = reply if isinstance(reply, dict) else {}
    error_type = str(payload.get("errorType") or "Unhandled")
    message = str(payload.get("errorMessage") or "the function reported an error")
    if error_type == "InvalidInput":
        # The core's InvalidInput reads "field: message".
        field_, sep, detail = message.partition(": ")
        return InvalidInputError(field_, detail) if sep else InvalidInputError("request", message)
    if error_type == "NotFound":
        return NotFoundError(message)
    if error_type == "Conflict":
        return ConflictError(message)
    if error_type == "Forbidden":
        field_, sep, detail = message.partition(": ")
        return ForbiddenError(field_, detail) if sep else ForbiddenError("request", message)
    return RemoteFunctionError(function_name, error_type, message)
