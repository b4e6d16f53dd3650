"""Every function's environment fits Lambda's 4 KB at the settings' maxima.

Lambda quotas: "Function environment variables: 4 KB, for all environment variables
associated with the function, in aggregate"
(https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html). The template holds
references, not names: each is resolved here to the longest value CloudFormation can give it,
with the stack's name at its maximum of 128 characters
(https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/cfn-using-console-create-stack-parameters.html)
and every region the phone library knows declared in ``piiRegions``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import aws_cdk as cdk
import phonenumbers
from aws_cdk.assertions import Template

from stacks.memory_stack import MemoryStack
from tests.infrastructure.conftest import cdk_json_context

LAMBDA_ENVIRONMENT_BYTES = 4 * 1024
STACK_NAME = "S" * 128
ACCOUNT, REGION = "123456789012", "us-gov-west-1"
# A name CloudFormation generates: "<stack>-<logical id>-<13 characters>", at most 255.
_GENERATED_SUFFIX = 1 + 13
# Longest names of the resources the functions are told about.
_NAME_LIMITS = {"AWS::S3::Bucket": 63, "AWS::IAM::Role": 64}


def _name(resources: dict[str, Any], logical_id: str) -> str:
    kind = resources[logical_id]["Type"]
    generated = f"{STACK_NAME}-{logical_id}" + "x" * _GENERATED_SUFFIX
    return generated[: _NAME_LIMITS.get(kind, 255)]


def _resolve(value: Any, resources: dict[str, Any]) -> str:
    """The longest string CloudFormation can put where ``value`` stands."""
    if isinstance(value, str):
        return value
    if "Fn::Join" in value:
        separator, parts = value["Fn::Join"]
        return str(separator).join(_resolve(part, resources) for part in parts)
    if "Ref" in value:
        logical_id = value["Ref"]
        name = _name(resources, logical_id)
        if resources[logical_id]["Type"] == "AWS::SecretsManager::Secret":
            return f"arn:aws-us-gov:secretsmanager:{REGION}:{ACCOUNT}:secret:{name}-AbCdEf"
        return name
    logical_id, attribute = value["Fn::GetAtt"]
    if attribute == "Arn":
        kind = resources[logical_id]["Type"].split("::")[1].lower()
        return f"arn:aws-us-gov:{kind}:{REGION}:{ACCOUNT}:resource/{_name(resources, logical_id)}"
    return "X" * 10  # a Bedrock knowledge base or data source id: ten characters


def test_every_functions_environment_fits_lambdas_4_kb_at_the_settings_maxima(
    tmp_path: Path,
) -> None:
    # Given the stack at its longest name, with every region declared
    regions = ",".join(sorted(phonenumbers.SUPPORTED_REGIONS))
    context = {**cdk_json_context(), "layerPath": str(tmp_path), "piiRegions": regions}
    app = cdk.App(context=context, builtin_cloud_formation_validation=False)
    stack = MemoryStack(app, STACK_NAME)
    resources: dict[str, Any] = Template.from_stack(stack).to_json()["Resources"]
    functions = {k: r for k, r in resources.items() if r["Type"] == "AWS::Lambda::Function"}
    assert functions
    for logical_id, function in functions.items():
        variables = function["Properties"]["Environment"]["Variables"]
        # When its references are resolved to their longest values
        size = sum(
            len(key.encode()) + len(_resolve(value, resources).encode())
            for key, value in variables.items()
        )
        # Then the whole set fits
        assert size <= LAMBDA_ENVIRONMENT_BYTES, (logical_id, size)
