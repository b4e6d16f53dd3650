"""Guards for the local path's typed values: no run-state decoder runs, validation counted."""

import sys
from collections.abc import Callable
from typing import Any

import pytest

from agent_memory.core.api import contracts

# Every function that builds domain values back from JSON; the local path calls none. (It does
# write JSON: the run's record in the ledger, and the state's size against Step Functions' limit.)
CODECS = (
    "state_from_json",
    "unit_from_json",
    "run_from_state",
    "artifacts_from_json",
)


def forbid_codecs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Replace each decoder, wherever a module of agent_memory holds it, by one that records its
    call and fails; the names called."""
    called: list[str] = []

    def refusing(name: str) -> Callable[..., Any]:
        def refuse(*args: Any, **kwargs: Any) -> Any:
            called.append(name)
            raise AssertionError(f"{name} called on the local path")

        return refuse

    for module in [m for n, m in sys.modules.items() if n.startswith("agent_memory")]:
        for name in CODECS:
            if hasattr(module, name):
                monkeypatch.setattr(module, name, refusing(name))
    return called


def count_validations(monkeypatch: pytest.MonkeyPatch) -> list[type]:
    """The models the core's ``validate`` is asked for from now on, in order, wherever a module
    of agent_memory imported it."""
    validations: list[type] = []
    original = contracts.validate

    def counted(model: type[Any], data: dict[str, Any]) -> Any:
        validations.append(model)
        return original(model, data)

    for module in [m for n, m in sys.modules.items() if n.startswith("agent_memory")]:
        if getattr(module, "validate", None) is original:
            monkeypatch.setattr(module, "validate", counted)
    return validations
