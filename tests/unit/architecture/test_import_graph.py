"""The import graph of ``agent_memory``: no cycle between modules, and every import points to
the module's own layer or one below it (the README's layers), function-level imports included.
"""

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).parents[3] / "src"

# Lowest first. A module may import its own layer and those below, never one above; a new
# package must be placed here before it can be imported from anywhere.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("agent_memory.core.model",),
    ("agent_memory.core.ports", "agent_memory.core.api"),
    ("agent_memory.core.paging", "agent_memory.core.privacy", "agent_memory.core.retrieval"),
    ("agent_memory.core.tiers",),
    ("agent_memory.core.workflows",),
    ("agent_memory.core",),
    ("agent_memory.app",),
    ("agent_memory.adapters",),
    ("agent_memory.wiring",),
    ("agent_memory.serverless",),
    ("agent_memory.sdk", "agent_memory.review"),
    ("agent_memory.integrations",),
    ("agent_memory.cli",),
    ("agent_memory",),
)


def modules(src: Path, package: str) -> dict[str, Path]:
    """Every module of ``package`` under ``src`` by dotted name (a package by its own name)."""
    found = {}
    for path in sorted((src / package.replace(".", "/")).rglob("*.py")):
        parts = path.relative_to(src).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imported(name: str, path: Path, known: dict[str, Path]) -> Iterator[str]:
    """The known modules ``name`` imports, wherever the import statement stands."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            # ``from pkg import name`` imports the module ``pkg.name`` when there is one.
            targets = [
                f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names
            ]
        else:
            continue
        yield from (t for t in targets if t in known and t != name)


def graph(src: Path, package: str) -> dict[str, set[str]]:
    known = modules(src, package)
    return {name: set(imported(name, path, known)) for name, path in known.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while (w := stack.pop()) != v:
                component.append(w)
            if component:
                found.append(sorted([v, *component]))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def layer_of(module: str) -> int:
    """The layer of the longest prefix naming ``module``'s package; KeyError if none does."""
    best: tuple[int, int] | None = None
    for rank, layer in enumerate(LAYERS):
        for prefix in layer:
            if (module == prefix or module.startswith(prefix + ".")) and (
                best is None or len(prefix) > best[1]
            ):
                best = (rank, len(prefix))
    if best is None:
        raise KeyError(module)
    return best[0]


def upward(edges: dict[str, set[str]]) -> list[tuple[str, str]]:
    return sorted((a, b) for a, bs in edges.items() for b in bs if layer_of(b) > layer_of(a))


def write(root: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_the_checker_sees_a_cycle_through_a_function_level_import(tmp_path: Path) -> None:
    # Given a package whose cycle is hidden in a function body and a relative import
    write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from pkg import b\n",
            "pkg/b.py": "def f():\n    from .c import x\n",
            "pkg/c.py": "from pkg.a import y\n",
            "pkg/d.py": "import pkg.a\n",
        },
    )
    # When its graph is read
    found = cycles(graph(tmp_path, "pkg"))
    # Then the three modules of the cycle are named, and the one merely importing it is not
    assert found == [["pkg.a", "pkg.b", "pkg.c"]]


def test_the_package_has_no_import_cycle() -> None:
    # Given every module of agent_memory and what it imports, function-level imports included
    edges = graph(SRC, "agent_memory")
    # Then no two modules import each other, directly or round a loop
    assert cycles(edges) == []


def test_every_module_has_a_layer() -> None:
    unplaced = [m for m in modules(SRC, "agent_memory") if not _placed(m)]
    assert unplaced == []


def _placed(module: str) -> bool:
    try:
        layer_of(module)
    except KeyError:
        return False
    return True


def test_imports_point_to_the_same_layer_or_below() -> None:
    # Given the layers, lowest first (the core's model, ports, retrieval and privacy, tiers,
    # workflows; then adapters, wiring (with settings), the Lambda side, SDK and review,
    # integrations, the CLI)
    edges = graph(SRC, "agent_memory")
    # Then no module imports one of a higher layer
    assert upward(edges) == []


@pytest.mark.parametrize(
    ("importer", "imported_module", "points_up"),
    [
        ("agent_memory.core.tiers.episodic", "agent_memory.core.retrieval.episode_index", False),
        ("agent_memory.core.retrieval.episode_index", "agent_memory.core.tiers.episodic", True),
        ("agent_memory.adapters.local.x", "agent_memory.core.workflows.tenants", False),
        ("agent_memory.core.ports", "agent_memory.core.retrieval.episode_index", True),
        ("agent_memory.serverless.steps", "agent_memory.sdk.types", True),
    ],
)
def test_an_import_into_a_higher_layer_is_upward(
    importer: str, imported_module: str, points_up: bool
) -> None:
    assert bool(upward({importer: {imported_module}})) is points_up
