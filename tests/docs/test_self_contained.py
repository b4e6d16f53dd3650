"""Nothing in the repository cites a file it does not contain: a design document kept outside
it, a sibling directory, or a path of the machine it was written on. A reader of a clone has the
repository and nothing else."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).parents[2]
# Spelled in parts so this file does not cite them itself.
OUTSIDE = re.compile(
    "|".join(
        (
            r"\bDESIGN" + r"(?:\.md|\s*§)",
            re.escape(".." + "/shared"),
            r"\bNOTES-" + r"[A-Za-z]",
            r"(?<![\w.])/" + r"work/",
        )
    )
)


def tracked_text_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    paths = [ROOT / name for name in listed.split("\0") if name]
    return [p for p in paths if p.is_file() and b"\0" not in p.read_bytes()[:4096]]


def test_no_tracked_file_cites_a_file_outside_the_repository() -> None:
    # Given every tracked text file of the repository
    files = tracked_text_files()
    assert len(files) > 100  # the listing is not empty
    # Then none names a design document, directory or machine path outside it
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()[:80]}"
        for path in files
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert found == []


def test_the_check_finds_each_kind_of_outside_citation() -> None:
    # Guards the test above against a pattern that can never match.
    for line in (
        "the reply of DESIGN" + " §4",
        "see DESIGN" + ".md for why",
        "read .." + "/shared/data",
        "measured in NOTES" + "-models.md",
        "cd /" + "work/main && make",
    ):
        assert OUTSIDE.search(line), line
