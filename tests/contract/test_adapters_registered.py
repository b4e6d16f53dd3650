"""Every store adapter in the source is under the storage contract (built by a factory in
``conftest.ADAPTERS``): an adapter no contract test runs against could drift unseen.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.contract.conftest import ADAPTERS

ROOT = Path(__file__).parents[2]
# The product's adapters, and the in-memory stores the tests keep beside them.
ADAPTERS_SOURCE = (ROOT / "src/agent_memory/adapters", ROOT / "tests/support/in_memory")
STORE_CLASS = re.compile(r"(Episode|Fact|Procedure)Store$")


def store_classes_in_the_source() -> set[str]:
    """Names of the classes of the adapters' source that implement a store port."""
    return {
        node.name
        for folder in ADAPTERS_SOURCE
        for module in folder.rglob("*.py")
        for node in ast.walk(ast.parse(module.read_text()))
        if isinstance(node, ast.ClassDef) and STORE_CLASS.search(node.name)
    }


def test_every_store_adapter_is_built_by_a_contract_factory(tmp_path: Path) -> None:
    # Given the store classes the adapters define (the in-memory ones among them)
    defined = store_classes_in_the_source()
    assert {"MemoryEpisodeStore", "MemoryFactStore", "MemoryProcedureStore"} <= defined
    # When every factory of the contract suites builds its stores
    built: set[str] = set()
    for name, factory in ADAPTERS.items():
        with factory(tmp_path / name) as stores:
            built |= {type(s).__name__ for s in (stores.episodes, stores.facts, stores.procedures)}
    # Then each of those classes is one of them
    assert defined - built == set()
