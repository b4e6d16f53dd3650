"""Writing a benchmark's results: the JSON, and its Markdown report beside it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def write_results(out: Path, result: Any, report: str) -> None:
    """``result`` as JSON at ``out`` (its folder made if need be), ``report`` at ``out.md``."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    out.with_suffix(".md").write_text(report, encoding="utf-8")
