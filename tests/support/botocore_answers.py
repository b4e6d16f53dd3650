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
    (validated against the service model) or raises ``ServiceError``.
    """
    service_id = client.meta.service_model.service_id.hyphenize()
    output_shape = client.meta.service_model.operation_model(operation).output_shape

    def keep_params(params: dict[str, Any], context: dict[str, Any], **_: Any) -> None:
        context[_PARAMS] = copy.deepcopy(params)

    def respond_in_process(context: dict[str, Any], **_: Any) -> tuple[AWSResponse, Any]:
        try:
            parsed = respond(context.pop(_PARAMS))
        except ServiceError as error:
            failed = {
                "Error": {"Code": error.code, "Message": error.message},
                "ResponseMetadata": {"HTTPStatusCode": error.status},
            }
            return AWSResponse("https://fake", error.status, {}, None), failed
        validate_parameters(parsed, output_shape)
        return AWSResponse("https://fake", 200, {}, None), {
            **parsed,
            "ResponseMetadata": {"HTTPStatusCode": 200},
        }

    client.meta.events.register(f"before-parameter-build.{service_id}.{operation}", keep_params)
    client.meta.events.register(f"before-call.{service_id}.{operation}", respond_in_process)
