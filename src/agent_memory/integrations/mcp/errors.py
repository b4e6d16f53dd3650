"""Errors a model can act on: which argument was wrong, and what to send instead.

Refused input (the SDK's ``InvalidInputError``, or the tool's own schema) becomes a tool
error naming the field; a failure of the service itself a one-line tool error; a bug stays
on the server (the MCP SDK reports it without its text).
"""

from __future__ import annotations

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel, ValidationError

from agent_memory.core.api.field_errors import field_problems, listed
from agent_memory.core.model.errors import InvalidInput, MemoryError_, NotFound
from agent_memory.integrations.mcp.schemas import ID_RULE, MAX_SEARCH_LIMIT, OUTCOMES

_IDENTIFIER = f"an identifier: {ID_RULE}"
# What to send instead, by the field's name (its last part for a nested field).
_INSTEAD = {
    "task": "the task in words (at least one letter or digit)",
    "query": "what to look for, in words (at least one letter or digit)",
    "limit": f"a whole number from 1 to {MAX_SEARCH_LIMIT}",
    "outcome": f"one of {', '.join(OUTCOMES)}",
    "run_id": f"{_IDENTIFIER}, or leave it out to have one generated",
    "task_type": _IDENTIFIER,
    "domain": _IDENTIFIER,
    "procedure_id": "the procedure_id memory_context returned",
    "succeeded": "true or false",
    "procedure_succeeded": "true or false, with procedure_id",
    "messages": "a list of {role, content} objects",
    "artifacts": "an object such as {task_summary, key_findings: [...]}",
}


def invalid_argument(field: str, message: str) -> ToolError:
    """A tool error naming the argument ``field``, why it was refused and what to send."""
    if "should match pattern" in message:
        # The pattern itself tells a model nothing it can act on; the hint below does.
        message = "is blank or not in the expected form"
    leaf = field.rsplit(".", 1)[-1].split("[", 1)[0]
    top = _top(field)
    instead = _INSTEAD.get(field) or _INSTEAD.get(leaf)
    if instead is None and top != field and top in _INSTEAD:
        instead = f"{top} as the tool's schema describes it"
    hint = f"; send {instead}" if instead else ""
    return ToolError(f"invalid argument {field}: {message}{hint}")


def refused_arguments(error: ValidationError, model: type[BaseModel] | None = None) -> ToolError:
    """Every argument the tool's schema refused (``model``: its arguments' model, for the
    argument a misspelt name meant), the first as :func:`invalid_argument` words it.
    """
    problems = [
        (path, "is required" if message == "Field required" else message[:1].lower() + message[1:])
        for path, message in field_problems(error, model)
    ]
    field, message = problems[0] if problems else ("arguments", "are not valid")
    refused = invalid_argument("arguments" if field == "event" else field, message)
    return ToolError(f"{refused}{listed(problems)}")


def tool_error(error: MemoryError_) -> ToolError:
    """The tool error of a memory error: refused input, a missing record, the service failing."""
    if isinstance(error, InvalidInput) and is_argument(error):
        return invalid_argument(error.field, error.message)
    if isinstance(error, NotFound):
        return ToolError(f"not found: {error}")
    # Not the model's to fix (a setting of the server, the store, the stack): it can only say so.
    return ToolError(f"memory is unavailable: {error}")


def is_argument(error: InvalidInput) -> bool:
    """Whether ``error`` refused an argument of a tool (else a setting of the server)."""
    return _top(error.field) in _INSTEAD


def _top(field: str) -> str:
    return field.split(".", 1)[0].split("[", 1)[0]
