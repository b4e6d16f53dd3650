"""LangGraph integration: memory at a run's start, compressed working memory, the run reported.

Needs ``langgraph`` (the ``langgraph`` extra). Three pieces, usable separately:

- :func:`bootstrap_node`: a node that asks memory about the task and puts the memory context
  in a ``SystemMessage`` before the first reasoning step (once; nothing when memory is empty).
- :func:`compression_hook` (a ``pre_model_hook`` of ``create_react_agent``: the model sees the
  compressed history, the state keeps all of it) and :func:`compression_node` (a node that
  replaces old messages in the state by a summary). Both use the application's ``compress``,
  which never separates a tool call from its result, with a small chat model as summarizer, or
  the extractive summary when none is given.
- :func:`finish_hook`: turns the final state into a RunFinished event and reports it.

Example (offline: a scripted model and the local memory)::

    from langchain_core.messages import AIMessage, HumanMessage
    from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
    from langgraph.graph import START, MessagesState, StateGraph

    from agent_memory.integrations.langgraph import bootstrap_node, compression_node, finish_hook
    from agent_memory.sdk import MemoryClient

    memory = MemoryClient.local()
    model = FakeMessagesListChatModel(responses=[AIMessage("Clause 7.3 caps liability.")])
    graph = StateGraph(MessagesState)
    graph.add_node("recall", bootstrap_node(memory, tenant_id="acme", agent_id="reviewer"))
    graph.add_node("compress", compression_node())
    graph.add_node("agent", lambda state: {"messages": [model.invoke(state["messages"])]})
    graph.add_edge(START, "recall")
    graph.add_edge("recall", "compress")
    graph.add_edge("compress", "agent")
    final = graph.compile().invoke({"messages": [HumanMessage("Review the Northwind MSA")]})
    finish = finish_hook(memory, tenant_id="acme", agent_id="reviewer")
    print(finish(final, run_id="run-0001", outcome="COMPLETED").wait()["episode"])
    memory.close()
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, Protocol, TypeAlias, TypeVar

try:
    from langchain_core.language_models import BaseChatModel
    from langchain_core.messages import (
        AIMessage,
        BaseMessage,
        ChatMessage,
        FunctionMessage,
        HumanMessage,
        RemoveMessage,
        SystemMessage,
        ToolMessage,
    )
    from langgraph.graph.message import REMOVE_ALL_MESSAGES
except ImportError as error:
    from agent_memory.adapters.install import install_command

    raise ImportError(
        f"agent_memory.integrations.langgraph needs LangGraph: {install_command('langgraph')}"
    ) from error

from agent_memory.adapters.chat import LangChainChat
from agent_memory.app.in_run import (
    Summarize,
    compress,
    extract_artifacts,
    summarizer,
    summary_message,
)
from agent_memory.core.api.contracts import CORE_ROLES, MAX_MESSAGE_CHARS
from agent_memory.core.api.message_text import parts_text, tool_call_line, with_tool_calls
from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.model.models import Message, Role, RunArtifacts
from agent_memory.core.model.policies import WorkingMemoryPolicy
from agent_memory.core.model.scope import ScopeKind
from agent_memory.integrations.run_event import fit_messages, message_json
from agent_memory.sdk.aio import AsyncMemoryClient
from agent_memory.sdk.bounds import json_text, listed, text_of
from agent_memory.sdk.client import MemoryClient
from agent_memory.sdk.errors import invalid
from agent_memory.sdk.handles import AsyncRunHandle, RunHandle

__all__ = [
    "MEMORY_CONTEXT_ID",
    "WORKING_SUMMARY_ID",
    "FinishHook",
    "Node",
    "bootstrap_node",
    "compression_hook",
    "compression_node",
    "finish_hook",
    "first_human_text",
    "from_core_message",
    "served_procedure_id",
    "served_receipt",
    "to_core_messages",
]

T = TypeVar("T")
State: TypeAlias = Any
Update: TypeAlias = dict[str, Any]
# A value, or how to read it from the graph's state.
FromState: TypeAlias = T | Callable[[State], T]
Client: TypeAlias = MemoryClient | AsyncMemoryClient


class Node(Protocol):
    """A graph node (or pre-model hook): the state in, a state update out."""

    def __call__(self, state: State) -> Update:
        """The update for ``state``."""
        ...


MEMORY_CONTEXT_ID = "agent-memory-context"
"""Id of the ``SystemMessage`` holding the memory context (how the node knows it ran)."""
WORKING_SUMMARY_ID = "agent-memory-working-summary"
"""Id of the ``SystemMessage`` holding the summary of compressed messages."""
_METADATA_KEY = "agent_memory"
_log = logging.getLogger(__name__)
_MAX_NAME_CHARS = 256
_MAX_TOOL_CALLS = 128


def to_core_messages(messages: Sequence[BaseMessage], *, field: str = "messages") -> list[Message]:
    """LangChain messages as the core's ``Message`` (roles system, human, ai, tool).

    An ``AIMessage`` keeps the ids of its tool calls, and its calls are written after its
    text (``[tool call] name {"arg": ...}``, the arguments as JSON cut where a message is, so
    arguments of any size cost no more) so summaries and memory know what was called; a
    ``ToolMessage`` keeps its ``tool_call_id`` and tool name. Content blocks become their text.
    What is read is read within bounds: arguments nested past 64 levels or holding themselves,
    or a part that is not what LangChain holds there, raise ``InvalidInputError`` naming it
    (``messages[3].tool_calls[0].args``, under ``field``); what is not read (``additional_kwargs``,
    blocks without text) is not walked.
    """
    return [_to_core(m, f"{field}[{i}]") for i, m in enumerate(_listed(messages, field))]


def from_core_message(message: Message, *, id: str | None = None) -> BaseMessage:
    """The LangChain form of a core ``Message``.

    Tool calls cannot be rebuilt from their ids alone, so an ``ai`` message comes back as text;
    the compression functions return the original LangChain messages for everything they keep.
    """
    if message.role == "system":
        return SystemMessage(content=message.content, id=id)
    if message.role == "human":
        return HumanMessage(content=message.content, name=message.name, id=id)
    if message.role == "ai":
        return AIMessage(content=message.content, name=message.name, id=id)
    return ToolMessage(
        content=message.content,
        tool_call_id=message.tool_call_id or "",
        name=message.name,
        id=id,
    )


def compression_hook(
    model: BaseChatModel | None = None,
    *,
    policy: WorkingMemoryPolicy = WorkingMemoryPolicy(),
    messages_key: str = "messages",
) -> Node:
    """A ``pre_model_hook`` for ``create_react_agent``: the model sees compressed history.

    Returns ``{"llm_input_messages": [...]}``, LangGraph's contract for input the model sees
    without the state changing: once there are ``policy.compress_at`` messages, system
    messages, one summary and the last ``policy.keep_recent`` messages. ``model`` (a small,
    cheap chat model) writes the summary; summaries are remembered by the messages they cover,
    so each call only summarizes what is new. Without a model, the extractive summary is used.
    """
    summarize = _summarizer(model)

    def hook(state: State) -> Update:
        messages = _messages(state, messages_key)
        compressed = _compress(messages, summarize, policy)
        return {"llm_input_messages": messages if compressed is None else compressed}

    return hook


def compression_node(
    model: BaseChatModel | None = None,
    *,
    policy: WorkingMemoryPolicy = WorkingMemoryPolicy(),
    messages_key: str = "messages",
) -> Node:
    """A node that replaces old messages in the state by a summary (see :func:`compression_hook`).

    Its update is ``{"messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES), *kept]}``, which the
    ``add_messages`` reducer turns into exactly the compressed list; below the threshold it
    changes nothing. Also usable as a ``pre_model_hook`` when the state should shrink.
    """
    summarize = _summarizer(model)

    def node(state: State) -> Update:
        compressed = _compress(_messages(state, messages_key), summarize, policy)
        if compressed is None:
            return {messages_key: []}
        return {messages_key: [RemoveMessage(id=REMOVE_ALL_MESSAGES), *compressed]}

    return node


def bootstrap_node(
    client: Client,
    *,
    tenant_id: FromState[str],
    agent_id: FromState[str],
    task: Callable[[State], str] | None = None,
    task_type: FromState[str | None] = None,
    domain: FromState[str | None] = None,
    scope: FromState[ScopeKind] = "agent",
    team: FromState[Sequence[str] | None] = None,
    messages_key: str = "messages",
    fail_open: bool = False,
) -> Node:
    """A node that puts the memory context in the state before the first reasoning step.

    ``task`` reads the task from the state (default: the text of the first human message);
    ``tenant_id``, ``agent_id``, ``task_type``, ``domain``, ``scope`` and ``team`` are values or
    functions of the state (``scope="team"`` with the ``team`` of agents, or ``scope="tenant"``,
    lets the agent read what other agents of the tenant learned). The context goes in a
    ``SystemMessage`` (id :data:`MEMORY_CONTEXT_ID`) of its own, after any leading system
    messages and before the task, led by the reply's ``context_guidance`` (what the model should
    make of the block, naming its token). Nothing is added when it is already there, when there
    is no task, or when memory has nothing relevant. The procedure served, if any, is remembered
    in the message's ``response_metadata`` for :func:`finish_hook`. With ``fail_open``, a memory
    error (the service down, say) is logged and the run goes on without memory; invalid input is
    raised either way.
    """
    memory = _sync(client)
    read_task = task or functools.partial(first_human_text, messages_key=messages_key)

    def node(state: State) -> Update:
        messages = _messages(state, messages_key)
        if any(m.id == MEMORY_CONTEXT_ID for m in messages):
            return {messages_key: []}
        text = text_of(read_task(state), "task")
        if not text.strip():
            return {messages_key: []}
        try:
            reply = memory.bootstrap(
                _read(tenant_id, state),
                _read(agent_id, state),
                text,
                task_type=_read(task_type, state),
                domain=_read(domain, state),
                scope=_read(scope, state),
                team=_read(team, state),
                surface="langgraph",
            )
        except InvalidInput:
            raise
        except Exception as error:
            if not fail_open:
                raise
            _log.warning("memory unavailable, run goes on without it", extra={"error": str(error)})
            return {messages_key: []}
        if not reply["context"]:
            return {messages_key: []}
        procedure = reply["procedure"]
        context = SystemMessage(
            # The guidance names this block's own boundaries, so it travels with the block.
            content="\n\n".join(filter(None, [reply["context_guidance"], reply["context"]])),
            id=MEMORY_CONTEXT_ID,
            response_metadata={
                _METADATA_KEY: {
                    "procedure_id": procedure["procedure_id"] if procedure else None,
                    # Its serving receipt: the run's feedback on it counts only with it.
                    "receipt": procedure.get("receipt") if procedure else None,
                    "episodes": [e["run_id"] for e in reply["episodes"]],
                }
            },
        )
        lead = next(
            (i for i, m in enumerate(messages) if not isinstance(m, SystemMessage)), len(messages)
        )
        updated = [*messages[:lead], context, *messages[lead:]]
        return {messages_key: [RemoveMessage(id=REMOVE_ALL_MESSAGES), *updated]}

    return node


def served_procedure_id(state: State, *, messages_key: str = "messages") -> str | None:
    """The id of the procedure the memory context recommended to this run, if any."""
    return _served(state, messages_key).get("procedure_id") or None


def served_receipt(state: State, *, messages_key: str = "messages") -> str | None:
    """The serving receipt of the procedure the memory context recommended, if any: the
    run's ``procedure_feedback`` counts only with it (:func:`finish_hook` sends it).
    """
    return _served(state, messages_key).get("receipt") or None


def _served(state: State, messages_key: str) -> dict[str, str]:
    """What :func:`bootstrap_node` recorded of the run's memory context (empty if none): its
    strings only (the state is the caller's; no other value of it is read).
    """
    for message in _messages(state, messages_key):
        if message.id == MEMORY_CONTEXT_ID:
            recorded = message.response_metadata.get(_METADATA_KEY)
            if not issubclass(type(recorded), dict):
                return {}
            return {
                k: str.__str__(v)
                for k, v in dict.items(recorded)  # type: ignore[arg-type]
                if type(k) is str and issubclass(type(v), str)
            }
    return {}


def first_human_text(state: State, *, messages_key: str = "messages") -> str:
    """The text of the state's first human message (the task, as most agents are started)."""
    for i, message in enumerate(_messages(state, messages_key)):
        if isinstance(message, HumanMessage):
            return _text(message.content, f"{messages_key}[{i}].content")
    return ""


Outcome = Literal["COMPLETED", "PARTIAL", "FAILED"]


class FinishHook:
    """Reports a finished graph run to memory; built by :func:`finish_hook`."""

    def __init__(
        self,
        client: Client,
        *,
        tenant_id: FromState[str],
        agent_id: FromState[str],
        task: Callable[[State], str] | None = None,
        task_type: FromState[str | None] = None,
        domain: FromState[str | None] = None,
        model: BaseChatModel | None = None,
        messages_key: str = "messages",
    ) -> None:
        self._client = client
        self._tenant_id = tenant_id
        self._agent_id = agent_id
        self._task = task or functools.partial(first_human_text, messages_key=messages_key)
        self._task_type = task_type
        self._domain = domain
        self._chat = LangChainChat(model) if model is not None else None
        self._messages_key = messages_key

    def event(
        self,
        state: State,
        *,
        run_id: str,
        outcome: Outcome | None = None,
        task: str | None = None,
        procedure_succeeded: bool | None = None,
        **fields: Any,
    ) -> dict[str, Any]:
        """The RunFinished detail for the final ``state`` (not yet validated or sent).

        Messages are converted (the memory context left out: it is memory, not the run) and,
        past the size an event may have, the oldest after the task are dropped. With a chat
        model, artifacts are extracted here; otherwise the service extracts them.
        ``procedure_succeeded`` reports on the procedure the memory context recommended, with
        the serving receipt its bootstrap was handed (the report counts only with it).
        ``fields`` are further RunFinished fields (``finished_at``, ``artifacts``...).
        """
        messages = _messages(state, self._messages_key)
        converted = to_core_messages(messages, field=self._messages_key)
        core = [c for m, c in zip(messages, converted, strict=True) if m.id != MEMORY_CONTEXT_ID]
        detail: dict[str, Any] = {
            "tenant_id": _read(self._tenant_id, state),
            "agent_id": _read(self._agent_id, state),
            "run_id": run_id,
            "task": task if task is not None else self._task(state),
        }
        for key, value in (
            ("task_type", _read(self._task_type, state)),
            ("domain", _read(self._domain, state)),
            ("outcome", outcome),
        ):
            if value is not None:
                detail[key] = value
        served = served_procedure_id(state, messages_key=self._messages_key)
        if procedure_succeeded is not None and served is not None:
            detail["procedure_feedback"] = {
                "procedure_id": served,
                "succeeded": procedure_succeeded,
            }
            receipt = served_receipt(state, messages_key=self._messages_key)
            if receipt is not None:
                detail["procedure_feedback"]["receipt"] = receipt
        if self._chat is not None and core and "artifacts" not in fields:
            artifacts = _artifacts_json(extract_artifacts(core, self._chat))
            if artifacts is not None:
                detail["artifacts"] = artifacts
        detail.update(fields)
        detail["messages"] = fit_messages([message_json(m) for m in core], detail)
        return detail

    def __call__(
        self,
        state: State,
        *,
        run_id: str,
        outcome: Outcome | None = None,
        task: str | None = None,
        procedure_succeeded: bool | None = None,
        **fields: Any,
    ) -> RunHandle:
        """Report the run (see :meth:`event`); the handle of ``MemoryClient.finish_run``."""
        detail = self.event(
            state,
            run_id=run_id,
            outcome=outcome,
            task=task,
            procedure_succeeded=procedure_succeeded,
            **fields,
        )
        return _sync(self._client).finish_run(detail)

    async def areport(
        self,
        state: State,
        *,
        run_id: str,
        outcome: Outcome | None = None,
        task: str | None = None,
        procedure_succeeded: bool | None = None,
        **fields: Any,
    ) -> AsyncRunHandle:
        """:meth:`__call__` for asyncio code (extraction and sending run in a thread)."""
        handle = await asyncio.to_thread(
            self.__call__,
            state,
            run_id=run_id,
            outcome=outcome,
            task=task,
            procedure_succeeded=procedure_succeeded,
            **fields,
        )
        return AsyncRunHandle(handle)


def finish_hook(
    client: Client,
    *,
    tenant_id: FromState[str],
    agent_id: FromState[str],
    task: Callable[[State], str] | None = None,
    task_type: FromState[str | None] = None,
    domain: FromState[str | None] = None,
    model: BaseChatModel | None = None,
    messages_key: str = "messages",
) -> FinishHook:
    """What to call with a graph's final state: ``finish(state, run_id=..., outcome=...)``.

    It converts the state's messages, extracts the run's artifacts with ``model`` when given
    (else the service extracts them, deterministically unless it has a model configured),
    emits the RunFinished event with ``client.finish_run`` and returns its handle.
    """
    return FinishHook(
        client,
        tenant_id=tenant_id,
        agent_id=agent_id,
        task=task,
        task_type=task_type,
        domain=domain,
        model=model,
        messages_key=messages_key,
    )


def _sync(client: Client) -> MemoryClient:
    return client.sync if isinstance(client, AsyncMemoryClient) else client


def _read(value: FromState[T], state: State) -> T:
    if callable(value):
        result: T = value(state)
        return result
    return value


def _messages(state: State, key: str) -> list[BaseMessage]:
    found = state.get(key) if isinstance(state, Mapping) else getattr(state, key, None)
    return [] if found is None else _listed(found, key)


def _listed(messages: object, field: str) -> list[BaseMessage]:
    """The messages of a list (no other iterable is read: one may never end), each checked to
    be a LangChain message.
    """
    members = listed(messages, field, "a list of LangChain messages")
    for i, message in enumerate(members):
        if not issubclass(type(message), BaseMessage):
            refused = f"must be a LangChain message, not {type(message).__name__}"
            raise invalid(InvalidInput(f"{field}[{i}]", refused))
    return members


def _text(content: object, field: str) -> str:
    """The text of a message's content: a string, or the text of its parts (strings and text
    blocks; other blocks are not read).
    """
    if issubclass(type(content), str):
        return text_of(content, field)
    parts: list[str | dict[str, str]] = []
    members = listed(content, field, "a string or a list of content blocks")
    for i, part in enumerate(members):
        at = f"{field}[{i}]"
        if issubclass(type(part), str):
            parts.append(text_of(part, at))
        elif issubclass(type(part), dict):
            kind = dict.get(part, "type")
            if issubclass(type(kind), str) and str.__str__(kind) == "text":
                text = dict.get(part, "text")
                parts.append(
                    {"type": "text", "text": "" if text is None else text_of(text, f"{at}.text")}
                )
        else:
            raise invalid(InvalidInput(at, "must be a string or a content block (an object)"))
    return parts_text(parts)


def _role(message: BaseMessage) -> Role:
    if isinstance(message, SystemMessage):
        return "system"
    if isinstance(message, HumanMessage):
        return "human"
    if isinstance(message, AIMessage):
        return "ai"
    if isinstance(message, ToolMessage | FunctionMessage):
        return "tool"
    if isinstance(message, ChatMessage):
        # A free-form role: read as an event naming it would be, any other as a human turn.
        return CORE_ROLES.get(message.role, "human")
    return "human"


def _to_core(message: BaseMessage, field: str) -> Message:
    role = _role(message)
    content = _text(message.content, f"{field}.content")
    name = _optional_text(message.name, f"{field}.name")
    if isinstance(message, AIMessage) and message.tool_calls:
        calls = _listed_calls(message.tool_calls, f"{field}.tool_calls")
        content = with_tool_calls(content, (line for line, _ in calls))
        ids = tuple(i for _, i in calls if i)
        return Message(role, content, name, None, ids[:_MAX_TOOL_CALLS])
    if isinstance(message, ToolMessage):
        call_id = _optional_text(message.tool_call_id, f"{field}.tool_call_id")
        return Message(role, content, name, call_id)
    return Message(role, content, name)


def _listed_calls(calls: object, field: str) -> list[tuple[str, str | None]]:
    """Each tool call's line (its arguments as JSON, cut where a message is) and its id."""
    lines: list[tuple[str, str | None]] = []
    for j, call in enumerate(listed(calls, field, "a list of tool calls")):
        at = f"{field}[{j}]"
        if not issubclass(type(call), dict):
            raise invalid(InvalidInput(at, "must be a tool call (an object)"))
        name = text_of(dict.get(call, "name"), f"{at}.name")
        arguments = json_text(dict.get(call, "args"), f"{at}.args", limit=MAX_MESSAGE_CHARS)
        lines.append(
            (tool_call_line(name, arguments), _optional_text(dict.get(call, "id"), f"{at}.id"))
        )
    return lines


def _optional_text(value: object, field: str) -> str | None:
    """A name or an id: at most 256 characters of a string, or None for none (or "")."""
    if value is None:
        return None
    return text_of(value, field)[:_MAX_NAME_CHARS] or None


def _compress(
    messages: list[BaseMessage], summarize: Summarize, policy: WorkingMemoryPolicy
) -> list[BaseMessage] | None:
    """The compressed list (originals for what is kept), or None if nothing changes."""
    core = to_core_messages(messages)
    compressed = compress(core, summarize, policy)
    if len(compressed) == len(core) and all(a is b for a, b in zip(compressed, core, strict=True)):
        return None
    original = {id(c): m for c, m in zip(core, messages, strict=True)}
    return [original.get(id(m)) or from_core_message(m, id=WORKING_SUMMARY_ID) for m in compressed]


def _summarizer(model: BaseChatModel | None) -> Summarize:
    if model is None:
        return summarizer(None)
    return _RememberedSummaries(summarizer(LangChainChat(model)))


class _RememberedSummaries:
    """A summarizer that remembers its summaries by the exact messages they cover.

    A pre-model hook compresses the whole history again before every model call; with this,
    only the messages after the longest already-summarized prefix go to the model, together
    with that earlier summary (which the core's prompt folds in).
    """

    def __init__(self, summarize: Summarize, *, size: int = 64) -> None:
        self._summarize = summarize
        self._size = size
        self._known: OrderedDict[str, str] = OrderedDict()
        self._lock = threading.Lock()

    def __call__(self, messages: Sequence[Message]) -> str:
        keys = _prefix_keys(messages)
        with self._lock:
            covered = next((i for i in range(len(keys), 0, -1) if keys[i - 1] in self._known), 0)
            earlier = self._known[keys[covered - 1]] if covered else None
        if covered == len(messages) and earlier is not None:
            return earlier
        todo = list(messages[covered:])
        if earlier is not None:
            todo.insert(0, summary_message(earlier))
        summary = self._summarize(todo)
        with self._lock:
            self._known[keys[-1]] = summary
            while len(self._known) > self._size:
                self._known.popitem(last=False)
        return summary


def _prefix_keys(messages: Sequence[Message]) -> list[str]:
    """``keys[i]`` identifies ``messages[: i + 1]`` exactly."""
    digest = hashlib.sha256()
    keys = []
    for m in messages:
        digest.update(
            json.dumps([m.role, m.content, m.name, m.tool_call_id, list(m.tool_calls)]).encode()
        )
        keys.append(digest.copy().hexdigest())
    return keys


def _artifacts_json(artifacts: RunArtifacts) -> dict[str, Any] | None:
    """Extracted artifacts as the event's ``artifacts``, or None when the model gave nothing."""
    if artifacts.outcome == "UNKNOWN" and not (
        artifacts.task_summary or artifacts.key_findings or artifacts.facts
    ):
        return None
    data: dict[str, Any] = {
        "task_summary": artifacts.task_summary,
        "outcome": artifacts.outcome,
        "key_findings": list(artifacts.key_findings),
        "approach_used": artifacts.approach_used,
        "tools_used": list(artifacts.tools_used),
        "reusable_patterns": list(artifacts.reusable_patterns),
        "facts": [{"content": f.content, "confidence": f.confidence} for f in artifacts.facts],
    }
    if artifacts.procedure is not None:
        data["procedure"] = {
            "title": artifacts.procedure.title,
            "steps": list(artifacts.procedure.steps),
        }
    return data
