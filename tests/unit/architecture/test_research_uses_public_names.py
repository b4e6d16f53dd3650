"""Tests and benchmarks reach the product through its public names: no private name of the
core is imported, read or patched, and no benchmark patches the core at all to make a variant
(a variant is configuration the product accepts). A test may still replace a public name (a
spy, a smaller limit).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[3]
CORE = "agent_memory.core"


def core_aliases(tree: ast.AST) -> dict[str, str]:
    """Local names bound to a module of the core (``from agent_memory.core.x import y``)."""
    aliases = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(CORE):
            for alias in node.names:
                aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(CORE) and alias.asname:
                    aliases[alias.asname] = alias.name
    return aliases


def private_uses(source: str, *, benchmark: bool = True) -> list[str]:
    """The private core names ``source`` imports, reads or patches; in a ``benchmark``, every
    core module it patches.
    """
    tree = ast.parse(source)
    aliases = core_aliases(tree)
    found = [
        f"import {name}"
        for local, name in aliases.items()
        if name.rsplit(".", 1)[-1].startswith("_") and not name.endswith("__")
    ]
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in aliases
            and node.attr.startswith("_")
            and not node.attr.endswith("__")
        ):
            found.append(f"{aliases[node.value.id]}.{node.attr}")
        if isinstance(node, ast.Call) and ast.unparse(node.func).endswith(
            ("patch.object", "monkeypatch.setattr", "patched.setattr")
        ):
            target = node.args[0] if node.args else None
            name = node.args[1] if len(node.args) > 1 else None
            private = isinstance(name, ast.Constant) and str(name.value).startswith("_")
            if isinstance(target, ast.Name) and target.id in aliases and (benchmark or private):
                found.append(f"patch {aliases[target.id]}")
    return found


def modules() -> list[Path]:
    return sorted((ROOT / "tests").rglob("*.py")) + sorted((ROOT / "benchmarks").rglob("*.py"))


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_a_test_or_benchmark_uses_only_public_core_names(path: Path) -> None:
    if path.name == Path(__file__).name:
        return
    benchmark = path.is_relative_to(ROOT / "benchmarks")
    assert private_uses(path.read_text(), benchmark=benchmark) == []


def test_the_check_sees_private_imports_reads_and_patches() -> None:
    source = (
        "from agent_memory.core.retrieval.episode_index import EpisodeIndex, _top\n"
        "from agent_memory.core.tiers import episodic\n"
        "from unittest import mock\n"
        "episodic._short\n"
        "mock.patch.object(episodic, 'served_hits', None)\n"
        "EpisodeIndex.search\n"
    )
    assert private_uses(source) == [
        "import agent_memory.core.retrieval.episode_index._top",
        "agent_memory.core.tiers.episodic._short",
        "patch agent_memory.core.tiers.episodic",
    ]
    # And in a test, only the patch of a private name
    spy = "mock.patch.object(episodic, '_gated', None)\nmock.patch.object(episodic, 'LIMIT', 1)\n"
    head = "from agent_memory.core.tiers import episodic\n"
    assert private_uses(head + spy, benchmark=False) == ["patch agent_memory.core.tiers.episodic"]
