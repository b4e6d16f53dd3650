"""The layering, enforced: the core stays pure, imports point downward."""

import ast
import json
from pathlib import Path

import pytest

from agent_memory.core.workflows.consolidation import STEP_NAMES

ROOT = Path(__file__).parents[3]
CORE = ROOT / "src/agent_memory/core"
FORBIDDEN_IN_CORE = (
    "boto3",
    "botocore",
    "aws_lambda_powertools",
    "langchain",
    "agent_memory.adapters",
    "agent_memory.cli",
    "agent_memory.wiring",
    "sqlite3",
    "detect_secrets",
    "onnxruntime",
)


def imports_of(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("module", sorted(CORE.rglob("*.py")), ids=lambda p: p.name)
def test_core_imports_nothing_from_aws_frameworks_or_outer_layers(module: Path) -> None:
    bad = {n for n in imports_of(module) if n.startswith(FORBIDDEN_IN_CORE)}
    assert bad == set()


@pytest.mark.parametrize("module", sorted(CORE.rglob("*.py")), ids=lambda p: p.name)
def test_core_never_reads_the_environment(module: Path) -> None:
    tree = ast.parse(module.read_text())
    environ = [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Attribute) and n.attr in {"environ", "getenv"}
    ]
    assert environ == []


def test_local_pipeline_runs_the_asl_task_steps_in_the_asl_order() -> None:
    # Given the state machine definition deployed on AWS
    definition = json.loads((ROOT / "statemachines/consolidation.asl.json").read_text())
    states, order = definition["States"], []
    name = definition["StartAt"]
    # When its Task states are followed from StartAt along Next
    while states[name]["Type"] == "Task":
        order.append(states[name]["Comment"].removeprefix("core step: "))
        name = states[name]["Next"]
    # Then they are exactly the local pipeline's steps, in the same order
    assert order == list(STEP_NAMES)
    assert states[name]["Type"] == "Succeed"


def test_every_asl_step_retries_and_catches_into_the_dead_letter_path() -> None:
    states = json.loads((ROOT / "statemachines/consolidation.asl.json").read_text())["States"]
    for name, state in states.items():
        if state["Type"] == "Task" and state["Comment"].startswith("core step:"):
            assert state["Retry"], name
            # Jitter spreads a crowd of retries (twin deliveries of a run included)
            assert all(r.get("JitterStrategy") == "FULL" for r in state["Retry"]), name
            assert state["Catch"][0]["Next"] == "RecordFailedRun", name
    assert states["RecordFailedRun"]["Next"] == "SendToDeadLetterQueue"
