"""What the ``agent-memory`` commands share: names, errors, help texts, reading and printing."""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO, cast

from agent_memory.core.model.errors import InvalidInput

PROG = "agent-memory"
# The state machine's timeout (core.workflows.consolidation.INCOMPLETE_AFTER_SECONDS, which a
# test holds this to): here as a literal so that building the parser imports no consolidation code.
INCOMPLETE_AFTER_MINUTES = 30
STORE_HELP = "memory directory (default: $AGENT_MEMORY_HOME, else ~/.agent-memory)"
TENANT_HELP = "the tenant id"
JSON_HELP = "print JSON instead of text"


class UsageError(Exception):
    """A mistake in how the command was called (bad file, bad JSON, bad date)."""


class NotSetUp(UsageError):
    """What the command needs is not set up (an extra not installed, no AWS region or
    credentials); the message says what to install or set.
    """


class StoreNotWritable(Exception):
    """The store cannot be written (a read-only disk, a file in its path, no permission)."""


class StoreMissing(Exception):
    """A command that only reads named a store that does not exist (it creates none)."""


class StoreFailed(Exception):
    """The store failed a command part way; the message says what is kept."""


def stdout() -> TextIO:
    """Standard output, every hidden character shown by name (``cli/output.py``)."""
    from agent_memory.cli.output import VisibleOutput

    return cast(TextIO, VisibleOutput(sys.stdout))


def read_json(source: str) -> Any:
    """The JSON of file ``source`` (``-``: stdin), read strictly; ``UsageError`` if it cannot be."""
    from agent_memory.core.api.json_input import read_json_stream

    # Bytes, decoded by the strict reader: a C locale would let stdin turn bad bytes into lone
    # surrogates. At most one byte past the event bound is read, from a file or from stdin.
    try:
        if source == "-":
            return read_json_stream(sys.stdin.buffer)
        with Path(source).open("rb") as stream:
            return read_json_stream(stream)
    except OSError as error:
        raise UsageError(f"cannot read {source}: {error.strerror or error}") from None
    except InvalidInput as error:
        if error.field != "event":
            raise
        raise UsageError(f"{'stdin' if source == '-' else source} {error.message}") from None


def print_json(value: Any, out: TextIO) -> None:
    """``value`` as indented JSON with sorted keys."""
    from agent_memory.core.model.visible import json_text

    # Exact: a hidden character is a JSON escape, which reads back as itself.
    out.write(json_text(value, indent=2, sort_keys=True) + "\n")


def names(listed: str) -> list[str]:
    """``a, b,c`` as ``["a", "b", "c"]``."""
    return [name.strip() for name in listed.split(",") if name.strip()]


def parse_time(text: str, option: str = "--now") -> float:
    """``option`` (``--now`` by default): an ISO 8601 time with its zone, as seconds since the
    epoch.
    """
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise UsageError(f"{option} must be an ISO 8601 time, not {text!r}") from None
    if moment.tzinfo is None:
        raise UsageError(f"{option} needs a time zone, e.g. 2026-12-01T00:00:00Z")
    return moment.timestamp()


def window_arguments(parser: argparse.ArgumentParser, what: str) -> None:
    """``--since`` and ``--until``: the window of time ``what`` were created in."""
    parser.add_argument(
        "--since", help=f"only {what} created at or after this ISO 8601 time (with its zone)"
    )
    parser.add_argument("--until", help=f"only {what} created before this ISO 8601 time")


def window_fields(args: argparse.Namespace) -> dict[str, float]:
    """A request's ``since`` and ``until`` (seconds since the epoch) from ``--since`` and
    ``--until``, each parsed by :func:`parse_time`; absent when not given.
    """
    given = {"since": args.since, "until": args.until}
    return {name: parse_time(text, f"--{name}") for name, text in given.items() if text}


def checked_tenant(tenant: str) -> str:
    """``--tenant``, checked as a tenant id."""
    from agent_memory.core.model.identifiers import checked_id

    return checked_id(tenant, "--tenant", "tenant id")


def confirmed(question: str) -> bool:
    """The user's yes on a terminal; without one, a refusal that names --yes."""
    if not sys.stdin.isatty():
        raise UsageError(f"{question.rstrip('?')}: no terminal to confirm on; give --yes")
    print(f"{question} [y/N] ", end="", file=sys.stderr, flush=True)
    try:
        answer = sys.stdin.readline()
    except KeyboardInterrupt:
        answer = ""
    return answer.strip().lower() in ("y", "yes")


def login_name() -> str:
    """Who runs the command, as the system names them: the default decider of a decision."""
    import getpass

    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no name for this uid (a container's)
        return "operator"
