"""The deploy-time Region check: a stack bound to a Region without every service it needs
fails at synth, naming the Region and the list; an env-agnostic stack is allowed.

Sources of the list (S3 Vectors, Bedrock KB on S3 Vectors, Titan Text Embeddings V2,
Comprehend) are in stacks/regions.py, e.g.
https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-vectors-bedrock-kb.html
"""

from __future__ import annotations

from typing import Any

import aws_cdk as cdk
import pytest

from app import build_app
from stacks.regions import SUPPORTED_REGIONS, UnsupportedRegion, require_supported_region


def test_a_stack_in_a_region_without_s3_vectors_fails_naming_it_and_the_list(
    context: dict[str, Any], tmp_path: Any
) -> None:
    # Given the app bound to São Paulo (no S3 Vectors, no Comprehend there)
    # When it is built
    with pytest.raises(UnsupportedRegion) as raised:
        build_app(context={**context, "region": "sa-east-1"}, outdir=str(tmp_path))
    # Then the error names the Region and every Region it could use
    message = str(raised.value)
    assert "sa-east-1" in message
    assert all(region in message for region in SUPPORTED_REGIONS)


@pytest.mark.parametrize("region", SUPPORTED_REGIONS)
def test_a_stack_in_a_supported_region_passes(region: str) -> None:
    stack = cdk.Stack(cdk.App(), "Probe", env=cdk.Environment(region=region))

    require_supported_region(stack)


def test_an_env_agnostic_stack_passes() -> None:
    # Given a stack with no env: its Region is a token resolved at deploy time
    stack = cdk.Stack(cdk.App(), "Probe")
    assert cdk.Token.is_unresolved(stack.region)

    require_supported_region(stack)


def test_a_region_the_list_lacks_is_refused() -> None:
    stack = cdk.Stack(cdk.App(), "Probe", env=cdk.Environment(region="eu-south-2"))

    with pytest.raises(UnsupportedRegion, match=r"eu-south-2"):
        require_supported_region(stack)
