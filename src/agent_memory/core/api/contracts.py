"""The RunFinished event contract: one pydantic model, published as a JSON Schema.

``schemas/run_finished.schema.json`` is generated from :class:`RunFinishedEvent` (see
``python -m agent_memory.core.api.contracts``) and a test keeps the two identical, so the file other
languages validate against is exactly what every event is checked with here; a property test
holds the two to the same verdict on generated events. JSON text is read by
``core.json_input``, which refuses what no schema can see (size, repeated keys, numbers).
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    StringConstraints,
    Tag,
    ValidationError,
    WithJsonSchema,
)

from agent_memory.core.api import message_shapes, not_kept
from agent_memory.core.api.field_bounds import MAX_ITEM_CHARS as MAX_ITEM_CHARS  # re-exported
from agent_memory.core.api.field_bounds import MAX_LIST_ITEMS as MAX_LIST_ITEMS  # re-exported
from agent_memory.core.api.field_bounds import MAX_MESSAGE_CHARS as MAX_MESSAGE_CHARS  # re-exported
from agent_memory.core.api.field_bounds import MAX_MESSAGES as MAX_MESSAGES  # re-exported
from agent_memory.core.api.field_bounds import MAX_TASK_CHARS as MAX_TASK_CHARS  # re-exported
from agent_memory.core.api.field_errors import field_path as field_path  # re-exported
from agent_memory.core.api.field_errors import field_problems, listed
from agent_memory.core.api.json_input import MAX_OBJECT_KEYS, check_depth, check_document
from agent_memory.core.api.message_text import (
    KNOWN_PART_TYPES,
    REFUSAL_PART_TYPE,
    TEXT_PART_TYPES,
    TOOL_RESULT_PART_TYPE,
    PartsReading,
    read_parts,
    tool_call_line,
    with_tool_calls,
)
from agent_memory.core.model import receipts
from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.model.identifiers import ID_PATTERN as ID_PATTERN  # re-exported
from agent_memory.core.model.models import (
    FactCandidate,
    Message,
    ProcedureDraft,
    ProcedureFeedback,
    Role,
    RunArtifacts,
    RunFinished,
)

M = TypeVar("M", bound=BaseModel)

# Text fields must hold something besides whitespace (a search, as JSON Schema patterns are).
# Whitespace is spelled out: "\s" means other characters to Python (\x1c-\x1f), to Rust,
# which validates here (U+0085) and to ECMA-262, whose regexes JSON Schema names (U+FEFF); this
# class is their union, read alike by all three.
WHITESPACE = (
    r"\t\n\x0b\x0c\r \x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)
NOT_BLANK = f"[^{WHITESPACE}]"
# RFC 3339 date-time (section 5.6) with a valid day of its month, years 1000 to 2999.
_YEAR = "[12][0-9]{3}"
_LEAP_YEAR = "(?:[12][0-9](?:0[48]|[2468][048]|[13579][26])|(?:1[26]|2[048])00)"
_DATE = (
    f"(?:{_YEAR}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])"
    "|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))"
    f"|{_LEAP_YEAR}-02-29)"
)
_TIME = (
    "[Tt](?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]+)?"
    "(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])"
)
DATE_TIME_PATTERN = f"^{_DATE}{_TIME}$"
_DATE_TIME = re.compile(DATE_TIME_PATTERN)
DATE_TIME_RULE = (
    "must be an RFC 3339 date-time string such as 2026-05-01T12:00:00Z (years 1000-2999)"
)

Identifier = Annotated[str, StringConstraints(pattern=ID_PATTERN)]
ShortText = Annotated[str, StringConstraints(max_length=MAX_ITEM_CHARS)]
ItemList = Annotated[list[ShortText], Field(max_length=MAX_LIST_ITEMS)]


def _finite(value: object) -> object:
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError("must be a finite number")
    return value


def _rfc3339(value: object) -> object:
    # JSON carries a finish time as the schema's string (never a number: the schema refuses
    # one); a Python caller may pass an aware datetime, held to the form it is sent in. Years
    # end at 2999, so no offset can push an instant out of datetime's range in UTC.
    if isinstance(value, datetime) and value.utcoffset() is None:
        return value  # naive: AwareDatetime names it
    text = value.isoformat() if isinstance(value, datetime) else value
    if not isinstance(text, str) or not _DATE_TIME.fullmatch(text):
        raise ValueError(DATE_TIME_RULE)
    return value


# Not strict: JSON carries date-times as strings, which strict mode takes for no datetime.
FinishedAt = Annotated[
    AwareDatetime,
    Field(strict=False),
    BeforeValidator(_rfc3339),
    WithJsonSchema({"type": "string", "format": "date-time", "pattern": DATE_TIME_PATTERN}),
]


class StrictModel(BaseModel):
    """Base of contract models: unknown fields and silent type coercion are errors."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


EventRole = Literal["system", "human", "ai", "tool", "user", "assistant", "function", "developer"]
# Each role an event may name, as the core holds it. Beside the core's own, the names of OpenAI's
# chat API (user, assistant), which most agents log their runs in; ``function`` is OpenAI's
# legacy role for a tool's answer (``name`` names the function; without a call id it answers
# the ai message before it, as the core reads any tool message); ``developer`` is what its newer
# models call the system message.
CORE_ROLES: dict[str, Role] = {
    "system": "system",
    "human": "human",
    "ai": "ai",
    "tool": "tool",
    "user": "human",
    "assistant": "ai",
    "function": "tool",
    "developer": "system",
}


Id = Annotated[str, StringConstraints(max_length=256)]
MessageText = Annotated[str, StringConstraints(max_length=MAX_MESSAGE_CHARS)]


class FunctionCallModel(StrictModel):
    """OpenAI's function call: its name and its arguments as a JSON text."""

    name: Id
    arguments: Annotated[str, StringConstraints(max_length=MAX_MESSAGE_CHARS)] = ""


class OpenAiToolCallModel(StrictModel):
    """A tool call as OpenAI's chat API logs it: ``{"id", "type": "function", "function"}``."""

    id: Id
    type: Literal["function"] = "function"
    function: FunctionCallModel


class LangChainToolCallModel(StrictModel):
    """A tool call as LangChain's ``AIMessage.tool_calls`` holds it."""

    id: Id | None = None
    name: Id
    args: dict[str, Any] = Field(default_factory=dict)
    type: Literal["tool_call"] = "tool_call"


Arguments = Annotated[dict[str, Any], Field(default_factory=dict)]


class PartModel(BaseModel):
    """A content part: its ``type`` picks its shape; keys beside those it declares (ids,
    citations, cache settings) are accepted, and reported when they hold what is not kept.
    """

    model_config = ConfigDict(extra="allow", strict=True, frozen=True)


class TextPartModel(PartModel):
    """A text part: OpenAI's and Anthropic's ``text``, the Responses API's ``input_text`` and
    ``output_text``.
    """

    type: Literal["text", "input_text", "output_text"]
    text: Annotated[str, StringConstraints(max_length=MAX_MESSAGE_CHARS)]


class RefusalPartModel(PartModel):
    """A model's refusal as a part (OpenAI); kept as text."""

    type: Literal["refusal"]
    refusal: Annotated[str, StringConstraints(max_length=MAX_MESSAGE_CHARS)]


class ToolUsePartModel(PartModel):
    """A tool call as Anthropic logs it in content: ``{"type": "tool_use", "id", "name",
    "input"}``; kept as a tool-call line.
    """

    type: Literal["tool_use", "server_tool_use"]
    id: Id | None = None
    name: Id
    input: Arguments


class ToolCallPartModel(PartModel):
    """A tool call as a LangChain content block: ``{"type": "tool_call", "id", "name",
    "args"}``; kept as a tool-call line.
    """

    type: Literal["tool_call"]
    id: Id | None = None
    name: Id
    args: Arguments


class ToolResultPartModel(PartModel):
    """A tool's answer as Anthropic logs it in a user turn: ``{"type": "tool_result",
    "tool_use_id", "content", "is_error"}``; its text is kept.
    """

    type: Literal["tool_result"]
    tool_use_id: Id
    content: ResultContent | None = None
    is_error: bool = False


def _not_a_known_part_type(value: str) -> str:
    if value in KNOWN_PART_TYPES:
        raise ValueError(f"a {value!r} part has the fields of its type")
    return value


class OtherPartModel(PartModel):
    """A part of any other type (an image, audio, a file, a reasoning trace): accepted, and
    reported as not kept.
    """

    type: Annotated[
        str,
        StringConstraints(max_length=64),
        AfterValidator(_not_a_known_part_type),
        WithJsonSchema({"type": "string", "maxLength": 64, "not": {"enum": [*KNOWN_PART_TYPES]}}),
    ]


_PART_SHAPES = {
    **{kind: "shape:part-text" for kind in TEXT_PART_TYPES},
    REFUSAL_PART_TYPE: "shape:part-refusal",
    "tool_use": "shape:part-tool_use",
    "server_tool_use": "shape:part-tool_use",
    "tool_call": "shape:part-tool_call",
    TOOL_RESULT_PART_TYPE: "shape:part-tool_result",
}


def _part_shape(value: object) -> str | None:
    """Which member of :data:`ContentPart` a part is: by its ``type``, as the schema's
    ``oneOf`` tells them apart.
    """
    if isinstance(value, str):
        return "shape:part-str"
    if isinstance(value, BaseModel):
        value = value.model_dump()
    if not isinstance(value, dict) or not isinstance(value.get("type"), str):
        return None
    return _PART_SHAPES.get(value["type"], "shape:part-other")


def _call_shape(value: object) -> str | None:
    """Which member of :data:`ToolCall` a tool call is: its id, OpenAI's object (with a
    ``function``) or LangChain's (with a ``name``).
    """
    if isinstance(value, str):
        return "shape:call-id"
    if isinstance(value, BaseModel):
        value = value.model_dump()
    if not isinstance(value, dict):
        return None
    if "function" in value:
        return "shape:call-openai"
    return "shape:call-langchain" if "name" in value or "args" in value else None


def _content_shape(value: object) -> str | None:
    if isinstance(value, str):
        return "shape:content-str"
    return "shape:content-parts" if isinstance(value, list | tuple) else None


# Each union picks its member by shape, so an error speaks of the shape given; the tags
# ("shape:...") are left out of the field path.
ToolCall = Annotated[
    Annotated[Id, Tag("shape:call-id")]
    | Annotated[OpenAiToolCallModel, Tag("shape:call-openai")]
    | Annotated[LangChainToolCallModel, Tag("shape:call-langchain")],
    Discriminator(
        _call_shape,
        custom_error_type="tool_call_shape",
        custom_error_message=(
            "a tool call is its id, or an object with 'id' and 'function' (OpenAI) or "
            "'name' and 'args' (LangChain)"
        ),
    ),
]
ContentPart = Annotated[
    Annotated[str, StringConstraints(max_length=MAX_MESSAGE_CHARS), Tag("shape:part-str")]
    | Annotated[TextPartModel, Tag("shape:part-text")]
    | Annotated[RefusalPartModel, Tag("shape:part-refusal")]
    | Annotated[ToolUsePartModel, Tag("shape:part-tool_use")]
    | Annotated[ToolCallPartModel, Tag("shape:part-tool_call")]
    | Annotated[ToolResultPartModel, Tag("shape:part-tool_result")]
    | Annotated[OtherPartModel, Tag("shape:part-other")],
    Discriminator(
        _part_shape,
        custom_error_type="content_part_shape",
        custom_error_message="a content part is a string or an object with a string 'type'",
    ),
]


def _result_part_shape(value: object) -> str | None:
    """Which member of a tool result's parts a part is: text, or a part of another type (an
    image); a refusal, a tool call or a tool result has no place inside a tool's answer.
    """
    shape = _part_shape(value)
    return shape if shape in ("shape:part-str", "shape:part-text", "shape:part-other") else None


ResultPart = Annotated[
    Annotated[str, StringConstraints(max_length=MAX_MESSAGE_CHARS), Tag("shape:part-str")]
    | Annotated[TextPartModel, Tag("shape:part-text")]
    | Annotated[OtherPartModel, Tag("shape:part-other")],
    Discriminator(
        _result_part_shape,
        custom_error_type="result_part_shape",
        custom_error_message=(
            "a tool result's part is a string, a text part or a part of another type than "
            "refusal, tool_use, tool_call and tool_result"
        ),
    ),
]
ResultContent = Annotated[
    Annotated[str, StringConstraints(max_length=MAX_MESSAGE_CHARS), Tag("shape:content-str")]
    | Annotated[list[ResultPart], Field(max_length=MAX_LIST_ITEMS), Tag("shape:content-parts")],
    Discriminator(
        _content_shape,
        custom_error_type="content_shape",
        custom_error_message="content is a string, a list of content parts, or null",
    ),
]
Content = Annotated[
    Annotated[str, StringConstraints(max_length=MAX_MESSAGE_CHARS), Tag("shape:content-str")]
    | Annotated[list[ContentPart], Field(max_length=MAX_LIST_ITEMS), Tag("shape:content-parts")],
    Discriminator(
        _content_shape,
        custom_error_type="content_shape",
        custom_error_message="content is a string, a list of content parts, or null",
    ),
]
ToolResultPartModel.model_rebuild()


class MessageModel(StrictModel):
    """One message of the run's working memory, in LangChain's, OpenAI's or Anthropic's
    shape.
    """

    role: EventRole = Field(
        description=(
            "system, human, ai or tool (LangChain's message types); OpenAI's role names "
            "user, assistant, function and developer are accepted and held as human, ai, tool "
            "and system. A user message of Anthropic tool_result parts alone is held as a "
            "tool message."
        )
    )
    content: Content | None = Field(
        default=None,
        description=(
            "The text; or content parts (strings; text, input_text, output_text and refusal "
            "parts, kept as text; tool_use and tool_call parts, kept as tool-call lines; "
            "tool_result parts, whose text is kept; parts of other types, reported as not "
            "kept); or null (an assistant message that only calls tools)."
        ),
    )
    name: Id | None = None
    tool_call_id: Id | None = None
    # Null as OpenAI's SDK dumps a message without them (ChatCompletionMessage.model_dump()).
    tool_calls: Annotated[list[ToolCall], Field(max_length=128)] | None = Field(
        default_factory=list,
        description=(
            "The ids of the tool calls this message issued, or the calls themselves as OpenAI "
            "or LangChain log them (their names and arguments are kept as text)."
        ),
    )
    # Fields OpenAI's chat API logs beside an assistant message: a refusal is kept as text, a
    # legacy function call like a tool call; annotations are reported as not kept.
    refusal: Annotated[str, StringConstraints(max_length=MAX_MESSAGE_CHARS)] | None = None
    function_call: FunctionCallModel | None = None
    annotations: Annotated[list[dict[str, Any]], Field(max_length=MAX_LIST_ITEMS)] | None = Field(
        default_factory=list
    )
    audio: None = None

    def parts(self) -> PartsReading:
        """The content parts, read (an empty reading for string content)."""
        if not isinstance(self.content, list):
            return PartsReading()
        return read_parts(
            part if isinstance(part, str) else part.model_dump() for part in self.content
        )

    def text(self) -> str:
        """The one text the core keeps: content (tool results' text after its own), refusal,
        then one line per tool call.
        """
        parts = self.parts()
        if isinstance(self.content, list):
            content = "\n".join(filter(None, [parts.text, *parts.results]))
        else:
            content = self.content or ""
        if self.refusal:
            content = "\n".join(filter(None, [content, self.refusal]))
        tool_calls = self.tool_calls or []
        calls = [_call_line(call) for call in tool_calls if not isinstance(call, str)]
        listed = {call if isinstance(call, str) else call.id for call in tool_calls}
        # A call logged both in tool_calls and as a content part (LangChain keeps both): once.
        calls += [line for line, call_id in parts.calls if call_id is None or call_id not in listed]
        if self.function_call is not None:
            calls.append(tool_call_line(self.function_call.name, self.function_call.arguments))
        return with_tool_calls(content, calls) if calls else content

    def core_role(self) -> Role:
        """The role the core holds: the event's, or ``tool`` for a user turn that only
        answers tool calls (Anthropic's tool_result parts).
        """
        role = CORE_ROLES[self.role]
        return "tool" if role == "human" and self.parts().only_results else role

    def answers(self) -> str | None:
        """The call this message answers: its ``tool_call_id``, or its first tool result's."""
        return self.tool_call_id or next(iter(self.parts().result_ids), None)

    def call_ids(self) -> tuple[str, ...]:
        """The ids of the tool calls, however they were given."""
        ids = [call if isinstance(call, str) else call.id for call in self.tool_calls or []]
        ids += [call_id for _, call_id in self.parts().calls]
        return tuple(dict.fromkeys(i for i in ids if i))


message_shapes.rebuild(
    {
        "Content": Content,
        "ResultContent": ResultContent,
        "EventRole": EventRole,
        "Id": Id,
        "MessageText": MessageText,
    }
)
# A message in any shape an event may carry (see message_shapes): the canonical one, or another
# framework's, told apart by its ``type`` or, without one, by its content's blocks.
AnyMessage = Annotated[
    Annotated[MessageModel, Tag("shape:message")]
    | Annotated[message_shapes.StrandsMessage, Tag("shape:message-strands")]
    | Annotated[message_shapes.LangChainDump, Tag("shape:message-langchain")]
    | Annotated[message_shapes.LangChainChat, Tag("shape:message-langchain-chat")]
    | Annotated[message_shapes.LangChainStored, Tag("shape:message-langchain-stored")]
    | Annotated[message_shapes.ResponsesMessage, Tag("shape:item-message")]
    | Annotated[message_shapes.ResponsesFunctionCall, Tag("shape:item-function_call")]
    | Annotated[message_shapes.ResponsesFunctionCallOutput, Tag("shape:item-function_call_output")]
    | Annotated[message_shapes.OtherItem, Tag("shape:item-other")],
    Discriminator(
        message_shapes.message_shape,
        custom_error_type="message_shape",
        custom_error_message="a message is an object whose 'type', if given, is a string",
    ),
]


def canonical_messages(
    messages: Sequence[MessageModel | message_shapes.OtherShape],
) -> list[tuple[MessageModel, tuple[str, ...]]]:
    """Each message in the canonical form, with what its own shape held that is not kept."""
    out: list[tuple[MessageModel, tuple[str, ...]]] = []
    for index, message in enumerate(messages):
        if isinstance(message, MessageModel):
            out.append((message, ()))
            continue
        data, notes = message_shapes.canonical(message)
        try:
            out.append((MessageModel.model_validate(data), notes))
        except ValidationError as error:
            first = error.errors(include_url=False)[0]
            raise InvalidInput(f"messages[{index}]", first["msg"]) from None
    return out


def _call_line(call: OpenAiToolCallModel | LangChainToolCallModel) -> str:
    if isinstance(call, OpenAiToolCallModel):
        return tool_call_line(call.function.name, call.function.arguments)
    return tool_call_line(call.name, json.dumps(call.args, sort_keys=True, default=str))


class FactModel(StrictModel):
    """A fact the run learned, with its confidence in [0, 1]."""

    content: Annotated[str, StringConstraints(max_length=MAX_ITEM_CHARS, pattern=NOT_BLANK)]
    confidence: Annotated[float, Field(ge=0.0, le=1.0), BeforeValidator(_finite)]


class ProcedureModel(StrictModel):
    """Steps the run proposes for its task type."""

    title: Annotated[str, StringConstraints(max_length=200, pattern=NOT_BLANK)]
    steps: Annotated[
        list[Annotated[str, StringConstraints(max_length=MAX_ITEM_CHARS, pattern=NOT_BLANK)]],
        Field(min_length=1, max_length=MAX_LIST_ITEMS),
    ]


class ArtifactsModel(StrictModel):
    """What the agent already distilled from its run; with it no LLM is needed."""

    task_summary: Annotated[str, StringConstraints(max_length=MAX_ITEM_CHARS)] = ""
    outcome: Literal["COMPLETED", "PARTIAL", "FAILED", "UNKNOWN"] | None = None
    key_findings: ItemList = Field(default_factory=list)
    approach_used: Annotated[str, StringConstraints(max_length=MAX_TASK_CHARS)] = ""
    tools_used: ItemList = Field(default_factory=list)
    reusable_patterns: ItemList = Field(default_factory=list)
    facts: Annotated[list[FactModel], Field(max_length=MAX_LIST_ITEMS)] = Field(
        default_factory=list
    )
    procedure: ProcedureModel | None = None


class FeedbackModel(StrictModel):
    """Whether a procedure served to this run worked, with the receipt of its serving."""

    procedure_id: Identifier
    succeeded: bool
    receipt: (
        Annotated[
            str,
            StringConstraints(max_length=receipts.MAX_RECEIPT_CHARS, pattern=receipts.PATTERN),
        ]
        | None
    ) = Field(
        default=None,
        description=(
            "procedure.receipt of the bootstrap reply that served the procedure, unchanged. "
            "Feedback without a valid one (signed, for this tenant, agent and procedure, "
            "not expired, not used by another run) is accepted but not counted."
        ),
    )


class RunFinishedEvent(StrictModel):
    """The detail of a ``RunFinished`` event: what an agent sends when a run ends."""

    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        frozen=True,
        title="RunFinished",
        json_schema_extra={
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://agent-memory.dev/schemas/run_finished.schema.json",
            "description": (
                "Detail of the EventBridge event with detail-type RunFinished. Identifiers never "
                "contain '#', '/' or whitespace, so tenant-prefixed keys cannot collide. "
                "Beyond this schema, the JSON text of an event is refused when it is larger "
                "than 262,144 bytes of UTF-8 (256 KiB, EventBridge's limit for one event), "
                "names a key twice in one object, holds an object of more than 64 keys "
                "(anywhere, a tool call's arguments too), nests arrays and objects more "
                "than 64 deep, holds a number a 64-bit float cannot hold as written "
                "(1e400; 1e-400, which would read as 0; NaN), or a lone UTF-16 surrogate "
                "escape."
            ),
        },
    )

    tenant_id: Identifier
    agent_id: Identifier
    run_id: Identifier
    task: Annotated[str, StringConstraints(max_length=MAX_TASK_CHARS, pattern=NOT_BLANK)]
    task_type: Identifier | None = None
    domain: Identifier | None = None
    outcome: Literal["COMPLETED", "PARTIAL", "FAILED"] | None = None
    messages: Annotated[list[AnyMessage], Field(max_length=MAX_MESSAGES)] = Field(
        default_factory=list,
        description=(
            "The run's messages, oldest first: canonical ones (OpenAI's chat shape with "
            "Anthropic's and LangChain's content blocks), LangChain messages as model_dump() "
            "or messages_to_dict() give them, items of OpenAI's Responses API, or Strands "
            "messages."
        ),
    )
    artifacts: ArtifactsModel | None = None
    procedure_feedback: FeedbackModel | None = None
    finished_at: FinishedAt | None = None


def json_schema() -> dict[str, Any]:
    """The published JSON Schema of the RunFinished detail."""
    schema = RunFinishedEvent.model_json_schema(mode="validation")
    _anchor_ends_for_every_engine(schema)
    _bound_every_object(schema)
    return schema


def _bound_every_object(schema: dict[str, Any]) -> None:
    # check_document refuses an object of more than MAX_OBJECT_KEYS keys anywhere in an event:
    # the schema says so of each object it describes (an open object's values, any JSON, are
    # bound by its description, so the schema needs no recursive definition).
    stack: list[Any] = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            stack.extend(node.values())
            if node.get("type") == "object":
                node["maxProperties"] = MAX_OBJECT_KEYS
        elif isinstance(node, list):
            stack.extend(node)


def _anchor_ends_for_every_engine(schema: dict[str, Any]) -> None:
    # Python's re, and so Python's JSON Schema validators, let a final "$" match before a
    # trailing newline ("acme\n"); ECMA-262 and Rust do not. Each anchored pattern also says
    # so in a form every engine reads alike.
    stack: list[Any] = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            stack.extend(node.values())
            pattern = node.get("pattern")
            if isinstance(pattern, str) and pattern.endswith("$") and "not" not in node:
                node["not"] = {"pattern": "\n$"}
        elif isinstance(node, list):
            stack.extend(node)


def parse_run_finished(data: object) -> RunFinished:
    """Validate one RunFinished detail and return it as a domain record.

    Raises :class:`InvalidInput` naming each offending field (a dotted path such as
    ``artifacts.facts[2].confidence``); nothing is written for an invalid event.
    """
    if not isinstance(data, dict):
        raise InvalidInput("event", "must be a JSON object")
    check_document(data)
    return run_from_model(validate(RunFinishedEvent, data))


def validate(model: type[M], data: dict[str, Any]) -> M:
    """``data`` as a ``model``, or :class:`InvalidInput` naming every bad field."""
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise invalid_input(error, model) from None


def invalid_input(error: ValidationError, model: type[BaseModel] | None = None) -> InvalidInput:
    """Every problem pydantic found, as one :class:`InvalidInput`: ``field`` names the first,
    the message lists the others by path (bounded), and a misspelt field name says which
    field of ``model`` it likely meant.
    """
    problems = field_problems(error, model, blank_pattern=NOT_BLANK)
    field, message = problems[0] if problems else ("event", "is not valid")
    return InvalidInput(field, message + listed(problems))


def run_from_model(event: RunFinishedEvent) -> RunFinished:
    """The domain record of a validated event model.

    Raises :class:`InvalidInput` naming the field when a value the model holds as any JSON (a
    tool call's arguments, an annotation, a part's extra key) nests past
    :data:`~agent_memory.core.api.json_input.MAX_DEPTH`, as the schema's description says.
    """
    for index, message in enumerate(event.messages):
        if not isinstance(message, MessageModel):
            check_depth(message.model_dump(by_alias=True), f"messages[{index}]", 3)
    messages = canonical_messages(event.messages)
    for path, value, depth in _open_values([m for m, _ in messages]):
        check_depth(value, path, depth)
    artifacts = None
    if event.artifacts is not None:
        a = event.artifacts
        artifacts = RunArtifacts(
            task_summary=a.task_summary,
            outcome=a.outcome or event.outcome or "UNKNOWN",
            key_findings=tuple(a.key_findings),
            approach_used=a.approach_used,
            tools_used=tuple(a.tools_used),
            reusable_patterns=tuple(a.reusable_patterns),
            facts=tuple(FactCandidate(f.content, f.confidence) for f in a.facts),
            procedure=(
                ProcedureDraft(a.procedure.title, tuple(a.procedure.steps)) if a.procedure else None
            ),
        )
    feedback = event.procedure_feedback
    return RunFinished(
        tenant_id=event.tenant_id,
        agent_id=event.agent_id,
        run_id=event.run_id,
        task=event.task,
        task_type=event.task_type,
        domain=event.domain,
        outcome=event.outcome,
        messages=tuple(
            Message(m.core_role(), m.text(), m.name, m.answers(), m.call_ids()) for m, _ in messages
        ),
        artifacts=artifacts,
        procedure_feedback=(
            ProcedureFeedback(feedback.procedure_id, feedback.succeeded, feedback.receipt)
            if feedback
            else None
        ),
        finished_at=event.finished_at.timestamp() if event.finished_at else None,
        not_kept=messages_not_kept(
            [m for m, _ in messages], notes=[notes for _, notes in messages]
        ),
    )


def _open_values(
    messages: Sequence[MessageModel],
) -> Iterator[tuple[str, object, int]]:
    """Every value the messages hold as any JSON, with its path and how deep in the event it
    is (the event, ``messages``, a message and the field holding it: four levels down).
    """
    for i, message in enumerate(messages):
        here = f"messages[{i}]"
        for j, call in enumerate(message.tool_calls or []):
            if isinstance(call, LangChainToolCallModel):
                yield f"{here}.tool_calls[{j}].args", call.args, 6
        for j, annotation in enumerate(message.annotations or []):
            yield f"{here}.annotations[{j}]", annotation, 5
        if isinstance(message.content, list):
            yield from _open_part_values(message.content, f"{here}.content", 5)


def _open_part_values(
    parts: Sequence[Any], path: str, depth: int
) -> Iterator[tuple[str, object, int]]:
    for k, part in enumerate(parts):
        if not isinstance(part, PartModel):
            continue
        where = f"{path}[{k}]"
        for key, value in (part.model_extra or {}).items():
            yield f"{where}.{key}", value, depth + 1
        if isinstance(part, ToolUsePartModel):
            yield f"{where}.input", part.input, depth + 1
        elif isinstance(part, ToolCallPartModel):
            yield f"{where}.args", part.args, depth + 1
        elif isinstance(part, ToolResultPartModel) and isinstance(part.content, list):
            yield from _open_part_values(part.content, f"{where}.content", depth + 2)


def messages_not_kept(
    messages: Sequence[MessageModel], notes: Sequence[tuple[str, ...]] = ()
) -> tuple[str, ...]:
    """What the messages hold that the core does not keep, a line per kind: parts carrying no
    text (by type), keys of kept parts (citations, annotations), a message's annotations, and
    ``notes``, what each message's own shape held (see ``message_shapes.canonical``).
    """
    noted: dict[str, list[int]] = defaultdict(list)
    for index, kinds in enumerate(notes):
        for kind in kinds:
            noted[kind].append(index)
    parts: dict[str, list[int]] = defaultdict(list)
    part_counts: Counter[str] = Counter()
    keys: dict[str, list[int]] = defaultdict(list)
    key_counts: Counter[str] = Counter()
    annotated: list[int] = []
    for index, message in enumerate(messages):
        reading = message.parts()
        for kind, count in reading.unread.items():
            parts[kind].append(index)
            part_counts[kind] += count
        for key, count in reading.unread_keys.items():
            keys[key].append(index)
            key_counts[key] += count
        if message.annotations:
            annotated.append(index)
    lines = [
        f"{not_kept.counted(part_counts[kind], repr(kind) + ' content part')} not kept "
        f"({not_kept.messages(where)}): only text, refusal, tool-use and tool-result parts "
        "are kept"
        for kind, where in sorted(parts.items())
    ]
    lines += [
        f"{key!r} of {not_kept.counted(key_counts[key], 'content part')} not kept "
        f"({not_kept.messages(where)})"
        for key, where in sorted(keys.items())
    ]
    if annotated:
        lines.append(f"'annotations' of {not_kept.messages(annotated)} not kept")
    lines += [
        f"{kind} not kept ({not_kept.messages(where)})" for kind, where in sorted(noted.items())
    ]
    return tuple(lines)


# What the RunFinished rule hands the state machine under principal-tag tenancy: the detail
# and the source the bus policy checked.
SOURCED_KEYS = frozenset({"source", "detail"})


def check_event(document: object) -> None:
    """Refuse an event, as already parsed, that its JSON text could not have carried whole.

    The detail (of an EventBridge envelope, a ``{source, detail}`` pair, or the bare detail)
    and what wraps it are each held to :func:`~agent_memory.core.api.json_input.check_document`:
    at most 256 KiB of compact JSON, no object of more than 64 keys, finite numbers, Unicode
    text. A detail's fields are named within it, as the validator names them.
    """
    if not isinstance(document, dict) or len(document) > MAX_OBJECT_KEYS:
        check_document(document)
        return
    detail = document.get("detail")
    if not isinstance(detail, dict):
        if isinstance(detail, str | bytes) and (
            "detail-type" in document or document.keys() == SOURCED_KEYS
        ):
            # A validator would read it as JSON text, with a reader of its own.
            raise InvalidInput("detail", "must be a JSON object")
        check_document(document)
        return
    check_document({key: value for key, value in document.items() if key != "detail"})
    check_document(detail)


def unwrap_event(document: object) -> object:
    """The RunFinished detail of a full EventBridge event (or of a ``{source, detail}``
    pair), or the document itself.

    The one place the product takes a detail out of what EventBridge delivers: the CLI, the
    local pipeline, the SDK and the extract Lambda (which also holds the envelope's own fields
    to EventBridge's event model) all call it.
    """
    if isinstance(document, dict) and "detail" in document and "detail-type" in document:
        check_detail_type(document)
        return document["detail"]
    if isinstance(document, dict) and document.keys() == SOURCED_KEYS:
        return document["detail"]
    return document


def check_detail_type(envelope: dict[str, Any]) -> None:
    """Refuse an EventBridge envelope of any detail type but ``RunFinished``."""
    if envelope["detail-type"] != "RunFinished":
        raise InvalidInput("detail-type", "must be 'RunFinished'")


if __name__ == "__main__":
    json.dump(json_schema(), sys.stdout, indent=2, sort_keys=True)
    sys.stdout.write("\n")
