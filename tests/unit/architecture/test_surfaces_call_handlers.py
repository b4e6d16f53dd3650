"""Every surface calls the application's handlers and nothing below them.

The surfaces (the CLI, the SDK's backends, the Lambda functions, the review server, the MCP
server and the framework integrations) parse their input, hand the application one message and
present its answer. None of them reaches a store, a tier, a workflow or the ports' store
protocols: what they may import of the core is its vocabulary (the model, the contracts and
views of ``core.api``) and the named values below, each the type or value of an answer.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[3]
SRC = ROOT / "src"
SURFACES = ("cli", "sdk", "serverless", "review", "integrations")

# Reached by no surface: where the rules and the stores live.
BELOW_THE_HANDLERS = (
    "agent_memory.core.workflows",
    "agent_memory.core.tiers",
    "agent_memory.core.retrieval",
    "agent_memory.core.privacy",
    "agent_memory.core.paging",
    "agent_memory.core.ports",
    "agent_memory.adapters",
)
# What a surface may still name from there: the types and values of answers, errors it tells
# apart, and the model boundary a user passes in (a chat model, an embedder, a detector).
ALLOWED: dict[str, frozenset[str]] = {
    "agent_memory.core.ports": frozenset({"ChatModel", "Embedder", "PiiDetector"}),
    "agent_memory.core.workflows.consolidation": frozenset(
        {"summary", "StepFailed", "STEP_NAMES", "RunsToReplay", "INCOMPLETE_AFTER_SECONDS"}
    ),
    "agent_memory.core.workflows.bootstrap": frozenset(
        {"BootstrapRequest", "BootstrapRequestModel"}
    ),
    "agent_memory.core.workflows.run_state": frozenset(
        {"FactResults", "RunState", "state_from_json", "state_to_json"}
    ),
    "agent_memory.core.workflows.stats": frozenset({"MemoryStats"}),
    "agent_memory.core.workflows.forgetting": frozenset({"RunsForgotten"}),
    "agent_memory.core.workflows.redaction": frozenset({"TextRedacted"}),
    "agent_memory.core.workflows.reembed": frozenset({"ReembedReport", "ReembedStatus"}),
    "agent_memory.core.workflows": frozenset({"reembed"}),  # its report types, annotated
    # A model's name resolved to the local registry's (``reembed --to``).
    "agent_memory.adapters.local.embeddings": frozenset({"local_model"}),
    # The pip command a missing extra's message prints, from where agent-memory came from.
    "agent_memory.adapters.install": frozenset({"install_command"}),
    # Errors a surface says in one line.
    "agent_memory.adapters.local.sqlite_db": frozenset({"DatabaseFailed"}),
    "agent_memory.adapters.aws._errors": frozenset({"is_transient"}),
    # What forget cannot reach on AWS (backups, logs), named in its receipt.
    "agent_memory.adapters.aws.retention": frozenset({"AWS_RETENTION"}),
    # The caller's signed identity (the SDK signs it; the functions check it).
    "agent_memory.adapters.aws.caller_identity": frozenset({"identity_proof", "CallerTenants"}),
    # The block read with its name aliases spelled out (Strands' memory entries show it so).
    "agent_memory.core.privacy.aliases": frozenset({"in_full"}),
    # LangChain's chat models spoken as the core's ChatModel.
    "agent_memory.adapters.chat": frozenset({"LangChainChat"}),
}


def surface_files() -> list[Path]:
    found = [p for name in SURFACES for p in sorted((SRC / "agent_memory" / name).rglob("*.py"))]
    return found + sorted((ROOT / "functions").rglob("*.py"))


def reached(path: Path) -> Iterator[tuple[str, str]]:
    """(module, name) for each name ``path`` imports from below the handlers."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(BELOW_THE_HANDLERS):
                    yield alias.name, "*"
        elif (
            isinstance(node, ast.ImportFrom)
            and node.level == 0
            and (node.module or "").startswith(BELOW_THE_HANDLERS)
        ):
            yield from ((str(node.module), alias.name) for alias in node.names)


def violations(path: Path) -> list[str]:
    return [
        f"{module}.{name}"
        for module, name in reached(path)
        if name not in ALLOWED.get(module, frozenset())
    ]


@pytest.mark.parametrize(
    "path", surface_files(), ids=lambda p: str(p.relative_to(ROOT)).removeprefix("src/")
)
def test_a_surface_reaches_nothing_below_the_handlers(path: Path) -> None:
    # Given a module of a surface
    # Then it imports no store, tier, workflow or port of the core's beyond the named values
    assert violations(path) == []


def test_the_check_sees_a_surface_that_reaches_a_store_or_a_tier(tmp_path: Path) -> None:
    # Given surface code reaching a store, a tier and a workflow, and one naming an answer type
    bad = tmp_path / "bad.py"
    bad.write_text(
        "from agent_memory.adapters.local.sqlite_episodes import SqliteEpisodeStore\n"
        "def f():\n"
        "    from agent_memory.core.tiers import procedural\n"
        "    import agent_memory.core.workflows.decay\n"
        "from agent_memory.core.workflows.stats import MemoryStats\n"
    )
    # Then the three are named, and the answer type is not
    assert violations(bad) == [
        "agent_memory.adapters.local.sqlite_episodes.SqliteEpisodeStore",
        "agent_memory.core.tiers.procedural",
        "agent_memory.core.workflows.decay.*",
    ]


def test_adapters_and_the_application_do_not_import_each_other() -> None:
    # Given the application layer and the adapters, side by side above the core
    def importing(package: str, other: str) -> list[str]:
        return [
            str(path.relative_to(SRC))
            for path in sorted((SRC / "agent_memory" / package).rglob("*.py"))
            for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.ImportFrom | ast.Import)
            and any(
                n.startswith(f"agent_memory.{other}")
                for n in (
                    [node.module or ""]
                    if isinstance(node, ast.ImportFrom)
                    else [a.name for a in node.names]
                )
            )
        ]

    # Then neither reaches the other: the wiring joins them
    assert importing("adapters", "app") == []
    assert importing("app", "adapters") == []
