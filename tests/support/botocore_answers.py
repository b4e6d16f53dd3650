"""Answer an operation of a real boto3 client in-process, at botocore's ``before-call`` event.

The client still validates and serialises the request against the service model, so an adapter
that sends a malformed request fails as it would against AWS; the answer is checked against the
operation's output shape, as ``Stubber`` checks its canned responses. Unlike ``Stubber``, the
answer is computed from the request, so a stateful fake can sit behind it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from functools import cache
from typing import Any

import boto3
from botocore.awsrequest import AWSResponse
from botocore.validate import validate_parameters

REGION = "us-east-1"

Answer = Callable[[dict[str, Any]], dict[str, Any]]
_PARAMS = "tests.answers.params"
_ANSWERS = "_tests_answered_operations"


class ServiceError(Exception):
    """Raised by an answer to make the client raise the service's ``ClientError``."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.status = status


@cache
def _offline_session() -> Any:
    # One session for every client: it loads each service model once.
    return boto3.session.Session(
        aws_access_key_id="testing", aws_secret_access_key="testing", region_name=REGION
    )


def offline_client(service: str) -> Any:
    """A new boto3 client with fake credentials, built without reading this machine's own."""
    return _offline_session().client(service)


def answer(client: Any, operation: str, respond: Answer) -> None:
    """Have ``client`` answer ``operation`` (e.g. ``"Retrieve"``) with ``respond(params)``.

    ``params`` are the keyword arguments of the call; ``respond`` returns the parsed response
    (validated against the service model) or raises ``ServiceError``. The answer sits on the
    client's general ``before-call`` event: botocore calls the handlers of a more specific
    event first, so a handler registered first on the general one (a fault injector) still
    sees the call before the answer does.
    """
    _answers(client)[operation] = respond


def _answers(client: Any) -> dict[str, Answer]:
    """The operations ``client`` answers in-process, registered on its events once."""
    answers: dict[str, Answer] | None = getattr(client, _ANSWERS, None)
    if answers is not None:
        return answers
    answers = {}
    setattr(client, _ANSWERS, answers)
    service_model = client.meta.service_model
    prefix = f"before-call.{service_model.service_id.hyphenize()}."

    def keep_params(params: dict[str, Any], model: Any, context: dict[str, Any], **_: Any) -> None:
        if model.name in answers:
            context[_PARAMS] = copy.deepcopy(params)

    def respond_in_process(
        event_name: str, context: dict[str, Any], **_: Any
    ) -> tuple[AWSResponse, Any] | None:
        operation = event_name.removeprefix(prefix)
        respond = answers.get(operation)
        if respond is None or _PARAMS not in context:
            return None
        try:
            parsed = respond(context.pop(_PARAMS))
        except ServiceError as error:
            failed = {
                "Error": {"Code": error.code, "Message": error.message},
                "ResponseMetadata": {"HTTPStatusCode": error.status, "HTTPHeaders": {}},
            }
            return AWSResponse("https://fake", error.status, {}, None), failed
        _validate(parsed, service_model.operation_model(operation).output_shape)
        return AWSResponse("https://fake", 200, {}, None), {
            **parsed,
            "ResponseMetadata": {"HTTPStatusCode": 200, "HTTPHeaders": {}},
        }

    client.meta.events.register("before-parameter-build", keep_params)
    client.meta.events.register("before-call", respond_in_process)
    return answers


def _validate(parsed: dict[str, Any], shape: Any) -> None:
    """Check ``parsed`` against the output shape; an event stream member (``ConverseStream``'s
    ``stream``) is a list of events, each checked against the stream's event shape.
    """
    streams = {
        name: member
        for name, member in shape.members.items()
        if member.serialization.get("eventstream")
    }
    for name, member in streams.items():
        for event in parsed.get(name, []):
            validate_parameters(event, member)
    validate_parameters({k: v for k, v in parsed.items() if k not in streams}, shape)


def converse_stream(parts: list[str]) -> dict[str, Any]:
    """Bedrock ``ConverseStream``'s answer for a reply in ``parts``, as its documented events:
    messageStart, a contentBlockDelta per part, contentBlockStop, messageStop, metadata
    (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html).
    """
    deltas = [
        {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": part}}} for part in parts
    ]
    return {
        "stream": [
            {"messageStart": {"role": "assistant"}},
            *deltas,
            {"contentBlockStop": {"contentBlockIndex": 0}},
            {"messageStop": {"stopReason": "end_turn"}},
            {
                "metadata": {
                    "usage": {"inputTokens": 1, "outputTokens": 1, "totalTokens": 2},
                    "metrics": {"latencyMs": 1},
                }
            },
        ]
    }
