"""The pip command that adds an extra to agent-memory where it was installed from.

agent-memory is installed from a clone, a git URL or a wheel (it is not on PyPI, where
``pip install 'agent-memory[aws]'`` would find nothing or another project's package), so a
message about a missing extra names the source pip recorded at install time (PEP 610's
``direct_url.json``).
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping
from importlib import metadata
from typing import Any
from urllib.parse import unquote, urlparse

DISTRIBUTION = "agent-memory"
# What to say when the source is unknown (run from a source tree, or recorded in no form read).
UNKNOWN_SOURCE = "your agent-memory clone's folder, git URL or wheel"


def install_command(extra: str, *, installed_from: Mapping[str, Any] | None = None) -> str:
    """The command that installs agent-memory with ``extra`` from where it was installed.

    ``installed_from`` is a PEP 610 ``direct_url.json`` record (default: the one pip wrote
    for this installation, if any).
    """
    record = _recorded_source() if installed_from is None else installed_from
    url = str(record.get("url", "")) if record else ""
    if not url:
        if record == {}:  # installed from an index: the distribution's own name finds it
            return f"pip install {shlex.quote(f'{DISTRIBUTION}[{extra}]')}"
        return f"pip install '<{UNKNOWN_SOURCE}>[{extra}]'"
    vcs = record.get("vcs_info") if record else None
    if isinstance(vcs, Mapping):
        revision = vcs.get("requested_revision")
        at = f"@{revision}" if isinstance(revision, str) and revision else ""
        spec = f"{DISTRIBUTION}[{extra}] @ {vcs.get('vcs', 'git')}+{url}{at}"
        return f"pip install {shlex.quote(spec)}"
    parsed = urlparse(url)
    target = unquote(parsed.path) if parsed.scheme == "file" else url
    dir_info = record.get("dir_info") if record else None
    editable = isinstance(dir_info, Mapping) and bool(dir_info.get("editable"))
    command = "pip install -e" if editable else "pip install"
    if target.endswith(".whl") or parsed.scheme not in ("file", ""):
        spec = f"{DISTRIBUTION}[{extra}] @ {url}"
    else:
        spec = f"{target}[{extra}]"
    return f"{command} {shlex.quote(spec)}"


def _recorded_source() -> dict[str, Any] | None:
    """The record pip kept of where agent-memory came from: {} for an index, None when unknown."""
    try:
        distribution = metadata.distribution(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return None
    text = distribution.read_text("direct_url.json")
    if text is None:
        return {}
    try:
        record = json.loads(text)
    except ValueError:
        return None
    return record if isinstance(record, dict) else None
