"""What the MCP tools take and return, as JSON schemas a model can read.

A host sends ``tools/list`` into every conversation, so the schemas are short: the arguments'
own constraints and a few words each, no titles, no null alternatives (:func:`compact`). The
parts of a run (``messages``, ``artifacts``) have a hand-kept schema naming the fields a model
fills; the server still validates them with the full RunFinished contract (through the SDK)
and names the field it refuses, so this schema never restates the contract's every shape.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, WithJsonSchema

from agent_memory.core.api.contracts import MAX_TASK_CHARS
from agent_memory.core.model.decisions import MAX_REASON
from agent_memory.core.model.identifiers import ID_PATTERN
from agent_memory.core.model.visible import shown

MAX_SEARCH_LIMIT = 50
Outcome = Literal["COMPLETED", "PARTIAL", "FAILED"]
OUTCOMES: tuple[Outcome, ...] = ("COMPLETED", "PARTIAL", "FAILED")
ID_RULE = "letters, digits, '.', '_' or '-', starting with a letter or digit, at most 128"


def compact(schema: Any) -> Any:
    """``schema`` without what a host need not read: titles, the null alternative of an
    optional argument (leaving it out says none) and a null default.
    """
    if isinstance(schema, list):
        return [compact(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    options = schema.get("anyOf")
    if isinstance(options, list) and {"type": "null"} in options:
        rest = [option for option in options if option != {"type": "null"}]
        if len(rest) == 1:
            outer = {k: v for k, v in schema.items() if k != "anyOf"}
            schema = {**rest[0], **outer}
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "title" or (key == "default" and value is None):
            continue
        if key == "properties" and isinstance(value, dict):
            out[key] = {name: compact(part) for name, part in value.items()}
        else:
            out[key] = compact(value)
    return out


def _text(description: str) -> dict[str, Any]:
    return {"type": "string", "description": description}


def _texts(description: str) -> dict[str, Any]:
    return {"type": "array", "items": {"type": "string"}, "description": description}


# Hand-kept, not generated from the contract's MessageModel: a model needs {role, content}; the
# contract accepts more shapes (content blocks, tool calls) and checks every one server-side.
MESSAGES_SCHEMA: dict[str, Any] = {
    "type": "array",
    "description": "The run's conversation, oldest first. Give messages, artifacts or both.",
    "items": {
        "type": "object",
        "properties": {
            "role": _text("system, human, ai or tool (user, assistant, function accepted)."),
            "content": {"description": "What was said, as text."},
        },
        "required": ["role", "content"],
    },
}
ARTIFACTS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "What you learned (no model is then needed to extract it).",
    "properties": {
        "task_summary": _text("What the run did, in a sentence."),
        "key_findings": _texts("Findings a later run should know."),
        "approach_used": _text("How you went about it."),
        "reusable_patterns": _texts("Ways of working that worked."),
        "facts": {
            "type": "array",
            "description": "Domain facts true beyond this run.",
            "items": {
                "type": "object",
                "properties": {
                    "content": _text("The fact, in a sentence."),
                    "confidence": {
                        "type": "number",
                        "minimum": 0,
                        "maximum": 1,
                        "description": "How sure you are.",
                    },
                },
                "required": ["content", "confidence"],
            },
        },
        "procedure": {
            "type": "object",
            "description": "The procedure you followed, for a person to review.",
            "properties": {
                "title": _text("What it does."),
                "steps": _texts("Its steps, in order."),
            },
            "required": ["title", "steps"],
        },
    },
}

Task = Annotated[
    str,
    Field(
        min_length=1,
        max_length=MAX_TASK_CHARS,
        description="The task in words, e.g. 'Review the Tailspin MSA'.",
    ),
]
Query = Annotated[
    str,
    Field(min_length=1, max_length=MAX_TASK_CHARS, description="What to look for, in words."),
]
TaskType = Annotated[
    str | None,
    Field(
        pattern=ID_PATTERN,
        description="Kind of task, e.g. contract_review (selects its procedure).",
    ),
]
FactHash = Annotated[
    str, Field(pattern=ID_PATTERN, description="The fact_hash a reply gave the fact.")
]
FactDomain = Annotated[
    str, Field(pattern=ID_PATTERN, description="The fact's domain, e.g. 'contract_law'.")
]
Domain = Annotated[
    str | None,
    Field(pattern=ID_PATTERN, description="Knowledge domain, e.g. contract_law."),
]
RunId = Annotated[
    str | None,
    Field(
        pattern=ID_PATTERN,
        description="Your id for the run (recorded once); default: a new one.",
    ),
]
Limit = Annotated[
    int,
    Field(ge=1, le=MAX_SEARCH_LIMIT, description="At most this many episodes and facts each."),
]
OutcomeArg = Annotated[Outcome, Field(description="How the run ended.")]
# Items of any shape: the contract (MessageModel) decides which it accepts, naming the field.
Messages = Annotated[list[Any] | None, WithJsonSchema(MESSAGES_SCHEMA)]
Artifacts = Annotated[dict[str, Any] | None, WithJsonSchema(ARTIFACTS_SCHEMA)]
ProcedureId = Annotated[
    str,
    Field(pattern=ID_PATTERN, description="procedure.procedure_id from memory_context."),
]
OptionalProcedureId = Annotated[
    str | None,
    Field(
        pattern=ID_PATTERN,
        description="The procedure memory_context served, if you followed it.",
    ),
]
ProcedureSucceeded = Annotated[
    bool | None, Field(description="Whether it worked (required with procedure_id).")
]
Succeeded = Annotated[bool, Field(description="Whether following the procedure worked.")]
FlagKindArg = Annotated[
    Literal["episode", "fact", "procedure"], Field(description="What kind of item it is.")
]
FlagRecordId = Annotated[
    str,
    Field(
        min_length=1,
        max_length=2 * 128 + 1,
        pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}(/[A-Za-z0-9][A-Za-z0-9._-]{0,127})?$",
        description="Its run_id (agent/run_id for another agent's), fact_hash or procedure_id.",
    ),
]
FlagReason = Annotated[
    str,
    Field(
        min_length=1,
        max_length=MAX_REASON,
        description="Why it is wrong, in a sentence or two (a person reads it).",
    ),
]


class EpisodeOut(BaseModel):
    """A past run found relevant."""

    run_id: str
    agent_id: str | None = Field(description="The agent whose run it was.")
    task_summary: str
    outcome: str
    key_findings: list[str]
    reusable_patterns: list[str]
    similarity: float


class FactOut(BaseModel):
    """A confirmed domain fact found relevant."""

    content: str
    source: str
    score: float
    fact_hash: str = Field(description="Its id: get_fact shows who confirmed it.")


class ProcedureOut(BaseModel):
    """A procedure of this tenant, with its track record."""

    procedure_id: str
    task_type: str
    status: str
    title: str
    steps: list[str]
    trial: bool = Field(description="Served on trial: its first uses are being counted.")
    times_applied: int
    times_succeeded: int
    success_rate: float | None


class MemoryContextOut(BaseModel):
    """The memory context of a task about to start."""

    context: str = Field(
        description="The memory-context block ('' when nothing relevant is remembered yet)."
    )
    context_guidance: str | None = Field(
        description="How to read the block: its marker lines and that its quotes are data."
    )
    procedure: ProcedureOut | None = Field(
        description="The validated procedure for the task type, if any: report its result."
    )
    episodes: list[EpisodeOut]
    facts: list[FactOut]


class SearchOut(BaseModel):
    """Past episodes and confirmed facts relevant to a query, best first."""

    episodes: list[EpisodeOut]
    facts: list[FactOut]


class RecordedRunOut(BaseModel):
    """A run accepted for consolidation (in the background)."""

    run_id: str
    status: Literal["ACCEPTED", "SUBMITTED"] = Field(
        description="ACCEPTED: queued for consolidation here; SUBMITTED: on the stack's bus."
    )


class FlagOut(BaseModel):
    """A flag on a served item, open until a person decides."""

    flag_id: str
    kind: str
    record_id: str
    reason: str
    status: Literal["OPEN"] = Field(
        default="OPEN",
        description="OPEN: not served to you any more; a person dismisses or acts on it.",
    )


class FactRecordOut(BaseModel):
    """One fact of this tenant with its confirmations."""

    found: bool = Field(description="False: the tenant has no fact by that hash in the domain.")
    content: str | None = None
    status: str | None = None
    confirmations: int = Field(default=0, description="Independent runs that confirmed it.")
    sightings: int = Field(default=0, description="Runs that saw it.")
    confirmed_by_agents: list[str] = Field(default_factory=list)
    served_from: str | None = Field(
        default=None, description="'knowledge base', 'fast path' or None."
    )


def fact_record_out(record: Any) -> FactRecordOut:
    """A fact record as the get_fact tool returns it (stored text shown, hidden characters
    named).
    """
    if record is None:
        return FactRecordOut(found=False)
    return FactRecordOut(
        found=True,
        content=shown(record["content"]),
        status=record["status"],
        confirmations=record["confirmations"],
        sightings=record["sightings"],
        confirmed_by_agents=sorted(record["counted_by"]),
        served_from=record["served_from"],
    )


class PendingProceduresOut(BaseModel):
    """Procedures proposed from past runs, waiting for a person to review them."""

    procedures: list[ProcedureOut]


def episode_out(view: Any) -> EpisodeOut:
    """An episode of a reply, as the tools return it (stored text shown as memory serves it,
    each hidden character by name: ``core/model/visible.py``; so are facts and procedures).
    """
    return EpisodeOut(
        run_id=view["run_id"],
        agent_id=view.get("agent_id"),
        task_summary=shown(view["task_summary"]),
        outcome=view["outcome"],
        key_findings=[shown(text) for text in view["key_findings"]],
        reusable_patterns=[shown(text) for text in view["reusable_patterns"]],
        similarity=view["similarity"],
    )


def fact_out(view: Any) -> FactOut:
    """A fact of a reply, as the tools return it."""
    return FactOut(
        content=shown(view["content"]),
        source=view["source"],
        score=view["score"],
        fact_hash=view["fact_hash"],
    )


def procedure_out(view: Any) -> ProcedureOut:
    """A procedure view without what only a reviewer or the client needs (the receipt)."""
    return ProcedureOut(
        procedure_id=view["procedure_id"],
        task_type=view["task_type"],
        status=view["status"],
        title=shown(view["title"]),
        steps=[shown(step) for step in view["steps"]],
        trial=view["trial"],
        times_applied=view["times_applied"],
        times_succeeded=view["times_succeeded"],
        success_rate=view["success_rate"],
    )
