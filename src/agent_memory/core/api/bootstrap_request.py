"""The bootstrap request's contract: who is starting which task, and whose memory is read."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints, ValidationInfo, field_validator

from agent_memory.core.api.contracts import (
    MAX_TASK_CHARS,
    NOT_BLANK,
    Identifier,
    StrictModel,
    validate,
)
from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.model.requests import BootstrapRequest, Surface
from agent_memory.core.model.scope import MAX_TEAM_AGENTS, Scope, team_scope


class ReaderModel(StrictModel):
    """Who reads memory, and whose episodes: the agent's own (``scope`` "agent"), a team's
    (``team`` names its agents) or the tenant's.
    """

    tenant_id: Identifier
    agent_id: Identifier
    # Whose episodes are read besides the agent's own (core/model/scope.py).
    scope: Literal["agent", "team", "tenant"] = "agent"
    team: Annotated[
        list[Identifier] | None,
        Field(min_length=1, max_length=MAX_TEAM_AGENTS, validate_default=True),
    ] = None

    @field_validator("team")
    @classmethod
    def _team_with_team_scope(cls, team: list[str] | None, info: ValidationInfo) -> object:
        scope = info.data.get("scope")
        if scope == "team" and team is None:
            raise ValueError("required when scope is 'team' (the agents to read)")
        if scope != "team" and team is not None:
            raise ValueError(f"given with scope '{scope}' (only scope 'team' takes one)")
        return team

    def read_scope(self) -> Scope:
        """The scope as the core reads it."""
        return team_scope(self.team or []) if self.scope == "team" else Scope(self.scope)


class BootstrapRequestModel(ReaderModel):
    """The bootstrap request: who is starting which task."""

    task: Annotated[str, StringConstraints(pattern=NOT_BLANK)]
    task_type: Identifier | None = None
    domain: Identifier | None = None
    # Whose model reads the block (core/model/requests.py): its instructions name what it can do.
    surface: Surface = "sdk"

    def request(self) -> BootstrapRequest:
        """The validated request (a long task is cut, not refused: the query needs its gist)."""
        return BootstrapRequest(
            self.tenant_id,
            self.agent_id,
            self.task[:MAX_TASK_CHARS],
            self.task_type,
            self.domain,
            self.read_scope(),
            self.surface,
        )


def parse_bootstrap_request(data: object) -> BootstrapRequest:
    """Validate a request; raises :class:`InvalidInput` naming the offending field."""
    if not isinstance(data, dict):
        raise InvalidInput("request", "must be a JSON object")
    return validate(BootstrapRequestModel, data).request()
