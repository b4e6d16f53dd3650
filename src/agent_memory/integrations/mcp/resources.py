"""The MCP resources (the current context, a task's context, a procedure, a run's status) and
the ``start_task`` prompt, over the same ``ServerState`` as the tools.
"""

from __future__ import annotations

import json
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError
from mcp.server.mcpserver.prompts.base import Message, UserMessage
from mcp.shared.exceptions import MCPError
from mcp_types import INTERNAL_ERROR, INVALID_PARAMS

from agent_memory.core.model.errors import InvalidInput, MemoryError_, NotFound
from agent_memory.integrations.mcp.errors import is_argument, tool_error
from agent_memory.integrations.mcp.schemas import Task, TaskType, procedure_out
from agent_memory.integrations.mcp.state import ServerState
from agent_memory.integrations.mcp.tools import context_text

NOTHING_SERVED = (
    "No memory context served yet: call the memory_context tool with your task "
    "(or read memory://context/{task})."
)


def register_resources(server: MCPServer[Any], state: ServerState) -> None:
    """Add the resources and the prompt to ``server``."""

    @server.resource(
        "memory://context",
        name="current_context",
        title="Current memory context",
        description="The memory context memory_context last served in this server.",
        mime_type="text/plain",
    )
    def current_context() -> str:
        served = state.last_served()
        return NOTHING_SERVED if served is None else context_text(served[1])

    @server.resource(
        "memory://context/{task}",
        name="task_context",
        title="Memory context of a task",
        description="What memory holds for a task (the task in words, URL-encoded).",
        mime_type="text/plain",
    )
    def task_context(task: str) -> str:
        try:
            return context_text(state.bootstrap(task))
        except MemoryError_ as error:
            raise ResourceError(str(tool_error(error))) from None

    @server.resource(
        "memory://procedures/{procedure_id}",
        name="procedure",
        title="A procedure",
        description="A procedure of this tenant by id: its steps, status and track record.",
        mime_type="application/json",
    )
    def procedure(procedure_id: str) -> str:
        try:
            view = state.memory.get_procedure(state.identity.tenant_id, procedure_id)
        except NotFound:
            raise ResourceError(f"no procedure {procedure_id!r}") from None
        except MemoryError_ as error:
            raise ResourceError(str(tool_error(error))) from None
        return procedure_out(view).model_dump_json(indent=2)

    @server.resource(
        "memory://runs/{run_id}",
        name="run_status",
        title="A recorded run's status",
        description="What became of a run record_run accepted in this server: PENDING, "
        "CONSOLIDATED (with its summary), SUBMITTED (on AWS), FAILED or UNKNOWN.",
        mime_type="application/json",
    )
    def run_status(run_id: str) -> str:
        return json.dumps(state.run_status(run_id), indent=2, sort_keys=True)

    @server.prompt(
        name="start_task",
        title="Start a task with memory",
        description="Start a task with what memory holds for it: the guidance, the memory "
        "context, then the task.",
    )
    def start_task(task: Task, task_type: TaskType = None) -> list[Message]:
        try:
            reply = state.bootstrap(task, task_type)
        except MemoryError_ as error:
            refused = isinstance(error, InvalidInput) and is_argument(error)
            code = INVALID_PARAMS if refused else INTERNAL_ERROR
            raise MCPError(code, str(tool_error(error))) from None
        messages: list[Message] = []
        guidance = reply.get("context_guidance")
        if reply["context"]:
            if guidance:
                messages.append(UserMessage(guidance))
            messages.append(UserMessage(reply["context"]))
        messages.append(
            UserMessage(
                f"{task}\n\nWhen the task is done, call record_run with the task, its outcome "
                "and what you learned."
            )
        )
        return messages
