"""Bedrock model ids and the exact IAM statements that let a role invoke one of them."""

from __future__ import annotations

from collections.abc import Sequence

from aws_cdk import ArnFormat, Stack
from aws_cdk import aws_iam as iam
from constructs import Construct

EMBEDDING_MODEL_ID = "amazon.titan-embed-text-v2:0"
EMBEDDING_DIMENSIONS = 1024
# System-defined cross-Region inference profiles are the model id behind a geography prefix.
PROFILE_PREFIXES = ("us.", "us-gov.", "eu.", "apac.", "jp.", "au.", "ca.", "global.")


def is_inference_profile(model_id: str) -> bool:
    """Whether ``model_id`` names a cross-Region inference profile rather than a model."""
    return model_id.startswith(PROFILE_PREFIXES)


def foundation_model_arn(scope: Construct, model_id: str, region: str | None = None) -> str:
    """``arn:…:bedrock:<region>::foundation-model/<model_id>`` (no account in the ARN)."""
    return Stack.of(scope).format_arn(
        service="bedrock",
        resource="foundation-model",
        resource_name=model_id,
        account="",
        region=region,
        arn_format=ArnFormat.SLASH_RESOURCE_NAME,
    )


# The chat model is called through ConverseStream (the adapter streams its replies), which
# IAM authorizes as InvokeModelWithResponseStream
# (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html).
CHAT_ACTIONS = ("bedrock:InvokeModelWithResponseStream",)


def invoke_statements(
    scope: Construct, model_id: str, actions: Sequence[str] = CHAT_ACTIONS
) -> list[iam.PolicyStatement]:
    """``actions`` (the chat model's by default) on exactly this model, or on this inference
    profile.

    A cross-Region profile forwards to the model in any Region of its geography, so the model
    is granted in every Region but only when called through this profile.
    """
    if model_id.startswith("arn:"):
        raise ValueError("give a model or inference profile id, not an ARN")
    if not is_inference_profile(model_id):
        return [_invoke(actions, [foundation_model_arn(scope, model_id)])]
    profile_arn = Stack.of(scope).format_arn(
        service="bedrock",
        resource="inference-profile",
        resource_name=model_id,
        arn_format=ArnFormat.SLASH_RESOURCE_NAME,
    )
    model = model_id.split(".", 1)[1]
    return [
        _invoke(actions, [profile_arn]),
        _invoke(
            actions,
            [foundation_model_arn(scope, model, region="*")],
            conditions={"StringEquals": {"bedrock:InferenceProfileArn": profile_arn}},
        ),
    ]


def _invoke(
    actions: Sequence[str],
    resources: list[str],
    conditions: dict[str, dict[str, str]] | None = None,
) -> iam.PolicyStatement:
    return iam.PolicyStatement(actions=list(actions), resources=resources, conditions=conditions)
