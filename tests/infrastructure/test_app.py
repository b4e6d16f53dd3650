"""The CDK app: the stack's name comes from context, so a second memory deploys beside the first."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import aws_cdk as cdk

from app import STACK_NAME, build_app


def _stack_names(app: cdk.App) -> list[str]:
    return [c.node.id for c in app.node.children if isinstance(c, cdk.Stack)]


def test_the_stack_is_named_agent_memory_by_default(
    context: dict[str, Any], tmp_path: Path
) -> None:
    app = build_app(context=context, outdir=str(tmp_path))
    assert _stack_names(app) == [STACK_NAME]


def test_stack_name_in_context_names_a_second_stack(
    context: dict[str, Any], tmp_path: Path
) -> None:
    # Given `cdk deploy -c stackName=AgentMemoryStaging`
    app = build_app(context={**context, "stackName": "AgentMemoryStaging"}, outdir=str(tmp_path))
    # Then the app holds that stack alone
    assert _stack_names(app) == ["AgentMemoryStaging"]
