"""The examples in the SDK's and the integration's module docstrings run as written."""

from __future__ import annotations

import importlib
import re
import textwrap
from pathlib import Path

import pytest

from agent_memory.wiring.local_settings import HOME_VARIABLE, LLM_VARIABLE

MODULES = [
    "agent_memory",
    "agent_memory.sdk",
    "agent_memory.sdk.client",
    "agent_memory.sdk.aio",
    "agent_memory.integrations.langgraph",
    "agent_memory.integrations.strands",
    "agent_memory.integrations.langgraph_store",
]
# A paragraph ending in "::" introduces an indented literal block (reStructuredText).
EXAMPLE = re.compile(r"::\n\n((?:(?:    .*)?\n)+)")


def examples(module: str) -> list[str]:
    doc = importlib.import_module(module).__doc__ or ""
    return [textwrap.dedent(block) for block in EXAMPLE.findall(doc + "\n")]


@pytest.mark.parametrize("module", MODULES)
def test_module_docstring_example_runs(
    module: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(HOME_VARIABLE, str(tmp_path / "store"))
    monkeypatch.delenv(LLM_VARIABLE, raising=False)
    found = examples(module)
    assert found, f"{module} has no example"

    for code in found:
        exec(compile(code, f"{module} docstring", "exec"), {"__name__": "__docstring__"})
