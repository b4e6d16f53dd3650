"""The CDK app: ``npx cdk synth`` (which builds the layer first) or ``python app.py``.

Both read ``cdk.json``'s context (feature flags, ``layerPath``, ``chatModelId``, ``logLevel``,
``stackName``),
write to ``$CDK_OUTDIR`` (``cdk.out`` by default), run the cdk-nag AwsSolutions checks and so
produce the same template. Offline, without credentials::

    python layers/build.py && python app.py && ls cdk.out/AgentMemory.template.json
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import aws_cdk as cdk

ROOT = Path(__file__).resolve().parent
STACK_NAME = "AgentMemory"
LOCAL_NODE = ROOT / "node_modules" / ".bin" / "node"
# What the CDK CLI adds to the context of an app it runs (unless cdk.json turns them off);
# the CLI's values win, so under the CLI these change nothing.
CLI_CONTEXT = {
    "aws:cdk:enable-path-metadata": True,
    "aws:cdk:enable-asset-metadata": True,
    "aws:cdk:version-reporting": True,
}


def cdk_json_context(path: Path = ROOT / "cdk.json") -> dict[str, Any]:
    """The ``context`` of ``cdk.json``, which ``cdk.App`` does not read by itself."""
    context: dict[str, Any] = json.loads(path.read_text())["context"]
    return context


def use_local_node() -> None:
    """Run jsii on the Node that ``package.json`` pins, if installed (no end-of-life banner).

    Must run before the first ``import aws_cdk`` of the process. A local Node that does not
    run (npm skipped its install script) is ignored.
    """
    if "JSII_NODE" in os.environ or not LOCAL_NODE.exists():
        return
    probe = subprocess.run([LOCAL_NODE, "--version"], capture_output=True, check=False)
    if probe.returncode == 0:
        os.environ["JSII_NODE"] = str(LOCAL_NODE)


def build_app(**app_props: Any) -> cdk.App:
    """The app with the memory stack and the cdk-nag checks; ``app_props`` go to ``cdk.App``."""
    use_local_node()
    import aws_cdk as cdk
    from cdk_nag import AwsSolutionsChecks

    from stacks.memory_stack import MemoryStack

    app_props.setdefault("context", {**CLI_CONTEXT, **cdk_json_context()})
    app_props.setdefault("outdir", os.environ.get("CDK_OUTDIR", str(ROOT / "cdk.out")))
    app = cdk.App(**app_props)
    # -c stackName=... deploys a second, independent memory beside the first (no resource of
    # the stack has a fixed physical name).
    name = str(app.node.try_get_context("stackName") or STACK_NAME)
    # -c region=... binds the stack to a Region, checked against stacks/regions.py (without it
    # the template stays env-agnostic).
    region = app.node.try_get_context("region")
    env = cdk.Environment(region=str(region)) if region else None
    MemoryStack(app, name, description="agent-memory: four-tier memory for LLM agents", env=env)
    cdk.Validations.of(app).add_plugins(AwsSolutionsChecks(app, verbose=True))
    return app


if __name__ == "__main__":
    build_app().synth()
