"""The offline examples of ``examples/``, imported as modules for the tests that run them."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

EXAMPLES = Path(__file__).parents[2] / "examples"


def load_example(name: str) -> ModuleType:
    """``examples/<name>.py`` as the module ``name``."""
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # Registered first: the dataclasses it defines look their module up by name.
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
