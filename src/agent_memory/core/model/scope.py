"""Whose episodes a read sees: the asking agent's (the default), a team's, or the tenant's.

Episodes are written per agent and keep their author; a read may widen to other agents of the
same tenant. The tenant is never part of the scope: it comes from the caller's identity, and
every store keeps its tenant boundary whatever the scope says.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

ScopeKind = Literal["agent", "team", "tenant"]
SCOPE_KINDS: tuple[ScopeKind, ...] = ("agent", "team", "tenant")
# A team is read as one index of its members' episodes; past this, read the whole tenant.
MAX_TEAM_AGENTS = 50


@dataclass(frozen=True, slots=True)
class Scope:
    """Whose episodes a read sees, besides the asking agent's own.

    ``agent``: the asking agent's alone (the default). ``team``: the agents named in ``team``
    and the asking one. ``tenant``: every agent of the tenant.
    """

    kind: ScopeKind = "agent"
    team: tuple[str, ...] = ()

    def agents(self, agent_id: str) -> tuple[str, ...] | None:
        """The agents whose episodes are read, sorted (``None``: every agent of the tenant)."""
        if self.kind == "tenant":
            return None
        if self.kind == "team":
            return tuple(sorted({agent_id, *self.team}))
        return (agent_id,)

    def as_json(self) -> dict[str, object]:
        """The scope as a request's ``scope`` and ``team`` fields (none for the default)."""
        if self.kind == "agent":
            return {}
        if self.kind == "team":
            return {"scope": self.kind, "team": list(self.team)}
        return {"scope": self.kind}

    def describe(self) -> str:
        """The scope as a person would name it: ``agent``, ``team a, b`` or ``tenant``."""
        return f"team {', '.join(self.team)}" if self.kind == "team" else self.kind


AGENT_SCOPE = Scope()
TENANT_SCOPE = Scope("tenant")


def team_scope(members: tuple[str, ...] | list[str]) -> Scope:
    """A team of the named agents (order and repeats do not matter)."""
    return Scope("team", tuple(sorted(set(members))))
