"""The command line's exit codes, one per kind of outcome (README "Exit codes" and ``--help``)."""

from __future__ import annotations

OK, FAILED, BAD_INPUT, NOT_FOUND, CONFLICT = 0, 1, 2, 3, 4
EXIT_CODES = (
    (OK, "done"),
    (FAILED, "failed or not done: a step or an AWS call failed, or you declined"),
    (BAD_INPUT, "bad input or setup: an argument, field, store, extra or AWS setting"),
    (NOT_FOUND, "not found: the id, hash or run names no record"),
    (
        CONFLICT,
        "conflict: the record is not in a state the command applies to, or a run_id was "
        "already used for another run",
    ),
)
