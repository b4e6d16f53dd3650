"""Messages in other frameworks' shapes, each read as the canonical message it stands for.

The canonical message is the event contract's ``{role, content, tool_calls, ...}`` (OpenAI's
chat shape, with Anthropic's and LangChain's content blocks). Beside it an event may carry a
message as LangChain dumps it (``BaseMessage.model_dump()``: ``{"type": "human", "content",
...}``, and ``messages_to_dict``'s ``{"type", "data"}``), an item of OpenAI's Responses API
(``message``, ``function_call``, ``function_call_output``, and any other item, such as a
``reasoning`` one) or a Strands message (``{"role", "content": [{"text"}, {"toolUse"},
{"toolResult"}, ...]}``). Each shape is a model here, so the published JSON Schema describes it;
:func:`canonical` turns a validated one into the canonical form and says what it held that is
not kept, so every surface (SDK, CLI, Lambda, MCP, integrations) reads it alike.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeAlias

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    StringConstraints,
    Tag,
    WithJsonSchema,
)

from agent_memory.core.api.field_bounds import MAX_LIST_ITEMS, MAX_MESSAGE_CHARS
from agent_memory.core.api.message_text import KNOWN_PART_TYPES
from agent_memory.core.model.errors import InvalidInput

if TYPE_CHECKING:
    # The contract's own types, which it hands to rebuild() once they exist: importing them
    # here would close an import cycle (the contract reads these shapes).
    Content: TypeAlias = Any
    EventRole: TypeAlias = str
    Id: TypeAlias = str
    MessageText: TypeAlias = str
    ResultContent: TypeAlias = Any

# LangChain's message types (``BaseMessage.type``), chunks included, as the core's roles; a
# ``chat`` message names its role itself.
LANGCHAIN_ROLES: dict[str, str] = {
    "human": "human",
    "ai": "ai",
    "system": "system",
    "tool": "tool",
    "function": "tool",
    "HumanMessageChunk": "human",
    "AIMessageChunk": "ai",
    "SystemMessageChunk": "system",
    "ToolMessageChunk": "tool",
    "FunctionMessageChunk": "tool",
}
LANGCHAIN_CHAT_TYPES = ("chat", "ChatMessageChunk")
# A RemoveMessage is an instruction to LangGraph's state, not a message: reported as not kept.
LANGCHAIN_REMOVE_TYPE = "remove"
LANGCHAIN_PLAIN_TYPES = (*LANGCHAIN_ROLES, LANGCHAIN_REMOVE_TYPE)
LANGCHAIN_TYPES = (*LANGCHAIN_PLAIN_TYPES, *LANGCHAIN_CHAT_TYPES)
RESPONSES_TYPES = ("message", "function_call", "function_call_output")
KNOWN_ITEM_TYPES = (*RESPONSES_TYPES, *LANGCHAIN_TYPES)
# The canonical parts' types (message_text.KNOWN_PART_TYPES): a Strands block of a kind not read
# is a part of its own kind, never one of these.
_CANONICAL_PART_TYPES = frozenset(KNOWN_PART_TYPES)
MAX_TEXT_CHARS = 200_000
# Keys that only place, identify or meter a message: not reported as not kept.
_BOOKKEEPING = frozenset(
    {"id", "status", "response_metadata", "usage_metadata", "example", "chunk_position"}
    # A chunk's tool calls as streamed: the ones its tool_calls holds, read.
    | {"tool_call_chunks"}
    # What Anthropic's Messages API says of a reply beside its content.
    | {"model", "stop_reason", "stop_sequence", "usage", "container"}
)
# Strands' content blocks that are read; a block of any other kind is reported as not kept.
STRANDS_READ_BLOCKS = ("text", "toolUse", "toolResult")


class ShapeModel(BaseModel):
    """Base of the other shapes: strict types; keys beside those declared are accepted (a
    framework's next release adds some) and reported as not kept when they hold something.
    """

    model_config = ConfigDict(extra="allow", strict=True, frozen=True)


class ClosedShapeModel(BaseModel):
    """Base of the shapes whose keys are all known: an unknown key is an error."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


def _not_known(names: tuple[str, ...], what: str) -> Any:
    def check(value: str) -> str:
        if value in names:
            raise ValueError(f"a {value!r} {what} has the fields of its type")
        return value

    return check


class LangChainToolCall(ShapeModel):
    """A tool call of ``AIMessage.tool_calls``."""

    name: Annotated[str, StringConstraints(max_length=256)]
    args: dict[str, Any] = Field(default_factory=dict)
    id: Annotated[str, StringConstraints(max_length=256)] | None = None
    type: Literal["tool_call"] = "tool_call"


class LangChainDump(ShapeModel):
    """A LangChain message as ``BaseMessage.model_dump()`` gives it."""

    type: Literal[*LANGCHAIN_PLAIN_TYPES]  # type: ignore[valid-type]
    content: Content
    name: Id | None = None
    id: str | None = None
    tool_call_id: Id | None = None
    tool_calls: Annotated[list[LangChainToolCall], Field(max_length=128)] = Field(
        default_factory=list
    )
    invalid_tool_calls: list[Any] = Field(default_factory=list)
    additional_kwargs: dict[str, Any] = Field(default_factory=dict)
    status: Literal["success", "error"] | None = None
    artifact: Any = None


class LangChainChat(LangChainDump):
    """A LangChain ``ChatMessage`` (or its chunk) dumped: it names its role."""

    type: Literal[*LANGCHAIN_CHAT_TYPES]  # type: ignore[valid-type]
    role: EventRole


class LangChainStored(ClosedShapeModel):
    """A LangChain message as ``messages_to_dict`` gives it: ``{"type", "data"}``."""

    type: Literal[*LANGCHAIN_TYPES]  # type: ignore[valid-type]
    data: LangChainDump | LangChainChat


class ResponsesMessage(ShapeModel):
    """A message item of OpenAI's Responses API (input or output)."""

    type: Literal["message"]
    role: Literal["user", "assistant", "system", "developer"]
    content: Content
    id: str | None = None
    status: str | None = None


class ResponsesFunctionCall(ShapeModel):
    """A function call item of OpenAI's Responses API."""

    type: Literal["function_call"]
    call_id: Annotated[str, StringConstraints(max_length=256)]
    name: Annotated[str, StringConstraints(max_length=256)]
    arguments: MessageText = ""
    id: str | None = None
    status: str | None = None


class ResponsesFunctionCallOutput(ShapeModel):
    """A function call's output item of OpenAI's Responses API."""

    type: Literal["function_call_output"]
    call_id: Annotated[str, StringConstraints(max_length=256)]
    output: ResultContent
    id: str | None = None
    status: str | None = None


class OtherItem(ShapeModel):
    """An item of any other type (a Responses API ``reasoning`` or ``web_search_call`` item):
    accepted, and reported as not kept.
    """

    type: Annotated[
        str,
        StringConstraints(max_length=64),
        AfterValidator(_not_known(KNOWN_ITEM_TYPES, "message")),
        WithJsonSchema({"type": "string", "maxLength": 64, "not": {"enum": [*KNOWN_ITEM_TYPES]}}),
    ]


class StrandsText(ClosedShapeModel):
    """A Strands text block."""

    text: MessageText


class StrandsJson(ClosedShapeModel):
    """A Strands tool result's JSON item, kept as its JSON text."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, serialize_by_alias=True)

    json_: Any = Field(alias="json")


class StrandsToolUseBody(ShapeModel):
    """What a Strands ``toolUse`` block holds."""

    toolUseId: Annotated[str, StringConstraints(max_length=256)]
    name: Annotated[str, StringConstraints(max_length=256)]
    input: dict[str, Any] = Field(default_factory=dict)


class StrandsToolUse(ClosedShapeModel):
    """A Strands tool call: ``{"toolUse": {"toolUseId", "name", "input"}}``."""

    toolUse: StrandsToolUseBody


def _without(keys: tuple[str, ...]) -> Any:
    def check(value: dict[str, Any]) -> dict[str, Any]:
        if any(key in value for key in keys):
            raise ValueError(f"a block with one of {', '.join(map(repr, keys))} has its fields")
        return value

    return check


def _other_schema(keys: tuple[str, ...], description: str) -> dict[str, Any]:
    return {
        "type": "object",
        "description": description,
        "not": {"anyOf": [{"required": [key]} for key in keys]},
    }


def _shape_by_key(keys: tuple[str, ...]) -> Any:
    def shape(value: object) -> str | None:
        if isinstance(value, BaseModel):  # serializing: the member validated
            return _BLOCK_TAGS.get(type(value))
        if not isinstance(value, dict):
            return None
        return next((f"shape:block-{key}" for key in keys if key in value), "shape:block-other")

    return shape


_RESULT_ITEM_KEYS = ("type", "text", "json")
_BLOCK_TAGS: dict[type[BaseModel], str] = {}
# An object naming none of the keys read: an item or block of a kind not read, not kept.
OtherResultItem = Annotated[
    dict[str, Any],
    AfterValidator(_without(_RESULT_ITEM_KEYS)),
    WithJsonSchema(
        _other_schema(_RESULT_ITEM_KEYS, "An item of another kind (image, document): not kept.")
    ),
]
ResultItem = Annotated[
    Annotated[StrandsText, Tag("shape:block-text")]
    | Annotated[StrandsJson, Tag("shape:block-json")]
    | Annotated[OtherResultItem, Tag("shape:block-other")],
    Discriminator(
        _shape_by_key(_RESULT_ITEM_KEYS),
        custom_error_type="strands_block_shape",
        custom_error_message="a Strands tool result's item is an object",
    ),
]


class StrandsToolResultBody(ShapeModel):
    """What a Strands ``toolResult`` block holds: ``content`` is a list of ``{"text"}``,
    ``{"json"}`` and other (image, document) items.
    """

    toolUseId: Annotated[str, StringConstraints(max_length=256)]
    status: Literal["success", "error"] | None = None
    content: Annotated[list[ResultItem], Field(max_length=50)] = Field(default_factory=list)


class StrandsToolResult(ClosedShapeModel):
    """A Strands tool result: ``{"toolResult": {"toolUseId", "status", "content"}}``."""

    toolResult: StrandsToolResultBody


_BLOCK_TAGS.update(
    {
        StrandsText: "shape:block-text",
        StrandsJson: "shape:block-json",
        StrandsToolUse: "shape:block-toolUse",
        StrandsToolResult: "shape:block-toolResult",
    }
)
_BLOCK_KEYS = ("type", *STRANDS_READ_BLOCKS)
OtherBlock = Annotated[
    dict[str, Any],
    AfterValidator(_without(_BLOCK_KEYS)),
    WithJsonSchema(
        _other_schema(
            _BLOCK_KEYS,
            "A Strands block of another kind (image, document, reasoningContent, cachePoint): "
            "reported as not kept.",
        )
    ),
]
StrandsBlock = Annotated[
    Annotated[StrandsText, Tag("shape:block-text")]
    | Annotated[StrandsToolUse, Tag("shape:block-toolUse")]
    | Annotated[StrandsToolResult, Tag("shape:block-toolResult")]
    | Annotated[OtherBlock, Tag("shape:block-other")],
    Discriminator(
        _shape_by_key(_BLOCK_KEYS),
        custom_error_type="strands_block_shape",
        custom_error_message="a Strands content block is an object",
    ),
]


class StrandsMessage(ClosedShapeModel):
    """A Strands message: ``{"role": "user" | "assistant", "content": [block, ...]}``."""

    role: Literal["user", "assistant"]
    content: Annotated[list[StrandsBlock], Field(min_length=1, max_length=50)]


def is_strands(value: Mapping[str, Any]) -> bool:
    """Whether a message without ``type`` is in Strands' shape: content blocks named by their
    key (``{"text": ...}``), where the canonical message's parts name their ``type``.
    """
    content = value.get("content")
    return (
        isinstance(content, list)
        and bool(content)
        and isinstance(content[0], dict)
        and "type" not in content[0]
    )


def message_shape(value: object) -> str | None:
    """Which shape a message is in: by its ``type`` (LangChain's, or a Responses API item's),
    or, without one, Strands' or the canonical.
    """
    if isinstance(value, BaseModel) and type(value) in _MESSAGE_TAGS:
        return _MESSAGE_TAGS[type(value)]  # serializing: the member validated
    if not isinstance(value, dict):
        return "shape:message"
    if "type" not in value:
        return "shape:message-strands" if is_strands(value) else "shape:message"
    kind = value["type"]
    if not isinstance(kind, str):
        return None
    if kind in LANGCHAIN_TYPES:
        if "data" in value and "content" not in value:
            return "shape:message-langchain-stored"
        chat = kind in LANGCHAIN_CHAT_TYPES
        return "shape:message-langchain-chat" if chat else "shape:message-langchain"
    if kind in RESPONSES_TYPES:
        return f"shape:item-{kind}"
    return "shape:item-other"


OtherShape = (
    LangChainDump
    | LangChainStored
    | ResponsesMessage
    | ResponsesFunctionCall
    | ResponsesFunctionCallOutput
    | OtherItem
    | StrandsMessage
)


_MESSAGE_TAGS: dict[type[BaseModel], str] = {
    StrandsMessage: "shape:message-strands",
    LangChainDump: "shape:message-langchain",
    LangChainChat: "shape:message-langchain-chat",
    LangChainStored: "shape:message-langchain-stored",
    ResponsesMessage: "shape:item-message",
    ResponsesFunctionCall: "shape:item-function_call",
    ResponsesFunctionCallOutput: "shape:item-function_call_output",
    OtherItem: "shape:item-other",
}


def canonical(message: OtherShape) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The canonical form of a message in another shape (a dict the contract's message model
    validates), and what it held that the canonical form does not keep, a note per kind.
    """
    if isinstance(message, LangChainStored):
        return canonical(message.data)
    if isinstance(message, LangChainDump):
        return _langchain(message)
    if isinstance(message, StrandsMessage):
        return _strands(message), ()
    notes = _extra_notes(message, f"{message.type!r} item")
    if isinstance(message, ResponsesMessage):
        return {"role": message.role, "content": message.content}, notes
    if isinstance(message, ResponsesFunctionCall):
        call = {
            "id": message.call_id,
            "function": {"name": message.name, "arguments": message.arguments},
        }
        return {"role": "assistant", "content": None, "tool_calls": [call]}, notes
    if isinstance(message, ResponsesFunctionCallOutput):
        return {"role": "tool", "tool_call_id": message.call_id, "content": message.output}, notes
    return {"role": "assistant", "content": None}, (f"{message.type!r} item",)


TOOL_ERROR_MARK = "[tool error] "


def _langchain(message: LangChainDump) -> tuple[dict[str, Any], tuple[str, ...]]:
    kind = message.type
    notes = list(_extra_notes(message, "LangChain message"))
    if kind == LANGCHAIN_REMOVE_TYPE:
        return {"role": "assistant", "content": None}, ("LangChain 'remove' message",)
    role = message.role if isinstance(message, LangChainChat) else LANGCHAIN_ROLES[kind]
    content = message.content
    if message.status == "error":
        content, marked = _error_content(content)
        if not marked:
            notes.append("LangChain status 'error' (its content had no room for the mark)")
    out: dict[str, Any] = {"role": role, "content": content}
    if message.name is not None:
        out["name"] = message.name
    if message.tool_call_id is not None:
        out["tool_call_id"] = message.tool_call_id
    if message.tool_calls:
        out["tool_calls"] = [
            {"id": c.id, "name": c.name, "args": c.args, "type": "tool_call"}
            for c in message.tool_calls
        ]
    if message.invalid_tool_calls:
        notes.append("LangChain invalid_tool_calls")
    # additional_kwargs holds a provider's raw reply; its tool calls are the ones tool_calls
    # already holds, read.
    notes += [
        f"LangChain additional_kwargs {key!r}"
        for key, value in sorted(message.additional_kwargs.items())
        if key != "tool_calls" and _holds(value)
    ]
    if _holds(message.artifact):
        notes.append("LangChain tool artifact")
    return out, tuple(notes)


def _error_content(content: Any) -> tuple[Any, bool]:
    """``content`` marked as a tool's error, and whether the mark found room. The mark never
    takes a string or a list past the bounds the message's own shape was accepted under:
    content parts join with nothing, so a mark in a part of its own reads as a prefix.
    """
    if isinstance(content, str):
        if len(TOOL_ERROR_MARK) + len(content) <= MAX_MESSAGE_CHARS:
            return TOOL_ERROR_MARK + content, True
        return [TOOL_ERROR_MARK, content], True
    if isinstance(content, list):
        if len(content) < MAX_LIST_ITEMS:
            return [TOOL_ERROR_MARK, *content], True
        # At the list's bound the mark joins the first part, when that part is text with room.
        first: Any = content[0] if content else None
        if isinstance(first, str):
            text: Any = first
        else:
            text = getattr(first, "text", None) if getattr(first, "type", None) == "text" else None
        if not isinstance(text, str) or len(TOOL_ERROR_MARK) + len(text) > MAX_MESSAGE_CHARS:
            return content, False
        marked = TOOL_ERROR_MARK + text
        head = marked if isinstance(first, str) else first.model_copy(update={"text": marked})
        return [head, *content[1:]], True
    return content, True


def _strands(message: StrandsMessage) -> dict[str, Any]:
    parts: list[dict[str, Any]] = []
    for block in message.content:
        if isinstance(block, StrandsText):
            parts.append({"type": "text", "text": block.text})
        elif isinstance(block, StrandsToolUse):
            use = block.toolUse
            parts.append(
                {"type": "tool_use", "id": use.toolUseId, "name": use.name, "input": use.input}
            )
        elif isinstance(block, StrandsToolResult):
            result = block.toolResult
            parts.append(
                {
                    "type": "tool_result",
                    "tool_use_id": result.toolUseId,
                    "content": _result_items(list(result.content)),
                    "is_error": result.status == "error",
                }
            )
        else:
            parts.append(_not_read(block))
    return {"role": message.role, "content": parts}


def _result_items(items: list[StrandsText | StrandsJson | dict[str, Any]]) -> list[dict[str, Any]]:
    """A tool result's items as parts: its texts and JSON (as JSON text) one text, a line
    each, as the Strands integration reads them; items of other kinds as parts of their kind.
    """
    lines: list[str] = []
    others: list[dict[str, Any]] = []
    for item in items:
        if isinstance(item, StrandsText):
            lines.append(item.text)
        elif isinstance(item, StrandsJson):
            lines.append(json.dumps(item.json_, sort_keys=True, ensure_ascii=False, default=str))
        else:
            others.append(_not_read(item))
    text = "\n".join(lines)[:MAX_TEXT_CHARS]
    return [{"type": "text", "text": text}, *others] if lines else others


def _not_read(block: dict[str, Any]) -> dict[str, Any]:
    """A block not read, as a content part of its kind (reported as not kept)."""
    kind = next(iter(block), "empty")[:56]
    return {"type": f"Strands {kind}" if kind in _CANONICAL_PART_TYPES else kind}


def _extra_notes(message: BaseModel, what: str) -> tuple[str, ...]:
    return tuple(
        f"{key!r} of {what}"
        for key, value in sorted((message.model_extra or {}).items())
        if key not in _BOOKKEEPING and _holds(value)
    )


def _holds(value: object) -> bool:
    return value not in (None, "", [], {}, False)


def plain_message(value: object) -> object:
    """A message object as the plain data it dumps to (a LangChain ``BaseMessage``, an OpenAI
    or Anthropic SDK object), found by its methods: the core imports no framework. Anything
    else comes back as it is, for the contract to judge.
    """
    if isinstance(value, dict | list | str) or value is None:
        return value
    to_dict = getattr(value, "to_dict", None)
    if callable(to_dict) and hasattr(value, "model_fields_set"):
        return to_dict()  # OpenAI's and Anthropic's SDKs: the fields that were set
    model_dump = getattr(value, "model_dump", None)
    if callable(model_dump):
        return model_dump(mode="json")
    return value


def plain_messages(messages: object) -> object:
    """A list of messages with each message object as its plain data (see
    :func:`plain_message`); :class:`InvalidInput` naming the message whose dump fails.
    """
    if not isinstance(messages, list | tuple):
        return messages
    plain: list[object] = []
    for index, message in enumerate(messages):
        try:
            plain.append(plain_message(message))
        except Exception as error:
            raise InvalidInput(
                f"messages[{index}]", f"could not be read as a message ({type(error).__name__})"
            ) from None
    return plain


def rebuild(namespace: dict[str, Any]) -> None:
    """Complete the models with the contract's types (``Content``, ``EventRole``, ...), which
    the contract defines and hands over once they exist.
    """
    for model in (
        LangChainToolCall,
        LangChainDump,
        LangChainChat,
        LangChainStored,
        ResponsesMessage,
        ResponsesFunctionCall,
        ResponsesFunctionCallOutput,
        OtherItem,
        StrandsText,
        StrandsJson,
        StrandsToolUseBody,
        StrandsToolUse,
        StrandsToolResultBody,
        StrandsToolResult,
        StrandsMessage,
    ):
        model.model_rebuild(_types_namespace=namespace)
