"""One synthesis of the stack per session, offline, with an empty layer and no CFN validation."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")
os.environ.setdefault("CDK_DISABLE_VERSION_CHECK", "1")
os.environ.setdefault("AWS_EC2_METADATA_DISABLED", "true")

from app import STACK_NAME, cdk_json_context, use_local_node

use_local_node()

import aws_cdk as cdk  # noqa: E402
from aws_cdk.assertions import Template  # noqa: E402

from stacks.memory_stack import MemoryStack  # noqa: E402


@pytest.fixture(scope="session")
def context(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """cdk.json's context, with an empty directory standing in for the built layer."""
    return {**cdk_json_context(), "layerPath": str(tmp_path_factory.mktemp("layer"))}


def synthesized(
    context: dict[str, Any], tmp_path_factory: pytest.TempPathFactory, folder: str
) -> MemoryStack:
    """The stack under ``context``, its assembly in a fresh ``folder``."""
    app = cdk.App(
        context=context,
        outdir=str(tmp_path_factory.mktemp(folder)),
        builtin_cloud_formation_validation=False,
    )
    return MemoryStack(app, STACK_NAME)


@pytest.fixture(scope="session")
def stack(context: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> MemoryStack:
    return synthesized(context, tmp_path_factory, "cdk.out")


@pytest.fixture(scope="session")
def template(stack: MemoryStack) -> Template:
    return Template.from_stack(stack)


@pytest.fixture(scope="session")
def resources(template: Template) -> dict[str, dict[str, Any]]:
    """The synthesized template's resources by logical id."""
    resources: dict[str, dict[str, Any]] = template.to_json()["Resources"]
    return resources


@pytest.fixture(scope="session")
def template_file(template: Template, stack: MemoryStack) -> Iterator[Path]:
    """The template as the CLI would write it (the session's assembly)."""
    outdir = Path(cdk.Stage.of(stack).outdir)  # type: ignore[union-attr]
    yield outdir / stack.template_file


@pytest.fixture(scope="session")
def comprehend_stack(
    context: dict[str, Any], tmp_path_factory: pytest.TempPathFactory
) -> MemoryStack:
    """The stack deployed with ``-c piiDetector=comprehend``: Comprehend beside the local
    detectors."""
    return synthesized({**context, "piiDetector": "comprehend"}, tmp_path_factory, "comprehend.out")


@pytest.fixture(scope="session")
def comprehend_template(comprehend_stack: MemoryStack) -> Template:
    return Template.from_stack(comprehend_stack)


@pytest.fixture(scope="session")
def comprehend_resources(comprehend_template: Template) -> dict[str, dict[str, Any]]:
    """The ``comprehend`` template's resources by logical id."""
    resources: dict[str, dict[str, Any]] = comprehend_template.to_json()["Resources"]
    return resources


@pytest.fixture(scope="session")
def dashboard_stack(
    context: dict[str, Any], tmp_path_factory: pytest.TempPathFactory
) -> MemoryStack:
    """The stack deployed with ``-c dashboard=true``: the CloudWatch dashboard beside the
    alarms."""
    return synthesized({**context, "dashboard": "true"}, tmp_path_factory, "dashboard.out")


@pytest.fixture(scope="session")
def dashboard_template(dashboard_stack: MemoryStack) -> Template:
    return Template.from_stack(dashboard_stack)
