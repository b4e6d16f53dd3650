"""What the MCP tools take and return, as JSON schemas a model can read.

The parts of a run (``messages``, ``artifacts``) are described by the RunFinished contract's
own schema, inlined: one definition for the CLI, the SDK and this server. The SDK validates
them; the schema tells the model what to send.
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, WithJsonSchema

from agent_memory.core.api.contracts import MAX_TASK_CHARS, json_schema
from agent_memory.core.model.decisions import MAX_REASON
from agent_memory.core.model.identifiers import ID_PATTERN
from agent_memory.core.model.visible import shown

MAX_SEARCH_LIMIT = 50
Outcome = Literal["COMPLETED", "PARTIAL", "FAILED"]
OUTCOMES: tuple[Outcome, ...] = ("COMPLETED", "PARTIAL", "FAILED")
ID_RULE = "letters, digits, '.', '_' or '-', starting with a letter or digit, at most 128"


@cache
def _contract() -> dict[str, Any]:
    return json_schema(shapes="canonical")


def contract_property(name: str) -> dict[str, Any]:
    """The RunFinished contract's schema of the property ``name``, every ``$ref`` inlined."""
    contract = _contract()
    definitions = contract["$defs"]

    def inline(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                return inline(copy.deepcopy(definitions[ref.rsplit("/", 1)[-1]]))
            return {key: inline(value) for key, value in node.items()}
        if isinstance(node, list):
            return [inline(item) for item in node]
        return node

    schema: dict[str, Any] = inline(contract["properties"][name])
    return schema


def _optional(schema: dict[str, Any], description: str) -> dict[str, Any]:
    options = schema.get("anyOf")
    body = {**schema, "anyOf": options} if options else {"anyOf": [schema, {"type": "null"}]}
    body.pop("default", None)
    body.pop("title", None)
    return {**body, "default": None, "description": description}


Task = Annotated[
    str,
    Field(
        min_length=1,
        max_length=MAX_TASK_CHARS,
        description="The task in words, as you would state it (what memory is searched for), "
        "e.g. 'Review the Tailspin MSA for liability risk'.",
    ),
]
Query = Annotated[
    str,
    Field(
        min_length=1,
        max_length=MAX_TASK_CHARS,
        description="What to look for in past runs and confirmed facts, in words.",
    ),
]
TaskType = Annotated[
    str | None,
    Field(
        pattern=ID_PATTERN,
        description="The kind of task (e.g. 'contract_review'): selects the validated "
        f"procedure to follow. Identifier: {ID_RULE}.",
    ),
]
FactHash = Annotated[
    str,
    Field(pattern=ID_PATTERN, description="The fact's hash (fact_hash in memory_context's facts)."),
]
FactDomain = Annotated[
    str, Field(pattern=ID_PATTERN, description="The fact's knowledge domain (e.g. 'contract_law').")
]
Domain = Annotated[
    str | None,
    Field(
        pattern=ID_PATTERN,
        description=f"The knowledge domain (e.g. 'contract_law'): narrows the facts. {ID_RULE}.",
    ),
]
RunId = Annotated[
    str | None,
    Field(
        pattern=ID_PATTERN,
        description="Your id for this run (the idempotency key: a run id is recorded once). "
        f"Leave it out to have one generated. {ID_RULE}.",
    ),
]
Limit = Annotated[
    int,
    Field(
        ge=1,
        le=MAX_SEARCH_LIMIT,
        description=f"At most this many episodes and this many facts (1 to {MAX_SEARCH_LIMIT}).",
    ),
]
OutcomeArg = Annotated[
    Outcome,
    Field(description="How the run ended: COMPLETED, PARTIAL or FAILED."),
]
Messages = Annotated[
    list[dict[str, Any]] | None,
    WithJsonSchema(
        _optional(
            contract_property("messages"),
            "The run's conversation, oldest first: {role, content} objects (role system, "
            "human, ai or tool; OpenAI's user, assistant and function are accepted). "
            "Give messages or artifacts, or both.",
        )
    ),
]
Artifacts = Annotated[
    dict[str, Any] | None,
    WithJsonSchema(
        _optional(
            contract_property("artifacts"),
            "What you distilled from the run: task_summary, key_findings, facts "
            "({content, confidence}), reusable_patterns, and the procedure you followed "
            "({title, steps}). With artifacts no model is needed to extract them.",
        )
    ),
]
ProcedureId = Annotated[
    str,
    Field(
        pattern=ID_PATTERN,
        description="The id of the procedure memory_context served (procedure.procedure_id).",
    ),
]
OptionalProcedureId = Annotated[
    str | None,
    Field(
        pattern=ID_PATTERN,
        description="The procedure memory_context served to this run, if you followed one: "
        "its result is counted towards the procedure's track record. Give "
        "procedure_succeeded with it.",
    ),
]
ProcedureSucceeded = Annotated[
    bool | None,
    Field(description="Whether following that procedure worked (with procedure_id)."),
]
Succeeded = Annotated[bool, Field(description="Whether following the procedure worked.")]
FlagKindArg = Annotated[
    Literal["episode", "fact", "procedure"],
    Field(
        description="What memory_context or search_memory served you: episode, fact or procedure."
    ),
]
FlagRecordId = Annotated[
    str,
    Field(
        min_length=1,
        max_length=2 * 128 + 1,
        pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}(/[A-Za-z0-9][A-Za-z0-9._-]{0,127})?$",
        description="Which one: an episode's run_id (another agent's episode: that agent's id, "
        "'/', its run_id), a fact's fact_hash, a procedure's procedure_id.",
    ),
]
FlagReason = Annotated[
    str,
    Field(
        min_length=1,
        max_length=MAX_REASON,
        description="Why it is wrong, in a sentence or two (a person reads it to decide).",
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
