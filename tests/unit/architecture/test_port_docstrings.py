"""A port's promise is written once, on its Protocol: an adapter's method says how it keeps it,
never a copy that could drift from the port.
"""

import ast
from pathlib import Path

SRC = Path(__file__).parents[3] / "src/agent_memory"


def port_docstrings() -> dict[str, str]:
    """Each method docstring of a Protocol in core/ports.py, and the method it documents."""
    found: dict[str, str] = {}
    for node in ast.parse((SRC / "core/ports.py").read_text()).body:
        if isinstance(node, ast.ClassDef):
            for method in node.body:
                if isinstance(method, ast.FunctionDef) and (doc := ast.get_docstring(method)):
                    found[doc] = f"{node.name}.{method.name}"
    return found


def copies(source: str, ports: dict[str, str]) -> list[str]:
    """The functions of ``source`` whose docstring is one of ``ports``' word for word."""
    return [
        f"{node.name} copies {ports[doc]}"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef) and (doc := ast.get_docstring(node)) in ports
    ]


def test_the_check_finds_a_copied_docstring() -> None:
    # Given an adapter method carrying the episode store's docstring for add
    ports = port_docstrings()
    promise = next(doc for doc, name in ports.items() if name == "EpisodeStore.add")
    adapter = f'class Store:\n    def add(self, episode):\n        """{promise}"""\n'
    # Then it is reported
    assert copies(adapter, ports) == ["add copies EpisodeStore.add"]


def test_no_adapter_copies_a_port_docstring() -> None:
    # Given every port's method docstrings
    ports = port_docstrings()
    # When every adapter module is read
    found = {
        str(path.relative_to(SRC)): names
        for path in sorted((SRC / "adapters").rglob("*.py"))
        if (names := copies(path.read_text(), ports))
    }
    # Then none repeats one
    assert found == {}
