"""Documentation never points at what the repository does not have: every relative link of the
project's Markdown resolves to a file, every ``#anchor`` to a heading of its target, and every
repository path quoted in backticks exists.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
QUOTED = re.compile(r"`([A-Za-z0-9_.\-/]+)`")
# Top-level folders of the repository: a backticked word starting with one is a path.
TOP_LEVEL = (
    "src/",
    "tests/",
    "benchmarks/",
    "docs/",
    "examples/",
    "functions/",
    "layers/",
    "stacks/",
    "statemachines/",
    ".ci/",
)


def documents() -> list[Path]:
    """The Markdown files git tracks (node_modules and the virtualenv are not ours)."""
    listed = subprocess.run(
        ["git", "ls-files", "*.md"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    return [ROOT / name for name in listed]


def anchors(path: Path) -> set[str]:
    """GitHub's heading anchors: lowercased, punctuation dropped, spaces to hyphens."""
    found = set()
    for line in path.read_text().splitlines():
        if heading := re.match(r"#{1,6} (.+)", line):
            text = re.sub(r"[`*]", "", heading.group(1)).strip().lower()
            found.add(re.sub(r"[^\w\- ]", "", text).replace(" ", "-"))
    return found


def broken_links(path: Path) -> list[str]:
    broken = []
    text = path.read_text()
    for target in LINK.findall(text):
        if re.match(r"^[a-z]+:", target):
            continue  # a web address or mailto: not this repository's
        name, _, anchor = target.partition("#")
        linked = (path.parent / name).resolve() if name else path
        if not linked.exists():
            broken.append(f"{target} (no such file)")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            broken.append(f"{target} (no such heading)")
    return broken


def missing_paths(path: Path) -> list[str]:
    missing = []
    for quoted in QUOTED.findall(path.read_text()):
        if not quoted.startswith(TOP_LEVEL) or any(c in quoted for c in "*…<>{}"):
            continue
        if not (ROOT / quoted).exists():
            missing.append(quoted)
    return missing


def test_the_project_has_documents_to_check() -> None:
    # Guards the tests below: README, the docs and the examples' walk-through are tracked
    names = {p.relative_to(ROOT).as_posix() for p in documents()}
    assert {"README.md", "docs/aws.md", "docs/pii.md", "examples/FIRST_EVENT.md"} <= names


@pytest.mark.parametrize("path", documents(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(path: Path) -> None:
    # Given a tracked Markdown document
    # When its links are followed inside the repository
    # Then each one reaches a file, and each anchor a heading of that file
    assert broken_links(path) == []


@pytest.mark.parametrize("path", documents(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_quoted_repository_path_exists(path: Path) -> None:
    # Given a tracked Markdown document naming repository paths in backticks
    # Then each named path exists
    assert missing_paths(path) == []


def test_a_broken_link_and_a_missing_path_are_reported(tmp_path: Path) -> None:
    # Given a document with a link to a missing file, a link to a missing heading, and a
    # quoted path the repository lacks
    doc = tmp_path / "doc.md"
    doc.write_text(
        "# Title\n[a](missing.md) [b](#title) [c](#nowhere) `src/agent_memory/nothing.py`\n"
    )
    # Then the checks name exactly those
    assert broken_links(doc) == ["missing.md (no such file)", "#nowhere (no such heading)"]
    assert missing_paths(doc) == ["src/agent_memory/nothing.py"]
